import { z } from 'zod';
import { authedProcedure, restMeta, router } from '../trpc';
import { ClassifyRequest, toGroupInput, VersionField } from '../schemas/drg';
import { AppError } from '../../errors';
import { apiVersions, getGrouper, lookupCode, resolveApiVersion, RETURN_CODE_NUMBER, suggestCodes } from '../../drg';
import type { DxDetail, GroupResult, PrDetail, ReturnCode } from '../../drg';
import { classifyFhirText, fhirBodyLimit } from '../../fhir';

/**
 * MS-DRG grouping (SPEC §2.4, §4.4): classify one case, list the grouper versions, autocomplete codes.
 * Classification is free: no ledger row is written (SPEC §4.4 "no language-model cost"; the batch endpoint bills).
 * The UI calls the same procedures over tRPC with the session; REST callers need an API key with `drg:classify`.
 */
const auth = { scope: 'drg:classify', jwt: false } as const;

/** v39.1 derived from v40 + Appendices vs the official v39.1 grouper (`npx tsx server/drg/derive-eval.ts`). */
const DERIVED_AGREEMENT = '99.83% (2995/3000 final DRGs of the v39.1 oracle dev set)';

const RETURN_CODES = Object.keys(RETURN_CODE_NUMBER) as [ReturnCode, ...ReturnCode[]];
const DrgType = z.enum(['M', 'P']);
const Severity = z.enum(['MCC', 'CC', 'NON_CC', 'NONE']);
const Affects = z.enum(['NONE', 'INITIAL', 'FINAL', 'BOTH']);
const NotCounted = z.enum(['principal', 'invalid', 'not_cc', 'pdx_cc_exclusion', 'mcc_only_if_alive', 'drg_severity_suppression', 'hac']);

const DiagnosisView = z.object({
  code: z.string().describe('Code as looked up (no dots, upper case).'),
  display: z.string().describe('Conventional spelling with the dot after the category, e.g. I21.4.'),
  role: z.enum(['principal', 'secondary']),
  valid: z.boolean().describe('Accepted by the grouper in this version; invalid codes are ignored (a warning says so).'),
  title: z.string().nullable(),
  cc_mcc: z.enum(['MCC', 'CC']).nullable().describe("The code's level as a secondary diagnosis in this version (null: neither, or invalid)."),
  counted: z.boolean().describe('Its CC/MCC counted for the final DRG.'),
  not_counted_reason: NotCounted.nullable().describe(
    'Why a CC/MCC did not count: pdx_cc_exclusion (the principal diagnosis is on its CC-exclusion list), mcc_only_if_alive (the patient died), drg_severity_suppression (the DRG family ignores it, e.g. other AMI codes in AMI DRGs), hac (hospital-acquired condition, not present on admission). principal / invalid / not_cc otherwise.',
  ),
  excluded_by_pdx: z.boolean(),
  excluded_died: z.boolean(),
  suppressed: z.boolean(),
  hac_met: z.boolean(),
  poa: z.string().nullable(),
  affects: Affects.describe('Took part in the initial and/or final DRG assignment (as the CMS grouper marks it).'),
  note: z.string().describe('One-line explanation for a coder.'),
});

const ProcedureView = z.object({
  code: z.string(),
  valid: z.boolean(),
  title: z.string().nullable(),
  is_or: z.boolean().describe('Operating-room procedure, as the CMS grouper reports it.'),
  clusters: z.array(z.string()),
  affects: Affects,
  note: z.string(),
});

const InitialView = z.object({
  drg: z.string(),
  mdc: z.string(),
  type: DrgType,
  return_code: z.enum(RETURN_CODES),
  severity: Severity,
});

