/**
 * `npm run bench:search-scale -- --concepts N [--keep] [--queries 300] [--clients 5] [--heap-mb N] [--no-pool]`
 *
 * Search at the size of a real Athena download, measured through the project's own importer and engine:
 *  1. generates a synthetic Athena bundle of N concepts in .cache/search-scale/<N>/: the starter bundle (so every
 *     dev-set answer is in it) plus synthetic concepts whose names are recombined from the starter vocabulary's
 *     words, in realistic vocabulary proportions, with ~0.6 synonyms, 8 relationships ('Is a'/'Subsumes' to two
 *     parents, 'Maps to'/'Mapped from' or two attribute pairs) and 12 ancestor rows per concept. N at or below the
 *     starter's size measures the starter bundle itself;
 *  2. imports it into a throwaway PostgreSQL database (TEST_PG_ADMIN_URL, default postgres@127.0.0.1) with the
 *     importer, timed;
 *  3. starts a fresh process that answers one search (start-up until the first answer: module load, index build),
 *     then reports the index memory (RSS, V8 heap after GC), hybrid and graph p50/p95 sequential over the dev sets
 *     (lay, GEM dx, GEM pr) with their R@10 and MRR@10, and p50/p95 and QPS with 5 concurrent clients. The process
 *     runs the worker pools as `npm start` does (`--no-pool`: the search thread alone), so its RSS includes them;
 *     `rss_after_queries_mb` is read after every thread has searched;
 *  4. drops the database (unless --keep).
 * A benchmark, not a test: numbers vary with the machine and its load.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { cacheDir, projectRoot, sharedDir } from '../server/config/paths';
import { seededRandom } from '../server/config/random';
import { percentile as pct } from './lib/stats';

process.env.LOG_LEVEL ??= 'warn';
const args = process.argv.slice(2);
const flag = (n: string, d: string) => {
  const i = args.indexOf(`--${n}`);
  return i >= 0 && args[i + 1] ? args[i + 1]! : d;
};

/* ---------- serve phase (a fresh child process) ---------- */

interface Q {
  qid: string;
  query: string;
  vocabularies?: string[];
  relevant: Array<{ concept_code: string }>;
  set: string;
}

function loadSets(): Q[] {
  const dir = path.join(sharedDir(), 'eval', 'search');
  const out: Q[] = [];
  for (const set of ['lay_dev', 'gem_dx_dev', 'gem_pr_dev']) {
    for (const l of fs
      .readFileSync(path.join(dir, `${set}.jsonl`), 'utf8')
      .split('\n')
      .filter(Boolean))
      out.push({ ...(JSON.parse(l) as Q), set });
  }
  return out;
}

