import { z } from 'zod';
import { authed, router } from '../trpc';
import { ClassifyRequest, toEditInput, toGroupInput, VersionField } from '../schemas/drg';
import { AppError } from '../../errors';
import { apiVersions, getGrouper, lookupCode, resolveApiVersion, suggestCodes } from '../../drg';
import { search as searchConcepts } from '../../search/engine';
import { fragmentOnly, looksLikeCode } from '../../drg/suggest-words';
import { ClassifyResponse, DERIVED_AGREEMENT, displayCode, EDIT_PAYMENT_DOC, shapeClassifyResult, type ClassifyEcho } from '../../drg/explain';
import { editsForCase } from '../../drg/mce';
import { classifyFhirText, fhirBodyLimit } from '../../fhir';

/**
 * MS-DRG grouping (SPEC §2.4, §4.4): classify one case, list the grouper versions, autocomplete codes.
 * Classification is free: no ledger row is written (SPEC §4.4 "no language-model cost"; the batch endpoint bills).
 * The UI calls the same procedures over tRPC with the session; REST callers need an API key with `drg:classify`.
 */
const auth = { scope: 'drg:classify', jwt: false } as const;

/** The request as the response echoes it (SPEC §2.4 `input`; the optional extensions only when sent). */
function echoOf(input: ClassifyRequest): ClassifyEcho {
  const echo: ClassifyEcho = { dx_codes: input.dx_codes, pr_codes: input.pr_codes, gender: input.gender, is_alive: input.is_alive };
  if (input.discharge_status !== undefined) echo.discharge_status = input.discharge_status;
  if (input.poa !== undefined) echo.poa = input.poa;
  if (input.discharge_date !== undefined) echo.discharge_date = input.discharge_date;
  if (input.age !== undefined) echo.age = input.age;
  if (input.length_of_stay !== undefined) echo.length_of_stay = input.length_of_stay;
  if (input.admit_dx !== undefined) echo.admit_dx = input.admit_dx;
  return echo;
}

const VersionView = z.object({
  version: z.string(),
  fiscal_year: z.string(),
  fidelity: z.enum(['exact', 'derived']),
  default: z.boolean(),
  extension: z.boolean().describe('Served as an extension beyond SPEC §2.4 (which lists v36-v40 and v43).'),
  label: z.string(),
});

const CodeView = z.object({
  code: z.string(),
  display: z.string(),
  kind: z.enum(['dx', 'pr']),
  title: z.string(),
  billable: z.boolean(),
  valid: z.boolean().describe('Accepted by the grouper in this version.'),
});

/** Contradictions the schema cannot see: a guessed alive/expired status could change the DRG (and the payment). */
function checkConsistency(input: ClassifyRequest): void {
  if (input.discharge_status !== undefined) {
    if (input.discharge_status === 20 && input.is_alive) throw new AppError('invalid_request', 'discharge_status: 20 (expired) contradicts is_alive=true.');
    if (input.discharge_status !== 20 && !input.is_alive) {
      throw new AppError(
        'invalid_request',
        `discharge_status: ${input.discharge_status} contradicts is_alive=false (an expired patient has discharge status 20).`,
      );
    }
  }
  if (input.poa && input.poa.length !== input.dx_codes.length) {
    throw new AppError('invalid_request', `poa: needs one indicator per diagnosis code (${input.dx_codes.length}), got ${input.poa.length}.`);
  }
}

