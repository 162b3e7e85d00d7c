/**
 * Redaction receipts store: METADATA ONLY, per organisation (retention `metadata_only`).
 *
 * Writers: the `/api/v1/redact/` door, the chat gateway and the agent (source 'redact' | 'chat' | 'agent').
 * Reader: the receipt inspector (UI and `GET /api/v1/redact/receipts/`).
 *
 * What is kept: the receipt fields (counts per entity type, engine and version, flags, status), who called (org,
 * key id or user id), the request id, the input size in characters, the duration and a timestamp. What is never kept:
 * the text, the redacted text, the mapping, any original value or placeholder. `recordReceipt` copies only known
 * fields, and only counts under known entity types, so a caller cannot smuggle anything else into the table.
 */
import { randomUUID } from 'node:crypto';
import { records, type Queryable, type RecordsSource } from '../db';
import type { Prisma, RedactionReceipt as ReceiptRow } from '../generated/prisma/client';
import { AppError } from '../errors';
import type { RedactionFailureReason } from './errors';
import { ENGINE_NAME, type RedactionReceipt } from './receipt';
import { ENTITY_TYPES, type EntityCounts } from './types';

export const RECEIPT_SOURCES = ['redact', 'chat', 'agent'] as const;
export type ReceiptSource = (typeof RECEIPT_SOURCES)[number];

export interface RecordReceiptInput {
  orgId: string;
  /** The API key that called (null for a signed-in user). */
  apiKeyId?: string | null;
  /** The signed-in user who called (null for an API key). */
  userId?: string | null;
  source: ReceiptSource;
  /** Exactly what the response carries (buildReceipt / failedClosedReceipt). */
  receipt: RedactionReceipt;
  /** Why a failed_closed receipt failed (RedactionFailedError.reason); ignored for status ok. */
  failureReason?: RedactionFailureReason | 'internal_error' | null;
  requestId?: string | null;
  /** Size of the redacted input in characters (a number, never the text). */
  inputChars?: number | null;
  durationMs?: number | null;
}

/** A stored receipt as the inspector shows it: the response receipt plus who/when/how long. No text. */
export interface StoredReceipt {
  receipt_id: string;
  created_at: string;
  source: ReceiptSource;
  api_key_id: string | null;
  user_id: string | null;
  request_id: string | null;
  failure_reason: string | null;
  input_chars: number | null;
  duration_ms: number | null;
  entities_total: number;
  receipt: RedactionReceipt;
}

