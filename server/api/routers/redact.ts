import { z } from 'zod';
import { boundedText, codePoints, strictBoolean } from '../schemas/fields';
import { authed, router, type AuthedContext } from '../trpc';
import { AppError } from '../../errors';
import { log } from '../../log';
import { principalIds } from '../../auth/principal';
import { getStrictSecret, SecretConfigError } from '../../secrets';
import {
  ENTITY_TYPES,
  EntityCountsSchema,
  MAX_TEXT_LENGTH,
  RedactionReceiptSchema,
  RedactionFailedError,
  buildReceipt,
  failedClosedReceipt,
  faultInjectionFromHeaders,
  type FaultInjection,
  type RedactOptions,
  type RedactTextResult,
  type RedactionReceipt,
} from '../../redact';
import { RECEIPT_SOURCES, getReceipt, listReceipts, recordReceipt } from '../../redact/receipts-store';
import { redactTextOffThread } from '../../workers/pool';

/**
 * PHI redaction door (SPEC §4.9, §2.6) and the receipt inspector. Scope `redact`; API keys only on REST (access
 * tokens from /login/ are refused), the signed-in UI over tRPC. The text and the mapping are never stored or logged:
 * only receipt metadata goes to `redaction_receipts` (server/redact/receipts-store.ts).
 */
const AUTH = { scope: 'redact', jwt: false } as const;

/** Test-only fault switch; read ONLY when NODE_ENV=test and REDACT_FAULT_INJECTION=1 (the core checks again). */
export { FAULT_HEADER } from '../../redact';

const TYPES = ENTITY_TYPES.join('|');
/** Canonical placeholders as the engine writes them (`[PERSON_1]`, never `[PERSON_01]` or `[PERSON_0]`). */
const PLACEHOLDER_KEY = new RegExp(`^\\[(${TYPES})_[1-9]\\d{0,8}\\]$`);
export const MAX_PRIOR_MAPPING_ENTRIES = 10_000;
export const MAX_MAPPING_VALUE_CHARS = 1_000;

const EntitySchema = z.object({
  start: z.number().int().min(0),
  end: z.number().int().min(0),
  type: z.enum(ENTITY_TYPES),
  placeholder: z.string(),
  score: z.number(),
  recognizer: z.string(),
  refers_to: z.string().optional().meta({
    description: 'For a partial name mention (first name or surname only): the placeholder of the fuller name it belongs to, when unambiguous. Informational.',
  }),
});

export const RedactInputSchema = z.strictObject({
  text: boundedText(MAX_TEXT_LENGTH, 'Free text to redact'),
  prior_mapping: z
    .record(
      z.string().regex(PLACEHOLDER_KEY, 'keys must be placeholders of the form [TYPE_n] (e.g. [PERSON_1])'),
      z.string().min(1).max(MAX_MAPPING_VALUE_CHARS),
    )
    .refine((m) => Object.keys(m).length <= MAX_PRIOR_MAPPING_ENTRIES, { message: `at most ${MAX_PRIOR_MAPPING_ENTRIES} entries` })
    .optional()
    .meta({
      description:
        'Placeholder → original, as a previous call returned it. Known values keep their placeholder; new values get the next free index per type. Preferred over conversation_key, and takes precedence when both are sent (even when empty). Not stored.',
    }),
  conversation_key: z.string().max(200).optional().meta({
    deprecated: true,
    description:
      'Deprecated: use prior_mapping. At most 200 characters. Placeholders are derived from HMAC-SHA256(server secret, key, type, value), so the same value keeps its placeholder in every call with the same key without stored state. It CANNOT detect collisions across calls: two different values sent in different calls may get the same placeholder. Ignored when prior_mapping is sent; an empty string counts as absent.',
  }),
  return_mapping: strictBoolean().default(true).meta({ description: 'Default true. false omits `mapping` from the response.' }),
  client_asserted_deidentified: strictBoolean()
    .default(false)
    .meta({ description: 'Extension: the caller asserts the text is already de-identified. The engine runs anyway (receipt `redacted_anyway`).' }),
});

export const RedactOutputSchema = z.object({
  redacted_text: z.string(),
  mapping: z.record(z.string(), z.string()).optional().meta({
    description:
      'Placeholder → original for every placeholder in redacted_text. Returned to the caller only, never stored; omitted when return_mapping is false.',
  }),
  entities_redacted: EntityCountsSchema,
  entities: z.array(EntitySchema).meta({
    description:
      'Extension: where each value was found, as UTF-16 code unit offsets [start, end) into the INPUT text (JavaScript string indices), in text order, with type, placeholder, score and recognizer. Carries no original values, so it is returned even when return_mapping is false.',
  }),
  redaction_receipt: RedactionReceiptSchema,
});

