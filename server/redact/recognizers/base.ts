/**
 * Recognizer contract (Presidio-like): each recognizer is a small unit with an entity type, patterns, validators,
 * context words that raise confidence, and a base score. The engine runs them from a registry and resolves overlaps.
 */
import type { Candidate, EntityType, ProtectedSpan, Span } from '../types';
import type { Gazetteer } from '../gazetteer';
import type { Token } from '../tokens';

export interface AnalysisContext {
  readonly text: string;
  readonly lex: Gazetteer;
  /** Word tokens of the text (computed once). */
  readonly tokens: Token[];
  /** tokens[i].norm, as an array (phrase-trie lookups). */
  readonly norms: readonly string[];
  /** Offsets at which lines start (lineStarts[0] = 0). */
  readonly lineStarts: readonly number[];
  /** 1 for lines typed in lower case (see tokens.lowerCaseLines). */
  readonly lowerLines: Uint8Array;
  /** Clinical / allow-listed regions (dates, vitals, hospitals, eponyms...). */
  readonly protectedSpans: ProtectedSpan[];
  /** Max protection strength x100 per character over all regions (what PERSON candidates must beat). */
  readonly protectionMask: Uint8Array;
  /** The same without person-only regions: what identifier candidates must beat (see resolver.ts). */
  readonly idProtectionMask: Uint8Array;
  /** Regions already taken (pre-redacted placeholders, and accepted structured entities when PERSON runs). */
  readonly occupied: Span[];
  /** E-mail addresses in the text (found once, shared by the e-mail and PERSON recognizers). */
  readonly emails: ReadonlyArray<{ index: number; value: string }>;
  /** Lower-cased name-ish pieces of e-mail local parts (mark.walker@ -> mark, walker): weak evidence for names. */
  readonly emailNameParts: Set<string>;
  /** The typed identifier recognizers of the running registry (their context words type the fallback's finds). */
  readonly typedRecognizers: readonly Recognizer[];
  /** When set, recognizers may add milliseconds per named stage to it (benchmarks, diagnostics). */
  readonly profile?: Record<string, number>;
  /** Throws RedactionFailedError when the time budget is exhausted. Cheap; call it in long loops. */
  checkDeadline(): void;
}

export interface Recognizer {
  readonly name: string;
  readonly entity: EntityType;
  /** Words that, found just before a value, raise its score (lower case). */
  readonly contextWords: readonly string[];
  /** Score of a validated match without context. */
  readonly baseScore: number;
  /** How far before a value its context words count, in characters (default 48; see labelWindow). */
  readonly contextWindow?: number;
  /** How much a context word raises a candidate's score (default CONTEXT_BOOST). */
  readonly contextBoost?: number;
  /**
   * A fallback recognizer runs after the typed identifiers are resolved (`ctx.occupied` then holds them) and claims
   * only what they left: the default-deny identifier sweep.
   */
  readonly fallback?: boolean;
  analyze(ctx: AnalysisContext): Candidate[];
}

/** Presidio's context enhancement: a context word before a value raises its score by this much... */
export const CONTEXT_BOOST = 0.35;
/** ... and to at least this. */
export const MIN_SCORE_WITH_CONTEXT = 0.4;

/**
 * The context step, one for every recognizer (Presidio's context enhancer): a candidate whose label window holds one
 * of its recognizer's `contextWords` gets `contextBoost` added (capped at 1, at least MIN_SCORE_WITH_CONTEXT). A
 * recognizer that needs its label to be sure emits the bare value below the threshold; the label lifts it over.
 * Candidates marked `contextChecked` already weighed their label structurally and are left alone.
 */
export function enhanceWithContext(r: Recognizer, candidates: Candidate[], text: string): void {
  if (!r.contextWords.length) return;
  const boost = r.contextBoost ?? CONTEXT_BOOST;
  for (const c of candidates) {
    if (c.contextChecked) continue;
    if (!windowHas(labelWindow(text, c.start, r.contextWindow ?? 48), r.contextWords)) continue;
    c.score = Math.max(Math.min(1, c.score + boost), MIN_SCORE_WITH_CONTEXT);
    c.contextChecked = true;
  }
}

/**
 * The label window of a value: up to `max` characters before it, cut after the last digit (so an earlier value's
 * label does not leak onto the next value). When the value starts its line, the previous line is included, so a label
 * on its own line above the value still counts. Returned in lower case.
 */
