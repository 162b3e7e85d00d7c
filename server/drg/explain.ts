/**
 * A grouping explained for a coder, and the classify resource (SPEC §2.4 plus what a coder needs to check the
 * result) declared once: `POST /drg/classify/`, the DRG agent's `drg` and the Group a case page all report a DRG in
 * this shape. Per diagnosis its CC/MCC and why one did not count, per procedure its O.R. status, the return code in
 * words, an explanation in sentences, and the Medicare Code Editor's edits beside the DRG.
 *
 * Part of the grouper core: no HTTP. The doors call `shapeClassifyResult`.
 */
import { z } from 'zod';
import { EDIT_TEXT, PAYMENT_EDITS } from '../mce';
import { lookupCode } from './index';
import type { CaseEdits } from './mce';
import { RETURN_CODE_NUMBER, type DxDetail, type GroupResult, type PrDetail, type ReturnCode } from './types';

/** v39.1 derived from v40 + Appendices vs the official v39.1 grouper (`npx tsx scripts/derive-eval.ts`). */
export const DERIVED_AGREEMENT = '99.83% (2995/3000 final DRGs of the v39.1 oracle dev set)';

const RETURN_CODES = Object.keys(RETURN_CODE_NUMBER) as [ReturnCode, ...ReturnCode[]];
const DrgType = z.enum(['M', 'P']);
const Severity = z.enum(['MCC', 'CC', 'NON_CC', 'NONE']);
const Affects = z.enum(['NONE', 'INITIAL', 'FINAL', 'BOTH']);
const NotCounted = z.enum(['principal', 'invalid', 'not_cc', 'pdx_cc_exclusion', 'mcc_only_if_alive', 'drg_severity_suppression', 'hac']);

const list = (names: string[]) => names.map((n) => `\`${n}\` (${EDIT_TEXT[n]?.title ?? n}${EDIT_TEXT[n]?.scope ? `; ${EDIT_TEXT[n]?.scope}` : ''})`).join(', ');

/** Which MCE edits are prepayment and which postpayment, for the OpenAPI descriptions and the README. */
export const EDIT_PAYMENT_DOC =
  `**Prepayment** edits (the payer holds the claim until it is corrected): ${list(PAYMENT_EDITS.prepayment)}. ` +
  `**Postpayment** edits (the claim is paid and may be reviewed afterwards): ${list(PAYMENT_EDITS.postpayment)}. ` +
  `Reported without affecting the claim's edit type: ${list(PAYMENT_EDITS.none)}.`;

export const EditViewSchema = z.object({
  edit: z.string().describe('The MCE edit name (CMS), e.g. AGE_CONFLICT.'),
  title: z.string().describe('The edit in words, e.g. "Age conflict".'),
  payment: z
    .enum(['prepayment', 'postpayment', 'none'])
    .describe('prepayment: the payer holds the claim; postpayment: reviewed after payment; none: reported only (INVALID_ADMIT_DX).'),
  count: z.number().int().describe('Code occurrences that raised it (claim-level edits count 1).'),
  codes: z.array(z.string()).describe('Codes it was raised on (no dots); [] for claim-level edits (age, sex, discharge status).'),
  positions: z.array(z.string()).describe('Where: dx[i] (0 = principal), pr[j], admit_dx.'),
  message: z.string().describe('One sentence for a coder, naming the codes.'),
});

export const MceSummarySchema = z.object({
  mce_version: z.string().describe('Medicare Code Editor data version, e.g. 43.1 (CMS MCE 2.0 tables).'),
  discharge_date: z.string().nullable().describe('The discharge date the codes were checked for (YYYY-MM-DD).'),
  discharge_date_source: z
    .enum(['given', 'assumed'])
    .describe("assumed: no discharge_date was sent; the last day of the grouper version's fiscal year was used."),
  date_in_range: z.boolean().describe('false: the MCE data does not cover the discharge date; nothing was checked (see notes).'),
  edit_type: z.enum(['NONE', 'PREPAYMENT', 'POSTPAYMENT', 'BOTH', 'INVALID_DISCHARGE_DATE']).describe("The claim's disposition as the MCE reports it."),
  not_checked: z
    .array(z.object({ edit: z.string(), title: z.string(), needs: z.enum(['age', 'sex', 'discharge_status', 'length_of_stay']) }))
    .describe('Edits that could not be checked because the request did not give what they need (only those that could have fired on this case).'),
  notes: z.array(z.string()),
});

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