async function serve(url: string): Promise<void> {
  const { configureDb, getDb, closeDb } = await import('../server/db');
  const { search, getIndex } = await import('../server/search/engine');
  configureDb({ kind: 'postgres', url });
  const db = await getDb();
  const queries = loadSets();
  // the HTTP door's behaviour while the index is still loading: 503 at once, not a wait
  const { requireIndex } = await import('../server/search/engine');
  const t503 = performance.now();
  const unavailable = await requireIndex(db, { maxWaitMs: 0 }).then(
    () => 'served',
    (e: unknown) => (e as { type?: string }).type ?? String(e),
  );
  const unavailableMs = performance.now() - t503;
  // as npm start runs it: the CPU pool's threads (the lexical walk of a large index) and the agent's, every one
  // opening the main thread's index memory; --no-pool searches in this thread alone
  const pooled = !args.includes('--no-pool');
  const workers = pooled ? await import('../server/workers/pool') : null;
  await workers?.warmWorkerPool(db);
  const tIx = performance.now();
  await search(db, { query: 'heart attack', top_k: 10 });
  const firstMs = performance.now() - tIx;
  const startup = process.uptime() * 1000;
  const ix = await getIndex(db);
  (globalThis as { gc?: () => void }).gc?.();
  const mem = process.memoryUsage();
  const out: Record<string, unknown> = {
    concepts: ix?.n,
    texts: ix?.termText.length,
    startup_to_first_search_ms: Math.round(startup),
    first_search_ms: Math.round(firstMs),
    rss_mb: Math.round(mem.rss / 2 ** 20),
    heap_used_mb: Math.round(mem.heapUsed / 2 ** 20),
    array_buffers_mb: Math.round(mem.arrayBuffers / 2 ** 20),
    index_resident_mb: Math.round((ix?.residentBytes ?? 0) / 2 ** 20),
    index_load_ms: ix?.loadMs,
    before_load: { answer: unavailable, ms: +unavailableMs.toFixed(1) },
    worker_threads: pooled ? workers!.workerThreadCount() : 0,
  };
  const undot = (c: string) => c.replace(/\./g, '').toUpperCase();
  for (const mode of ['hybrid', 'graph'] as const) {
    const lat: number[] = [];
    const hits: Record<string, { n: number; r10: number; mrr: number }> = {};
    for (const q of queries) {
      const t = performance.now();
      const res = await search(db, { query: q.query, vocabularies: q.vocabularies, top_k: 10, search_mode: mode });
      lat.push(performance.now() - t);
      const rel = new Set(q.relevant.map((r) => undot(r.concept_code)));
      const rank = res.results.findIndex((r) => rel.has(undot(r.concept_code)));
      const h = (hits[q.set] ??= { n: 0, r10: 0, mrr: 0 });
      h.n++;
      if (rank >= 0) {
        h.r10++;
        h.mrr += 1 / (rank + 1);
      }
    }
    lat.sort((a, b) => a - b);
    out[`${mode}_seq`] = { n: lat.length, p50_ms: +pct(lat, 50).toFixed(1), p95_ms: +pct(lat, 95).toFixed(1) };
    out[`${mode}_quality`] = Object.fromEntries(
      Object.entries(hits).map(([k, h]) => [k, { r10: +(h.r10 / h.n).toFixed(3), mrr10: +(h.mrr / h.n).toFixed(3) }]),
    );
    // concurrent clients over an interleaved sample
    const clients = Number(flag('clients', '5'));
    const sample = queries.filter((_, i) => i % Math.max(1, Math.floor(queries.length / Number(flag('queries', '300')))) === 0);
    const clat: number[] = [];
    let next = 0;
    const t1 = performance.now();
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (next < sample.length) {
          const q = sample[next++]!;
          const t = performance.now();
          await search(db, { query: q.query, vocabularies: q.vocabularies, top_k: 10, search_mode: mode });
          clat.push(performance.now() - t);
        }
      }),
    );
    clat.sort((a, b) => a - b);
    out[`${mode}_${clients}clients`] = {
      n: clat.length,
      p50_ms: +pct(clat, 50).toFixed(1),
      p95_ms: +pct(clat, 95).toFixed(1),
      qps: +(sample.length / ((performance.now() - t1) / 1000)).toFixed(1),
    };
  }
  // every thread has searched by now (its scratch arrays allocated): the process's memory at its peak use
  (globalThis as { gc?: () => void }).gc?.();
  out.rss_after_queries_mb = Math.round(process.memoryUsage().rss / 2 ** 20);
  process.stdout.write(`RESULT ${JSON.stringify(out)}\n`);
  await workers?.stopWorkerPool();
  await closeDb();
}

/* ---------- synthetic bundle ---------- */

// deterministic: the same sequence for the same seed in every process
const rng = seededRandom;

/** Bumped when the generator changes (a cached bundle of another generator is rebuilt). 2: 'Maps to' stays in its domain. */
const GENERATOR = 2;

/** Share of each vocabulary among the synthetic concepts (roughly an Athena download's: drugs and SNOMED dominate). */
const PROPORTIONS: Array<[string, number]> = [
  ['RxNorm Extension', 0.3],
  ['SNOMED', 0.3],
  ['RxNorm', 0.08],
  ['LOINC', 0.1],
  ['ICD10PCS', 0.08],
  ['ICD10CM', 0.05],
  ['CPT4', 0.03],
  ['HCPCS', 0.03],
  ['ICD9CM', 0.015],
  ['ICD10', 0.015],
];

class Writer {
  private fd: number;
  private buf: string[] = [];
  private size = 0;
  constructor(file: string, append: boolean) {
    this.fd = fs.openSync(file, append ? 'a' : 'w');
  }
  line(cols: Array<string | number>): void {
    const s = cols.join('\t') + '\n';
    this.buf.push(s);
    this.size += s.length;
    if (this.size > 1 << 20) this.flush();
  }
  flush(): void {
    if (this.buf.length) fs.writeSync(this.fd, this.buf.join(''));
    this.buf = [];
    this.size = 0;
  }
  close(): void {
    this.flush();
    fs.closeSync(this.fd);
  }
}

