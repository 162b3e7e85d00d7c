/**
 * Malaysian identity card numbers.
 * - MyKad / MyKid / NRIC: YYMMDD-PB-###G, with dashes, spaces, nothing, or broken across a line break. Validated by the
 *   birth date (either century) and the place-of-birth code (official state and country codes).
 * - Old-style IC: a letter and 6-7 digits (A1234567, K 123456), only with IC context.
 */
import type { Candidate } from '../types';
import { labelWindow, windowHas, type AnalysisContext, type Recognizer } from './base';

const IC_CONTEXT = [
  'ic',
  'i/c',
  'nric',
  'mykad',
  'mykid',
  'mypr',
  'mykas',
  'kp',
  'k/p',
  'no. kp',
  'no kp',
  'kad pengenalan',
  'identity card',
  'identification',
  'id',
  'new ic',
  'ic baru',
  'ic no',
  'no. ic',
  'i.c',
  'i.c.',
];
const OLD_IC_CONTEXT = ['old ic', 'ic lama', 'kp lama', 'k/p lama', 'old i/c', 'old nric', 'ic (old)', 'old', 'lama', ...IC_CONTEXT];

/** Place-of-birth codes of the National Registration Department: states 01-16, 21-59; countries 60-68, 71-72, 74-79, 82-93; 98, 99. */
const PB_VALID = new Set<number>();
for (let i = 1; i <= 16; i++) PB_VALID.add(i);
for (let i = 21; i <= 68; i++) PB_VALID.add(i);
for (const i of [71, 72, 74, 75, 76, 77, 78, 79]) PB_VALID.add(i);
for (let i = 82; i <= 93; i++) PB_VALID.add(i);
PB_VALID.add(98);
PB_VALID.add(99);

export function validIcBirthDate(yymmdd: string): boolean {
  const yy = +yymmdd.slice(0, 2);
  const mm = +yymmdd.slice(2, 4);
  const dd = +yymmdd.slice(4, 6);
  if (mm < 1 || mm > 12 || dd < 1) return false;
  const dim = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mm - 1];
  if (dd > dim) return false;
  if (mm === 2 && dd === 29) {
    const leap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
    return leap(1900 + yy) || leap(2000 + yy);
  }
  return true;
}

export function validPlaceOfBirth(pb: string): boolean {
  return PB_VALID.has(+pb);
}

export function validMyKad(digits: string): boolean {
  return digits.length === 12 && validIcBirthDate(digits.slice(0, 6)) && validPlaceOfBirth(digits.slice(6, 8));
}

// 12 digits with any short separators (validated structurally below).
// separators: dash (any dash is '-' after normalisation), space, and, with a fully valid number, '.', '/' or '_'
const IC_RE = /(?<![\d_])\d(?:[ \t]{0,3}[-\u2013./_]?[ \t]{0,3}(?:\r?\n[ \t]*[-\u2013]?[ \t]*)?\d){11}(?![\w])/g;
/** What follows may continue a longer number: a separator and a digit ("...-5531-2", "...5531.5"). */
const CONTINUES_RE = /^[ \t]?[-\u2013./][ \t]?\d/;
/** ... unless it is plainly a new item: a sentence end or a spaced dash/slash ("5531. 54 year old", "5531 - 54M",
 * "5531 / 2nd admission"), or a slash right after a valid number ("5531/013-2223344": an IC, then a phone). */
const NEW_ITEM_RE = /^(?:\.[ \t]+\d|[ \t]+[-\u2013/][ \t]*\d|[-\u2013/][ \t]+\d|\/\d)/;
const OLD_NUMERIC_RE = /(?<![\w/.-])\d{6,8}(?![\w/-])/g;
const OLD_IC_RE = /(?<![\w/-])([A-Z])[ \t]?(\d{6,7})(?![\w/-])/gi;

/** IC labels a number may be glued to ("ic880101145678", "NRIC:-880101-...", "K/P.880101..."). */
const GLUE_LABELS = new Set(['ic', 'i/c', 'nric', 'kp', 'k/p', 'mykad', 'mykid', 'mypr', 'no', 'icno', 'id']);
const GLUE_RE = /([A-Za-z]+(?:\/[A-Za-z]+)?)[ \t]{0,2}[.:\-]{0,3}$/;

/** May an IC start at `s`? Not inside a longer code (a letter or dash before) unless the word glued to it is an IC label. */
function startOk(text: string, s: number): boolean {
  if (s === 0) return true;
  const c = text[s - 1];
  if (!/[\p{L}.\-]/u.test(c)) return true;
  if (c === '.' && !/[\p{L}]/u.test(text[s - 2] ?? '')) return !/\d/.test(text[s - 2] ?? '');
  const m = GLUE_RE.exec(text.slice(Math.max(0, s - 16), s));
  return !!m && GLUE_LABELS.has(m[1].toLowerCase());
}

