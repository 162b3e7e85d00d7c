/**
 * The MCE's edits in words, for coders: a title, whether a payer holds the claim before paying it (prepayment) or
 * reviews it after payment (postpayment), what the edit checks, and a sentence naming the codes that raised it.
 * The payment class must agree with `edits.tsv` (a unit test checks every edit).
 */

export type Payment = 'prepayment' | 'postpayment' | 'none';

export interface EditText {
  title: string;
  payment: Payment;
  /** What the edit checks. */
  checks: string;
  /** Only some dates or ICD versions can raise it (shown in the documentation). */
  scope?: string;
}

export const EDIT_TEXT: Record<string, EditText> = {
  INVALID_CODE: {
    title: 'Invalid code',
    payment: 'prepayment',
    checks: 'a diagnosis or procedure code that is not valid on the discharge date (also a missing principal diagnosis)',
  },
  SEX_CONFLICT: {
    title: 'Sex conflict',
    payment: 'prepayment',
    checks: 'a code that is used only for the other sex',
    scope: 'discharges up to 2024-09-30 (CMS dropped the sex flags in MCE v42)',
  },
  AGE_CONFLICT: { title: 'Age conflict', payment: 'prepayment', checks: "a newborn, pediatric, maternity or adult diagnosis outside that group's age range" },
  QUESTIONABLE_ADMISSION: {
    title: 'Questionable admission',
    payment: 'prepayment',
    checks: 'a principal diagnosis that is rarely a reason for an inpatient admission',
  },
  MANIFESTATION_AS_PDX: {
    title: 'Manifestation code as principal diagnosis',
    payment: 'prepayment',
    checks: 'a manifestation code as principal diagnosis: the underlying condition is coded first',
  },
  NONSPECIFIC_PDX: {
    title: 'Nonspecific principal diagnosis',
    payment: 'postpayment',
    checks: 'a nonspecific principal diagnosis for a patient who did not die',
    scope: 'ICD-9 claims',
  },
  E_CODE_AS_PDX: {
    title: 'External-cause code as principal diagnosis',
    payment: 'prepayment',
    checks: 'an external cause of morbidity code (how an injury happened) as principal diagnosis',
  },
  UNACCEPTABLE_PDX: {
    title: 'Unacceptable principal diagnosis',
    payment: 'prepayment',
    checks: 'a code that is not acceptable as the principal diagnosis of an inpatient stay',
  },
  DUPLICATE_OF_PDX: {
    title: 'Duplicate of the principal diagnosis',
    payment: 'prepayment',
    checks: 'a secondary diagnosis identical to the principal diagnosis',
  },
  MEDICARE_IS_SECONDARY_PAYER: {
    title: 'Medicare as secondary payer',
    payment: 'postpayment',
    checks: 'a diagnosis suggesting another payer (for example an accident or injury) may be primary',
    scope: 'ICD-9 claims',
  },
  REQUIRES_SDX: {
    title: 'Requires a secondary diagnosis',
    payment: 'prepayment',
    checks: 'a principal diagnosis that is acceptable only together with a secondary diagnosis',
  },
  NONSPECIFIC_OR: {
    title: 'Nonspecific O.R. procedure',
    payment: 'postpayment',
    checks: 'a nonspecific operating-room procedure with no specific one on the claim',
    scope: 'ICD-9 claims',
  },
  OPEN_BIOPSY: {
    title: 'Open biopsy',
    payment: 'postpayment',
    checks: 'an open biopsy, which is often coded where a closed one was done',
    scope: 'ICD-9 claims',
  },
  NON_COVERED: {
    title: 'Non-covered procedure',
    payment: 'prepayment',
    checks: 'a procedure Medicare does not cover (alone, for this diagnosis, or at this age)',
  },
  BILATERAL: {
    title: 'Bilateral procedure',
    payment: 'postpayment',
    checks: 'two or more bilateral joint procedures with a musculoskeletal principal diagnosis',
    scope: 'ICD-9 claims',
  },
  LIMITED_COVERAGE_LVRS: {
    title: 'Limited coverage: lung volume reduction surgery',
    payment: 'prepayment',
    checks: 'lung volume reduction surgery, covered only under specific conditions',
    scope: 'ICD-9 claims',
  },
  LIMITED_COVERAGE: {
    title: 'Limited coverage',
    payment: 'prepayment',
    checks: 'a procedure Medicare covers only under specific conditions (approved centres, clinical trials, coverage criteria)',
  },
  LIMITED_COVERAGE_LUNG_TRANSPLANT: {
    title: 'Limited coverage: lung transplant',
    payment: 'prepayment',
    checks: 'a lung transplant, covered only under specific conditions',
    scope: 'ICD-9 claims',
  },
  QUESTIONABLE_OBSTETRIC_ADMISSION: {
    title: 'Questionable obstetric admission',
    payment: 'prepayment',
    checks: 'a delivery procedure without a secondary diagnosis coding the outcome of delivery',
  },
  LIMITED_COVERAGE_COMBINATION_HEART_LUNG_TRANSPLANT: {
    title: 'Limited coverage: heart-lung transplant',
    payment: 'prepayment',
    checks: 'a combined heart-lung transplant, covered only under specific conditions',
    scope: 'ICD-9 claims',
  },
  LIMITED_COVERAGE_HEART_TRANSPLANT: {
    title: 'Limited coverage: heart transplant',
    payment: 'prepayment',
    checks: 'a heart transplant, covered only under specific conditions',
    scope: 'ICD-9 claims',
  },
  LIMITED_COVERAGE_HEART_IMPLANT: {
    title: 'Limited coverage: implantable heart assist system',
    payment: 'prepayment',
    checks: 'an implantable heart assist system, covered only under specific conditions',
    scope: 'ICD-9 claims',
  },
  LIMITED_COVERAGE_INTESTINE_MULTI_VISCERAL_TRANSPLANT: {
    title: 'Limited coverage: intestine or multi-visceral transplant',
    payment: 'prepayment',
    checks: 'an intestine or multi-visceral transplant, covered only under specific conditions',
    scope: 'ICD-9 claims',
  },
  LIMITED_COVERAGE_LIVER_TRANSPLANT: {
    title: 'Limited coverage: liver transplant',
    payment: 'prepayment',
    checks: 'a liver transplant, covered only under specific conditions',
    scope: 'ICD-9 claims',
  },
  INVALID_ADMIT_DX: {
    title: 'Invalid admitting diagnosis',
    payment: 'none',
    checks: 'an admitting diagnosis that is not valid on the discharge date (reported; does not change the claim’s edit type)',
  },
  INVALID_AGE: { title: 'Invalid age', payment: 'prepayment', checks: 'an age below 0 or above 124 years' },
  INVALID_SEX: { title: 'Invalid sex', payment: 'prepayment', checks: 'a sex other than male, female or (from 2024-10-01) unknown' },
  INVALID_DISCHARGE_STATUS: {
    title: 'Invalid discharge status',
    payment: 'prepayment',
    checks: 'a patient discharge status that is not a valid UB-04 code on the discharge date',
  },
  LIMITED_COVERAGE_KIDNEY_TRANSPLANT: {
    title: 'Limited coverage: kidney transplant',
    payment: 'prepayment',
    checks: 'a kidney transplant, covered only under specific conditions',
    scope: 'ICD-9 claims',
  },
  LIMITED_COVERAGE_PANCREAS_TRANSPLANT: {
    title: 'Limited coverage: pancreas transplant',
    payment: 'prepayment',
    checks: 'a pancreas transplant, covered only under specific conditions',
    scope: 'ICD-9 claims',
  },
  TYPE_OF_AGE_CONFLICT: { title: 'Type of age conflict', payment: 'none', checks: 'not raised by the MCE software (a slot of its edit counter)' },
  INVALID_POA: { title: 'Invalid POA', payment: 'none', checks: 'not raised: the MCE accepts POA indicators but no edit reads them' },
  LIMITED_COVERAGE_ARTIFICIAL_HEART: {
    title: 'Limited coverage: artificial heart',
    payment: 'prepayment',
    checks: 'an artificial heart implant, covered only in a clinical trial',
    scope: 'ICD-9 claims',
  },
  WRONG_PROCEDURE_PERFORMED: {
    title: 'Wrong procedure performed',
    payment: 'prepayment',
    checks: 'a diagnosis reporting a surgical procedure on the wrong patient, the wrong body part, or the wrong procedure',
  },
  INCONSISTENT_WITH_LENGTH_OF_STAY: {
    title: 'Procedure inconsistent with length of stay',
    payment: 'prepayment',
    checks: 'a procedure that needs a longer stay than the claim reports (mechanical ventilation for 96 or more consecutive hours with a stay under 5 days)',
  },
  UNSPECIFIED: {
    title: 'Unspecified code',
    payment: 'prepayment',
    checks: 'an unspecified code (for example without laterality) where the record should allow a specific one',
  },
};
for (let i = 1; i <= 5; i++)
  EDIT_TEXT[`DX_UNUSED_${i}`] = { title: `Unused diagnosis edit ${i}`, payment: 'prepayment', checks: 'not raised: a reserved slot of the MCE edit counter' };