interface Template {
  domain: string;
  cls: string;
  std: string;
  words: string[];
}

async function generate(n: number, starterDir: string): Promise<{ dir: string; added: number }> {
  const dir = path.join(cacheDir(), 'search-scale', String(n));
  const stamp = path.join(dir, 'manifest.json');
  if (fs.existsSync(stamp)) {
    const m = JSON.parse(fs.readFileSync(stamp, 'utf8')) as { added: number; starter: string; generator?: number };
    if (m.starter === starterDir && m.generator === GENERATOR) return { dir, added: m.added };
  }
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const rand = rng(n);
  const byVocab = new Map<string, Template[]>();
  const stdIds = new Map<string, number[]>();
  const stdByDomain = new Map<string, number[]>();
  const usedIds = new Set<number>();
  const lines = fs.readFileSync(path.join(starterDir, 'CONCEPT.csv'), 'utf8').split('\n');
  for (let i = 1; i < lines.length; i++) {
    const c = lines[i]!.split('\t');
    if (c.length < 10) continue;
    const id = Number(c[0]);
    usedIds.add(id);
    const vocab = c[3]!;
    const t: Template = { domain: c[2]!, cls: c[4]!, std: c[5]!, words: c[1]!.split(' ').filter(Boolean) };
    (byVocab.get(vocab) ?? byVocab.set(vocab, []).get(vocab)!).push(t);
    if (c[5] === 'S') (stdIds.get(vocab) ?? stdIds.set(vocab, []).get(vocab)!).push(id);
    if (c[5] === 'S') (stdByDomain.get(t.domain) ?? stdByDomain.set(t.domain, []).get(t.domain)!).push(id);
  }
  const starterCount = usedIds.size;
  const added = Math.max(0, n - starterCount);
  for (const f of fs.readdirSync(starterDir)) if (f.endsWith('.csv')) fs.copyFileSync(path.join(starterDir, f), path.join(dir, f));
  // two more attribute relationships, so every synthetic concept has 8 rows
  const relFile = path.join(dir, 'RELATIONSHIP.csv');
  fs.appendFileSync(
    relFile,
    [
      'Has finding site\tHas finding site\t0\t0\tFinding site of\t0',
      'Finding site of\tFinding site of\t0\t0\tHas finding site\t0',
      'Has asso morph\tHas associated morphology\t0\t0\tAsso morph of\t0',
      'Asso morph of\tAssociated morphology of\t0\t0\tHas asso morph\t0',
    ].join('\n') + '\n',
  );
  const total = PROPORTIONS.reduce((s, [, p]) => s + p, 0);
  const cumulative: Array<[string, number]> = [];
  let acc = 0;
  for (const [v, p] of PROPORTIONS) if (byVocab.has(v)) cumulative.push([v, (acc += p / total)]);
  const pickVocab = () => {
    const r = rand() * acc;
    return cumulative.find(([, c]) => r <= c)?.[0] ?? cumulative[cumulative.length - 1]![0];
  };
  const pick = <T>(a: T[]): T => a[Math.floor(rand() * a.length)]!;
  const concept = new Writer(path.join(dir, 'CONCEPT.csv'), true);
  const syn = new Writer(path.join(dir, 'CONCEPT_SYNONYM.csv'), true);
  const rel = new Writer(path.join(dir, 'CONCEPT_RELATIONSHIP.csv'), true);
  const anc = new Writer(path.join(dir, 'CONCEPT_ANCESTOR.csv'), true);
  const ids = new Int32Array(added);
  const parent = new Int32Array(added).fill(-1);
  const perVocab = new Map<string, number[]>();
  const allStd: number[] = [...stdIds.values()].flat();
  let nextId = 1_000_000_000;
  const D = '19700101';
  const E = '20991231';
  for (let i = 0; i < added; i++) {
    const vocab = pickVocab();
    const a = pick(byVocab.get(vocab)!);
    const b = pick(byVocab.get(vocab)!);
    // a name recombined from two of the vocabulary's names (first part of one, last part of the other)
    const cutA = Math.max(1, Math.ceil(a.words.length / 2));
    const cutB = Math.floor(b.words.length / 2);
    let words = [...a.words.slice(0, cutA), ...b.words.slice(cutB)];
    if (words.length > 30) words = words.slice(0, 30);
    const name = words.join(' ').slice(0, 255);
    while (usedIds.has(nextId)) nextId++;
    const id = nextId++;
    ids[i] = id;
    const code = `Q${i.toString(36).toUpperCase()}`;
    concept.line([id, name, a.domain, vocab, a.cls, a.std, code, D, E, '']);
    // synonyms: 0.6 per concept on average (a word order variant with one word of a third name)
    const r = rand();
    const nSyn = r < 0.075 ? 2 : r < 0.525 ? 1 : 0;
    for (let k = 0; k < nSyn; k++) {
      const c = pick(byVocab.get(vocab)!);
      const sw = [...words.slice(Math.floor(words.length / 2)), ...words.slice(0, Math.floor(words.length / 2)), pick(c.words) ?? ''].filter(Boolean);
      syn.line([id, sw.join(' ').slice(0, 1000), 4180186]);
    }
    // hierarchy: a parent among the recent concepts of this vocabulary (chains deep enough for 12 ancestors)
    const mine = perVocab.get(vocab) ?? perVocab.set(vocab, []).get(vocab)!;
    const p1 = mine.length ? mine[mine.length - 1 - Math.floor(rand() * Math.min(mine.length, 20))]! : -1;
    const p2 = mine.length ? mine[Math.floor(rand() * mine.length)]! : -1;
    parent[i] = p1;
    const p1Id = p1 >= 0 ? ids[p1]! : pick(stdIds.get(vocab) ?? allStd);
    const p2Id = p2 >= 0 && p2 !== p1 ? ids[p2]! : pick(stdIds.get(vocab) ?? allStd);
    for (const pid of [p1Id, p2Id]) {
      rel.line([id, pid, 'Is a', D, E, '']);
      rel.line([pid, id, 'Subsumes', D, E, '']);
    }
    // as in Athena, a non-standard concept maps to a standard concept of its own domain
    const other = pick(stdByDomain.get(a.domain) ?? allStd);
    if (a.std !== 'S') {
      rel.line([id, other, 'Maps to', D, E, '']);
      rel.line([other, id, 'Mapped from', D, E, '']);
    } else {
      rel.line([id, other, 'Has finding site', D, E, '']);
      rel.line([other, id, 'Finding site of', D, E, '']);
    }
    if (a.std !== 'S') {
      rel.line([id, pick(allStd), 'Has finding site', D, E, '']);
      rel.line([pick(allStd), id, 'Has asso morph', D, E, '']);
    } else {
      const o2 = pick(allStd);
      rel.line([id, o2, 'Has asso morph', D, E, '']);
      rel.line([o2, id, 'Asso morph of', D, E, '']);
    }
    // ancestors: itself and up to 11 levels of its first parent's chain
    anc.line([id, id, 0, 0]);
    if (p1 < 0) anc.line([p1Id, id, 1, 1]);
    else for (let lv = 1, p = p1; lv <= 11 && p >= 0; lv++, p = parent[p]!) anc.line([ids[p]!, id, lv, lv]);
    mine.push(i);
    if ((i + 1) % 200_000 === 0) process.stderr.write(`  generated ${i + 1} concepts\n`);
  }
  for (const w of [concept, syn, rel, anc]) w.close();
  const counts: Record<string, number> = {};
  for (const f of fs.readdirSync(dir))
    if (f.endsWith('.csv'))
      counts[f] =
        Number(
          execFileSync('wc', ['-l', path.join(dir, f)], { encoding: 'utf8' })
            .trim()
            .split(/\s+/)[0],
        ) - 1;
  fs.writeFileSync(
    stamp,
    JSON.stringify({
      fingerprint: `search-scale-${n}-v${GENERATOR}-${path.basename(starterDir)}`,
      starter: starterDir,
      generator: GENERATOR,
      added,
      starter_concepts: starterCount,
      counts,
    }),
  );
  return { dir, added };
}

