import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { records, type RecordsSource } from '../db';
import type { Upload } from '../generated/prisma/client';
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

const STATUSES = ['pending', 'uploading', 'uploaded', 'failed'] as const;
const statusOf = (s: string): UploadView['status'] => STATUSES.find((x) => x === s) ?? 'failed';

function view(r: Upload): UploadView {
  return {
    file_id: r.id,
    filename: r.filename,
    content_type: r.contentType,
    status: statusOf(r.status),
    size_bytes: r.sizeBytes === null ? null : Number(r.sizeBytes),
    sha256: r.sha256,
    max_bytes: Number(r.maxBytes),
    storage: r.storage === 's3' ? 's3' : 'local',
    created_at: r.createdAt.toISOString(),
    expires_at: r.expiresAt.toISOString(),
    uploaded_at: r.uploadedAt?.toISOString() ?? null,
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
  db: RecordsSource,
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
  await records(db).upload.create({
    data: {
      id: fileId,
      orgId: input.orgId,
      filename,
      contentType: input.contentType ?? null,
      maxBytes: BigInt(max),
      storage: store ? 's3' : 'local',
      storageKey,
      nonceHash: sha(nonce),
      createdByKey: input.keyId,
      expiresAt: new Date(exp * 1000),
    },
  });
  let headers: Record<string, string> = {};
  if (input.contentType) headers['content-type'] = input.contentType;
  let url: string;
  if (store) {
    ({ url, headers } = await store.presignPut(storageKey, {
      contentType: input.contentType,
      sizeBytes: input.sizeBytes,
      ttlSeconds: env.UPLOAD_URL_TTL_SECONDS,
    }));
  } else {
    const base = (env.PUBLIC_BASE_URL ?? input.origin).replace(/\/$/, '');
    const q = new URLSearchParams({ org: input.orgId, exp: String(exp), max: String(max), nonce, sig: sign(input.orgId, fileId, exp, max, nonce) });
    url = `${base}/api/v1/upload/blob/${fileId}?${q}`;
  }
  return { upload_url: url, file_id: fileId, expires_at: new Date(exp * 1000).toISOString(), method: 'PUT', headers, max_bytes: max, filename };
}

/** Verify a local presigned URL and store the body. Single use: the nonce is consumed atomically. */
export async function receiveLocalUpload(
  src: RecordsSource,
  fileId: string,
  params: URLSearchParams,
  body: ReadableStream<Uint8Array> | null,
): Promise<UploadView> {
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
  const db = records(src);
  const claimed = await db.upload.updateMany({ where: { id: fileId, orgId, nonceHash: sha(nonce), status: 'pending' }, data: { status: 'uploading' } });
  if (!claimed.count) {
    const exists = await db.upload.count({ where: { id: fileId, orgId } });
    if (!exists) throw notFound('Upload not found.', 'upload_not_found');
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
    await db.upload.update({ where: { id: fileId }, data: { status: 'failed' } });
    throw err;
  }
  const done = await db.upload.updateManyAndReturn({
    where: { id: fileId, status: 'uploading' },
    data: { status: 'uploaded', sizeBytes: BigInt(size), sha256: hash.digest('hex'), uploadedAt: new Date() },
  });
  if (!done.length) {
    // The PUT outlived its URL by more than a URL lifetime and the upload was declared failed meanwhile.
    fs.rmSync(target, { force: true });
    throw new AppError('upload_url_expired', 'The upload took too long and was abandoned; request a new upload URL.');
  }
  return view(done[0]!);
}

export async function getUpload(src: RecordsSource, orgId: string, fileId: string): Promise<UploadView> {
  return view(await uploadRow(src, orgId, fileId));
}

async function uploadRow(src: RecordsSource, orgId: string, fileId: string): Promise<Upload> {
  if (!isUuid(fileId)) throw notFound('Upload not found.', 'upload_not_found');
  const q = records(src);
  const r = await q.upload.findFirst({ where: { id: fileId, orgId } });
  if (!r) throw notFound('Upload not found.', 'upload_not_found');
  if (r.status === 'uploading') {
    // A PUT through the URL began before expires_at; one still going a whole URL lifetime later is dead (a crash
    // mid-PUT leaves the row here for ever otherwise).
    const ttl = loadEnv().UPLOAD_URL_TTL_SECONDS;
    const stale = await q.upload.updateManyAndReturn({
      where: { id: r.id, status: 'uploading', expiresAt: { lt: new Date(Date.now() - ttl * 1000) } },
      data: { status: 'failed' },
    });
    if (stale[0]) return stale[0];
  }
  if (r.storage === 's3' && r.status === 'pending') {
    const store = s3Storage();
    const head = store ? await store.head(r.storageKey) : null;
    if (head) {
      if (head.size > Number(r.maxBytes)) {
        // A presigned PUT without a declared size cannot bound the body: refuse (and remove) an oversized object.
        await store!.delete(r.storageKey).catch(() => undefined);
        const failed = await q.upload.updateManyAndReturn({ where: { id: r.id, status: 'pending' }, data: { status: 'failed', sizeBytes: BigInt(head.size) } });
        return failed[0] ?? r;
      }
      const upd = await q.upload.updateManyAndReturn({
        where: { id: r.id, status: 'pending' },
        data: { status: 'uploaded', sizeBytes: BigInt(head.size), uploadedAt: new Date() },
      });
      return upd[0] ?? r;
    }
  }
  return r;
}

/** Tests: forget the storage chosen from the environment (S3_BUCKET), so the next call reads it again. */
export function resetStorageForTests(): void {
  s3 = undefined;
}

/**
 * The uploaded bytes, for consumers such as batch submission by file id. `check` sees the metadata (size, name)
 * before anything is read, so a consumer can refuse a file it could never use without loading it.
 */
export async function readUpload(
  src: RecordsSource,
  orgId: string,
  fileId: string,
  opts: { check?: (view: UploadView) => void } = {},
): Promise<{ view: UploadView; bytes: Buffer }> {
  const row = await uploadRow(src, orgId, fileId);
  const v = view(row);
  if (v.status === 'failed') throw new AppError('upload_failed', `The upload of file ${fileId} failed; upload the file again with a new URL.`);
  if (v.status !== 'uploaded') throw new AppError('upload_incomplete', `The file ${fileId} has not been uploaded yet (status ${v.status}).`);
  opts.check?.(v);
  const store = s3Storage();
  const bytes = v.storage === 's3' && store ? await store.get(row.storageKey) : fs.readFileSync(localPath(orgId, fileId));
  return { view: v, bytes };
}
