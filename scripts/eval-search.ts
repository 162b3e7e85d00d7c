/**
 * `npx tsx scripts/eval-search.ts [--sets gem_dx_dev,gem_pr_dev,lay_dev,negative] [--mode hybrid|graph] [--out DIR]`
 * A set may also be a path to a query file in the same format (`--sets server/search/lexicon/selfcheck.jsonl`).
 *
 * Relevance check: runs each query set in ../shared/eval/search through the same engine as the endpoint (as the
 * `search` CLI does), writes the runs to .cache/eval-search/ and scores them with the shared score.py.
 * Uses DATABASE_URL (PostgreSQL) or the embedded database; imports the starter vocabulary when none is loaded.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { cacheDir, sharedDir } from '../server/config/paths';
import { closeDb, getDb } from '../server/db';
import { migrate } from '../server/migrations';
import { search } from '../server/search/engine';
import { AppError } from '../server/errors';
import { ensureStarterVocabulary } from '../server/search/startup';

const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const sets = (flag('sets') ?? 'gem_dx_dev,gem_pr_dev,lay_dev,negative').split(',');
const mode = flag('mode');
const outDir = path.resolve(flag('out') ?? path.join(cacheDir(), 'eval-search'));
process.env.LOG_LEVEL ??= 'warn';

const db = await getDb();
await migrate(db);
await ensureStarterVocabulary(db, (m) => process.stderr.write(`${m}\n`));
fs.mkdirSync(outDir, { recursive: true });
const evalDir = path.join(sharedDir(), 'eval', 'search');
for (const set of sets) {
  const file = set.endsWith('.jsonl') ? path.resolve(set) : path.join(evalDir, `${set}.jsonl`);
  const lines = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);
  const out: string[] = [];
  let rejected = 0;
  let errors = 0;
  const started = performance.now();
  for (const line of lines) {
    const rec = JSON.parse(line) as { qid: string; query: string; vocabularies?: string[]; mode?: string };
    const t0 = performance.now();
    try {
      const res = await search(db, {
        query: rec.query,
        vocabularies: rec.vocabularies,
        top_k: 10,
        search_type: rec.mode && ['plain', 'phrase', 'raw', 'websearch'].includes(rec.mode) ? (rec.mode as 'plain') : undefined,
        search_mode: mode,
      });
      out.push(
        JSON.stringify({
          qid: rec.qid,
          results: res.results.map((r) => ({ vocabulary_id: r.vocabulary_id, concept_code: r.concept_code, similarity: r.similarity })),
        }),
      );
      const took = performance.now() - t0;
      if (took > 150 && args.includes('--slow')) process.stderr.write(`slow ${took.toFixed(0)} ms: ${rec.qid} ${rec.query.slice(0, 60)}\n`);
    } catch (err) {
      if (err instanceof AppError && err.status < 500) {
        rejected++;
        out.push(JSON.stringify({ qid: rec.qid, results: [], rejected: err.type }));
      } else {
        errors++;
        out.push(JSON.stringify({ qid: rec.qid, results: [], error: err instanceof Error ? err.message : String(err) }));
      }
    }
  }
  const ms = performance.now() - started;
  const run = path.join(outDir, `${path.basename(set, '.jsonl')}.run.jsonl`);
  fs.writeFileSync(run, out.join('\n') + '\n');
  process.stdout.write(`\n## ${set}: ${lines.length} queries, ${(ms / lines.length).toFixed(1)} ms/query, ${rejected} clean 4xx, ${errors} errors\n`);
  const report = execFileSync('python3', [path.join(evalDir, 'score.py'), '--queries', file, '--results', run, '--by', 'category', '--min-group', '5'], {
    encoding: 'utf8',
  });
  process.stdout.write(report.split('\n').slice(0, 40).join('\n') + '\n');
}
await closeDb();
