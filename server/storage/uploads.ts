import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Database, Queryable } from '../db';
import { AppError, isUuid, notFound } from '../errors';
import { loadEnv } from '../env';
import { getSecret, stateDir } from '../secrets';
import { storedFilename } from './filename';
import { createS3Storage, type S3Storage } from './s3';

/**
 * Secure uploads (SPEC §4.11). A caller asks for a presigned URL; the file then goes straight to storage.
 *
 * Local storage (default): the URL points at our own `PUT /api/v1/upload/blob/{file_id}` with `exp`, `max`, `nonce`
 * and `sig` = HMAC-SHA256(secret, org | file id | expiry | size limit | nonce). The first valid PUT consumes the
 * nonce (an atomic status change pending → uploading), so a URL works once; expired, tampered or reused URLs get a
 * 4xx. Files are stored under `<state>/uploads/<org id>/<file id>`, so organisations never share a path.
 * S3 (S3_BUCKET set): the same interface, with an AWS SDK presigned PUT to `<org id>/<file id>/<name>` that is
 * single-use through a signed `If-None-Match: *` (see s3.ts for what bounds its size).
 *
 * An upload whose PUT never finished (the server crashed mid-PUT, the client vanished) would stay `uploading`; once
 * it is older than any PUT through its URL could be (expiry + UPLOAD_URL_TTL_SECONDS) it is reported, and stored,
 * as `failed`.
 */
export interface UploadView {
  file_id: string;
  filename: string;
  content_type: string | null;
  status: 'pending' | 'uploading' | 'uploaded' | 'failed';
  size_bytes: number | null;
  sha256: string | null;
  max_bytes: number;
  storage: 'local' | 's3';
  created_at: string;
  expires_at: string;
  uploaded_at: string | null;
}

export interface PresignedUpload {
  upload_url: string;
  file_id: string;
  expires_at: string;
  method: 'PUT';
  headers: Record<string, string>;
  max_bytes: number;
  filename: string;
}

type Row = {
  id: string;
  org_id: string;
  filename: string;
  content_type: string | null;
  max_bytes: string | number;
  status: UploadView['status'];
  size_bytes: string | number | null;
  sha256: string | null;
  storage: 'local' | 's3';
  storage_key: string;
  nonce_hash: string;
  created_at: Date;
  expires_at: Date;
  uploaded_at: Date | null;
};

function view(r: Row): UploadView {
  return {
    file_id: r.id,
    filename: r.filename,
    content_type: r.content_type,
    status: r.status,
    size_bytes: r.size_bytes === null ? null : Number(r.size_bytes),
    sha256: r.sha256,
    max_bytes: Number(r.max_bytes),
    storage: r.storage,
    created_at: new Date(r.created_at).toISOString(),
    expires_at: new Date(r.expires_at).toISOString(),
    uploaded_at: r.uploaded_at ? new Date(r.uploaded_at).toISOString() : null,
  };
}

let s3: S3Storage | null | undefined;
function s3Storage(): S3Storage | null {
  if (s3 === undefined) s3 = loadEnv().S3_BUCKET ? createS3Storage() : null;
  return s3;
}

export function uploadsRoot(): string {
  return path.join(stateDir(), 'uploads');
}

function localPath(orgId: string, fileId: string): string {
  return path.join(uploadsRoot(), orgId, fileId);
}

function sign(orgId: string, fileId: string, exp: number, max: number, nonce: string): string {
  return createHmac('sha256', getSecret('UPLOAD_SIGNING_SECRET')).update(`${orgId}|${fileId}|${exp}|${max}|${nonce}`).digest('base64url');
}

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

