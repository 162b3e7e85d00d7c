/**
 * `npm run bench:batch` — submit-to-done time of a 1000-case DRG batch through the real HTTP API, on a throwaway
 * PostgreSQL database (default) or a fresh PGlite folder (`--pglite`).
 *
 * Each run POSTs /api/v1/drg/batch/ (new Idempotency-Key) with 1000 oracle dev cases and polls
 * GET /api/v1/drg/batch/{id}/?limit=1 every 20 ms until the job is done. Reported per run: the 201 latency and
 * submit-to-done (POST sent → first poll that sees `done`). A 10-case warm-up batch runs first (grouper load, JIT).
 *
 * Options:
 *   --runs N            timed runs (default 3)
 *   --cases N           cases per batch (default 1000)
 *   --pglite            embedded PGlite instead of PostgreSQL
 *   --worker-processes N  PostgreSQL only: run the workers in N separate `server/worker.ts` processes instead of
 *                       in this process (as with `npm run worker`)
 *   --pg-url URL        admin connection for the scratch database (default TEST_PG_ADMIN_URL or
 *                       postgres://postgres@127.0.0.1:5432/postgres)
 *   --json-only         print only the JSON summary line
 * Settings such as DRG_BATCH_CHUNK_SIZE / DRG_BATCH_WORKER_CONCURRENCY are read from the environment as usual.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const runs = Number(arg('--runs') ?? 3);
const nCases = Number(arg('--cases') ?? 1000);
const usePglite = process.argv.includes('--pglite');
const workerProcesses = Number(arg('--worker-processes') ?? 0);
const jsonOnly = process.argv.includes('--json-only');
const adminUrl = arg('--pg-url') ?? process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const say = (s: string) => {
  if (!jsonOnly) process.stdout.write(s + '\n');
};

process.env.LOG_LEVEL ??= 'warn';
process.env.CODING_STATE_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'cg-bench-batch-'));
if (workerProcesses > 0) process.env.WORKERS_IN_PROCESS = 'false';

const { configureDb, getDb, closeDb } = await import('../server/db');
const { prepareDatabase } = await import('../server/bootstrap');
const { createApiServer } = await import('../server/http/node-adapter');
const { createOrganization } = await import('../server/auth/accounts');
const { createApiKey } = await import('../server/auth/keys');
const { startWorkers, stopQueue } = await import('../server/queue');
const { sampleCases } = await import('../tests/fixtures/sample-cases');
const { batchConfig } = await import('../server/batch/config');
const { projectRoot } = await import('../server/config/paths');
await import('../server/batch/queues');

let dbName: string | null = null;
let pgliteDir: string | null = null;
let dbUrl: string | undefined;
if (usePglite) {
  if (workerProcesses > 0) throw new Error('--worker-processes needs PostgreSQL (PGlite runs its workers in-process)');
  pgliteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-bench-pglite-'));
  configureDb({ kind: 'pglite', dir: pgliteDir });
} else {
  dbName = `cg_bench_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  dbUrl = adminUrl.replace(/\/[^/]*$/, `/${dbName}`);
  configureDb({ kind: 'postgres', url: dbUrl });
}

const children: ChildProcess[] = [];
async function cleanup(): Promise<void> {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  await Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : null)));
  await stopQueue();
  await closeDb();
  if (dbName) {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  }
  if (pgliteDir) fs.rmSync(pgliteDir, { recursive: true, force: true });
}

try {
  const db = await getDb();
  await prepareDatabase(db, { referenceData: false });
  const org = await createOrganization(db, `Bench ${randomUUID()}`);
  const { key } = await createApiKey(db, { orgId: org.id, scopes: ['drg:classify'], actor: 'bench' });

  if (workerProcesses > 0) {
    for (let i = 0; i < workerProcesses; i++) {
      const child = spawn(process.execPath, ['--import', 'tsx', path.join(projectRoot, 'server', 'worker.ts')], {
        cwd: projectRoot,
        env: { ...process.env, DATABASE_URL: dbUrl, LOG_LEVEL: 'info' },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      children.push(child);
      await new Promise<void>((resolve, reject) => {
        let buf = '';
        child.stdout!.on('data', (d: Buffer) => {
          buf += d.toString();
          if (buf.includes('"worker started"')) resolve();
        });
        child.once('exit', (code) => reject(new Error(`worker exited with ${code}`)));
      });
    }
  } else {
    await startWorkers(db);
  }

  const server = createApiServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  async function runOnce(cases: ReturnType<typeof sampleCases>): Promise<{ submitMs: number; doneMs: number; done: number; failed: number }> {
    const t0 = performance.now();
    const res = await fetch(`${base}/api/v1/drg/batch/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key, 'idempotency-key': randomUUID() },
      body: JSON.stringify({ cases, source_dialect: 'icd10cm' }),
    });
    const submitMs = performance.now() - t0;
    const body = (await res.json()) as { job_id: string };
    if (res.status !== 201) throw new Error(`submit answered ${res.status}: ${JSON.stringify(body)}`);
    for (;;) {
      const r = await fetch(`${base}/api/v1/drg/batch/${body.job_id}/?limit=1`, { headers: { 'x-api-key': key } });
      const j = (await r.json()) as { status: string; counts: { done: number; failed: number } };
      if (j.status === 'done' || j.status === 'failed') return { submitMs, doneMs: performance.now() - t0, done: j.counts.done, failed: j.counts.failed };
      if (performance.now() - t0 > 120_000) throw new Error(`job ${body.job_id} did not finish in 120 s (status ${j.status})`);
      await new Promise((r2) => setTimeout(r2, 20));
    }
  }

  const cfg = batchConfig();
  say(
    `DRG batch benchmark: ${usePglite ? 'PGlite' : 'PostgreSQL'}, ${workerProcesses > 0 ? `${workerProcesses} separate worker process(es)` : 'in-process workers'}, ${nCases} cases, chunk ${cfg.chunkSize}, concurrency ${cfg.workerConcurrency} per process, ${os.cpus().length} CPUs`,
  );
  const warm = await runOnce(sampleCases(10, { prefix: 'warm' }));
  say(`  warm-up (10 cases): submit-to-done ${warm.doneMs.toFixed(0)} ms`);
  const results: Array<{ submitMs: number; doneMs: number; done: number; failed: number }> = [];
  for (let i = 0; i < runs; i++) {
    const r = await runOnce(sampleCases(nCases, { prefix: `run${i}`, offset: i * 211 }));
    results.push(r);
    say(
      `  run ${i + 1}: 201 in ${r.submitMs.toFixed(0)} ms, submit-to-done ${r.doneMs.toFixed(0)} ms (${r.done} done, ${r.failed} failed, ${((nCases / r.doneMs) * 1000).toFixed(0)} cases/s)`,
    );
  }
  const sorted = results.map((r) => r.doneMs).sort((x, y) => x - y);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  say(`  submit-to-done: median ${median.toFixed(0)} ms, best ${sorted[0]!.toFixed(0)} ms, worst ${sorted[sorted.length - 1]!.toFixed(0)} ms`);
  process.stdout.write(
    JSON.stringify({
      bench: 'batch',
      backend: usePglite ? 'pglite' : 'postgres',
      workers: workerProcesses > 0 ? `${workerProcesses} processes` : 'in-process',
      cases: nCases,
      chunk_size: cfg.chunkSize,
      concurrency: cfg.workerConcurrency,
      submit_ms: results.map((r) => Math.round(r.submitMs)),
      submit_to_done_ms: results.map((r) => Math.round(r.doneMs)),
      median_ms: Math.round(median),
    }) + '\n',
  );
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
} finally {
  await cleanup();
}
