import { registerStartupTask } from '../bootstrap';
import type { Database } from '../db';
import { log } from '../log';
import { registerDataSet } from '../status';
import { buildStarterBundle } from './bundle/build';
import { autoImportEnabled } from './config';
import { peekIndex, warmIndex } from './engine';
import { currentImport, importAthena } from './importer';
import { loadEnv } from '../env';

/**
 * Start-up: when the database has no vocabulary, build the public starter bundle (cached in .cache/vocab/) and import
 * it; a half-finished import resumes. With a vocabulary present this is one query. The search index is then
 * compiled in the background so the first search does not wait for it.
 */
export async function ensureStarterVocabulary(db: Database, say: (line: string) => void = () => undefined): Promise<'present' | 'imported' | 'disabled'> {
  if ((await currentImport(db))?.status === 'complete') return 'present';
  if (db.kind === 'postgres') {
    // the web server and the worker may start together: one imports, the other waits and finds it done
    return db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [727_100]);
      return importStarter(db, say);
    });
  }
  return importStarter(db, say);
}

async function importStarter(db: Database, say: (line: string) => void): Promise<'present' | 'imported' | 'disabled'> {
  const cur = await currentImport(db);
  if (cur?.status === 'complete') return 'present';
  if (!autoImportEnabled()) return 'disabled';
  const t = Date.now();
  say('vocabulary: building the starter bundle from CODING_DATA_DIR (cached after the first run)…');
  const bundle = await buildStarterBundle({ progress: (m) => say(`vocabulary: ${m}`) });
  say(`vocabulary: bundle ready (${bundle.cached ? 'cached' : 'built'}) in ${((Date.now() - t) / 1000).toFixed(1)} s; importing into ${db.kind}…`);
  let lastKey = '';
  const r = await importAthena(db, bundle.dir, {
    progress: (p) => {
      const key = p.phase === 'load' ? `loading ${p.table}` : p.phase === 'index' ? `building ${p.message}` : 'done';
      if (key !== lastKey) {
        lastKey = key;
        say(`vocabulary: ${key}`);
      }
    },
  });
  say(`vocabulary: ${r.counts.concept ?? 0} concepts imported in ${(r.ms / 1000).toFixed(1)} s`);
  return 'imported';
}

registerStartupTask({
  name: 'search-vocabulary',
  async run(db) {
    try {
      const quiet = loadEnv().LOG_LEVEL === 'silent' || loadEnv().LOG_LEVEL === 'error';
      await ensureStarterVocabulary(db, (line) => {
        if (!quiet) process.stderr.write(`${line}\n`);
      });
    } catch (err) {
      // Search answers 503 until a vocabulary is imported; the rest of the service still starts.
      log.error('starter vocabulary import failed', { err: err instanceof Error ? err.message : String(err) });
      return;
    }
    // the web server compiles the search index in the background; the queue worker never searches
    if (!process.argv.some((a) => /worker\.[jt]s$/.test(a))) warmIndex(db);
  },
});

registerDataSet('vocabulary', async () => {
  const { getDb } = await import('../db');
  const db = await getDb();
  const cur = await currentImport(db).catch(() => null);
  const ix = peekIndex(db);
  return {
    name: 'vocabulary',
    loaded: cur?.status === 'complete',
    detail: {
      status: cur?.status ?? 'none',
      fingerprint: cur?.fingerprint.slice(0, 16) ?? '',
      concepts: ix?.n ?? 0,
      vocabularies: ix?.vocabList ?? [],
    },
  };
});
