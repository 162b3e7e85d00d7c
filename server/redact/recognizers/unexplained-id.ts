/**
 * Default deny for identifiers (the Philter stance): every run of digits, or of letters and digits, with at least six
 * significant characters is an identifier unless the clinical allow-list explains it. It runs after the typed
 * recognizers (an IC, a phone, a card... keep their type) and before names; what nobody claimed and nothing explains
 * is redacted. Its type comes from the nearest label before it (`passport`, `a/c`, `IC`, `tel`...): the typed
 * recognizers' context words decide; an identifier with no label is an `MRN` (recognizer `unexplained_id`).
 *
 * What explains a number (so it stays):
 *  - a clinical region of the allow-list over its characters (date, time, age, vital, lab value, dose, money, code,
 *    ward/bed, obstetric score, post-op day, DRG...);
 *  - a lab or vital word right before it (`Plt 450000`, `WBC: 12 500`), or a numeric column of a table (`| Plt |`,
 *    `Amount (RM)`);
 *  - a unit right after it (`125000 copies/mL`, `150 000 cells/uL`, `1500000 IU`), a currency before it;
 *  - its own shape: a decimal number, a range of years or clock times, a compact date or time stamp (`20240315`,
 *    `20240315143022`), a reference range in brackets or after a range label (`(150000-400000)`);
 *  - a code-system label right before it (`SNOMED 22298006`, `LOINC 2345-7`, `ICD-9 250.00`).
 */
import type { Candidate, EntityType } from '../types';
import { F, normWord } from '../gazetteer';
import { labelWindow, tableCell, type AnalysisContext, type Recognizer } from './base';
import { isAnalyteWord } from './clinical-allow-list';

/** Minimum significant characters of an identifier, and the digits it needs (with or without letters). */
const MIN_DIGITS = 6;
const MIN_DIGITS_WITH_LETTERS = 5;
export const UNEXPLAINED_ID_SCORE = 0.6;

/** Words that label a value rather than belong to it: never the prefix of an identifier. */
const LABEL_WORDS = new Set([
  'ic',
  'nric',
  'kp',
  'rn',
  'mrn',
  'hrn',
  'urn',
  'ur',
  'hn',
  'no',
  'tel',
  'hp',
  'fax',
  'mob',
  'id',
  'acc',
  'ac',
  'a/c',
  'bp',
  'hr',
  'rr',
  'pr',
  'ref',
  'inv',
  'gl',
  'mmc',
  'apc',
  'tin',
  'sst',
  'pp',
  'ppt',
  'or',
  'and',
  'to',
  'at',
  'on',
  'in',
  'of',
  'by',
  'is',
  'dan',
  'ke',
  'di',
  'pt',
  'dob',
  'age',
  'ward',
  'bed',
  'wad',
  'katil',
  'rm',
  'myr',
  'usd',
  'sgd',
  'idr',
  'rp',
  'lot',
  'batch',
]);

/** Units that explain the number they follow. Lower case; matched as the next word (after an optional space). */
const UNIT_RE =
  /^[ \t]?(?:x[ \t]?10(?:\^|\*\*)?\d+|copies|copy|cells?|cfu|iu|u|units?|mg|mcg|ug|µg|g|gm|kg|ml|l|dl|mmol|umol|µmol|nmol|pmol|meq|mosm|%|\/ul|\/µl|\/mm3|\/mm|\/l|\/ml|\/hpf|\/min|bpm|mmhg|kpa|cm|mm|km|m|kcal|cal|steps|km\/h|ng|pg|tabs?|caps?|doses?|vials?|sachets?|bottles?|pcs|pieces|pax|people|persons|patients|cases|deaths|beds|admissions|visits|calls|views|sen|ringgit|dollars|rupiah|baht|kip|dong|pesos|taka|rupees)(?![a-z])/i;
