/**
 * Redaction of a whole chat request with ONE session (one consistent mapping), and re-hydration of what comes back.
 *
 * What goes through the engine (each non-empty text is one free-text field of the receipt):
 *   - message content (string, or each text part) of every role, assistant `refusal`, the `arguments` of resent
 *     `tool_calls`, tool results;
 *   - `stop` (each string), each tool's `description`, and each tool's `parameters` schema (every key and string
 *     leaf: `description`, `enum`, `default`, `examples`, …).
 * JSON texts (an object or array: tool results, arguments, parameter schemas, any content that is JSON) are redacted
 * token by token on the source text (`json.ts`): every string value, every key, and every integer literal of 6 or
 * more digits (an IC or a card sent as a JSON number, at any size: the literal as written, never a JS number). A value
 * is analysed with its key as a label (`"mrn": "123456"` reads as `mrn: 123456`). A changed token is re-encoded (a
 * redacted number becomes a placeholder string); everything else stays byte for byte. All texts of the request go
 * through the engine in a few passes (`RedactionSession.redactSegments`), not one engine run per JSON value.
 *
 * Before anything is redacted, every placeholder of our form anywhere in the request is reserved
 * (`RedactionSession.reserveAll`), so a client's `[PERSON_1]` in a later message never collides with a value redacted
 * earlier. After redaction, every value found anywhere is replaced wherever it occurs verbatim elsewhere
 * (propagation).
 *
 * Values that cannot carry a placeholder (function names, tool-call ids, reasoning effort/summary) are restricted by
 * the schema and screened with the engine: when it finds anything, the request is refused (400), never forwarded.
 *
 * Re-hydration of JSON (tool-call arguments, JSON content) works on tokens too, so an original value with a quote
 * cannot break the JSON, and a placeholder that replaced a whole JSON number comes back as that number.
 */
import { badRequest } from '../errors';
import {
  parsePlaceholder,
  rehydrate,
  type EntityCounts,
  type EntityType,
  type RedactionSession,
  type RehydrateResult,
  type Segment,
  type SurfaceOccurrence,
} from '../redact';
import { rebuildJson, scanJson, type JsonToken } from './json';
import type { ChatContent, ChatMessage, ChatRequest, ChatTool } from './schema';

/** The parts of a request that carry text. */
export type RequestTexts = Pick<ChatRequest, 'messages' | 'stop' | 'tools'>;

/**
 * Keys worth keeping as context for the value they label: identity labels trigger the recognizers' label cues, and
 * quantity labels explain a long number as an amount (the engine redacts an unexplained long number by default).
 */
const LABEL_KEY =
  /\b(name|nama|patient|pesakit|nok|kin|next of kin|contact|witness|doctor|dr|nurse|sn|ic|nric|mykad|kp|passport|mrn|rn|record|reg|registration|phone|tel|telephone|mobile|hp|email|e mail|account|acct|card|amount|total|price|cost|fee|balance|qty|quantity|count|value|result|level|score|dose|ratio)\b/i;
/** JSON integers with at least this many digits are analysed (identifiers sent as numbers). */
const MIN_NUMBER_DIGITS = 6;
const INTEGER = /^\d+$/;
const WHOLE_PLACEHOLDER = /^\[[A-Z_]+_\d{1,9}\]$/;

function humanKey(k: string): string {
  return k
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_.-]+/g, ' ')
    .trim();
}

function labelContext(key: string | undefined): string | undefined {
  if (key === undefined) return undefined;
  const label = humanKey(key);
  return label && label.length <= 40 && LABEL_KEY.test(label) ? `${label}: ` : undefined;
}

/* ---------------------------------------------------------------- walking the texts of a request */

type TextKind = 'text' | 'json';

/**
 * Every text of the request, in a fixed order, through `f`; returns the request with the texts `f` returned. Used
 * twice: once to collect the texts, once to put the redacted ones in place.
 */