/* ---------- driver ---------- */

async function main(): Promise<void> {
  const n = Number(flag('concepts', '225000'));
  if (!Number.isFinite(n) || n < 1) throw new Error('--concepts N is required (a positive number)');
  const { buildStarterBundle } = await import('../server/search/bundle/build');
  const starter = await buildStarterBundle({ progress: (m) => process.stderr.write(`  starter: ${m}\n`) });
  const tGen = performance.now();
  const { dir, added } = await generate(n, starter.dir);
  const genSec = (performance.now() - tGen) / 1000;
  process.stdout.write(`bundle: ${dir} (starter + ${added} synthetic concepts; generated in ${genSec.toFixed(1)} s)\n`);
  process.stdout.write(`rows: ${JSON.stringify((JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as { counts: unknown }).counts)}\n`);

  const admin = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `cg_scale_${n}_${process.pid}`;
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  await c.query(`CREATE DATABASE ${name}`);
  const url = admin.replace(/\/[^/]*$/, `/${name}`);
  try {
    const { configureDb, getDb, closeDb } = await import('../server/db');
    const { migrate } = await import('../server/migrations');
    const { importAthena } = await import('../server/search/importer');
    configureDb({ kind: 'postgres', url });
    const db = await getDb();
    await migrate(db);
    const t = performance.now();
    let peak = 0;
    const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 500);
    await importAthena(db, dir, { progress: (p) => p.message && process.stderr.write(`  import: ${p.message}\n`) });
    clearInterval(timer);
    const importSec = (performance.now() - t) / 1000;
    process.stdout.write(`import: ${importSec.toFixed(1)} s (importer process peak RSS ${Math.round(peak / 2 ** 20)} MB)\n`);
    // the search index, compiled once per import and stored on disk (as `vocab import` does after the load)
    const { buildStoredIndex } = await import('../server/search/index-cache');
    const { currentImport } = await import('../server/search/importer');
    const fingerprint = (await currentImport(db))!.fingerprint;
    const tb = performance.now();
    peak = 0;
    const timer2 = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 250);
    await buildStoredIndex(db, fingerprint, {
      force: true,
      progress: (p) => p.rows % 1_000_000 < 20_000 && process.stderr.write(`  index: ${p.phase} ${p.rows}\n`),
    });
    clearInterval(timer2);
    const buildSec = (performance.now() - tb) / 1000;
    await closeDb();
    const { indexDir } = await import('../server/search/index-store');
    const onDisk = fs.readdirSync(indexDir(fingerprint)).reduce((s, f) => s + fs.statSync(path.join(indexDir(fingerprint), f)).size, 0);
    process.stdout.write(
      `index build: ${buildSec.toFixed(1)} s (builder peak RSS ${Math.round(peak / 2 ** 20)} MB; ${Math.round(onDisk / 2 ** 20)} MB on disk); import + build ${(importSec + buildSec).toFixed(1)} s\n`,
    );

    const child = spawn(
      process.execPath,
      [
        '--expose-gc',
        // --heap-mb N: the search process's V8 heap limit (the index lives outside it, in typed arrays)
        ...(flag('heap-mb', '') ? [`--max-old-space-size=${flag('heap-mb', '')}`] : []),
        // tsx's loader in this process (its CLI would start another node without these flags)
        '--import',
        'tsx',
        path.join(projectRoot, 'scripts', 'bench-search-scale.ts'),
        '--serve',
        url,
        ...args.filter((a) => a !== '--keep'),
      ],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
        env: { ...process.env, SEARCH_AUTO_IMPORT: 'false' },
      },
    );
    let outText = '';
    child.stdout.on('data', (d: Buffer) => (outText += d.toString()));
    const code = await new Promise<number>((res) => child.on('exit', (x) => res(x ?? 1)));
    const line = outText.split('\n').find((l) => l.startsWith('RESULT '));
    if (code !== 0 || !line) throw new Error(`the search process failed (exit ${code})\n${outText}`);
    const r = JSON.parse(line.slice(7)) as Record<string, unknown>;
    process.stdout.write(
      `search process: ${JSON.stringify({ concepts: r.concepts, texts: r.texts, startup_to_first_search_ms: r.startup_to_first_search_ms, first_search_ms: r.first_search_ms, rss_mb: r.rss_mb, heap_used_mb: r.heap_used_mb, array_buffers_mb: r.array_buffers_mb, index_resident_mb: r.index_resident_mb, index_load_ms: r.index_load_ms, before_load: r.before_load })}\n`,
    );
    for (const k of Object.keys(r).filter((x) => /_(seq|\d+clients|quality)$/.test(x))) process.stdout.write(`${k.padEnd(16)} ${JSON.stringify(r[k])}\n`);
  } finally {
    if (!args.includes('--keep')) {
      await c.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [name]);
      await c.query(`DROP DATABASE IF EXISTS ${name}`);
    } else process.stdout.write(`kept database ${url}\n`);
    await c.end();
  }
}

const serveUrl = flag('serve', '');
if (serveUrl) await serve(serveUrl);
else await main();
