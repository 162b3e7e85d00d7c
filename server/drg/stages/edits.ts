/**
 * Stage 1 of the Definitions Manual flow, "edits": the claim as the grouper reads it. Diagnoses and procedures are
 * looked up in the version's code tables (invalid codes are ignored by the logic and reported by the detail path),
 * the patient's sex and the discharge status are checked.
 */
import { normalizeCode, strictCode } from '../codeindex';
import type { VersionLogic } from '../logic';
import type { GroupInput } from '../types';
import type { CaseState } from './state';

/** Patient discharge status codes (UB-04 FL17) the grouper accepts. */
export const VALID_DISCHARGE_STATUS: ReadonlySet<number> = new Set([
  1, 2, 3, 4, 5, 6, 7, 20, 21, 30, 43, 50, 51, 61, 62, 63, 64, 65, 66, 69, 70, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95,
]);

/** Discharge status as the grouper uses it: a valid UB-04 code, or -1. No status: alive → 01, died → 20. */
export function parseDischargeStatus(ds: unknown, alive: unknown): number {
  if (ds === undefined || ds === null) return alive === false ? 20 : 1;
  let n: number;
  if (typeof ds === 'number') {
    if (!Number.isInteger(ds) || ds < 0 || ds > 99 || Object.is(ds, -0)) return -1;
    n = ds;
  } else {
    const s = String(ds).trim();
    if (s.length < 1 || s.length > 2) return -1;
    n = 0;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c < 48 || c > 57) return -1;
      n = n * 10 + (c - 48);
    }
  }
  return VALID_DISCHARGE_STATUS.has(n) ? n : -1;
}

/** 0 male, 1 female, 2 unknown: `M`/`F` (also `MALE`/`FEMALE`, `1`/`2`), anything else is unknown. */
export function sexCode(sex: unknown): number {
  if (typeof sex !== 'string') return 2;
  if (sex === 'M') return 0;
  if (sex === 'F') return 1;
  const sx = sex.trim().toUpperCase();
  return sx === 'M' || sx === 'MALE' || sx === '1' ? 0 : sx === 'F' || sx === 'FEMALE' || sx === '2' ? 1 : 2;
}

/** First character of a code as the grouper spells it (upper case; leniently after blanks and dots), 0 if none. */
function firstCodeChar(raw: unknown, lenient: boolean): number {
  if (typeof raw === 'string') {
    if (raw.length === 0) return 0;
    let i = 0;
    if (lenient) {
      while (i < raw.length && isTrimmed(raw.charCodeAt(i))) i++;
      while (i < raw.length && raw.charCodeAt(i) === 46) i++;
    }
    const c = i < raw.length ? raw.charCodeAt(i) : -1;
    // Plain ASCII (not a blank after dots, which trimming might remove): no need to spell the whole code.
    if (c > 32 && c < 128) return c >= 97 && c <= 122 ? c - 32 : c;
  }
  const s = lenient ? normalizeCode(raw) : strictCode(raw);
  return s.length ? s.charCodeAt(0) : 0;
}

/** ASCII characters String.prototype.trim removes. */
function isTrimmed(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

/** Looks up every diagnosis and procedure of the case. */
export function readCodes(L: VersionLogic, s: CaseState, input: GroupInput, lenient: boolean): void {
  const dxIn = Array.isArray(input.dx) ? input.dx : [];
  const prIn = Array.isArray(input.pr) ? input.pr : [];
  const nDx = dxIn.length;
  const nPr = prIn.length;
  s.ensure(nDx + 1, nPr + 1);
  s.nDx = nDx;
  s.nPr = nPr;
  const dx = L.dx;
  for (let k = 0; k < nDx; k++) s.dxIdx[k] = dx.lookup(dxIn[k], lenient);
  const pr = L.pr;
  for (let j = 0; j < nPr; j++) {
    s.prIdx[j] = pr.lookup(prIn[j], lenient);
    s.prSupp[j] = 0;
  }
  s.pdxFirst = nDx > 0 ? firstCodeChar(dxIn[0], lenient) : 0;
}

/** Sex and discharge status. */
export function readPatient(s: CaseState, input: GroupInput): void {
  s.sex = sexCode(input.sex);
  s.ds = parseDischargeStatus(input.dischargeStatus, input.alive);
}

/**
 * The codes as spelled for lookup (detail path: reported per code, and the order of marking uses them). A valid code
 * is spelled as in the version's table; only invalid ones are spelled from the input.
 */
export function spellCodes(L: VersionLogic, s: CaseState, input: GroupInput, lenient: boolean): void {
  const spell = lenient ? normalizeCode : strictCode;
  const dxIn = Array.isArray(input.dx) ? input.dx : [];
  const prIn = Array.isArray(input.pr) ? input.pr : [];
  const dx = new Array<string>(s.nDx);
  for (let k = 0; k < s.nDx; k++) dx[k] = s.dxIdx[k] >= 0 ? L.dx.codes[s.dxIdx[k]] : spell(dxIn[k]);
  const pr = new Array<string>(s.nPr);
  for (let j = 0; j < s.nPr; j++) pr[j] = s.prIdx[j] >= 0 ? L.pr.codes[s.prIdx[j]] : spell(prIn[j]);
  s.dxCodes = dx;
  s.prCodes = pr;
}
