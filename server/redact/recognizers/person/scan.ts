/**
 * The state every stage of the PERSON recognizer shares: the tokens and their roles, the names accepted so far, and
 * the geometry helpers (lines, joins between words, the text around a word, clinical protection).
 */
import { F, VOCAB_FLAGS, type Gazetteer } from '../../gazetteer';
import { inlineGap, inlineGapDot, type Token } from '../../tokens';
import type { AnalysisContext } from '../base';

/** What a token is for name finding (see roles.ts). */
export type Role = 'title' | 'conn' | 'prefix' | 'name' | 'amb' | 'unk' | 'vocab' | 'initial' | 'lname' | 'lower' | 'other' | 'blocked';

/** A run of tokens [first, last] (token indexes, inclusive). */
export interface Run {
  first: number;
  last: number;
}

/** An accepted name: its run, its score, whether strong context vouched for it, and whether it was written in lower case. */
export interface ScoredRun extends Run {
  score: number;
  strongCue: boolean;
  lower: boolean;
}

export interface PersonScan {
  readonly ctx: AnalysisContext;
  readonly text: string;
  readonly lex: Gazetteer;
  readonly toks: Token[];
  readonly n: number;
  readonly norms: readonly string[];
  readonly lineStarts: readonly number[];
  /** Role of every token; filled by assignRoles, refined by later stages. */
  readonly role: Role[];
  /** The names found so far, by every stage. */
  readonly accepted: ScoredRun[];
  /** Highest clinical protection over [s, e), 0..1 (what a PERSON candidate must beat). */
  maxProt(s: number, e: number): number;
  /** Is any character of [s, e) taken by an identifier? */
  isOccupied(s: number, e: number): boolean;
  lineStartOf(t: Token): number;
  lineEndOf(t: Token): number;
  /** A line with four or more letters and none in lower case. */
  isUpperLine(line: number): boolean;
  /** A line typed in lower case (see tokens.lowerCaseLines). */
  isLowerLine(line: number): boolean;
  /** Token k follows token k-1 on the line with one or two spaces, or a dot (abbreviations). */
  joinInline(k: number): boolean;
  /** May tokens a and b (b = a + 1) belong to one name? */
  joinable(a: number, b: number): boolean;
  /** The text before the token on its line (at most 80 characters; '\u0001' marks a cut). */
  textBeforeOnLine(t: Token): string;
  /** The text after the token on its line (at most 60 characters; a possessive 's is skipped). */
  textAfterOnLine(t: Token): string;
  /** The end of the nearest non-empty line above (a sign-off). */
  prevNonEmptyLine(line: number): string;
  /** Index of the first token on the line of token k. */
  firstOfLine(k: number): number;
  isSentenceStart(i: number): boolean;
  /** Is token k in the middle of a sentence (a lower-case word, a comma or a bracket right before it on its line)? */
  midSentence(k: number): boolean;
  /** The unknown words of [a, b] look like names: letters only, three or more of them. */
  unknownWordsOk(a: number, b: number): boolean;
  /** Lower-case words of [a, b] that are gazetteer given names or surnames of four or more letters and no dictionary word. */
  lowerNamesOk(a: number, b: number): boolean;
  /** A lower-case word no dictionary knows (a name, or a typo): letters only, three or more. */
  lowerUnknown(k: number): boolean;
  allUpperRun(a: number, b: number): boolean;
  /** The first token that starts at or after `pos`. */
  firstTokenAtOrAfter(pos: number): number;
}

export function isCapShape(t: Token): boolean {
  return t.shape === 'cap' || t.shape === 'upper';
}

