/**
 * Public redaction API: `redactText` for one text, `RedactionSession` for many texts (e.g. all messages of one chat
 * request) that share ONE mapping and can rehydrate model output.
 */
import { analyzeText, MAX_TEXT_LENGTH, type AnalyzeOptions } from './engine';
import { RedactionFailedError } from './errors';
import { normalizeValue, PlaceholderAllocator, PLACEHOLDER_RE, type AllocatorOptions } from './placeholders';
import { rehydrate, StreamingRehydrator, SURFACE_CONTEXT, type RehydrateResult, type SurfaceOccurrence } from './rehydrate';

/** A value placed in a redacted text: its placeholder, its original form and where the placeholder starts. */
interface PlacedValue {
  ph: string;
  surface: string;
  pos: number;
}
import type { Candidate, EntityCounts, EntityType, RedactedEntity } from './types';

export interface RedactOptions extends AllocatorOptions, AnalyzeOptions {
  /** Maximum text length in UTF-16 code units (default 100000, the API limit). */
  maxLength?: number;
  /**
   * Absolute deadline for the whole session (performance.now() ms), e.g. a request's time budget: every analysis pass
   * stops at it (RedactionFailedError 'time_budget_exceeded'), in addition to `timeBudgetMs` per pass.
   */
  deadline?: number;
}

/** One piece of text for `redactSegments`. */
export interface Segment {
  text: string;
  /**
   * The text as the engine should read it, same length as `text` (e.g. a JSON key `Ahmad_Faizal` read as
   * `Ahmad Faizal`); placeholders replace the characters of `text`.
   */
  view?: string;
  /**
   * Context written just before the text in the analysed pass (e.g. a JSON key as a label, `mrn: `), so the
   * recognizers see the label cue. It is never part of the output; an entity reaching into it is cut at the text.
   */
  context?: string;
}

/** Default size of one analysis pass of `redactSegments`, in characters. */
export const SEGMENT_PASS_CHARS = 50_000;
/** Between two segments of a pass: a blank line, which no name run, label window or number pattern crosses. */
const SEGMENT_SEPARATOR = '\n\n';

export interface RedactTextResult {
  redacted_text: string;
  /** placeholder -> original, for the placeholders that occur in this output (new and pre-existing known ones). */
  mapping: Record<string, string>;
  /** Offsets are UTF-16 code units into the input text (see toCodePointOffsets for Python-style offsets). */
  entities: RedactedEntity[];
  entities_redacted: EntityCounts;
  /** The input already contained placeholders of ours (`[PERSON_1]`); they were left intact. */
  client_preredacted: boolean;
}

export class RedactionSession {
  private readonly allocator: PlaceholderAllocator;
  private readonly opts: RedactOptions;
  private readonly totals: EntityCounts = {};
  private preredacted = false;
  private fields = 0;
  /** Full (multi-word) PERSON values seen in this session: placeholder -> name tokens. */
  private readonly fullNames = new Map<string, string[]>();
  private readonly namesByToken = new Map<string, Set<string>>();

  constructor(options: RedactOptions = {}) {
    this.opts = options;
    this.allocator = new PlaceholderAllocator(options);
  }

  private passes = 0;

  private analyze(text: string) {
    if (this.opts.deadline !== undefined && performance.now() > this.opts.deadline) {
      throw new RedactionFailedError('time_budget_exceeded', 'redaction exceeded the time budget of the request');
    }
    this.passes++;
    return analyzeText(text, this.opts);
  }

  /**
   * Reserve every placeholder of our form found in these texts (client pre-redaction, an earlier answer sent back),
   * BEFORE anything is redacted, so that no value redacted later takes one of their indexes — wherever in the request
   * they occur. Returns how many were found (and sets clientPreredacted when any).
   */
  reserveAll(texts: Iterable<string>): number {
    let n = 0;
    for (const t of texts) {
      if (typeof t !== 'string' || t.indexOf('[') < 0) continue;
      for (const m of t.matchAll(PLACEHOLDER_RE)) {
        this.allocator.reserve(m[0]);
        n++;
      }
    }
    if (n) this.preredacted = true;
    return n;
  }