const CURRENCY_BEFORE_RE = /(?:\b(?:rm|myr|usd|sgd|idr|rp|eur|gbp|aud|inr|bdt|npr|php|thb|vnd|mmk|cny|rmb|jpy|s\$|us\$)|[$£€¥₹])[ \t]?$/i;
const RANGE_LABEL_RE = /(?:\b(?:range|ref(?:erence)?|normal|nr|rr|n|julat|normal range|ref\.? range|target)[ \t]*[:=]?[ \t]*\(?[ \t]*)$/i;
const CODE_SYSTEM_RE =
  /\b(?:snomed(?:[ -]?ct)?|sctid|loinc|cpt|cpt4|hcpcs|icd[ -]?9(?:[ -]?cm)?|icd[ -]?o(?:[ -]?3)?|icd[ -]?10(?:[ -]?(?:cm|pcs|am))?|rxnorm|rxcui|ndc|atc|concept[ _]?id|omop|mdc|drg|ms-drg|ar-drg|opcs)[ \t]*(?:code)?[ \t]*[:#=]?[ \t]*$/i;
/** A medicine's lot or batch number, an expiry: product data, not the patient's. */
const PRODUCT_LABEL_RE = /\b(?:lot|batch|lot[ .]?no|batch[ .]?no|no[ .]?lot|no[ .]?batch|exp(?:iry)?|tarikh luput)[ \t]*[.:#=]?[ \t]*$/i;
/** Labels of amounts, counts and results: the number after them is a quantity, not an identifier. */
const AMOUNT_LABEL_RE =
  /\b(?:amount|amaun|jumlah|total|subtotal|price|harga|cost|kos|fee|fees|charges?|balance|baki|paid|payable|deposit|qty|quantity|count|volume|result|value|reading|level|score|units?|dose)["']?[ \t]*(?:\((?:rm|myr|usd|sgd)\))?[ \t]*[:=]?[ \t]*["']?$/i;
/** A card payment's approval or authorisation code: the transaction's, not the patient's. */
const TRANSACTION_LABEL_RE = /\b(?:approval|auth(?:ori[sz]ation)?)[ \t]*(?:code|no\.?)[ \t]*[.:#=]?[ \t]*$/i;
/** A lab / numeric column header: its cells are values, not identifiers. */
const NUMERIC_HEADER_RE =
  /\b(?:result|results|value|values|ref|reference|range|normal|julat|unit|units|count|counts|level|amount|amaun|jumlah|total|qty|quantity|price|harga|cost|kos|fee|fees|balance|baki|paid|dibayar|deposit|units?|dose|dos|reading|bacaan|score|skor|volume|weight|berat|rm|myr|usd)\b/i;

interface Group {
  s: number;
  e: number;
  digits: number;
  letters: number;
  upper: boolean;
}

const isDigit = (c: number) => c >= 48 && c <= 57;
const isUpperC = (c: number) => c >= 65 && c <= 90;
const isLowerC = (c: number) => c >= 97 && c <= 122;

function groupAt(text: string, s: number, e: number): Group {
  let digits = 0;
  let letters = 0;
  let upper = true;
  for (let k = s; k < e; k++) {
    const c = text.charCodeAt(k);
    if (isDigit(c)) digits++;
    else {
      letters++;
      if (isLowerC(c)) upper = false;
    }
  }
  return { s, e, digits, letters, upper };
}

/** A letters-only group that may open an identifier (`HSA.1234567`, `HTAR 7654321`, `K 123456`): a code, not a word. */
function codePrefix(ctx: AnalysisContext, g: Group, tight: boolean): boolean {
  // letters only, or a short hospital code with a digit in it (`HQE2`); glued to the number a code may mix case (`HSdg.`)
  if (g.letters + g.digits > 6 || (g.digits && g.letters < 2)) return false;
  // across a space a mixed-case code needs two capitals and at most three small letters after them ("HMel 2022 580326")
  if (!g.upper && !(tight ? /^[A-Z]{2}/.test(ctx.text.slice(g.s, g.e)) : /^[A-Z]{2,4}[a-z]{1,3}$/.test(ctx.text.slice(g.s, g.e)))) return false;
  const w = ctx.text.slice(g.s, g.e).toLowerCase();
  if (LABEL_WORDS.has(w)) return false;
  if (g.letters === 1) return true;
  // an ordinary or clinical word in capitals ("ICU", "BED") is not a hospital code; glued to the number it is
  return tight || isCodeWord(ctx, w);
}

/** May this all-caps word stand before a number as its hospital or agency code ("HTWU", "KKM", "HQE2")? */
function isCodeWord(ctx: AnalysisContext, lower: string): boolean {
  const f = ctx.lex.flags(normWord(lower));
  return (f & F.INSTITUTION) !== 0 || !(f & (F.COMMON | F.CLINICAL | F.ROLE | F.TITLE | F.MEDICAL));
}

/**
 * Where an identifier that starts at `start` really starts: a hospital-code prefix glued by `.`, `/`, `-` or one space
 * belongs to it ("HSNZ.9382044", "HKgu.1348163", "HTWU 7741937"), unless it is a label or an ordinary word.
 */
export function withCodePrefix(ctx: AnalysisContext, start: number): number {
  const text = ctx.text;
  const CODE_BEFORE = /(?<![A-Za-z0-9])([A-Z][A-Za-z0-9]{0,5})([./-]| )$/;
  let s = start;
  // a chain of at most two codes ("HPP/R/76852/21": HPP/ and R/)
  for (let round = 0; round < 2; round++) {
    const m = CODE_BEFORE.exec(text.slice(Math.max(0, s - 8), s));
    if (!m) break;
    const w = m[1];
    const lower = w.toLowerCase();
    if (LABEL_WORDS.has(lower) || /^[A-Z][a-z]+$/.test(w)) break; // a label, or a capitalised word
    if (m[2] === ' ') {
      // across a space: an all-caps code that is no ordinary word ("HTWU 7741937"), or an old IC's letter ("K 123456")
      // (or a hospital code in mixed case: "HMel 2022 580326", "HSdg 2024 319053")
      if (round > 0 || !(/^[A-Z0-9]+$/.test(w) || /^[A-Z]{2,4}[a-z]{1,3}$/.test(w))) break;
      if (w.length === 1 ? !/^\d{6,8}(?!\d)/.test(text.slice(start, start + 9)) : !isCodeWord(ctx, lower)) break;
    } else if (w.length === 1) {
      // a lone letter glued to the number counts only inside a longer chain ("HPP/R/76852/21"), not "A/1234567"
      const before = CODE_BEFORE.exec(text.slice(Math.max(0, s - m[0].length - 8), s - m[0].length));
      if (!before || before[2] === ' ' || before[1].length < 2) break;
    }
    s -= m[0].length;
  }
  return s;
}

/** May groups a and b be one identifier, given the text between them? */
function joins(ctx: AnalysisContext, a: Group, b: Group, gap: string): boolean {
  if (gap.length === 1) {
    const c = gap.charCodeAt(0);
    if (c === 45 || c === 47 || c === 46 || c === 95 || c === 35) {
      // '-' '/' '.' '_' '#': tight joins; one side carries digits, a letter side is a short code ("HPP/R/76852/21")
      if (!a.digits && !b.digits) return c !== 46 && a.upper && b.upper && a.letters <= 6 && b.letters <= 3 && codePrefix(ctx, a, true);
      if (!a.digits && !codePrefix(ctx, a, true)) return false;
      if (!b.digits && (b.letters > 4 || !b.upper)) return false;
      // a decimal point after a number with letters after it is a unit or word ("3.5mg")
      return true;
    }
    if (c === 32) {
      // one space: digits after digits (grouped numbers: 4-4-4-4, 6-2-4, 3-3-4), or a code prefix before digits.
      // Two long numbers side by side are two values ("701234567890 701234567891").
      if (b.letters || !b.digits) return false;
      if (a.letters === 0) return a.digits < 7 && b.digits < 7 && !(a.digits >= 5 && b.digits >= 5);
      return codePrefix(ctx, a, false);
    }
    return false;
  }
  // spaced dash or slash between digit groups ("700315 - 08 - 5123", "7012 / 3456")
  if (gap.length <= 5 && /^[ ]{1,2}[-/][ ]{1,2}$/.test(gap)) return !a.letters && !b.letters && a.digits > 0 && b.digits > 0;
  return false;
}

/** The runs of identifier-like groups in the text, as [start, end) pairs. */
function idRuns(ctx: AnalysisContext): Array<[number, number]> {
  const text = ctx.text;
  const out: Array<[number, number]> = [];
  let cur: Group[] = [];
  const flush = () => {
    // letters-only groups at the edges belong to the run only as prefixes (leading) or short suffixes
    while (cur.length && !cur[0].digits && !(cur.length > 1 && codePrefix(ctx, cur[0], cur[1].s === cur[0].e + 1 && text[cur[0].e] !== ' '))) cur.shift();
    while (cur.length && !cur[cur.length - 1].digits && cur[cur.length - 1].letters > 2) cur.pop();
    if (cur.length) {
      let digits = 0;
      for (const g of cur) digits += g.digits;
      if (digits >= MIN_DIGITS_WITH_LETTERS) out.push([cur[0].s, cur[cur.length - 1].e]);
    }
    cur = [];
  };
  const len = text.length;
  let i = 0;
  let prev: Group | undefined;
  const digitRe = /\d/g;
  let nextDigit = -1; // position of the next digit at or after i (-1: not looked up yet)
  while (i < len) {
    // jump over text with no digit in reach: an identifier needs digits, its prefix is at most ~14 characters before
    if (nextDigit < i) {
      digitRe.lastIndex = i;
      const d = digitRe.exec(text);
      nextDigit = d ? d.index : len;
    }
    if (nextDigit - i > 20) {
      if (cur.length) flush();
      prev = undefined;
      if (nextDigit >= len) break;
      let to = nextDigit - 16;
      while (to > i && /[A-Za-z0-9]/.test(text[to - 1])) to--; // the start of the word there (never behind i)
      i = Math.max(to, i + 1);
      continue;
    }
    const c = text.charCodeAt(i);
    if (!(isDigit(c) || isUpperC(c) || isLowerC(c))) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < len) {
      const d = text.charCodeAt(j);
      if (!(isDigit(d) || isUpperC(d) || isLowerC(d))) break;
      j++;
    }
    // a letters-only group matters only next to digits (a code prefix before them, a short suffix after): skip the
    // ordinary words of the text without looking at them further
    if (!(cur.length && prev && prev.digits)) {
      let digitNear = false;
      for (let k = i; k < j && !digitNear; k++) if (isDigit(text.charCodeAt(k))) digitNear = true;
      for (let k = j; k < j + 9 && k < len && !digitNear; k++) if (isDigit(text.charCodeAt(k))) digitNear = true;
      if (!digitNear) {
        if (cur.length) flush();
        prev = undefined;
        i = j;
        continue;
      }
    }
    const g = groupAt(text, i, j);
    // a random token or hash (provider ids "toolu_01A09q90qw90lq917835lq9", hex "ee4f5781bd09a2e06c"): lower-case
    // letters and digits interleaved, which no record number is
    if (g.digits >= 2 && /[a-z]/.test(text.slice(i, j)) && (text.slice(i, j).match(/[a-z]+\d|\d+[a-z]/g)?.length ?? 0) >= 3) {
      flush();
      prev = undefined;
      i = j;
      continue;
    }
    if (g.digits === 0 && g.letters > 6) {
      flush();
      prev = undefined;
      i = j;
      continue;
    }
    if (prev && cur.length && joins(ctx, prev, g, text.slice(prev.e, g.s))) cur.push(g);
    else {
      flush();
      cur = [g];
    }
    prev = g;
    i = j;
  }
  flush();
  return out;
}

/** The word (letters, '/', '.', '-') right before `pos` on its line, skipping short punctuation; lower case. */
function wordBefore(text: string, pos: number): string {
  let k = pos;
  let skipped = 0;
  while (k > 0 && skipped < 4 && /[ \t:=(\[|\-–,]/.test(text[k - 1])) {
    k--;
    skipped++;
  }
  const e = k;
  while (k > 0 && /[\p{L}\d.+/-]/u.test(text[k - 1]) && e - k < 24) k--;
  return text.slice(k, e);
}

/** Characters of a piece that count: digits and letters. */
function significant(text: string, s: number, e: number): { digits: number; letters: number } {
  let digits = 0;
  let letters = 0;
  for (let k = s; k < e; k++) {
    const c = text.charCodeAt(k);
    if (isDigit(c)) digits++;
    else if (isUpperC(c) || isLowerC(c)) letters++;
  }
  return { digits, letters };
}

const COMPACT_STAMP_RE = /^(?:19|20)\d\d(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])(?:(?:[01]\d|2[0-3])[0-5]\d(?:[0-5]\d(?:\d{1,3})?)?)?$/;
const STAMP_RE =
  /^(?:19|20)\d\d[-_.](?:0[1-9]|1[0-2])[-_.](?:0[1-9]|[12]\d|3[01])(?:[-_.T](?:[01]\d|2[0-3])[-_.:]?[0-5]\d(?:[-_.:]?[0-5]\d)?)?$|^(?:19|20)\d\d(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])[-_T](?:[01]\d|2[0-3])[0-5]\d(?:[0-5]\d)?$/;
const COMPACT_DMY_RE = /^(?:0[1-9]|[12]\d|3[01])(?:0[1-9]|1[0-2])(?:19|20)\d\d$/;
const YEAR_RANGE_RE = /^(?:19|20)\d\d[ ]?[-/][ ]?(?:(?:19|20)\d\d|\d\d)$/;
const TIME_RANGE_RE = /^(?:[01]\d|2[0-3])[0-5]\d[ ]?[-/][ ]?(?:[01]\d|2[0-3])[0-5]\d$/;
const DECIMAL_RE = /^(?:\d{1,9}\.\d{1,4}|\d{1,3}\.\d{1,6})$/;
const RANGE_RE = /^(\d{1,9}(?:\.\d{1,3})?)[ ]?-[ ]?(\d{1,9}(?:\.\d{1,3})?)$/;

/** Does the shape or the surroundings of the piece [s, e) explain it as clinical content? */
function explained(ctx: AnalysisContext, s: number, e: number): boolean {
  const text = ctx.text;
  const v = text.slice(s, e);
  const bare = v.replace(/[ ]/g, '');
  // a time stamp with any separators, after an optional word ("PHOTO-2025-05-08-17-20-08", "IMG_20240315_143022")
  if (STAMP_RE.test(bare.replace(/^[A-Za-z]+[-_.]/, ''))) return true;
  if (COMPACT_STAMP_RE.test(bare) || COMPACT_DMY_RE.test(bare) || YEAR_RANGE_RE.test(v) || TIME_RANGE_RE.test(v) || DECIMAL_RE.test(v)) return true;
  const lineStart = text.lastIndexOf('\n', s - 1) + 1;
  const before = text.slice(Math.max(lineStart, s - 40), s);
  const range = RANGE_RE.exec(v);
  // a range of decimals ("12.0-15.0", "3.5 - 5.1") is a reference range wherever it stands
  if (range && +range[1] < +range[2] && range[1].includes('.') && range[2].includes('.')) return true;
  // a short range of two numbers of at most four digits ("150-400", "135 - 145"), the first smaller, no leading zero
  if (
    range &&
    !range[1].includes('.') &&
    !range[2].includes('.') &&
    range[1].length <= 4 &&
    range[2].length <= 4 &&
    !/^0/.test(range[1]) &&
    +range[1] < +range[2]
  )
    return true;
  if (range && +range[1] < +range[2]) {
    const bracketed = /\([ ]*$/.test(before) && /^[ ]*\)/.test(text.slice(e, e + 3));
    if (bracketed || RANGE_LABEL_RE.test(before)) return true;
  }
  if (CURRENCY_BEFORE_RE.test(before) || CODE_SYSTEM_RE.test(before) || PRODUCT_LABEL_RE.test(before) || TRANSACTION_LABEL_RE.test(before)) return true;
  // a value labelled as an amount, a count or a result ("amount": 12345678901234567890, Total = 1250000)
  if (AMOUNT_LABEL_RE.test(before)) return true;
  // a WhatsApp attachment's running number ("00000069-PHOTO-2025-05-08-17-20-08.jpg")
  if (/^-(?:PHOTO|VIDEO|AUDIO|STICKER|DOC|GIF|PTT)-/.test(text.slice(e, e + 9))) return true;
  // the header segment of an HL7 message is routing metadata (message id, time stamp, version), never the patient's
  if (text.startsWith('MSH|', lineStart)) return true;
  if (UNIT_RE.test(text.slice(e, e + 16))) return true;
  const w = wordBefore(text, s);
  if (w && (isAnalyteWord(w) || w.split('/').every((p) => p && isAnalyteWord(p)))) return true;
  const cell = tableCell(ctx, s, e);
  if (cell) {
    // a lab row: the value, or its reference range, in a row that starts with an analyte ("| Plt | 165000 | /uL | 150000-400000 |")
    if (cell.at > 0 && (isAnalyteWord(cell.cells[cell.at - 1]) || isAnalyteWord(cell.cells[0] || cell.cells[1] || ''))) return true;
    if (cell.header && (isAnalyteWord(cell.header) || NUMERIC_HEADER_RE.test(cell.header))) return true;
  }
  return false;
}

/** Context words too generic to type a value ("number 8410...", "ID ...", "line ..."): the value stays MRN. */
const GENERIC_LABELS = new Set([
  'number',
  'no',
  'no.',
  'id',
  'line',
  'home',
  'office',
  'ext',
  'call',
  'called',
  'contact',
  'reachable',
  'identification',
  'mr',
]);

export interface TypeHint {
  entity: EntityType;
  contextWords: readonly string[];
}

/** The type of an unexplained identifier: the recognizer whose context word is nearest before it; MRN otherwise. */
function typeOf(ctx: AnalysisContext, s: number, hints: readonly TypeHint[]): EntityType {
  // a label glued to "no" ("passportno", "icno", "acctno") counts as the label
  const window = labelWindow(ctx.text, s, 40).replace(/([a-z])(no|num|number)(?=[^a-z]|$)/g, '$1 $2');
  let best: EntityType = 'MRN';
  let bestAt = -1;
  for (const h of hints) {
    for (const w of h.contextWords) {
      if (w.length < 2 || GENERIC_LABELS.has(w)) continue;
      let i = window.lastIndexOf(w);
      while (i >= 0) {
        const b = i === 0 ? ' ' : window[i - 1];
        const a = i + w.length >= window.length ? ' ' : window[i + w.length];
        if (!/[a-z0-9]/.test(b) && !/[a-z]/.test(a)) break;
        i = i > 0 ? window.lastIndexOf(w, i - 1) : -1;
      }
      if (i > bestAt || (i === bestAt && i >= 0 && h.entity === 'MRN')) {
        if (i >= 0) {
          bestAt = i;
          best = h.entity;
        }
      }
    }
  }
  return best;
}

/** Find unexplained identifiers. `hints`: the typed recognizers' entity types and context words. */
export function findUnexplainedIds(ctx: AnalysisContext, hints: readonly TypeHint[]): Candidate[] {
  const text = ctx.text;
  const taken = new Uint8Array(text.length);
  for (const o of ctx.occupied) taken.fill(1, o.start, o.end);
  const prot = ctx.idProtectionMask;
  const out: Candidate[] = [];
  for (const [rs, re] of idRuns(ctx)) {
    // the pieces of the run that nothing explains yet (not an entity, not a clinical region)
    let k = rs;
    while (k < re) {
      while (k < re && (taken[k] || prot[k])) k++;
      let e = k;
      while (e < re && !taken[e] && !prot[e]) e++;
      let s = k;
      k = e;
      // trim separators at the edges of the piece
      while (s < e && !/[A-Za-z0-9]/.test(text[s])) s++;
      while (e > s && !/[A-Za-z0-9]/.test(text[e - 1])) e--;
      if (e <= s) continue;
      // a letters-only head that is a label word is not part of the value
      const head = /^([A-Za-z]+)([ ./#_-]+)/.exec(text.slice(s, e));
      if (head && LABEL_WORDS.has(head[1].toLowerCase())) s += head[0].length;
      const { digits, letters } = significant(text, s, e);
      if (!(digits >= MIN_DIGITS || (digits >= MIN_DIGITS_WITH_LETTERS && letters >= 1))) continue;
      if (explained(ctx, s, e)) continue;
      out.push({
        start: s,
        end: e,
        type: typeOf(ctx, s, hints),
        score: UNEXPLAINED_ID_SCORE,
        recognizer: 'unexplained_id',
        normalized: text
          .slice(s, e)
          .toUpperCase()
          .replace(/[^0-9A-Z]/g, ''),
        contextChecked: true, // its labels typed it
      });
    }
    ctx.checkDeadline();
  }
  return out;
}

/**
 * The sweep as a registry recognizer. It is a fallback: it runs after the typed identifiers are resolved, so
 * `ctx.occupied` holds them; the typed recognizers' context words (`ctx.typedRecognizers`) decide its types.
 */
export const unexplainedIdRecognizer: Recognizer = {
  name: 'unexplained_id',
  entity: 'MRN',
  contextWords: [],
  baseScore: UNEXPLAINED_ID_SCORE,
  fallback: true,
  analyze: (ctx) => findUnexplainedIds(ctx, ctx.typedRecognizers),
};
