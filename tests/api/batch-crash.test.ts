import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, backendKind, createTestOrg, startBackend, type TestBackend, type TestOrg } from '../helpers/backend';
import { getGrouper } from '@/server/drg';
import { toGroupInput } from '@/server/api/schemas/drg';
import { sampleCases } from '../fixtures/sample-cases';
import { projectRoot } from '@/server/config/paths';

/**
 * Worker crash: a separate `server/worker.ts` process (what `npm run worker` runs) is killed with SIGKILL while it
 * holds an active chunk, and a new worker process finishes the job. pg-boss notices the dead worker through the
 * chunk's expireInSeconds (3 s here) and its monitor pass (QUEUE_MONITOR_SECONDS=1 here), then retries the chunk.
 * PostgreSQL only: with PGlite the workers always run inside the one server process.
 */
const PRICE = 1000;
process.env.QUEUE_MONITOR_SECONDS = '1';
process.env.DRG_BATCH_CHUNK_EXPIRE_SECONDS = '3';
process.env.DRG_BATCH_CHUNK_SIZE = '50';

let be: TestBackend;
let org: TestOrg;
const children: ChildProcess[] = [];

beforeAll(async () => {
  if (backendKind() !== 'postgres') return;
  delete process.env.DRG_BATCH_PRICE_MICROS;
  be = await startBackend();
  org = await createTestOrg(be.db);
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await be?.close();
});

/** A worker process as `npm run worker` starts it; resolves once it reports "worker started". */
async function startWorkerProcess(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(projectRoot, 'server', 'worker.ts')], {
    cwd: projectRoot,
    env: { ...process.env, DATABASE_URL: be.databaseUrl, LOG_LEVEL: 'info', DRG_BATCH_WORKER_CONCURRENCY: '2' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      if (out.includes('"worker started"')) {
        child.stdout!.off('data', onData);
        child.stdout!.resume();
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`worker exited early (${code}): ${err.slice(0, 500)}`)));
  });
  return child;
}

async function jobState(jobId: string) {
  const rows = await be.db.query<{ status: string; done_count: number; failed_count: number }>(
    'SELECT status, done_count, failed_count FROM drg_batches WHERE id = $1',
    [jobId],
  );
  return rows[0]!;
}

