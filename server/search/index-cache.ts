import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../config/paths';
import type { Database, Queryable } from '../db';
import { childProcessEnv } from '../env';
import { AppError } from '../errors';
import { log } from '../log';
import { buildVocabIndex, type BuildProgress } from './index-build';
import { hasStoredIndex, indexDir, loadIndex, openSharedIndex, saveIndex, shareIndex, staleIndexDir, type SharedIndex } from './index-store';
import { currentImport, importAthena, onVocabularyImported, type ImportOptions, type ImportResult } from './importer';
import type { VocabIndex } from './vocab-index';

/**
 * The compiled index each process searches with, one per database. It is built once per imported vocabulary and
 * stored on disk (index-build.ts, index-store.ts); a process only loads it. Who builds a missing one:
 *  - the importer's process, right after an import (`vocab import`, `importVocabulary`);
 *  - for the web server on PostgreSQL, a separate builder process (`vocab build-index`), so the web process never
 *    compiles: meanwhile searches answer 503 `vocabulary_unavailable` (or the previous index serves);
 *  - the CLI, scripts and tests, and the embedded database (one process owns it), build in-process and wait.
 * One build per index at a time across processes (a lock folder beside the index, with the builder's pid).
 */

export interface Slot {
  ix?: VocabIndex;
  loading?: Promise<VocabIndex | null>;
  /** A builder process working for this slot's current fingerprint. */
  building?: string;
  /** The index in memory was built by other code (an older stamp) and serves until the current one is stored. */
  stale?: boolean;
  checkedAt: number;
  generation: number;
  tsvColumns?: Set<string>;
  languages: Map<string, boolean>;
}
const slots = new WeakMap<Database, Slot>();
let generation = 0;
onVocabularyImported(() => {
  generation++;
});
const RECHECK_MS = 5000;

export class VocabularyUnavailableError extends AppError {
  constructor(building = false) {
    super(
      'vocabulary_unavailable',
      building
        ? 'The search index is not ready yet (it is built after an import and loaded after a start); retry in a few seconds.'
        : 'No vocabulary is loaded yet. Import one with `npm run cli -- vocab import <dir>` (npm start loads the starter bundle).',
    );
  }
}

export function slotFor(db: Database): Slot {
  let s = slots.get(db);
  if (!s) slots.set(db, (s = { checkedAt: 0, generation, languages: new Map() }));
  return s;
}

/* ---------- building, once across processes ---------- */

const lockDir = (fingerprint: string) => `${indexDir(fingerprint)}.lock`;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Take the build lock; false when a live process holds it. A dead holder's lock is taken over. */
function tryLock(fingerprint: string): boolean {
  const dir = lockDir(fingerprint);
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, 'pid'), String(process.pid));
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(fs.readFileSync(path.join(dir, 'pid'), { encoding: 'utf8', flag: 'a+' }) || 0);
      if (pid && pid !== process.pid && alive(pid)) return false;
      if (!pid) {
        // the holder has made the folder but not yet written its pid: a fresh lock is someone's
        const age = Date.now() - fs.statSync(dir).mtimeMs;
        if (age < 10_000) return false;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  return false;
}

function unlock(fingerprint: string): void {
  fs.rmSync(lockDir(fingerprint), { recursive: true, force: true });
}

/** True while another live process builds this index. */
function buildingElsewhere(fingerprint: string): boolean {
  try {
    const pid = Number(fs.readFileSync(path.join(lockDir(fingerprint), 'pid'), 'utf8'));
    return pid !== process.pid && alive(pid);
  } catch {
    return false;
  }
}

/**
 * Build and store the index of the current import in this process, unless it is stored already (or `force`). Waits
 * for another process's build of the same index instead of doing the work twice.
 */