export async function createPresignedUpload(
  db: Database,
  input: { orgId: string; keyId: string | null; filename: string; contentType?: string; sizeBytes?: number; origin: string },
): Promise<PresignedUpload> {
  const env = loadEnv();
  const max = env.UPLOAD_MAX_BYTES;
  if (input.sizeBytes !== undefined && input.sizeBytes > max) {
    throw new AppError('file_too_large', `Files up to ${max} bytes are accepted; this one declares ${input.sizeBytes}.`);
  }
  const fileId = randomUUID();
  // the caller's name is never stored: it can carry PHI (see storedFilename)
  const filename = storedFilename(input.filename, getSecret('UPLOAD_SIGNING_SECRET'));
  const exp = Math.floor(Date.now() / 1000) + env.UPLOAD_URL_TTL_SECONDS;
  const nonce = randomBytes(18).toString('base64url');
  const store = s3Storage();
  const storageKey = store ? `${input.orgId}/${fileId}/${filename}` : `${input.orgId}/${fileId}`;
  await db.query(
    `INSERT INTO uploads (id, org_id, filename, content_type, max_bytes, storage, storage_key, nonce_hash, created_by_key, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, to_timestamp($10))`,
    [fileId, input.orgId, filename, input.contentType ?? null, max, store ? 's3' : 'local', storageKey, sha(nonce), input.keyId, exp],
  );
  let headers: Record<string, string> = {};
  if (input.contentType) headers['content-type'] = input.contentType;
  let url: string;
  if (store) {
    ({ url, headers } = await store.presignPut(storageKey, { contentType: input.contentType, sizeBytes: input.sizeBytes, ttlSeconds: env.UPLOAD_URL_TTL_SECONDS }));
  } else {
    const base = (env.PUBLIC_BASE_URL ?? input.origin).replace(/\/$/, '');
    const q = new URLSearchParams({ org: input.orgId, exp: String(exp), max: String(max), nonce, sig: sign(input.orgId, fileId, exp, max, nonce) });
    url = `${base}/api/v1/upload/blob/${fileId}?${q}`;
  }
  return { upload_url: url, file_id: fileId, expires_at: new Date(exp * 1000).toISOString(), method: 'PUT', headers, max_bytes: max, filename };
}

/** Verify a local presigned URL and store the body. Single use: the nonce is consumed atomically. */
export async function receiveLocalUpload(db: Database, fileId: string, params: URLSearchParams, body: ReadableStream<Uint8Array> | null): Promise<UploadView> {
  const orgId = params.get('org') ?? '';
  const exp = Number(params.get('exp'));
  const max = Number(params.get('max'));
  const nonce = params.get('nonce') ?? '';
  const sig = params.get('sig') ?? '';
  if (!isUuid(fileId) || !isUuid(orgId) || !Number.isFinite(exp) || !Number.isFinite(max) || !nonce || !sig) {
    throw new AppError('invalid_upload_url', 'The upload URL is incomplete; request a new one.');
  }
  const expected = Buffer.from(sign(orgId, fileId, exp, max, nonce));
  const given = Buffer.from(sig);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw new AppError('invalid_signature', 'The upload URL signature does not match (was the URL altered?).');
  }
  if (Date.now() / 1000 > exp) throw new AppError('upload_url_expired', 'The upload URL has expired; request a new one.');
  // Consume the nonce: only one request can move pending → uploading.
  const claimed = await db.query<Row>(
    `UPDATE uploads SET status = 'uploading' WHERE id = $1 AND org_id = $2 AND nonce_hash = $3 AND status = 'pending' RETURNING *`,
    [fileId, orgId, sha(nonce)],
  );
  if (!claimed.length) {
    const exists = await db.query<Row>('SELECT * FROM uploads WHERE id = $1 AND org_id = $2', [fileId, orgId]);
    if (!exists.length) throw notFound('Upload not found.', 'upload_not_found');
    throw new AppError('upload_url_used', 'This upload URL has already been used; request a new one.');
  }
  const target = localPath(orgId, fileId);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const tmp = `${target}.part`;
  const hash = createHash('sha256');
  let size = 0;
  const out = fs.createWriteStream(tmp, { mode: 0o600 });
  try {
    if (body) {
      const reader = body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > max) {
          await reader.cancel().catch(() => undefined);
          throw new AppError('file_too_large', `The file exceeds the ${max}-byte limit.`);
        }
        hash.update(value);
        if (!out.write(value)) await new Promise<void>((r) => out.once('drain', () => r()));
      }
    }
    await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
    fs.renameSync(tmp, target);
  } catch (err) {
    // Remove the partial file only once the stream is closed: a stream destroyed before its file was opened still
    // opens (creates) it afterwards, and an early rmSync would leave that file behind.
    await new Promise<void>((resolve) => {
      if (out.closed) return resolve();
      out.once('close', () => resolve());
      out.destroy();
    });
    fs.rmSync(tmp, { force: true });
    await db.query(`UPDATE uploads SET status = 'failed' WHERE id = $1`, [fileId]);
    throw err;
  }
  const done = await db.query<Row>(
    `UPDATE uploads SET status = 'uploaded', size_bytes = $2, sha256 = $3, uploaded_at = now() WHERE id = $1 AND status = 'uploading' RETURNING *`,
    [fileId, size, hash.digest('hex')],
  );
  if (!done.length) {
    // The PUT outlived its URL by more than a URL lifetime and the upload was declared failed meanwhile.
    fs.rmSync(target, { force: true });
    throw new AppError('upload_url_expired', 'The upload took too long and was abandoned; request a new upload URL.');
  }
  return view(done[0]!);
}

