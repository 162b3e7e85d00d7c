/**
 * `npm run eval:agent [-- --backend postgres|pglite] [--split dev|holdout|holdout2|all] [--verbose] [--case ID] [--check]`
 *
 * Runs the DRG agent's deterministic engine over eval/agent/cases.jsonl (synthetic discharge summaries with the
 * expected principal diagnosis, secondary diagnoses, procedures, sex and discharge status written by hand) and
 * reports, per split and overall:
 *   - principal diagnosis accuracy: exact code, and 3-character category;
 *   - secondary diagnoses: micro precision / recall / F1 (external-cause codes V00-Y99 are not expected and not scored);
 *   - procedures: micro F1 (for information);
 *   - DRG: exact final MS-DRG and MDC, where the expected DRG is the grouper's answer on the expected codes (the grouper
 *     is exact, so the expected DRG is what a coder's codes would group to).
 * The full starter vocabulary is used (imported on first run, then kept):
 *  - PostgreSQL: DATABASE_URL, or a `cg_eval_agent` database created through TEST_PG_ADMIN_URL
 *    (default postgres://postgres@127.0.0.1:5432/postgres);
 *  - PGlite: .cache/eval-agent-pglite.
 * `--check` exits 1 when the overall exact-DRG accuracy is below 60%. `--no-search` resolves codes without the search
 * engine (from the code ranges and titles of the CMS code files only), to show what the search engine contributes;
 * `--probe` runs eval/agent/probe-out-of-lexicon.txt (diagnoses the lexicon does not know) with and without it.
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { cacheDir, projectRoot } from '../server/config/paths';
import { closeDb, configureDb, getDb } from '../server/db';
import { migrate } from '../server/migrations';
import { groupCase } from '../server/drg';
import { getIndex } from '../server/search/engine';
import { ensureStarterVocabulary } from '../server/search/startup';
import { codeNoteDeterministic } from '../server/agent/deterministic';
import { groupCoding } from '../server/agent/grouping';
import { CodeResolver } from '../server/agent/resolve';

process.env.LOG_LEVEL ??= 'warn';
const args = process.argv.slice(2);
const flag = (n: string, d: string) => {
  const i = args.indexOf(`--${n}`);
  return i >= 0 && args[i + 1] && !args[i + 1]!.startsWith('--') ? args[i + 1]! : d;
};
const has = (n: string) => args.includes(`--${n}`);
const backend = flag('backend', 'postgres');
const splitWanted = flag('split', 'all');
const onlyCase = flag('case', '');
const version = flag('version', 'v40');
const file = flag('file', path.join(projectRoot, 'eval', 'agent', 'cases.jsonl'));

interface Case {
  id: string;
  split: string;
  mdc: string;
  tags: string[];
  text: string;
  expected: { sex: 'F' | 'M'; alive: boolean; pdx: string; sdx: string[]; pr: string[]; drg?: string };
}

const norm = (c: string) => c.replace(/\./g, '').trim().toUpperCase();
const scoredDx = (c: string) => !/^[V-Y]/.test(c);

async function postgresUrl(): Promise<string> {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  const admin = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  const exists = await c.query(`SELECT 1 FROM pg_database WHERE datname = 'cg_eval_agent'`);
  if (!exists.rowCount) await c.query('CREATE DATABASE cg_eval_agent');
  await c.end();
  return admin.replace(/\/[^/]*$/, '/cg_eval_agent');
}

interface Tally {
  n: number;
  pdxExact: number;
  pdx3: number;
  sdxTp: number;
  sdxFp: number;
  sdxFn: number;
  prTp: number;
  prFp: number;
  prFn: number;
  drg: number;
  mdc: number;
}

const empty = (): Tally => ({ n: 0, pdxExact: 0, pdx3: 0, sdxTp: 0, sdxFp: 0, sdxFn: 0, prTp: 0, prFp: 0, prFn: 0, drg: 0, mdc: 0 });
const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)}%` : 'n/a');
const f1 = (tp: number, fp: number, fn: number) => {
  const p = tp + fp ? tp / (tp + fp) : 0;
  const r = tp + fn ? tp / (tp + fn) : 0;
  return { p, r, f: p + r ? (2 * p * r) / (p + r) : 0 };
};

function line(name: string, t: Tally): string {
  const s = f1(t.sdxTp, t.sdxFp, t.sdxFn);
  const p = f1(t.prTp, t.prFp, t.prFn);
  return `${name.padEnd(8)} n=${String(t.n).padStart(3)}  PDX exact ${pct(t.pdxExact, t.n).padStart(6)}  PDX 3-char ${pct(t.pdx3, t.n).padStart(6)}  SDX P ${(s.p * 100).toFixed(1)}% R ${(s.r * 100).toFixed(1)}% F1 ${(s.f * 100).toFixed(1)}%  PR F1 ${(p.f * 100).toFixed(1)}%  DRG exact ${pct(t.drg, t.n).padStart(6)}  MDC ${pct(t.mdc, t.n).padStart(6)}`;
}

async function main(): Promise<void> {
  const cases = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Case)
    .filter((c) => (splitWanted === 'all' || c.split === splitWanted) && (!onlyCase || c.id === onlyCase));
  if (!cases.length) throw new Error('no cases selected');

  if (backend === 'pglite') configureDb({ kind: 'pglite', dir: path.join(cacheDir(), 'eval-agent-pglite') });
  else configureDb({ kind: 'postgres', url: await postgresUrl() });
  const db = await getDb();
  await migrate(db);
  const t0 = performance.now();
  const how = await ensureStarterVocabulary(db, (m) => process.stderr.write(`  ${m}\n`));
  if (how === 'imported') process.stdout.write(`starter vocabulary imported in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
  const ti = performance.now();
  const ix = await getIndex(db);
  process.stdout.write(
    `${backend}: search index ${ix?.n ?? 0} concepts (${((performance.now() - ti) / 1000).toFixed(1)} s); grouper ${version}; ${cases.length} cases\n\n`,
  );

  // --no-search: resolve codes from the CMS code files only (what the search engine adds, for comparison)
  const resolver = new CodeResolver(db, version, { searchDisabled: has('no-search') });
  if (has('probe')) {
    await probe(db);
    await closeDb();
    return;
  }
  const tallies = new Map<string, Tally>([['all', empty()]]);
  const times: number[] = [];
  for (const c of cases) {
    const e = c.expected;
    const expPdx = norm(e.pdx);
    const expSdx = new Set(e.sdx.map(norm).filter(scoredDx));
    const expPr = new Set(e.pr.map(norm));
    const expGroup = await groupCase(version, { dx: [expPdx, ...expSdx], pr: [...expPr], sex: e.sex, alive: e.alive }, { codes: 'lenient' });
    if (e.drg && e.drg !== expGroup.drg)
      process.stdout.write(
        `  note: ${c.id} stored expected DRG ${e.drg} but the grouper gives ${expGroup.drg} on the expected codes (using ${expGroup.drg})\n`,
      );

    const started = performance.now();
    const coding = await codeNoteDeterministic(c.text, resolver);
    const group = await groupCoding(coding, version);
    times.push(performance.now() - started);

    const gotPdx = coding.principal?.code ?? '';
    const gotSdx = new Set(coding.secondary.map((x) => x.code).filter(scoredDx));
    const gotPr = new Set(coding.procedures.map((x) => x.code));
    for (const key of ['all', c.split]) {
      const t = tallies.get(key) ?? empty();
      tallies.set(key, t);
      t.n++;
      if (gotPdx === expPdx) t.pdxExact++;
      if (gotPdx.slice(0, 3) === expPdx.slice(0, 3)) t.pdx3++;
      for (const x of gotSdx) {
        if (expSdx.has(x)) t.sdxTp++;
        else t.sdxFp++;
      }
      for (const x of expSdx) if (!gotSdx.has(x)) t.sdxFn++;
      for (const x of gotPr) {
        if (expPr.has(x)) t.prTp++;
        else t.prFp++;
      }
      for (const x of expPr) if (!gotPr.has(x)) t.prFn++;
      if (group?.drg === expGroup.drg) t.drg++;
      if (group?.mdc === expGroup.mdc) t.mdc++;
    }
    const ok = group?.drg === expGroup.drg;
    if (has('verbose') || onlyCase || !ok) {
      const miss = [...expSdx].filter((x) => !gotSdx.has(x));
      const extra = [...gotSdx].filter((x) => !expSdx.has(x));
      process.stdout.write(
        `${ok ? 'ok  ' : 'MISS'} ${c.id.padEnd(28)} DRG ${group?.drg ?? '---'} (expected ${expGroup.drg})  PDX ${gotPdx || '-'}${gotPdx === expPdx ? '' : ` (expected ${expPdx})`}` +
          `${miss.length ? `  SDX missed ${miss.join(' ')}` : ''}${extra.length ? `  SDX extra ${extra.join(' ')}` : ''}` +
          `${[...expPr].some((x) => !gotPr.has(x)) || [...gotPr].some((x) => !expPr.has(x)) ? `  PR ${[...gotPr].join(' ') || '-'} (expected ${[...expPr].join(' ') || '-'})` : ''}` +
          `${coding.patient.sex !== e.sex ? `  sex ${coding.patient.sex ?? '?'} (expected ${e.sex})` : ''}${coding.patient.alive !== e.alive ? `  alive ${coding.patient.alive} (expected ${e.alive})` : ''}\n`,
      );
      if (onlyCase) process.stdout.write(`${JSON.stringify({ coding, drg: group?.drg }, null, 2)}\n`);
    }
  }
  times.sort((a, b) => a - b);
  process.stdout.write(
    `\nDeterministic engine, grouper ${version} (${backend}); median ${times[Math.floor(times.length / 2)]!.toFixed(0)} ms per note; codes resolved via: ${[...resolver.used].join(', ')}\n`,
  );
  for (const key of [...[...tallies.keys()].filter((k) => k !== 'all').sort(), 'all']) {
    const t = tallies.get(key);
    if (t && t.n) process.stdout.write(`${line(key, t)}\n`);
  }
  const all = tallies.get('all')!;
  await closeDb();
  if (has('check') && all.drg / all.n < 0.6) {
    process.stderr.write(`exact DRG accuracy ${pct(all.drg, all.n)} is below 60%\n`);
    process.exit(1);
  }
}

/** Diagnoses outside the lexicon, with and without the search engine (eval/agent/probe-out-of-lexicon.txt). */
async function probe(db: Awaited<ReturnType<typeof getDb>>): Promise<void> {
  const lines = fs
    .readFileSync(path.join(projectRoot, 'eval', 'agent', 'probe-out-of-lexicon.txt'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('#'))
    .map((l) => l.split('=>').map((x) => x.trim()) as [string, string]);
  const score: Record<string, number> = { search: 0, 'no search': 0 };
  for (const [label, disabled] of [
    ['search', false],
    ['no search', true],
  ] as const) {
    const r = new CodeResolver(db, version, { searchDisabled: disabled });
    process.stdout.write(`\n${label}:\n`);
    for (const [dx, cat] of lines) {
      const c = await codeNoteDeterministic(`Diagnosis:\n1. ${dx}\nComorbidities: hypertension`, r);
      const got = c.principal ? `${c.principal.display} ${c.principal.title}` : '-';
      const ok = !!c.principal && c.principal.code.startsWith(cat);
      if (ok) score[label]!++;
      process.stdout.write(`  ${ok ? 'ok  ' : 'MISS'} ${dx.padEnd(30)} ${got}\n`);
    }
  }
  process.stdout.write(`\nexpected category: with the search engine ${score.search}/${lines.length}, without ${score['no search']}/${lines.length}\n`);
}

main().catch(async (err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  await closeDb().catch(() => undefined);
  process.exit(1);
});
