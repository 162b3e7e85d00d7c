import { z } from 'zod';
import { authed, router, type AuthedContext } from '../trpc';
import { AppError } from '../../errors';
import { BatchCase, toEditInput, toGroupInput, VersionField } from '../schemas/drg';
import { getGrouper, resolveApiVersion } from '../../drg';
import { editsForCase } from '../../drg/mce';
import { ClassifyResponse, shapeClassifyResult, type ClassifyEcho } from '../../drg/explain';
import { EDIT_PAYMENT_DOC, EditViewSchema, MceSummarySchema } from '../../drg/explain';
import { CaseResultSchema } from '../../batch/outcome';
import {
  checkIdempotencyKey,
  checkSourceDialect,
  getBatch,
  getBatchCase,
  getBatchInputs,
  listBatches,
  MAX_CASES,
  submitBatch,
  type Submitter,
} from '../../batch';

/**
 * DRG batches (SPEC §4.5, §4.6): submit up to 1000 cases (or an uploaded case file) and poll the job.
 * Scope `drg:classify`; API keys over REST, the signed-in session over tRPC (the Batches page).
 */
const auth = { scope: 'drg:classify', jwt: false } as const;

const STATES_DOC = [
  'Job states (SPEC §3): `queued` (accepted, no chunk started yet) → `running` (a worker has taken a chunk) → `done` (every case finished and at least one succeeded) or `failed` (every case failed).',
  '`parked`: the organisation reached its spend cap (or a sandbox key its allowance) while the job ran; the cases that still fit were classified and billed, the rest stay `pending`. A parked job resumes automatically as `running` once the pool has room for a case again (the cap is raised or removed, or a new calendar month begins), checked every DRG_BATCH_RESUME_CHECK_SECONDS (default 30 s). Results written before parking are kept.',
  'Case states: `pending`, then `done` (with `result`) or `failed` (with `error` and `error_code`). A case fails when the grouper cannot assign a payable DRG: DRG 999 (`error_code` is the CMS return code, e.g. `INVALID_PDX`, `DX_CANNOT_BE_PDX`, `INVALID_SEX`) or a grouper error. Failed cases are not billed.',
].join('\n\n');

const CaseStatus = z.enum(['pending', 'done', 'failed']);

const CaseView = z.object({
  index: z.number().int().describe('0-based position in the submitted batch'),
  case_ref: z.string(),
  status: CaseStatus,
  result: CaseResultSchema.nullable(),
  error_code: z.string().nullable(),
  error: z.string().nullable(),
  edits: z
    .array(EditViewSchema)
    .nullable()
    .describe(`The case's Medicare Code Editor edits (done and failed cases; null while pending), as POST /drg/classify/ reports them. ${EDIT_PAYMENT_DOC}`),
  mce: MceSummarySchema.nullable().describe(
    'How the edits were checked (disposition, discharge date, edits not checked); null while pending or without MCE tables.',
  ),
});

const JobSummary = z.object({
  job_id: z.string(),
  status: z.enum(['queued', 'running', 'done', 'failed', 'parked']),
  version: z.string(),
  source_dialect: z.string(),
  file_id: z.string().nullable(),
  total_cases: z.number().int(),
  counts: z.object({ total: z.number().int(), done: z.number().int(), failed: z.number().int(), pending: z.number().int() }),
  billing: z.object({
    pool: z.enum(['production', 'sandbox']),
    price_per_case_usd: z.number(),
    billed_cases: z.number().int(),
    billed_usd: z.number(),
  }),
  park_count: z.number().int().describe('How often the job was parked at the spend cap'),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  parked_at: z.string().nullable().describe('When the job was last parked'),
  resumed_at: z.string().nullable().describe('When the job last resumed after parking'),
});

const JobDetail = JobSummary.extend({
  results: z.array(CaseView),
  page: z.object({
    offset: z.number().int(),
    limit: z.number().int(),
    returned: z.number().int(),
    total: z.number().int().describe('Cases matching the status filter'),
    status: CaseStatus.nullable(),
    next_offset: z.number().int().nullable().describe('offset of the next page, or null on the last page'),
  }),
});

