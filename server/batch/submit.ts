import { createHash, randomUUID } from 'node:crypto';
import type { Database } from '../db';
import { AppError, badRequest } from '../errors';
import { resolveApiVersion } from '../drg';
import { assertUnderCap } from '../billing/ledger';
import { readUpload } from '../storage/uploads';
import type { BatchCase } from '../api/schemas/drg';
import { batchConfig, IDEMPOTENCY_KEY_MAX, IDEMPOTENCY_KEY_MIN, MAX_CASE_FILE_BYTES, MAX_CASES } from './config';
import { describeCaseFileErrors, duplicateCaseRefs, parseCaseFile } from './case-file';
import { ensureBatchQueues, insertChunkJobs } from './jobs';
import { getBatchSummary, type BatchSummary } from './read';

/**
 * Submitting a DRG batch (SPEC §4.5). Nothing is classified here: the job and its cases are stored and the chunk
 * jobs queued in one transaction, and the caller gets the job id at once.
 *
 * Idempotency: (organisation, Idempotency-Key) is unique. The same key with the same request returns the same job
 * (`created: false`, HTTP 200) without new work or charges; the same key with a different request is a 409
 * `idempotency_conflict`. "Same request" means the same cases after validation (codes normalised), version,
 * dialect and file id, compared by SHA-256. The key is checked before the spend cap, so a retry of an accepted
 * batch is answered even when the organisation has since reached its cap.
 *
 * Re-submit guard: a new key with an input identical to a batch of the same organisation (and the same sandbox flag)
 * that finished (`done`) within DRG_BATCH_DUPLICATE_WINDOW_HOURS (default 24; 0 turns the guard off) is a 409
 * `duplicate_batch` naming the earlier job, unless the request sets `allowDuplicate`. "Identical" is the SHA-256 of
 * the normalised cases, version and dialect (not the file id: the same file uploaded twice is the same input); only
 * the hash is stored. The check runs before the spend cap and before anything is written: no job, no charge.
 */
export interface Submitter {
  orgId: string;
  apiKeyId: string | null;
  userId: string | null;
  sandbox: boolean;
}

export interface SubmitRequest {
  idempotencyKey: string | null | undefined;
  /** Requested MS-DRG version (any accepted spelling; default v40); checked by resolveApiVersion. */
  version?: string | null;
  sourceDialect?: string | null;
  cases?: BatchCase[];
  fileId?: string;
  /** Create a new job even when an identical input finished recently (the re-submit guard's override). */
  allowDuplicate?: boolean;
}

export const SOURCE_DIALECTS = ['icd10cm'] as const;

const KEY_SHAPE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

export function checkIdempotencyKey(key: string | null | undefined): string {
  if (key === undefined || key === null || key === '') {
    throw new AppError(
      'idempotency_key_required',
      `The Idempotency-Key header is required: ${IDEMPOTENCY_KEY_MIN} to ${IDEMPOTENCY_KEY_MAX} characters chosen by the caller (a UUID works).`,
    );
  }
  if (key.length < IDEMPOTENCY_KEY_MIN || key.length > IDEMPOTENCY_KEY_MAX || !KEY_SHAPE.test(key)) {
    throw new AppError(
      'invalid_idempotency_key',
      `The Idempotency-Key must be ${IDEMPOTENCY_KEY_MIN} to ${IDEMPOTENCY_KEY_MAX} printable ASCII characters without leading or trailing spaces; this one has ${key.length} characters.`,
    );
  }
  return key;
}

export function checkSourceDialect(dialect: string | null | undefined): 'icd10cm' {
  if (dialect === undefined || dialect === null) return 'icd10cm';
  if (dialect.trim().toLowerCase() === 'icd10cm') return 'icd10cm';
  throw new AppError(
    'unsupported_source_dialect',
    `source_dialect '${dialect.slice(0, 40)}' is not supported: batches take ICD-10-CM diagnosis codes (source_dialect 'icd10cm') and ICD-10-PCS procedure codes. WHO ICD-10 and ICD-11 codes must be mapped to ICD-10-CM first.`,
    { supported: [...SOURCE_DIALECTS] },
  );
}

