import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { loadEnv } from '../env';

/**
 * S3-compatible object storage for uploads (AWS, MinIO, Ceph…), configured by S3_* and the usual AWS_* variables.
 *
 * Presigned PUTs are single-use: `If-None-Match: *` is signed into the URL, so S3 stores the object only if the key
 * does not exist yet (a second PUT gets 412 Precondition Failed; keys hold the file id, so they are never reused).
 * Size: when the caller declared `size_bytes`, `Content-Length` is signed too and S3 refuses a body of any other
 * length (403). Without a declared size a presigned PUT cannot bound the body (that needs a presigned POST with a
 * `content-length-range` policy, i.e. @aws-sdk/s3-presigned-post, which is not installed); the server then checks
 * the stored size when it first looks at the upload and refuses (status `failed`) and deletes an object over the
 * limit, so it is never used.
 */
export interface PresignedPut {
  url: string;
  /** Headers the PUT must carry (signed). */
  headers: Record<string, string>;
}

export interface S3Storage {
  presignPut(key: string, opts: { contentType?: string; sizeBytes?: number; ttlSeconds: number }): Promise<PresignedPut>;
  head(key: string): Promise<{ size: number } | null>;
  get(key: string): Promise<Buffer>;
  delete(key: string): Promise<void>;
}

export function createS3Storage(config: Partial<S3ClientConfig> = {}): S3Storage {
  const env = loadEnv();
  const bucket = env.S3_BUCKET!;
  // WHEN_REQUIRED: no checksum of the (empty) request body is baked into the presigned URL; it would make every
  // real upload fail its checksum.
  const client = new S3Client({
    region: env.S3_REGION,
    endpoint: env.S3_ENDPOINT,
    forcePathStyle: env.S3_FORCE_PATH_STYLE,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    ...config,
  });
  return {
    async presignPut(key, { contentType, sizeBytes, ttlSeconds }) {
      const command = new PutObjectCommand({ Bucket: bucket, Key: key, ContentType: contentType, IfNoneMatch: '*', ContentLength: sizeBytes });
      const url = await getSignedUrl(client, command, { expiresIn: ttlSeconds, signableHeaders: new Set(['content-type', 'if-none-match', 'content-length']) });
      const headers: Record<string, string> = { 'if-none-match': '*' };
      if (contentType) headers['content-type'] = contentType;
      return { url, headers };
    },
    async head(key) {
      try {
        const r = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        return { size: Number(r.ContentLength ?? 0) };
      } catch {
        return null;
      }
    },
    async get(key) {
      const r = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      return Buffer.from(await r.Body!.transformToByteArray());
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
  };
}