function mapTexts(req: RequestTexts, f: (text: string, kind: TextKind) => string): RequestTexts {
  const content = (c: ChatContent): ChatContent => (typeof c === 'string' ? f(c, 'text') : c.map((p) => ({ type: 'text' as const, text: f(p.text, 'text') })));
  const messages = req.messages.map((m): ChatMessage => {
    switch (m.role) {
      case 'assistant': {
        const out: ChatMessage = { role: 'assistant' };
        if (m.content !== undefined) out.content = m.content === null ? null : content(m.content);
        if (m.refusal !== undefined) out.refusal = m.refusal === null ? null : f(m.refusal, 'text');
        if (m.tool_calls)
          out.tool_calls = m.tool_calls.map((c) => ({
            id: c.id,
            type: 'function' as const,
            function: { name: c.function.name, arguments: f(c.function.arguments, 'text') },
          }));
        return out;
      }
      case 'tool':
        return { role: 'tool', tool_call_id: m.tool_call_id, content: content(m.content) };
      default:
        return { role: m.role, content: content(m.content) };
    }
  });
  const out: RequestTexts = { messages };
  if (req.stop !== undefined) out.stop = typeof req.stop === 'string' ? f(req.stop, 'text') : req.stop.map((s) => f(s, 'text'));
  if (req.tools) {
    out.tools = req.tools.map((t): ChatTool => {
      const fn: ChatTool['function'] = { name: t.function.name };
      if (t.function.description !== undefined) fn.description = f(t.function.description, 'text');
      if (t.function.parameters !== undefined) fn.parameters = JSON.parse(f(JSON.stringify(t.function.parameters), 'json')) as Record<string, unknown>;
      if (t.function.strict !== undefined) fn.strict = t.function.strict;
      return { type: 'function', function: fn };
    });
  }
  return out;
}

/* ---------------------------------------------------------------- the redaction plan */

interface FieldPlan {
  text: string;
  /** JSON fields: the tokens that are segments (keys, strings, long integers), in source order. */
  tokens?: JsonToken[];
  /** Index of the field's first segment in the plan's segment list. */
  first: number;
}

export interface RedactionPlan {
  req: RequestTexts;
  fields: FieldPlan[];
  /** Characters of all the fields (stored with the receipt as the input size). */
  chars: number;
  segments: Segment[];
  /** Per segment: it is a JSON number literal (restored as a number when the model sends its placeholder back). */
  numeric: boolean[];
}

/** Collect every non-empty text of the request and cut JSON texts into their tokens. Does not run the engine. */
export function planRedaction(req: RequestTexts): RedactionPlan {
  const plan: RedactionPlan = { req, fields: [], chars: 0, segments: [], numeric: [] };
  mapTexts(req, (text, kind) => {
    if (!text) return text;
    plan.chars += text.length;
    const first = plan.segments.length;
    const tokens = scanJson(text);
    if (kind === 'json' && !tokens) throw new Error('a parameter schema that is not a JSON object');
    if (!tokens) {
      plan.fields.push({ text, first });
      plan.segments.push({ text });
      plan.numeric.push(false);
      return text;
    }
    const kept: JsonToken[] = [];
    for (const t of tokens) {
      const numeric = t.kind === 'number';
      // identifiers sent as numbers: non-negative integers of 6+ digits, as written (never through a JS number)
      if (numeric && (t.value.length < MIN_NUMBER_DIGITS || !INTEGER.test(t.value))) continue;
      if (!t.value) continue;
      kept.push(t);
      // a key is an identifier-like string: read `Ahmad_Faizal` as `Ahmad Faizal` (same length, same offsets)
      const view = t.kind === 'key' && t.value.includes('_') ? t.value.replace(/_/g, ' ') : undefined;
      plan.segments.push({ text: t.value, context: labelContext(t.label), ...(view ? { view } : {}) });
      plan.numeric.push(numeric);
    }
    plan.fields.push({ text, tokens: kept, first });
    return text;
  });
  return plan;
}

/** What redaction produced for the request. */
export interface RedactedRequest {
  req: RequestTexts;
  /** Values found in one text and replaced verbatim in another (added to the receipt's counts). */
  propagated: EntityCounts;
  /** placeholder → the JSON number literal it replaced, for placeholders that only ever replaced whole numbers. */
  numbers: Map<string, string>;
}

const WORD = '[0-9A-Za-z_\\u00C0-\\u024F]';

/**
 * Request-wide consistency: a value the engine found in one text is replaced wherever else it occurs verbatim in the
 * request (the engine judges each text on its own cues, so "Summarise Tan Ah Kow." may pass when an earlier
 * "Patient Tan Ah Kow" was caught). Exact surface form only (case-sensitive, whole words), so re-hydration restores
 * exactly what was written. Works on the redacted texts in place; returns the extra replacements per entity type.
 */
export function propagateKnownValues(texts: string[], mapping: Readonly<Record<string, string>>): EntityCounts {
  const byValue = new Map<string, string>();
  for (const [ph, v] of Object.entries(mapping)) if (v.length >= 2 && !byValue.has(v)) byValue.set(v, ph);
  const added: EntityCounts = {};
  if (!byValue.size) return added;
  const values = [...byValue.keys()].sort((a, b) => b.length - a.length);
  const re = new RegExp(`(?<!${WORD})(?:${values.map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})(?!${WORD})`, 'g');
  for (let i = 0; i < texts.length; i++) {
    const t = texts[i]!;
    if (!t) continue;
    texts[i] = t.replace(re, (m) => {
      const ph = byValue.get(m)!;
      const type = parsePlaceholder(ph)?.type;
      if (type) added[type] = (added[type] ?? 0) + 1;
      return ph;
    });
  }
  return added;
}