async function casesFromFile(db: Database, orgId: string, fileId: string): Promise<BatchCase[]> {
  const { view, bytes } = await readUpload(db, orgId, fileId, {
    // Refused before it is read or decoded: no 1000-case file comes near this size.
    check: (v) => {
      if ((v.size_bytes ?? 0) > MAX_CASE_FILE_BYTES) {
        throw new AppError(
          'invalid_case_file',
          `The file ${v.filename} is ${v.size_bytes} bytes; a case file holds at most ${MAX_CASES} cases and ${MAX_CASE_FILE_BYTES / (1024 * 1024)} MiB. Split it into several batches.`,
          { format: null, errors: [{ line: 0, message: `more than ${MAX_CASE_FILE_BYTES} bytes` }] },
        );
      }
    },
  });
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new AppError('invalid_case_file', `The file ${view.filename} is not UTF-8 text; upload a CSV, JSONL or JSON file of cases.`);
  }
  if (text.includes('\u0000')) {
    // no case field can hold one (PostgreSQL text cannot), as at the JSON door
    throw new AppError('invalid_case_file', `The file ${view.filename} contains NUL characters (U+0000); upload a CSV, JSONL or JSON text file of cases.`);
  }
  const parsed = parseCaseFile(text, { filename: view.filename, maxCases: MAX_CASES });
  if (parsed.tooManyCases) {
    throw new AppError(
      'invalid_case_file',
      `The ${parsed.format.toUpperCase()} file ${view.filename} has more than ${MAX_CASES} cases; a batch has 1 to ${MAX_CASES}. Split it into several batches.`,
      {
        format: parsed.format,
        errors: parsed.errors.slice(0, 1),
      },
    );
  }
  if (parsed.errors.length) {
    throw new AppError('invalid_case_file', `The ${parsed.format.toUpperCase()} file ${view.filename} has errors: ${describeCaseFileErrors(parsed)}`, {
      format: parsed.format,
      errors: parsed.errors,
    });
  }
  return parsed.cases;
}

function checkCases(cases: BatchCase[]): void {
  if (cases.length < 1 || cases.length > MAX_CASES) throw badRequest(`cases: a batch has 1 to ${MAX_CASES} cases; this one has ${cases.length}.`);
  const dups = duplicateCaseRefs(cases);
  if (dups.length) {
    throw new AppError(
      'duplicate_case_ref',
      `cases: case_ref must be unique within a batch; duplicated: ${dups.slice(0, 20).join(', ')}${dups.length > 20 ? ` and ${dups.length - 20} more` : ''}.`,
      {
        duplicate_case_refs: dups.slice(0, 100),
      },
    );
  }
}

function requestHash(parts: { version: string; dialect: string; fileId: string | null; cases: BatchCase[] }): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/** What the re-submit guard compares: the normalised input, without the file id or the idempotency key. */
export function inputHash(parts: { version: string; dialect: string; cases: BatchCase[] }): string {
  return createHash('sha256')
    .update(JSON.stringify({ version: parts.version, dialect: parts.dialect, cases: parts.cases }))
    .digest('hex');
}

async function refuseDuplicate(db: Database, who: Submitter, hash: string, version: string, total: number): Promise<void> {
  const hours = batchConfig().duplicateWindowHours;
  if (hours <= 0) return;
  const since = new Date(Date.now() - hours * 3_600_000);
  const row = await db.prisma.drgBatch.findFirst({
    where: { orgId: who.orgId, inputHash: hash, sandbox: who.sandbox, status: 'done', finishedAt: { gte: since } },
    orderBy: { finishedAt: 'desc' },
    select: { id: true, finishedAt: true },
  });
  if (!row?.finishedAt) return;
  const finishedAt = row.finishedAt.toISOString();
  throw new AppError(
    'duplicate_batch',
    `These ${total} case${total === 1 ? '' : 's'} (${version}) are identical to job ${row.id}, which finished at ${finishedAt}: its results are at GET /api/v1/drg/batch/${row.id}/. No new job was created and nothing was charged. To classify and bill them again as a new job, send "allow_duplicate": true.`,
    { job_id: row.id, finished_at: finishedAt, window_hours: hours },
  );
}