export type RedactOutput = z.infer<typeof RedactOutputSchema>;

const StoredReceiptSchema = z.object({
  receipt_id: z.string(),
  created_at: z.string(),
  source: z.enum(RECEIPT_SOURCES),
  api_key_id: z.string().nullable(),
  user_id: z.string().nullable(),
  request_id: z.string().nullable(),
  failure_reason: z.string().nullable(),
  input_chars: z.number().int().nullable(),
  duration_ms: z.number().int().nullable(),
  entities_total: z.number().int(),
  receipt: RedactionReceiptSchema,
});

const DESCRIPTION = `Replaces PHI in free text with indexed placeholders \`[TYPE_n]\` (PERSON, MY_IC, MRN, PASSPORT, PHONE, EMAIL, CARD_NUMBER, BANK_ACCOUNT) and returns the placeholder → original mapping to the caller. Clinical content (dates, ages, vitals, labs, dosages, ICD codes, hospitals, places, eponyms) is deliberately kept.

* **Recall first**: an identifier-like value (6+ digits, or 5 with letters) that no recognizer types and the clinical allow-list does not explain is redacted anyway (default deny), typed by the nearest label, else \`MRN\` (its entity's \`recognizer\` is \`unexplained_id\`); receipt, claim, policy and order numbers are redacted too. An unknown word in a name position is a name.
* **Stability across calls**: send the previous \`mapping\` back as \`prior_mapping\` (preferred): the returned \`mapping\` then carries every entry sent plus the new ones. \`conversation_key\` is deprecated and cannot detect cross-call collisions. One value written two ways (an IC with and without dashes) shares one placeholder; the mapping holds its first form.
* **Never stored**: the text and the mapping are neither stored nor logged. Only the receipt's metadata (counts per type, engine version, status, key, time) is kept for the organisation's receipt inspector; its id is \`redaction_receipt.receipt_id\`.
* **Fail closed**: if any recognizer fails or the time budget (2 s per text) is exceeded, the answer is **503** \`{"error":"redaction_failed","message","reason","redaction_receipt":{…,"status":"failed_closed"}}\` with no text and no mapping. The input is never returned unredacted.
* **Limits**: \`text\` 1 to 100000 characters (Unicode code points); \`conversation_key\` at most 200 characters; \`prior_mapping\` at most ${MAX_PRIOR_MAPPING_ENTRIES} entries, keys \`[TYPE_n]\`, values 1 to ${MAX_MAPPING_VALUE_CHARS} characters. Beyond them: 400 \`invalid_request\` naming the field. Unknown fields are refused (400).
* **Extensions**: \`entities\` (offsets, no values), \`redaction_receipt.receipt_id\`, body field \`client_asserted_deidentified\`.`;

/**
 * Run the engine (in a worker thread for long texts, see OFF_THREAD_REDACTION_CHARS); any failure (recognizer error,
 * time budget, configuration, an unexpected bug, a worker that died) fails closed.
 */
async function runEngine(
  input: z.output<typeof RedactInputSchema>,
  faultInjection: FaultInjection | undefined,
): Promise<RedactTextResult | RedactionFailedError> {
  try {
    const options: RedactOptions = { maxLength: input.text.length, faultInjection };
    if (input.prior_mapping !== undefined) options.priorMapping = input.prior_mapping;
    else if (input.conversation_key) {
      options.conversationKey = input.conversation_key;
      // a set but too short REDACTION_HMAC_SECRET fails closed (configuration) instead of being silently replaced
      options.hmacSecret = getStrictSecret('REDACTION_HMAC_SECRET');
    }
    return await redactTextOffThread(input.text, options);
  } catch (err) {
    if (err instanceof RedactionFailedError) return err;
    if (err instanceof SecretConfigError) {
      log.error('redaction configuration error', { err: err.message });
      return new RedactionFailedError('configuration', err.message);
    }
    // Never log the message of an unexpected error: it could quote the input.
    return new RedactionFailedError('recognizer_error', 'unexpected error in the redaction engine', { cause: err instanceof Error ? err.name : 'unknown' });
  }
}

