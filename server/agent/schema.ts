/**
 * The agent resource (SPEC §2.8, §4.7): one zod schema for validation, TypeScript types, the OpenAPI document and
 * the page. The response carries §2.8's `response`, `token_usage` and `response_time_ms`, plus the extension fields
 * both engines fill in the same way: `codes` (structured, with evidence) and `drg` (the grouper's result).
 */
import { z } from 'zod';
import { boundedText, strictBoolean } from '../api/schemas/fields';

export const MAX_MESSAGE_CHARS = 20_000;

export const AgentRequestSchema = z.strictObject({
  message: boundedText(MAX_MESSAGE_CHARS, 'Clinical text (a discharge summary, a case description) or a DRG question'),
  deidentified: strictBoolean().default(false).meta({
    description:
      'The text is already de-identified. It is screened by the redaction engine anyway; the receipt records the assertion (`client_asserted_deidentified`, `redacted_anyway`).',
  }),
  version: z.string().trim().max(20).optional().meta({ description: 'MS-DRG grouper version hint: v36, v37, v38, v39, v40 (default) or v43.' }),
});

const EvidenceSchema = z.object({
  text: z.string().describe('Words from the note (original values).'),
  start: z.number().int().nullable().describe('Offset of the words in `message` (UTF-16 code units), when found.'),
  end: z.number().int().nullable(),
  section: z.string().nullable().describe('Section of the note: diagnosis, secondary, comorbidity, presenting, course, procedures, …'),
});

export const AgentCodeSchema = z.object({
  code: z.string().describe('Code without dots, as the grouper reads it.'),
  display: z.string().describe('Conventional spelling, e.g. I21.4.'),
  kind: z.enum(['dx', 'pr']),
  role: z.enum(['principal', 'secondary', 'procedure']),
  title: z.string(),
  cc_mcc: z.enum(['MCC', 'CC']).nullable().describe("A secondary diagnosis's CC/MCC level in the grouper version (whether it counted is in `drg.diagnoses`)."),
  is_or: z.boolean().nullable().describe('Procedures: O.R. procedure in the grouper version.'),
  concept: z.string().nullable().describe('Deterministic engine: the phrasebook concept that matched.'),
  assertion: z
    .enum(['present', 'uncertain', 'history', 'status'])
    .describe('uncertain: documented as probable/likely at discharge, coded as established (inpatient rule).'),
  rule: z.string().nullable().describe('A combination or sequencing rule that produced or moved the code.'),
  evidence: z.array(EvidenceSchema),
  assumptions: z
    .array(
      z.object({
        about: z.string().describe('What the note does not say that decides the code, e.g. "stent type".'),
        assumed: z.string().describe('What the code assumes, and why.'),
        alternatives: z
          .array(z.object({ label: z.string(), code: z.string(), display: z.string(), title: z.string() }))
          .describe('The codes of the other readings.'),
      }),
    )
    .optional()
    .describe(
      'Both engines: what the note does not say that decides the code, what the code assumes, and the codes of the other readings (valid and billable in the grouper version). Coronary stents: stent type, number of arteries; any code whose tables differ by side (laterality), acute/chronic, type of diabetes (E11 is the default), encounter (7th character), open/closed fracture, or surgical approach (PCS 5th character). Computed from the code tables after the codes are final, also for the LLM engine.',
    ),
});

const ExcludedSchema = z.object({
  text: z.string(),
  start: z.number().int(),
  end: z.number().int(),
  concept: z.string(),
  kind: z.enum(['dx', 'pr']),
  reason: z.enum(['negated', 'uncertain', 'history', 'family', 'hypothetical', 'finding', 'symptom', 'integral', 'unresolved']),
  cue: z.string().nullable(),
  section: z.string(),
});

export const AgentCodesSchema = z
  .object({
    principal: AgentCodeSchema.nullable(),
    secondary: z.array(AgentCodeSchema),
    procedures: z.array(AgentCodeSchema),
    excluded: z
      .array(ExcludedSchema)
      .describe(
        'Mentions deliberately not coded (deterministic engine): negated, ruled out, history, family, planned, investigation findings, integral symptoms.',
      ),
    rejected: z
      .array(z.object({ code: z.string(), reason: z.string() }))
      .describe('LLM engine: codes the model proposed that validation refused (invalid, not billable, wrong kind).'),
    patient: z.object({
      sex: z.enum(['F', 'M']).nullable(),
      sex_evidence: z.string().nullable(),
      alive: z.boolean(),
      alive_evidence: z.string().nullable(),
      discharge_status: z.number().int().describe('UB-04 status used for grouping: 1 home, 2 transfer, 7 against advice (AOR), 20 expired.'),
    }),
    principal_reason: z.string(),
    rationale: z.array(z.string()),
  })
  .describe('Extension: the coded case with evidence, the same shape in both engines.');
