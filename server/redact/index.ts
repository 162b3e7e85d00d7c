import { redactText } from './session';
/**
 * PHI redaction core. HTTP-free: the redact door, the chat gateway, the agent, the batch worker and the CLI all call
 * these functions. See README.md in this folder for decisions (placeholders, partial names, fail-closed, offsets).
 */
export { ENTITY_TYPES, SCORE_THRESHOLD, isEntityType } from './types';
export type { EntityType, EntityCounts, RedactedEntity, Candidate, ProtectedSpan, Span } from './types';
export { RedactionFailedError, isRedactionFailedError } from './errors';
export type { RedactionFailureReason } from './errors';
export { analyzeText, DEFAULT_TIME_BUDGET_MS, MAX_TEXT_LENGTH } from './engine';
export type { AnalyzeOptions, AnalysisResult } from './engine';
export { RedactionSession, redactText, makeCodePointConverter, SEGMENT_PASS_CHARS } from './session';
export type { RedactOptions, RedactTextResult, Segment } from './session';
export { rehydrate, PlaceholderSafeChunker, StreamingRehydrator } from './rehydrate';
export type { SurfaceOccurrence } from './rehydrate';
export type { RehydrateResult, RehydrateOptions } from './rehydrate';
export { buildReceipt, failedClosedReceipt, ENGINE_NAME, ENGINE_VERSION, EntityCountsSchema, RedactionReceiptSchema } from './receipt';
export type { RedactionReceipt, ReceiptInput, ReceiptStatus } from './receipt';
export { PlaceholderAllocator, normalizeValue, formatPlaceholder, parsePlaceholder, PLACEHOLDER_RE } from './placeholders';
export { RecognizerRegistry, DEFAULT_RECOGNIZERS, getDefaultRegistry } from './recognizers/registry';
export type { Recognizer, AnalysisContext } from './recognizers/base';
export { faultInjectionEnabled, faultInjectionFromHeaders, FAULT_HEADER } from './fault-injection';
export type { FaultInjection } from './fault-injection';

/**
 * Load the word data and compile the recognizers now (the first call reads the gazetteers and the medical vocabulary,
 * about two seconds on a cold cache), so that the first request's time budget is not spent on it. Every thread that
 * redacts calls this before it takes traffic: the server's main thread, each pool thread, the test servers.
 */
export function warmRedaction(): void {
  // a generous budget: the first pass runs cold code, and a loaded machine must not fail the warm-up itself
  redactText('Warm-up: Ahmad bin Ali, IC 850101-14-5673, tel 012-345 6789.', { timeBudgetMs: 120_000 });
}
