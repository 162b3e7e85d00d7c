import fs from 'node:fs';
import path from 'node:path';
import { sharedDir } from '../config/paths';
import { BatchCase } from '../api/schemas/drg';

/**
 * Realistic batch cases for tests and `npm run bench:batch`: the oracle development cases
 * (`../shared/oracle/dev_cases_v40.jsonl`, official grouper answers) that fit the API's limits, cycled to the
 * requested count with fresh case_refs. Without the oracle file a small built-in set is cycled instead.
 */
const FALLBACK: Array<Omit<BatchCase, 'case_ref'>> = [
  { dx_codes: ['I214', 'I5021', 'E119'], pr_codes: ['027034Z'], gender: 'M', is_alive: true },
  { dx_codes: ['J449', 'J9601'], pr_codes: [], gender: 'F', is_alive: true },
  { dx_codes: ['A419', 'N179', 'E870'], pr_codes: [], gender: 'M', is_alive: false },
  { dx_codes: ['K3580'], pr_codes: ['0DTJ4ZZ'], gender: 'F', is_alive: true },
  { dx_codes: ['S72001A', 'W010XXA'], pr_codes: ['0QS704Z'], gender: 'F', is_alive: true },
  { dx_codes: ['I639', 'I10'], pr_codes: [], gender: 'M', is_alive: true },
];

let cache: Array<Omit<BatchCase, 'case_ref'>> | undefined;

function load(): Array<Omit<BatchCase, 'case_ref'>> {
  if (cache) return cache;
  const file = path.join(sharedDir(), 'oracle', 'dev_cases_v40.jsonl');
  const out: Array<Omit<BatchCase, 'case_ref'>> = [];
  if (fs.existsSync(file)) {
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const c = JSON.parse(line) as { dx: string[]; pr?: string[]; sex: string; alive: boolean; dischargeStatus?: string | number; poa?: string[] };
      const parsed = BatchCase.safeParse({
        case_ref: 'x',
        dx_codes: c.dx,
        pr_codes: c.pr ?? [],
        gender: c.sex,
        is_alive: c.alive,
        ...(c.dischargeStatus !== undefined && /^\d+$/.test(String(c.dischargeStatus)) ? { discharge_status: Number(c.dischargeStatus) } : {}),
        ...(c.poa ? { poa: c.poa } : {}),
      });
      if (!parsed.success) continue;
      const { case_ref: _ref, ...rest } = parsed.data;
      out.push(rest);
    }
  }
  cache = out.length ? out : FALLBACK;
  return cache;
}

/** `n` cases with case_refs `<prefix>-0001`…, cycling through the sample set from `offset`. */
export function sampleCases(n: number, opts: { prefix?: string; offset?: number } = {}): BatchCase[] {
  const base = load();
  const prefix = opts.prefix ?? 'case';
  const offset = opts.offset ?? 0;
  return Array.from({ length: n }, (_, i) => ({ case_ref: `${prefix}-${String(i + 1).padStart(4, '0')}`, ...base[(offset + i) % base.length]! }));
}