export interface ReceiptPage {
  receipts: StoredReceipt[];
  /** Pass as `before` to get the next (older) page; null at the end. */
  next_before: string | null;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const FAILURE_REASONS = new Set(['recognizer_error', 'time_budget_exceeded', 'invalid_input', 'configuration', 'internal_error']);

function count(n: unknown): number {
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? Math.min(Math.floor(n), 2_147_483_647) : 0;
}

function optInt(n: unknown): number | null {
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? Math.min(Math.round(n), 2_147_483_647) : null;
}

/** Only known entity types, only non-negative integer counts. */
export function sanitizeCounts(c: unknown): EntityCounts {
  const out: EntityCounts = {};
  if (!c || typeof c !== 'object') return out;
  for (const t of ENTITY_TYPES) {
    const v = count((c as Record<string, unknown>)[t]);
    if (v > 0) out[t] = v;
  }
  return out;
}

/**
 * Store one receipt's metadata; returns the receipt id (UUID). Hand-written SQL, not Prisma Client: the agent writes
 * receipts from worker threads, whose database is a MessagePort proxy that carries SQL, not Prisma queries.
 */
export async function recordReceipt(q: Queryable, input: RecordReceiptInput): Promise<string> {
  if (!(RECEIPT_SOURCES as readonly string[]).includes(input.source)) throw new Error(`unknown receipt source '${String(input.source)}'`);
  const r = input.receipt;
  const failed = r.status === 'failed_closed';
  const counts = failed ? {} : sanitizeCounts(r.entities_redacted);
  const total = Object.values(counts).reduce((a, b) => a + (b ?? 0), 0);
  const reason = failed ? (input.failureReason && FAILURE_REASONS.has(input.failureReason) ? input.failureReason : 'internal_error') : null;
  const id = randomUUID();
  await q.query(
    `INSERT INTO redaction_receipts (id, org_id, api_key_id, user_id, source, status, failure_reason, receipt_version, engine,
       engine_version, rehydration_complete, unresolved_placeholder_count, client_preredacted, entities_redacted, entities_total,
       free_text_fields, client_asserted_deidentified, redacted_anyway, input_chars, duration_ms, request_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14::jsonb, $15, $16, $17, $18, $19, $20, $21)`,
    [
      id,
      input.orgId,
      input.apiKeyId ?? null,
      input.userId ?? null,
      input.source,
      failed ? 'failed_closed' : 'ok',
      reason,
      count(r.receipt_version) || 1,
      String(r.engine).slice(0, 100),
      String(r.engine_version).slice(0, 50),
      typeof r.rehydration_complete === 'boolean' ? r.rehydration_complete : null,
      count(r.unresolved_placeholder_count),
      r.client_preredacted === true,
      JSON.stringify(counts),
      total,
      count(r.free_text_fields),
      r.client_asserted_deidentified === true,
      r.redacted_anyway === true,
      optInt(input.inputChars),
      optInt(input.durationMs),
      input.requestId ? String(input.requestId).slice(0, 100) : null,
    ],
  );
  return id;
}

const ENGINES: ReadonlyArray<RedactionReceipt['engine']> = [ENGINE_NAME];
const engineOf = (e: string): RedactionReceipt['engine'] => ENGINES.find((x) => x === e) ?? ENGINES[0]!;
const sourceOf = (s: string): ReceiptSource => RECEIPT_SOURCES.find((x) => x === s) ?? 'redact';

function toStored(r: ReceiptRow): StoredReceipt {
  return {
    receipt_id: r.id,
    created_at: r.createdAt.toISOString(),
    source: sourceOf(r.source),
    api_key_id: r.apiKeyId,
    user_id: r.userId,
    request_id: r.requestId,
    failure_reason: r.failureReason,
    input_chars: r.inputChars,
    duration_ms: r.durationMs,
    entities_total: r.entitiesTotal,
    receipt: {
      receipt_version: 1,
      engine: engineOf(r.engine),
      engine_version: r.engineVersion,
      rehydration_complete: r.rehydrationComplete,
      unresolved_placeholder_count: r.unresolvedPlaceholderCount,
      client_preredacted: r.clientPreredacted,
      entities_redacted: sanitizeCounts(r.entitiesRedacted),
      free_text_fields: r.freeTextFields,
      client_asserted_deidentified: r.clientAssertedDeidentified,
      redacted_anyway: r.redactedAnyway,
      status: r.status === 'failed_closed' ? 'failed_closed' : 'ok',
      retention: 'metadata_only',
    },
  };
}

/**
 * Newest first. `before` is a receipt id from a previous page (`next_before`); an unknown or foreign id gives an
 * empty page rather than another organisation's data.
 */
export async function listReceipts(
  src: RecordsSource,
  orgId: string,
  opts: { limit?: number; before?: string | null; source?: ReceiptSource; status?: 'ok' | 'failed_closed' } = {},
): Promise<ReceiptPage> {
  const limit = Math.max(1, Math.min(200, Math.floor(opts.limit ?? 50)));
  const before = opts.before ?? null;
  if (before !== null && !UUID_RE.test(before)) return { receipts: [], next_before: null };
  const q = records(src);
  const where: Prisma.RedactionReceiptWhereInput = { orgId, ...(opts.source ? { source: opts.source } : {}), ...(opts.status ? { status: opts.status } : {}) };
  if (before !== null) {
    // keyset pagination on (created_at, id), the index's order; the cursor must be this organisation's receipt
    const cursor = await q.redactionReceipt.findFirst({ where: { id: before, orgId }, select: { id: true, createdAt: true } });
    if (!cursor) return { receipts: [], next_before: null };
    where.OR = [{ createdAt: { lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { lt: cursor.id } }];
  }
  const rows = await q.redactionReceipt.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: limit + 1 });
  const more = rows.length > limit;
  const page = rows.slice(0, limit).map(toStored);
  return { receipts: page, next_before: more ? page[page.length - 1]!.receipt_id : null };
}

/** One receipt of the organisation; 404 `receipt_not_found` for an unknown id or another organisation's receipt. */
export async function getReceipt(src: RecordsSource, orgId: string, id: string): Promise<StoredReceipt> {
  const row = UUID_RE.test(id) ? await records(src).redactionReceipt.findFirst({ where: { id, orgId } }) : null;
  if (!row) throw new AppError('receipt_not_found', 'No redaction receipt with this id in your organisation.');
  return toStored(row);
}
