/**
 * `npm run bench:event-loop` — does CPU-heavy work stall the server? Health-check latency (p50/p95/max) while six
 * maximum-size DRG agent calls (20,000 characters each) and three 100 KB redactions run in parallel, against a quiet
 * baseline. Goal: health p95 < 50 ms under that load.
 *
 * The server runs in a child process started the way `npm start` starts it (node + tsx), with the production request
 * handler on a database holding the starter vocabulary (so the agent resolves codes through the search engine, as in
 * production): embedded PGlite by default (kept in .cache/bench-event-loop-pglite, imported on the first run), or
 * `--postgres` (a kept `cg_bench_event_loop` database through TEST_PG_ADMIN_URL, default
 * postgres://postgres@127.0.0.1:5432/postgres). This process only sends requests: one health probe at a time, every
 * 10 ms, while the load runs `--rounds` times (default 3).
 *
 * Options: --rounds N, --postgres, --agents N (default 6), --redactions N (default 3), --no-pool (WORKER_THREADS=0:
 * every core in-process, for comparison), --json-only
 * Prints a summary and one JSON line.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { cacheDir, projectRoot, sharedDir } from '../server/config/paths';
import { percentile as pct } from './lib/stats';

const args = process.argv.slice(2);
const opt = (name: string, dflt: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};
const usePostgres = args.includes('--postgres');
const jsonOnly = args.includes('--json-only');
const noPool = args.includes('--no-pool');
const say = (s: string) => {
  if (!jsonOnly) process.stdout.write(s + '\n');
};

/* ---------------- child: the server ---------------- */

async function serve(): Promise<void> {
  process.env.LOG_LEVEL = 'warn';
  const { configureDb, getDb } = await import('../server/db');
  if (process.env.BENCH_DATABASE_URL) configureDb({ kind: 'postgres', url: process.env.BENCH_DATABASE_URL });
  else configureDb({ kind: 'pglite', dir: process.env.BENCH_PGLITE_DIR! });
  await import('../server/domains');
  const { prepareDatabase } = await import('../server/bootstrap');
  const { createApiServer } = await import('../server/http/node-adapter');
  const { createOrganization } = await import('../server/auth/accounts');
  const { createApiKey } = await import('../server/auth/keys');
  const { getIndex } = await import('../server/search/engine');
  const db = await getDb();
  await prepareDatabase(db, { referenceData: true });
  await getIndex(db); // the search index is compiled before the measurement, as on a server that has been up a while
  if (process.env.WORKER_THREADS !== '0') {
    const { warmWorkerPool } = await import('../server/workers/pool');
    await warmWorkerPool(db); // as npm start does: every worker thread loaded, opening the main thread's search index
  }
  const org = await createOrganization(db, `bench-event-loop ${Date.now().toString(36)}`);
  const { key } = await createApiKey(db, { orgId: org.id, scopes: [], actor: 'bench' });
  const server = createApiServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  // the server's own event-loop delay, reset and reported on request (over the IPC channel)
  const eld = monitorEventLoopDelay({ resolution: 5 });
  eld.enable();
  process.on('message', (m: string) => {
    if (m === 'eld-reset') eld.reset();
    if (m === 'eld-report')
      process.send?.({ eld: { p50_ms: eld.percentile(50) / 1e6, p95_ms: eld.percentile(95) / 1e6, p99_ms: eld.percentile(99) / 1e6, max_ms: eld.max / 1e6 } });
  });
  const addr = server.address() as { port: number };
  process.stdout.write(`READY ${addr.port} ${key}\n`);
}

/* ---------------- parent: the load and the probe ---------------- */

function agentNotes(n: number): string[] {
  const cases = fs
    .readFileSync(path.join(projectRoot, 'eval', 'agent', 'cases.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => (JSON.parse(l) as { text: string }).text);
  return Array.from({ length: n }, (_, k) => {
    let s = '';
    for (let i = k; s.length < 20_000; i += 7) s += cases[i % cases.length] + '\n\n';
    return [...s].slice(0, 20_000).join('');
  });
}

function redactionTexts(n: number): string[] {
  const p = path.join(sharedDir(), 'eval', 'phi', 'dev.jsonl');
  const notes = fs
    .readFileSync(p, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => (JSON.parse(l) as { text: string }).text);
  return Array.from({ length: n }, (_, k) => {
    let s = '';
    for (let i = k * 13; s.length < 100_000; i += 3) s += notes[i % notes.length] + '\n\n';
    return [...s].slice(0, 100_000).join('');
  });
}

const r1 = (x: number) => Math.round(x * 10) / 10;

async function postgresUrl(): Promise<string> {
  const admin = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  const exists = await c.query(`SELECT 1 FROM pg_database WHERE datname = 'cg_bench_event_loop'`);
  if (!exists.rowCount) await c.query('CREATE DATABASE cg_bench_event_loop');
  await c.end();
  return admin.replace(/\/[^/]*$/, '/cg_bench_event_loop');
}

async function startChild(): Promise<{ child: ChildProcess; base: string; key: string }> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    BENCH_EVENT_LOOP_CHILD: '1',
    CODING_STATE_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'cg-bench-el-state-')),
    NODE_ENV: 'production',
  };
  if (noPool) env.WORKER_THREADS = '0'; // the same server with every core in-process (the behaviour before the pool)
  if (usePostgres) env.BENCH_DATABASE_URL = await postgresUrl();
  else env.BENCH_PGLITE_DIR = path.join(cacheDir(), 'bench-event-loop-pglite');
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'bench-event-loop.ts')], {
    env,
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const ready = await new Promise<{ port: number; key: string }>((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      const m = /READY (\d+) (\S+)/.exec(buf);
      if (m) resolve({ port: Number(m[1]), key: m[2]! });
    });
    child.once('exit', (code) => reject(new Error(`server exited (${code})`)));
  });
  return { child, base: `http://127.0.0.1:${ready.port}`, key: ready.key };
}

