import readline from 'node:readline';
import { getDb } from '../db';
import { AppError } from '../errors';
import { cliIO, parseArgs, UsageError, type CliIO } from '../cli/io';
import { buildStarterBundle } from './bundle/build';
import { requireIndex, search } from './engine';
import { currentImport, tableCounts, type ImportProgress } from './importer';
import type { BuildProgress } from './index-build';
import { buildStoredIndex, importVocabulary } from './index-cache';
import { hasStoredIndex, indexDir } from './index-store';
import { loadLexicon, missingWords } from './lexicon';
import { SearchInputSchema } from './schema';

/**
 * `npm run --silent cli -- vocab import <dir> [--force] [--batch-rows N]`
 * `npm run --silent cli -- vocab build-starter [--out DIR] [--force]`
 * `npm run --silent cli -- vocab build-index [--force]`   compile the search index of the imported vocabulary and
 *     store it in the cache folder (`vocab import` does this itself; a server on PostgreSQL runs it as its builder)
 * `npm run --silent cli -- vocab status`
 * `npm run --silent cli -- vocab lexicon`   the clinical lexicon (server/search/lexicon/): entries per file, rules
 *     compiled against the loaded vocabulary, and the target words that vocabulary does not use (dropped)
 * `npm run --silent cli -- search [--top-k N] [--search-mode M] [--profile P] [--min-relevance X|null]`
 *     JSON Lines on stdin: {"qid","query","vocabularies"?,"top_k"?,"search_mode"?,"profile"?} (and any other
 *     search body field); one line out per query: {"qid","results":[{"vocabulary_id","concept_code","concept_id","similarity"}]}.
 *     A request the API would refuse with 4xx gives {"qid","results":[],"rejected":{status,error,message}}; anything
 *     else that fails gives {"qid","results":[],"error":"…"}.
 */
export function progressBar(io: CliIO, label = 'import'): (p: ImportProgress) => void {
  const tty = process.stderr.isTTY && io === cliIO();
  let lastKey = '';
  let lastPct = -1;
  return (p) => {
    const what = p.phase === 'load' ? `loading ${p.table}` : p.phase === 'index' ? `building ${p.message}` : 'done';
    const pct = p.total ? Math.floor((100 * p.done) / p.total) : 100;
    const width = 30;
    const bar = '#'.repeat(Math.round((pct / 100) * width)).padEnd(width, '.');
    if (tty) io.err(`\r${label} [${bar}] ${String(pct).padStart(3)}% ${what.padEnd(40)}${p.phase === 'done' ? '\n' : ''}`);
    else if (what !== lastKey || pct >= lastPct + 25) {
      io.err(`${label} [${bar}] ${String(pct).padStart(3)}% ${what}\n`);
      lastKey = what;
      lastPct = pct;
    }
  };
}

export async function run(argv: string[]): Promise<number> {
  const io = cliIO();
  const [cmd, ...rest] = argv;
  if (cmd === 'import') return vocabImport(rest, io);
  if (cmd === 'build-starter') return buildStarter(rest, io);
  if (cmd === 'status') return status(io);
  if (cmd === 'build-index') return buildIndex(rest, io);
  if (cmd === 'lexicon') return lexiconStatus(io);
  throw new UsageError(`unknown vocab command: ${cmd ?? '(none)'}`);
}