export async function buildStoredIndex(
  db: Queryable & { transaction?: Database['transaction'] },
  fingerprint: string,
  opts: { force?: boolean; progress?: (p: BuildProgress) => void } = {},
): Promise<'built' | 'present'> {
  for (;;) {
    if (hasStoredIndex(fingerprint) && !opts.force) return 'present';
    if (tryLock(fingerprint)) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  try {
    if (opts.force) fs.rmSync(indexDir(fingerprint), { recursive: true, force: true });
    else if (hasStoredIndex(fingerprint)) return 'present';
    const ix = await buildVocabIndex(db, fingerprint, opts.progress);
    saveIndex(ix);
    log.info('search index built', { concepts: ix.n, texts: ix.termConcept.length, ms: ix.buildMs });
    return 'built';
  } finally {
    unlock(fingerprint);
  }
}

/** Start the builder process for this database's current import (the web server's way: it never compiles). */
function startBuilder(db: Database, slot: Slot, fingerprint: string): void {
  if (slot.building === fingerprint || buildingElsewhere(fingerprint)) return;
  const url = (db.pool as { options?: { connectionString?: string } } | undefined)?.options?.connectionString;
  if (!url) return;
  slot.building = fingerprint;
  const started = Date.now();
  log.info('search index: starting the builder process', { fingerprint: fingerprint.slice(0, 16) });
  const child = spawn(process.execPath, [path.join(projectRoot, 'scripts', 'cli.mjs'), 'vocab', 'build-index'], {
    cwd: projectRoot,
    env: childProcessEnv({ DATABASE_URL: url, LOG_LEVEL: 'warn' }),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let tail = '';
  child.stderr.on('data', (d: Buffer) => (tail = (tail + d.toString('utf8')).slice(-2000)));
  const done = (code: number | null, err?: Error) => {
    if (slot.building === fingerprint) slot.building = undefined;
    slot.checkedAt = 0; // look again at the next search
    if (code === 0) log.info('search index: builder finished', { ms: Date.now() - started });
    else log.error('search index: builder failed', { code, err: err?.message, stderr: tail.split('\n').slice(-5).join(' | ') });
  };
  child.on('error', (err) => done(null, err));
  child.on('exit', (code) => done(code));
}

/* ---------- the index of this process ---------- */

/**
 * A worker thread's database is the main thread's (workers/db-proxy.ts), and so is its index: the main thread loads
 * it once and the thread opens the same memory (index-store.ts, SharedIndex), instead of loading (or building) a copy
 * of its own. `fetch` asks the main thread for its index under the same options.
 */
type IndexFetch = (opts: { background?: boolean }) => Promise<SharedIndex | null>;
const fromMainThread = new WeakMap<Database, IndexFetch>();
export function indexFromMainThread(db: Database, fetch: IndexFetch): void {
  fromMainThread.set(db, fetch);
}

/** Main thread: this database's index (getIndex, same options) in the form a worker thread opens. */
export async function indexForWorker(db: Database, opts: { background?: boolean }): Promise<SharedIndex | null> {
  const ix = await getIndex(db, opts);
  return ix ? shareIndex(ix) : null;
}

async function openMainThreadIndex(db: Database, fetch: IndexFetch, opts: { background?: boolean }): Promise<VocabIndex | null> {
  const s = await fetch(opts);
  const slot = slotFor(db);
  if (!s) return null;
  const ix = await openSharedIndex(s);
  if (slot.ix !== ix) await install(db, slot, ix);
  return ix;
}

/**
 * The compiled index for this database, loaded (or built) when the imported vocabulary changed. `background`: never
 * build here; on PostgreSQL start the builder process and return the previous index (or null) until it is stored.
 */
export async function getIndex(db: Database, opts: { background?: boolean } = {}): Promise<VocabIndex | null> {
  const remote = fromMainThread.get(db);
  if (remote) return openMainThreadIndex(db, remote, opts);
  const slot = slotFor(db);
  const now = Date.now();
  if (slot.ix && slot.generation === generation && now - slot.checkedAt < RECHECK_MS) return slot.ix;
  if (slot.loading) return slot.loading;
  slot.loading = (async () => {
    try {
      const cur = await currentImport(db);
      slot.checkedAt = Date.now();
      slot.generation = generation;
      if (!cur || (cur.status !== 'complete' && !slot.ix)) return null;
      if (cur.status !== 'complete') return slot.ix ?? null; // an import is running: keep serving the old index
      const stored = hasStoredIndex(cur.fingerprint);
      if (slot.ix?.fingerprint === cur.fingerprint && (!slot.stale || !stored)) return slot.ix;
      if (!stored) {
        const inBackground = opts.background && db.kind === 'postgres' && db.pool;
        if (inBackground || buildingElsewhere(cur.fingerprint)) {
          // searches meanwhile look again every RECHECK_MS (the builder's exit makes the next one look at once)
          if (inBackground) startBuilder(db, slot, cur.fingerprint);
          if (opts.background) {
            // after an upgrade: the same vocabulary's index built by the previous code serves meanwhile
            const old = slot.ix ? null : staleIndexDir(cur.fingerprint);
            if (old) {
              await install(db, slot, await loadIndex(cur.fingerprint, old));
              slot.stale = true;
              log.warn('search index: serving the previous build until the current one is stored', { dir: path.basename(old) });
            }
            return slot.ix ?? null;
          }
        }
        await buildStoredIndex(db, cur.fingerprint);
      }
      const ix = await loadIndex(cur.fingerprint);
      await install(db, slot, ix);
      slot.stale = false;
      log.info('search index loaded', {
        concepts: ix.n,
        texts: ix.termConcept.length,
        stems: ix.stemStr.length,
        load_ms: ix.loadMs,
        resident_mb: Math.round(ix.residentBytes / 2 ** 20),
      });
      return ix;
    } finally {
      slot.loading = undefined;
    }
  })();
  return slot.loading;
}

async function install(db: Database, slot: Slot, ix: VocabIndex): Promise<void> {
  const cols = await db.query<{ column_name: string }>(
    `SELECT column_name FROM information_schema.columns WHERE table_name = 'search_term' AND column_name LIKE 'tsv\\_%'`,
  );
  slot.tsvColumns = new Set(cols.map((c) => c.column_name));
  slot.ix = ix;
}

/** The compiled index if one is in memory (never builds one). */
export function peekIndex(db: Database): VocabIndex | null {
  return slots.get(db)?.ix ?? null;
}

/** Load (or have built) the index in the background after start-up, so the first search is fast. */
export function warmIndex(db: Database): void {
  getIndex(db, { background: true }).catch((err: unknown) =>
    log.warn('search index warm-up failed', { err: err instanceof Error ? err.message : String(err) }),
  );
}

/**
 * The index, or 503 vocabulary_unavailable. With `maxWaitMs` (the HTTP door) nothing is built in this process: a
 * search waits at most that long for an index being loaded and answers 503 at once while one is being built; the
 * index already in memory serves while a newer one is prepared. Without it (CLI, scripts, tests) the caller waits,
 * building in-process if needed.
 */
export async function requireIndex(db: Database, opts: { maxWaitMs?: number } = {}): Promise<VocabIndex> {
  const inMemory = peekIndex(db);
  if (opts.maxWaitMs === undefined) {
    const ix = await getIndex(db);
    if (!ix) throw new VocabularyUnavailableError();
    return ix;
  }
  const pending = getIndex(db, { background: true });
  let timer: NodeJS.Timeout | undefined;
  const r =
    opts.maxWaitMs <= 0 && !inMemory
      ? 'timeout'
      : await Promise.race([pending, new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), opts.maxWaitMs)))]).finally(() =>
          clearTimeout(timer),
        );
  if (r === 'timeout') {
    pending.catch(() => undefined); // the load goes on in the background (warmIndex logs its failures)
    if (inMemory) return inMemory;
    throw new VocabularyUnavailableError(true);
  }
  if (r) return r;
  if (inMemory) return inMemory;
  // no index: an import with none complete, or one being built elsewhere
  const cur = await currentImport(db).catch(() => null);
  throw new VocabularyUnavailableError(cur?.status === 'complete' || cur?.status === 'loading');
}

/**
 * Import an Athena folder and compile its search index, as `vocab import` does: a server started afterwards only
 * loads the index.
 */
export async function importVocabulary(
  db: Database,
  dir: string,
  opts: ImportOptions & { indexProgress?: (p: BuildProgress) => void } = {},
): Promise<ImportResult & { searchIndex: { status: 'built' | 'present'; ms: number } }> {
  const r = await importAthena(db, dir, opts);
  const t = Date.now();
  const status = await buildStoredIndex(db, r.fingerprint, { progress: opts.indexProgress });
  return { ...r, searchIndex: { status, ms: Date.now() - t } };
}
