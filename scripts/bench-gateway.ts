/**
 * `npm run bench:gateway` — the chat gateway's own latency: gateway round trip minus direct-upstream round trip for
 * a 2 KB clinical prompt with PHI (target: ≤ 10 ms at p50).
 *
 * The test upstream runs in a child process (scripts/dev-upstream.ts, model `echo`). The gateway runs in this process
 * behind the production request handler (auth, model lookup, spend check, redaction of the prompt, upstream call,
 * re-hydration, receipt, ledger row, stored receipt), on a scratch database: embedded PGlite by default,
 * `--postgres` for a throwaway PostgreSQL database (TEST_PG_ADMIN_URL or postgres://postgres@127.0.0.1:5432/postgres).
 * Direct and gateway requests alternate, so machine noise hits both. Prints a summary and one JSON line.
 *
 * Options: --iterations N (default 300), --warmup N (default 30), --postgres, --json-only
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { percentile as pct } from './lib/stats';

const args = process.argv.slice(2);
const opt = (name: string, dflt: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};
const ITER = opt('iterations', 300);
const WARMUP = opt('warmup', 30);
const usePostgres = args.includes('--postgres');
const jsonOnly = args.includes('--json-only');
const say = (s: string) => {
  if (!jsonOnly) process.stdout.write(s + '\n');
};

process.env.LOG_LEVEL ??= 'info';
process.env.CODING_STATE_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'cg-bench-gw-state-'));

const { configureDb, getDb, closeDb } = await import('../server/db');
const { prepareDatabase } = await import('../server/bootstrap');
const { createApiServer } = await import('../server/http/node-adapter');
const { createOrganization } = await import('../server/auth/accounts');
const { createApiKey } = await import('../server/auth/keys');
const { addModel } = await import('../server/gateway/registry');
const { setLogSink } = await import('../server/log');
const { stopQueue } = await import('../server/queue');

/** A 2 KB note with names, IC, MRN, phone and clinical content. */
const PROMPT = (() => {
  const base =
    'WARD ROUND 12/3/24, Wad 7B bed 12. Pt: Ahmad Faizal bin Ismail (54M), IC 850101-14-5673, RN HKL/2023/045123. ' +
    'BP 130/80, HR 88, SpO2 98%. Hb 12.1, Na 138, K 4.2, creat 96. Day 3 post-op lap chole, wound clean, tolerating orally. ' +
    'Plan: IV ceftriaxone 2g OD, T. paracetamol 1g QID, chest physio, review LFT tomorrow. Update wife Siti Aminah binti Yusof via 012-345 6789. ' +
    'Seen with Dr. Lim Wei Ming (MO) and SN Kamala a/p Velu. ';
  let s = '';
  while (s.length < 2048) s += base;
  return s.slice(0, 2048);
})();

async function startUpstream(): Promise<{ baseUrl: string; stop: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'dev-upstream.ts'), '--port', '0', '--quiet'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      const m = /listening on (\S+)/.exec(buf);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`test upstream exited (${code})`)));
  });
  return { baseUrl, stop: () => child.kill('SIGTERM') };
}

