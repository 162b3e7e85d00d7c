/**
 * Encounter.hospitalization.dischargeDisposition → CMS (UB-04 / NUBC) patient discharge status.
 *
 * A NUBC coding (`https://www.nubc.org/CodeSystem/PatDischargeStatus`, two digits) is used as sent and wins over
 * everything else. Otherwise the HL7 discharge-disposition codes map as below. For grouping only three things
 * matter: expired (20), left against medical advice (07) and transfer to an acute-care hospital (02, 05, 66, 82,
 * 85, 94; neonate DRG 789); every other status groups like 01. The HL7 codes do not say whether "other-hcf" is an
 * acute hospital, so it maps to 70 and the response carries a warning: send a NUBC coding when that matters.
 */
export const NUBC_SYSTEM = 'https://www.nubc.org/CodeSystem/PatDischargeStatus';
export const HL7_DISCHARGE_SYSTEMS = ['http://terminology.hl7.org/CodeSystem/discharge-disposition', 'http://hl7.org/fhir/discharge-disposition'];

export interface DischargeMapping {
  status: number;
  meaning: string;
}

export const HL7_TO_CMS: Record<string, DischargeMapping> = {
  home: { status: 1, meaning: 'home or self care' },
  'alt-home': { status: 1, meaning: 'home or self care (home of a relative or friend)' },
  'other-hcf': { status: 70, meaning: 'another type of health care institution' },
  hosp: { status: 50, meaning: 'hospice, home' },
  long: { status: 63, meaning: 'long-term care hospital' },
  aadvice: { status: 7, meaning: 'left against medical advice' },
  exp: { status: 20, meaning: 'expired' },
  psy: { status: 65, meaning: 'psychiatric hospital or unit' },
  rehab: { status: 62, meaning: 'inpatient rehabilitation facility' },
  snf: { status: 3, meaning: 'skilled nursing facility' },
  oth: { status: 70, meaning: 'another type of health care institution' },
};

/** UB-04 discharge status codes the CMS grouper accepts. */
export const CMS_DISCHARGE_STATUSES = new Set([
  1, 2, 3, 4, 5, 6, 7, 20, 21, 30, 43, 50, 51, 61, 62, 63, 64, 65, 66, 69, 70, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95,
]);

/** Two-digit spelling, as NUBC writes it. */
export function dischargeCode(status: number): string {
  return String(status).padStart(2, '0');
}
