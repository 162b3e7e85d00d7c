import { describe, expect, it } from 'vitest';
import { redactText } from './index';

const CLINICAL = [
  '54M',
  '54 y/o',
  'aged 54',
  'umur 54 tahun',
  'day 3 post-op',
  'POD 2',
  'BP 120/80',
  'HR 88',
  'SpO2 98% RA',
  'GCS 15/15',
  'GCS E4V5M6',
  'T 37.8°C',
  'Foley catheter',
  "Parkinson's disease",
  'Glasgow Coma Scale',
  'Whipple procedure',
  "Cushing's syndrome",
  "Ryle's tube",
  'Killip class II',
  'ICD-10 I21.4',
  'PCS 02703DZ',
  'DRG 280',
  'MS-DRG 354',
  'Ward 5A bed 12',
  'Wad Orkid 5, Katil 12',
  '12/05/2024',
  '2024-01-20',
  '17 Apr 2022',
  'DOB 01/02/1970',
  '1850H',
  'HKL',
  'Hospital Kuala Lumpur',
  'Klinik Kesihatan Sri Gading',
  'Hospital Sultanah Aminah',
  'Hospital Raja Permaisuri Bainun',
  'T. Cardiprin 100mg OD',
  'IV vancomycin 1g BD',
  'tab metformin 500mg BD',
  'Hb 12.9 g/dL',
  'NT-proBNP 33293',
  'Na+ 138 mmol/L',
  '2 units PRBC',
  '3/7',
  'TCA 6/12',
  'G2P1',
  'RM 1,234.50',
  'Maybank',
  'Kuala Lumpur',
  'Kota Kinabalu',
];

describe('clinical content is never redacted', () => {
  it.each(CLINICAL)('%s', (s) => {
    const text = `Note: ${s} noted.`;
    const r = redactText(text);
    expect(r.entities).toEqual([]);
    expect(r.redacted_text).toBe(text);
  });
  it('survives inside a note with PHI around it', () => {
    const text =
      'Pt Ahmad bin Ali, 54M, IC 700101-14-5671, Ward 5A bed 12, BP 120/80, GCS 15/15.\n' +
      "Hx Parkinson's disease, Foley catheter in situ. ICD-10 G20, DRG 280. Seen at Hospital Kuala Lumpur (HKL) on 12/05/2024.";
    const r = redactText(text);
    expect(r.redacted_text).toBe(
      'Pt [PERSON_1], 54M, IC [MY_IC_1], Ward 5A bed 12, BP 120/80, GCS 15/15.\n' +
        "Hx Parkinson's disease, Foley catheter in situ. ICD-10 G20, DRG 280. Seen at Hospital Kuala Lumpur (HKL) on 12/05/2024.",
    );
  });
  it('keeps eponyms that are also surnames when they name a disease', () => {
    const r = redactText("Known Wilson's disease and Graves disease; Murphy's sign positive.");
    expect(r.entities).toEqual([]);
  });
});
