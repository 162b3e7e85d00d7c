import type { Grouper, GroupResult, ReturnCode } from '../drg';
import { editsForCase, type CaseEdits, type EditView } from '../drg/mce';
import { z } from 'zod';
import { toEditInput, toGroupInput, type BatchCase } from '../api/schemas/drg';

/**
 * One case through the grouper, as a batch result.
 *
 * A case is `done` when the grouper assigns a DRG other than 999, and only then is it billed. It is `failed` when
 * the grouper throws, or when it answers DRG 999 (ungroupable: invalid principal diagnosis, a code that cannot be a
 * principal diagnosis, sex or discharge-status edits, missing POA for a HAC code). DRG 999 is a valid grouper
 * answer, but it is not a payable classification, so it is reported as a failure with the CMS return code and is
 * not charged.
 */
export type CaseInput = Omit<BatchCase, 'case_ref'>;

export interface CaseResult {
  primary_drg: string;
  description: string;
  mdc: string;
  mdc_description: string;
  type: 'M' | 'P' | null;
  med_surg: GroupResult['med_surg'];
  return_code: ReturnCode;
  severity: GroupResult['severity'];
  all_candidates: string[];
  initial_drg: string;
  hac_status: GroupResult['hac_status'];
  version: string;
  fiscal_year: string;
  fidelity_note: string | null;
  warnings: string[];
}

/**
 * A stored case result as the API reports it (drg_batch_cases.result, JSON): validated with this schema when read back,
 * so nothing trusts the JSON column's shape blindly.
 */
export const CaseResultSchema = z.object({
  primary_drg: z.string(),
  description: z.string(),
  mdc: z.string(),
  mdc_description: z.string(),
  type: z.enum(['M', 'P']).nullable(),
  med_surg: z.enum(['MEDICAL', 'SURGICAL', 'NONE']),
  return_code: z.string(),
  severity: z.enum(['MCC', 'CC', 'NON_CC', 'NONE']),
  all_candidates: z.array(z.string()),
  initial_drg: z.string(),
  hac_status: z.string(),
  version: z.string(),
  fiscal_year: z.string(),
  fidelity_note: z.string().nullable(),
  warnings: z.array(z.string()),
});
export type StoredCaseResult = z.output<typeof CaseResultSchema>;

/** The Medicare Code Editor's edits of a case (done or failed), as classify reports them. */
export interface CaseEditsView {
  edits: EditView[];
  mce: Omit<CaseEdits, 'edits'> | null;
}

export type CaseOutcome = { status: 'done'; result: CaseResult } | { status: 'failed'; error_code: string; error: string };

/**
 * A finished case's Medicare Code Editor edits, done or failed (read.ts adds them to each result as it reads it:
 * they follow from the stored case, the batch's grouper version and the installed MCE tables, and a failed case has
 * no stored result to keep them in).
 */
export function caseEdits(version: { version: string; fiscal_year: string }, c: CaseInput): CaseEditsView {
  const e = editsForCase(toEditInput(c), version);
  if (!e) return { edits: [], mce: null };
  const { edits, ...mce } = e;
  return { edits, mce };
}

const UNGROUPABLE: Record<string, string> = {
  INVALID_PDX: 'the principal diagnosis is not a valid ICD-10-CM code in this version',
  DX_CANNOT_BE_PDX: 'the principal diagnosis cannot be used as a principal diagnosis',
  INVALID_SEX: 'the principal diagnosis needs a sex the grouper can use',
  INVALID_DISCHARGE_STATUS: 'the discharge status is invalid for this case',
  UNGROUPABLE: 'the case cannot be grouped',
  HAC_MISSING_ONE_POA: 'a hospital-acquired-condition diagnosis is missing its present-on-admission indicator',
  HAC_STATUS_INVALID_MULT_HACS_POA_NOT_Y_W: 'several hospital-acquired-condition diagnoses have POA other than Y or W',
  HAC_STATUS_INVALID_POA_N_OR_U: 'a hospital-acquired-condition diagnosis has POA N or U',
  HAC_STATUS_INVALID_POA_INVALID_OR_1: 'a hospital-acquired-condition diagnosis has an invalid POA or 1',
};

export function toCaseResult(r: GroupResult): CaseResult {
  return {
    primary_drg: r.drg,
    description: r.description,
    mdc: r.mdc,
    mdc_description: r.mdc_description,
    type: r.type,
    med_surg: r.med_surg,
    return_code: r.return_code,
    severity: r.severity,
    all_candidates: r.all_candidates,
    initial_drg: r.initial_drg,
    hac_status: r.hac_status,
    version: r.version,
    fiscal_year: r.fiscal_year,
    fidelity_note: r.fidelity_note,
    warnings: r.warnings,
  };
}

export function classifyCase(grouper: Grouper, c: CaseInput): CaseOutcome {
  let r: GroupResult;
  try {
    r = grouper.group(toGroupInput(c));
  } catch (err) {
    return { status: 'failed', error_code: 'grouper_error', error: `grouper error: ${err instanceof Error ? err.message : String(err)}`.slice(0, 500) };
  }
  if (r.drg === '999') {
    const why = UNGROUPABLE[r.return_code] ?? 'the case cannot be grouped';
    const detail = r.warnings.length ? ` (${r.warnings.join('; ')})` : '';
    return { status: 'failed', error_code: r.return_code, error: `ungroupable, DRG 999 ${r.return_code}: ${why}${detail}`.slice(0, 1000) };
  }
  return { status: 'done', result: toCaseResult(r) };
}