async function vocabImport(argv: string[], io: CliIO): Promise<number> {
  const { positional, flags } = parseArgs(argv, ['force']);
  const dir = positional[0];
  if (!dir) throw new UsageError('vocab import needs a folder');
  const db = await getDb();
  try {
    const r = await importVocabulary(db, dir, {
      force: flags.force === true,
      batchRows: flags['batch-rows'] ? Number(flags['batch-rows']) : undefined,
      progress: progressBar(io),
      // the search index is compiled now, once, so a (re)started server only loads it
      indexProgress: indexProgress(io),
    });
    io.out(
      JSON.stringify({
        status: r.status,
        fingerprint: r.fingerprint,
        seconds: Math.round(r.ms / 100) / 10,
        counts: r.counts,
        search_index: { status: r.searchIndex.status, seconds: Math.round(r.searchIndex.ms / 100) / 10 },
      }) + '\n',
    );
    return 0;
  } catch (err) {
    if (err instanceof Error && err.name === 'AthenaFormatError') {
      io.err(`\nerror: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
}

/** Progress of the search index build on stderr, one line per phase (and every million rows). */
function indexProgress(io: CliIO): (p: BuildProgress) => void {
  let last = '';
  let lastRows = 0;
  return (p) => {
    if (p.phase === last && p.rows < lastRows + 1_000_000) return;
    if (p.phase !== last) lastRows = 0;
    last = p.phase;
    lastRows = p.rows;
    io.err(`search index: ${p.phase} ${p.rows.toLocaleString('en')}\n`);
  };
}

async function buildIndex(argv: string[], io: CliIO): Promise<number> {
  const { flags } = parseArgs(argv, ['force']);
  const db = await getDb();
  const cur = await currentImport(db);
  if (cur?.status !== 'complete') {
    io.err('error: no complete vocabulary import in this database (run `vocab import <dir>` first)\n');
    return 1;
  }
  const t = Date.now();
  const status = await buildStoredIndex(db, cur.fingerprint, { force: flags.force === true, progress: indexProgress(io) });
  io.out(JSON.stringify({ status, fingerprint: cur.fingerprint, dir: indexDir(cur.fingerprint), seconds: Math.round((Date.now() - t) / 100) / 10 }) + '\n');
  return 0;
}

async function buildStarter(argv: string[], io: CliIO): Promise<number> {
  const { flags } = parseArgs(argv, ['force']);
  const started = Date.now();
  const r = await buildStarterBundle({
    outDir: typeof flags.out === 'string' ? flags.out : undefined,
    force: flags.force === true,
    progress: (m) => io.err(`starter bundle: ${m}\n`),
  });
  io.out(
    JSON.stringify({ dir: r.dir, cached: r.cached, fingerprint: r.fingerprint, seconds: Math.round((Date.now() - started) / 100) / 10, counts: r.counts }) +
      '\n',
  );
  return 0;
}

async function status(io: CliIO): Promise<number> {
  const db = await getDb();
  const cur = await currentImport(db);
  const searchIndex = cur?.status === 'complete' ? { stored: hasStoredIndex(cur.fingerprint), dir: indexDir(cur.fingerprint) } : null;
  io.out(JSON.stringify({ import: cur, counts: await tableCounts(db), search_index: searchIndex }) + '\n');
  return 0;
}

async function lexiconStatus(io: CliIO): Promise<number> {
  const lex = loadLexicon();
  const ix = await requireIndex(await getDb());
  const missing = missingWords(lex, (w) => ix.wordStem.get(w));
  io.out(
    JSON.stringify(
      { dir: lex.dir, sizes: lex.sizes, compiled: ix.lexicon?.stats, missing_words: missing.map((m) => `${m.word} (${m.where.slice(0, 3).join(', ')})`) },
      null,
      2,
    ) + '\n',
  );
  return 0;
}

const SEARCH_TYPES = new Set(['plain', 'phrase', 'raw', 'websearch']);

export async function runSearch(argv: string[]): Promise<number> {
  const io = cliIO();
  const { flags } = parseArgs(argv);
  const db = await getDb();
  const defaults: Record<string, unknown> = {};
  if (typeof flags['top-k'] === 'string') defaults.top_k = Number(flags['top-k']);
  if (typeof flags['search-mode'] === 'string') defaults.search_mode = flags['search-mode'];
  if (typeof flags.profile === 'string') defaults.profile = flags.profile;
  if (typeof flags['min-relevance'] === 'string') defaults.min_relevance = flags['min-relevance'] === 'null' ? null : Number(flags['min-relevance']);
  const rl = readline.createInterface({ input: io.stdin, crlfDelay: Infinity });
  for await (const line of rl) {
    if (!line.trim()) continue;
    let qid: unknown = null;
    try {
      const rec = JSON.parse(line) as Record<string, unknown>;
      qid = rec.qid ?? null;
      const body: Record<string, unknown> = { ...defaults };
      for (const k of Object.keys(SearchInputSchema.shape)) if (rec[k] !== undefined) body[k] = rec[k];
      // the negative eval set names the full-text syntax `mode`
      if (typeof rec.mode === 'string' && SEARCH_TYPES.has(rec.mode) && body.search_type === undefined) body.search_type = rec.mode;
      const parsed = SearchInputSchema.safeParse(body);
      if (!parsed.success) {
        io.out(
          JSON.stringify({
            qid,
            results: [],
            rejected: {
              status: 400,
              error: 'invalid_request',
              message: parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '),
            },
          }) + '\n',
        );
        continue;
      }
      const res = await search(db, parsed.data);
      io.out(
        JSON.stringify({
          qid,
          results: res.results.map((r) => ({
            vocabulary_id: r.vocabulary_id,
            concept_code: r.concept_code,
            concept_id: r.concept_id,
            similarity: r.similarity,
          })),
        }) + '\n',
      );
    } catch (err) {
      if (err instanceof AppError && err.status < 500)
        io.out(JSON.stringify({ qid, results: [], rejected: { status: err.status, error: err.type, message: err.message } }) + '\n');
      else io.out(JSON.stringify({ qid, results: [], error: err instanceof Error ? err.message : String(err) }) + '\n');
    }
  }
  return 0;
}
