/**
 * Rehydration: put original values back in place of placeholders in model output.
 *
 * - `[PERSON_1]` known -> original value (replaced).
 * - Changed case or spacing (`[person_1]`, `[ PERSON_1 ]`, `[PERSON 1]`, `[Person-1]`) -> repaired when the type
 *   names exactly one of our entity types and the index is known (counted as repaired).
 * - A placeholder of one of our types whose index is not in the mapping (invented by the model, or truncated) is
 *   left as is and counted as unresolved.
 * - Bracketed text that is not one of our types (`[1]`, `[Note 2]`) is ordinary text and untouched.
 * - `ignore`: placeholders the client sent itself (pre-redacted input, reserved by the session, no original): left as
 *   written and not counted as unresolved, in any spelling the repair would accept.
 */
import { ENTITY_TYPES, type EntityType } from './types';

export interface RehydrateResult {
  text: string;
  /** Placeholders restored exactly as written. */
  replaced: number;
  /** Placeholders restored after repairing case/spacing. */
  repaired: number;
  /** Placeholders of our types with no known original. */
  unresolved: number;
  unresolved_placeholders: string[];
}

const LOOSE_RE = /\[\s*([A-Za-z][A-Za-z _-]{0,20}?)[\s_-]*(\d{1,9})\s*\]/g;
const TYPE_BY_SQUASHED = new Map<string, EntityType>(ENTITY_TYPES.map((t) => [t.replace(/_/g, ''), t]));

function canonicalType(raw: string): EntityType | undefined {
  return TYPE_BY_SQUASHED.get(raw.toUpperCase().replace(/[\s_-]+/g, ''));
}

/** One occurrence of a value in the input: its surface form and the redacted text just before and after it. */
export interface SurfaceOccurrence {
  surface: string;
  left: string;
  right: string;
}

/** Characters of context compared on each side. */
export const SURFACE_CONTEXT = 24;

