import type { Database, Queryable } from '../db';
import { getGrouper, type Grouper } from '../drg';
import { chargeManyIn, spendStatus, SpendCapError } from '../billing/ledger';
import { log } from '../log';
import { batchConfig, ledgerRef, SERVICE_TYPE } from './config';
import { ensureBatchQueues, insertChunkJobs, insertResumeCheck, type ChunkJob, type ResumeJob } from './jobs';
import { classifyCase, type CaseInput, type CaseOutcome } from './outcome';

/**
 * The workers of DRG batches: one pg-boss job per chunk of cases, and a resume check per parked job.
 *
 * A chunk runs in ONE transaction: it locks its still-pending case rows, groups them, charges the successful
 * cases (`chargeManyIn`: one ledger row per case, unique ledger ref `drg_batch:<job>:<index>`), writes the results
 * and moves the job's counters and state. A crash anywhere rolls all of it back, and pg-boss retries the chunk;
 * because only pending rows are taken (and locked), a retried or duplicated chunk never classifies or bills a case
 * twice, and the unique ledger ref would refuse a second row even if it tried.
 *
 * Spend caps: before charging, the chunk reads how much room the pool (production or sandbox) has left and
 * charges only as many successful cases as fit. Cases that do not fit stay pending and the job becomes `parked`;
 * the same transaction queues a resume check, which runs every DRG_BATCH_RESUME_CHECK_SECONDS until the pool has
 * room for at least one case (the cap was raised or removed, or a new billing month began), then moves the job
 * back to `running` and re-queues the chunks that still have pending cases.
 */
interface BatchRow {
  id: string;
  org_id: string;
  api_key_id: string | null;
  user_id: string | null;
  sandbox: boolean;
  status: 'queued' | 'running' | 'done' | 'failed' | 'parked';
  version: string;
  total_cases: number;
  chunk_size: number;
  price_micros: string;
}