export const ClassifyResponse = z.object({
  primary_drg: z.string().describe('Final MS-DRG, 3 digits.'),
  description: z.string(),
  mdc: z.string().describe('Major Diagnostic Category, 2 digits ("00" for DRG 999).'),
  mdc_description: z.string(),
  type: DrgType.describe("M medical, P procedural. DRGs 998/999 have no type in the CMS tables; they are reported as 'M' (no surgical hierarchy applied) and med_surg says NONE."),
  med_surg: z.enum(['MEDICAL', 'SURGICAL', 'NONE']),
  all_candidates: z.array(z.string()).describe('Every DRG whose formula the case satisfies in the set that produced the final DRG, rank order, final first.'),
  version: z.string(),
  fiscal_year: z.string(),
  fidelity: z.enum(['exact', 'derived']).describe(`exact: official CMS tables; derived (v36-v38): built from the nearest version plus the Definitions Manual appendices (the same method reproduces v39.1 at ${DERIVED_AGREEMENT}).`),
  return_code: z.enum(RETURN_CODES),
  return_code_number: z.number().int(),
  severity: Severity.describe('Severity level the final DRG row saw (after CC exclusion, suppression and HAC).'),
  severity_driver: z.string().nullable().describe('The secondary diagnosis that supplied that level.'),
  initial: InitialView.describe('The grouping before HAC logic.'),
  hac_status: z.enum(['NOT_APPLICABLE', 'FINAL_DRG_NO_CHANGE', 'FINAL_DRG_CHANGES', 'FINAL_DRG_UNGROUPABLE']),
  discharge_status_used: z.number().int().describe('UB-04 discharge status used by the grouper (-1 = invalid).'),
  diagnoses: z.array(DiagnosisView),
  procedures: z.array(ProcedureView),
  explanation: z.array(z.string()).describe('The result in sentences: what set the MDC, which procedures were O.R., which CC/MCC counted and why others did not.'),
  warnings: z.array(z.string()),
  input: z.object({
    dx_codes: z.array(z.string()),
    pr_codes: z.array(z.string()),
    gender: z.enum(['F', 'M']),
    is_alive: z.boolean(),
    discharge_status: z.number().int().optional(),
    poa: z.array(z.string()).optional(),
  }),
  response_time_ms: z.number().int().describe('Time spent grouping and shaping this answer on the server, whole milliseconds.'),
});
export type ClassifyResponse = z.output<typeof ClassifyResponse>;

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

/** `I214` → `I21.4` (ICD-10-CM); PCS codes have no dot. */
export function displayCode(code: string, kind: 'dx' | 'pr'): string {
  return kind === 'dx' && code.length > 3 ? `${code.slice(0, 3)}.${code.slice(3)}` : code;
}


const RETURN_CODE_TEXT: Record<ReturnCode, string> = {
  OK: 'grouped normally',
  INVALID_PDX: 'the principal diagnosis is missing or is not a valid ICD-10-CM code in this version',
  DX_CANNOT_BE_PDX: 'the principal diagnosis may not be used as a principal diagnosis (for example a manifestation or external-cause code)',
  INVALID_SEX: "the principal diagnosis depends on the patient's sex, and the sex is missing or conflicts with it",
  INVALID_DISCHARGE_STATUS: 'the discharge status is invalid and the DRG logic needs it',
  UNGROUPABLE: 'no DRG formula matched the case',
  HAC_MISSING_ONE_POA: 'a hospital-acquired-condition code has no valid present-on-admission indicator',
  HAC_STATUS_INVALID_MULT_HACS_POA_NOT_Y_W: 'several hospital-acquired-condition codes are not present on admission and the hospital POA status is unknown',
  HAC_STATUS_INVALID_POA_N_OR_U: 'a hospital-acquired-condition code is not present on admission (N/U) and the hospital POA status is unknown',
  HAC_STATUS_INVALID_POA_INVALID_OR_1: 'a hospital-acquired-condition code has an invalid POA indicator (or 1) and the hospital POA status is unknown',
};

function notCounted(d: DxDetail): z.output<typeof NotCounted> | null {
  if (d.principal) return 'principal';
  if (!d.valid) return 'invalid';
  if (d.final_severity_flag === 'MCC' || d.final_severity_flag === 'CC') return null;
  if (!d.severity) return 'not_cc';
  if (d.excluded_by_pdx) return 'pdx_cc_exclusion';
  if (d.excluded_died) return 'mcc_only_if_alive';
  if (d.hac_met) return 'hac';
  if (d.suppressed || d.final_severity_flag.endsWith('_BY_DRG_LOGIC')) return 'drg_severity_suppression';
  return 'not_cc';
}

/** "an MCC", "a CC". */
function an(level: string): string {
  return `${level.startsWith('M') ? 'an' : 'a'} ${level}`;
}