  /** Redact one text with the session's mapping. Throws RedactionFailedError (fail closed). */
  redact(text: string): RedactTextResult {
    if (typeof text !== 'string') throw new RedactionFailedError('invalid_input', 'text must be a string');
    const max = this.opts.maxLength ?? MAX_TEXT_LENGTH;
    if (text.length > max) throw new RedactionFailedError('invalid_input', `text longer than ${max} characters`);
    const analysis = this.analyze(text);
    this.fields++;
    for (const p of analysis.preredacted) this.allocator.reserve(p.placeholder);

    const entities: RedactedEntity[] = [];
    const counts: EntityCounts = {};
    const used = new Map<string, string>();
    const found: PlacedValue[] = [];
    let out = '';
    let last = 0;
    const norms: string[] = [];
    const memo = new Map<string, string>();
    for (const e of analysis.entities) {
      const original = text.slice(e.start, e.end);
      let norm = e.normalized;
      if (norm === undefined) {
        const k = e.type + '\u0000' + original;
        norm = memo.get(k);
        if (norm === undefined) memo.set(k, (norm = normalizeValue(e.type, original)));
      }
      norms.push(norm);
      const ph = this.allocator.assign(e.type, original, norm);
      out += text.slice(last, e.start);
      found.push({ ph, surface: original, pos: out.length });
      out += ph;
      last = e.end;
      used.set(ph, this.allocator.lookup(ph)!);
      counts[e.type] = (counts[e.type] ?? 0) + 1;
      this.totals[e.type] = (this.totals[e.type] ?? 0) + 1;
      entities.push({ start: e.start, end: e.end, type: e.type, placeholder: ph, score: e.score, recognizer: e.recognizer });
    }
    out += text.slice(last);
    this.recordSurfaces(out, found);
    for (const p of analysis.preredacted) {
      const v = this.allocator.lookup(p.placeholder);
      if (v !== undefined) used.set(p.placeholder, v);
    }
    if (analysis.preredacted.length) this.preredacted = true;
    this.linkPartialNames(entities, norms);
    return {
      redacted_text: out,
      // with a prior mapping, every entry sent comes back with the new ones: a chain of calls that each send back the
      // previous answer's mapping never forgets a value (two people never share a placeholder)
      mapping: this.opts.priorMapping !== undefined ? this.mapping : Object.fromEntries(used),
      entities,
      entities_redacted: counts,
      client_preredacted: analysis.preredacted.length > 0,
    };
  }

  /** Redact several fields (e.g. chat messages) with one consistent mapping. */
  redactFields(texts: readonly string[]): RedactTextResult[] {
    return texts.map((t) => this.redact(t));
  }

  /**
   * Redact many small texts (the string values and keys of a JSON document, the fields of a chat request) in a few
   * analysis passes instead of one per text: the texts are joined with a blank line into passes of about
   * `passChars` characters (a longer text gets a pass of its own), analysed once, and each entity is mapped back to
   * its text by offset. An entity that reaches across a text's edge (into its context or the separator) is cut at
   * the edge, so every text gets placeholders only for its own characters. Returns the redacted texts, in order.
   *
   * Does not count free-text fields (the caller knows what a field is). Throws RedactionFailedError (fail closed).
   */
  redactSegments(segments: readonly Segment[], options: { passChars?: number } = {}): string[] {
    const out: string[] = new Array<string>(segments.length);
    for (const seg of segments) if (typeof seg.text !== 'string') throw new RedactionFailedError('invalid_input', 'text must be a string');
    segments.forEach((seg, i) => {
      if (!seg.text) out[i] = seg.text;
    });
    for (const seg of segments)
      if (seg.view !== undefined && seg.view.length !== seg.text.length)
        throw new RedactionFailedError('invalid_input', 'a segment view must have the length of its text');
    for (const pass of passesOf(segments, options.passChars ?? SEGMENT_PASS_CHARS)) this.redactPass(pass, out);
    return out;
  }

  /**
   * Entity types the engine finds in each text, in a few passes like redactSegments, without assigning placeholders
   * or counting anything: for values that cannot carry a placeholder (a function name, an id), which are refused
   * when anything is found. Throws RedactionFailedError (fail closed).
   */
  detectSegments(texts: readonly string[]): Array<Array<{ type: EntityType; start: number; end: number }>> {
    const out: Array<Array<{ type: EntityType; start: number; end: number }>> = texts.map(() => []);
    for (const t of texts) if (typeof t !== 'string') throw new RedactionFailedError('invalid_input', 'text must be a string');
    for (const pass of passesOf(
      texts.map((text) => ({ text })),
      SEGMENT_PASS_CHARS,
    )) {
      const analysis = this.analyze(pass.view);
      for (const e of analysis.entities) {
        for (const span of pass.spans) {
          if (e.start >= span.end || e.end <= span.start) continue;
          // offsets into the segment's own text, cut at its edges
          out[span.idx]!.push({ type: e.type, start: Math.max(e.start, span.start) - span.start, end: Math.min(e.end, span.end) - span.start });
        }
      }
    }
    return out;
  }

