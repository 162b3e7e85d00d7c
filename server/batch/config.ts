import { loadEnv } from '../env';

/**
 * Settings of DRG batch jobs (declared and documented in the configuration schema, server/env.ts: DRG_BATCH_PRICE_MICROS,
 * DRG_BATCH_CHUNK_SIZE, DRG_BATCH_WORKER_CONCURRENCY, DRG_BATCH_CHUNK_EXPIRE_SECONDS, DRG_BATCH_MAX_ATTEMPTS,
 * DRG_BATCH_RESUME_CHECK_SECONDS, DRG_BATCH_SWEEP_SECONDS, DRG_BATCH_DUPLICATE_WINDOW_HOURS). Read on use: a changed variable applies to the next
 * chunk without a restart. The price is locked into a job at submission, so a change never re-prices a running job.
 * Chunk expiry detection also waits for pg-boss's monitor pass (QUEUE_MONITOR_SECONDS, see server/queue.ts).
 */
export interface BatchConfig {
  priceMicros: number;
  chunkSize: number;
  workerConcurrency: number;
  chunkExpireSeconds: number;
  maxAttempts: number;
  resumeCheckSeconds: number;
  sweepSeconds: number;
  /** How long a finished batch blocks an identical one, hours (0 = never). */
  duplicateWindowHours: number;
}

/** The batch settings of the environment (`source`: another set of variables, for tests). */
export function batchConfig(source?: Record<string, string | undefined>): BatchConfig {
  const c = loadEnv(source);
  return {
    priceMicros: c.DRG_BATCH_PRICE_MICROS,
    chunkSize: c.DRG_BATCH_CHUNK_SIZE,
    workerConcurrency: c.DRG_BATCH_WORKER_CONCURRENCY,
    chunkExpireSeconds: c.DRG_BATCH_CHUNK_EXPIRE_SECONDS,
    maxAttempts: c.DRG_BATCH_MAX_ATTEMPTS,
    resumeCheckSeconds: c.DRG_BATCH_RESUME_CHECK_SECONDS,
    sweepSeconds: c.DRG_BATCH_SWEEP_SECONDS,
    duplicateWindowHours: c.DRG_BATCH_DUPLICATE_WINDOW_HOURS,
  };
}

export { MAX_CASE_FILE_BYTES, MAX_CASES } from './limits';
export const IDEMPOTENCY_KEY_MIN = 8;
export const IDEMPOTENCY_KEY_MAX = 128;
export const SERVICE_TYPE = 'drg_batch';

export function ledgerRef(jobId: string, index: number): string {
  return `drg_batch:${jobId}:${index}`;
}