/**
 * Redact the planned request with the session: reserve every placeholder already in it, redact all segments in a few
 * engine passes, propagate found values, and put the texts back (JSON token by token). Throws RedactionFailedError
 * (the caller fails closed).
 */
export function redactPlanned(session: RedactionSession, plan: RedactionPlan): RedactedRequest {
  session.reserveAll(plan.segments.map((s) => s.text));
  const redacted = session.redactSegments(plan.segments);
  const propagated = propagateKnownValues(redacted, session.mapping);

  // placeholders that replaced whole JSON numbers, and only ever those
  const numbers = new Map<string, string>();
  const inText = new Set<string>();
  for (let i = 0; i < redacted.length; i++) {
    const r = redacted[i]!;
    if (r === plan.segments[i]!.text) continue;
    if (plan.numeric[i] && WHOLE_PLACEHOLDER.test(r)) {
      const prior = numbers.get(r);
      if (prior === undefined || prior === plan.segments[i]!.text) numbers.set(r, plan.segments[i]!.text);
      else inText.add(r); // two different literals behind one placeholder: restore as text
    } else for (const m of r.matchAll(/\[[A-Z_]+_\d{1,9}\]/g)) inText.add(m[0]);
  }
  for (const ph of inText) numbers.delete(ph);

  let k = 0;
  const req = mapTexts(plan.req, (text) => {
    if (!text) return text;
    const field = plan.fields[k++]!;
    if (!field.tokens) return redacted[field.first]!;
    const replacements = field.tokens.map((t, j) => {
      const r = redacted[field.first + j]!;
      return r === t.value ? undefined : JSON.stringify(r);
    });
    return rebuildJson(field.text, field.tokens, replacements);
  });
  return { req, propagated, numbers };
}

/* ---------------------------------------------------------------- values that cannot carry a placeholder */

interface Token {
  value: string;
  param: string;
  /** Split camelCase (function names are words; ids are random and must not be split into name-like pieces). */
  words: boolean;
}

const TYPE_WORDS: Record<EntityType, string> = {
  PERSON: 'a name',
  MY_IC: 'an IC number',
  MRN: 'a medical record number',
  PASSPORT: 'a passport number',
  PHONE: 'a phone number',
  EMAIL: 'an e-mail address',
  CARD_NUMBER: 'a card number',
  BANK_ACCOUNT: 'a bank account number',
};

/**
 * Function names, tool-call ids and the reasoning options are forwarded as written (a placeholder is not a valid
 * name or id), so they are screened instead: the schema restricts their shape, and when the engine finds anything in
 * one of them the request is refused with 400 `identifier_in_token`, naming the field. Throws RedactionFailedError
 * when the engine fails (the caller fails closed).
 */
export function screenTokens(session: RedactionSession, req: Pick<ChatRequest, 'messages' | 'tools' | 'reasoning'>): void {
  const tokens: Token[] = [];
  req.tools?.forEach((t, i) => tokens.push({ value: t.function.name, param: `tools.${i}.function.name`, words: true }));
  req.messages.forEach((m, i) => {
    if (m.role === 'assistant') {
      m.tool_calls?.forEach((c, j) => {
        tokens.push({ value: c.function.name, param: `messages.${i}.tool_calls.${j}.function.name`, words: true });
        tokens.push({ value: c.id, param: `messages.${i}.tool_calls.${j}.id`, words: false });
      });
    } else if (m.role === 'tool') tokens.push({ value: m.tool_call_id, param: `messages.${i}.tool_call_id`, words: false });
  });
  if (req.reasoning?.effort) tokens.push({ value: req.reasoning.effort, param: 'reasoning.effort', words: false });
  if (req.reasoning?.summary) tokens.push({ value: req.reasoning.summary, param: 'reasoning.summary', words: false });
  if (!tokens.length) return;
  // each distinct spelling once, as words ("get_patient_Ahmad" reads "get patient Ahmad")
  const distinct = new Map<string, Token>();
  for (const t of tokens) {
    const text = t.words ? humanKey(t.value) : t.value.replace(/[_.:-]+/g, ' ').trim();
    if (text && !distinct.has(text)) distinct.set(text, t);
  }
  const texts = [...distinct.keys()];
  const found = session.detectSegments(texts);
  for (let i = 0; i < texts.length; i++) {
    const text = texts[i]!;
    // Only whole words count: the engine reads digits as word breaks, so inside a random id ("call_Yi1h9kg…") it
    // sees name-like fragments; a real name or number in an id is a word of its own ("call_Ahmad_Faizal").
    const edge = (k: number) => k <= 0 || k >= text.length || text[k - 1] === ' ' || text[k] === ' ';
    const types = [...new Set(found[i]!.filter((e) => edge(e.start) && edge(e.end)).map((e) => e.type))];
    if (!types.length) continue;
    const t = distinct.get(text)!;
    throw badRequest(
      `${t.param} looks like it contains ${types.map((x) => TYPE_WORDS[x]).join(' and ')}. Function names, tool-call ids and reasoning options are sent to the model as written (they cannot carry a placeholder), so the request is refused; use a name or id without personal data.`,
      'identifier_in_token',
      { param: t.param },
    );
  }
}

