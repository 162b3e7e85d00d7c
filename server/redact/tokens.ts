/**
 * Word tokenizer shared by the PERSON and clinical recognizers. Offsets are UTF-16 code units.
 */
import { normWord, type Gazetteer } from './gazetteer';

export type Shape = 'cap' | 'upper' | 'lower' | 'initial' | 'num' | 'punct';

export interface Token {
  idx: number;
  start: number;
  end: number;
  text: string;
  norm: string;
  shape: Shape;
  flags: number;
  line: number;
  /** The token ended with a possessive 's that was cut off (<name>'s -> <name>). */
  possessive: boolean;
}

const LETTER_RE = /\p{L}/u;
const UPPER_RE = /\p{Lu}/u;
const LOWER_RE = /\p{Ll}/u;

const isUp = (c: number) => c >= 65 && c <= 90;
const isLo = (c: number) => c >= 97 && c <= 122;

function shapeOf(w: string): Shape {
  const c0 = w.charCodeAt(0);
  if (c0 >= 48 && c0 <= 57) return 'num';
  // ASCII fast path
  let ascii = true;
  for (let i = 0; i < w.length; i++)
    if (w.charCodeAt(i) > 127) {
      ascii = false;
      break;
    }
  if (ascii) {
    if (!isUp(c0) && !isLo(c0)) return 'punct';
    if (w.includes('/')) return isLo(c0) ? 'lower' : w === w.toUpperCase() ? 'upper' : 'cap';
    if (isLo(c0)) return 'lower';
    let letters = 0;
    let lower = false;
    for (let i = 0; i < w.length; i++) {
      const c = w.charCodeAt(i);
      if (isUp(c)) letters++;
      else if (isLo(c)) {
        letters++;
        lower = true;
      }
    }
    if (letters === 1) return 'initial';
    return lower ? 'cap' : 'upper';
  }
  const first = String.fromCodePoint(w.codePointAt(0)!);
  if (!LETTER_RE.test(first)) return 'punct';
  if (w.includes('/')) return LOWER_RE.test(first) ? 'lower' : w === w.toUpperCase() ? 'upper' : 'cap';
  if (!UPPER_RE.test(first)) return 'lower';
  const letters = w.replace(/[^\p{L}]/gu, '');
  if (letters.length === 1) return 'initial';
  if (!LOWER_RE.test(letters)) return 'upper';
  return 'cap';
}

const WORDCHAR_RE = /[\p{L}\p{M}]/u;

function isWordCode(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 128) return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  if (c >= 0xd800 && c <= 0xdbff) return WORDCHAR_RE.test(text.slice(i, i + 2));
  return WORDCHAR_RE.test(text[i]);
}

/** Where the word running through `i` ends: letters and marks, an inner apostrophe or hyphen (O'Neil, Abdul-
 * Rahman), and a final apostrophe (Dato'). */
function wordEnd(text: string, i: number, len: number): number {
  while (i < len) {
    if (isWordCode(text, i)) {
      i += text.charCodeAt(i) >= 0xd800 && text.charCodeAt(i) <= 0xdbff ? 2 : 1;
      continue;
    }
    const d = text.charCodeAt(i);
    if ((d === 39 || d === 0x2019 || d === 45) && i + 1 < len && isWordCode(text, i + 1)) {
      i++;
      continue;
    }
    if ((d === 39 || d === 0x2019) && !(i + 1 < len && isWordCode(text, i + 1))) i++; // Dato'
    break;
  }
  return i;
}

/**
 * Hand-rolled scanner (a regex with Unicode classes was the hot spot on 100 KB notes): words (letters/marks with
 * inner apostrophes or hyphens, optional trailing apostrophe as in Dato'), a/l a/p s/o d/o, digit runs, and single
 * other characters.
 */
