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
import type { Queryable } from '../db';
import { AppError } from '../errors';
import type { RedactionFailureReason } from './errors';
import type { RedactionReceipt } from './receipt';
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

/** Store one receipt's metadata; returns the receipt id (UUID). */
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

interface Row {
  id: string;
  created_at: Date | string;
  source: ReceiptSource;
  api_key_id: string | null;
  user_id: string | null;
  request_id: string | null;
  status: 'ok' | 'failed_closed';
  failure_reason: string | null;
  receipt_version: number;
  engine: string;
  engine_version: string;
  rehydration_complete: boolean | null;
  unresolved_placeholder_count: number;
  client_preredacted: boolean;
  entities_redacted: unknown;
  entities_total: number;
  free_text_fields: number;
  client_asserted_deidentified: boolean;
  redacted_anyway: boolean;
  input_chars: number | null;
  duration_ms: number | null;
}

const COLUMNS = `id::text AS id, created_at, source, api_key_id::text AS api_key_id, user_id::text AS user_id, request_id, status,
  failure_reason, receipt_version, engine, engine_version, rehydration_complete, unresolved_placeholder_count, client_preredacted,
  entities_redacted, entities_total, free_text_fields, client_asserted_deidentified, redacted_anyway, input_chars, duration_ms`;

function toStored(r: Row): StoredReceipt {
  const counts = typeof r.entities_redacted === 'string' ? (JSON.parse(r.entities_redacted) as unknown) : r.entities_redacted;
  return {
    receipt_id: r.id,
    created_at: new Date(r.created_at).toISOString(),
    source: r.source,
    api_key_id: r.api_key_id,
    user_id: r.user_id,
    request_id: r.request_id,
    failure_reason: r.failure_reason,
    input_chars: r.input_chars === null ? null : Number(r.input_chars),
    duration_ms: r.duration_ms === null ? null : Number(r.duration_ms),
    entities_total: Number(r.entities_total),
    receipt: {
      receipt_version: 1,
      engine: r.engine as RedactionReceipt['engine'],
      engine_version: r.engine_version,
      rehydration_complete: r.rehydration_complete,
      unresolved_placeholder_count: Number(r.unresolved_placeholder_count),
      client_preredacted: r.client_preredacted,
      entities_redacted: sanitizeCounts(counts),
      free_text_fields: Number(r.free_text_fields),
      client_asserted_deidentified: r.client_asserted_deidentified,
      redacted_anyway: r.redacted_anyway,
      status: r.status,
      retention: 'metadata_only',
    },
  };
}

/**
 * Newest first. `before` is a receipt id from a previous page (`next_before`); an unknown or foreign id gives an
 * empty page rather than another organisation's data.
 */
export async function listReceipts(
  q: Queryable,
  orgId: string,
  opts: { limit?: number; before?: string | null; source?: ReceiptSource; status?: 'ok' | 'failed_closed' } = {},
): Promise<ReceiptPage> {
  const limit = Math.max(1, Math.min(200, Math.floor(opts.limit ?? 50)));
  const before = opts.before ?? null;
  if (before !== null && !UUID_RE.test(before)) return { receipts: [], next_before: null };
  const rows = await q.query<Row>(
    `SELECT ${COLUMNS} FROM redaction_receipts r
      WHERE r.org_id = $1
        AND ($3::text IS NULL OR r.source = $3::text)
        AND ($4::text IS NULL OR r.status = $4::text)
        AND ($2::uuid IS NULL OR (r.created_at, r.id) < (SELECT c.created_at, c.id FROM redaction_receipts c WHERE c.id = $2::uuid AND c.org_id = $1))
      ORDER BY r.created_at DESC, r.id DESC
      LIMIT $5`,
    [orgId, before, opts.source ?? null, opts.status ?? null, limit + 1],
  );
  const more = rows.length > limit;
  const page = rows.slice(0, limit).map(toStored);
  return { receipts: page, next_before: more ? page[page.length - 1]!.receipt_id : null };
}

/** One receipt of the organisation; 404 `receipt_not_found` for an unknown id or another organisation's receipt. */
export async function getReceipt(q: Queryable, orgId: string, id: string): Promise<StoredReceipt> {
  const rows = UUID_RE.test(id) ? await q.query<Row>(`SELECT ${COLUMNS} FROM redaction_receipts WHERE id = $1::uuid AND org_id = $2`, [id, orgId]) : [];
  if (!rows.length) throw new AppError('receipt_not_found', 'No redaction receipt with this id in your organisation.');
  return toStored(rows[0]!);
}