/** The request as echoed back (SPEC §2.4 `input`). */
export const ClassifyEcho = z.object({
  dx_codes: z.array(z.string()),
  pr_codes: z.array(z.string()),
  gender: z.enum(['F', 'M']),
  is_alive: z.boolean(),
  discharge_status: z.number().int().optional(),
  poa: z.array(z.string()).optional(),
  discharge_date: z.string().optional(),
  age: z.number().int().optional(),
  length_of_stay: z.number().int().optional(),
  admit_dx: z.string().optional(),
});
export type ClassifyEcho = z.output<typeof ClassifyEcho>;

export const ClassifyResponse = z.object({
  primary_drg: z.string().describe('Final MS-DRG, 3 digits.'),
  description: z.string(),
  mdc: z.string().describe('Major Diagnostic Category, 2 digits ("00" for DRG 999).'),
  mdc_description: z.string(),
  type: DrgType.describe(
    "M medical, P procedural. DRGs 998/999 have no type in the CMS tables; they are reported as 'M' (no surgical hierarchy applied) and med_surg says NONE.",
  ),
  med_surg: z.enum(['MEDICAL', 'SURGICAL', 'NONE']),
  all_candidates: z.array(z.string()).describe('Every DRG whose formula the case satisfies in the set that produced the final DRG, rank order, final first.'),
  version: z.string(),
  fiscal_year: z.string(),
  fidelity: z
    .enum(['exact', 'derived'])
    .describe(
      `exact: official CMS tables; derived (v36-v38): built from the nearest version plus the Definitions Manual appendices (the same method reproduces v39.1 at ${DERIVED_AGREEMENT}).`,
    ),
  fidelity_note: z
    .string()
    .nullable()
    .describe(
      'Derived versions: the DRGs of the version this server cannot produce, and how the others were derived; null for exact versions. A case that needs such a DRG says so in warnings.',
    ),
  return_code: z.enum(RETURN_CODES),
  return_code_number: z.number().int(),
  severity: Severity.describe('Severity level the final DRG row saw (after CC exclusion, suppression and HAC).'),
  severity_driver: z.string().nullable().describe('The secondary diagnosis that supplied that level.'),
  initial: InitialView.describe('The grouping before HAC logic.'),
  hac_status: z.enum(['NOT_APPLICABLE', 'FINAL_DRG_NO_CHANGE', 'FINAL_DRG_CHANGES', 'FINAL_DRG_UNGROUPABLE']),
  discharge_status_used: z.number().int().describe('UB-04 discharge status used by the grouper (-1 = invalid).'),
  diagnoses: z.array(DiagnosisView),
  procedures: z.array(ProcedureView),
  explanation: z
    .array(z.string())
    .describe('The result in sentences: what set the MDC, which procedures were O.R., which CC/MCC counted and why others did not.'),
  warnings: z.array(z.string()),
  edits: z
    .array(EditViewSchema)
    .describe(`Medicare Code Editor edits of the case (CMS MCE 2.0 logic and tables), in the MCE's order; [] when none. ${EDIT_PAYMENT_DOC}`),
  mce: MceSummarySchema.nullable().describe(
    "How the edits were checked: the claim's disposition (edit_type), the discharge date used, edits that could not be checked. null when the MCE tables are not installed.",
  ),
  input: ClassifyEcho,
  response_time_ms: z.number().int().describe('Time spent grouping and shaping this answer on the server, whole milliseconds.'),
});
export type ClassifyResponse = z.output<typeof ClassifyResponse>;

