import { records, type RecordsSource } from '../db';
import type { DrgBatch, Prisma } from '../generated/prisma/client';
import { notFound } from '../errors';
import { versionSpec } from '../drg/versions';
import { BatchCase } from '../api/schemas/drg';
import { caseEdits, CaseResultSchema, type CaseEditsView, type CaseInput, type StoredCaseResult } from './outcome';

/** Read models of DRG batch jobs: the summary (status, counts, timestamps, billing) and pages of case results. */
export type BatchStatus = 'queued' | 'running' | 'done' | 'failed' | 'parked';
export type CaseStatus = 'pending' | 'done' | 'failed';

export interface BatchSummary {
  job_id: string;
  status: BatchStatus;
  version: string;
  source_dialect: string;
  file_id: string | null;
  total_cases: number;
  counts: { total: number; done: number; failed: number; pending: number };
  billing: { pool: 'production' | 'sandbox'; price_per_case_usd: number; billed_cases: number; billed_usd: number };
  park_count: number;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  parked_at: string | null;
  resumed_at: string | null;
}

export interface CaseView {
  index: number;
  case_ref: string;
  status: CaseStatus;
  result: StoredCaseResult | null;
  error_code: string | null;
  error: string | null;
  /** The Medicare Code Editor's edits of a finished case (done or failed); null while pending. */
  edits: CaseEditsView['edits'] | null;
  mce: CaseEditsView['mce'];
}

export interface BatchDetail extends BatchSummary {
  results: CaseView[];
  page: { offset: number; limit: number; returned: number; total: number; status: CaseStatus | null; next_offset: number | null };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BATCH_STATUSES: readonly BatchStatus[] = ['queued', 'running', 'done', 'failed', 'parked'];
const CASE_STATUSES: readonly CaseStatus[] = ['pending', 'done', 'failed'];
const batchStatusOf = (s: string): BatchStatus => BATCH_STATUSES.find((x) => x === s) ?? 'failed';
const caseStatusOf = (s: string): CaseStatus => CASE_STATUSES.find((x) => x === s) ?? 'failed';

/** A stored case input (drg_batch_cases.input, JSON): the validated case without case_ref, checked again when read. */
const StoredCaseInput = BatchCase.omit({ case_ref: true });
function caseInputOf(v: Prisma.JsonValue): CaseInput {
  return StoredCaseInput.parse(v);
}

function summary(r: DrgBatch): BatchSummary {
  const done = r.doneCount;
  const failed = r.failedCount;
  const total = r.totalCases;
  return {
    job_id: r.id,
    status: batchStatusOf(r.status),
    version: r.version,
    source_dialect: r.sourceDialect,
    file_id: r.fileId,
    total_cases: total,
    counts: { total, done, failed, pending: total - done - failed },
    billing: {
      pool: r.sandbox ? 'sandbox' : 'production',
      price_per_case_usd: Number(r.priceMicros) / 1e6,
      billed_cases: done,
      billed_usd: Number(r.billedMicros) / 1e6,
    },
    park_count: r.parkCount,
    created_at: r.createdAt.toISOString(),
    started_at: r.startedAt?.toISOString() ?? null,
    finished_at: r.finishedAt?.toISOString() ?? null,
    parked_at: r.parkedAt?.toISOString() ?? null,
    resumed_at: r.resumedAt?.toISOString() ?? null,
  };
}

export async function getBatchSummary(src: RecordsSource, orgId: string, jobId: string): Promise<BatchSummary> {
  if (!UUID.test(jobId)) throw notFound('Batch job not found.', 'job_not_found');
  const row = await records(src).drgBatch.findFirst({ where: { id: jobId, orgId } });
  if (!row) throw notFound('Batch job not found.', 'job_not_found');
  return summary(row);
}

/** A job with one page of its case results, in submission order (optionally only cases in one state). */
export async function getBatch(
  src: RecordsSource,
  orgId: string,
  jobId: string,
  page: { offset: number; limit: number; status?: CaseStatus | null },
): Promise<BatchDetail> {
  const s = await getBatchSummary(src, orgId, jobId);
  const status = page.status ?? null;
  const cases = await records(src).drgBatchCase.findMany({
    where: { batchId: jobId, ...(status !== null ? { status } : {}) },
    orderBy: { idx: 'asc' },
    skip: page.offset,
    take: page.limit,
  });
  const total = status === null ? s.total_cases : status === 'done' ? s.counts.done : status === 'failed' ? s.counts.failed : s.counts.pending;
  const version = versionSpec(s.version);
  const results = cases.map((c) => {
    // Finished cases carry the Medicare Code Editor's edits of the stored case (see caseEdits).
    const cs = caseStatusOf(c.status);
    const e = cs === 'pending' ? null : caseEdits(version, caseInputOf(c.input));
    return {
      index: c.idx,
      case_ref: c.caseRef,
      status: cs,
      result: c.result === null ? null : CaseResultSchema.parse(c.result),
      error_code: c.errorCode,
      error: c.error,
      edits: e ? e.edits : null,
      mce: e ? e.mce : null,
    };
  });
  const next = page.offset + results.length;
  return {
    ...s,
    results,
    page: {
      offset: page.offset,
      limit: page.limit,
      returned: results.length,
      total,
      status,
      next_offset: results.length === page.limit && next < total ? next : null,
    },
  };
}

export async function listBatches(
  src: RecordsSource,
  orgId: string,
  page: { offset: number; limit: number },
): Promise<{ jobs: BatchSummary[]; total: number }> {
  const q = records(src);
  const [rows, total] = await Promise.all([
    q.drgBatch.findMany({ where: { orgId }, orderBy: [{ createdAt: 'desc' }, { id: 'asc' }], skip: page.offset, take: page.limit }),
    q.drgBatch.count({ where: { orgId } }),
  ]);
  return { jobs: rows.map(summary), total };
}

/** The submitted codes of a page of cases (the Batches page: the screen and the CSV export show them). */
export async function getBatchInputs(
  src: RecordsSource,
  orgId: string,
  jobId: string,
  page: { offset: number; limit: number },
): Promise<Array<{ index: number; dx_codes: string[]; pr_codes: string[]; gender: string | null; is_alive: boolean | null; discharge_status: number | null }>> {
  await getBatchSummary(src, orgId, jobId);
  const rows = await records(src).drgBatchCase.findMany({
    where: { batchId: jobId },
    orderBy: { idx: 'asc' },
    skip: page.offset,
    take: page.limit,
    select: { idx: true, input: true },
  });
  return rows.map((r) => {
    const c = caseInputOf(r.input);
    return {
      index: r.idx,
      dx_codes: c.dx_codes ?? [],
      pr_codes: c.pr_codes ?? [],
      gender: c.gender ?? null,
      is_alive: typeof c.is_alive === 'boolean' ? c.is_alive : null,
      discharge_status: typeof c.discharge_status === 'number' ? c.discharge_status : null,
    };
  });
}

/** One stored case of a job (its full input), for the explanation; 404 for another organisation's job or an index out of range. */
export async function getBatchCase(
  src: RecordsSource,
  orgId: string,
  jobId: string,
  index: number,
): Promise<{ version: string; case_ref: string; input: CaseInput }> {
  const s = await getBatchSummary(src, orgId, jobId);
  const row = await records(src).drgBatchCase.findUnique({ where: { batchId_idx: { batchId: jobId, idx: index } }, select: { caseRef: true, input: true } });
  if (!row) throw notFound(`The job has no case ${index + 1}.`, 'case_not_found');
  return { version: s.version, case_ref: row.caseRef, input: caseInputOf(row.input) };
}
