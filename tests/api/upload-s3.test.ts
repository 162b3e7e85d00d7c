import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestOrg, startBackend, type TestBackend, type TestOrg } from '../helpers/backend';
import { resetEnvCache } from '@/server/env';
import { resetStorageForTests } from '@/server/storage/uploads';

/**
 * Uploads with S3 storage (S3_BUCKET set), against a small in-process stand-in for S3 (path-style; it does not
 * check signatures, but it answers conditional PUTs as S3 documents: `If-None-Match: *` on an existing key → 412).
 * What this proves about the URLs themselves comes from their signed headers (X-Amz-SignedHeaders).
 */
const MAX = 4096;
const BUCKET = 'cg-test-bucket';
const objects = new Map<string, Buffer>();
const log: Array<{ method: string; key: string; status: number }> = [];
let s3: http.Server;
let be: TestBackend;
let org: TestOrg;

beforeAll(async () => {
  s3 = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://s3');
    const key = decodeURIComponent(url.pathname.replace(`/${BUCKET}/`, ''));
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let status = 200;
      let body: Buffer | string = '';
      if (req.method === 'PUT') {
        if (req.headers['if-none-match'] === '*' && objects.has(key)) {
          status = 412;
          body = '<Error><Code>PreconditionFailed</Code></Error>';
        } else objects.set(key, Buffer.concat(chunks));
      } else if (req.method === 'HEAD' || req.method === 'GET') {
        const o = objects.get(key);
        if (!o) status = 404;
        else {
          res.setHeader('content-length', String(o.length));
          if (req.method === 'GET') body = o;
        }
      } else if (req.method === 'DELETE') {
        objects.delete(key);
        status = 204;
      }
      log.push({ method: req.method ?? '', key, status });
      res.statusCode = status;
      res.end(req.method === 'HEAD' ? undefined : body);
    });
  });
  await new Promise<void>((r) => s3.listen(0, '127.0.0.1', () => r()));
  Object.assign(process.env, {
    S3_BUCKET: BUCKET,
    S3_ENDPOINT: `http://127.0.0.1:${(s3.address() as AddressInfo).port}`,
    S3_FORCE_PATH_STYLE: 'true',
    AWS_ACCESS_KEY_ID: 'AKIDTESTTESTTEST',
    AWS_SECRET_ACCESS_KEY: 'test-secret-test-secret-test-secret-1234',
    UPLOAD_MAX_BYTES: String(MAX),
  });
  resetEnvCache();
  resetStorageForTests();
  be = await startBackend();
  org = await createTestOrg(be.db);
});
afterAll(async () => {
  await be?.close();
  s3?.closeAllConnections();
  await new Promise<void>((r) => s3?.close(() => r()));
});

async function presign(body: Record<string, unknown>) {
  const r = await api(be.baseUrl, 'POST', '/api/v1/upload/presigned-url/', { key: org.key, body });
  expect(r.status).toBe(201);
  return r.body as { upload_url: string; file_id: string; headers: Record<string, string>; max_bytes: number; filename: string };
}
const signed = (url: string) => new URL(url).searchParams.get('X-Amz-SignedHeaders')!.split(';');
const meta = async (id: string) => (await api(be.baseUrl, 'GET', `/api/v1/upload/${id}/`, { key: org.key })).body;

describe(`uploads to S3 on ${process.env.TEST_DB ?? 'postgres'}`, () => {
  it('the presigned PUT is single-use: If-None-Match: * is signed and returned; a second PUT gets 412', async () => {
    const p = await presign({ filename: 'cases.csv', content_type: 'text/csv' });
    expect(p.filename).toMatch(/^upload-[0-9a-f]{16}\.csv$/); // the caller's name is never stored (it can carry PHI)
    expect(p.upload_url).toContain(`/${BUCKET}/${org.orgId}/${p.file_id}/${p.filename}?`);
    expect(p.headers).toEqual({ 'if-none-match': '*', 'content-type': 'text/csv' });
    expect(signed(p.upload_url)).toEqual(expect.arrayContaining(['host', 'if-none-match', 'content-type']));
    expect(signed(p.upload_url)).not.toContain('content-length'); // no size declared
    expect(p.upload_url).not.toMatch(/x-amz-checksum/i); // no checksum of an empty body baked in
    const csv = 'case_ref,dx_codes,pr_codes,gender,is_alive\ns1,I21.4,,M,true\n';
    expect((await fetch(p.upload_url, { method: 'PUT', headers: p.headers, body: csv })).status).toBe(200);
    expect((await fetch(p.upload_url, { method: 'PUT', headers: p.headers, body: 'other' })).status).toBe(412);
    expect(objects.get(`${org.orgId}/${p.file_id}/${p.filename}`)!.toString()).toBe(csv);
    expect(await meta(p.file_id)).toMatchObject({ status: 'uploaded', size_bytes: csv.length, storage: 's3' });
    // The stored object feeds a batch like a local file.
    const batch = await api(be.baseUrl, 'POST', '/api/v1/drg/batch/', {
      key: org.key,
      body: { file_id: p.file_id },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(batch.status).toBe(201);
    expect(batch.body.total_cases).toBe(1);
  });

  it('a declared size is signed (Content-Length); without one, an object over max_bytes is failed and deleted', async () => {
    const sized = await presign({ filename: 'sized.csv', size_bytes: 10 });
    expect(signed(sized.upload_url)).toEqual(expect.arrayContaining(['content-length', 'if-none-match']));
    expect((await api(be.baseUrl, 'POST', '/api/v1/upload/presigned-url/', { key: org.key, body: { filename: 'x.csv', size_bytes: MAX + 1 } })).status).toBe(
      413,
    );

    const p = await presign({ filename: 'big.csv' });
    expect(p.max_bytes).toBe(MAX);
    expect((await fetch(p.upload_url, { method: 'PUT', headers: p.headers, body: 'z'.repeat(MAX + 1) })).status).toBe(200); // S3 cannot bound it
    const key = `${org.orgId}/${p.file_id}/${p.filename}`;
    expect(objects.has(key)).toBe(true);
    expect(await meta(p.file_id)).toMatchObject({ status: 'failed', size_bytes: MAX + 1, uploaded_at: null });
    expect(objects.has(key)).toBe(false);
    expect(log.some((l) => l.method === 'DELETE' && l.key === key)).toBe(true);
    const batch = await api(be.baseUrl, 'POST', '/api/v1/drg/batch/', {
      key: org.key,
      body: { file_id: p.file_id },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(batch.status).toBe(409);
    expect(batch.body.error).toBe('upload_failed');
  });
});
