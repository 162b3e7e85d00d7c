import { z } from 'zod';
import { authed, router } from '../trpc';
import { resolveApiVersion } from '../../drg';
import { ClassifyResponse, shapeClassifyResult, type ClassifyEcho } from '../../drg/explain';
import { editsForCase } from '../../drg/mce';
import { faultInjectionFromHeaders, RedactionReceiptSchema } from '../../redact';
import { AgentCodesSchema, AgentRequestSchema, type AgentRunResult } from '../../agent';
import { runAgentOffThread } from '../../workers/pool';

/**
 * POST /api/v1/drg/agent/ (SPEC §2.8, §4.7): clinical text → codes with evidence → MS-DRG with the grouper's
 * explanation. Scope `drg:classify`; API keys and JWT access tokens (and the UI session). The core is server/agent.
 */
const AUTH = { scope: 'drg:classify', jwt: true } as const;

/** The grouper result as /drg/classify shapes it; the input echo says `gender: null` when the note does not document sex. */
export const AgentDrgSchema = ClassifyResponse.extend({
  input: z.object({
    dx_codes: z.array(z.string()),
    pr_codes: z.array(z.string()),
    gender: z.enum(['F', 'M']).nullable(),
    is_alive: z.boolean(),
    discharge_status: z.number().int().optional(),
  }),
}).describe('Extension: the MS-DRG of the coded case, computed by the grouper (never by the model), with the same explanation as POST /drg/classify/.');

export const AgentResponseSchema = z.object({
  response: z.string().describe('The answer in words: codes with evidence, the DRG, the rationale (SPEC §2.8).'),
  token_usage: z
    .object({ input_tokens: z.number().int(), output_tokens: z.number().int() })
    .describe('Language-model tokens of this request, summed over its model calls; 0 and 0 for the deterministic engine.'),
  response_time_ms: z.number().int(),
  engine: z.enum(['deterministic', 'llm']).describe('Extension: which engine answered.'),
  engine_note: z
    .string()
    .nullable()
    .describe(
      'Extension: why the deterministic engine answered although AGENT_MODEL is set (model unknown, not approved for PHI, key unset, no valid answer from the model).',
    ),
  model: z.string().nullable().describe('Extension: the registry model used by the LLM engine.'),
  version: z.string(),
  fiscal_year: z.string().nullable(),
  codes: AgentCodesSchema,
  drg: AgentDrgSchema.nullable(),
  redaction_receipt: RedactionReceiptSchema.describe(
    'The redaction receipt of this request (counts only). rehydration_complete is null for the deterministic engine (nothing to restore).',
  ),
  llm: z
    .object({ model: z.string(), calls: z.number().int(), cost_micros: z.number().int(), gateway_receipt_ids: z.array(z.string()) })
    .nullable()
    .describe(
      'Extension, LLM engine: model calls made through the gateway core (each billed as one llm_chat ledger row), their cost in micro-USD and the gateway receipts.',
    ),
  resolution: z
    .array(z.string())
    .describe(
      'How codes were resolved: search (search engine), category (code range read from the CMS code files), titles (CMS title search, when no vocabulary is loaded).',
    ),
  grouper_link: z.string().describe('The Group a case page prefilled with these codes (`/grouper?dx=…&pr=…`).'),
});
export type AgentResponse = z.output<typeof AgentResponseSchema>;

