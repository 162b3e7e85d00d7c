import { z } from 'zod';
import { authed, router } from '../trpc';
import { createPresignedUpload, getUpload } from '../../storage/uploads';

/** Presigned uploads (SPEC §4.11): ask for a URL, PUT the file to it once, then read its metadata. */
const UploadView = z.object({
  file_id: z.string(),
  filename: z.string(),
  content_type: z.string().nullable(),
  status: z.enum(['pending', 'uploading', 'uploaded', 'failed']),
  size_bytes: z.number().int().nullable(),
  sha256: z.string().nullable(),
  max_bytes: z.number().int(),
  storage: z.enum(['local', 's3']),
  created_at: z.string(),
  expires_at: z.string(),
  uploaded_at: z.string().nullable(),
});

const auth = { jwt: false } as const;

export const uploadRouter = router({
  presign: authed(auth, {
    method: 'POST',
    path: '/upload/presigned-url',
    tags: ['uploads'],
    summary: 'Get a short-lived, single-use upload URL',
    description: [
      'Returns `{upload_url, file_id, expires_at, method, headers, max_bytes, filename}`. Send the file with that method and **all** the returned `headers` to `upload_url` before `expires_at` (UPLOAD_URL_TTL_SECONDS, default 15 minutes), then read its state with `GET /upload/{file_id}/`. The filename is sanitised (path components, control characters and length); files are isolated per organisation. A declared `size_bytes` over the limit gets 413 here. Uploaded CSV/JSONL/JSON case files can be submitted as a DRG batch by `file_id`.',
      '**Local storage** (default): an HMAC-signed URL on this server over organisation, file id, expiry, size limit and a nonce. Single use (the first PUT consumes the nonce; a second gets 409), expired 410, altered 403, a body over `max_bytes` 413 (the upload is then `failed`).',
      '**S3** (S3_BUCKET set): an S3 presigned PUT. Single use: `If-None-Match: *` is signed into it (it is in `headers`), so S3 answers a second PUT with 412. Size: when `size_bytes` is declared, `Content-Length` is signed too and S3 refuses a body of any other length (403). Without a declared size a presigned PUT cannot bound the body (that would need a presigned POST with a `content-length-range` policy, which this server does not issue): S3 stores it, and the server marks an object larger than `max_bytes` `failed` and deletes it when it first looks at the upload, so it is never used.',
    ].join('\n\n'),
    errorResponses: [400, 401, 403, 413],
  })
    .input(
      z.strictObject({
        filename: z.string().min(1).max(1024),
        content_type: z
          .string()
          .regex(/^[\w.+-]+\/[\w.+-]+$/, 'must be a MIME type such as text/csv')
          .max(100)
          .optional(),
        size_bytes: z.number().int().min(0).optional(),
      }),
    )
    .output(
      z.object({
        upload_url: z.string(),
        file_id: z.string(),
        expires_at: z.string(),
        method: z.literal('PUT'),
        headers: z.record(z.string(), z.string()),
        max_bytes: z.number().int(),
        filename: z.string(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const presigned = await createPresignedUpload(ctx.db, {
        orgId: ctx.principal.orgId,
        keyId: ctx.principal.kind === 'api_key' ? ctx.principal.keyId : null,
        filename: input.filename,
        contentType: input.content_type,
        sizeBytes: input.size_bytes,
        origin: ctx.url.origin,
      });
      ctx.response.status = 201;
      return presigned;
    }),

  get: authed(auth, {
    method: 'GET',
    path: '/upload/{file_id}',
    tags: ['uploads'],
    summary: 'Upload metadata',
    description:
      "Status (`pending` → `uploading` → `uploaded`, or `failed`), size and SHA-256 of an upload in the caller's organisation; another organisation's file id answers 404. An upload still `uploading` a whole URL lifetime after its URL expired (the PUT died with the server or the client) is reported, and stored, as `failed`.",
    errorResponses: [401, 403, 404],
  })
    .input(z.object({ file_id: z.string().min(1).max(64) }))
    .output(UploadView)
    .query(async ({ ctx, input }) => getUpload(ctx.db, ctx.principal.orgId, input.file_id)),
});
