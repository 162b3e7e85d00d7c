/**
 * Redaction receipt: what was caught, never the values. It records counts and does not claim perfect recall.
 */
import type { EntityCounts } from './types';

export const ENGINE_NAME = 'coding-gateway-redact';
export const ENGINE_VERSION = '1.0.0';

export type ReceiptStatus = 'ok' | 'failed_closed';

export interface RedactionReceipt {
  receipt_version: 1;
  engine: typeof ENGINE_NAME;
  engine_version: string;
  /** null for redact-only calls; true when every placeholder in the answer was restored. */
  rehydration_complete: boolean | null;
  unresolved_placeholder_count: number;
  client_preredacted: boolean;
  entities_redacted: EntityCounts;
  /** Number of free-text fields (messages, tool results, arguments) that went through the engine. */
  free_text_fields: number;
  /** The client declared the content already de-identified. */
  client_asserted_deidentified: boolean;
  /** The client asserted de-identification but the engine ran anyway (it always does; the assertion is never trusted). */
  redacted_anyway: boolean;
  status: ReceiptStatus;
  retention: 'metadata_only';
}

export interface ReceiptInput {
  entitiesRedacted?: EntityCounts;
  clientPreredacted?: boolean;
  freeTextFields?: number;
  clientAssertedDeidentified?: boolean;
  /** Omit (or null) for redact-only calls. */
  rehydration?: { unresolved: number } | null;
  status?: ReceiptStatus;
}

export function buildReceipt(input: ReceiptInput = {}): RedactionReceipt {
  const failed = input.status === 'failed_closed';
  const asserted = input.clientAssertedDeidentified === true;
  const unresolved = input.rehydration ? Math.max(0, input.rehydration.unresolved) : 0;
  return {
    receipt_version: 1,
    engine: ENGINE_NAME,
    engine_version: ENGINE_VERSION,
    rehydration_complete: failed || !input.rehydration ? null : unresolved === 0,
    unresolved_placeholder_count: failed ? 0 : unresolved,
    client_preredacted: input.clientPreredacted === true,
    entities_redacted: failed ? {} : { ...(input.entitiesRedacted ?? {}) },
    free_text_fields: input.freeTextFields ?? 0,
    client_asserted_deidentified: asserted,
    redacted_anyway: asserted && !failed,
    status: failed ? 'failed_closed' : 'ok',
    retention: 'metadata_only',
  };
}

/** Receipt for a 503: redaction could not complete and no text is returned. */
export function failedClosedReceipt(input: Omit<ReceiptInput, 'status'> = {}): RedactionReceipt {
  return buildReceipt({ ...input, status: 'failed_closed' });
}
