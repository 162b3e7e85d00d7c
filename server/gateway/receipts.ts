/**
 * The one call site into `server/redact/receipts-store.ts` for the gateway and the agent: metadata only — counts,
 * flags, who, sizes, timings; never text, placeholders or the mapping.
 */
import type { Database } from '../db';
import { principalIds, type Principal } from '../auth/principal';
import { log } from '../log';
import type { RedactionFailureReason, RedactionReceipt } from '../redact';
import { recordReceipt, type ReceiptSource } from '../redact/receipts-store';

export type { ReceiptSource };

export interface ReceiptContext {
  requestId?: string;
  inputChars?: number;
  durationMs?: number;
  failureReason?: RedactionFailureReason | 'internal_error';
}

/**
 * Record a receipt (chat or agent); returns its id, or null when the store could not be written (the answer has been
 * produced and billed by then, so the request is not failed for it; the error is logged without content).
 */
export async function persistReceipt(
  db: Database,
  principal: Principal,
  source: ReceiptSource,
  receipt: RedactionReceipt,
  ctx: ReceiptContext = {},
): Promise<string | null> {
  try {
    return await recordReceipt(db, {
      orgId: principal.orgId,
      ...principalIds(principal),
      source,
      receipt,
      failureReason: ctx.failureReason ?? null,
      requestId: ctx.requestId ?? null,
      inputChars: ctx.inputChars ?? null,
      durationMs: ctx.durationMs === undefined ? null : Math.round(ctx.durationMs),
    });
  } catch (err) {
    log.error(`${source} receipt not recorded`, { request_id: ctx.requestId, err: err instanceof Error ? err.name : 'unknown' });
    return null;
  }
}