for (let i = 1; i <= 3; i++)
  EDIT_TEXT[`SG_UNUSED_${i}`] = { title: `Unused procedure edit ${i}`, payment: 'prepayment', checks: 'not raised: a reserved slot of the MCE edit counter' };

/** Edits by payment class, for the documentation (edits that are never raised are left out). */
export const PAYMENT_EDITS: Record<Payment, string[]> = { prepayment: [], postpayment: [], none: [] };
for (const [name, t] of Object.entries(EDIT_TEXT)) {
  if (name.startsWith('DX_UNUSED') || name.startsWith('SG_UNUSED') || name === 'TYPE_OF_AGE_CONFLICT' || name === 'INVALID_POA') continue;
  PAYMENT_EDITS[t.payment].push(name);
}

export function editTitle(edit: string): string {
  return EDIT_TEXT[edit]?.title ?? edit;
}

/** `I214` → `I21.4`; PCS codes unchanged. */
function display(code: string, position: string): string {
  if (position.startsWith('pr')) return code;
  return code.length > 3 ? `${code.slice(0, 3)}.${code.slice(3)}` : code;
}

function list(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

export interface EditContext {
  age?: number | null;
  sex?: string | null;
  dischargeStatus?: number | null;
  los?: number | null;
  /** Age groups and their ranges per code (AGE_CONFLICT). */
  ageGroups?: (code: string) => Array<{ group: string; min: number; max: number }>;
}

/** One sentence naming the codes that raised an edit, e.g. "O80 is a maternity diagnosis (ages 9-64); the patient is 70." */
export function describeEdit(edit: { name: string; codes: string[]; positions: string[] }, ctx: EditContext = {}): string {
  const pos = (code: string) => edit.positions[0] ?? (code.length === 7 && /^[0-9B-DF-HXJ]/.test(code) ? 'pr' : 'dx');
  const shown = edit.codes.map((c, i) => display(c, edit.positions[i] ?? pos(c)) || '(blank)');
  const codes = list(shown);
  const one = shown.length === 1;
  switch (edit.name) {
    case 'INVALID_CODE':
      if (edit.positions.includes('dx[0]') && edit.codes.includes('')) return 'The principal diagnosis is missing.';
      return `${codes} ${one ? 'is not a valid code' : 'are not valid codes'} on the discharge date.`;
    case 'INVALID_ADMIT_DX':
      return `The admitting diagnosis ${codes} is not a valid code on the discharge date.`;
    case 'AGE_CONFLICT': {
      const parts = edit.codes.map((c, i) => {
        const groups = ctx.ageGroups?.(c) ?? [];
        const g = groups.map((x) => `${x.group} (ages ${x.min}-${x.max})`).join(' and ');
        return g ? `${shown[i]} is a ${g} diagnosis` : `${shown[i]} does not fit the age`;
      });
      return `${parts.join('; ')}; the patient is ${ctx.age ?? 'of another age'}${typeof ctx.age === 'number' ? (ctx.age === 1 ? ' year old' : ' years old') : ''}.`;
    }
    case 'SEX_CONFLICT':
      return `${codes} ${one ? 'is' : 'are'} used only for the other sex (patient sex: ${ctx.sex ?? 'unknown'}).`;
    case 'E_CODE_AS_PDX':
      return `${codes} is an external-cause code (how the injury happened) and cannot be the principal diagnosis: code the injury or condition first.`;
    case 'MANIFESTATION_AS_PDX':
      return `${codes} is a manifestation code and cannot be the principal diagnosis: code the underlying condition first.`;
    case 'UNACCEPTABLE_PDX':
      return `${codes} is not acceptable as the principal diagnosis of an inpatient stay.`;
    case 'REQUIRES_SDX':
      return `${codes} is acceptable as principal diagnosis only with a secondary diagnosis, and the claim has none.`;
    case 'QUESTIONABLE_ADMISSION':
      return `${codes} as principal diagnosis is rarely a reason for an inpatient admission.`;
    case 'NONSPECIFIC_PDX':
      return `${codes} is a nonspecific principal diagnosis.`;
    case 'DUPLICATE_OF_PDX':
      return `${codes} repeats the principal diagnosis as a secondary diagnosis.`;
    case 'MEDICARE_IS_SECONDARY_PAYER':
      return `${codes} suggests another payer may be primary (Medicare as secondary payer).`;
    case 'UNSPECIFIED':
      return `${codes} ${one ? 'is an unspecified code' : 'are unspecified codes'}: the record may allow a more specific one (for example laterality).`;
    case 'WRONG_PROCEDURE_PERFORMED':
      return `${codes} reports a procedure performed on the wrong patient or body part, or the wrong procedure.`;
    case 'NON_COVERED':
      return `${codes} ${one ? 'is' : 'are'} not covered by Medicare on this claim.`;
    case 'QUESTIONABLE_OBSTETRIC_ADMISSION':
      return `${codes} ${one ? 'is a delivery procedure' : 'are delivery procedures'}, but no secondary diagnosis codes the outcome of delivery.`;
    case 'INCONSISTENT_WITH_LENGTH_OF_STAY':
      return `${codes} needs a longer stay than the ${ctx.los ?? '?'} day${ctx.los === 1 ? '' : 's'} reported.`;
    case 'NONSPECIFIC_OR':
      return `${codes} is a nonspecific O.R. procedure.`;
    case 'OPEN_BIOPSY':
      return `${codes} is an open biopsy: check that a closed biopsy was not done instead.`;
    case 'BILATERAL':
      return `${codes}: bilateral procedures with a musculoskeletal principal diagnosis.`;
    case 'INVALID_AGE':
      return `Age ${ctx.age ?? ''} is not a valid age (0-124 years).`;
    case 'INVALID_SEX':
      return `Sex ${ctx.sex ? `"${ctx.sex}" ` : ''}is not valid (male, female or unknown).`;
    case 'INVALID_DISCHARGE_STATUS':
      return `Discharge status ${ctx.dischargeStatus ?? ''} is not a valid UB-04 patient discharge status on the discharge date.`;
    default:
      if (edit.name.startsWith('LIMITED_COVERAGE'))
        return `${codes} ${one ? 'is' : 'are'} covered by Medicare only under specific conditions (${editTitle(edit.name).toLowerCase()}).`;
      return `${editTitle(edit.name)}${codes ? `: ${codes}` : ''}.`;
  }
}
