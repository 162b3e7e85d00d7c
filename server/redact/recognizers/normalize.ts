/**
 * Analysis-time text normalisation with an offset map back to the original text.
 *
 * Identifiers are written with look-alike characters: full-width digits (`８８０１０１`), em/en dashes, non-breaking and
 * figure dashes (`880101\u2011 14`), non-breaking spaces, zero-width spaces. The recognizers work on a normalised copy:
 * full-width forms and mathematical alphanumerics are NFKC-normalised (to ASCII), all dash-like characters become '-',
 * Unicode spaces become ' ', and zero-width / soft-hyphen characters are dropped. Offsets found in the copy are mapped
 * back to the original (UTF-16) offsets, so callers always see spans of the text they passed in.
 */

// dash-like characters (hyphen, non-breaking hyphen, figure dash, en dash, em dash, horizontal bar, minus, small and
// full-width hyphen-minus)
const DASHES = /[\u2010-\u2015\u2212\uFE58\uFE63\uFF0D]/;
// zero-width space / non-joiner / joiner, word joiner, BOM, soft hyphen: invisible, dropped
const INVISIBLE = /[\u200B-\u200D\u2060\uFEFF\u00AD]/;
// no-break, fixed-width and ideographic spaces: a plain space
const SPACES = /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/;

export interface NormalizedText {
  /** The text the recognizers analyse. */
  text: string;
  /** null when the text needed no change (identity map). */
  map: { start: Int32Array; end: Int32Array } | null;
}

/**
 * Characters that change under normalisation. Besides the dashes, spaces and invisible characters above: full-width
 * ASCII variants (ＡＢＣ１２３＠) and mathematical alphanumerics (𝟏𝟐𝟑), whose NFKC form is plain ASCII. Other characters
 * are left alone on purpose (NFKC would turn the micro sign of µmol/L into a Greek mu).
 */
const NEEDS_WORK = /[\u00A0\u00AD\u2000-\u2015\u202F\u205F\u2060\u2212\u3000\uFE58\uFE63\uFEFF\uFF01-\uFF5E]|\uD835[\uDC00-\uDFFF]/;

const SPECIAL_G = new RegExp(NEEDS_WORK.source, 'g');

export function normalizeText(text: string): NormalizedText {
  const nt = normalizeCharacters(text);
  // same length: the offset map stays valid
  return { text: fixOcrLookAlikes(nt.text), map: nt.map };
}

/**
 * Scanned forms read by OCR mix letters and digits that look alike: `0l2-682 2l35`, `O19-4193764`, `76O312-41-1151`,
 * `M0KHTAR`, `MAN5OR`, `Fadzi1`. For analysis only (the text returned to the caller is never changed), a token of
 * digits and look-alike letters (O o I l) reads as digits when it has three digits or more, or sits next to a group of
 * three digits or more across one separator; and a word with one 0 or 5 inside it (or a 1 inside or at the end of a
 * lower-case run) reads as letters when it has four letters or more in one consistent case. Clinical tokens keep their
 * shape: SpO2, HbA1c, T1DM, BRCA1, HER2, GLP1RA, O2 are not changed.
 */
