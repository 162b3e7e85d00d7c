/**
 * The Medicare Code Editor beside a DRG: one case's edits in the shape every door reports them (classify, batch
 * results, FHIR, the CLI's `drg group --edits`, the Group a case page). The MCE itself is `server/mce` (its own
 * tables and versions, independent of the grouper's); this module fills in what a grouping request leaves out:
 *
 *   - no discharge date: the edits are checked as of the last day of the grouper version's fiscal year (the code set
 *     that version groups with), and the answer says so;
 *   - no age, discharge status or length of stay: the edits that need them are not guessed but listed as not
 *     checked (only those that could have fired on the case);
 *   - a discharge date outside the MCE data's range: nothing is checked, and the answer says why.
 */
import {
  ageRange,
  describeEdit,
  diagnosisFlags,
  editClaim,
  EDIT_TEXT,
  editTitle,
  isoDate,
  mceAvailable,
  mceSex,
  mceTables,
  type ClaimEditType,
  type MissingInput,
} from '../mce';

export interface EditView {
  /** The MCE's edit name, e.g. AGE_CONFLICT. */
  edit: string;
  /** The edit in words, e.g. "Age conflict". */
  title: string;
  /** prepayment: the payer holds the claim before paying; postpayment: reviewed after payment; none: reported only. */
  payment: 'prepayment' | 'postpayment' | 'none';
  /** Code occurrences that raised it (claim-level edits count 1). */
  count: number;
  /** Codes it was raised on (as read: upper case, no dots); [] for claim-level edits (age, sex, discharge status). */
  codes: string[];
  /** Where: `dx[i]` (0 = principal), `pr[j]` or `admit_dx`. */
  positions: string[];
  /** One sentence for a coder, naming the codes. */
  message: string;
}

export interface CaseEdits {
  /** MCE data version, e.g. "43.1". */
  mce_version: string;
  /** The discharge date the edits were checked for (YYYY-MM-DD), null when none could be read. */
  discharge_date: string | null;
  /** given: from the request; assumed: the end of the grouper version's fiscal year (no discharge date given). */
  discharge_date_source: 'given' | 'assumed';
  /** Whether the MCE data covers the discharge date (false: nothing was checked; see notes). */
  date_in_range: boolean;
  /** The claim's disposition as the MCE reports it: NONE, PREPAYMENT, POSTPAYMENT, BOTH or INVALID_DISCHARGE_DATE. */
  edit_type: ClaimEditType;
  edits: EditView[];
  /** Edits not checked because an input was not given, and the input they need. */
  not_checked: Array<{ edit: string; title: string; needs: MissingInput }>;
  notes: string[];
}

export interface CaseForEdits {
  dx: readonly string[];
  pr?: readonly string[];
  /** M / F / U (as the grouper reads it); anything else is an invalid sex for the MCE. */
  sex?: string | null;
  age?: number | null;
  /** YYYY-MM-DD. */
  dischargeDate?: string | null;
  dischargeStatus?: number | null;
  los?: number | null;
  admitDx?: string | null;
}

const NEEDS_WORDS: Record<MissingInput, string> = {
  age: 'age',
  sex: 'sex',
  discharge_status: 'discharge_status',
  length_of_stay: 'length_of_stay',
};

/** `FY2026` → 20260930. */
function fiscalYearEnd(fiscalYear: string): number | null {
  const m = /^FY(\d{4})$/.exec(fiscalYear);
  return m ? Number(m[1]) * 10000 + 930 : null;
}

/** "43.1" from the data version "431". */
function mceVersionName(v: string): string {
  return /^\d{3}$/.test(v) ? `${v.slice(0, 2)}.${v.slice(2)}` : v;
}

/** The case's MCE edits, or null when the MCE tables are not in the data folder. */
export function editsForCase(c: CaseForEdits, grouper: { version: string; fiscal_year: string }): CaseEdits | null {
  if (!mceAvailable()) return null;
  const T = mceTables();
  const notes: string[] = [];
  let date = c.dischargeDate ?? null;
  let source: CaseEdits['discharge_date_source'] = 'given';
  if (!date) {
    const end = fiscalYearEnd(grouper.fiscal_year);
    date = end !== null ? isoDate(end) : null;
    source = 'assumed';
    notes.push(
      `No discharge_date was given: codes were checked as valid on ${date ?? '(unknown)'}, the last day of ${grouper.fiscal_year} (grouper ${grouper.version}). Send discharge_date to check them for the real date.`,
    );
  }
  const r = editClaim({
    dischargeDate: date,
    age: c.age ?? null,
    sex: c.sex === undefined || c.sex === null ? null : mceSex(c.sex),
    dischargeStatus: c.dischargeStatus ?? null,
    los: c.los ?? null,
    dx: [...c.dx],
    pr: [...(c.pr ?? [])],
    admitDx: c.admitDx ?? null,
  });
  const inRange = r.editType !== 'INVALID_DISCHARGE_DATE';
  if (!inRange) {
    const first = isoDate(T.firstValidDate);
    const last = isoDate(T.terminationDate);
    const read = r.dischargeDate !== null ? isoDate(r.dischargeDate) : null;
    if (r.dateProblem === 'after_termination')
      notes.push(
        `The discharge date ${read} is after ${last}, the last date the MCE data (version ${mceVersionName(T.version)}) covers: no edits were checked.`,
      );
    else if (r.dateProblem === 'too_early') notes.push(`The discharge date ${read} is before ${first}, the first date the MCE accepts: no edits were checked.`);
    else notes.push(`The discharge date could not be read as a date: no edits were checked.`);
  }
  const ctx = {
    age: c.age ?? null,
    sex: c.sex ?? null,
    dischargeStatus: c.dischargeStatus ?? null,
    los: c.los ?? null,
    ageGroups: (code: string) => ageGroupsOf(code, r.dischargeDate),
  };
  const edits: EditView[] = r.edits.map((e) => ({
    edit: e.name,
    title: editTitle(e.name),
    payment: EDIT_TEXT[e.name]?.payment ?? (e.type === 'POSTPAYMENT' ? 'postpayment' : e.type === 'NONE' ? 'none' : 'prepayment'),
    count: e.count,
    codes: e.codes,
    positions: e.positions,
    message: describeEdit(e, ctx),
  }));
  const discharge = r.dischargeDate !== null ? isoDate(r.dischargeDate) : null;
  return {
    mce_version: mceVersionName(T.version),
    discharge_date: discharge,
    discharge_date_source: source,
    date_in_range: inRange,
    edit_type: r.editType,
    edits,
    not_checked: r.notChecked.map((n) => ({ edit: n.edit, title: editTitle(n.edit), needs: NEEDS_WORDS[n.needs] as MissingInput })),
    notes,
  };
}

/** Age groups of a diagnosis on a date, with their age ranges (for the words of an age conflict). */
function ageGroupsOf(code: string, date: number | null): Array<{ group: string; min: number; max: number }> {
  if (date === null) return [];
  const out: Array<{ group: string; min: number; max: number }> = [];
  for (const group of diagnosisFlags(code, date)) {
    if (group !== 'newborn' && group !== 'pediatric' && group !== 'maternity' && group !== 'adult') continue;
    const range = ageRange(group, date);
    if (range) out.push({ group, ...range });
  }
  return out;
}
