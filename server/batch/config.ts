import { z } from 'zod';

/**
 * Settings of DRG batch jobs, read from the environment on use (tests change them between suites).
 *
 * DRG_BATCH_PRICE_MICROS          price of one successfully classified case, micro-USD (default 1000 = $0.001).
 *                                 Locked into the job at submission, so a change never re-prices a running job.
 * DRG_BATCH_CHUNK_SIZE            cases per pg-boss job (default 125: 8 chunks for a full batch).
 * DRG_BATCH_WORKER_CONCURRENCY    chunk jobs one process works at once (default 4).
 * DRG_BATCH_CHUNK_EXPIRE_SECONDS  how long a chunk may stay active before pg-boss presumes its worker dead and
 *                                 retries it (default 60; a chunk takes well under a second). Detection also waits
 *                                 for pg-boss's monitor pass (QUEUE_MONITOR_SECONDS, see server/queue.ts).
 * DRG_BATCH_MAX_ATTEMPTS          attempts per chunk before its remaining cases fail as processing_failed (default 5).
 * DRG_BATCH_RESUME_CHECK_SECONDS  how often a parked job checks whether its spend cap has cleared (default 30).
 * DRG_BATCH_SWEEP_SECONDS         how often the sweep looks for batches whose pg-boss jobs were lost (retries run out
 *                                 during a database outage, jobs deleted) and queues them again (default 60).
 */
const Schema = z.object({
  DRG_BATCH_PRICE_MICROS: z.coerce.number().int().min(0).max(100_000_000).default(1000),
  DRG_BATCH_CHUNK_SIZE: z.coerce.number().int().min(1).max(1000).default(125),
  DRG_BATCH_WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  DRG_BATCH_CHUNK_EXPIRE_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  DRG_BATCH_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(5),
  DRG_BATCH_RESUME_CHECK_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  DRG_BATCH_SWEEP_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
});

export interface BatchConfig {
  priceMicros: number;
  chunkSize: number;
  workerConcurrency: number;
  chunkExpireSeconds: number;
  maxAttempts: number;
  resumeCheckSeconds: number;
  sweepSeconds: number;
}

export function batchConfig(env: Record<string, string | undefined> = process.env): BatchConfig {
  const pick = Object.fromEntries(Object.keys(Schema.shape).map((k) => [k, env[k] === '' ? undefined : env[k]]));
  const parsed = Schema.safeParse(pick);
  if (!parsed.success) {
    throw new Error(`Invalid DRG batch settings: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  const c = parsed.data;
  return {
    priceMicros: c.DRG_BATCH_PRICE_MICROS,
    chunkSize: c.DRG_BATCH_CHUNK_SIZE,
    workerConcurrency: c.DRG_BATCH_WORKER_CONCURRENCY,
    chunkExpireSeconds: c.DRG_BATCH_CHUNK_EXPIRE_SECONDS,
    maxAttempts: c.DRG_BATCH_MAX_ATTEMPTS,
    resumeCheckSeconds: c.DRG_BATCH_RESUME_CHECK_SECONDS,
    sweepSeconds: c.DRG_BATCH_SWEEP_SECONDS,
  };
}

/** Limits from the spec (§4.5, §8). */
export const MAX_CASES = 1000;
/**
 * Largest case file accepted by `file_id`, checked before the file is read or decoded. 1000 cases, even written
 * as pretty-printed JSON with every optional field at its longest, stay well under 2 MiB; a CSV row is ~60 bytes.
 */
export const MAX_CASE_FILE_BYTES = 4 * 1024 * 1024;
export const IDEMPOTENCY_KEY_MIN = 8;
export const IDEMPOTENCY_KEY_MAX = 128;
export const SERVICE_TYPE = 'drg_batch';

export function ledgerRef(jobId: string, index: number): string {
  return `drg_batch:${jobId}:${index}`;
}
