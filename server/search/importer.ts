import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Database, Queryable } from '../db';
import { ATHENA_TABLES, AthenaFormatError, checkHeader, type AthenaTable } from './athena';
import { readManifest } from './bundle/build';
import { ftsLanguages } from './config';

/**
 * Loads an Athena download (or our starter bundle, which has the same shape) into the OMOP tables, then builds the
 * search structures: `search_term` (names and synonyms with a tsvector per configured language), `search_lexicon`
 * (the vocabulary's word list, trigram-indexed) and the secondary indexes.
 *
 *  - PostgreSQL: one `COPY … FROM STDIN` per file (pg-copy-streams), streamed from disk.
 *  - PGlite: `COPY … FROM '/dev/blob'` in batches of rows, each batch committed with its progress, so an interrupted
 *    import resumes at the next batch.
 *  - Idempotent: the newest `vocab_import` row records the bundle's fingerprint; importing the same bundle again is a
 *    no-op, a different bundle replaces the vocabulary. A half-finished import of the same bundle resumes.
 */
export interface ImportProgress {
  phase: 'load' | 'index' | 'done';
  table?: string;
  done: number;
  total: number;
  message?: string;
}

export interface ImportOptions {
  force?: boolean;
  /** Rows per batch on PGlite. */
  batchRows?: number;
  progress?: (p: ImportProgress) => void;
}

export interface ImportResult {
  status: 'imported' | 'unchanged' | 'resumed';
  fingerprint: string;
  counts: Record<string, number>;
  ms: number;
}

interface ImportState {
  id: number;
  fingerprint: string;
  status: string;
  progress: { tables?: Record<string, { rows: number; done: boolean }>; structures?: Record<string, boolean> };
}

/** Listeners told when a vocabulary import finished (the search engine drops its in-memory index). */
const listeners = new Set<() => void>();
export function onVocabularyImported(fn: () => void): void {
  listeners.add(fn);
}

export function fingerprintDir(dir: string): string {
  const manifest = readManifest(dir);
  if (manifest?.fingerprint) return manifest.fingerprint;
  const h = createHash('sha256');
  for (const t of ATHENA_TABLES) {
    const p = path.join(dir, t.file);
    const st = fs.statSync(p);
    h.update(`${t.file}:${st.size}:${Math.floor(st.mtimeMs)}`);
  }
  return h.digest('hex');
}

/** Check that every file exists and has the right header. Throws AthenaFormatError with a clear message. */
export function validateAthenaDir(dir: string): void {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new AthenaFormatError(`${dir} is not a folder.`);
  const present = new Map(fs.readdirSync(dir).map((f) => [f.toUpperCase(), f]));
  const missing = ATHENA_TABLES.filter((t) => !present.has(t.file.toUpperCase())).map((t) => t.file);
  if (missing.length) throw new AthenaFormatError(`${dir} is missing ${missing.join(', ')} (an Athena download has all eight vocabulary files).`);
  for (const t of ATHENA_TABLES) {
    const file = path.join(dir, present.get(t.file.toUpperCase())!);
    checkHeader(t, firstLine(file), t.file);
  }
}

function fileFor(dir: string, t: AthenaTable): string {
  const name = fs.readdirSync(dir).find((f) => f.toUpperCase() === t.file.toUpperCase());
  return path.join(dir, name ?? t.file);
}

function firstLine(file: string): string {
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(4096);
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    const s = buf.subarray(0, n).toString('utf8');
    const nl = s.indexOf('\n');
    return nl >= 0 ? s.slice(0, nl) : s;
  } finally {
    fs.closeSync(fd);
  }
}

const q = (id: string) => `"${id.replace(/"/g, '""')}"`;
const COPY_OPTS = `(FORMAT csv, DELIMITER E'\\t', QUOTE E'\\x01', NULL '')`;

