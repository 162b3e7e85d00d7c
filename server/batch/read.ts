import type { Queryable } from '../db';
import { notFound } from '../errors';
import { versionSpec } from '../drg/versions';
import { caseEdits, type CaseEditsView, type CaseInput, type CaseResult } from './outcome';

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
  result: CaseResult | null;
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

type Row = {
  id: string;
  status: BatchStatus;
  version: string;
  source_dialect: string;
  file_id: string | null;
  sandbox: boolean;
  total_cases: number;
  done_count: number;
  failed_count: number;
  price_micros: string;
  billed_micros: string;
  park_count: number;
  created_at: Date | string;
  started_at: Date | string | null;
  finished_at: Date | string | null;
  parked_at: Date | string | null;
  resumed_at: Date | string | null;
};

const COLUMNS = `id, status, version, source_dialect, file_id, sandbox, total_cases, done_count, failed_count,
  price_micros::text AS price_micros, billed_micros::text AS billed_micros, park_count, created_at, started_at, finished_at, parked_at, resumed_at`;

const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function summary(r: Row): BatchSummary {
  const done = Number(r.done_count);
  const failed = Number(r.failed_count);
  const total = Number(r.total_cases);
  return {
    job_id: r.id,
    status: r.status,
    version: r.version,
    source_dialect: r.source_dialect,
    file_id: r.file_id,
    total_cases: total,
    counts: { total, done, failed, pending: total - done - failed },
    billing: {
      pool: r.sandbox ? 'sandbox' : 'production',
      price_per_case_usd: Number(r.price_micros) / 1e6,
      billed_cases: done,
      billed_usd: Number(r.billed_micros) / 1e6,
    },
    park_count: Number(r.park_count),
    created_at: iso(r.created_at)!,
    started_at: iso(r.started_at),
    finished_at: iso(r.finished_at),
    parked_at: iso(r.parked_at),
    resumed_at: iso(r.resumed_at),
  };
}

export async function getBatchSummary(q: Queryable, orgId: string, jobId: string): Promise<BatchSummary> {
  if (!UUID.test(jobId)) throw notFound('Batch job not found.', 'job_not_found');
  const rows = await q.query<Row>(`SELECT ${COLUMNS} FROM drg_batches WHERE id = $1 AND org_id = $2`, [jobId, orgId]);
  if (!rows[0]) throw notFound('Batch job not found.', 'job_not_found');
  return summary(rows[0]);
}

/** A job with one page of its case results, in submission order (optionally only cases in one state). */
export async function getBatch(
  q: Queryable,
  orgId: string,
  jobId: string,
  page: { offset: number; limit: number; status?: CaseStatus | null },
): Promise<BatchDetail> {
  const s = await getBatchSummary(q, orgId, jobId);
  const status = page.status ?? null;
  const cases = await q.query<{ idx: number; case_ref: string; status: CaseStatus; input: CaseInput | string; result: CaseResult | string | null; error_code: string | null; error: string | null }>(
    `SELECT idx, case_ref, status, input, result, error_code, error FROM drg_batch_cases
      WHERE batch_id = $1 AND ($2::text IS NULL OR status = $2) ORDER BY idx OFFSET $3 LIMIT $4`,
    [jobId, status, page.offset, page.limit],
  );
  const total = status === null ? s.total_cases : status === 'done' ? s.counts.done : status === 'failed' ? s.counts.failed : s.counts.pending;
  const version = versionSpec(s.version);
  const results = cases.map((c) => {
    // Finished cases carry the Medicare Code Editor's edits of the stored case (see caseEdits).
    const e = c.status === 'pending' ? null : caseEdits(version, typeof c.input === 'string' ? (JSON.parse(c.input) as CaseInput) : c.input);
    return {
      index: Number(c.idx),
      case_ref: c.case_ref,
      status: c.status,
      result: typeof c.result === 'string' ? (JSON.parse(c.result) as CaseResult) : c.result,
      error_code: c.error_code,
      error: c.error,
      edits: e ? e.edits : null,
      mce: e ? e.mce : null,
    };
  });
  const next = page.offset + results.length;
  return {
    ...s,
    results,
    page: { offset: page.offset, limit: page.limit, returned: results.length, total, status, next_offset: results.length === page.limit && next < total ? next : null },
  };
}

export async function listBatches(q: Queryable, orgId: string, page: { offset: number; limit: number }): Promise<{ jobs: BatchSummary[]; total: number }> {
  const [rows, count] = await Promise.all([
    q.query<Row>(`SELECT ${COLUMNS} FROM drg_batches WHERE org_id = $1 ORDER BY created_at DESC, id OFFSET $2 LIMIT $3`, [orgId, page.offset, page.limit]),
    q.query<{ n: number }>('SELECT count(*)::int AS n FROM drg_batches WHERE org_id = $1', [orgId]),
  ]);
  return { jobs: rows.map(summary), total: Number(count[0]?.n ?? 0) };
}

/** The submitted codes of a page of cases (the Batches page: the screen and the CSV export show them). */
export async function getBatchInputs(
  q: Queryable,
  orgId: string,
  jobId: string,
  page: { offset: number; limit: number },
): Promise<Array<{ index: number; dx_codes: string[]; pr_codes: string[]; gender: string | null; is_alive: boolean | null; discharge_status: number | null }>> {
  await getBatchSummary(q, orgId, jobId);
  const rows = await q.query<{ idx: number; input: CaseInput | string }>('SELECT idx, input FROM drg_batch_cases WHERE batch_id = $1 ORDER BY idx OFFSET $2 LIMIT $3', [jobId, page.offset, page.limit]);
  return rows.map((r) => {
    const c = typeof r.input === 'string' ? (JSON.parse(r.input) as CaseInput) : r.input;
    return {
      index: Number(r.idx),
      dx_codes: c.dx_codes ?? [],
      pr_codes: c.pr_codes ?? [],
      gender: c.gender ?? null,
      is_alive: typeof c.is_alive === 'boolean' ? c.is_alive : null,
      discharge_status: typeof c.discharge_status === 'number' ? c.discharge_status : null,
    };
  });
}

/** One stored case of a job (its full input), for the explanation; 404 for another organisation's job or an index out of range. */
export async function getBatchCase(q: Queryable, orgId: string, jobId: string, index: number): Promise<{ version: string; case_ref: string; input: CaseInput }> {
  const s = await getBatchSummary(q, orgId, jobId);
  const rows = await q.query<{ case_ref: string; input: CaseInput | string }>('SELECT case_ref, input FROM drg_batch_cases WHERE batch_id = $1 AND idx = $2', [jobId, index]);
  if (!rows[0]) throw notFound(`The job has no case ${index + 1}.`, 'case_not_found');
  const input = typeof rows[0].input === 'string' ? (JSON.parse(rows[0].input) as CaseInput) : rows[0].input;
  return { version: s.version, case_ref: rows[0].case_ref, input };
}