export function tokenize(text: string, lex: Gazetteer): Token[] {
  const out: Token[] = [];
  const len = text.length;
  let line = 0;
  let i = 0;
  while (i < len) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      line++;
      i++;
      continue;
    }
    if (c === 32 || c === 9 || c === 13 || c === 0xa0) {
      i++;
      continue;
    }
    const start = i;
    let kind: 'word' | 'num' | 'other';
    if (c >= 48 && c <= 57) {
      kind = 'num';
      i++;
      while (i < len) {
        const d = text.charCodeAt(i);
        if (d < 48 || d > 57) break;
        i++;
      }
    } else if (isWordCode(text, i)) {
      kind = 'word';
      // letter/letter abbreviations as one word: a/l a/p s/o d/o, S/N, J/M, K/P, H/P, a/c, c/o
      const n1 = text.charCodeAt(i + 1);
      if (
        n1 === 47 &&
        /[A-Za-z]/.test(text[i + 2] ?? '') &&
        !(i > 0 && /[A-Za-z0-9/]/.test(text[i - 1])) &&
        !(i + 3 < len && (isWordCode(text, i + 3) || /[\d/]/.test(text[i + 3])))
      ) {
        i += 3;
      } else if (c < 128) {
        // ASCII fast path: scan the word and work out its shape in one pass
        let upper = 0;
        let lowerN = 0;
        let j = i;
        let plain = true; // only letters
        while (j < len) {
          const d = text.charCodeAt(j);
          if (d >= 97 && d <= 122) {
            lowerN++;
            j++;
          } else if (d >= 65 && d <= 90) {
            upper++;
            j++;
          } else if (d >= 128) {
            if (!isWordCode(text, j)) break;
            plain = false;
            j += d >= 0xd800 && d <= 0xdbff ? 2 : 1;
          } else if ((d === 39 || d === 45) && j + 1 < len && isWordCode(text, j + 1)) {
            plain = false;
            j++;
          } else {
            if (d === 39 && !(j + 1 < len && isWordCode(text, j + 1))) {
              plain = false;
              j++; // Dato'
            }
            break;
          }
        }
        if (j < len && text.charCodeAt(j) === 0x2019 && !(j + 1 < len && isWordCode(text, j + 1))) {
          plain = false;
          j++;
        }
        if (plain) {
          const w = text.slice(start, j);
          const shape: Shape = upper === 0 ? 'lower' : upper + lowerN === 1 ? 'initial' : lowerN === 0 ? 'upper' : c >= 97 ? 'lower' : 'cap';
          const norm = upper === 0 ? w : w.toLowerCase();
          out.push({ idx: out.length, start, end: j, text: w, norm, shape, flags: lex.flags(norm), line, possessive: false });
          i = j;
          continue;
        }
        i = wordEnd(text, start + 1, len);
      } else {
        i = wordEnd(text, i + (c >= 0xd800 && c <= 0xdbff ? 2 : 1), len);
      }
    } else {
      // a '.' glued to the previous word (b. bt. Hj. Dr. T. initials) belongs to that word's gap, not a token
      if (c === 46 && out.length && out[out.length - 1].end === i && out[out.length - 1].shape !== 'num' && out[out.length - 1].shape !== 'punct') {
        i++;
        continue;
      }
      kind = 'other';
      i += c >= 0xd800 && c <= 0xdbff && i + 1 < len ? 2 : 1;
    }
    let w = text.slice(start, i);
    let possessive = false;
    if (kind === 'word') {
      const L = w.length;
      if (L > 3 && (w[L - 1] === 's' || w[L - 1] === 'S') && (w[L - 2] === "'" || w[L - 2] === '\u2019')) {
        w = w.slice(0, L - 2);
        possessive = true;
      }
    }
    const shape: Shape = kind === 'num' ? 'num' : kind === 'other' ? 'punct' : shapeOf(w);
    const norm = kind === 'word' ? normWord(w) : w;
    out.push({
      idx: out.length,
      start,
      end: start + w.length,
      text: w,
      norm,
      shape,
      flags: kind === 'word' ? lex.flags(norm) : 0,
      line,
      possessive,
    });
  }
  return out;
}

/**
 * True when only 1-2 spaces (no tab, newline or punctuation) separate a and b: words of one phrase. Wider gaps
 * separate the columns of a form ("Name: Tan Ah Kow     Hospital No. ...").
 */
export function inlineGap(text: string, a: Token, b: Token): boolean {
  const w = b.start - a.end;
  if (w < 1 || w > 2) return false;
  for (let k = a.end; k < b.start; k++) {
    const c = text.charCodeAt(k);
    if (c !== 32 && c !== 0xa0) return false;
  }
  return true;
}

/** Like inlineGap but also allows one '.' directly after `a` (abbreviations such as b., bt., Hj., Dr.). */
export function inlineGapDot(text: string, a: Token, b: Token): boolean {
  let k = a.end;
  const dot = text.charCodeAt(k) === 46;
  if (dot) k++;
  if (b.start - k > 2 || (!dot && k >= b.start)) return false; // "Dr.Lee": after a dot no space is needed
  for (; k < b.start; k++) {
    const c = text.charCodeAt(k);
    if (c !== 32 && c !== 0xa0) return false;
  }
  return true;
}

/**
 * Lines typed without capitals (quick notes): no capitalised word and at least three lower-case words; or the whole
 * text, when it has (almost) no capitalised words at all. Returned per line index.
 */
export function lowerCaseLines(toks: readonly Token[], lineCount: number): Uint8Array {
  const cap = new Uint32Array(lineCount);
  const low = new Uint32Array(lineCount);
  let capAll = 0;
  let lowAll = 0;
  for (const t of toks) {
    if (t.shape === 'cap' || t.shape === 'upper') {
      cap[t.line]++;
      capAll++;
    } else if (t.shape === 'lower') {
      low[t.line]++;
      lowAll++;
    }
  }
  const docLower = lowAll >= 5 && capAll <= lowAll * 0.03;
  const out = new Uint8Array(lineCount);
  for (let l = 0; l < lineCount; l++) out[l] = docLower || (cap[l] === 0 && low[l] >= 3) ? 1 : 0;
  return out;
}