export async function getUpload(q: Queryable, orgId: string, fileId: string): Promise<UploadView> {
  if (!isUuid(fileId)) throw notFound('Upload not found.', 'upload_not_found');
  const rows = await q.query<Row>('SELECT * FROM uploads WHERE id = $1 AND org_id = $2', [fileId, orgId]);
  const r = rows[0];
  if (!r) throw notFound('Upload not found.', 'upload_not_found');
  if (r.status === 'uploading') {
    // A PUT through the URL began before expires_at; one still going a whole URL lifetime later is dead (a crash
    // mid-PUT leaves the row here for ever otherwise).
    const ttl = loadEnv().UPLOAD_URL_TTL_SECONDS;
    const stale = await q.query<Row>(
      `UPDATE uploads SET status = 'failed' WHERE id = $1 AND status = 'uploading' AND expires_at < now() - $2::int * interval '1 second' RETURNING *`,
      [r.id, ttl],
    );
    if (stale.length) return view(stale[0]!);
  }
  if (r.storage === 's3' && r.status === 'pending') {
    const store = s3Storage();
    const head = store ? await store.head(r.storage_key) : null;
    if (head) {
      if (head.size > Number(r.max_bytes)) {
        // A presigned PUT without a declared size cannot bound the body: refuse (and remove) an oversized object.
        await store!.delete(r.storage_key).catch(() => undefined);
        const failed = await q.query<Row>(`UPDATE uploads SET status = 'failed', size_bytes = $2 WHERE id = $1 AND status = 'pending' RETURNING *`, [r.id, head.size]);
        return view(failed[0] ?? r);
      }
      const upd = await q.query<Row>(`UPDATE uploads SET status = 'uploaded', size_bytes = $2, uploaded_at = now() WHERE id = $1 AND status = 'pending' RETURNING *`, [r.id, head.size]);
      return view(upd[0] ?? r);
    }
  }
  return view(r);
}

/** Tests: forget the storage chosen from the environment (S3_BUCKET), so the next call reads it again. */
export function resetStorageForTests(): void {
  s3 = undefined;
}

/**
 * The uploaded bytes, for consumers such as batch submission by file id. `check` sees the metadata (size, name)
 * before anything is read, so a consumer can refuse a file it could never use without loading it.
 */
export async function readUpload(q: Queryable, orgId: string, fileId: string, opts: { check?: (view: UploadView) => void } = {}): Promise<{ view: UploadView; bytes: Buffer }> {
  const v = await getUpload(q, orgId, fileId);
  if (v.status === 'failed') throw new AppError('upload_failed', `The upload of file ${fileId} failed; upload the file again with a new URL.`);
  if (v.status !== 'uploaded') throw new AppError('upload_incomplete', `The file ${fileId} has not been uploaded yet (status ${v.status}).`);
  opts.check?.(v);
  const rows = await q.query<{ storage_key: string }>('SELECT storage_key FROM uploads WHERE id = $1 AND org_id = $2', [fileId, orgId]);
  const store = s3Storage();
  const bytes = v.storage === 's3' && store ? await store.get(rows[0]!.storage_key) : fs.readFileSync(localPath(orgId, fileId));
  return { view: v, bytes };
}