export function labelWindow(text: string, start: number, max = 48): string {
  let from = Math.max(0, start - max);
  let s = text.slice(from, start);
  const lineBreak = s.lastIndexOf('\n');
  if (lineBreak >= 0 && /\p{L}/u.test(s.slice(lineBreak + 1))) {
    s = s.slice(lineBreak + 1);
    from = start - s.length;
  }
  const m = /\d[^\d]*$/.exec(s);
  if (m) s = s.slice(m.index + 1);
  return s.toLowerCase();
}

/** True when one of `words` occurs in `window` as a whole word (window and words lower case). */
export function windowHas(window: string, words: readonly string[]): boolean {
  for (const w of words) {
    let i = window.indexOf(w);
    while (i >= 0) {
      const before = i === 0 ? ' ' : window[i - 1];
      const after = i + w.length >= window.length ? ' ' : window[i + w.length];
      if (!/[a-z0-9]/.test(before) && !/[a-z0-9]/.test(after)) return true;
      i = window.indexOf(w, i + 1);
    }
  }
  return false;
}

/** The cells of a table line (pipe- or tab-separated), or null when the line is not a table row. */
function cellsOf(line: string): string[] | null {
  const sep = line.includes('|') ? '|' : line.includes('\t') ? '\t' : '';
  return sep ? line.split(sep) : null;
}

/** A table separator line (`|---|:--:|`, `+-----+`). */
const RULE_CELLS_RE = /^[\s:=+-]*$/;

function lineText(ctx: AnalysisContext, l: number): string {
  const { text, lineStarts } = ctx;
  return text.slice(lineStarts[l], l + 1 < lineStarts.length ? lineStarts[l + 1] - 1 : text.length);
}

interface TableRow {
  /** The line's cells as split (untrimmed), null when the line is not a table row. */
  raw: string[] | null;
  /** The header line's cells (untrimmed), or undefined when the table has no header line. */
  header?: string[];
}

/** Table rows of a text, worked out once per line (recognizers ask for many cells of the same rows). */
const tableRows = new WeakMap<AnalysisContext, Map<number, TableRow>>();

function tableRow(ctx: AnalysisContext, line: number): TableRow {
  let rows = tableRows.get(ctx);
  if (!rows) tableRows.set(ctx, (rows = new Map()));
  let row = rows.get(line);
  if (row) return row;
  const raw = cellsOf(lineText(ctx, line));
  row = { raw };
  // the header: the nearest line above in the same table with as many cells and no digits, past separator rows
  if (raw) {
    for (let l = line - 1; l >= 0 && l >= line - 40; l--) {
      const h = cellsOf(lineText(ctx, l));
      if (!h) break;
      if (h.length !== raw.length || h.some((c) => /\d/.test(c)) || h.every((c) => RULE_CELLS_RE.test(c))) continue;
      row.header = h;
      break;
    }
  }
  rows.set(line, row);
  return row;
}

/**
 * The table cell that [s, e) fills (a value that is not the whole cell does not count): the row's trimmed cells, the
 * cell's index, and the header of its column (undefined when the table has no header line, null when the header
 * cell is empty).
 */
export function tableCell(ctx: AnalysisContext, s: number, e: number): { cells: string[]; at: number; header: string | null | undefined } | null {
  const { lineStarts } = ctx;
  let line = 0;
  for (let lo = 0, hi = lineStarts.length - 1; lo <= hi;) {
    const mid = (lo + hi) >> 1;
    if (lineStarts[mid] <= s) {
      line = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  const { raw, header } = tableRow(ctx, line);
  if (!raw) return null;
  let at = -1;
  for (let i = 0, off = lineStarts[line]; i < raw.length; off += raw[i].length + 1, i++) {
    if (s >= off && s < off + raw[i].length) at = i;
  }
  if (at < 0) return null;
  const cells = raw.map((c) => c.trim());
  if (cells[at].length > e - s + 2) return null;
  return { cells, at, header: header ? header[at].trim() || null : undefined };
}

/** Every non-empty cell of every table line (pipe- or tab-separated), trimmed, with its offset in the text. */
export function* tableCells(ctx: AnalysisContext): Generator<{ start: number; value: string }> {
  for (let l = 0; l < ctx.lineStarts.length; l++) {
    const { raw } = tableRow(ctx, l);
    if (!raw) continue;
    let off = ctx.lineStarts[l];
    for (const cell of raw) {
      const value = cell.trim();
      if (value) yield { start: off + cell.length - cell.trimStart().length, value };
      off += cell.length + 1;
    }
  }
}

export function luhnValid(digits: string): boolean {
  let sum = 0;
  let dbl = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (dbl) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    dbl = !dbl;
  }
  return digits.length > 0 && sum % 10 === 0;
}
