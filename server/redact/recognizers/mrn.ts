/**
 * Hospital registration / medical record numbers. Formats are local to each hospital, so the evidence is mostly a
 * label just before the value (MRN, RN, No. Pendaftaran, Hosp no ...) or a column header that names the column.
 * Without a label only distinctive shapes count:
 *  - HOSPITALCODE/YEAR/SERIAL (`ABC/2023/045123`) and letter-dash-digits (`KK-123456`, `12-345678`);
 *  - a leading-zero 7-10 digit number, or 1-2 letters + 6-8 digits, which are rarely anything else in clinical text;
 *  - an identifier in brackets right after a person's name ("Referral - <name> (<id>)");
 *  - an identifier in a table row that is an identity line (a name and an IC-shaped value in the same row), or in
 *    a column whose header names an identifier (RN, MRN, ID, No. Pendaftaran).
 * Right after its label (`RN: HSB/ICU/24/0712`, `MRN HSNZ 098 3321`, `No. Daftar KK: KKP/ANC/2024/0087`) a record number
 * may take any local shape: letter and digit groups joined by `/`, `-` or single spaces, with at least four digits.
 * A number right after a lab or analyte word (`Plt (450000)`, `Hb | 12.3 | Plt | 250000 |`, `Cultures (1234567)`) is
 * a result, never a record number, whatever its shape.
 */
import type { Candidate } from '../types';
import { F, NAME_FLAGS, VOCAB_FLAGS } from '../gazetteer';
import type { Token } from '../tokens';
import { labelWindow, tableCell, tableCells, windowHas, type AnalysisContext, type Recognizer } from './base';
import { isAnalyteWord } from './clinical-allow-list';
import { withCodePrefix } from './unexplained-id';

const CONTEXT = [
  'mrn',
  'm.r.n',
  'mrn no',
  'rn',
  'r/n',
  'r.n',
  'reg no',
  'reg. no',
  'registration no',
  'registration number',
  'reg',
  'no. pendaftaran',
  'no pendaftaran',
  'pendaftaran',
  'no. daftar',
  'no daftar',
  'daftar',
  'hosp no',
  'hosp. no',
  'hospital no',
  'hospital number',
  'medical record',
  'medical record no',
  'record no',
  'rekod',
  'no. rekod',
  'rekod perubatan',
  'case no',
  'patient id',
  'pt id',
  'id pesakit',
  'patient no',
  'hrn',
  'ur no',
  'mr no',
  'file no',
  'no. fail',
  'fail',
  'admission no',
  'admission number',
  'visit no',
  'episode no',
  'encounter no',
  'hn',
  'mr no',
  'mr#',
];
// a record-number shape: optional letter prefix (with or without a separator), optional year part, digits, optional suffix
const VALUE_RE = /(?<![\w/-])(?:[A-Z]{1,6}[/-])?(?:\d{2,4}[/-])?[A-Z]{0,3}\d{3,12}(?:[/-]\d{1,8})?(?![\w/-]|\.\d)/gi;
const STRONG_RE = /^[A-Z]{2,6}\/\d{2,4}\/\d{4,9}$/i;
const WEAK_RE = /^(?:[A-Z]{1,4}-\d{5,9}|\d{2}-\d{6,7})$/i;
// Unlabelled values that are almost always record numbers in clinical text: a leading zero, or 1-2 letters + digits.
const BARE_ID_RE = /^(?:0\d{6,9}|[A-Z]{1,2}\d{6,8})$/i;
// a 12-digit IC shape (with or without separators) in a row makes the row an identity line
const IC_SHAPE_RE = /(?<!\d)\d{6}[ -]?\d{2}[ -]?\d{4}(?!\d)/;
// labels of other reference numbers: an unlabelled record-number shape after one of them is not a record number
const OTHER_REF = [
  'receipt',
  'resit',
  'invoice',
  'inv',
  'ref',
  'reference',
  'rujukan',
  'policy',
  'polisi',
  'claim',
  'order',
  'batch',
  'lot',
  'serial',
  'transaction',
  'txn',
  'bill',
  'bil',
  'voucher',
  'tracking',
  'booking',
  'ticket',
  'donor',
  'penderma',
  'inmate',
  'employee',
  'staff',
  'mmc',
  'apc',
  'license',
  'licence',
  'permit',
  'gl',
  'lab no',
  'specimen',
  'accession',
];
// column headers that name an identifier column (`RN`, `MRN_NO`, `Patient ID`, `No. Pendaftaran`, `Hosp. no`)
const ID_HEADER_RE =
  /^(?:mrn|m\.r\.n\.?|rn|r\/n|hn|ur|id|patient id|pt id|hosp(?:ital)?\.? no\.?|reg(?:istration)?\.? no\.?|no\.? (?:pendaftaran|daftar|rekod|fail|rn|mrn)|record no\.?|case no\.?|mr no\.?)$/i;
