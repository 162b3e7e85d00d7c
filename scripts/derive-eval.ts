/**
 * Measures the derivation method used for v36–v38: derive v39.1 from the v40 tables plus the v39
 * Definitions Manual appendices and the FY2022 code files, then group the v39 oracle cases
 * (`dev_cases_v39.jsonl`, produced by the official v39.1 grouper) and report agreement.
 *
 *   npx tsx scripts/derive-eval.ts [--json] [--cases path/to/dev_cases_v39.jsonl]
 *
 * For comparison it also reports the plain v40 tables on the same cases (no derivation).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sharedDir, dataDir } from '../server/config/paths';
import { compileTables } from '../server/drg/compile';
import { billableCodes, deriveFromBase, readManual, type DeriveReport } from '../server/drg/derive';
import { GrouperEngine } from '../server/drg/engine';
import { readTables } from '../server/drg/tables';

export interface EvalResult {
  cases: number;
  derived: { drg: number; mdc: number; medSurg: number; grc: number; initialDrg: number };
  baseline: { drg: number };
  report: Partial<DeriveReport>;
  mismatches: Array<{ id: string; got: number; expected: number; tag: string }>;
}

interface OracleCase {
  id: string;
  tag?: string;
  dx: string[];
  pr: string[];
  sex: string;
  alive: boolean;
  dischargeStatus?: string;
  poa?: string[];
  hospitalStatus?: string;
  expected: { drg: number; mdc: number; medSurg: string; grc: string; initialDrg: number };
}

export async function evaluateDerivation(casesFile?: string): Promise<EvalResult> {
  const file = casesFile ?? path.join(sharedDir(), 'oracle', 'dev_cases_v39.jsonl');
  const cases = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as OracleCase);
  const base = readTables(path.join(dataDir(), 'msdrg', 'tables', 'v400'));
  const report: Partial<DeriveReport> = {};
  const derived = deriveFromBase(base, readManual('v39'), { dx: billableCodes(2022, 'dx'), pr: billableCodes(2022, 'pr') }, report);
  const meta = (v: string) => ({ version: v, fiscalYear: 'FY2022', fidelity: 'derived' as const, sourceKey: 'eval', invalidPrIsOr: true, notes: [] });
  const dEngine = new GrouperEngine(compileTables(derived, meta('v39')));
  const bEngine = new GrouperEngine(compileTables(base, meta('v40')));
  const res: EvalResult = {
    cases: cases.length,
    derived: { drg: 0, mdc: 0, medSurg: 0, grc: 0, initialDrg: 0 },
    baseline: { drg: 0 },
    report,
    mismatches: [],
  };
  for (const c of cases) {
    const input = { dx: c.dx, pr: c.pr, sex: c.sex, alive: c.alive, dischargeStatus: c.dischargeStatus, poa: c.poa, hospitalStatus: c.hospitalStatus };
    const r = dEngine.groupCore(input, false);
    const e = c.expected;
    if (r.drg === e.drg) res.derived.drg++;
    else res.mismatches.push({ id: c.id, got: r.drg, expected: e.drg, tag: c.tag ?? '' });
    if (r.mdc === e.mdc) res.derived.mdc++;
    if ((r.surgical === 'NA' ? 'NONE' : r.surgical) === e.medSurg) res.derived.medSurg++;
    if (r.grc === e.grc) res.derived.grc++;
    if (r.initialDrg === e.initialDrg) res.derived.initialDrg++;
    if (bEngine.groupCore(input, false).drg === e.drg) res.baseline.drg++;
  }
  return res;
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const args = process.argv.slice(2);
  const ci = args.indexOf('--cases');
  evaluateDerivation(ci >= 0 ? args[ci + 1] : undefined).then(
    (r) => {
      if (args.includes('--json')) {
        process.stdout.write(JSON.stringify(r, null, 2) + '\n');
        return;
      }
      const pct = (n: number) => `${((100 * n) / r.cases).toFixed(2)}% (${n}/${r.cases})`;
      const lines = [
        'Derived v39.1 = v40 tables + v39 Definitions Manual appendices + FY2022 code files',
        `  cases                 ${r.cases}`,
        `  final DRG agreement   ${pct(r.derived.drg)}`,
        `  MDC agreement         ${pct(r.derived.mdc)}`,
        `  med/surg agreement    ${pct(r.derived.medSurg)}`,
        `  return code agreement ${pct(r.derived.grc)}`,
        `  initial DRG agreement ${pct(r.derived.initialDrg)}`,
        `Baseline: v40 tables as they are  final DRG ${pct(r.baseline.drg)}`,
        `Derivation: ${JSON.stringify(r.report)}`,
        `First mismatches:`,
        ...r.mismatches.slice(0, 20).map((m) => `  ${m.id} got ${m.got} expected ${m.expected} (${m.tag})`),
      ];
      process.stdout.write(lines.join('\n') + '\n');
    },
    (e: unknown) => {
      process.stderr.write(`derive-eval failed: ${e instanceof Error ? e.stack : String(e)}\n`);
      process.exitCode = 1;
    },
  );
}