/** Secondary indexes and keys, dropped before a load and created after it. */
function indexStatements(languages: string[]): Array<[string, string]> {
  return [
    ['concept_pkey', 'ALTER TABLE "concept" ADD CONSTRAINT "concept_pkey" PRIMARY KEY ("concept_id")'],
    ['concept_vocab_code_idx', 'CREATE INDEX IF NOT EXISTS "concept_vocab_code_idx" ON "concept" ("vocabulary_id", "concept_code")'],
    ['concept_relationship_c1_idx', 'CREATE INDEX IF NOT EXISTS "concept_relationship_c1_idx" ON "concept_relationship" ("concept_id_1", "relationship_id")'],
    ['concept_relationship_c2_idx', 'CREATE INDEX IF NOT EXISTS "concept_relationship_c2_idx" ON "concept_relationship" ("concept_id_2")'],
    ['concept_ancestor_desc_idx', 'CREATE INDEX IF NOT EXISTS "concept_ancestor_desc_idx" ON "concept_ancestor" ("descendant_concept_id")'],
    ['concept_ancestor_anc_idx', 'CREATE INDEX IF NOT EXISTS "concept_ancestor_anc_idx" ON "concept_ancestor" ("ancestor_concept_id")'],
    ['concept_synonym_concept_idx', 'CREATE INDEX IF NOT EXISTS "concept_synonym_concept_idx" ON "concept_synonym" ("concept_id")'],
    ['search_term_concept_idx', 'CREATE INDEX IF NOT EXISTS "search_term_concept_idx" ON "search_term" ("concept_id")'],
    ...languages.map((l): [string, string] => [
      `search_term_tsv_${l}_idx`,
      `CREATE INDEX IF NOT EXISTS "search_term_tsv_${l}_idx" ON "search_term" USING gin ("tsv_${l}")`,
    ]),
    ['search_lexicon_trgm_idx', 'CREATE INDEX IF NOT EXISTS "search_lexicon_trgm_idx" ON "search_lexicon" USING gin ("word" gin_trgm_ops)'],
  ];
}

const DROPPABLE = [
  'ALTER TABLE "concept" DROP CONSTRAINT IF EXISTS "concept_pkey"',
  'DROP INDEX IF EXISTS "concept_vocab_code_idx"',
  'DROP INDEX IF EXISTS "concept_relationship_c1_idx"',
  'DROP INDEX IF EXISTS "concept_relationship_c2_idx"',
  'DROP INDEX IF EXISTS "concept_ancestor_desc_idx"',
  'DROP INDEX IF EXISTS "concept_ancestor_anc_idx"',
  'DROP INDEX IF EXISTS "concept_synonym_concept_idx"',
  'DROP INDEX IF EXISTS "search_term_concept_idx"',
  'DROP INDEX IF EXISTS "search_lexicon_trgm_idx"',
];

export async function currentImport(db: Queryable): Promise<ImportState | null> {
  const rows = await db.query<ImportState>('SELECT id, fingerprint, status, progress FROM vocab_import ORDER BY id DESC LIMIT 1');
  return rows[0] ?? null;
}

/** True when a complete vocabulary is in the database. */
export async function hasVocabulary(db: Queryable): Promise<boolean> {
  const cur = await currentImport(db);
  return cur?.status === 'complete';
}

async function saveProgress(db: Queryable, id: number, progress: ImportState['progress']): Promise<void> {
  await db.query('UPDATE vocab_import SET progress = $2::jsonb WHERE id = $1', [id, JSON.stringify(progress)]);
}