const CLASSIFY_DESCRIPTION = [
  'Groups one encounter into an MS-DRG with the table-driven grouper in `server/drg` (no language model; deterministic).',
  '**Request.** `dx_codes` (1-10, principal first) and `pr_codes` (0-10, 7 characters each) are accepted with or without dots and in any case (`i21.4` = `I214`). `gender` (`F`/`M`) and `is_alive` are **required**: both can change the DRG (sex-specific MDCs, expired AMI and neonate DRGs, "MCC only if discharged alive"), and a guessed value could change what a hospital is paid. `version` defaults to `v40` (SPEC §2.4 versions: v36-v40 and v43; v40.1, v41, v41.1, v42, v42.1 and v43.1 are served as an extension beyond SPEC §2.4; `GET /drg/versions/` lists what this server has). Optional extensions: `discharge_status` (UB-04 code; must agree with `is_alive`: 20 exactly when expired) and `poa` (one present-on-admission indicator per diagnosis, for HAC logic); for the Medicare Code Editor: `discharge_date` (YYYY-MM-DD), `age` (years), `length_of_stay` (days), `admit_dx` (admitting diagnosis). Shape errors (0 or 11 diagnoses, an empty code or one over 16 characters, a procedure code that is not 7 characters, a date that does not exist, unknown fields) are 400 `invalid_request` naming the field; a version this server does not serve is 400 `invalid_version` listing the accepted versions. Diagnosis codes that are not codes of the version (unknown, or too long to be ICD-10-CM, as in the official grouper invalid-format cases) are not errors: they are ignored with a warning, and an invalid principal diagnosis gives DRG 999 with `return_code` `INVALID_PDX`.',
  "**Response.** The §2.4 fields (`primary_drg`, `description`, `mdc`, `type`, `all_candidates`, `version`, `fiscal_year`, `input`, `response_time_ms`) plus what a coder needs to check the result: `fidelity` (and `fidelity_note` for derived versions), `mdc_description`, `return_code`, per-diagnosis CC/MCC and why one did not count (`not_counted_reason`), per-procedure O.R. status, `severity_driver`, the initial (pre-HAC) grouping, `warnings`, an `explanation`, and the Medicare Code Editor's `edits` with `mce` (the claim's disposition, the discharge date used, and which edits could not be checked). DRGs 998/999 have no type in the CMS tables; `type` is then `M` and `med_surg` is `NONE`.",
  `**Medicare Code Editor.** The CMS MCE 2.0 edits (tables v43.1, which cover discharges from 1985-10-01 to 2026-09-30) are checked beside the DRG: invalid codes for the discharge date, age and sex conflicts, external-cause and manifestation codes as principal diagnosis, unacceptable principal diagnoses, duplicates of the principal diagnosis, questionable admissions, non-covered and limited-coverage procedures and more. Each edit names its codes and says in words what is wrong. Without \`discharge_date\` the codes are checked for the last day of the grouper version's fiscal year (\`mce.discharge_date_source: assumed\`); without \`age\`, \`discharge_status\` or \`length_of_stay\` the edits that need them are listed in \`mce.not_checked\` (only those that could have fired); a discharge date the MCE data does not cover gives \`mce.edit_type: INVALID_DISCHARGE_DATE\`, no edits, and a note. ${EDIT_PAYMENT_DOC}`,
  `**Accuracy.** Versions v39-v43.1 use the official CMS tables and agree 100% with the CMS grouper on the oracle dev sets (v39.1, v40, v43: final and initial DRG, MDC, return code). v36-v38 are derived from the Definitions Manual appendices (\`fidelity: derived\`); the same derivation applied to v39.1 agrees with the official grouper on ${DERIVED_AGREEMENT}.`,
  '**Billing.** Classification is free: no ledger row is written (batch classification is billed per case).',
].join('\n\n');

