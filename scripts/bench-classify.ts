/**
 * HTTP latency of POST /api/v1/drg/classify/: `npm run bench:classify [-- --requests 3000] [--backend postgres|pglite]
 * [--version v40] [--concurrency 1]`
 *
 * Starts the real server the API tests use (tests/helpers/backend.ts: a scratch PostgreSQL database by default,
 * migrated, the production request handler behind node:http), creates an organisation and a real API key, then
 * sends oracle dev cases one request at a time (keep-alive, like a client library) and prints client-side
 * p50/p95/p99 in milliseconds. Request logging stays on (LOG_LEVEL=info, written to a discarding sink), so the
 * cost of the log line is included. The grouper version is loaded and the key used during a warm-up first.
 *
 * NODE_ENV is `production`, as `npm start` sets it: outside production trpc-to-openapi regenerates the whole OpenAPI
 * document on every REST request to validate the router (~10 ms per request here). `--dev` measures that mode.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sharedDir } from '../server/config/paths';
import { setLogSink } from '../server/log';
import { createTestOrg, startBackend, type BackendKind } from '../tests/helpers/backend';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const requests = Number(arg('--requests') ?? 3000);
const warmup = Number(arg('--warmup') ?? 300);
const concurrency = Math.max(1, Number(arg('--concurrency') ?? 1));
const kind = (arg('--backend') ?? 'postgres') as BackendKind;
const version = arg('--version') ?? 'v40';
const dev = process.argv.includes('--dev');

interface Body {
  dx_codes: string[];
  pr_codes: string[];
  gender: 'F' | 'M';
  is_alive: boolean;
  version: string;
}

function cases(): Body[] {
  const file = path.join(sharedDir(), 'oracle', 'dev_cases_v40.jsonl');
  const out: Body[] = [];
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const c = JSON.parse(line) as { dx: string[]; pr?: string[]; sex: string; alive: boolean };
    const pr = c.pr ?? [];
    if (!c.dx.length || c.dx.length > 10 || [...c.dx, ...pr].some((x) => !x.trim()) || pr.length > 10 || pr.some((p) => p.length !== 7) || (c.sex !== 'M' && c.sex !== 'F')) continue;
    out.push({ dx_codes: c.dx, pr_codes: pr, gender: c.sex, is_alive: c.alive !== false, version });
  }
  return out;
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

async function main() {
  (process.env as Record<string, string>).NODE_ENV = dev ? 'development' : 'production';
  process.env.LOG_LEVEL = 'info';
  process.env.CODING_STATE_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'cg-bench-'));
  const restore = setLogSink(() => undefined);
  const be = await startBackend({ kind });
  try {
    const org = await createTestOrg(be.db, { scopes: ['drg:classify'] });
    const url = `${be.baseUrl}/api/v1/drg/classify/`;
    const bodies = cases().map((b) => JSON.stringify(b));
    let failures = 0;
    const send = async (i: number): Promise<number> => {
      const t0 = performance.now();
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': org.key }, body: bodies[i % bodies.length] });
      await res.arrayBuffer();
      if (res.status !== 200) failures++;
      return performance.now() - t0;
    };
    for (let i = 0; i < warmup; i++) await send(i);
    failures = 0;
    const times: number[] = [];
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < requests) times.push(await send(warmup + next++));
      }),
    );
    const wall = performance.now() - started;
    times.sort((a, b) => a - b);
    const f = (x: number) => x.toFixed(2).padStart(7);
    console.log(`POST /api/v1/drg/classify/ (${kind}, ${version}, NODE_ENV=${process.env.NODE_ENV}, node ${process.version}, ${os.cpus()[0]?.model ?? 'cpu'}; ${requests} requests after ${warmup} warm-up, concurrency ${concurrency}, ${bodies.length} distinct oracle cases)`);
    console.log(`  p50 ${f(pct(times, 50))} ms   p95 ${f(pct(times, 95))} ms   p99 ${f(pct(times, 99))} ms   max ${f(times[times.length - 1]!)} ms   ${((requests / wall) * 1000).toFixed(0)} req/s   non-200: ${failures}`);
    if (failures) process.exitCode = 1;
  } finally {
    restore();
    await be.close();
  }
}

void main();