async function redactRequest(ctx: AuthedContext, input: z.output<typeof RedactInputSchema>): Promise<RedactOutput> {
  const started = performance.now();
  const base = {
    orgId: ctx.principal.orgId,
    ...principalIds(ctx.principal),
    source: 'redact' as const,
    requestId: ctx.requestId,
    inputChars: codePoints(input.text),
  };
  const result = await runEngine(input, faultInjectionFromHeaders(ctx.headers));

  if (result instanceof RedactionFailedError) {
    // Fail closed: no text, no mapping; a failed_closed receipt (its metadata is stored too, for the inspector).
    const receipt: RedactionReceipt = failedClosedReceipt({ freeTextFields: 1, clientAssertedDeidentified: input.client_asserted_deidentified });
    let receiptId: string | undefined;
    try {
      receiptId = await recordReceipt(ctx.db, { ...base, receipt, failureReason: result.reason, durationMs: performance.now() - started });
    } catch (storeErr) {
      log.error('could not store a failed_closed receipt', { request_id: ctx.requestId, err: storeErr instanceof Error ? storeErr.name : 'unknown' });
    }
    log.warn('redaction failed closed', {
      request_id: ctx.requestId,
      reason: result.reason,
      recognizer: result.recognizer ?? null,
      receipt_id: receiptId ?? null,
    });
    // a configuration failure says what is wrong (its message names a setting, never a value or input text)
    const why =
      result.reason === 'configuration' ? ` The server's redaction configuration is invalid (${result.message}); tell the operator.` : ' Retry later.';
    throw new AppError('redaction_failed', `Redaction could not complete, so no text is returned. The input was neither returned nor stored.${why}`, {
      reason: result.reason,
      redaction_receipt: receiptId ? { ...receipt, receipt_id: receiptId } : receipt,
    });
  }

  const receipt: RedactionReceipt = buildReceipt({
    entitiesRedacted: result.entities_redacted,
    clientPreredacted: result.client_preredacted,
    freeTextFields: 1,
    clientAssertedDeidentified: input.client_asserted_deidentified,
    rehydration: null,
  });
  const durationMs = performance.now() - started;
  const receiptId = await recordReceipt(ctx.db, { ...base, receipt, durationMs });
  log.info('redaction', {
    request_id: ctx.requestId,
    receipt_id: receiptId,
    status: 'ok',
    entities: result.entities.length,
    chars: base.inputChars,
    ms: Math.round(durationMs),
  });
  return {
    redacted_text: result.redacted_text,
    ...(input.return_mapping ? { mapping: result.mapping } : {}),
    entities_redacted: result.entities_redacted,
    entities: result.entities,
    redaction_receipt: { ...receipt, receipt_id: receiptId },
  };
}

export const redactRouter = router({
  redact: authed(AUTH, {
    method: 'POST',
    path: '/redact',
    tags: ['redaction'],
    summary: 'Redact PHI from free text',
    description: DESCRIPTION,
    errorResponses: [400, 401, 403, 503],
  })
    .input(RedactInputSchema)
    .output(RedactOutputSchema)
    .mutation(({ ctx, input }) => redactRequest(ctx, input)),

  receipts: authed(AUTH, {
    method: 'GET',
    path: '/redact/receipts',
    tags: ['redaction'],
    summary: "The organisation's redaction receipts (metadata only)",
    description:
      'Newest first. Metadata only: counts per entity type, engine version, status, source (`redact`, `chat`, `agent`), key or user, request id, size in characters and duration. Never text or mappings. Page with `before` = `next_before` of the previous page.',
    errorResponses: [400, 401, 403],
  })
    .input(
      z.strictObject({
        limit: z.coerce.number().int().min(1).max(200).default(50),
        before: z.string().uuid().optional(),
        source: z.enum(RECEIPT_SOURCES).optional(),
        status: z.enum(['ok', 'failed_closed']).optional(),
      }),
    )
    .output(z.object({ receipts: z.array(StoredReceiptSchema), next_before: z.string().nullable() }))
    .query(({ ctx, input }) => listReceipts(ctx.db, ctx.principal.orgId, input)),

  receipt: authed(AUTH, {
    method: 'GET',
    path: '/redact/receipts/{receipt_id}',
    tags: ['redaction'],
    summary: 'One redaction receipt (metadata only)',
    description: "Another organisation's receipt id answers 404 `receipt_not_found`, like an unknown id.",
    errorResponses: [401, 403, 404],
  })
    .input(z.strictObject({ receipt_id: z.string().min(1).max(64) }))
    .output(StoredReceiptSchema)
    .query(({ ctx, input }) => getReceipt(ctx.db, ctx.principal.orgId, input.receipt_id)),
});