export const SubmitInput = z.strictObject({
  // Checked first: an unsupported dialect is refused before the cases are looked at.
  source_dialect: z
    .string()
    .max(200)
    .optional()
    .transform((v) => checkSourceDialect(v))
    .describe("Only 'icd10cm' (the default). WHO ICD-10 ('icd10'), ICD-11 and anything else get 400 unsupported_source_dialect."),
  cases: z
    .array(BatchCase)
    .min(1, `a batch has 1 to ${MAX_CASES} cases`)
    .max(MAX_CASES, `a batch has 1 to ${MAX_CASES} cases`)
    .optional()
    .describe('1 to 1000 cases; case_ref must be unique within the batch. Required unless file_id is given.'),
  file_id: z
    .string()
    .uuid()
    .optional()
    .describe('Extension: instead of `cases`, the id of an uploaded CSV, JSONL or JSON case file (POST /upload/presigned-url/). Errors name line numbers.'),
  version: VersionField,
  allow_duplicate: z
    .boolean()
    .optional()
    .describe(
      'Extension, optional (default false): create a new, billed job even when these cases (same version and dialect) are identical to a job of this organisation that finished within DRG_BATCH_DUPLICATE_WINDOW_HOURS (default 24 h). Without it such a submission answers 409 `duplicate_batch` naming the earlier `job_id`.',
    ),
  idempotency_key: z
    .string()
    .optional()
    .describe('For the web UI over tRPC only. REST callers send the Idempotency-Key header; this field is refused on REST.'),
});

function submitter(ctx: AuthedContext): Submitter {
  const p = ctx.principal;
  return p.kind === 'api_key'
    ? { orgId: p.orgId, apiKeyId: p.keyId, userId: null, sandbox: p.sandbox }
    : { orgId: p.orgId, apiKeyId: null, userId: p.userId, sandbox: false };
}