async function probe(base: string, until: () => boolean): Promise<number[]> {
  const out: number[] = [];
  while (!until()) {
    const t = performance.now();
    const res = await fetch(`${base}/api/v1/health/`);
    await res.arrayBuffer();
    out.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, 10));
  }
  return out;
}

async function main(): Promise<void> {
  const rounds = opt('rounds', 3);
  const nAgents = opt('agents', 6);
  const nRedactions = opt('redactions', 3);
  say(`starting the server (${usePostgres ? 'PostgreSQL' : 'PGlite'}; the first run imports the starter vocabulary)…`);
  const { child, base, key } = await startChild();
  try {
    const notes = agentNotes(nAgents);
    const texts = redactionTexts(nRedactions);
    const post = async (p: string, body: unknown) => {
      const t = performance.now();
      const res = await fetch(base + p, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify(body) });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${p} answered ${res.status}`);
      return performance.now() - t;
    };
    // warm-up: one of each, so lazily compiled tables and worker threads are ready
    await post('/api/v1/drg/agent/', { message: notes[0] });
    await post('/api/v1/redact/', { text: texts[0] });

    let quiet = false;
    const t0 = performance.now();
    const baseline = await probe(base, () => (quiet = performance.now() - t0 > 3000));
    void quiet;

    const eldReport = () =>
      new Promise<{ p50_ms: number; p95_ms: number; p99_ms: number; max_ms: number }>((resolve) => {
        child.once('message', (m: { eld: { p50_ms: number; p95_ms: number; p99_ms: number; max_ms: number } }) => resolve(m.eld));
        child.send('eld-report');
      });
    child.send('eld-reset');
    const loaded: number[] = [];
    const agentMs: number[] = [];
    const redactMs: number[] = [];
    const wallMs: number[] = [];
    for (let r = 0; r < rounds; r++) {
      let done = false;
      const started = performance.now();
      const load = Promise.all([
        ...notes.map((m) => post('/api/v1/drg/agent/', { message: m }).then((ms) => agentMs.push(ms))),
        ...texts.map((t) => post('/api/v1/redact/', { text: t, return_mapping: true }).then((ms) => redactMs.push(ms))),
      ]).finally(() => {
        done = true;
      });
      const samples = probe(base, () => done);
      await load;
      wallMs.push(performance.now() - started);
      loaded.push(...(await samples));
    }
    const eld = await eldReport();
    const summary = {
      backend: usePostgres ? 'postgres' : 'pglite',
      worker_threads: noPool ? 0 : 'cores',
      cpus: os.cpus().length,
      rounds,
      load: { agents: nAgents, agent_chars: 20_000, redactions: nRedactions, redaction_chars: 100_000 },
      baseline: { n: baseline.length, p50_ms: r1(pct(baseline, 50)), p95_ms: r1(pct(baseline, 95)), max_ms: r1(Math.max(...baseline)) },
      under_load: { n: loaded.length, p50_ms: r1(pct(loaded, 50)), p95_ms: r1(pct(loaded, 95)), p99_ms: r1(pct(loaded, 99)), max_ms: r1(Math.max(...loaded)) },
      agent_ms: { p50: Math.round(pct(agentMs, 50)), max: Math.round(Math.max(...agentMs)) },
      redact_ms: { p50: Math.round(pct(redactMs, 50)), max: Math.round(Math.max(...redactMs)) },
      round_wall_ms: wallMs.map(Math.round),
      server_event_loop_delay: { p50_ms: r1(eld.p50_ms), p95_ms: r1(eld.p95_ms), p99_ms: r1(eld.p99_ms), max_ms: r1(eld.max_ms) },
      load_average_1m: r1(os.loadavg()[0]!),
      goal_p95_under_50ms: pct(loaded, 95) < 50,
    };
    say(`health baseline: p50 ${summary.baseline.p50_ms} ms, p95 ${summary.baseline.p95_ms} ms (${baseline.length} probes)`);
    say(
      `health under load (${nAgents} agent calls of 20,000 chars + ${nRedactions} redactions of 100 KB, ${rounds} rounds): p50 ${summary.under_load.p50_ms} ms, p95 ${summary.under_load.p95_ms} ms, p99 ${summary.under_load.p99_ms} ms, max ${summary.under_load.max_ms} ms (${loaded.length} probes)`,
    );
    say(
      `agent calls: p50 ${summary.agent_ms.p50} ms, max ${summary.agent_ms.max} ms; redactions: p50 ${summary.redact_ms.p50} ms, max ${summary.redact_ms.max} ms; rounds took ${summary.round_wall_ms.join(', ')} ms`,
    );
    say(
      `server event-loop delay under load: p50 ${summary.server_event_loop_delay.p50_ms} ms, p95 ${summary.server_event_loop_delay.p95_ms} ms, p99 ${summary.server_event_loop_delay.p99_ms} ms, max ${summary.server_event_loop_delay.max_ms} ms; machine load average ${summary.load_average_1m} on ${summary.cpus} cores`,
    );
    say(`goal (p95 < 50 ms): ${summary.goal_p95_under_50ms ? 'met' : 'NOT met'}`);
    process.stdout.write(JSON.stringify(summary) + '\n');
  } finally {
    child.kill('SIGTERM');
  }
}

if (process.env.BENCH_EVENT_LOOP_CHILD) {
  await serve();
} else {
  await main();
}
