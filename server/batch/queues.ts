import { getDb } from '../db';
import { definePeriodic, defineQueue } from '../queue';
import { batchConfig } from './config';
import { CHUNK_QUEUE, RESUME_QUEUE, SWEEP_TASK, type ChunkJob, type ResumeJob } from './jobs';
import { checkParked, processChunk } from './process';
import { sweepBatches } from './sweep';

/**
 * Registers the DRG batch workers with the platform queue (imported by server/domains.ts, so the web server with
 * in-process workers and `npm run worker` both run them). These options are the only definition of the queues'
 * retry and expiry: `ensureQueue` creates (or updates) the queues with them and every inserted job carries them.
 * Concurrency is read when the workers start.
 */
defineQueue<ChunkJob>({
  name: CHUNK_QUEUE,
  // Retried with backoff (1 s doubling up to 60 s); a chunk is presumed dead after DRG_BATCH_CHUNK_EXPIRE_SECONDS.
  options: () => ({ retryLimit: 10, retryDelay: 1, retryBackoff: true, retryDelayMax: 60, expireInSeconds: batchConfig().chunkExpireSeconds }),
  handler: async (data) => processChunk(await getDb(), data),
  get concurrency() {
    return batchConfig().workerConcurrency;
  },
});

defineQueue<ResumeJob>({
  name: RESUME_QUEUE,
  options: { retryLimit: 10, retryDelay: 1, retryBackoff: true, retryDelayMax: 60, expireInSeconds: 60 },
  handler: async (data) => checkParked(await getDb(), data),
  concurrency: 1,
});

/** Puts back the jobs of batches whose jobs were lost (see sweep.ts): at worker start, then every DRG_BATCH_SWEEP_SECONDS. */
definePeriodic({
  name: SWEEP_TASK,
  everySeconds: () => batchConfig().sweepSeconds,
  run: (db) => sweepBatches(db),
});

export {};