const DESCRIPTION = [
  'Reads clinical free text (a discharge summary, a case description or a DRG question), assigns ICD-10-CM diagnoses and ICD-10-PCS procedures with the evidence for each, and groups them into an MS-DRG with the deterministic grouper (the same as POST /drg/classify/).',
  '**Engines.** *Deterministic* (default; offline, no model): sections, negation ("no evidence of", "ruled out", "negative"), uncertainty, history, family and plan cues, abbreviations; mentions are resolved to codes through the search engine and verified against the grouper version; ICD-10-CM combination and sequencing conventions; principal diagnosis from the discharge diagnosis section, else the reason for admission. *LLM* (when the server\'s `AGENT_MODEL` names a PHI-approved model of the registry): the text is redacted first, then the model uses the tools `search_concepts`, `lookup_code` and `classify_drg` through the gateway core; proposed codes are validated (invalid or non-billable ones are rejected and fed back); evidence and rationale are re-hydrated. Both engines return the same `codes` and `drg`; `engine` says which answered.',
  '**Body.** JSON, form-urlencoded or multipart: `message` (1-20000 characters), `deidentified` (default false; the text is screened and redacted anyway, and the receipt records the assertion), `version` (v36-v40 or v43, default v40). Unknown fields are refused (400).',
  '**Response.** §2.8 (`response`, `token_usage`, `response_time_ms`) plus the extensions `codes`, `drg`, `engine`, `redaction_receipt` (stored metadata-only, source `agent`) and `grouper_link`.',
  '**Cost.** Deterministic: free, no ledger row, `token_usage` 0/0. LLM: the real token counts of every model call, billed through the gateway core as one `llm_chat` ledger row per call at the registry price (typically 1-5 cents a request); 429 `spend_cap_reached` when the organisation is at its cap before the first call. Structured codes should use POST /drg/classify/, which is free.',
  '**Errors.** 400 `invalid_request` (message empty or too long), 400 `invalid_version` (unknown version; the message lists the accepted ones); 503 `redaction_failed` with a `failed_closed` receipt when redaction cannot complete (nothing was coded or sent); LLM engine: 504 `model_timeout`, 502 upstream errors, 429 spend cap.',
].join('\n\n');

function toResponse(r: AgentRunResult, drg: AgentResponse['drg']): AgentResponse {
  return {
    response: r.response,
    token_usage: r.token_usage,
    response_time_ms: r.response_time_ms,
    engine: r.engine,
    engine_note: r.engine_note,
    model: r.model,
    version: r.version,
    fiscal_year: r.group?.fiscal_year ?? null,
    codes: {
      principal: r.coding.principal,
      secondary: r.coding.secondary,
      procedures: r.coding.procedures,
      excluded: r.coding.excluded,
      rejected: r.coding.rejected,
      patient: r.coding.patient,
      principal_reason: r.coding.principal_reason,
      rationale: r.coding.rationale,
    },
    drg,
    redaction_receipt: r.redaction_receipt,
    llm: r.llm,
    resolution: r.resolution,
    grouper_link: r.grouper_link,
  };
}

export const agentRouter = router({
  run: authed(
    AUTH,
    {
      method: 'POST',
      path: '/drg/agent',
      tags: ['drg'],
      summary: 'DRG agent: code clinical text and group it',
      description: DESCRIPTION,
      errorResponses: [400, 401, 403, 413, 415, 429, 503, 504],
    },
    { forms: true },
  )
    .input(AgentRequestSchema)
    .output(AgentResponseSchema)
    .mutation(async ({ ctx, input }) => {
      const version = resolveApiVersion(input.version);
      const started = performance.now();
      // CPU-heavy (seconds for a long note): in a worker thread, so the event loop keeps serving other requests
      const r = await runAgentOffThread(
        ctx.db,
        ctx.principal,
        { message: input.message, deidentified: input.deidentified, version },
        { requestId: ctx.requestId, faultInjection: faultInjectionFromHeaders(ctx.headers) },
      );
      let drg: AgentResponse['drg'] = null;
      if (r.group) {
        const dx = [r.coding.principal, ...r.coding.secondary].filter((c) => c !== null).map((c) => c.code);
        const pr = r.coding.procedures.map((c) => c.code);
        const sex = r.coding.patient.sex;
        // shapeClassifyResult only echoes the request; the agent's echo says when sex was not documented
        const echo: ClassifyEcho = {
          dx_codes: dx,
          pr_codes: pr,
          gender: sex ?? 'F',
          is_alive: r.coding.patient.alive,
          discharge_status: r.coding.patient.discharge_status,
        };
        // The Medicare Code Editor on the agent's codes: no discharge date, age or stay in a note's coding (the edits
        // that need them say so); an undocumented sex is not guessed.
        const edits = editsForCase({ dx, pr, sex: sex ?? null, dischargeStatus: r.coding.patient.discharge_status }, r.group);
        const shaped = await shapeClassifyResult(r.group, echo, started, edits);
        drg = {
          ...shaped,
          input: { dx_codes: dx, pr_codes: pr, gender: sex, is_alive: r.coding.patient.alive, discharge_status: r.coding.patient.discharge_status },
        };
      }
      return toResponse(r, drg);
    }),
});
