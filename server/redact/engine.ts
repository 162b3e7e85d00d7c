/**
 * Detection pipeline: pre-redacted placeholders -> clinical allow-list -> typed identifier recognizers (each followed by
 * the context step) -> overlap resolution -> default-deny identifier sweep -> PERSON recognizers -> final resolution. Fails closed: any recognizer error or an exhausted time budget throws
 * RedactionFailedError, never a partial result.
 */
import { RedactionFailedError } from './errors';
import { activeFaults, busyWait, type FaultInjection } from './fault-injection';
import { getGazetteer, type Gazetteer } from './gazetteer';
import { PLACEHOLDER_RE } from './placeholders';
import { enhanceWithContext, type AnalysisContext, type Recognizer } from './recognizers/base';
import { findClinicalSpans } from './recognizers/clinical-allow-list';
import { emailNameParts, findEmails } from './recognizers/email';
import { normalizeText, toOriginalSpan, type NormalizedText } from './recognizers/normalize';
import { getDefaultRegistry, type RecognizerRegistry } from './recognizers/registry';
import { protectionMasks, resolveCandidates } from './resolver';
import { lowerCaseLines, tokenize } from './tokens';
import { SCORE_THRESHOLD, type Candidate, type ProtectedSpan, type Span } from './types';

export const DEFAULT_TIME_BUDGET_MS = 2000;
export const MAX_TEXT_LENGTH = 100_000;

export interface AnalyzeOptions {
  /** Time budget for one text, in ms (default 2000). Exceeding it throws RedactionFailedError. */
  timeBudgetMs?: number;
  /** Absolute deadline (performance.now() ms); overrides timeBudgetMs when earlier. */
  deadline?: number;
  registry?: RecognizerRegistry;
  scoreThreshold?: number;
  /** Test-only; see faultInjection.ts. Ignored unless NODE_ENV=test and REDACT_FAULT_INJECTION=1. */
  faultInjection?: FaultInjection;
  lexicon?: Gazetteer;
  /** When given, milliseconds spent per stage are added to it (benchmarks, diagnostics). */
  profile?: Record<string, number>;
}

export interface AnalysisResult {
  entities: Candidate[];
  /** Placeholders already present in the input (`[PERSON_1]`), left untouched. */
  preredacted: Array<Span & { placeholder: string }>;
  protectedSpans: ProtectedSpan[];
}