export const drgRouter = router({
  classify: authed(auth, {
    method: 'POST',
    path: '/drg/classify',
    tags: ['drg'],
    summary: 'Classify one encounter into an MS-DRG',
    description: CLASSIFY_DESCRIPTION,
    errorResponses: [400, 401, 403, 413, 415],
  })
    .input(ClassifyRequest)
    .output(ClassifyResponse)
    .mutation(async ({ input }) => {
      const startedAt = performance.now();
      checkConsistency(input);
      const version = resolveApiVersion(input.version);
      const grouper = await getGrouper(version);
      const result = grouper.group(toGroupInput(input), { codes: 'lenient', detail: true });
      const edits = editsForCase(toEditInput(input), grouper);
      return shapeClassifyResult(result, echoOf(input), startedAt, edits);
    }),

  versions: authed(auth, {
    method: 'GET',
    path: '/drg/versions',
    tags: ['drg'],
    summary: 'MS-DRG grouper versions',
    description: `Versions this server can group with, oldest first: fiscal year, fidelity (\`exact\` = official CMS tables; \`derived\` = v36-v38 built from the Definitions Manual appendices, measured at ${DERIVED_AGREEMENT} when the method is applied to v39.1), the default (v40), and \`extension\`: SPEC §2.4 lists v36-v40 and v43; v40.1, v41, v41.1, v42, v42.1 and v43.1 are served as an extension beyond it when their CMS tables are installed. Every endpoint that takes a \`version\` accepts exactly these (any other value: 400 \`invalid_version\`).`,
    errorResponses: [401, 403],
  })
    .input(z.object({}).optional())
    .output(z.object({ default: z.string(), versions: z.array(VersionView) }))
    .query(() => {
      const versions = apiVersions();
      return { default: versions.find((v) => v.default)?.version ?? 'v40', versions };
    }),

  codes: authed(auth, {
    method: 'GET',
    path: '/drg/codes',
    tags: ['drg'],
    summary: 'Autocomplete ICD-10-CM/PCS codes and titles',
    description:
      "Searches the CMS code files of the version's fiscal year. A query that looks like a code (`I21`, `i21.4`, `0SR`) matches code prefixes; anything else matches words in the title (every word must occur). `kind` limits to diagnoses (`dx`) or procedures (`pr`). `valid` says whether the grouper accepts the code in that version (category headers such as `I21` are not).",
    errorResponses: [400, 401, 403],
  })
    .input(
      z.object({
        q: z.string().trim().min(1, 'type at least one character').max(100),
        version: VersionField,
        kind: z.enum(['dx', 'pr']).optional(),
        limit: z.coerce.number().int().min(1).max(50).default(20),
      }),
    )
    .output(z.object({ version: z.string(), query: z.string(), results: z.array(CodeView) }))
    .query(async ({ input }) => {
      const version = resolveApiVersion(input.version);
      const [grouper, hits] = await Promise.all([getGrouper(version), suggestCodes(version, input.q, input.limit, { kind: input.kind })]);
      return {
        version,
        query: input.q,
        results: hits.map((h) => ({
          code: h.code,
          display: displayCode(h.code, h.kind),
          kind: h.kind,
          title: h.title,
          billable: h.billable,
          valid: grouper.isValidCode(h.code, h.kind),
        })),
      };
    }),

  /**
   * UI only: the Group a case autocomplete. Code-like text matches code prefixes (the CMS code files of the version);
   * words go to the search engine (ICD-10-CM for diagnoses, ICD-10-PCS for procedures), whose hits are kept only when
   * each query word starts a word of the title or is absent from it (a synonym or index term matched): "tent" never
   * offers "Latent yaws". Every hit says whether the grouper accepts it in the version.
   */
  suggest: authed(auth)
    .input(
      z.object({ q: z.string().trim().min(1).max(100), version: VersionField, kind: z.enum(['dx', 'pr']), limit: z.number().int().min(1).max(50).default(30) }),
    )
    .output(z.object({ version: z.string(), query: z.string(), source: z.enum(['codes', 'search']), results: z.array(CodeView) }))
    .query(async ({ ctx, input }) => {
      const version = resolveApiVersion(input.version);
      const grouper = await getGrouper(version);
      if (looksLikeCode(input.q)) {
        const hits = await suggestCodes(version, input.q, input.limit, { kind: input.kind });
        return {
          version,
          query: input.q,
          source: 'codes' as const,
          results: hits.map((h) => ({
            code: h.code,
            display: displayCode(h.code, h.kind),
            kind: h.kind,
            title: h.title,
            billable: h.billable,
            valid: grouper.isValidCode(h.code, h.kind),
          })),
        };
      }
      const res = await searchConcepts(ctx.db, {
        query: input.q,
        vocabularies: [input.kind === 'dx' ? 'ICD10CM' : 'ICD10PCS'],
        top_k: Math.min(100, input.limit * 2),
        search_mode: 'hybrid',
      });
      const seen = new Set<string>();
      const results: z.infer<typeof CodeView>[] = [];
      for (const r of res.results) {
        if (fragmentOnly(r.concept_name, input.q)) continue;
        const info = await lookupCode(version, r.concept_code);
        if (seen.has(info.code) || info.kind !== input.kind) continue;
        seen.add(info.code);
        results.push({
          code: info.code,
          display: displayCode(info.code, info.kind),
          kind: info.kind,
          title: info.title ?? r.concept_name,
          billable: info.billable,
          valid: info.valid,
        });
        if (results.length >= input.limit) break;
      }
      return { version, query: input.q, source: 'search' as const, results };
    }),

  /** UI only: is this exactly a code the grouper accepts in the version? (Enter on typed text.) */
  check: authed(auth)
    .input(z.object({ code: z.string().trim().min(1).max(16), version: VersionField, kind: z.enum(['dx', 'pr']) }))
    .output(z.object({ code: z.string(), display: z.string(), valid: z.boolean(), known: z.boolean(), title: z.string().nullable(), version: z.string() }))
    .query(async ({ input }) => {
      const version = resolveApiVersion(input.version);
      const grouper = await getGrouper(version);
      const info = await lookupCode(version, input.code);
      const valid = info.kind === input.kind && grouper.isValidCode(info.code, input.kind);
      return { code: info.code, display: displayCode(info.code, input.kind), valid, known: info.title !== null, title: info.title, version };
    }),

  /** UI only: titles of DRGs (the result card lists the candidates with their titles). */
  drgTitles: authed(auth)
    .input(z.object({ version: VersionField, drgs: z.array(z.string().regex(/^\d{1,3}$/)).max(50) }))
    .output(z.record(z.string(), z.string()))
    .query(async ({ input }) => {
      const grouper = await getGrouper(resolveApiVersion(input.version));
      return Object.fromEntries(input.drgs.map((d) => [d, grouper.drgTitle(Number(d))]));
    }),

  /** The page's FHIR tab: the same core as POST /api/v1/fhir/drg/$classify, over tRPC with the session. */
  fhirClassify: authed(auth)
    .input(
      z.strictObject({
        bundle: z.string().refine((b) => Buffer.byteLength(b, 'utf8') <= fhirBodyLimit(), { message: 'the Bundle is larger than MAX_BODY_BYTES' }),
        version: VersionField,
      }),
    )
    .output(z.object({ status: z.number().int(), resource: z.record(z.string(), z.unknown()) }))
    .mutation(async ({ input }) => {
      const out = await classifyFhirText(input.bundle, { version: input.version });
      return { status: out.status, resource: out.resource as unknown as Record<string, unknown> };
    }),
});