function dxNote(d: DxDetail, r: GroupResult, reason: ReturnType<typeof notCounted>, pdx: string): string {
  const c = displayCode(d.code, 'dx');
  if (d.principal) {
    if (!d.valid) return `${c} is not a valid ICD-10-CM code in ${r.version}; the case cannot be grouped.`;
    return r.return_code === 'OK' || r.mdc !== '00' ? `${c} is the principal diagnosis; it places the case in MDC ${r.mdc}.` : `${c} is the principal diagnosis.`;
  }
  const level = d.severity;
  switch (reason) {
    case 'invalid':
      return `${c} is not a valid ICD-10-CM code in ${r.version} and was ignored.`;
    case 'not_cc':
      return level ? `${c} is ${an(level)}, but the final DRG's formula did not use it.` : `${c} is neither a CC nor an MCC in ${r.version}.`;
    case 'pdx_cc_exclusion':
      return `${c} is ${an(level ?? 'CC')} but does not count: the principal diagnosis ${pdx} excludes it (CC exclusion list).`;
    case 'mcc_only_if_alive':
      return `${c} is an MCC only when the patient is discharged alive; the patient died, so it does not count.`;
    case 'hac':
      return `${c} is a hospital-acquired condition (not present on admission); its ${level} does not count for the final DRG.`;
    case 'drg_severity_suppression':
      return `${c} is ${an(level ?? 'CC')}, but the DRG family ignores it (severity suppression, e.g. other AMI codes in AMI DRGs).`;
    default:
      return r.severity_driver === d.code ? `${c} is ${an(d.final_severity_flag)} and sets the severity of the DRG.` : `${c} is ${an(d.final_severity_flag)} and counts.`;
  }
}

function prNote(p: PrDetail, r: GroupResult): string {
  if (!p.valid) return `${p.code} is not a valid ICD-10-PCS code in ${r.version} and was ignored.`;
  const used = p.affects === 'FINAL' || p.affects === 'BOTH';
  return `${p.code} is ${p.is_or ? 'an O.R.' : 'a non-O.R.'} procedure${used ? ' and took part in the DRG assignment' : ' and did not affect the DRG'}${p.clusters.length ? ` (completes cluster ${p.clusters.join(', ')})` : ''}.`;
}

/** Titles per version and code, memoised: a handful of codes per request, looked up on every request. */
const titles = new Map<string, string | null>();

async function titleFor(version: string, code: string): Promise<string | null> {
  const key = `${version}:${code}`;
  const hit = titles.get(key);
  if (hit !== undefined) return hit;
  let title: string | null = null;
  try {
    title = (await lookupCode(version, code)).title;
  } catch {
    title = null;
  }
  if (titles.size >= 100_000) titles.clear();
  titles.set(key, title);
  return title;
}

