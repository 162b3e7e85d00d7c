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
import { percentile as pct } from './lib/stats';

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

/** The official grouper's DRG for each body sent (the oracle's expected answer), to check the API agrees. */
const expectedDrg = new Map<string, string>();

function cases(): Body[] {
  const file = path.join(sharedDir(), 'oracle', 'dev_cases_v40.jsonl');
  const out: Body[] = [];
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const c = JSON.parse(line) as {
      dx: string[];
      pr?: string[];
      sex: string;
      alive: boolean;
      dischargeStatus?: number;
      poa?: string[];
      expected: { drg: number };
    };
    const pr = c.pr ?? [];
    if (
      !c.dx.length ||
      c.dx.length > 10 ||
      [...c.dx, ...pr].some((x) => !x.trim()) ||
      pr.length > 10 ||
      pr.some((p) => p.length !== 7) ||
      (c.sex !== 'M' && c.sex !== 'F')
    )
      continue;
    // cases the API body cannot say exactly (discharge status other than home/expired, POA flags) are left out
    if ((c.dischargeStatus !== undefined && c.dischargeStatus !== 1 && c.dischargeStatus !== 20) || c.poa) continue;
    const body: Body = { dx_codes: c.dx, pr_codes: pr, gender: c.sex, is_alive: c.alive !== false, version };
    out.push(body);
    // the API reads `I21.4` as I214 (SPEC: codes with or without dots); the official grouper, fed the raw string,
    // calls it invalid (DRG 999). Such cases are sent, but not counted for agreement.
    if (![...c.dx, ...pr].some((x) => x.includes('.'))) expectedDrg.set(JSON.stringify(body), String(c.expected.drg).padStart(3, '0'));
  }
  return out;
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
    const disagree = new Set<string>(); // bodies whose DRG differs from the official grouper's
    const failed = new Map<string, string>(); // status + error type → an example body, printed after the numbers
    const send = async (i: number): Promise<number> => {
      const t0 = performance.now();
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': org.key }, body: bodies[i % bodies.length] });
      const text = await res.text();
      if (res.status === 200) {
        const want = expectedDrg.get(bodies[i % bodies.length]!);
        if (want && (JSON.parse(text) as { primary_drg: string }).primary_drg !== want) disagree.add(bodies[i % bodies.length]!);
      } else {
        failures++;
        const key = `${res.status} ${text.slice(0, 120)}`;
        if (!failed.has(key)) failed.set(key, bodies[i % bodies.length]!);
      }
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
    console.log(
      `POST /api/v1/drg/classify/ (${kind}, ${version}, NODE_ENV=${process.env.NODE_ENV}, node ${process.version}, ${os.cpus()[0]?.model ?? 'cpu'}; ${requests} requests after ${warmup} warm-up, concurrency ${concurrency}, ${bodies.length} distinct oracle cases)`,
    );
    console.log(
      `  p50 ${f(pct(times, 50))} ms   p95 ${f(pct(times, 95))} ms   p99 ${f(pct(times, 99))} ms   max ${f(times[times.length - 1]!)} ms   ${((requests / wall) * 1000).toFixed(0)} req/s   non-200: ${failures}`,
    );
    const seen = new Set(Array.from({ length: warmup + requests }, (_, i) => bodies[i % bodies.length]!).filter((b) => expectedDrg.has(b))).size;
    console.log(`  agreement with the official grouper (final DRG): ${seen - disagree.size}/${seen} distinct cases sent (dotted codes not counted)`);
    for (const body of [...disagree].slice(0, 5)) console.log(`    differs: ${body} (official ${expectedDrg.get(body)})`);
    for (const [what, body] of failed) console.log(`  non-200: ${what}\n    request: ${body}`);
    if (failures) process.exitCode = 1;
  } finally {
    restore();
    await be.close();
  }
}

void main();
