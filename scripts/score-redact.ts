/**
 * Score the redaction engine on a gold corpus without Python:
 *   npx tsx scripts/score-redact.ts [GOLD.jsonl] [--show N] [--prefix ID_PREFIX]
 * (default GOLD: ../shared/eval/phi/dev.jsonl; our own held-out corpus is eval/redact/holdout/notes.jsonl, whose
 * blind third has ids starting with `hb-`: `--prefix hb-`). Mirrors score.py's overlap metrics, clinical false positives and the
 * redacted-text leak check. For the authoritative numbers use score.py on the CLI output (see server/redact/README.md).
 */
import path from 'node:path';
import { sharedDir } from '../server/config/paths';
import { loadGold, predict, scoreCorpus } from '../eval/redact/evaluation';

const args = process.argv.slice(2);
const showIdx = args.indexOf('--show');
const show = showIdx >= 0 ? Number(args[showIdx + 1]) : 10;
const prefixIdx = args.indexOf('--prefix');
const prefix = prefixIdx >= 0 ? args[prefixIdx + 1] : '';
const goldPath =
  args.find((a, i) => !a.startsWith('--') && (showIdx < 0 || i !== showIdx + 1) && (prefixIdx < 0 || i !== prefixIdx + 1)) ??
  path.join(sharedDir(), 'eval', 'phi', 'dev.jsonl');

const gold = loadGold(goldPath).filter((g) => g.id.startsWith(prefix));
const t0 = performance.now();
const preds = predict(gold, { timeBudgetMs: 60_000 });
const ms = performance.now() - t0;
const s = scoreCorpus(gold, preds);
const pct = (x: number) => (Number.isNaN(x) ? '   n/a' : (100 * x).toFixed(2).padStart(6));
process.stdout.write(`gold: ${goldPath}${prefix ? ` ids ${prefix}*` : ''} (${gold.length} notes), engine time ${ms.toFixed(0)} ms\n`);
process.stdout.write(`${'type'.padEnd(13)} ${'gold'.padStart(6)} ${'pred'.padStart(6)}  overlap-R  overlap-P\n`);
for (const [t, v] of Object.entries(s.byType)) {
  process.stdout.write(`${t.padEnd(13)} ${String(v.gold).padStart(6)} ${String(v.pred).padStart(6)}     ${pct(v.recall)}     ${pct(v.precision)}\n`);
}
process.stdout.write(
  `${'OVERALL'.padEnd(13)} ${String(s.overall.gold).padStart(6)} ${String(s.overall.pred).padStart(6)}     ${pct(s.overall.recall)}     ${pct(s.overall.precision)}\n`,
);
process.stdout.write(`structured recall ${pct(s.structuredRecall)}%\n`);
process.stdout.write(`clinical spans hit ${s.clinicalHit}/${s.clinicalTotal} (${pct(s.clinicalRate).trim()}%)\n`);
process.stdout.write(`gold PHI strings left in redacted text: ${s.leaks}\n`);
for (const [title, rows] of [
  ['missed', s.missed],
  ['false positives', s.falsePositives],
  ['leaks', s.leakExamples],
] as const) {
  if (rows.length)
    process.stdout.write(
      `-- ${title} (${rows.length}) --\n${rows
        .slice(0, show)
        .map((r) => '  ' + r)
        .join('\n')}\n`,
    );
}