export async function importAthena(db: Database, dir: string, opts: ImportOptions = {}): Promise<ImportResult> {
  const started = Date.now();
  validateAthenaDir(dir);
  const fingerprint = fingerprintDir(dir);
  const progress = opts.progress ?? (() => undefined);
  const languages = ftsLanguages();
  const cur = await currentImport(db);
  if (!opts.force && cur?.status === 'complete' && cur.fingerprint === fingerprint) {
    const counts = await tableCounts(db);
    return { status: 'unchanged', fingerprint, counts, ms: Date.now() - started };
  }
  const resuming = !opts.force && cur?.status === 'loading' && cur.fingerprint === fingerprint;
  let state: ImportState;
  if (resuming) state = cur!;
  else {
    for (const s of DROPPABLE) await db.exec(s);
    await db.exec(`TRUNCATE ${ATHENA_TABLES.map((t) => q(t.table)).join(', ')}, "search_term", "search_lexicon"`);
    const rows = await db.query<{ id: number }>(`INSERT INTO vocab_import (fingerprint, source, status) VALUES ($1, $2, 'loading') RETURNING id`, [
      fingerprint,
      dir,
    ]);
    state = { id: rows[0]!.id, fingerprint, status: 'loading', progress: {} };
  }
  state.progress.tables ??= {};
  state.progress.structures ??= {};
  await ensureLanguageColumns(db, languages);

  for (const t of ATHENA_TABLES) {
    const tp = state.progress.tables[t.table];
    if (tp?.done) continue;
    const file = fileFor(dir, t);
    if (db.kind === 'postgres') {
      await copyPostgres(db, t, file, (done, total) => progress({ phase: 'load', table: t.table, done, total }));
      state.progress.tables[t.table] = { rows: 0, done: true };
      await saveProgress(db, state.id, state.progress);
    } else {
      await copyPglite(db, t, file, state, opts.batchRows ?? 50_000, (done, total) => progress({ phase: 'load', table: t.table, done, total }));
    }
  }

  const steps = await structureSteps(db, languages);
  let i = 0;
  for (const [name, run] of steps) {
    i++;
    if (state.progress.structures[name]) continue;
    progress({ phase: 'index', done: i - 1, total: steps.length, message: name });
    await run();
    state.progress.structures[name] = true;
    await saveProgress(db, state.id, state.progress);
  }
  const counts = await tableCounts(db);
  await db.query(`UPDATE vocab_import SET status = 'complete', finished_at = now(), counts = $2::jsonb WHERE id = $1`, [state.id, JSON.stringify(counts)]);
  progress({ phase: 'done', done: steps.length, total: steps.length });
  for (const fn of listeners) fn();
  return { status: resuming ? 'resumed' : 'imported', fingerprint, counts, ms: Date.now() - started };
}

async function ensureLanguageColumns(db: Database, languages: string[]): Promise<void> {
  for (const l of languages) {
    if (!/^[a-z_]+$/.test(l)) continue;
    await db.exec(`ALTER TABLE "search_term" ADD COLUMN IF NOT EXISTS "tsv_${l}" tsvector`);
  }
}