  private redactPass({ joined, view, spans }: Pass, out: string[]): void {
    const analysis = this.analyze(view);
    for (const p of analysis.preredacted) this.allocator.reserve(p.placeholder);
    if (analysis.preredacted.length) this.preredacted = true;
    const found: Candidate[] = [...analysis.entities].sort((a, b) => a.start - b.start);
    const entities: RedactedEntity[] = [];
    const norms: string[] = [];
    let k = 0;
    for (const span of spans) {
      let text = '';
      let last = span.start;
      const placed: PlacedValue[] = [];
      while (k < found.length && found[k]!.end <= span.start) k++;
      for (let e = k; e < found.length && found[e]!.start < span.end; e++) {
        const c = found[e]!;
        const start = Math.max(c.start, span.start);
        const end = Math.min(c.end, span.end);
        if (start >= end || start < last) continue;
        const original = joined.slice(start, end);
        if (!original.trim()) continue;
        const whole = start === c.start && end === c.end;
        const norm = whole && c.normalized !== undefined ? c.normalized : normalizeValue(c.type, original);
        const ph = this.allocator.assign(c.type, original, norm);
        text += joined.slice(last, start);
        placed.push({ ph, surface: original, pos: text.length });
        text += ph;
        last = end;
        this.totals[c.type] = (this.totals[c.type] ?? 0) + 1;
        norms.push(norm);
        entities.push({ start, end, type: c.type, placeholder: ph, score: c.score, recognizer: c.recognizer });
      }
      out[span.idx] = text + joined.slice(last, span.end);
      this.recordSurfaces(out[span.idx]!, placed);
    }
    this.linkPartialNames(entities, norms);
  }

  /**
   * Partial mentions keep their own placeholder (so rehydration restores exactly what was written: "Aiman" stays
   * "Aiman", not "Aiman b. Shukri"), but are linked with `refers_to` to the fuller name when that is unambiguous.
   */
  private linkPartialNames(entities: RedactedEntity[], norms: string[]): void {
    const tokensOf = (i: number) => nameTokens(norms[i]);
    for (let i = 0; i < entities.length; i++) {
      const e = entities[i];
      if (e.type !== 'PERSON' || this.fullNames.has(e.placeholder)) continue;
      const toks = tokensOf(i);
      if (toks.length < 2) continue;
      this.fullNames.set(e.placeholder, toks);
      for (const t of toks) {
        let set = this.namesByToken.get(t);
        if (!set) this.namesByToken.set(t, (set = new Set()));
        set.add(e.placeholder);
      }
    }
    const memo = new Map<string, string | undefined>();
    for (let i = 0; i < entities.length; i++) {
      const e = entities[i];
      if (e.type !== 'PERSON') continue;
      if (!memo.has(e.placeholder)) {
        const toks = tokensOf(i);
        let cands: string[] | undefined;
        for (const t of toks) {
          const s = this.namesByToken.get(t);
          if (!s) {
            cands = undefined;
            break;
          }
          cands = cands ? cands.filter((x) => s.has(x)) : [...s];
          if (!cands.length) break;
        }
        let ref: string | undefined;
        if (cands) {
          const longer = cands.filter((ph) => ph !== e.placeholder && this.fullNames.get(ph)!.length > toks.length);
          if (longer.length === 1) ref = longer[0];
        }
        memo.set(e.placeholder, ref);
      }
      const ref = memo.get(e.placeholder);
      if (ref) e.refers_to = ref;
    }
  }

  /** Every value's occurrences with the redacted text around them (memory only, like the mapping; bounded). */
  private readonly occurrences = new Map<string, SurfaceOccurrence[]>();
  private readonly variants = new Set<string>();
  private static readonly MAX_OCCURRENCES = 1000;

  private recordSurfaces(redacted: string, placed: readonly PlacedValue[]): void {
    for (const { ph, surface, pos } of placed) {
      let list = this.occurrences.get(ph);
      if (!list) this.occurrences.set(ph, (list = []));
      if (list.length && list[0].surface !== surface) this.variants.add(ph);
      if (list.length >= RedactionSession.MAX_OCCURRENCES) continue;
      list.push({
        surface,
        left: redacted.slice(Math.max(0, pos - SURFACE_CONTEXT), pos),
        right: redacted.slice(pos + ph.length, pos + ph.length + SURFACE_CONTEXT),
      });
    }
  }