/* ---------------------------------------------------------------- re-hydration */

/** Counts of a re-hydration (accumulated over content and tool-call arguments). */
export interface RehydrationCounts {
  replaced: number;
  repaired: number;
  unresolved: number;
}

export function emptyCounts(): RehydrationCounts {
  return { replaced: 0, repaired: 0, unresolved: 0 };
}

export interface RestoreOptions {
  /** The client's own placeholders (reserved, no original): left as written, never counted as unresolved. */
  reserved?: ReadonlySet<string>;
  /** Values written more than one way: their occurrences, so an answer quoting the input keeps its forms. */
  surfaces?: ReadonlyMap<string, readonly SurfaceOccurrence[]>;
  /** placeholder → JSON number literal: a JSON string that is exactly this placeholder comes back as the number. */
  numbers?: ReadonlyMap<string, string>;
}

function add(c: RehydrationCounts, r: RehydrateResult): string {
  c.replaced += r.replaced;
  c.repaired += r.repaired;
  c.unresolved += r.unresolved;
  return r.text;
}

/** JSON-aware re-hydration of a JSON text (undefined when the text is not a JSON object or array). */
function rehydrateJson(text: string, mapping: Readonly<Record<string, string>>, counts: RehydrationCounts, opts: RestoreOptions): string | undefined {
  const tokens = scanJson(text);
  if (!tokens) return undefined;
  const replacements = tokens.map((t) => {
    if (t.kind === 'number' || t.value.indexOf('[') < 0) return undefined;
    const number = t.kind === 'string' ? opts.numbers?.get(t.value) : undefined;
    if (number !== undefined) {
      counts.replaced++;
      return number;
    }
    // a string that is itself a JSON document (a tool result passed on inside arguments) is restored as JSON, so an
    // original with a line break or a quote keeps the inner document valid too
    const inner = /^\s*[[{]/.test(t.value) ? rehydrateJson(t.value, mapping, counts, opts) : undefined;
    const r = inner ?? add(counts, rehydrate(t.value, mapping, { ignore: opts.reserved, surfaces: opts.surfaces }));
    return r === t.value ? undefined : JSON.stringify(r);
  });
  return rebuildJson(text, tokens, replacements);
}

/**
 * Re-hydrate answer text. A text that is a JSON object or array is restored token by token (valid JSON stays valid);
 * other text placeholder by placeholder.
 */
export function rehydrateText(text: string, mapping: Readonly<Record<string, string>>, counts: RehydrationCounts, opts: RestoreOptions = {}): string {
  return rehydrateJson(text, mapping, counts, opts) ?? add(counts, rehydrate(text, mapping, { ignore: opts.reserved, surfaces: opts.surfaces }));
}

/**
 * Re-hydrate tool-call arguments. Valid JSON: every string and key is restored on its own token and re-encoded, so a
 * restored value with quotes or backslashes keeps the JSON valid, and a placeholder that replaced a JSON number comes
 * back as that number. Otherwise the text is restored with the values JSON-escaped (the arguments are JSON in intent).
 */
export function rehydrateArguments(args: string, mapping: Readonly<Record<string, string>>, counts: RehydrationCounts, opts: RestoreOptions = {}): string {
  const json = rehydrateJson(args, mapping, counts, opts);
  if (json !== undefined) return json;
  const escaped: Record<string, string> = {};
  for (const [k, v] of Object.entries(mapping)) escaped[k] = JSON.stringify(opts.numbers?.get(k) ?? v).slice(1, -1);
  return add(counts, rehydrate(args, escaped, { ignore: opts.reserved, escapeInJson: false }));
}
