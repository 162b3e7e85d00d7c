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
export { buildReceipt, failedClosedReceipt, ENGINE_NAME, ENGINE_VERSION } from './receipt';
export type { RedactionReceipt, ReceiptInput, ReceiptStatus } from './receipt';
export { PlaceholderAllocator, normalizeValue, formatPlaceholder, parsePlaceholder, PLACEHOLDER_RE } from './placeholders';
export { RecognizerRegistry, DEFAULT_RECOGNIZERS, getDefaultRegistry } from './recognizers/registry';
export type { Recognizer, AnalysisContext } from './recognizers/base';
export { faultInjectionEnabled, faultInjectionFromHeaders, FAULT_HEADER } from './faultInjection';
export type { FaultInjection } from './faultInjection';