  /**
   * For every placeholder whose value was written more than one way, its occurrences with the redacted text around
   * them (see RehydrateOptions.surfaces). Lives in the session's memory only, like the mapping.
   */
  get surfaces(): ReadonlyMap<string, readonly SurfaceOccurrence[]> {
    const out = new Map<string, readonly SurfaceOccurrence[]>();
    for (const ph of this.variants) out.set(ph, this.occurrences.get(ph)!);
    return out;
  }

  /**
   * Restore original values in model output. Repairs `[person_1]`, `[ PERSON_1 ]`, `[PERSON 1]`. A value written more
   * than one way comes back in the form of the input occurrence whose surroundings the answer repeats (else its first).
   */
  rehydrate(text: string): RehydrateResult {
    return rehydrate(text, this.mapping, { ignore: this.reservedPlaceholders, surfaces: this.surfaces });
  }

  /** Streaming rehydration that never emits half a placeholder. */
  createRehydrationStream(options: { rehydrate?: boolean } = {}): StreamingRehydrator {
    return new StreamingRehydrator(options.rehydrate === false ? undefined : this.mapping, { ignore: this.reservedPlaceholders });
  }

  /**
   * Placeholders the input already carried and no value of this session took: the client's own. Rehydration leaves
   * them as written and does not count them as unresolved.
   */
  get reservedPlaceholders(): ReadonlySet<string> {
    return this.allocator.reserved();
  }

  /** Number of engine runs so far (diagnostics, tests). */
  get analysisPasses(): number {
    return this.passes;
  }

  /** Everything this session knows: prior mapping plus all values redacted so far. */
  get mapping(): Record<string, string> {
    return this.allocator.toObject();
  }

  get entitiesRedacted(): EntityCounts {
    return { ...this.totals };
  }

  get clientPreredacted(): boolean {
    return this.preredacted;
  }

  /** Number of texts redacted in this session (free_text_fields of the receipt). */
  get freeTextFields(): number {
    return this.fields;
  }
}

interface PassSpan {
  /** Index of the segment. */
  idx: number;
  /** Where the segment's text is in the joined pass text. */
  start: number;
  end: number;
}

interface Pass {
  /** The segments' texts (originals are cut from it). */
  joined: string;
  /** What the engine reads: the same with each segment's view (same offsets). */
  view: string;
  spans: PassSpan[];
}

/** Group non-empty segments into passes of about `passChars` characters, joined by a blank line. */
function passesOf(segments: readonly Segment[], passChars: number): Pass[] {
  const passes: Pass[] = [];
  let joined = '';
  let view = '';
  let spans: PassSpan[] = [];
  segments.forEach((seg, idx) => {
    if (!seg.text) return;
    const size = (joined ? SEGMENT_SEPARATOR.length : 0) + (seg.context?.length ?? 0) + seg.text.length;
    if (spans.length && joined.length + size > passChars) {
      passes.push({ joined, view, spans });
      joined = view = '';
      spans = [];
    }
    const before = (joined ? SEGMENT_SEPARATOR : '') + (seg.context ?? '');
    joined += before;
    view += before;
    spans.push({ idx, start: joined.length, end: joined.length + seg.text.length });
    joined += seg.text;
    view += seg.view ?? seg.text;
  });
  if (spans.length) passes.push({ joined, view, spans });
  return passes;
}

const NAME_GLUE = new Set(['bin', 'binti', 'a/l', 'a/p', 'anak', '@']);
/** Name words of a normalised PERSON value (connectors dropped). */
function nameTokens(norm: string): string[] {
  return norm.split(' ').filter((w) => w.length > 1 && !NAME_GLUE.has(w));
}

/** Redact one text (one call = one fresh mapping, unless prior_mapping / conversation_key are given). */
export function redactText(text: string, options: RedactOptions = {}): RedactTextResult {
  return new RedactionSession(options).redact(text);
}

/** Convert UTF-16 offsets to Unicode code point offsets (Python string indices). */
export function makeCodePointConverter(text: string): (utf16Offset: number) => number {
  if (!/[\uD800-\uDBFF]/.test(text)) return (o) => o;
  const map = new Uint32Array(text.length + 1);
  let cp = 0;
  for (let i = 0; i < text.length; i++) {
    map[i] = cp;
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        map[i + 1] = cp; // inside a pair: same code point
        i++;
      }
    }
    cp++;
  }
  map[text.length] = cp;
  return (o) => map[o];
}
