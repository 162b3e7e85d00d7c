import type { Database } from '../db';
import { log } from '../log';
import {
  asPgBossDb,
  bossInTransaction,
  CHUNK_QUEUE,
  ensureBatchQueues,
  insertChunkJobs,
  insertResumeCheck,
  LIVE_JOB_STATES,
  RESUME_QUEUE,
  type ChunkJob,
} from './jobs';
import { settle } from './process';

/**
 * The sweep: puts back the pg-boss jobs of unfinished batches whose jobs were lost.
 *
 * Normally a batch always has the jobs it needs (they are inserted in the transaction that makes them necessary).
 * They can still be lost afterwards: a chunk's retries run out while `loadBatch`/`countAttempt` keep failing
 * (database outage), pg-boss deletes a job that waited longer than its retention (workers down for weeks), or an
 * operator deletes jobs. Nothing would ever move such a batch again, so the sweep (at worker start and every
 * DRG_BATCH_SWEEP_SECONDS) looks at every `queued`/`running` batch and, per chunk that still has pending cases and
 * no job in `created`/`retry`/`active`, inserts a new chunk job (and resets the chunk's attempt count, as a resume
 * does); a `parked` batch without a live resume check gets
 * one. A batch with nothing pending is settled by its counts.
 *
 * Idempotent: each batch is handled in one transaction that first locks the batch row, so concurrent sweeps (several
 * worker processes) take turns and the second sees the first one's jobs. A chunk job that is queued twice anyway is
 * harmless: a chunk only takes pending case rows, locked, and the unique ledger ref bills a case once.
 */
export interface SweepResult {
  /** Batches looked at. */
  checked: number;
  /** Chunk jobs inserted, per batch. */
  requeued: Array<{ batch_id: string; chunks: number[] }>;
  /** Parked batches that got a new resume check. */
  resume_checks: string[];
  /** Batches finished by their counts (nothing pending). */
  settled: string[];
}

export async function sweepBatches(db: Database): Promise<SweepResult> {
  const out: SweepResult = { checked: 0, requeued: [], resume_checks: [], settled: [] };
  const candidates = await db.prisma.drgBatch.findMany({
    where: { status: { in: ['queued', 'running', 'parked'] } },
    orderBy: { createdAt: 'asc' },
    select: { id: true },
  });
  if (!candidates.length) return out;
  await ensureBatchQueues(db); // before the transactions that may queue jobs
  const boss = await bossInTransaction(db);
  for (const { id } of candidates) {
    out.checked++;
    await db.transaction(async (tx) => {
      // Lock first: a concurrent sweep, resume check or chunk settle of this batch waits (or is waited for).
      const rows = await tx.query<{ status: string; chunk_size: number }>('SELECT status, chunk_size FROM drg_batches WHERE id = $1 FOR UPDATE', [id]);
      const b = rows[0];
      if (!b) return;
      const pgb = { db: asPgBossDb(tx) };
      if (b.status === 'parked') {
        const checks = await boss.findJobs(RESUME_QUEUE, { data: { batch_id: id }, ...pgb });
        if (!checks.some((j) => LIVE_JOB_STATES.has(j.state))) {
          await insertResumeCheck(db, tx, id);
          out.resume_checks.push(id);
        }
        return;
      }
      if (b.status !== 'queued' && b.status !== 'running') return;
      // Jobs before cases: a chunk job leaves the live states only after its chunk's transaction committed, so a
      // chunk seen without a live job here shows its committed cases below.
      const jobs = await boss.findJobs<ChunkJob>(CHUNK_QUEUE, { data: { batch_id: id }, ...pgb });
      const live = new Set(jobs.filter((j) => LIVE_JOB_STATES.has(j.state)).map((j) => Number(j.data.chunk)));
      const pending = await tx.query<{ chunk: number }>(
        `SELECT DISTINCT idx / $2::int AS chunk FROM drg_batch_cases WHERE batch_id = $1 AND status = 'pending' ORDER BY 1`,
        [id, b.chunk_size],
      );
      if (!pending.length) {
        await settle(db, tx, id, { done: 0, failed: 0, billed: 0, park: false });
        out.settled.push(id);
        return;
      }
      const missing = pending.map((p) => Number(p.chunk)).filter((c) => !live.has(c));
      if (!missing.length) return;
      // A fresh start, as after a resume: attempts that failed because the database was away do not count.
      await tx.query('UPDATE drg_batch_chunks SET attempts = 0 WHERE batch_id = $1 AND chunk = ANY($2::int[])', [id, missing]);
      await insertChunkJobs(db, tx, id, missing);
      out.requeued.push({ batch_id: id, chunks: missing });
    });
  }
  if (out.requeued.length || out.resume_checks.length || out.settled.length) {
    log.warn('drg batch sweep repaired batches', {
      requeued: out.requeued.map((r) => `${r.batch_id}:${r.chunks.join('+')}`),
      resume_checks: out.resume_checks,
      settled: out.settled,
    });
  }
  return out;
}