const ID_HEADER_WORD_RE = /(?:^|[^a-z])(?:mrn|rn|hn|hrn|urn?|pendaftaran|daftar|rekod|registration|record|reg[^a-z]{0,3}no)(?:[^a-z]|$)/i;

/**
 * Labels a record number follows directly: the label, optionally "no."/"number", a short bracket ("RN (baby)") or one
 * naming word ("No. Rekod Hospital", "No. Daftar KK"), then punctuation. "Mr" is not among them (Mr Tan).
 */
const ADJACENT_LABELS = CONTEXT.filter((w) => w !== 'mr' && w !== 'fail').map((w) => w.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
const ADJACENT_LABEL_RE = new RegExp(
  `(?:^|[^a-z0-9])(?:${ADJACENT_LABELS.join('|')})\\.?(?:\\s*(?:no\\.?|number|num\\.?|#))?(?:\\s*\\([a-z ]{1,12}\\))?(?:\\s+(?:hospital|hosp\\.?|pesakit|patient|kk|klinik|baby|bayi|ibu|mother))?\\s*[:#.=|-]?\\s*$`,
);
// letter/digit groups joined by "/", "-" or one space: the shapes a labelled record number may take
const LABELLED_RE = /(?<![\w/@.-])[A-Za-z0-9]{1,12}(?:(?: ?[/-] ?|\.| )[A-Za-z0-9]{1,12}){0,6}/g; // a tab separates cells
const CONTEXT_SET = new Set(CONTEXT);
const LABEL_SCAN_RE = new RegExp(`(?<![a-z0-9])(?:${ADJACENT_LABELS.join('|')})(?![a-z0-9])`, 'gi');
const CELL_RE = /^[A-Za-z0-9]{1,12}(?:(?: ?[/-] ?|\.| )[A-Za-z0-9]{1,12}){0,6}$/;

function firstTokenAtOrAfter(toks: readonly Token[], pos: number): number {
  let lo = 0;
  let hi = toks.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (toks[mid].start < pos) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The word token just before `pos`, skipping brackets, colons, pipes and similar punctuation on the same line. */
function wordBefore(ctx: AnalysisContext, pos: number): Token | undefined {
  const toks = ctx.tokens;
  let k = firstTokenAtOrAfter(toks, pos) - 1;
  let skipped = 0;
  while (k >= 0 && toks[k].shape === 'punct' && skipped < 3) {
    if (toks[k].text === '\n') return undefined;
    k--;
    skipped++;
  }
  if (k < 0) return undefined;
  const t = toks[k];
  if (ctx.text.slice(t.end, pos).includes('\n')) return undefined;
  return t.shape === 'num' || t.shape === 'punct' ? undefined : t;
}

/** A word that could be (the end of) a person's name: capitalised, not ordinary or clinical vocabulary. */
function nameLike(t: Token | undefined): boolean {
  if (!t || !(t.shape === 'cap' || t.shape === 'upper')) return false;
  if (isAnalyteWord(t.text)) return false;
  if (t.flags & NAME_FLAGS) return !(t.flags & (F.CLINICAL | F.INSTITUTION | F.PLACE));
  return !(t.flags & (VOCAB_FLAGS | F.TITLE | F.EPONYM_HEAD)) && t.text.length >= 2;
}

/** "<name> (<id>)": an identifier in brackets right after a person's name. */
function identityBracket(ctx: AnalysisContext, s: number, e: number): boolean {
  const text = ctx.text;
  if (!/\p{L}[ \t]*\([ \t]*$/u.test(text.slice(Math.max(0, s - 4), s)) || !/^[ \t]*\)/.test(text.slice(e, e + 3))) return false;
  return nameLike(wordBefore(ctx, s));
}

/**
 * An identifier in a table: its column header names an identifier (`| RN |`, `No. Pendaftaran`), or, without a
 * header, the row is an identity line (a cell with a capitalised multi-word name and another with an IC-shaped number).
 * A cell right after an analyte cell (`| Plt | 250000 |`) is a lab result.
 */
function identityRow(ctx: AnalysisContext, s: number, e: number): 0 | 0.6 | 0.85 {
  const cell = tableCell(ctx, s, e);
  if (!cell) return 0;
  const { cells, at, header } = cell;
  if (at > 0 && isAnalyteWord(cells[at - 1])) return 0;
  if (header !== undefined) return header !== null && (ID_HEADER_RE.test(header) || (header.length <= 24 && ID_HEADER_WORD_RE.test(header))) ? 0.85 : 0;
  const hasIc = cells.some((c, i) => i !== at && IC_SHAPE_RE.test(c) && c.replace(/\D/g, '').length === 12);
  const hasName = cells.some((c, i) => i !== at && /^\p{Lu}[\p{L}'.-]*(?:[ \t]+[\p{L}'./@-]+){1,6}$/u.test(c) && !isAnalyteWord(c.split(/\s+/)[0]));
  return hasIc && hasName ? 0.6 : 0;
}

export const mrnRecognizer: Recognizer = {
  name: 'mrn',
  entity: 'MRN',
  contextWords: CONTEXT,
  contextWindow: 36,
  contextBoost: 0.5,
  baseScore: 0.9,
  analyze(ctx: AnalysisContext): Candidate[] {
    const out: Candidate[] = [];
    const text = ctx.text;
    for (const m of text.matchAll(VALUE_RE)) {
      const v = m[0];
      const nd = v.replace(/\D/g, '').length;
      if (nd < 5) continue;
      if (m.index > 1 && text[m.index - 1] === '.' && /\d/.test(text[m.index - 2])) continue; // decimal part
      const end = m.index + v.length;
      const window = labelWindow(text, m.index, 36);
      // a value right after a lab / analyte word is a result ("Plt (450000)", "Hb: 0123456"), whatever its shape
      const before = wordBefore(ctx, m.index);
      const afterAnalyte = before !== undefined && isAnalyteWord(before.text) && !windowHas(window.slice(-12), CONTEXT);
      // a record-number label before it lifts any record-number shape (the engine's context step); alone, the shape
      // decides
      let score = 0;
      if (STRONG_RE.test(v) && !afterAnalyte) score = 0.85;
      else if (afterAnalyte || (!windowHas(window, CONTEXT) && windowHas(window.slice(-24), OTHER_REF))) score = 0;
      else {
        const row = nd >= 5 ? identityRow(ctx, m.index, end) : 0;
        if (row) score = row;
        else if (nd >= 6 && identityBracket(ctx, m.index, end)) score = 0.6;
        else if (WEAK_RE.test(v)) score = 0.6;
        else if (BARE_ID_RE.test(v)) score = 0.55;
        else score = 0.4;
      }
      if (!score) continue;
      out.push({ start: m.index, end, type: 'MRN', score, recognizer: 'mrn', normalized: v.toUpperCase().replace(/\s+/g, '') });
    }
    for (const c of labelledValues(ctx)) if (!out.some((o) => o.start === c.start && o.end === c.end)) out.push(c);
    // a hospital-code prefix belongs to the number ("HSNZ.9382044", "HTWU 7741937")
    for (const c of out) {
      const s = withCodePrefix(ctx, c.start);
      if (s < c.start) {
        c.start = s;
        c.normalized = text.slice(s, c.end).toUpperCase().replace(/\s+/g, '');
      }
    }
    return out;
  },
};

/**
 * Record numbers in any local shape right after their label. The groups of a match are read left to right: a label
 * word, or an ordinary word before any digits, moves the start past it ("RN KKJ/DOM/0219", "ED reg ED24-009114"); an
 * ordinary word after digits ends the value ("RN 0045123 Wad 5"). What is left needs four digits, one group of three,
 * and its label right before it (or a column header that names an identifier); an IC-shaped value is left to the IC
 * recognizer.
 */
function labelledValues(ctx: AnalysisContext): Candidate[] {
  const text = ctx.text;
  const out: Candidate[] = [];
  const seen = new Set<number>();
  const consider = (at: number, run: string, inTable: boolean) => {
    if (seen.has(at) || !/\d/.test(run)) return;
    seen.add(at);
    const parts = run.split(/( ?[/-] ?|\.| )/); // group, separator, group, ...
    let first = 0;
    let last = -1;
    let digits = false;
    let off = at;
    const prot = ctx.idProtectionMask;
    for (let i = 0; i < parts.length; i += 2) {
      const g = parts[i];
      const gs = off;
      off += g.length + (parts[i + 1]?.length ?? 0);
      // a clinical value ends the number ("RN 870 - 54M": the age is not part of it)
      let guarded = false;
      for (let k = gs; k < gs + g.length; k++) if (prot[k]) guarded = true;
      if (guarded && digits) break;
      const word = !/\d/.test(g);
      const spaced = i > 0 && parts[i - 1] === ' ';
      // a hospital code in mixed case before the number ("HSdg 2024 319053", "HMel 2022 580326") is part of it
      const hospitalCode = word && /^[A-Z]{2,4}[a-z]{1,3}$/.test(g) && !CONTEXT_SET.has(g.toLowerCase());
      if (word && !hospitalCode && (CONTEXT_SET.has(g.toLowerCase()) || (g !== g.toUpperCase() && !/^[A-Z]{2,}[a-z][A-Z]$/.test(g)))) {
        if (!digits) {
          first = i + 2;
          continue;
        }
        break;
      }
      if (word && digits && spaced) break; // "0045123 WAD": a word after the number
      if (!word) {
        digits = true;
        last = i;
      }
    }
    if (last < first) return;
    const value = parts.slice(first, last + 1).join('');
    const nd = value.replace(/\D/g, '').length;
    // four digits with letters (YDI-0291), five without (a bare 4-digit number after "rekod" is a year)
    if (nd < (/[a-z]/i.test(value) ? 4 : 5) || !/\d{3}/.test(value) || (nd === 12 && IC_SHAPE_RE.test(value))) return;
    const start = at + parts.slice(0, first).join('').length;
    const ok = inTable ? identityRow(ctx, start, start + value.length) === 0.85 : ADJACENT_LABEL_RE.test(labelWindow(text, start, 40));
    if (ok)
      out.push({
        start,
        end: start + value.length,
        type: 'MRN',
        score: 0.9,
        recognizer: 'mrn',
        normalized: value.toUpperCase().replace(/\s+/g, ''),
        contextChecked: true,
      });
  };
  // right after a label: the runs that start within a few characters of it
  for (const l of text.matchAll(LABEL_SCAN_RE)) {
    const from = l.index + l[0].length;
    for (const m of text.slice(from, from + 100).matchAll(LABELLED_RE)) {
      if (m.index > 40) break;
      consider(from + m.index, m[0], false);
    }
  }
  // a whole table cell in a column whose header names an identifier
  for (const c of tableCells(ctx)) if (/\d/.test(c.value) && CELL_RE.test(c.value)) consider(c.start, c.value, true);
  return out;
}
