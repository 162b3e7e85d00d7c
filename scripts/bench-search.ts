/**
 * `npm run bench:search [-- --backends postgres,pglite --queries 400 --concurrency 4]`
 *
 * Replays the development query sets (../shared/eval/search: lay, GEM dx/pr, with their vocabularies, top_k 10)
 * through the search engine, in hybrid and in graph mode, on PostgreSQL and on PGlite, and prints p50/p95/p99
 * latency and throughput. The full starter vocabulary is imported first when missing:
 *  - PostgreSQL: DATABASE_URL, or a `cg_bench_search` database created through TEST_PG_ADMIN_URL
 *    (default postgres://postgres@127.0.0.1:5432/postgres) and kept for the next run;
 *  - PGlite: .cache/bench-search-pglite (kept).
 * Latency is measured sequentially (one query at a time); QPS also with N concurrent clients (PostgreSQL only:
 * PGlite is a single connection). It is a benchmark, not a test: numbers vary with the machine.
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { cacheDir, sharedDir } from '../server/config/paths';
import { closeDb, configureDb, getDb, type Database } from '../server/db';
import { migrate } from '../server/migrations';
import { getIndex, search } from '../server/search/engine';
import { ensureStarterVocabulary } from '../server/search/startup';
import { percentile as pct } from './lib/stats';

process.env.LOG_LEVEL ??= 'warn';
const args = process.argv.slice(2);
const flag = (n: string, d: string) => {
  const i = args.indexOf(`--${n}`);
  return i >= 0 && args[i + 1] ? args[i + 1]! : d;
};
const backends = flag('backends', 'postgres,pglite').split(',');
const maxQueries = Number(flag('queries', '400'));
const concurrency = Number(flag('concurrency', '4'));

interface Q {
  query: string;
  vocabularies?: string[];
}

function loadQueries(): Q[] {
  const dir = path.join(sharedDir(), 'eval', 'search');
  const out: Q[] = [];
  for (const f of ['lay_dev.jsonl', 'gem_dx_dev.jsonl', 'gem_pr_dev.jsonl']) {
    const p = path.join(dir, f);
    if (!fs.existsSync(p)) continue;
    for (const l of fs.readFileSync(p, 'utf8').split('\n').filter(Boolean)) {
      const r = JSON.parse(l) as Q;
      out.push({ query: r.query, vocabularies: r.vocabularies });
    }
  }
  // interleave the sets so every slice is a mix
  return out.sort((a, b) => hash(a.query) - hash(b.query)).slice(0, maxQueries);
}

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

async function runMode(db: Database, queries: Q[], mode: 'hybrid' | 'graph', conc: number): Promise<string> {
  const lat: number[] = [];
  const t0 = performance.now();
  for (const q of queries) {
    const t = performance.now();
    await search(db, { query: q.query, vocabularies: q.vocabularies, top_k: 10, search_mode: mode });
    lat.push(performance.now() - t);
  }
  const seqSec = (performance.now() - t0) / 1000;
  lat.sort((a, b) => a - b);
  let line = `${mode.padEnd(7)} n=${queries.length}  p50 ${pct(lat, 50).toFixed(1)} ms  p95 ${pct(lat, 95).toFixed(1)} ms  p99 ${pct(lat, 99).toFixed(1)} ms  max ${lat[lat.length - 1]!.toFixed(0)} ms  QPS(1) ${(queries.length / seqSec).toFixed(1)}`;
  if (conc > 1) {
    let next = 0;
    const t1 = performance.now();
    await Promise.all(
      Array.from({ length: conc }, async () => {
        while (next < queries.length) {
          const q = queries[next++]!;
          await search(db, { query: q.query, vocabularies: q.vocabularies, top_k: 10, search_mode: mode });
        }
      }),
    );
    line += `  QPS(${conc}) ${(queries.length / ((performance.now() - t1) / 1000)).toFixed(1)}`;
  }
  return line;
}

async function postgresUrl(): Promise<string> {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  const admin = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  const exists = await c.query(`SELECT 1 FROM pg_database WHERE datname = 'cg_bench_search'`);
  if (!exists.rowCount) await c.query('CREATE DATABASE cg_bench_search');
  await c.end();
  return admin.replace(/\/[^/]*$/, '/cg_bench_search');
}

const queries = loadQueries();
process.stdout.write(`search benchmark: ${queries.length} queries (lay + GEM dev sets), top_k 10\n`);
for (const kind of backends) {
  if (kind === 'postgres') configureDb({ kind: 'postgres', url: await postgresUrl() });
  else configureDb({ kind: 'pglite', dir: path.join(cacheDir(), 'bench-search-pglite') });
  const db = await getDb();
  await migrate(db);
  const t = performance.now();
  const how = await ensureStarterVocabulary(db, (m) => process.stderr.write(`  ${m}\n`));
  if (how === 'imported') process.stdout.write(`${kind}: starter vocabulary imported in ${((performance.now() - t) / 1000).toFixed(1)} s\n`);
  const ti = performance.now();
  const ix = await getIndex(db);
  process.stdout.write(
    `${kind}: in-memory index (${ix?.n ?? 0} concepts, ${ix?.termText.length ?? 0} texts) compiled in ${((performance.now() - ti) / 1000).toFixed(1)} s\n`,
  );
  for (const q of queries.slice(0, 30)) await search(db, { query: q.query, vocabularies: q.vocabularies, top_k: 10 }); // warm-up
  for (const mode of ['hybrid', 'graph'] as const)
    process.stdout.write(`${kind.padEnd(8)} ${await runMode(db, queries, mode, kind === 'postgres' ? concurrency : 1)}\n`);
  await closeDb();
}
