/**
 * The Medicare Code Editor's logic over its tables (see `$CODING_DATA_DIR/mce/README.md`, "How the MCE edits a
 * claim"), step by step as the CMS MCE 2.0 software runs it:
 *
 *   1. discharge date: parsed as yyyyMMdd (an impossible day falls back to the month's last day); outside
 *      1985-10-01 … the termination date the claim gets INVALID_DISCHARGE_DATE and nothing else is checked;
 *   2. validation: invalid codes, admit diagnosis, sex, discharge status, age;
 *   3. flags of every code on the discharge date;
 *   4. principal-diagnosis edits;  5. admit-diagnosis conflicts (reported, not counted);
 *   6. secondary-diagnosis edits;  7. procedure edits (non-covered rules A–G and the ICD-9 rules, limited coverage,
 *      bilateral, obstetric admission …);  8. counts and the claim's edit type.
 *
 * Every rule of the tables is carried, also those that cannot fire for FY2025–26 discharges (sex conflicts, the
 * ICD-9 edits, non-covered rules C and E): they fire for older dates.
 *
 * Inputs the caller does not have (age, sex, discharge status, length of stay: `null`) are not guessed: the edits
 * that need them are skipped and listed in `notChecked` when they could have fired on this claim.
 */
import { dayOf, flagSetOn, type CodeMaster, type EditType, type MceTables } from './tables';

export interface MceClaim {
  /** Discharge date: `YYYY-MM-DD` or `YYYYMMDD` (a number is read as YYYYMMDD). */
  dischargeDate: string | number | null | undefined;
  /** 10 (default) or 9: which code tables the claim's codes are read from. */
  icdVersion?: 9 | 10;
  /** Age in years; null = not given. */
  age?: number | null;
  /** The MCE's sex code: 0 unknown, 1 male, 2 female, anything else invalid; null = not given. */
  sex?: number | null;
  /** UB-04 patient discharge status as an integer; null = not given. */
  dischargeStatus?: number | null;
  /** Length of stay in days; null = not given. */
  los?: number | null;
  /** Diagnoses, principal first, as submitted. */
  dx: string[];
  pr?: string[];
  /** Admitting diagnosis, when the claim has one. */
  admitDx?: string | null;
}

export type ClaimEditType = EditType | 'BOTH' | 'INVALID_DISCHARGE_DATE';

export interface MceEdit {
  /** The MCE's edit name (edits.tsv), e.g. AGE_CONFLICT. */
  name: string;
  /** How the edit counts towards the claim's edit type: PREPAYMENT, POSTPAYMENT or NONE. */
  type: EditType;
  /** Code occurrences that raised it (claim-level edits and BILATERAL count 1). */
  count: number;
  /** Distinct codes it was raised on, in claim order (upper-cased as read); [] for claim-level edits. */
  codes: string[];
  /** Where: `dx[i]` (0 = principal), `pr[j]` or `admit_dx`. */
  positions: string[];
}

export type MissingInput = 'age' | 'sex' | 'discharge_status' | 'length_of_stay';

export interface MceResult {
  /** Data version of the tables, e.g. "431". */
  version: string;
  /** NONE, PREPAYMENT, POSTPAYMENT, BOTH, or INVALID_DISCHARGE_DATE (then nothing was checked). */
  editType: ClaimEditType;
  /** The discharge date as the MCE read it (YYYYMMDD), or null when it could not be read. */
  dischargeDate: number | null;
  /** Why the claim is INVALID_DISCHARGE_DATE: unreadable, before the first valid date, after the termination date. */
  dateProblem: 'unreadable' | 'too_early' | 'after_termination' | null;
  /** Every edit with a count above 0, in the MCE's order. */
  edits: MceEdit[];
  /** The admit diagnosis's own edits (AGE_CONFLICT, SEX_CONFLICT, INVALID_ADMIT_DX; not counted); null without one. */
  admitDxEdits: string[] | null;
  /** Edits skipped because an input was not given, and could have fired on this claim. */
  notChecked: Array<{ edit: string; needs: MissingInput }>;
}

/** Dates from which rules change: B (pancreas transplant) and the sex edits. */
const RULE_B_FROM = 20060426;
const SEX_UNKNOWN_OK_FROM = 20241001;