async function loadBatch(q: Queryable, id: string): Promise<BatchRow | null> {
  const rows = await q.query<BatchRow>(
    `SELECT id, org_id, api_key_id, user_id, sandbox, status, version, total_cases, chunk_size, price_micros::text AS price_micros
       FROM drg_batches WHERE id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

/** Count an attempt at a chunk, outside any transaction so that crashed attempts count too. */
async function countAttempt(db: Database, batchId: string, chunk: number): Promise<number> {
  const rows = await db.query<{ attempts: number }>(
    `INSERT INTO drg_batch_chunks (batch_id, chunk, attempts) VALUES ($1, $2, 1)
     ON CONFLICT (batch_id, chunk) DO UPDATE SET attempts = drg_batch_chunks.attempts + 1, last_attempt_at = now()
     RETURNING attempts`,
    [batchId, chunk],
  );
  return Number(rows[0]!.attempts);
}

/**
 * Add finished cases to the job's counters and move its state (SPEC §3): `done` once every case finished and at
 * least one succeeded, `failed` when every case failed, `parked` when the spend cap stopped this chunk, otherwise
 * `running`. Locks the job row last, after the case and spend-counter rows, so concurrent chunks cannot deadlock.
 */
export async function settle(
  db: Database,
  tx: Queryable,
  batchId: string,
  inc: { done: number; failed: number; billed: number; park: boolean },
): Promise<void> {
  const rows = await tx.query<{ status: BatchRow['status']; total_cases: number; done_count: number; failed_count: number }>(
    'SELECT status, total_cases, done_count, failed_count FROM drg_batches WHERE id = $1 FOR UPDATE',
    [batchId],
  );
  const b = rows[0];
  if (!b) return;
  const done = b.done_count + inc.done;
  const failed = b.failed_count + inc.failed;
  const finished = done + failed >= b.total_cases;
  let status: BatchRow['status'] = b.status;
  if (finished) status = done > 0 ? 'done' : 'failed';
  else if (inc.park) status = 'parked';
  else if (status === 'queued') status = 'running';
  const newlyParked = status === 'parked' && b.status !== 'parked';
  await tx.query(
    `UPDATE drg_batches
        SET done_count = $2, failed_count = $3, billed_micros = billed_micros + $4::bigint, status = $5,
            started_at = COALESCE(started_at, now()),
            finished_at = CASE WHEN $6 THEN now() ELSE finished_at END,
            parked_at = CASE WHEN $7 THEN now() ELSE parked_at END,
            park_count = park_count + CASE WHEN $7 THEN 1 ELSE 0 END,
            updated_at = now()
      WHERE id = $1`,
    [batchId, done, failed, String(inc.billed), status, finished, newlyParked],
  );
  if (newlyParked) await insertResumeCheck(db, tx, batchId);
}

type Written = { idx: number } & CaseOutcome;

async function writeOutcomes(tx: Queryable, batchId: string, outcomes: Written[]): Promise<void> {
  if (!outcomes.length) return;
  const payload = outcomes.map((o) =>
    o.status === 'done'
      ? { idx: o.idx, status: 'done', result: o.result, error_code: null, error: null }
      : { idx: o.idx, status: 'failed', result: null, error_code: o.error_code, error: o.error },
  );
  await tx.query(
    `UPDATE drg_batch_cases c
        SET status = v.status, result = v.result, error_code = v.error_code, error = v.error, completed_at = now()
       FROM jsonb_to_recordset($2::jsonb) AS v(idx int, status text, result jsonb, error_code text, error text)
      WHERE c.batch_id = $1 AND c.idx = v.idx AND c.status = 'pending'`,
    [batchId, JSON.stringify(payload)],
  );
}

async function chunkTransaction(
  db: Database,
  tx: Queryable,
  b: BatchRow,
  grouper: Grouper,
  lo: number,
  hi: number,
): Promise<{ cases: number; parked: boolean }> {
  const rows = await tx.query<{ idx: number; input: CaseInput | string }>(
    `SELECT idx, input FROM drg_batch_cases
      WHERE batch_id = $1 AND idx >= $2 AND idx < $3 AND status = 'pending' ORDER BY idx FOR UPDATE`,
    [b.id, lo, hi],
  );
  if (!rows.length) return { cases: 0, parked: false };
  const outcomes: Written[] = rows.map((r) => ({
    idx: Number(r.idx),
    ...classifyCase(grouper, typeof r.input === 'string' ? (JSON.parse(r.input) as CaseInput) : r.input),
  }));
  const successes = outcomes.filter((o) => o.status === 'done');
  const price = Number(b.price_micros);
  let affordable = successes.length;
  if (price > 0 && successes.length) {
    const room = await spendStatus(tx, b.org_id, b.sandbox);
    if (room.cap_micros !== null) affordable = Math.max(0, Math.min(successes.length, Math.floor((room.cap_micros - room.spent_micros) / price)));
  }
  const charged = successes.slice(0, affordable);
  await chargeManyIn(
    tx,
    charged.map((o) => ({
      orgId: b.org_id,
      apiKeyId: b.api_key_id,
      userId: b.user_id,
      sandbox: b.sandbox,
      serviceType: SERVICE_TYPE,
      units: 1,
      costMicros: price,
      idempotencyRef: ledgerRef(b.id, o.idx),
      details: { job_id: b.id, case_index: o.idx },
    })),
  );
  const chargedIdx = new Set(charged.map((o) => o.idx));
  const written = outcomes.filter((o) => o.status === 'failed' || chargedIdx.has(o.idx));
  await writeOutcomes(tx, b.id, written);
  const park = charged.length < successes.length;
  await settle(db, tx, b.id, { done: charged.length, failed: written.length - charged.length, billed: price * charged.length, park });
  return { cases: written.length, parked: park };
}

/** Give up on a chunk that keeps failing: its pending cases fail (unbilled) so the job can still finish. */
async function giveUp(db: Database, b: BatchRow, lo: number, hi: number, attempts: number): Promise<void> {
  await db.transaction(async (tx) => {
    const failed = await tx.query<{ idx: number }>(
      `UPDATE drg_batch_cases SET status = 'failed', error_code = 'processing_failed', completed_at = now(),
              error = $4
        WHERE batch_id = $1 AND idx >= $2 AND idx < $3 AND status = 'pending' RETURNING idx`,
      [b.id, lo, hi, `processing failed: the case could not be processed after ${attempts - 1} attempts`],
    );
    if (failed.length) await settle(db, tx, b.id, { done: 0, failed: failed.length, billed: 0, park: false });
  });
  log.error('drg batch chunk given up', { job_id: b.id, chunk: Math.floor(lo / b.chunk_size), attempts: attempts - 1 });
}

async function park(db: Database, b: BatchRow): Promise<void> {
  await db.transaction((tx) => settle(db, tx, b.id, { done: 0, failed: 0, billed: 0, park: true }));
}

/** pg-boss handler of CHUNK_QUEUE. Throws (and pg-boss retries) only on infrastructure errors. */
export async function processChunk(db: Database, job: ChunkJob): Promise<void> {
  const b = await loadBatch(db, job.batch_id);
  // Finished jobs ignore stray chunks; parked jobs leave their chunks to the resume check, which re-queues them.
  if (!b || b.status === 'done' || b.status === 'failed' || b.status === 'parked') return;
  const lo = job.chunk * b.chunk_size;
  const hi = Math.min(lo + b.chunk_size, b.total_cases);
  if (lo >= hi) return;
  await ensureBatchQueues(db); // before any transaction that may queue a resume check
  const attempts = await countAttempt(db, b.id, job.chunk);
  if (attempts > batchConfig().maxAttempts) return giveUp(db, b, lo, hi, attempts);
  if (b.status === 'queued') {
    await db.query(
      `UPDATE drg_batches SET status = 'running', started_at = COALESCE(started_at, now()), updated_at = now() WHERE id = $1 AND status = 'queued'`,
      [b.id],
    );
  }
  const grouper = await getGrouper(b.version);
  const started = performance.now();
  for (let round = 1; ; round++) {
    try {
      const r = await db.transaction((tx) => chunkTransaction(db, tx, b, grouper, lo, hi));
      log.debug('drg batch chunk', { job_id: b.id, chunk: job.chunk, cases: r.cases, parked: r.parked, ms: Math.round(performance.now() - started) });
      return;
    } catch (err) {
      // Another charge took the room this chunk counted on between its read and its charge: nothing was
      // written; count again. If the pool really is full, park.
      if (!(err instanceof SpendCapError)) throw err;
      if (round >= 3) return park(db, b);
    }
  }
}

/** pg-boss handler of RESUME_QUEUE: resume a parked job when its pool has room for a case again. */
export async function checkParked(db: Database, job: ResumeJob): Promise<void> {
  const b = await loadBatch(db, job.batch_id);
  if (!b || b.status !== 'parked') return;
  await ensureBatchQueues(db);
  const price = Number(b.price_micros);
  const room = await spendStatus(db, b.org_id, b.sandbox);
  const clear = price === 0 || room.cap_micros === null || room.spent_micros + price <= room.cap_micros;
  const resumed = await db.transaction(async (tx) => {
    if (!clear) {
      await insertResumeCheck(db, tx, b.id);
      return false;
    }
    const won = await tx.query(
      `UPDATE drg_batches SET status = 'running', resumed_at = now(), updated_at = now() WHERE id = $1 AND status = 'parked' RETURNING id`,
      [b.id],
    );
    if (!won.length) return false;
    const chunks = await tx.query<{ chunk: number }>(
      `SELECT DISTINCT idx / $2::int AS chunk FROM drg_batch_cases WHERE batch_id = $1 AND status = 'pending' ORDER BY 1`,
      [b.id, b.chunk_size],
    );
    await tx.query('UPDATE drg_batch_chunks SET attempts = 0 WHERE batch_id = $1', [b.id]);
    if (chunks.length)
      await insertChunkJobs(
        db,
        tx,
        b.id,
        chunks.map((c) => Number(c.chunk)),
      );
    else await settle(db, tx, b.id, { done: 0, failed: 0, billed: 0, park: false }); // nothing pending: finish by the counts
    return true;
  });
  if (resumed) log.info('drg batch resumed', { job_id: b.id });
}
