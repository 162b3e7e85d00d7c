'use client';
/**
 * The coder's case: diagnoses (principal first) with POA, procedures, sex, discharge status and grouper version.
 * It follows the coder across Search, Group a case, the DRG agent and the FHIR tab: it lives in the URL of the Group
 * a case page (Back, reload and shared links work) and in localStorage. Codes only: never free text (codes are not PHI).
 */

export type Poa = 'Y' | 'N' | 'U' | 'W' | '1' | '';
export interface CaseState {
  dx: string[];
  poa: Poa[];
  pr: string[];
  sex: 'F' | 'M' | '';
  /** UB-04 discharge status (1 = home, 20 = expired …). */
  status: number;
  version: string;
}

export const MAX_CODES = 10;
export const EMPTY_CASE: CaseState = { dx: [], poa: [], pr: [], sex: '', status: 1, version: 'v40' };
const KEY = 'cg.case.v1';
const POA_VALUES: Poa[] = ['Y', 'N', 'U', 'W', '1', ''];

/** UB-04 patient discharge status codes the grouper accepts (server/drg/stages/edits.ts VALID_DISCHARGE_STATUS). */
export const DISCHARGE_STATUSES: Array<[number, string]> = [
  [1, 'Home or self care'],
  [2, 'Short-term general hospital'],
  [3, 'Skilled nursing facility (SNF)'],
  [4, 'Intermediate care facility'],
  [5, 'Another type of institution (e.g. cancer or children’s hospital)'],
  [6, 'Home health service'],
  [7, 'Left against medical advice'],
  [20, 'Expired'],
  [21, 'Court or law enforcement'],
  [30, 'Still a patient'],
  [43, 'Federal hospital'],
  [50, 'Hospice, home'],
  [51, 'Hospice, medical facility'],
  [61, 'Swing bed'],
  [62, 'Inpatient rehabilitation facility'],
  [63, 'Long-term care hospital'],
  [64, 'Nursing facility (Medicaid certified)'],
  [65, 'Psychiatric hospital or unit'],
  [66, 'Critical access hospital'],
  [69, 'Designated disaster alternative care site'],
  [70, 'Another type of health care institution'],
  [81, 'Home or self care, planned readmission'],
  [82, 'Short-term general hospital, planned readmission'],
  [83, 'SNF, planned readmission'],
  [84, 'Intermediate care facility, planned readmission'],
  [85, 'Designated cancer center or children’s hospital, planned readmission'],
  [86, 'Home health service, planned readmission'],
  [87, 'Court or law enforcement, planned readmission'],
  [88, 'Federal hospital, planned readmission'],
  [89, 'Swing bed, planned readmission'],
  [90, 'Inpatient rehabilitation facility, planned readmission'],
  [91, 'Long-term care hospital, planned readmission'],
  [92, 'Nursing facility, planned readmission'],
  [93, 'Psychiatric hospital or unit, planned readmission'],
  [94, 'Critical access hospital, planned readmission'],
  [95, 'Another type of institution, planned readmission'],
];
const STATUS_SET = new Set(DISCHARGE_STATUSES.map(([n]) => n));

/** `I214` → `I21.4`; PCS codes have no dot. */
export function displayCode(code: string, kind: 'dx' | 'pr'): string {
  return kind === 'dx' && code.length > 3 ? `${code.slice(0, 3)}.${code.slice(3)}` : code;
}

/** What the API would look the code up as: no dots, no blanks, upper case. */
export function normaliseCode(code: string): string {
  return code.replace(/[.\s]/g, '').toUpperCase();
}

const CODE_RE = /^[A-Z0-9]{3,7}$/;

function codes(values: string[]): string[] {
  const out: string[] = [];
  for (const v of values.flatMap((x) => x.split(','))) {
    const c = normaliseCode(v.split(':')[0] ?? '');
    if (CODE_RE.test(c) && !out.includes(c)) out.push(c);
  }
  return out.slice(0, MAX_CODES);
}

/** Whether the query string carries a case (any of its keys). */
export function hasCaseParams(p: URLSearchParams): boolean {
  return ['dx', 'pr', 'sex', 'ds', 'v'].some((k) => p.has(k));
}

