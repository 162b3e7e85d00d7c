import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { api, createTestOrg, startBackend, type TestBackend, type TestOrg } from '../helpers/backend';
import { uploadsRoot } from '@/server/storage/uploads';
import { resetEnvCache } from '@/server/env';

/** A small upload limit for this test process, so "a body over the limit" can be sent. */
const MAX = 4096;
process.env.UPLOAD_MAX_BYTES = String(MAX);
resetEnvCache();

let be: TestBackend;
let a: TestOrg;
let b: TestOrg;
beforeAll(async () => {
  be = await startBackend();
  a = await createTestOrg(be.db);
  b = await createTestOrg(be.db);
});
afterAll(async () => {
  await be?.close();
});

async function presign(org: TestOrg, filename: string, extra: Record<string, unknown> = {}) {
  const r = await api(be.baseUrl, 'POST', '/api/v1/upload/presigned-url/', { key: org.key, body: { filename, ...extra } });
  expect(r.status).toBe(201);
  return r.body as { upload_url: string; file_id: string; expires_at: string; method: string; headers: Record<string, string>; filename: string };
}

describe(`uploads on ${process.env.TEST_DB ?? 'postgres'}`, () => {
  it('round trip: presign, PUT once, read metadata; the bytes land in the organisation folder', async () => {
    const p = await presign(a, 'cases.csv', { content_type: 'text/csv' });
    expect(p.method).toBe('PUT');
    expect(new Date(p.expires_at).getTime()).toBeGreaterThan(Date.now());
    const content = 'case_ref,dx_codes\nc1,I214\n';
    const put = await fetch(p.upload_url, { method: 'PUT', headers: p.headers, body: content });
    expect(put.status).toBe(200);
    const meta = await api(be.baseUrl, 'GET', `/api/v1/upload/${p.file_id}/`, { key: a.key });
    expect(meta.status).toBe(200);
    expect(meta.body).toMatchObject({ file_id: p.file_id, filename: p.filename, status: 'uploaded', size_bytes: content.length, content_type: 'text/csv' });
    expect(p.filename).toMatch(/^upload-[0-9a-f]{16}\.csv$/);
    expect(fs.readFileSync(path.join(uploadsRoot(), a.orgId, p.file_id), 'utf8')).toBe(content);
  });

  it('refuses a reused URL (409)', async () => {
    const p = await presign(a, 'x.jsonl');
    expect((await fetch(p.upload_url, { method: 'PUT', body: 'one' })).status).toBe(200);
    const again = await fetch(p.upload_url, { method: 'PUT', body: 'two' });
    expect(again.status).toBe(409);
    expect((await again.json()).error).toBe('upload_url_used');
  });

  it('refuses an expired URL (410)', async () => {
    const p = await presign(a, 'late.csv');
    await be.db.query(`UPDATE uploads SET expires_at = now() - interval '1 minute' WHERE id = $1`, [p.file_id]);
    const u = new URL(p.upload_url);
    // Expiry is signed into the URL; simulate the clock passing by re-signing is impossible, so check both paths:
    u.searchParams.set('exp', String(Math.floor(Date.now() / 1000) - 60));
    const tampered = await fetch(u, { method: 'PUT', body: 'x' });
    expect(tampered.status).toBe(403); // altering exp breaks the signature
    const { createHmac } = await import('node:crypto');
    const { getSecret } = await import('@/server/secrets');
    const exp = Math.floor(Date.now() / 1000) - 60;
    const [org, max, nonce] = [u.searchParams.get('org')!, u.searchParams.get('max')!, u.searchParams.get('nonce')!];
    u.searchParams.set(
      'sig',
      createHmac('sha256', getSecret('UPLOAD_SIGNING_SECRET')).update(`${org}|${p.file_id}|${exp}|${max}|${nonce}`).digest('base64url'),
    );
    const expired = await fetch(u, { method: 'PUT', body: 'x' });
    expect(expired.status).toBe(410);
    expect((await expired.json()).error).toBe('upload_url_expired');
  });

  it('refuses a tampered signature (403)', async () => {
    const p = await presign(a, 't.csv');
    const u = new URL(p.upload_url);
    const sig = u.searchParams.get('sig')!;
    u.searchParams.set('sig', (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1));
    const r = await fetch(u, { method: 'PUT', body: 'x' });
    expect(r.status).toBe(403);
    expect((await r.json()).error).toBe('invalid_signature');
  });

  it('refuses a URL moved to another organisation, and a key from another organisation', async () => {
    const p = await presign(a, 'm.csv');
    const u = new URL(p.upload_url);
    u.searchParams.set('org', b.orgId);
    expect((await fetch(u, { method: 'PUT', body: 'x' })).status).toBe(403);
    const withKey = await fetch(p.upload_url, { method: 'PUT', body: 'x', headers: { 'x-api-key': b.key } });
    expect(withKey.status).toBe(403);
    expect((await withKey.json()).error).toBe('cross_organization');
  });

  it("never stores the caller's filename (it can carry PHI): only its extension and a keyed hash", async () => {
    const phi = await presign(a, 'Ahmad bin Ali 850101-14-5673 discharge.PDF');
    expect(phi.filename).toMatch(/^upload-[0-9a-f]{16}\.pdf$/);
    expect((await presign(a, 'Ahmad bin Ali 850101-14-5673 discharge.PDF')).filename).toBe(phi.filename); // stable
    expect((await presign(a, 'Tan Ah Kow 570312-10-5531 discharge.PDF')).filename).not.toBe(phi.filename);
    // the hash is keyed: not the plain SHA-256 of the name
    const { createHash } = await import('node:crypto');
    expect(phi.filename).not.toContain(createHash('sha256').update('Ahmad bin Ali 850101-14-5673 discharge.PDF').digest('hex').slice(0, 16));
    // hostile names: path parts, control and bidi characters, hidden files, odd extensions never reach the stored name
    expect((await presign(a, '../../etc/passwd')).filename).toMatch(/^upload-[0-9a-f]{16}$/);
    expect((await presign(a, '..\\..\\windows\\system32\\cmd.exe')).filename).toMatch(/^upload-[0-9a-f]{16}\.exe$/);
    expect((await presign(a, 'a\u0007b\u202e.csv')).filename).toMatch(/^upload-[0-9a-f]{16}\.csv$/);
    expect((await presign(a, '.hidden')).filename).toMatch(/^upload-[0-9a-f]{16}$/);
    expect((await presign(a, 'notes.Ahmad Ali')).filename).toMatch(/^upload-[0-9a-f]{16}$/); // not an extension
    const long = await presign(a, `${'x'.repeat(400)}.jsonl`);
    expect(long.filename).toMatch(/^upload-[0-9a-f]{16}\.jsonl$/);
    // NUL is refused at the door (400), like everywhere else
    const nul = await api(be.baseUrl, 'POST', '/api/v1/upload/presigned-url/', { key: a.key, body: { filename: 'a\u0000.csv' } });
    expect([nul.status, nul.body.error]).toEqual([400, 'invalid_request']);
    // nothing of the names is stored anywhere in the upload rows. The random columns (ids, hashes, the stored name's
    // keyed hash, whose shape is checked above) are left out: a random hex string holds "850101" now and then
    const rows = await be.db.query<{ row: string }>(
      `SELECT (to_jsonb(u) - 'id' - 'org_id' - 'storage_key' - 'nonce_hash' - 'sha256' - 'created_by_key')::text AS row FROM uploads u WHERE org_id = $1`,
      [a.orgId],
    );
    expect(rows.length).toBeGreaterThan(5);
    const all = rows.map((r) => r.row.replace(/upload-[0-9a-f]{16}/g, 'upload-<keyed hash>')).join('\n');
    expect(all).toContain('upload-<keyed hash>');
    for (const leak of ['Ahmad', '850101', 'Tan Ah Kow', 'passwd', 'cmd', 'hidden', 'xxxxxxxx']) expect(all).not.toContain(leak);
  });

  it("another organisation's file id gives 404", async () => {
    const p = await presign(a, 'private.csv');
    const r = await api(be.baseUrl, 'GET', `/api/v1/upload/${p.file_id}`, { key: b.key });
    expect(r.status).toBe(404);
    expect(r.body.error).toBe('upload_not_found');
  });

  it('rejects an oversized declared size and a body over the limit (the upload is then failed, nothing kept)', async () => {
    for (const size of [10 ** 12, MAX + 1]) {
      const r = await api(be.baseUrl, 'POST', '/api/v1/upload/presigned-url', { key: a.key, body: { filename: 'big.csv', size_bytes: size } });
      expect(r.status).toBe(413);
      expect(r.body.error).toBe('file_too_large');
    }
    const p = await presign(a, 'big2.csv');
    expect((p as unknown as { max_bytes: number }).max_bytes).toBe(MAX);
    expect(Number(new URL(p.upload_url).searchParams.get('max'))).toBe(MAX);
    const put = await fetch(p.upload_url, { method: 'PUT', body: 'x'.repeat(MAX + 1) });
    expect(put.status).toBe(413);
    expect((await put.json()).error).toBe('file_too_large');
    const meta = await api(be.baseUrl, 'GET', `/api/v1/upload/${p.file_id}/`, { key: a.key });
    expect(meta.body).toMatchObject({ status: 'failed', size_bytes: null, uploaded_at: null });
    const stored = path.join(uploadsRoot(), a.orgId, p.file_id);
    expect(fs.existsSync(stored)).toBe(false);
    expect(fs.existsSync(`${stored}.part`)).toBe(false);
    // Exactly the limit is fine.
    const ok = await presign(a, 'max.csv');
    expect((await fetch(ok.upload_url, { method: 'PUT', body: 'y'.repeat(MAX) })).status).toBe(200);

    const missing = await api(be.baseUrl, 'POST', '/api/v1/upload/presigned-url', { key: a.key, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toMatch(/filename/);
  });

  it('an upload left uploading by a crash mid-PUT is failed once older than the URL lifetime allows', async () => {
    const p = await presign(a, 'crash.csv');
    // The server died mid-PUT: the nonce was consumed (uploading) and nothing else happened.
    await be.db.query(`UPDATE uploads SET status = 'uploading' WHERE id = $1`, [p.file_id]);
    const fresh = await api(be.baseUrl, 'GET', `/api/v1/upload/${p.file_id}/`, { key: a.key });
    expect(fresh.body.status).toBe('uploading'); // a PUT may still be under way
    await be.db.query(`UPDATE uploads SET expires_at = now() - interval '14 minutes' WHERE id = $1`, [p.file_id]);
    expect((await api(be.baseUrl, 'GET', `/api/v1/upload/${p.file_id}/`, { key: a.key })).body.status).toBe('uploading'); // TTL 15 min
    await be.db.query(`UPDATE uploads SET expires_at = now() - interval '16 minutes' WHERE id = $1`, [p.file_id]);
    const stale = await api(be.baseUrl, 'GET', `/api/v1/upload/${p.file_id}/`, { key: a.key });
    expect(stale.status).toBe(200);
    expect(stale.body.status).toBe('failed');
    const row = await be.db.query<{ status: string }>('SELECT status FROM uploads WHERE id = $1', [p.file_id]);
    expect(row[0]!.status).toBe('failed'); // persisted, not only reported
  });

  it('a PUT still running when its upload was declared failed is refused at the end and leaves no file', async () => {
    const p = await presign(a, 'slow.csv');
    let push!: (s: string | null) => void;
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        push = (s) => (s === null ? c.close() : c.enqueue(new TextEncoder().encode(s)));
      },
    });
    const put = fetch(p.upload_url, { method: 'PUT', body, duplex: 'half' } as RequestInit);
    push('case_ref,dx_codes\n');
    for (let i = 0; i < 100; i++) {
      const rows = await be.db.query<{ status: string }>('SELECT status FROM uploads WHERE id = $1', [p.file_id]);
      if (rows[0]!.status === 'uploading') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    await be.db.query(`UPDATE uploads SET expires_at = now() - interval '1 hour' WHERE id = $1`, [p.file_id]);
    expect((await api(be.baseUrl, 'GET', `/api/v1/upload/${p.file_id}/`, { key: a.key })).body.status).toBe('failed');
    push('c1,I214\n');
    push(null);
    const r = await put;
    expect(r.status).toBe(410);
    expect((await r.json()).error).toBe('upload_url_expired');
    expect((await api(be.baseUrl, 'GET', `/api/v1/upload/${p.file_id}/`, { key: a.key })).body.status).toBe('failed');
    expect(fs.existsSync(path.join(uploadsRoot(), a.orgId, p.file_id))).toBe(false);
  });

  it('needs an API key', async () => {
    const r = await api(be.baseUrl, 'POST', '/api/v1/upload/presigned-url', { body: { filename: 'a.csv' } });
    expect(r.status).toBe(401);
  });
});
