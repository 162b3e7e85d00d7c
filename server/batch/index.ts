/**
 * DRG batch jobs (SPEC §2.5, §3, §4.5, §4.6): submission with idempotency keys, chunked processing on pg-boss,
 * exactly-once billing per classified case, spend-cap parking with automatic resume. See README "Batch DRG jobs".
 */
export { batchConfig, MAX_CASES, MAX_CASE_FILE_BYTES, IDEMPOTENCY_KEY_MAX, IDEMPOTENCY_KEY_MIN, SERVICE_TYPE, ledgerRef, type BatchConfig } from './config';
export { submitBatch, checkIdempotencyKey, checkSourceDialect, SOURCE_DIALECTS, type Submitter, type SubmitRequest } from './submit';
export {
  getBatch,
  getBatchCase,
  getBatchInputs,
  getBatchSummary,
  listBatches,
  type BatchDetail,
  type BatchSummary,
  type BatchStatus,
  type CaseStatus,
  type CaseView,
} from './read';
export { classifyCase, toCaseResult, type CaseEditsView, type CaseOutcome, type CaseResult } from './outcome';
export { parseCaseFile, detectFormat, describeCaseFileErrors, type ParsedCaseFile, type CaseFileError, type CaseFileFormat } from './case-file';
export { processChunk, checkParked } from './process';
export { CHUNK_QUEUE, RESUME_QUEUE, SWEEP_TASK, ensureBatchQueues } from './jobs';
export { sweepBatches, type SweepResult } from './sweep';