/** The discharge date as the MCE's `yyyyMMdd` SMART parser reads it; null when it does not parse. */
export function parseMceDate(input: string | number | null | undefined): number | null {
  if (input === null || input === undefined) return null;
  const s = typeof input === 'number' ? String(input) : input.trim();
  // YYYYMMDD, or YYYY-MM-DD (the MCE is given yyyyMMdd; the dashes are dropped)
  const dashed = s.length === 10 && s.charCodeAt(4) === 45 && s.charCodeAt(7) === 45;
  if (!(s.length === 8 || dashed)) return null;
  let v = 0;
  for (let i = 0; i < s.length; i++) {
    if (dashed && (i === 4 || i === 7)) continue;
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return null;
    v = v * 10 + c;
  }
  const y = Math.floor(v / 10000);
  const m = Math.floor(v / 100) % 100;
  const d = v % 100;
  if (y < 1 || m < 1 || m > 12 || d < 1 || d > 31) return null;
  // Java's SMART resolver pulls an impossible day back to the month's last day (20260229 → 20260228).
  const last = m === 2 ? ((y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28) : m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
  return y * 10000 + m * 100 + Math.min(d, last);
}

/** YYYYMMDD → YYYY-MM-DD. */
export function isoDate(d: number): string {
  const s = String(d).padStart(8, '0');
  return `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}`;
}

/** Blank codes and codes made only of zeros pass the MCE's validity check (README, "Code lookup"). */
function blankOrZeros(code: string): boolean {
  for (let i = 0; i < code.length; i++) {
    const c = code.charCodeAt(i);
    if (c !== 48 && c !== 32 && c !== 9) return false;
  }
  return true;
}

/** Where an edit was raised: a diagnosis, a procedure, the admit diagnosis. */
const AT_DX = 0;
const AT_PR = 1;
const AT_ADMIT = 2;

/** Row "valid without flags" (blank or all-zero code). */
const VALID_NO_ROW = -2;

/** The flags the logic reads, as (word, bit) pairs resolved once per table set. */
const FLAG_NAMES = [
  'ecodepdx',
  'manifestation',
  'unacceptable',
  'reqsdx',
  'qadm',
  'nonspecific',
  'wrngproc',
  'unspecified',
  'msp',
  'newborn',
  'pediatric',
  'maternity',
  'adult',
  'male',
  'female',
  'delout',
  'csect',
  'vagdel',
  'los',
  'noncovered',
  'ncov45',
  'kidneyxp',
  'diabtypeI',
  'ncov4',
  'ncov5',
  'lcov_artheartxpa',
  'lcov_artheartxpb',
  'clintrial',
  'ncov6',
  'ncov7',
  'ncov12agele60',
  'ncov_z302',
  'ncov2',
  'ncov2agelt64',
  'ncov2agelt78',
  'ncov3',
  'ncov8',
  'ncov89',
  'ncov9',
  'ncov13a',
  'ncov13b',
  'lcov',
  'lcov_lvrs',
  'lcov_lungxp',
  'lcov_heartlungxp',
  'lcov_heartxp',
  'lcov_heartsys',
  'lcov_intxp',
  'lcov_liverxp',
  'lcov_kidneyxp',
  'lcov_pancreasxp',
  'lcov_artheartxp',
  'bilateral',
  'mdc08',
  'biopsy',
  'or_indic',
] as const;
type FlagName = (typeof FLAG_NAMES)[number];
/** Flags by number (position in FLAG_NAMES): `F.ecodepdx` … */
const F = Object.fromEntries(FLAG_NAMES.map((n, i) => [n, i])) as Record<FlagName, number>;
type Flag = number;

/** Flags a principal diagnosis is checked for (step 4), and a secondary diagnosis (step 6). */
const PDX_FLAGS: Flag[] = [
  F.ecodepdx,
  F.manifestation,
  F.unacceptable,
  F.nonspecific,
  F.qadm,
  F.newborn,
  F.pediatric,
  F.maternity,
  F.adult,
  F.male,
  F.female,
  F.wrngproc,
  F.msp,
  F.unspecified,
];
const SDX_FLAGS: Flag[] = [F.msp, F.unspecified, F.wrngproc, F.newborn, F.pediatric, F.maternity, F.adult, F.male, F.female];
/** Flags a procedure is checked for (step 7; `or_indic` is read for the claim, not per procedure). */
const PR_FLAGS: Flag[] = [
  F.male,
  F.female,
  F.nonspecific,
  F.biopsy,
  F.los,
  F.noncovered,
  F.ncov45,
  F.lcov_artheartxpa,
  F.lcov_artheartxpb,
  F.ncov6,
  F.ncov7,
  F.ncov12agele60,
  F.ncov_z302,
  F.ncov2,
  F.ncov3,
  F.ncov8,
  F.ncov13a,
  F.lcov_artheartxp,
  F.lcov,
  F.bilateral,
  F.csect,
  F.vagdel,
];
/** Relevance bits of a flag set: which steps can raise anything on a code that carries it. */
const AS_PDX = 1;
const AS_SDX = 2;
const AS_PR = 4;

/** Limited-coverage variants of the ICD-9 tables, in the order the MCE tries them. */
const LIMITED_VARIANTS: Array<[Flag, string]> = [
  [F.lcov_lvrs, 'LIMITED_COVERAGE_LVRS'],
  [F.lcov_lungxp, 'LIMITED_COVERAGE_LUNG_TRANSPLANT'],
  [F.lcov_heartlungxp, 'LIMITED_COVERAGE_COMBINATION_HEART_LUNG_TRANSPLANT'],
  [F.lcov_heartxp, 'LIMITED_COVERAGE_HEART_TRANSPLANT'],
  [F.lcov_heartsys, 'LIMITED_COVERAGE_HEART_IMPLANT'],
  [F.lcov_intxp, 'LIMITED_COVERAGE_INTESTINE_MULTI_VISCERAL_TRANSPLANT'],
  [F.lcov_liverxp, 'LIMITED_COVERAGE_LIVER_TRANSPLANT'],
  [F.lcov_kidneyxp, 'LIMITED_COVERAGE_KIDNEY_TRANSPLANT'],
  [F.lcov_pancreasxp, 'LIMITED_COVERAGE_PANCREAS_TRANSPLANT'],
  [F.lcov_artheartxp, 'LIMITED_COVERAGE_ARTIFICIAL_HEART'],
];
const AGE_FLAGS: Array<[Flag, string]> = [
  [F.newborn, 'newborn'],
  [F.pediatric, 'pediatric'],
  [F.maternity, 'maternity'],
  [F.adult, 'adult'],
];

/** The edits the logic raises, by number (position in this list). */
const EDIT_NAMES = [
  'INVALID_CODE',
  'SEX_CONFLICT',
  'AGE_CONFLICT',
  'QUESTIONABLE_ADMISSION',
  'MANIFESTATION_AS_PDX',
  'NONSPECIFIC_PDX',
  'E_CODE_AS_PDX',
  'UNACCEPTABLE_PDX',
  'DUPLICATE_OF_PDX',
  'MEDICARE_IS_SECONDARY_PAYER',
  'REQUIRES_SDX',
  'NONSPECIFIC_OR',
  'OPEN_BIOPSY',
  'NON_COVERED',
  'BILATERAL',
  'LIMITED_COVERAGE',
  'QUESTIONABLE_OBSTETRIC_ADMISSION',
  'INVALID_ADMIT_DX',
  'INVALID_AGE',
  'INVALID_SEX',
  'INVALID_DISCHARGE_STATUS',
  'WRONG_PROCEDURE_PERFORMED',
  'INCONSISTENT_WITH_LENGTH_OF_STAY',
  'UNSPECIFIED',
  ...LIMITED_VARIANTS.map(([, e]) => e),
] as const;
type EditName = (typeof EDIT_NAMES)[number];
const E = Object.fromEntries(EDIT_NAMES.map((n, i) => [n, i])) as Record<EditName, number>;
const LIMITED_VARIANT_EDITS: Array<[Flag, number]> = LIMITED_VARIANTS.map(([f, e]) => [f, E[e as EditName]]);

/**
 * The MCE run over one table set: flag bits and edit ordinals resolved once, and the scratch of a claim (edits are
 * synchronous), so editing a claim allocates little beyond its result.
 */
class MceRun {
  private readonly word: Int32Array;
  private readonly mask: Int32Array;
  private readonly W: number;
  /** Edit number → position in edits.tsv. */
  private readonly ordinal: Int32Array;
  private readonly counts: Int32Array;
  private readonly codes: Array<string[] | null>;
  private readonly positions: Array<string[] | null>;
  private touched: number[] = [];
  private dxRow = new Int32Array(32);
  private prRow = new Int32Array(32);
  private readonly anyDx: Int32Array;
  private readonly anySdx: Int32Array;
  private readonly anyPr: Int32Array;
  private readonly relevant = new WeakMap<CodeMaster, Uint8Array>();
  /**
   * Rows looked up on the current day, by master and code as submitted: a file's claims repeat their codes, and a
   * Map hit is cheaper than a probe of the big code table. Emptied when the day changes, and when it grows large.
   */
  private readonly rows = new Map<CodeMaster, Map<string, number>>();
  private rowsDay = -1;
  private rowsSize = 0;
  private notChecked: MceResult['notChecked'] = [];
  // per discharge date (claims of a file share a few dates): age ranges by group and valid discharge statuses
  private memoD = -1;
  private day = 0;
  private readonly ageMin = new Int32Array(AGE_FLAGS.length);
  private readonly ageMax = new Int32Array(AGE_FLAGS.length);
  private readonly dsValid = new Uint8Array(100);
  // the claim
  private D = 0;
  private age: number | null = null;
  private sex: number | null = null;

  constructor(private readonly T: MceTables) {
    this.word = new Int32Array(FLAG_NAMES.length);
    this.mask = new Int32Array(FLAG_NAMES.length);
    FLAG_NAMES.forEach((f, n) => {
      const id = T.flagId.get(f);
      this.word[n] = id === undefined ? -1 : id >>> 5;
      this.mask[n] = id === undefined ? 0 : 1 << (id & 31);
    });
    this.W = Math.max(1, Math.ceil(T.flagId.size / 32));
    const byName = new Map(T.edits.map((e, i) => [e.name, i]));
    this.ordinal = Int32Array.from(EDIT_NAMES, (n) => {
      const i = byName.get(n);
      if (i === undefined) throw new Error(`MCE: edit ${n} is not in edits.tsv`);
      return i;
    });
    this.counts = new Int32Array(EDIT_NAMES.length);
    this.codes = new Array<string[] | null>(EDIT_NAMES.length).fill(null);
    this.positions = new Array<string[] | null>(EDIT_NAMES.length).fill(null);
    this.anyDx = new Int32Array(this.W);
    this.anySdx = new Int32Array(this.W);
    this.anyPr = new Int32Array(this.W);
  }

  /**
   * Per flag set of a code master: whether it carries any flag that step 4 (AS_PDX) or step 6 (AS_SDX) reads. Most
   * diagnosis codes carry none, and their checks are skipped whole; the result is the same, since every such check
   * starts from one of those flags.
   */
  private relevance(m: CodeMaster): Uint8Array {
    let rel = this.relevant.get(m);
    if (rel) return rel;
    const W = this.W;
    const n = Math.floor(m.flagSets.length / W);
    rel = new Uint8Array(n);
    for (let r = 0; r < n; r++) {
      let bits = 0;
      for (const f of PDX_FLAGS) if (this.has(m, r, f)) bits |= AS_PDX;
      for (const f of SDX_FLAGS) if (this.has(m, r, f)) bits |= AS_SDX;
      for (const f of PR_FLAGS) if (this.has(m, r, f)) bits |= AS_PR;
      for (const [f] of LIMITED_VARIANTS) if (this.has(m, r, f)) bits |= AS_PR;
      rel[r] = bits;
    }
    this.relevant.set(m, rel);
    return rel;
  }

  /** The memo of master m's rows on the current day (see `rows`). */
  private memoOf(m: CodeMaster): Map<string, number> {
    if (this.rowsDay !== this.day || this.rowsSize > 65_536) {
      this.rows.clear();
      this.rowsDay = this.day;
      this.rowsSize = 0;
    }
    let memo = this.rows.get(m);
    if (memo === undefined) this.rows.set(m, (memo = new Map()));
    return memo;
  }

  /** The flag set of `code` in master m on the current day (VALID_NO_ROW for blank or all-zero codes, -1 invalid). */
  private lookup(memo: Map<string, number>, m: CodeMaster, code: string): number {
    let r = memo.get(code);
    if (r === undefined) {
      r = blankOrZeros(code) ? VALID_NO_ROW : flagSetOn(m, code, this.day);
      memo.set(code, r);
      this.rowsSize++;
    }
    return r;
  }

  /** Whether flag set r (of master m) carries flag f. */
  private has(m: CodeMaster, r: number, f: Flag): boolean {
    if (r < 0) return false;
    const w = this.word[f];
    return w >= 0 && (m.flagSets[r * this.W + w] & this.mask[f]) !== 0;
  }

  /** Whether any code of a union (all diagnoses, secondary diagnoses, procedures) carries flag f. */
  private any(u: Int32Array, f: Flag): boolean {
    const w = this.word[f];
    return w >= 0 && (u[w] & this.mask[f]) !== 0;
  }

  /**
   * Raise an edit on a code occurrence: `at` is DX (k), PR (j) or ADMIT with the index (code null: a claim-level edit,
   * counted once). Positions are spelled only here, when an edit is raised.
   */
  private raise(e: number, code: string | null, at = 0, index = 0, once = false): void {
    if (this.counts[e] === 0) this.touched.push(e);
    if (code === null) {
      this.counts[e] = 1;
      return;
    }
    if (!once || this.counts[e] === 0) this.counts[e]++;
    const codes = (this.codes[e] ??= []);
    const read = code.toUpperCase(); // as the MCE read it
    if (!codes.includes(read)) codes.push(read);
    (this.positions[e] ??= []).push(at === AT_DX ? `dx[${index}]` : at === AT_PR ? `pr[${index}]` : 'admit_dx');
  }

  private skip(edit: string, needs: MissingInput): void {
    if (!this.notChecked.some((x) => x.edit === edit && x.needs === needs)) this.notChecked.push({ edit, needs });
  }

  /** Age ranges and valid discharge statuses on date D (kept while the dates repeat). */
  private dateTables(D: number): void {
    if (this.memoD === D) return;
    this.day = dayOf(D);
    AGE_FLAGS.forEach(([, group], g) => {
      const range = (this.T.ageRanges.get(group) ?? []).find((x) => x.start <= D && D <= x.end);
      // no range on D: the group cannot conflict
      this.ageMin[g] = range ? range.minAge : -2147483648;
      this.ageMax[g] = range ? range.maxAge : 2147483647;
    });
    for (let code = 0; code < 100; code++) this.dsValid[code] = (this.T.dischargeStatus.get(code) ?? []).some((x) => x.start <= D && D <= x.end) ? 1 : 0;
    this.memoD = D;
  }

  private ageConflict(m: CodeMaster, r: number): boolean {
    if (r < 0) return false;
    let conflict = false;
    for (let g = 0; g < AGE_FLAGS.length; g++) {
      if (!this.has(m, r, AGE_FLAGS[g][0])) continue;
      const age = this.age;
      if (age === null) {
        this.skip('AGE_CONFLICT', 'age');
        return false;
      }
      if (age < this.ageMin[g] || age > this.ageMax[g]) conflict = true;
    }
    return conflict;
  }

  private sexConflict(m: CodeMaster, r: number): boolean {
    const male = this.has(m, r, F.male);
    const female = this.has(m, r, F.female);
    if (!male && !female) return false;
    if (this.sex === null) {
      this.skip('SEX_CONFLICT', 'sex');
      return false;
    }
    if (this.D >= SEX_UNKNOWN_OK_FROM && this.sex === 0) return false;
    return (male && this.sex !== 1) || (female && this.sex !== 2);
  }

  edit(claim: MceClaim, D: number): MceResult {
    const T = this.T;
    this.D = D;
    this.dateTables(D);
    this.age = claim.age ?? null;
    this.sex = claim.sex ?? null;
    this.notChecked = [];
    const age = this.age;
    const sex = this.sex;
    const ds = claim.dischargeStatus ?? null;
    const los = claim.los ?? null;
    const icd9 = claim.icdVersion === 9;
    const masters = icd9 ? T.icd9() : null;
    const DX = masters ? masters.dx : T.dx10;
    const PR = masters ? masters.pr : T.pr10;
    const dx = claim.dx ?? [];
    const pr = claim.pr ?? [];
    const nDx = dx.length;
    const nPr = pr.length;
    if (nDx > this.dxRow.length) this.dxRow = new Int32Array(nDx * 2);
    if (nPr > this.prRow.length) this.prRow = new Int32Array(nPr * 2);
    const dxRow = this.dxRow;
    const prRow = this.prRow;
    const dxMemo = this.memoOf(DX);
    const prMemo = this.memoOf(PR);

    // Step 2: validation. The MCE upper-cases a code and looks it up exactly as it is.
    for (let k = 0; k < nDx; k++) {
      const code = str(dx[k]);
      const r = this.lookup(dxMemo, DX, code);
      dxRow[k] = r;
      if (r === -1 || (k === 0 && r === VALID_NO_ROW)) this.raise(E.INVALID_CODE, code, AT_DX, k);
    }
    for (let j = 0; j < nPr; j++) {
      const code = str(pr[j]);
      const r = this.lookup(prMemo, PR, code);
      prRow[j] = r;
      if (r === -1) this.raise(E.INVALID_CODE, code, AT_PR, j);
    }
    const admitGiven = claim.admitDx !== undefined && claim.admitDx !== null;
    let admitRow = -1;
    if (admitGiven) {
      const admit = str(claim.admitDx);
      admitRow = this.lookup(dxMemo, DX, admit);
      if (admitRow === -1) this.raise(E.INVALID_ADMIT_DX, admit, AT_ADMIT);
    }
    if (sex === null) this.skip('INVALID_SEX', 'sex');
    else if (D >= SEX_UNKNOWN_OK_FROM ? !(sex === 0 || sex === 1 || sex === 2) : !(sex === 1 || sex === 2)) this.raise(E.INVALID_SEX, null);
    if (ds === null) this.skip('INVALID_DISCHARGE_STATUS', 'discharge_status');
    else if (
      !(Number.isInteger(ds) && ds >= 0 && ds < 100 ? this.dsValid[ds] === 1 : (T.dischargeStatus.get(ds) ?? []).some((x) => x.start <= D && D <= x.end))
    )
      this.raise(E.INVALID_DISCHARGE_STATUS, null);
    if (age === null) this.skip('INVALID_AGE', 'age');
    else if (age < 0 || age > 124) this.raise(E.INVALID_AGE, null);

    // Step 4: principal diagnosis.
    const rel = this.relevance(DX);
    if (nDx > 0 && dxRow[0] >= 0 && (rel[dxRow[0]] & AS_PDX) !== 0) {
      const r = dxRow[0];
      const code = str(dx[0]);
      if (this.has(DX, r, F.ecodepdx)) this.raise(E.E_CODE_AS_PDX, code, AT_DX, 0);
      if (this.has(DX, r, F.manifestation)) this.raise(E.MANIFESTATION_AS_PDX, code, AT_DX, 0);
      if (this.has(DX, r, F.unacceptable)) {
        // Any secondary entry, even an invalid or blank one, satisfies "requires a secondary diagnosis".
        if (!this.has(DX, r, F.reqsdx)) this.raise(E.UNACCEPTABLE_PDX, code, AT_DX, 0);
        else if (nDx === 1) this.raise(E.REQUIRES_SDX, code, AT_DX, 0);
      }
      if (this.has(DX, r, F.nonspecific)) {
        if (ds === null) this.skip('NONSPECIFIC_PDX', 'discharge_status');
        else if (ds !== 20) this.raise(E.NONSPECIFIC_PDX, code, AT_DX, 0);
      }
      if (this.has(DX, r, F.qadm)) this.raise(E.QUESTIONABLE_ADMISSION, code, AT_DX, 0);
      if (this.ageConflict(DX, r)) this.raise(E.AGE_CONFLICT, code, AT_DX, 0);
      if (this.sexConflict(DX, r)) this.raise(E.SEX_CONFLICT, code, AT_DX, 0);
      if (this.has(DX, r, F.wrngproc)) this.raise(E.WRONG_PROCEDURE_PERFORMED, code, AT_DX, 0);
      if (this.has(DX, r, F.msp)) this.raise(E.MEDICARE_IS_SECONDARY_PAYER, code, AT_DX, 0);
      if (this.has(DX, r, F.unspecified)) this.raise(E.UNSPECIFIED, code, AT_DX, 0);
    }

    // Step 5: the admit diagnosis's conflicts are evaluated and reported, not counted.
    let admitDxEdits: string[] | null = null;
    if (admitGiven) {
      admitDxEdits = [];
      if (this.sexConflict(DX, admitRow)) admitDxEdits.push('SEX_CONFLICT');
      if (this.ageConflict(DX, admitRow)) admitDxEdits.push('AGE_CONFLICT');
      if (admitRow === -1) admitDxEdits.push('INVALID_ADMIT_DX');
    }

    // Step 6: secondary diagnoses.
    for (let k = 1; k < nDx; k++) {
      const code = str(dx[k]);
      if (dx[k] === dx[0]) this.raise(E.DUPLICATE_OF_PDX, code, AT_DX, k); // raw strings, case-sensitive
      const r = dxRow[k];
      if (r < 0 || (rel[r] & AS_SDX) === 0) continue;
      if (this.has(DX, r, F.msp)) this.raise(E.MEDICARE_IS_SECONDARY_PAYER, code, AT_DX, k);
      if (this.has(DX, r, F.unspecified)) this.raise(E.UNSPECIFIED, code, AT_DX, k);
      if (this.has(DX, r, F.wrngproc)) this.raise(E.WRONG_PROCEDURE_PERFORMED, code, AT_DX, k);
      if (this.ageConflict(DX, r)) this.raise(E.AGE_CONFLICT, code, AT_DX, k);
      if (this.sexConflict(DX, r)) this.raise(E.SEX_CONFLICT, code, AT_DX, k);
    }

    // Step 7: procedures. "Any dx" is the principal or a secondary diagnosis (never the admit diagnosis).
    if (nPr > 0) this.procedures(claim, DX, PR, icd9, age, los);
    return this.result(D, admitDxEdits);
  }

  private procedures(claim: MceClaim, DX: CodeMaster, PR: CodeMaster, icd9: boolean, age: number | null, los: number | null): void {
    const D = this.D;
    const pr = claim.pr ?? [];
    const nPr = pr.length;
    const nDx = (claim.dx ?? []).length;
    const prRow = this.prRow;
    const { anyDx, anySdx, anyPr } = this;
    const rel = this.relevance(PR);
    // Only a procedure whose flags an edit reads can raise one: most claims have none, and skip the rest
    let relevant = false;
    for (let j = 0; j < nPr; j++) if (prRow[j] >= 0 && (rel[prRow[j]] & AS_PR) !== 0) relevant = true;
    if (!relevant) return;
    // the unions of flags over the claim's diagnoses, secondary diagnoses and procedures
    const W = this.W;
    for (let w = 0; w < W; w++) anyDx[w] = anySdx[w] = anyPr[w] = 0;
    for (let k = 0; k < nDx; k++) {
      const r = this.dxRow[k];
      if (r < 0) continue;
      for (let w = 0; w < W; w++) {
        const bits = DX.flagSets[r * W + w];
        anyDx[w] |= bits;
        if (k > 0) anySdx[w] |= bits;
      }
    }
    for (let j = 0; j < nPr; j++) if (prRow[j] >= 0) for (let w = 0; w < W; w++) anyPr[w] |= PR.flagSets[prRow[j] * W + w];
    let orIndicated = false;
    let bilateralCodes: Set<string> | null = null;
    for (let j = 0; j < nPr; j++) {
      if (this.has(PR, prRow[j], F.or_indic) && !this.has(PR, prRow[j], F.nonspecific)) orIndicated = true;
      if (this.has(PR, prRow[j], F.bilateral)) (bilateralCodes ??= new Set()).add(str(pr[j]).toUpperCase());
    }
    const clintrial = this.any(anyDx, F.clintrial);
    const artHeartPair = this.any(anyPr, F.lcov_artheartxpa) && this.any(anyPr, F.lcov_artheartxpb);
    const pdxMdc08 = nDx > 0 && this.has(DX, this.dxRow[0], F.mdc08);
    const losLimit = icd9 ? 4 : 5;
    for (let j = 0; j < nPr; j++) {
      const r = prRow[j];
      if (r < 0 || (rel[r] & AS_PR) === 0) continue; // invalid (or blank) procedures have no flags; most have none read here
      const code = str(pr[j]);
      if (this.sexConflict(PR, r)) this.raise(E.SEX_CONFLICT, code, AT_PR, j);
      if (this.has(PR, r, F.nonspecific) && !orIndicated) this.raise(E.NONSPECIFIC_OR, code, AT_PR, j);
      if (this.has(PR, r, F.biopsy)) this.raise(E.OPEN_BIOPSY, code, AT_PR, j);
      if (this.has(PR, r, F.los)) {
        if (los === null) this.skip('INCONSISTENT_WITH_LENGTH_OF_STAY', 'length_of_stay');
        else if (los < losLimit) this.raise(E.INCONSISTENT_WITH_LENGTH_OF_STAY, code, AT_PR, j);
      }

      // Non-covered rules (README: A–G and the ICD-9 rules 2, 3, 8, 13A and the artificial heart).
      let ageUnknownMatters = false;
      let nonCovered = this.has(PR, r, F.noncovered); // A
      if (!nonCovered && this.has(PR, r, F.ncov45)) {
        // B: pancreas transplant, covered with a kidney transplant or type 1 diabetes (before 2006-04-26: ncov4 + ncov5)
        nonCovered =
          D >= RULE_B_FROM ? !(this.any(anyPr, F.kidneyxp) || this.any(anyDx, F.diabtypeI)) : !(this.any(anyDx, F.ncov4) && this.any(anyDx, F.ncov5));
      }
      const artHeartMember = this.has(PR, r, F.lcov_artheartxpa) || this.has(PR, r, F.lcov_artheartxpb);
      if (!nonCovered && artHeartMember && artHeartPair && !clintrial) nonCovered = true; // C
      if (!nonCovered && this.has(PR, r, F.ncov6) && this.any(anyDx, F.ncov6)) nonCovered = true; // D
      if (!nonCovered && this.has(PR, r, F.ncov7) && this.any(anyDx, F.ncov7)) nonCovered = true; // E
      if (!nonCovered && this.has(PR, r, F.ncov12agele60)) {
        // F: age over 60 (a negative age also fires)
        if (age === null) ageUnknownMatters = true;
        else if (age > 60 || age < 0) nonCovered = true;
      }
      if (!nonCovered && this.has(PR, r, F.ncov_z302) && this.any(anyDx, F.ncov_z302)) nonCovered = true; // G
      if (!nonCovered && this.has(PR, r, F.ncov2) && !this.any(anyDx, F.ncov2)) {
        // 2 (ICD-9)
        const limit = this.any(anyDx, F.ncov2agelt64) ? 64 : this.any(anyDx, F.ncov2agelt78) ? 78 : null;
        if (limit === null) nonCovered = true;
        else if (age === null) ageUnknownMatters = true;
        else if (age >= limit || age < 0) nonCovered = true;
      }
      if (!nonCovered && this.has(PR, r, F.ncov3) && !this.any(anyDx, F.ncov3)) nonCovered = true; // 3 (ICD-9)
      if (!nonCovered && this.has(PR, r, F.ncov8) && (!this.any(anySdx, F.ncov89) || !this.any(anyPr, F.ncov9))) nonCovered = true; // 8 (ICD-9)
      if (!nonCovered && this.has(PR, r, F.ncov13a) && !this.any(anyPr, F.ncov13b)) nonCovered = true; // 13A (ICD-9)
      if (!nonCovered && this.has(PR, r, F.lcov_artheartxp) && !clintrial) nonCovered = true; // artificial heart (ICD-9)
      if (nonCovered) this.raise(E.NON_COVERED, code, AT_PR, j);
      else {
        if (ageUnknownMatters) this.skip('NON_COVERED', 'age');
        // Limited coverage: only when not non-covered; the first match wins.
        let limited = -1;
        if (this.has(PR, r, F.lcov)) limited = E.LIMITED_COVERAGE;
        else if (artHeartMember && artHeartPair && clintrial) limited = E.LIMITED_COVERAGE;
        else if (icd9) {
          // the ICD-9 variants, in the MCE's order (no ICD-10 row carries their flags)
          for (let v = 0; v < LIMITED_VARIANT_EDITS.length; v++) {
            if (this.has(PR, r, LIMITED_VARIANT_EDITS[v]![0])) {
              limited = LIMITED_VARIANT_EDITS[v]![1];
              break;
            }
          }
        }
        if (limited >= 0) this.raise(limited, code, AT_PR, j);
      }

      if (this.has(PR, r, F.bilateral) && pdxMdc08 && (bilateralCodes?.size ?? 0) >= 2) this.raise(E.BILATERAL, code, AT_PR, j, true);
      if ((this.has(PR, r, F.csect) || this.has(PR, r, F.vagdel)) && !this.any(anySdx, F.delout))
        this.raise(E.QUESTIONABLE_OBSTETRIC_ADMISSION, code, AT_PR, j);
    }
  }

  /** The raised edits in the MCE's order, and the claim's edit type; the scratch is cleared for the next claim. */
  private result(D: number, admitDxEdits: string[] | null): MceResult {
    const specs = this.T.edits;
    const order = this.touched.sort((a, b) => this.ordinal[a] - this.ordinal[b]);
    const edits: MceEdit[] = [];
    let pre = false;
    let post = false;
    for (const e of order) {
      const spec = specs[this.ordinal[e]];
      edits.push({ name: spec.name, type: spec.editType, count: this.counts[e], codes: this.codes[e] ?? [], positions: this.positions[e] ?? [] });
      if (spec.editType === 'PREPAYMENT') pre = true;
      else if (spec.editType === 'POSTPAYMENT') post = true;
      this.counts[e] = 0;
      this.codes[e] = null;
      this.positions[e] = null;
    }
    this.touched = [];
    const editType: ClaimEditType = pre && post ? 'BOTH' : pre ? 'PREPAYMENT' : post ? 'POSTPAYMENT' : 'NONE';
    return { version: this.T.version, editType, dischargeDate: D, dateProblem: null, edits, admitDxEdits, notChecked: this.notChecked };
  }
}

function str(x: unknown): string {
  return typeof x === 'string' ? x : String(x ?? '');
}

const runs = new WeakMap<MceTables, MceRun>();

/** The last discharge date read, and what it parsed to: the claims of a file share a few dates. */
let lastDateInput: string | number | null | undefined;
let lastDate: number | null = null;

export function editClaim(T: MceTables, claim: MceClaim): MceResult {
  const input = claim.dischargeDate;
  const D = input === lastDateInput && input !== undefined ? lastDate : parseMceDate(input);
  lastDateInput = input;
  lastDate = D;
  if (D === null || D < T.firstValidDate || D > T.terminationDate) {
    return {
      version: T.version,
      editType: 'INVALID_DISCHARGE_DATE',
      dischargeDate: D,
      dateProblem: D === null ? 'unreadable' : D < T.firstValidDate ? 'too_early' : 'after_termination',
      edits: [],
      admitDxEdits: claim.admitDx !== undefined && claim.admitDx !== null ? [] : null,
      notChecked: [],
    };
  }
  let run = runs.get(T);
  if (!run) runs.set(T, (run = new MceRun(T)));
  return run.edit(claim, D);
}
