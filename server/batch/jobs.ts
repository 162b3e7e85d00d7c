import type { PgBoss } from 'pg-boss';
import type { Database, Queryable } from '../db';
import { ensureQueue, queueOptions } from '../queue';
import { batchConfig } from './config';

/**
 * The pg-boss queues of DRG batches and the helpers that put jobs on them. The queues' workers and their options
 * (the one definition of retry and expiry) are declared in queues.ts with `defineQueue`.
 *
 * Jobs are inserted inside the caller's database transaction (pg-boss's `db` option), so a job row exists if and
 * only if the state change that needs it commits: a submitted batch always has its chunk jobs, a parked batch
 * always has its resume check, and a crash in between leaves neither. A job that is lost later (its retries ran
 * out while the database was down, or it was deleted) is put back by the sweep (sweep.ts).
 */
export const CHUNK_QUEUE = 'drg-batch-chunk';
export const RESUME_QUEUE = 'drg-batch-resume';
export const SWEEP_TASK = 'drg-batch-sweep';

export interface ChunkJob {
  batch_id: string;
  chunk: number;
}
export interface ResumeJob {
  batch_id: string;
}

const ready = new WeakMap<PgBoss, Promise<void>>();
const warmed = new WeakSet<PgBoss>();

/**
 * Makes sure the batch queues exist and are in pg-boss's queue cache; call it before opening a transaction that
 * queues jobs (idempotent, free after the first call). The cache matters on PGlite: a cache miss inside our
 * transaction would make pg-boss query PGlite outside it, and PGlite's single connection would wait for ever.
 */
export async function ensureBatchQueues(db: Database): Promise<void> {
  const boss = await ensureQueue(db, CHUNK_QUEUE);
  let p = ready.get(boss);
  if (!p) {
    p = (async () => {
      for (const name of [CHUNK_QUEUE, RESUME_QUEUE]) {
        await ensureQueue(db, name);
        await boss.findJobs(name, { id: '00000000-0000-0000-0000-000000000000' }); // warms the queue cache
      }
      warmed.add(boss);
    })();
    p.catch(() => ready.delete(boss));
    ready.set(boss, p);
  }
  await p;
}

/** The queue, for use inside a transaction: never queries outside it. */
export async function bossInTransaction(db: Database): Promise<PgBoss> {
  const boss = await ensureQueue(db, CHUNK_QUEUE);
  if (!warmed.has(boss)) throw new Error('ensureBatchQueues() must run before a transaction queues batch jobs');
  return boss;
}

export function asPgBossDb(tx: Queryable) {
  return { executeSql: async (text: string, values?: unknown[]) => ({ rows: await tx.query(text, values) }) };
}

/** Queue the chunks of a batch, inside the transaction `tx` of `db`. */
export async function insertChunkJobs(db: Database, tx: Queryable, batchId: string, chunks: number[]): Promise<void> {
  if (!chunks.length) return;
  const boss = await bossInTransaction(db);
  const options = queueOptions(CHUNK_QUEUE);
  await boss.insert(
    CHUNK_QUEUE,
    chunks.map((chunk) => ({ data: { batch_id: batchId, chunk } satisfies ChunkJob, ...options })),
    { db: asPgBossDb(tx) },
  );
}

/** Queue the next spend-cap check of a parked batch, `resumeCheckSeconds` from now. */
export async function insertResumeCheck(db: Database, tx: Queryable, batchId: string): Promise<void> {
  const boss = await bossInTransaction(db);
  const cfg = batchConfig();
  await boss.insert(
    RESUME_QUEUE,
    [
      {
        data: { batch_id: batchId } satisfies ResumeJob,
        startAfter: new Date(Date.now() + cfg.resumeCheckSeconds * 1000).toISOString(),
        ...queueOptions(RESUME_QUEUE),
      },
    ],
    {
      db: asPgBossDb(tx),
    },
  );
}

/** States in which a pg-boss job will still run (or is running). */
export const LIVE_JOB_STATES: ReadonlySet<string> = new Set(['created', 'retry', 'active']);