async function existing(db: Database, orgId: string, key: string, hash: string): Promise<BatchSummary | null> {
  const row = await db.prisma.drgBatch.findUnique({ where: { orgId_idempotencyKey: { orgId, idempotencyKey: key } }, select: { id: true, requestHash: true } });
  if (!row) return null;
  if (row.requestHash !== hash) {
    throw new AppError('idempotency_conflict', 'This Idempotency-Key was already used for a different batch request. Use a new key for a new batch.', {
      job_id: row.id,
    });
  }
  return getBatchSummary(db, orgId, row.id);
}

export async function submitBatch(db: Database, who: Submitter, req: SubmitRequest): Promise<{ created: boolean; job: BatchSummary }> {
  const key = checkIdempotencyKey(req.idempotencyKey);
  const dialect = checkSourceDialect(req.sourceDialect);
  const version = resolveApiVersion(req.version);
  if (req.cases && req.fileId) throw badRequest('Send either cases or file_id, not both.');
  if (!req.cases && !req.fileId) throw badRequest('cases: required (1 to 1000 cases), unless file_id names an uploaded case file.');
  const cases = req.cases ?? (await casesFromFile(db, who.orgId, req.fileId!));
  checkCases(cases);
  const hash = requestHash({ version, dialect, fileId: req.fileId ?? null, cases });
  const before = await existing(db, who.orgId, key, hash);
  if (before) return { created: false, job: before };
  const sameInput = inputHash({ version, dialect, cases });
  if (!req.allowDuplicate) await refuseDuplicate(db, who, sameInput, version, cases.length);
  await assertUnderCap(db, who.orgId, who.sandbox);

  await ensureBatchQueues(db);
  const cfg = batchConfig();
  const id = randomUUID();
  const chunks = Math.ceil(cases.length / cfg.chunkSize);
  const inserted = await db.transaction(async (tx) => {
    const r = await tx.query(
      `INSERT INTO drg_batches (id, org_id, api_key_id, user_id, sandbox, idempotency_key, request_hash, status, version, source_dialect, file_id, total_cases, chunk_size, price_micros, input_hash)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'queued', $8, $9, $10, $11, $12, $13, $14)
       ON CONFLICT (org_id, idempotency_key) DO NOTHING RETURNING id`,
      [
        id,
        who.orgId,
        who.apiKeyId,
        who.userId,
        who.sandbox,
        key,
        hash,
        version,
        dialect,
        req.fileId ?? null,
        cases.length,
        cfg.chunkSize,
        cfg.priceMicros,
        sameInput,
      ],
    );
    if (!r.length) return false; // a concurrent request with the same key won
    await tx.query(
      `INSERT INTO drg_batch_cases (batch_id, idx, case_ref, input)
       SELECT $1, (e.ord - 1)::int, e.value->>'case_ref', e.value - 'case_ref'
         FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS e(value, ord)`,
      [id, JSON.stringify(cases)],
    );
    await insertChunkJobs(
      db,
      tx,
      id,
      Array.from({ length: chunks }, (_, i) => i),
    );
    return true;
  });
  if (!inserted) {
    const winner = await existing(db, who.orgId, key, hash);
    if (winner) return { created: false, job: winner };
    throw new AppError('idempotency_conflict', 'A request with this Idempotency-Key is being processed; retry shortly.');
  }
  return { created: true, job: await getBatchSummary(db, who.orgId, id) };
}