/** `?dx=I214,E1165&poa=Y,N&pr=02703DZ&sex=M&ds=1&v=v40` (also `?dx=I21.4&dx=E1165`, as older links have it). */
export function caseFromParams(p: URLSearchParams): CaseState {
  const dx = codes(p.getAll('dx'));
  const poaRaw = (p.get('poa') ?? '').split(',');
  const poa = dx.map((_, i) => (POA_VALUES.includes((poaRaw[i] ?? '') as Poa) ? (poaRaw[i] as Poa) : ''));
  const sex = p.get('sex') === 'F' || p.get('sex') === 'M' ? (p.get('sex') as 'F' | 'M') : '';
  const ds = Number(p.get('ds'));
  const v = p.get('v') ?? '';
  return { dx, poa, pr: codes(p.getAll('pr')), sex, status: STATUS_SET.has(ds) ? ds : 1, version: /^v\d{2}(\.\d)?$/.test(v) ? v : 'v40' };
}

export function caseToParams(c: CaseState): URLSearchParams {
  const p = new URLSearchParams();
  if (c.dx.length) p.set('dx', c.dx.join(','));
  if (c.poa.some(Boolean)) p.set('poa', c.poa.join(','));
  if (c.pr.length) p.set('pr', c.pr.join(','));
  if (c.sex) p.set('sex', c.sex);
  if (c.status !== 1) p.set('ds', String(c.status));
  if (c.version !== 'v40') p.set('v', c.version);
  return p;
}

/** The query string with readable commas (`dx=I214,E1165`); URLSearchParams reads both forms. */
export function queryString(p: URLSearchParams): string {
  return p.toString().replace(/%2C/gi, ',');
}

export function caseHref(c: CaseState): string {
  const q = queryString(caseToParams(c));
  return q ? `/grouper?${q}` : '/grouper';
}

/** Only what the case holds, validated again: nothing else is ever written to storage. */
function clean(c: Partial<CaseState> | null | undefined): CaseState {
  return caseFromParams(caseToParams({ ...EMPTY_CASE, ...(c ?? {}) } as CaseState));
}

export function readStoredCase(): CaseState {
  try {
    const raw = typeof window === 'undefined' ? null : window.localStorage.getItem(KEY);
    return raw ? clean(JSON.parse(raw) as Partial<CaseState>) : EMPTY_CASE;
  } catch {
    return EMPTY_CASE;
  }
}

/** Subscribe to changes of the stored case (this tab's `storeCase`, other tabs' storage events): for useSyncExternalStore. */
export function subscribeStoredCase(onChange: () => void): () => void {
  window.addEventListener('cg-case', onChange);
  window.addEventListener('storage', onChange);
  return () => {
    window.removeEventListener('cg-case', onChange);
    window.removeEventListener('storage', onChange);
  };
}

export function storeCase(c: CaseState): void {
  try {
    window.localStorage.setItem(KEY, JSON.stringify(clean(c)));
    window.dispatchEvent(new Event('cg-case'));
  } catch {
    /* storage full or disabled: the URL still holds the case */
  }
}

/** Adds codes to the stored case (never replaces it); returns the new case and what did not fit. */
export function addToStoredCase(add: Array<{ code: string; kind: 'dx' | 'pr' }>): { next: CaseState; added: string[]; skipped: string[] } {
  const cur = readStoredCase();
  const next: CaseState = { ...cur, dx: [...cur.dx], poa: [...cur.poa], pr: [...cur.pr] };
  const added: string[] = [];
  const skipped: string[] = [];
  for (const { code, kind } of add) {
    const c = normaliseCode(code);
    const list = kind === 'dx' ? next.dx : next.pr;
    if (list.includes(c)) continue;
    if (list.length >= MAX_CODES || !CODE_RE.test(c)) {
      skipped.push(c);
      continue;
    }
    list.push(c);
    if (kind === 'dx') next.poa.push('');
    added.push(c);
  }
  storeCase(next);
  return { next, added, skipped };
}

/** A stable key of everything that changes a grouping: a result is stale when the key moved on. */
export function caseKey(c: CaseState): string {
  return JSON.stringify([c.dx, c.poa, c.pr, c.sex, c.status, c.version]);
}