/** `I214` → `I21.4` (ICD-10-CM); PCS codes have no dot. */
export function displayCode(code: string, kind: 'dx' | 'pr'): string {
  return kind === 'dx' && code.length > 3 ? `${code.slice(0, 3)}.${code.slice(3)}` : code;
}

/** The return codes in words. */
export const RETURN_CODE_TEXT: Record<ReturnCode, string> = {
  OK: 'grouped normally',
  INVALID_PDX: 'the principal diagnosis is missing or is not a valid ICD-10-CM code in this version',
  DX_CANNOT_BE_PDX: 'the principal diagnosis may not be used as a principal diagnosis (for example a manifestation or external-cause code)',
  INVALID_SEX: "the principal diagnosis depends on the patient's sex, and the sex is missing or conflicts with it",
  INVALID_DISCHARGE_STATUS: 'the discharge status is invalid and the DRG logic needs it',
  UNGROUPABLE: 'no DRG formula matched the case',
  HAC_MISSING_ONE_POA: 'a hospital-acquired-condition code has no valid present-on-admission indicator',
  HAC_STATUS_INVALID_MULT_HACS_POA_NOT_Y_W:
    'a hospital-acquired-condition code is not present on admission, the claim has several secondary diagnoses, and the hospital POA status is unknown',
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
    return r.return_code === 'OK' || r.mdc !== '00'
      ? `${c} is the principal diagnosis; it places the case in MDC ${r.mdc}.`
      : `${c} is the principal diagnosis.`;
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
      return r.severity_driver === d.code
        ? `${c} is ${an(d.final_severity_flag)} and sets the severity of the DRG.`
        : `${c} is ${an(d.final_severity_flag)} and counts.`;
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

/** One line about the edits for the explanation (none when the case has none). */
function editsLine(e: CaseEdits | null): string | null {
  if (!e || !e.date_in_range || e.edits.length === 0) return null;
  const pre = e.edits.filter((x) => x.payment === 'prepayment').length;
  const post = e.edits.filter((x) => x.payment === 'postpayment').length;
  const kinds = [pre ? `${pre} prepayment` : '', post ? `${post} postpayment` : ''].filter(Boolean).join(' and ');
  return `Medicare Code Editor: ${e.edits.length} edit${e.edits.length === 1 ? '' : 's'}${kinds ? ` (${kinds})` : ''}: ${e.edits.map((x) => x.title.toLowerCase()).join(', ')}.`;
}

/** GroupResult (+ the case's MCE edits) → the classify response with per-code details and an explanation. */
export async function shapeClassifyResult(r: GroupResult, echo: ClassifyEcho, startedAt: number, edits: CaseEdits | null): Promise<ClassifyResponse> {
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
    r.pr.map(async (p) => ({
      code: p.code,
      valid: p.valid,
      title: await titleFor(r.version, p.code),
      is_or: p.is_or,
      clusters: p.clusters,
      affects: p.affects,
      note: prNote(p, r),
    })),
  );

  const explanation: string[] = [];
  if (r.return_code !== 'OK') explanation.push(`DRG ${r.drg}: return code ${r.return_code}: ${RETURN_CODE_TEXT[r.return_code]}.`);
  const principal = diagnoses[0];
  if (principal?.valid && r.mdc !== '00') {
    explanation.push(
      `Principal diagnosis ${principal.display}${principal.title ? ` (${principal.title})` : ''} places the case in MDC ${r.mdc} (${r.mdc_description}).`,
    );
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
  const el = editsLine(edits);
  if (el) explanation.push(el);

  const { edits: editList = [], ...mce } = edits ?? {};
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
    fidelity_note: r.fidelity_note,
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
    edits: editList,
    mce: edits ? (mce as z.output<typeof MceSummarySchema>) : null,
    input: echo,
    response_time_ms: Math.round(performance.now() - startedAt),
  };
}