describe.skipIf(backendKind() !== 'postgres')('DRG batch worker crash (separate worker processes, PostgreSQL)', () => {
  it('a worker killed with SIGKILL mid-job: a new worker finishes the job, every case once, one ledger row per classified case', async () => {
    const cases = sampleCases(1000, { prefix: 'crash' });
    const r = await api(be.baseUrl, 'POST', '/api/v1/drg/batch/', { key: org.key, body: { cases }, headers: { 'idempotency-key': randomUUID() } });
    expect(r.status).toBe(201);
    const jobId = r.body.job_id as string;

    // Kill a worker with SIGKILL the moment it holds an active chunk, after some cases were already finished. A
    // chunk is active for a few tens of milliseconds, so the kill can land just after it completed: then the next
    // worker is killed the same way, until one dies holding a chunk (an orphan only pg-boss's expiry can recover).
    let orphans: string[] = [];
    let atKill = { status: '', done_count: 0, failed_count: 0 };
    let kills = 0;
    while (!orphans.length) {
      expect(kills).toBeLessThan(6);
      const worker = await startWorkerProcess();
      const deadline = Date.now() + 30_000;
      for (;;) {
        const s = await jobState(jobId);
        expect(s.status).not.toBe('done'); // the kill must land mid-job
        if (s.done_count + s.failed_count > 0) {
          const active = await be.db.query(`SELECT 1 FROM pgboss.job WHERE name = 'drg-batch-chunk' AND state = 'active'`);
          if (active.length) break;
        }
        if (Date.now() > deadline) throw new Error('the worker never took a chunk');
        await new Promise((res) => setTimeout(res, 2));
      }
      worker.kill('SIGKILL');
      await new Promise((res) => worker.once('exit', res));
      expect(worker.signalCode).toBe('SIGKILL');
      kills++;
      orphans = (await be.db.query<{ id: string }>(`SELECT id::text AS id FROM pgboss.job WHERE name = 'drg-batch-chunk' AND state = 'active'`)).map(
        (x) => x.id,
      );
      atKill = await jobState(jobId);
    }
    // Whether the dead worker's transaction had committed (cases done, only the pg-boss completion lost) or was
    // rolled back (cases still pending): both must end with each case done once.
    const orphanChunks = await be.db.query<{ chunk: number }>(`SELECT (data->>'chunk')::int AS chunk FROM pgboss.job WHERE id = ANY($1::uuid[])`, [orphans]);
    const pendingInOrphans = await be.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM drg_batch_cases WHERE batch_id = $1 AND status = 'pending' AND idx / 50 = ANY($2::int[])`,
      [jobId, orphanChunks.map((c) => c.chunk)],
    );
    expect(atKill.done_count + atKill.failed_count).toBeLessThan(1000);

    // A new worker process picks up the queued chunks and, once they expire, the dead worker's chunks.
    const restarted = Date.now();
    const second = await startWorkerProcess();
    const until = Date.now() + 45_000;
    let s = await jobState(jobId);
    while (s.status !== 'done' && s.status !== 'failed') {
      if (Date.now() > until) throw new Error(`job stuck after the crash: ${JSON.stringify(s)}`);
      await new Promise((res) => setTimeout(res, 100));
      s = await jobState(jobId);
    }
    expect(s.status).toBe('done');
    expect(second.exitCode).toBeNull();
    console.info(
      `crash test: ${kills} SIGKILL(s); the last with ${atKill.done_count + atKill.failed_count}/1000 cases finished and ${orphans.length} chunk(s) orphaned ` +
        `(${pendingInOrphans[0]!.n} of their cases uncommitted); ` +
        `the new worker finished the job ${((Date.now() - restarted) / 1000).toFixed(1)} s after it was started`,
    );

    // The chunks the dead worker held were retried (pg-boss counts the retry) and completed. When the dead worker
    // had committed its chunk (only the completion was lost), the job can finish before that retry has run (it
    // waits for the expiry, the monitor pass and its retry delay): wait for it, it must find nothing to do.
    const orphanStates = () =>
      be.db.query<{ id: string; state: string; retry_count: number }>(`SELECT id::text AS id, state, retry_count FROM pgboss.job WHERE id = ANY($1::uuid[])`, [
        orphans,
      ]);
    let retried = await orphanStates();
    const retriedBy = Date.now() + 30_000;
    while (retried.some((j) => j.state !== 'completed') && Date.now() < retriedBy) {
      await new Promise((res) => setTimeout(res, 200));
      retried = await orphanStates();
    }
    expect(retried).toHaveLength(orphans.length);
    for (const j of retried) {
      expect(j.state).toBe('completed');
      expect(j.retry_count).toBeGreaterThanOrEqual(1);
    }

    // Every case exactly once: no pending rows, results match the grouper, one ledger row per classified case.
    const rows = await be.db.query<{ idx: number; status: string; result: { primary_drg: string } | null; error_code: string | null }>(
      'SELECT idx, status, result, error_code FROM drg_batch_cases WHERE batch_id = $1 ORDER BY idx',
      [jobId],
    );
    expect(rows).toHaveLength(1000);
    const g = await getGrouper('v40');
    let done = 0;
    rows.forEach((row, i) => {
      const want = g.group(toGroupInput(cases[i]!));
      if (want.drg === '999') expect(row).toMatchObject({ status: 'failed', error_code: want.return_code });
      else {
        done++;
        expect(row.status).toBe('done');
        expect(row.result!.primary_drg).toBe(want.drg);
      }
    });
    expect(s.done_count).toBe(done);
    expect(s.done_count + s.failed_count).toBe(1000);

    const ledger = await be.db.query<{ ref: string; cost: string }>(
      `SELECT idempotency_ref AS ref, cost_micros::text AS cost FROM ledger WHERE org_id = $1 AND service_type = 'drg_batch'`,
      [org.orgId],
    );
    expect(ledger).toHaveLength(done);
    const doneRefs = rows
      .filter((x) => x.status === 'done')
      .map((x) => `drg_batch:${jobId}:${x.idx}`)
      .sort();
    expect(ledger.map((l) => l.ref).sort()).toEqual(doneRefs);
    const spent = await be.db.query<{ spent: string }>('SELECT spent_micros::text AS spent FROM spend_counters WHERE org_id = $1 AND sandbox = false', [
      org.orgId,
    ]);
    expect(Number(spent[0]!.spent)).toBe(done * PRICE);
  });
});