/** GroupResult → the §2.4 response with per-code details and an explanation. */
export async function shapeClassifyResult(r: GroupResult, input: ClassifyRequest, startedAt: number): Promise<ClassifyResponse> {
  const pdx = r.dx[0] ? displayCode(r.dx[0].code, 'dx') : '(none)';
  const diagnoses = await Promise.all(
    r.dx.map(async (d) => {
      const reason = notCounted(d);
      return {
        code: d.code,
        display: displayCode(d.code, 'dx'),
        role: d.principal ? ('principal' as const) : ('secondary' as const),
        valid: d.valid,
        title: await titleFor(r.version, d.code),
        cc_mcc: d.severity,
        counted: reason === null,
        not_counted_reason: reason,
        excluded_by_pdx: d.excluded_by_pdx,
        excluded_died: d.excluded_died,
        suppressed: d.suppressed,
        hac_met: d.hac_met,
        poa: d.poa,
        affects: d.affects,
        note: dxNote(d, r, reason, pdx),
      };
    }),
  );
  const procedures = await Promise.all(
    r.pr.map(async (p) => ({ code: p.code, valid: p.valid, title: await titleFor(r.version, p.code), is_or: p.is_or, clusters: p.clusters, affects: p.affects, note: prNote(p, r) })),
  );

  const explanation: string[] = [];
  if (r.return_code !== 'OK') explanation.push(`DRG ${r.drg}: return code ${r.return_code}: ${RETURN_CODE_TEXT[r.return_code]}.`);
  const principal = diagnoses[0];
  if (principal?.valid && r.mdc !== '00') {
    explanation.push(`Principal diagnosis ${principal.display}${principal.title ? ` (${principal.title})` : ''} places the case in MDC ${r.mdc} (${r.mdc_description}).`);
  }
  const drgNum = Number(r.drg);
  if (drgNum >= 981 && drgNum <= 989) explanation.push(`DRGs 981-989: an O.R. procedure unrelated to the principal diagnosis's MDC.`);
  for (const p of procedures) explanation.push(p.note);
  if (r.severity_driver) {
    const d = diagnoses.find((x) => x.code === r.severity_driver);
    explanation.push(`Severity ${r.severity}: set by ${displayCode(r.severity_driver, 'dx')}${d?.title ? ` (${d.title})` : ''}.`);
  } else if (r.severity === 'NON_CC') {
    explanation.push('Severity: no secondary diagnosis counts as a CC or MCC for this DRG.');
  }
  for (const d of diagnoses.slice(1)) explanation.push(d.note);
  if (r.hac_status === 'FINAL_DRG_CHANGES' || r.hac_status === 'FINAL_DRG_UNGROUPABLE') {
    explanation.push(`Hospital-acquired conditions changed the result: initial DRG ${r.initial_drg}, final DRG ${r.drg}.`);
  }

  const echo: ClassifyResponse['input'] = { dx_codes: input.dx_codes, pr_codes: input.pr_codes, gender: input.gender, is_alive: input.is_alive };
  if (input.discharge_status !== undefined) echo.discharge_status = input.discharge_status;
  if (input.poa !== undefined) echo.poa = input.poa;

  return {
    primary_drg: r.drg,
    description: r.description,
    mdc: r.mdc,
    mdc_description: r.mdc_description,
    type: r.type ?? 'M',
    med_surg: r.med_surg,
    all_candidates: r.all_candidates,
    version: r.version,
    fiscal_year: r.fiscal_year,
    fidelity: r.fidelity,
    return_code: r.return_code,
    return_code_number: RETURN_CODE_NUMBER[r.return_code],
    severity: r.severity,
    severity_driver: r.severity_driver,
    initial: { drg: r.initial_drg, mdc: r.initial_mdc, type: r.initial_type ?? 'M', return_code: r.initial_return_code, severity: r.initial_severity },
    hac_status: r.hac_status,
    discharge_status_used: r.discharge_status,
    diagnoses,
    procedures,
    explanation,
    warnings: r.warnings,
    input: echo,
    response_time_ms: Math.round(performance.now() - startedAt),
  };
}

/** Contradictions the schema cannot see: a guessed alive/expired status could change the DRG (and the payment). */
function checkConsistency(input: ClassifyRequest): void {
  if (input.discharge_status !== undefined) {
    if (input.discharge_status === 20 && input.is_alive) throw new AppError(400, 'invalid_request', 'discharge_status: 20 (expired) contradicts is_alive=true.');
    if (input.discharge_status !== 20 && !input.is_alive) {
      throw new AppError(400, 'invalid_request', `discharge_status: ${input.discharge_status} contradicts is_alive=false (an expired patient has discharge status 20).`);
    }
  }
  if (input.poa && input.poa.length !== input.dx_codes.length) {
    throw new AppError(400, 'invalid_request', `poa: needs one indicator per diagnosis code (${input.dx_codes.length}), got ${input.poa.length}.`);
  }
}