const OCR_TOKEN_RE = /[A-Za-z0-9]+/g;
const LOOKALIKE_DIGITS_RE = /^[0-9OoIl]+$/;
export function fixOcrLookAlikes(text: string): string {
  if (!/[0-9]/.test(text)) return text;
  let out: string[] | null = null;
  let last = 0;
  const toks: Array<{ s: number; e: number; v: string }> = [];
  for (const m of text.matchAll(OCR_TOKEN_RE)) toks.push({ s: m.index, e: m.index + m[0].length, v: m[0] });
  const digitsOnly = (k: number) => k >= 0 && k < toks.length && /^\d{3,}$/.test(toks[k].v);
  const oneSep = (a: number, b: number) => b - a <= 1 && /^[-. /]?$/.test(text.slice(a, b));
  // a date's parts are two digits: "l6/09/1995"
  const datePart = (k: number, a: number, b: number) => k >= 0 && k < toks.length && /^\d{2,4}$/.test(toks[k].v) && text.slice(a, b) === '/';
  for (let k = 0; k < toks.length; k++) {
    const { s, e, v } = toks[k];
    let r: string | null = null;
    if (LOOKALIKE_DIGITS_RE.test(v) && /[OoIl]/.test(v)) {
      const d = v.replace(/[^0-9]/g, '').length;
      if (d >= 1 && d >= v.length - d) {
        const near =
          (digitsOnly(k - 1) && oneSep(toks[k - 1].e, s)) ||
          (digitsOnly(k + 1) && oneSep(e, toks[k + 1].s)) ||
          (k > 0 && datePart(k - 1, toks[k - 1].e, s)) ||
          (k + 1 < toks.length && datePart(k + 1, e, toks[k + 1].s));
        if (d >= 3 || near) r = v.replace(/[Oo]/g, '0').replace(/[Il]/g, '1');
      }
    } else if (/^[A-Za-z]+[015][A-Za-z]*$/.test(v) && v.length >= 5) {
      const i = v.search(/[015]/);
      const letters = v.slice(0, i) + v.slice(i + 1);
      const upper = /^[A-Z]+$/.test(letters);
      const title = /^[A-Z][a-z]+$/.test(letters) || /^[a-z]+$/.test(letters);
      const ch = v[i];
      const interior = i > 0 && i < v.length - 1;
      if (upper && interior && (ch === '0' || ch === '5')) r = v.slice(0, i) + (ch === '0' ? 'O' : 'S') + v.slice(i + 1);
      else if (title && (interior || /[a-z]/.test(v[i - 1]))) r = v.slice(0, i) + (ch === '0' ? 'o' : ch === '5' ? 's' : 'l') + v.slice(i + 1);
    }
    if (r !== null && r !== v) {
      out ??= [];
      out.push(text.slice(last, s), r);
      last = e;
    }
  }
  if (!out) return text;
  out.push(text.slice(last));
  return out.join('');
}

function normalizeCharacters(text: string): NormalizedText {
  if (!NEEDS_WORK.test(text)) return { text, map: null };
  // Never longer than the original: each replacement is one code unit or none (a mathematical letter, two code
  // units, becomes one), so the original length bounds the maps.
  const start = new Int32Array(text.length);
  const end = new Int32Array(text.length);
  const parts: string[] = [];
  let n = 0;
  let last = 0;
  const copy = (from: number, to: number) => {
    if (to <= from) return;
    parts.push(text.slice(from, to));
    for (let k = from; k < to; k++) {
      start[n] = k;
      end[n] = k + 1;
      n++;
    }
  };
  for (const m of text.matchAll(SPECIAL_G)) {
    const i = m.index;
    const ch = m[0];
    copy(last, i);
    let r: string;
    if (INVISIBLE.test(ch)) r = '';
    else if (DASHES.test(ch)) r = '-';
    else if (SPACES.test(ch)) r = ' ';
    else r = ch.normalize('NFKC');
    parts.push(r);
    for (let k = 0; k < r.length; k++) {
      start[n] = i;
      end[n] = i + ch.length;
      n++;
    }
    last = i + ch.length;
  }
  copy(last, text.length);
  return { text: parts.join(''), map: { start: start.subarray(0, n), end: end.subarray(0, n) } };
}

/** Map a half-open span of the normalised text back to the original text. */
export function toOriginalSpan(nt: NormalizedText, s: number, e: number): { start: number; end: number } {
  if (!nt.map) return { start: s, end: e };
  const { start, end } = nt.map;
  if (e <= s) {
    const p = s < start.length ? start[s] : s > 0 ? end[s - 1] : 0;
    return { start: p, end: p };
  }
  return { start: start[s], end: end[e - 1] };
}