export async function tableCounts(db: Queryable): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of [...ATHENA_TABLES.map((x) => x.table), 'search_term', 'search_lexicon']) {
    const r = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${q(t)}`);
    out[t] = Number(r[0]?.n ?? 0);
  }
  return out;
}

async function copyPostgres(db: Database, t: AthenaTable, file: string, onProgress: (done: number, total: number) => void): Promise<void> {
  const mod = (await import('pg-copy-streams')) as unknown as {
    from?: typeof import('pg-copy-streams').from;
    default?: { from: typeof import('pg-copy-streams').from };
  };
  const copyFrom = mod.from ?? mod.default!.from;
  const client = await db.pool!.connect();
  const total = fs.statSync(file).size;
  let done = 0;
  let last = 0;
  try {
    await client.query('BEGIN');
    await client.query(`TRUNCATE ${q(t.table)}`);
    const sql = `COPY ${q(t.table)} (${t.columns.map((c) => q(c.name)).join(', ')}) FROM STDIN WITH ${COPY_OPTS.replace(')', ', HEADER true)')}`;
    const sink = client.query(copyFrom(sql));
    const meter = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        done += chunk.length;
        if (done - last > total / 50 || done === total) {
          last = done;
          onProgress(done, total);
        }
        cb(null, chunk);
      },
    });
    await pipeline(fs.createReadStream(file, { highWaterMark: 1 << 20 }), meter, sink);
    await client.query('COMMIT');
    onProgress(total, total);
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw copyError(t, err);
  } finally {
    client.release();
  }
}

function copyError(t: AthenaTable, err: unknown): Error {
  const e = err as { message?: string; where?: string };
  const where = e.where ? ` (${e.where.split('\n')[0]})` : '';
  return new AthenaFormatError(`${t.file}: ${e.message ?? String(err)}${where}`);
}

async function copyPglite(
  db: Database,
  t: AthenaTable,
  file: string,
  state: ImportState,
  batchRows: number,
  onProgress: (done: number, total: number) => void,
): Promise<void> {
  const pg = db.pglite!;
  const tp = (state.progress.tables![t.table] ??= { rows: 0, done: false });
  const skip = tp.rows;
  const total = fs.statSync(file).size;
  const sql = `COPY ${q(t.table)} (${t.columns.map((c) => q(c.name)).join(', ')}) FROM '/dev/blob' WITH ${COPY_OPTS}`;
  if (skip === 0) await db.exec(`TRUNCATE ${q(t.table)}`);
  const rl = readline.createInterface({ input: fs.createReadStream(file, { highWaterMark: 1 << 20 }), crlfDelay: Infinity });
  let lineNo = 0;
  let bytes = 0;
  let batch: string[] = [];
  const flush = async () => {
    if (!batch.length) return;
    const rows = batch.length;
    const blob = new Blob([batch.join('\n') + '\n']);
    batch = [];
    try {
      await pg.transaction(async (tx) => {
        await tx.query(sql, [], { blob });
        tp.rows += rows;
        await tx.query('UPDATE vocab_import SET progress = $2::jsonb WHERE id = $1', [state.id, JSON.stringify(state.progress)]);
      });
    } catch (err) {
      tp.rows -= 0;
      throw copyError(t, err);
    }
    onProgress(bytes, total);
  };
  for await (const line of rl) {
    bytes += Buffer.byteLength(line) + 1;
    if (lineNo++ === 0) continue; // header (validated up front)
    if (lineNo - 1 <= skip) continue;
    if (!line) continue;
    batch.push(line.endsWith('\r') ? line.slice(0, -1) : line);
    if (batch.length >= batchRows) await flush();
  }
  await flush();
  tp.done = true;
  await saveProgress(db, state.id, state.progress);
  onProgress(total, total);
}

async function structureSteps(db: Database, languages: string[]): Promise<Array<[string, () => Promise<void>]>> {
  const tuning = db.kind === 'postgres' ? "SET maintenance_work_mem = '512MB'; " : "SET maintenance_work_mem = '256MB'; ";
  const run = (sql: string) => () => db.exec(tuning + sql);
  const tsvCols = languages.map((l) => `"tsv_${l}"`).join(', ');
  const tsvVals = languages.map((l) => `to_tsvector('${l}'::regconfig, x.term)`).join(', ');
  const steps: Array<[string, () => Promise<void>]> = [
    ['dedupe concepts', run('DELETE FROM "concept" a USING "concept" b WHERE a.concept_id = b.concept_id AND a.ctid > b.ctid')],
    ...indexStatements(languages)
      .filter(([name]) => !name.startsWith('search_'))
      .map(([name, sql]): [string, () => Promise<void>] => [name, run(sql)]),
    [
      'search_term',
      run(`TRUNCATE "search_term";
        INSERT INTO "search_term" ("term_id", "concept_id", "term", "is_name", "vocabulary_id", "domain_id", ${tsvCols})
        SELECT row_number() OVER ()::int, x.concept_id, x.term, x.is_name, x.vocabulary_id, x.domain_id, ${tsvVals}
        FROM (
          SELECT c.concept_id, c.concept_name AS term, true AS is_name, c.vocabulary_id, c.domain_id
            FROM "concept" c WHERE c.invalid_reason IS NULL AND c.concept_name IS NOT NULL AND c.concept_name <> ''
          UNION ALL
          SELECT s.concept_id, s.concept_synonym_name, false, c.vocabulary_id, c.domain_id
            FROM "concept_synonym" s JOIN "concept" c ON c.concept_id = s.concept_id
           WHERE c.invalid_reason IS NULL AND s.concept_synonym_name IS NOT NULL AND s.concept_synonym_name <> ''
             AND lower(s.concept_synonym_name) <> lower(c.concept_name)
        ) x`),
    ],
    [
      'search_lexicon',
      run(`TRUNCATE "search_lexicon";
        INSERT INTO "search_lexicon" ("word", "df")
        SELECT word, ndoc FROM ts_stat('SELECT to_tsvector(''simple'', term) FROM search_term')
        WHERE length(word) BETWEEN 2 AND 40 AND word ~ '^[a-z][a-z''-]*$'`),
    ],
    ...indexStatements(languages)
      .filter(([name]) => name.startsWith('search_'))
      .map(([name, sql]): [string, () => Promise<void>] => [name, run(sql)]),
    [
      'analyze',
      run(
        'ANALYZE "concept"; ANALYZE "concept_relationship"; ANALYZE "concept_ancestor"; ANALYZE "concept_synonym"; ANALYZE "search_term"; ANALYZE "search_lexicon"',
      ),
    ],
  ];
  return steps;
}