const CLASSIFY_DESCRIPTION = [
  'Groups one encounter into an MS-DRG with the table-driven grouper in `server/drg` (no language model; deterministic).',
  '**Request.** `dx_codes` (1-10, principal first) and `pr_codes` (0-10, 7 characters each) are accepted with or without dots and in any case (`i21.4` = `I214`). `gender` (`F`/`M`) and `is_alive` are **required**: both can change the DRG (sex-specific MDCs, expired AMI and neonate DRGs, "MCC only if discharged alive"), and a guessed value could change what a hospital is paid. `version` defaults to `v40` (SPEC §2.4 versions: v36-v40 and v43; v40.1, v41, v41.1, v42, v42.1 and v43.1 are served as an extension beyond SPEC §2.4; `GET /drg/versions/` lists what this server has). Optional extensions: `discharge_status` (UB-04 code; must agree with `is_alive`: 20 exactly when expired) and `poa` (one present-on-admission indicator per diagnosis, for HAC logic). Shape errors (0 or 11 diagnoses, an empty code or one over 16 characters, a procedure code that is not 7 characters, unknown fields) are 400 `invalid_request` naming the field; a version this server does not serve is 400 `invalid_version` listing the accepted versions. Diagnosis codes that are not codes of the version (unknown, or too long to be ICD-10-CM, as in the official grouper invalid-format cases) are not errors: they are ignored with a warning, and an invalid principal diagnosis gives DRG 999 with `return_code` `INVALID_PDX`.',
  "**Response.** The §2.4 fields (`primary_drg`, `description`, `mdc`, `type`, `all_candidates`, `version`, `fiscal_year`, `input`, `response_time_ms`) plus what a coder needs to check the result: `fidelity`, `mdc_description`, `return_code`, per-diagnosis CC/MCC and why one did not count (`not_counted_reason`), per-procedure O.R. status, `severity_driver`, the initial (pre-HAC) grouping, `warnings` and an `explanation`. DRGs 998/999 have no type in the CMS tables; `type` is then `M` and `med_surg` is `NONE`.",
  `**Accuracy.** Versions v39-v43.1 use the official CMS tables and agree 100% with the CMS grouper on the oracle dev sets (v39.1, v40, v43: final and initial DRG, MDC, return code). v36-v38 are derived from the Definitions Manual appendices (\`fidelity: derived\`); the same derivation applied to v39.1 agrees with the official grouper on ${DERIVED_AGREEMENT}.`,
  '**Billing.** Classification is free: no ledger row is written (batch classification is billed per case).',
].join('\n\n');

export const drgRouter = router({
  classify: authedProcedure
    .meta(
      restMeta(
        { method: 'POST', path: '/drg/classify', tags: ['drg'], summary: 'Classify one encounter into an MS-DRG', description: CLASSIFY_DESCRIPTION, errorResponses: [400, 401, 403, 413, 415] },
        auth,
      ),
    )
    .input(ClassifyRequest)
    .output(ClassifyResponse)
    .mutation(async ({ input }) => {
      const startedAt = performance.now();
      checkConsistency(input);
      const version = resolveApiVersion(input.version);
      const grouper = await getGrouper(version);
      const result = grouper.group(toGroupInput(input), { codes: 'lenient', detail: true });
      return shapeClassifyResult(result, input, startedAt);
    }),

  versions: authedProcedure
    .meta(
      restMeta(
        {
          method: 'GET',
          path: '/drg/versions',
          tags: ['drg'],
          summary: 'MS-DRG grouper versions',
          description: `Versions this server can group with, oldest first: fiscal year, fidelity (\`exact\` = official CMS tables; \`derived\` = v36-v38 built from the Definitions Manual appendices, measured at ${DERIVED_AGREEMENT} when the method is applied to v39.1), the default (v40), and \`extension\`: SPEC §2.4 lists v36-v40 and v43; v40.1, v41, v41.1, v42, v42.1 and v43.1 are served as an extension beyond it when their CMS tables are installed. Every endpoint that takes a \`version\` accepts exactly these (any other value: 400 \`invalid_version\`).`,
          errorResponses: [401, 403],
        },
        auth,
      ),
    )
    .input(z.object({}).optional())
    .output(z.object({ default: z.string(), versions: z.array(VersionView) }))
    .query(() => {
      const versions = apiVersions();
      return { default: versions.find((v) => v.default)?.version ?? 'v40', versions };
    }),

  codes: authedProcedure
    .meta(
      restMeta(
        {
          method: 'GET',
          path: '/drg/codes',
          tags: ['drg'],
          summary: 'Autocomplete ICD-10-CM/PCS codes and titles',
          description:
            'Searches the CMS code files of the version\'s fiscal year. A query that looks like a code (`I21`, `i21.4`, `0SR`) matches code prefixes; anything else matches words in the title (every word must occur). `kind` limits to diagnoses (`dx`) or procedures (`pr`). `valid` says whether the grouper accepts the code in that version (category headers such as `I21` are not).',
          errorResponses: [400, 401, 403],
        },
        auth,
      ),
    )
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
        results: hits.map((h) => ({ code: h.code, display: displayCode(h.code, h.kind), kind: h.kind, title: h.title, billable: h.billable, valid: grouper.isValidCode(h.code, h.kind) })),
      };
    }),

  /** The page's FHIR tab: the same core as POST /api/v1/fhir/drg/$classify, over tRPC with the session. */
  fhirClassify: authedProcedure
    .meta({ auth })
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
