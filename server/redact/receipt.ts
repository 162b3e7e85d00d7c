/**
 * Redaction receipt: what was caught, never the values. It records counts and does not claim perfect recall.
 */
import { z } from 'zod';
import { ENTITY_TYPES, type EntityCounts, type EntityType } from './types';

export const ENGINE_NAME = 'coding-gateway-redact';
export const ENGINE_VERSION = '1.0.0';

export type ReceiptStatus = 'ok' | 'failed_closed';

/** Entity type → number of values replaced; types with no value are left out. */
export const EntityCountsSchema = z
  .object(Object.fromEntries(ENTITY_TYPES.map((t) => [t, z.number().int().min(0).optional()])) as Record<EntityType, z.ZodOptional<z.ZodNumber>>)
  .meta({ description: 'Entity type → number of values replaced. Types with no value are left out.' });

/**
 * The redaction receipt, declared once: the redact door, the receipt inspector, the agent, the chat gateway and the
 * pages all use this schema (or the types inferred from it).
 */
export const RedactionReceiptSchema = z
  .object({
    receipt_version: z.literal(1),
    engine: z.string(),
    engine_version: z.string(),
    rehydration_complete: z.boolean().nullable().meta({ description: 'null in a redact-only call.' }),
    unresolved_placeholder_count: z.number().int().min(0),
    client_preredacted: z
      .boolean()
      .meta({ description: 'The input already contained placeholders of our form (`[PERSON_1]`); they were kept intact and their indexes reserved.' }),
    entities_redacted: EntityCountsSchema,
    free_text_fields: z.number().int().min(0),
    client_asserted_deidentified: z.boolean(),
    redacted_anyway: z.boolean(),
    status: z.enum(['ok', 'failed_closed']),
    retention: z.literal('metadata_only'),
    receipt_id: z
      .string()
      .optional()
      .meta({ description: 'Extension: id of the stored metadata-only copy of this receipt (`GET /redact/receipts/{receipt_id}`).' }),
  })
  .meta({ description: 'What was caught; it does not claim perfect recall. Counts only, never values.' });

/** A receipt as the engine builds it (the stored copy's `receipt_id` is added by the door that stores it). */
export type RedactionReceipt = Omit<z.output<typeof RedactionReceiptSchema>, 'receipt_id'>;

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
