/**
 * Medicare Code Editor (MCE): the claim edits payers run beside the MS-DRG. Public API of the core; see README.md in
 * this folder. Pure computation over `$CODING_DATA_DIR/mce/`: no database, no network.
 *
 *   const r = editClaim({ dischargeDate: '2026-04-18', age: 70, sex: 2, dischargeStatus: 1, los: 3, dx: ['O80'] });
 *   r.edits;     // [{ name: 'AGE_CONFLICT', type: 'PREPAYMENT', count: 1, codes: ['O80'], positions: ['dx[0]'] }]
 *   r.editType;  // 'PREPAYMENT'
 */
import { editClaim as run, type MceClaim, type MceResult } from './engine';
import { mceTables, rowOn } from './tables';

export { isoDate, parseMceDate } from './engine';
export type { ClaimEditType, MceClaim, MceEdit, MceResult, MissingInput } from './engine';
export { EDIT_TEXT, editTitle, PAYMENT_EDITS, describeEdit } from './words';
export { mceAvailable, mceTables } from './tables';
export type { EditSpec, EditType } from './tables';

/** Edit one claim with the MCE tables of the data folder (read on first use). */
export function editClaim(claim: MceClaim): MceResult {
  return run(mceTables(), claim);
}

/** The MCE's sex code from the usual spellings: M → 1, F → 2, U → 0, numbers 0/1/2 as they are, anything else → 9. */
export function mceSex(sex: unknown): number | null {
  if (sex === undefined || sex === null) return null;
  if (typeof sex === 'number') return sex === 0 || sex === 1 || sex === 2 ? sex : 9;
  const s = String(sex).trim().toUpperCase();
  return s === 'M' ? 1 : s === 'F' ? 2 : s === 'U' ? 0 : 9;
}

/** The MCE flags of a diagnosis code on a date (YYYYMMDD), e.g. ["maternity"]; [] when the code is not valid then. */
export function diagnosisFlags(code: string, date: number): string[] {
  const T = mceTables();
  const r = rowOn(T.dx10, code, date);
  if (r < 0) return [];
  const W = T.dx10.words;
  return T.flags.map((f) => f.flag).filter((_, id) => (T.dx10.flagSets[r * W + (id >>> 5)] & (1 << (id & 31))) !== 0);
}

/** The age range of an age group (newborn, pediatric, maternity, adult) on a date, or null. */
export function ageRange(group: string, date: number): { min: number; max: number } | null {
  const r = (mceTables().ageRanges.get(group) ?? []).find((x) => x.start <= date && date <= x.end);
  return r ? { min: r.minAge, max: r.maxAge } : null;
}