function structureOk(raw: string): boolean {
  // separators allowed only after digit 6 and digit 8, or one line break anywhere
  let nd = 0;
  let nl = 0;
  let i = 0;
  while (i < raw.length) {
    const c = raw[i];
    if (c >= '0' && c <= '9') {
      nd++;
      i++;
      continue;
    }
    let sep = '';
    while (i < raw.length && !(raw[i] >= '0' && raw[i] <= '9')) sep += raw[i++];
    if (sep.includes('\n')) {
      nl++;
      if (nl > 1) return false;
      continue;
    }
    if (nd !== 6 && nd !== 8) return false;
  }
  return nd === 12;
}

export const myIcRecognizer: Recognizer = {
  name: 'my_ic',
  entity: 'MY_IC',
  contextWords: IC_CONTEXT,
  baseScore: 0.9,
  contextWindow: 48,
  analyze(ctx: AnalysisContext): Candidate[] {
    const out: Candidate[] = [];
    const text = ctx.text;
    for (const m of text.matchAll(IC_RE)) {
      const raw = m[0];
      if (!startOk(text, m.index)) continue;
      const digits = raw.replace(/\D/g, '');
      const after = text.slice(m.index + raw.length, m.index + raw.length + 4);
      if (CONTINUES_RE.test(after) && !(validMyKad(digits) && NEW_ITEM_RE.test(after))) continue;
      // IC words before the value raise these scores (the engine's context step)
      if (!structureOk(raw)) {
        // unusual grouping (8501 0114 5673, 7003 1508 5123): a fully valid number on one line
        if (validMyKad(digits) && !raw.includes('\n') && !/^[ -]?\d/.test(text.slice(m.index + raw.length, m.index + raw.length + 2))) {
          out.push({ start: m.index, end: m.index + raw.length, type: 'MY_IC', score: 0.55, recognizer: 'my_ic', normalized: digits });
        }
        continue;
      }
      const valid = validMyKad(digits);
      // dots, slashes and underscores also separate dates and codes: only a fully valid number counts
      if (/[./_]/.test(raw) && !valid) continue;
      const dashed = /^\d{6}\s*[-\u2013]\s*\d{2}\s*[-\u2013]\s*\d{4}$/.test(raw);
      let score: number;
      if (valid) score = 0.9;
      else if (dashed && validIcBirthDate(digits.slice(0, 6)))
        score = 0.6; // typo'd PB code, still an IC
      else if (validIcBirthDate(digits.slice(0, 6)))
        score = 0.35; // an IC only with an IC label
      else continue;
      out.push({ start: m.index, end: m.index + raw.length, type: 'MY_IC', score, recognizer: 'my_ic', normalized: digits });
    }
    for (const m of text.matchAll(OLD_IC_RE)) {
      const window = labelWindow(text, m.index, 40);
      if (!windowHas(window, OLD_IC_CONTEXT)) continue;
      // the nearest label decides: "... MRN:" after an IC label means the value is not an IC
      const lastIc = Math.max(...['ic', 'i/c', 'kp', 'k/p', 'nric', 'mykad', 'kad pengenalan', 'lama', 'old'].map((w) => window.lastIndexOf(w)));
      if (/passport|pasport|mrn|\brn\b|r\/n|daftar|\breg\b|reg\.|registration n/.test(window.slice(lastIc))) continue;
      const strongOld = /old|lama/.test(window);
      out.push({
        start: m.index,
        end: m.index + m[0].length,
        type: 'MY_IC',
        score: strongOld ? 0.9 : 0.8,
        recognizer: 'my_ic_old',
        normalized: m[1].toUpperCase() + m[2],
        contextChecked: true, // its nearest label decided it
      });
    }
    // pre-1990s numeric old ICs ("No. KP lama: 4123456") only right after an explicit old-IC label
    for (const m of text.matchAll(OLD_NUMERIC_RE)) {
      const window = labelWindow(text, m.index, 30);
      if (!/(?:old\s*(?:ic|i\/c|nric|kp)|(?:ic|kp|k\/p|kad pengenalan)\s*(?:lama|\(old\)|\(lama\)))\s*(?:no\.?)?\s*[:\-]?\s*$/.test(window)) continue;
      out.push({ start: m.index, end: m.index + m[0].length, type: 'MY_IC', score: 0.85, recognizer: 'my_ic_old', normalized: m[0], contextChecked: true });
    }
    return out;
  },
};