async function scratchDb(): Promise<() => Promise<void>> {
  if (!usePostgres) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-bench-gw-pglite-'));
    configureDb({ kind: 'pglite', dir });
    return async () => fs.rmSync(dir, { recursive: true, force: true });
  }
  const admin = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `cg_bench_gw_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  await c.query(`CREATE DATABASE ${name}`);
  await c.end();
  configureDb({ kind: 'postgres', url: admin.replace(/\/[^/]*$/, `/${name}`) });
  return async () => {
    const d = new pg.Client({ connectionString: admin });
    await d.connect();
    await d.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await d.end();
  };
}

const upstream = await startUpstream();
const dropDb = await scratchDb();
let logLines = 0;
setLogSink(() => void logLines++); // production log level: every line is built (its cost is measured), then dropped
const db = await getDb();
await prepareDatabase(db, { referenceData: false });
const org = await createOrganization(db, `bench-gateway-${randomBytes(3).toString('hex')}`);
const { key } = await createApiKey(db, { orgId: org.id, scopes: ['llm:chat'], actor: 'bench' });
await addModel(
  db,
  {
    name: 'bench-echo',
    base_url: upstream.baseUrl,
    upstream_model: 'echo',
    approved_for_phi: true,
    price_input_per_1k_usd: 0.001,
    price_output_per_1k_usd: 0.002,
  },
  { orgId: org.id, actor: 'bench' },
);

const server = createApiServer();
server.keepAliveTimeout = 65_000;
await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
const gatewayUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/llm/chat/completions`;
const directUrl = `${upstream.baseUrl}/chat/completions`;
const body = JSON.stringify({ model: 'bench-echo', messages: [{ role: 'user', content: PROMPT }] });
const directBody = JSON.stringify({ model: 'echo', messages: [{ role: 'user', content: PROMPT }] });

async function timed(url: string, payload: string, headers: Record<string, string>): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: payload });
  const json = (await res.json()) as { choices?: Array<{ message: { content: string } }> };
  const ms = performance.now() - t0;
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${JSON.stringify(json).slice(0, 200)}`);
  return ms;
}

// correctness check once: the gateway restores what the upstream echoed
const check = (await (
  await fetch(gatewayUrl, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body })
).json()) as {
  choices: Array<{ message: { content: string } }>;
  redaction_receipt: { entities_redacted: Record<string, number> };
};
if (check.choices[0]!.message.content !== PROMPT) throw new Error('gateway answer differs from the prompt');
const entities = Object.values(check.redaction_receipt.entities_redacted).reduce((a, b) => a + b, 0);

const direct: number[] = [];
const gateway: number[] = [];
const diffs: number[] = [];
for (let i = 0; i < WARMUP + ITER; i++) {
  const d = await timed(directUrl, directBody, {});
  const g = await timed(gatewayUrl, body, { authorization: `Bearer ${key}` });
  if (i < WARMUP) continue;
  direct.push(d);
  gateway.push(g);
  diffs.push(g - d);
}

const r = (x: number) => Math.round(x * 100) / 100;
const result = {
  bench: 'gateway',
  database: db.kind,
  prompt_chars: PROMPT.length,
  entities_redacted: entities,
  iterations: ITER,
  direct_p50_ms: r(pct(direct, 50)),
  direct_p95_ms: r(pct(direct, 95)),
  gateway_p50_ms: r(pct(gateway, 50)),
  gateway_p95_ms: r(pct(gateway, 95)),
  overhead_p50_ms: r(pct(gateway, 50) - pct(direct, 50)),
  overhead_p95_ms: r(pct(gateway, 95) - pct(direct, 95)),
  paired_overhead_p50_ms: r(pct(diffs, 50)),
  paired_overhead_p95_ms: r(pct(diffs, 95)),
  target_p50_ms: 10,
};
say(`chat gateway overhead, ${PROMPT.length}-char prompt (${entities} PHI entities), ${ITER} requests each, database ${db.kind}`);
say(`  direct upstream   p50 ${result.direct_p50_ms} ms   p95 ${result.direct_p95_ms} ms`);
say(`  through gateway   p50 ${result.gateway_p50_ms} ms   p95 ${result.gateway_p95_ms} ms`);
say(
  `  overhead          p50 ${result.overhead_p50_ms} ms   p95 ${result.overhead_p95_ms} ms   (paired differences: p50 ${result.paired_overhead_p50_ms} ms, p95 ${result.paired_overhead_p95_ms} ms)`,
);
say(`  target            p50 <= 10 ms: ${result.overhead_p50_ms <= 10 ? 'met' : 'NOT met'}`);
process.stdout.write(JSON.stringify(result) + '\n');

server.closeAllConnections();
await new Promise<void>((res) => server.close(() => res()));
upstream.stop();
await stopQueue();
await closeDb();
await dropDb();
process.exit(0);