function commonSuffix(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[a.length - 1 - n] === b[b.length - 1 - n]) n++;
  return n;
}
function commonPrefix(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

/**
 * The surface form whose input surroundings best match [left, right], when they match well enough; among equally good
 * ones the occurrence used least in this text, then the earliest (a repeated template keeps its order).
 */
function surfaceFor(occurrences: readonly SurfaceOccurrence[], left: string, right: string, uses: Map<SurfaceOccurrence, number>): string | undefined {
  let best: SurfaceOccurrence | undefined;
  let bestScore = 3; // fewer matching characters is chance
  let bestUses = 0;
  for (const o of occurrences) {
    const score = commonSuffix(left, o.left) + commonPrefix(right, o.right);
    const u = uses.get(o) ?? 0;
    if (score > bestScore || (best && score === bestScore && u < bestUses)) {
      bestScore = score;
      best = o;
      bestUses = u;
    }
  }
  if (best) uses.set(best, bestUses + 1);
  return best?.surface;
}

export interface RehydrateOptions {
  /** Canonical placeholders (`[PERSON_1]`) that belong to the client: left as written, never counted. */
  ignore?: ReadonlySet<string>;
  /**
   * Where a value was written more than one way (an IC with and without dashes, a name in Title Case and in CAPS), its
   * occurrences in the input with the redacted text around each (`session.surfaces`): an occurrence in the answer
   * whose surroundings match one of them comes back in that occurrence's form (an answer that quotes the input keeps
   * its formats); otherwise in the mapping's (first) form.
   */
  surfaces?: ReadonlyMap<string, readonly SurfaceOccurrence[]>;
  /**
   * Escape a value restored inside a JSON string literal that the text quotes (default true). Off for a caller whose
   * mapping is already JSON-escaped (the gateway's repair of truncated tool-call arguments).
   */
  escapeInJson?: boolean;
}

const JSON_SPECIAL_RE = /["\\\u0000-\u001f]/;

function jsonUnescape(s: string): string {
  return s.includes('\\') ? s.replace(/\\(["\\/nrt])/g, (_m, c: string) => (c === 'n' ? '\n' : c === 'r' ? '\r' : c === 't' ? '\t' : c)) : s;
}

/**
 * Is position `at` inside a JSON string literal of a JSON document written in the text? Raw line breaks cannot occur
 * in one, so only the current line is read: a key (`":`) before it and an odd number of unescaped quotes.
 */
function insideJsonString(text: string, at: number): boolean {
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  const seg = text.slice(lineStart, at);
  if (!seg.includes('":')) return false;
  let quotes = 0;
  for (let i = 0; i < seg.length; i++) {
    if (seg.charCodeAt(i) === 92)
      i++; // backslash: skip the escaped character
    else if (seg.charCodeAt(i) === 34) quotes++;
  }
  return quotes % 2 === 1;
}

export function rehydrate(text: string, mapping: Readonly<Record<string, string>>, options: RehydrateOptions = {}): RehydrateResult {
  let replaced = 0;
  let repaired = 0;
  const unresolved: string[] = [];
  const ignore = options.ignore;
  const uses = new Map<SurfaceOccurrence, number>();
  const out = text.replace(LOOSE_RE, (whole: string, rawType: string, num: string, offset: number) => {
    const type = canonicalType(rawType);
    if (!type) return whole;
    const canonical = `[${type}_${Number(num)}]`;
    const value = Object.prototype.hasOwnProperty.call(mapping, canonical) ? mapping[canonical] : undefined;
    if (value === undefined) {
      if (ignore?.has(canonical)) return whole;
      unresolved.push(whole);
      return whole;
    }
    if (whole === canonical) replaced++;
    else repaired++;
    const at = offset as number;
    let form = value;
    const occurrences = options.surfaces?.get(canonical);
    if (occurrences) {
      // the answer may quote the input inside a JSON string ("\n" for a line break): compare unescaped surroundings
      const found = surfaceFor(
        occurrences,
        jsonUnescape(text.slice(Math.max(0, at - SURFACE_CONTEXT), at)),
        jsonUnescape(text.slice(at + whole.length, at + whole.length + SURFACE_CONTEXT)),
        uses,
      );
      if (found !== undefined) form = found;
    }
    // a value with a line break or a quote, restored inside a JSON string literal of the answer, is escaped so that
    // the JSON stays what the input was
    return options.escapeInJson !== false && JSON_SPECIAL_RE.test(form) && insideJsonString(text, at) ? JSON.stringify(form).slice(1, -1) : form;
  });
  return { text: out, replaced, repaired, unresolved: unresolved.length, unresolved_placeholders: unresolved };
}

// A suffix that may still grow into a placeholder: "[", "[PER", "[PERSON_", "[ person 1" ...
const PARTIAL_RE = /\[\s*[A-Za-z _-]{0,21}\d{0,9}\s*$/;
const MAX_HOLD = 48;

/**
 * Placeholder-safe chunker for streamed text: never emits part of a placeholder. A trailing `[...` that could still
 * become a placeholder is held back until it is complete (`]` arrives) or clearly is not one.
 */
export class PlaceholderSafeChunker {
  private buf = '';

  /** Feed a chunk; returns the text that is safe to emit now (may be ''). */
  push(chunk: string): string {
    this.buf += chunk;
    const i = this.buf.lastIndexOf('[');
    if (i < 0) return this.take(this.buf.length);
    const tail = this.buf.slice(i);
    if (tail.length <= MAX_HOLD && PARTIAL_RE.test(tail) && !tail.includes(']')) return this.take(i);
    return this.take(this.buf.length);
  }

  /** End of stream: everything still held. */
  flush(): string {
    return this.take(this.buf.length);
  }

  private take(n: number): string {
    const out = this.buf.slice(0, n);
    this.buf = this.buf.slice(n);
    return out;
  }
}

/**
 * Streaming rehydration: chunks in, safe text out, with placeholders restored (or kept as placeholders when no
 * mapping is given: redact_only streaming). Counts accumulate over the stream.
 */
export class StreamingRehydrator {
  private readonly chunker = new PlaceholderSafeChunker();
  replaced = 0;
  repaired = 0;
  unresolved = 0;

  constructor(
    private readonly mapping?: Readonly<Record<string, string>>,
    private readonly options: RehydrateOptions = {},
  ) {}

  push(chunk: string): string {
    return this.emit(this.chunker.push(chunk));
  }

  flush(): string {
    return this.emit(this.chunker.flush());
  }

  private emit(s: string): string {
    if (!s || !this.mapping) return s;
    const r = rehydrate(s, this.mapping, this.options);
    this.replaced += r.replaced;
    this.repaired += r.repaired;
    this.unresolved += r.unresolved;
    return r.text;
  }
}
