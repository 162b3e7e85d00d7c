import type { Database } from '../db';
import { AppError } from '../errors';
import { log } from '../log';
import { currentImport, onVocabularyImported } from './importer';
import { buildVocabIndex, type VocabIndex } from './vocab-index';

/** The compiled in-memory index, one per database, rebuilt when the imported vocabulary changes. */

export interface Slot {
  ix?: VocabIndex;
  loading?: Promise<VocabIndex | null>;
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
        ? 'The search index is not ready yet (it is built after a start or an import); retry in a few seconds.'
        : 'No vocabulary is loaded yet. Import one with `npm run cli -- vocab import <dir>` (npm start loads the starter bundle).',
    );
  }
}

export function slotFor(db: Database): Slot {
  let s = slots.get(db);
  if (!s) slots.set(db, (s = { checkedAt: 0, generation, languages: new Map() }));
  return s;
}

/** The compiled index for this database, (re)built when the imported vocabulary changed. */
export async function getIndex(db: Database): Promise<VocabIndex | null> {
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
      if (slot.ix?.fingerprint === cur.fingerprint) return slot.ix;
      const ix = await buildVocabIndex(db, cur.fingerprint);
      const cols = await db.query<{ column_name: string }>(
        `SELECT column_name FROM information_schema.columns WHERE table_name = 'search_term' AND column_name LIKE 'tsv\\_%'`,
      );
      slot.tsvColumns = new Set(cols.map((c) => c.column_name));
      slot.ix = ix;
      log.info('search index ready', { concepts: ix.n, terms: ix.termText.length, stems: ix.stemStr.length, ms: ix.buildMs });
      return ix;
    } finally {
      slot.loading = undefined;
    }
  })();
  return slot.loading;
}

/** The compiled index if one is in memory (never builds one). */
export function peekIndex(db: Database): VocabIndex | null {
  return slots.get(db)?.ix ?? null;
}

/** Warm the index in the background (after start-up), so the first search is fast. */
export function warmIndex(db: Database): void {
  getIndex(db).catch((err: unknown) => log.warn('search index warm-up failed', { err: err instanceof Error ? err.message : String(err) }));
}

/**
 * The index, or 503 vocabulary_unavailable. `maxWaitMs` bounds how long a request waits for an index being built
 * (the HTTP door: a search answers 503 at once instead of waiting minutes for a large vocabulary); without it the
 * caller waits for the build (CLI, scripts).
 */
export async function requireIndex(db: Database, opts: { maxWaitMs?: number } = {}): Promise<VocabIndex> {
  const inMemory = peekIndex(db);
  const pending = getIndex(db);
  let ix: VocabIndex | null;
  if (opts.maxWaitMs === undefined) ix = await pending;
  else {
    let timer: NodeJS.Timeout | undefined;
    const r =
      opts.maxWaitMs <= 0
        ? 'timeout'
        : await Promise.race([pending, new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), opts.maxWaitMs)))]).finally(() =>
            clearTimeout(timer),
          );
    if (r === 'timeout') {
      pending.catch(() => undefined); // the build goes on in the background (warmIndex logs its failures)
      // the index in memory serves while a newer one is built; with none, the search cannot be served yet
      if (inMemory) return inMemory;
      throw new VocabularyUnavailableError(true);
    }
    ix = r;
  }
  if (!ix) throw new VocabularyUnavailableError();
  return ix;
}