export function analyzeText(original: string, opts: AnalyzeOptions = {}): AnalysisResult {
  if (typeof original !== 'string') throw new RedactionFailedError('invalid_input', 'text must be a string');
  // The word data loads once per thread (about 2 s on a cold cache): that is the process's start-up, not this text's
  // work, so the text's own budget starts after it. A caller's deadline (a request's budget) still holds as given;
  // servers load it before they take traffic (warmRedaction).
  let lex: Gazetteer;
  try {
    lex = opts.lexicon ?? getGazetteer();
  } catch (e) {
    throw new RedactionFailedError('configuration', 'redaction gazetteers could not be loaded', { cause: e });
  }
  const t0 = performance.now();
  const budget = opts.timeBudgetMs ?? DEFAULT_TIME_BUDGET_MS;
  const deadline = Math.min(t0 + budget, opts.deadline ?? Infinity);
  const faults = activeFaults(opts.faultInjection);
  let ticks = 0;
  const checkDeadline = () => {
    // performance.now() is cheap but not free; sample it
    if ((++ticks & 63) !== 0) return;
    if (performance.now() > deadline) {
      throw new RedactionFailedError('time_budget_exceeded', `redaction exceeded its time budget of ${budget} ms`);
    }
  };
  const hardCheck = () => {
    if (performance.now() > deadline) {
      throw new RedactionFailedError('time_budget_exceeded', `redaction exceeded its time budget of ${budget} ms`);
    }
  };

  const registry = opts.registry ?? getDefaultRegistry();
  const threshold = opts.scoreThreshold ?? SCORE_THRESHOLD;

  // 0. look-alike characters (full-width digits, odd dashes and spaces, zero-width characters) are normalised for
  //    analysis; every span is mapped back to the original text at the end
  let nt: NormalizedText;
  try {
    nt = normalizeText(original);
  } catch (e) {
    throw new RedactionFailedError('recognizer_error', 'recognizer normalize failed', { recognizer: 'normalize', cause: e });
  }
  const text = nt.text;

  // 1. placeholders already in the text
  const preredacted: AnalysisResult['preredacted'] = [];
  for (const m of text.matchAll(PLACEHOLDER_RE)) {
    preredacted.push({ start: m.index, end: m.index + m[0].length, placeholder: m[0] });
  }

  const run = <T>(name: string, f: () => T): T => {
    if (faults?.throwIn && (faults.throwIn === name || faults.throwIn === '*')) {
      throw new RedactionFailedError('recognizer_error', `recognizer ${name} failed`, {
        recognizer: name,
        cause: new Error('injected fault'),
      });
    }
    if (faults?.delayMs) busyWait(faults.delayMs);
    try {
      const t = opts.profile ? performance.now() : 0;
      const r = f();
      if (opts.profile) opts.profile[name] = (opts.profile[name] ?? 0) + performance.now() - t;
      hardCheck();
      return r;
    } catch (e) {
      if (e instanceof RedactionFailedError) throw e;
      throw new RedactionFailedError('recognizer_error', `recognizer ${name} failed`, { recognizer: name, cause: e });
    }
  };

  const tokens = run('tokenizer', () => tokenize(text, lex));
  const norms = run('norms', () => tokens.map((t) => t.norm));
  const lineStarts = [0];
  for (let k = text.indexOf('\n'); k >= 0; k = text.indexOf('\n', k + 1)) lineStarts.push(k + 1);
  const lowerLines = lowerCaseLines(tokens, lineStarts.length);
  const protectedSpans = run('clinical_allow_list', () => findClinicalSpans(text, tokens, lex, norms, lowerLines));
  const masks = run('protection_masks', () => protectionMasks(text.length, protectedSpans));
  const occupied: Span[] = preredacted.map((p) => ({ start: p.start, end: p.end }));
  const emails = run('email_scan', () => findEmails(text));
  const ctx: AnalysisContext = {
    text,
    lex,
    tokens,
    norms,
    lineStarts,
    lowerLines,
    protectedSpans,
    protectionMask: masks.all,
    idProtectionMask: masks.ids,
    occupied,
    emails,
    emailNameParts: emailNameParts(emails),
    typedRecognizers: registry.structuredRecognizers(),
    profile: opts.profile,
    checkDeadline,
  };

  const taken = new Uint8Array(text.length);
  for (const p of preredacted) taken.fill(1, p.start, p.end);

  // 2. identifiers
  const structured: Candidate[] = [];
  for (const r of registry.structuredRecognizers()) {
    structured.push(...run(r.name, () => analyzeWith(r, ctx)));
  }
  const typed = run('resolve_ids', () => resolveCandidates(text.length, structured, masks, threshold, taken));

  // 3. default deny: what no typed recognizer claimed and the allow-list does not explain
  for (const id of typed) occupied.push({ start: id.start, end: id.end });
  const swept: Candidate[] = [];
  for (const r of registry.fallbackRecognizers()) swept.push(...run(r.name, () => analyzeWith(r, ctx)));
  const ids = swept.length ? [...typed, ...swept] : typed;

  // 4. names, which may not overlap accepted identifiers
  for (const id of swept) occupied.push({ start: id.start, end: id.end });
  const names: Candidate[] = [];
  for (const r of registry.nameRecognizers()) {
    names.push(...run(r.name, () => analyzeWith(r, ctx)));
  }
  const entities = run('resolve_all', () => resolveCandidates(text.length, [...ids, ...names], masks, threshold, taken));
  hardCheck();
  if (!nt.map) return { entities, preredacted, protectedSpans };
  const back = <T extends Span>(x: T): T => ({ ...x, ...toOriginalSpan(nt, x.start, x.end) });
  return { entities: entities.map(back), preredacted: preredacted.map(back), protectedSpans: protectedSpans.map(back) };
}

function analyzeWith(r: Recognizer, ctx: AnalysisContext): Candidate[] {
  const out = r.analyze(ctx);
  for (const c of out) {
    if (!(c.start >= 0 && c.end <= ctx.text.length && c.start < c.end)) {
      throw new Error(`recognizer ${r.name} produced an invalid span`);
    }
  }
  enhanceWithContext(r, out, ctx.text);
  return out;
}