export function createScan(ctx: AnalysisContext): PersonScan {
  const { text, lex } = ctx;
  const toks = ctx.tokens;
  const n = toks.length;
  const lineStarts = ctx.lineStarts;
  const role: Role[] = new Array(n);

  // per-character masks: occupied (identifiers already taken) and protection strength for PERSON
  const occupied = new Uint8Array(text.length);
  for (const s of ctx.occupied) occupied.fill(1, s.start, s.end);
  const prot = ctx.protectionMask;
  const maxProt = (s: number, e: number) => {
    let m = 0;
    for (let k = s; k < e; k++) if (prot[k] > m) m = prot[k];
    return m / 100;
  };
  const isOccupied = (s: number, e: number) => {
    for (let k = s; k < e; k++) if (occupied[k]) return true;
    return false;
  };

  const lineStartOf = (t: Token) => lineStarts[t.line];
  const lineEndOf = (t: Token) => (t.line + 1 < lineStarts.length ? lineStarts[t.line + 1] - 1 : text.length);
  const lineUpper = new Map<number, boolean>();
  const isUpperLine = (line: number) => {
    let v = lineUpper.get(line);
    if (v === undefined) {
      const s = lineStarts[line];
      const e = line + 1 < lineStarts.length ? lineStarts[line + 1] : text.length;
      const letters = text.slice(s, e).replace(/[^\p{L}]/gu, '');
      v = letters.length >= 4 && !/\p{Ll}/u.test(letters);
      lineUpper.set(line, v);
    }
    return v;
  };
  const isLowerLine = (line: number) => ctx.lowerLines[line] === 1;

  const joinInline = (k: number) => k > 0 && inlineGapDot(text, toks[k - 1], toks[k]);
  const joinable = (a: number, b: number): boolean => {
    const ta = toks[a];
    const tb = toks[b];
    if (ta.line !== tb.line) return false;
    if (inlineGap(text, ta, tb)) return true;
    // abbreviations with a dot: b. bt. Hj. Md. initials
    if (
      text[ta.end] === '.' &&
      (role[a] === 'conn' || role[a] === 'initial' || role[a] === 'prefix' || role[a] === 'title' || (role[a] === 'amb' && ta.flags & F.PREFIX))
    ) {
      return inlineGapDot(text, ta, tb);
    }
    return false;
  };

  // bounded windows keep the cue regexes linear even on very long lines
  const textBeforeOnLine = (t: Token) => {
    const ls = lineStartOf(t);
    return ls >= t.start - 80 ? text.slice(ls, t.start) : '\u0001' + text.slice(t.start - 80, t.start);
  };
  const textAfterOnLine = (t: Token) => text.slice(t.end + (t.possessive ? 2 : 0), Math.min(lineEndOf(t), t.end + 60));
  const prevNonEmptyLine = (line: number): string => {
    for (let l = line - 1; l >= 0 && l >= line - 3; l--) {
      const s = lineStarts[l];
      const e = lineStarts[l + 1] - 1;
      const seg = text.slice(Math.max(s, e - 60), e); // the end of the line is enough for a sign-off
      if (seg.trim()) return seg;
    }
    return '';
  };
  const firstOfLine = (k: number): number => {
    while (k > 0 && toks[k - 1].line === toks[k].line) k--;
    return k;
  };

  const isSentenceStart = (i: number) => {
    if (i === 0) return true;
    const gap = text.slice(toks[i - 1].end, toks[i].start);
    return /[.!?:\n]/.test(gap) || toks[i - 1].text === '.';
  };
  const midSentence = (k: number): boolean => {
    if (k === 0) return false;
    const p = toks[k - 1];
    if (p.line !== toks[k].line) return false;
    if (/[.!?:;]/.test(text.slice(p.end, toks[k].start))) return false;
    return (p.shape === 'lower' && !(p.flags & F.TITLE)) || p.text === ',' || p.text === '(' || p.text === '&';
  };
  const unknownWordsOk = (a: number, b: number): boolean => {
    for (let k = a; k <= b; k++) {
      if (role[k] !== 'unk') continue;
      const w = toks[k].text;
      if (w.length < 3 || !(/^\p{Lu}[\p{Ll}'\u2019-]+$/u.test(w) || (/^\p{Lu}+$/u.test(w) && /[AEIOUY]/.test(w)))) return false;
    }
    return true;
  };
  const lowerNamesOk = (a: number, b: number): boolean => {
    let strong = 0;
    for (let k = a; k <= b; k++) {
      const t = toks[k];
      if (role[k] === 'conn') continue;
      if (t.flags & (F.DICT | VOCAB_FLAGS | F.TITLE)) return false;
      if (t.flags & (F.GIVEN | F.SURNAME | F.CN_SURNAME) && t.text.length >= 4) strong++;
    }
    return strong >= 1;
  };
  const lowerUnknown = (k: number) => {
    const t = toks[k];
    return (
      t.shape === 'lower' && !(t.flags & (VOCAB_FLAGS | F.DICT | F.TITLE | F.CONNECTOR | F.PREFIX)) && t.text.length >= 3 && /^[\p{Ll}'\u2019-]+$/u.test(t.text)
    );
  };
  const allUpperRun = (a: number, b: number) => {
    for (let k = a; k <= b; k++) if (toks[k].shape !== 'upper' && role[k] !== 'conn') return false;
    return true;
  };
  const firstTokenAtOrAfter = (pos: number) => {
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (toks[mid].start < pos) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };

  return {
    ctx,
    text,
    lex,
    toks,
    n,
    norms: ctx.norms,
    lineStarts,
    role,
    accepted: [],
    maxProt,
    isOccupied,
    lineStartOf,
    lineEndOf,
    isUpperLine,
    isLowerLine,
    joinInline,
    joinable,
    textBeforeOnLine,
    textAfterOnLine,
    prevNonEmptyLine,
    firstOfLine,
    isSentenceStart,
    midSentence,
    unknownWordsOk,
    lowerNamesOk,
    lowerUnknown,
    allUpperRun,
    firstTokenAtOrAfter,
  };
}