export const batchRouter = router({
  submit: authed(auth, {
    method: 'POST',
    path: '/drg/batch',
    tags: ['drg'],
    summary: 'Submit a batch of up to 1000 cases for DRG classification',
    description: [
      'Asynchronous: nothing is classified during the call. Answers **201** with the job (`job_id`, `status` `queued`, `total_cases`, counts) at once; poll `GET /drg/batch/{job_id}/`.',
      '**Idempotency-Key** header (required, 8 to 128 printable ASCII characters): a retry with the same key from the same organisation answers **200** with the same job, without processing or billing anything again; the same key with a different request answers **409** `idempotency_conflict`. Missing or malformed keys get 400 (`idempotency_key_required`, `invalid_idempotency_key`).',
      'Body: `cases` (1 to 1000, unique `case_ref`; duplicates get 400 `duplicate_case_ref` naming them), `source_dialect` (`icd10cm` only; others get 400 `unsupported_source_dialect`), `version` (default v40; SPEC §2.4 lists v36-v40 and v43, v40.1-v42.1 and v43.1 are served as an extension beyond it; others get 400 `invalid_version` listing the accepted versions). Extension: `file_id` of an uploaded CSV/JSONL/JSON case file instead of `cases` (at most 4 MiB and 1000 cases: a larger file is refused before it is read, a longer one once its 1001st case is reached; 400 `invalid_case_file` names the lines).',
      'Re-submit guard (extension): with a **new** key, cases identical to a job of the same organisation (and pool) that finished (`done`) within DRG_BATCH_DUPLICATE_WINDOW_HOURS (default 24; 0 turns it off) answer **409** `{"error": "duplicate_batch", "message", "job_id", "finished_at", "window_hours"}` naming the earlier job: no job is created and nothing is charged. Identical means the same cases after validation (codes normalised), version and dialect, compared by a SHA-256 hash (a case file uploaded again counts as the same input). Send `"allow_duplicate": true` to create a new, billed job anyway. A retry with the **same** key is not affected (it answers 200 with its own job).',
      'Billing: one ledger row per successfully classified case, service type `drg_batch`, DRG_BATCH_PRICE_MICROS per case (default $0.001), written exactly once; failed cases are free; sandbox keys bill the sandbox pool. An organisation already at its spend cap gets **429** `spend_cap_reached` and is charged nothing.',
      STATES_DOC,
    ].join('\n\n'),
    requestHeaders: z.object({
      'Idempotency-Key': z
        .string()
        .min(8)
        .max(128)
        .describe('Required. Caller-chosen key, 8 to 128 printable ASCII characters (a UUID works); a retry with the same key returns the same job.'),
    }),
    successDescription: '201 Created for a new job; 200 OK for a retry with the same Idempotency-Key',
    errorResponses: [400, 401, 403, 404, 409, 429],
  })
    .use(({ ctx, next }) => {
      // REST: the header is required, and checked before the body.
      if (ctx.door === 'rest') checkIdempotencyKey(ctx.headers.get('idempotency-key'));
      return next();
    })
    .input(SubmitInput)
    .output(JobSummary)
    .mutation(async ({ ctx, input }) => {
      let key: string | null | undefined;
      if (ctx.door === 'rest') {
        if (input.idempotency_key !== undefined) {
          throw new AppError('invalid_request', 'idempotency_key: send the key in the Idempotency-Key header, not in the body.');
        }
        key = ctx.headers.get('idempotency-key');
      } else key = ctx.headers.get('idempotency-key') ?? input.idempotency_key;
      const { created, job } = await submitBatch(ctx.db, submitter(ctx), {
        idempotencyKey: key,
        version: input.version,
        sourceDialect: input.source_dialect,
        cases: input.cases,
        fileId: input.file_id,
        allowDuplicate: input.allow_duplicate === true,
      });
      ctx.response.status = created ? 201 : 200;
      ctx.response.headers.set('location', `/api/v1/drg/batch/${job.job_id}/`);
      return job;
    }),

  get: authed(auth, {
    method: 'GET',
    path: '/drg/batch/{job_id}',
    tags: ['drg'],
    summary: 'Batch job status and per-case results',
    description: [
      "Status, counts (`total`, `done`, `failed`, `pending`), timestamps, billing, and one page of per-case results in submission order (`index`, `case_ref`, `status`, `result` or `error`). Results appear as cases complete; poll until `status` is `done` or `failed`. Another organisation's job answers 404.",
      'Paging: `offset` (default 0) and `limit` (default 100, at most 1000); `page.next_offset` is the next page or null. `status=failed` (or `done`, `pending`) returns only cases in that state.',
      STATES_DOC,
    ].join('\n\n'),
    errorResponses: [400, 401, 403, 404],
  })
    .input(
      z.object({
        job_id: z.string().min(1).max(64),
        offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
        limit: z.coerce.number().int().min(1).max(1000).default(100),
        status: CaseStatus.optional(),
      }),
    )
    .output(JobDetail)
    .query(async ({ ctx, input }) => getBatch(ctx.db, ctx.principal.orgId, input.job_id, { offset: input.offset, limit: input.limit, status: input.status })),

  /** UI only: the submitted codes of a page of cases (the screen and the CSV export show them beside the results). */
  inputs: authed(auth)
    .input(
      z.object({
        job_id: z.string().min(1).max(64),
        offset: z.number().int().min(0).max(1_000_000).default(0),
        limit: z.number().int().min(1).max(1000).default(100),
      }),
    )
    .query(async ({ ctx, input }) => getBatchInputs(ctx.db, ctx.principal.orgId, input.job_id, { offset: input.offset, limit: input.limit })),

  /**
   * UI only: one case of a job explained in full, as POST /drg/classify/ would (same grouper version, the stored
   * input). Free, like classify: the batch already billed the case.
   */
  explain: authed(auth)
    .input(z.object({ job_id: z.string().min(1).max(64), index: z.number().int().min(0).max(1_000_000) }))
    .output(z.object({ case_ref: z.string(), index: z.number().int(), result: ClassifyResponse }))
    .query(async ({ ctx, input }) => {
      const startedAt = performance.now();
      const { version, case_ref, input: c } = await getBatchCase(ctx.db, ctx.principal.orgId, input.job_id, input.index);
      const grouper = await getGrouper(resolveApiVersion(version));
      const result = grouper.group(toGroupInput(c), { codes: 'lenient', detail: true });
      const echo: ClassifyEcho = { dx_codes: c.dx_codes, pr_codes: c.pr_codes ?? [], gender: c.gender, is_alive: c.is_alive };
      if (c.discharge_status !== undefined) echo.discharge_status = c.discharge_status;
      if (c.poa !== undefined) echo.poa = c.poa;
      return { case_ref, index: input.index, result: await shapeClassifyResult(result, echo, startedAt, editsForCase(toEditInput(c), grouper)) };
    }),

  list: authed(auth, {
    method: 'GET',
    path: '/drg/batch',
    tags: ['drg'],
    summary: "The organisation's batch jobs, newest first",
    description: 'Summaries without case results. Paging: `offset` (default 0), `limit` (default 20, at most 100).',
    errorResponses: [400, 401, 403],
  })
    .input(
      z.object({
        offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
        limit: z.coerce.number().int().min(1).max(100).default(20),
      }),
    )
    .output(z.object({ jobs: z.array(JobSummary), total: z.number().int() }))
    .query(async ({ ctx, input }) => listBatches(ctx.db, ctx.principal.orgId, input)),
});
