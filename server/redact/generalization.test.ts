/**
 * Probes outside the dev-corpus templates (reviewer findings): phone notations, titles before eponym surnames, MRN
 * shapes next to lab values, look-alike characters in ICs, names in forms and tables. Positive and negative cases.
 * All values are synthetic and written for this test.
 */
import { describe, expect, it } from 'vitest';
import { analyzeText, redactText, type EntityType } from './index';
import { F, getGazetteer } from './gazetteer';

function found(text: string): Array<[string, EntityType]> {
  return analyzeText(text).entities.map((e) => [text.slice(e.start, e.end), e.type]);
}
const ofType = (text: string, type: EntityType) =>
  found(text)
    .filter(([, t]) => t === type)
    .map(([v]) => v);

describe('phone notations', () => {
  it.each([
    ['Contact 012-3456789/013-4567890 (either)', ['012-3456789', '013-4567890']],
    ['HP 0123456789/0134567890', ['0123456789', '0134567890']],
    ['tel 017-8899001/ 03-2615 5555', ['017-8899001', '03-2615 5555']],
    ['Tel.012-3456789', ['012-3456789']],
    ['Tel:-012-3456789', ['012-3456789']],
    ['tel/012-3456789', ['012-3456789']],
    ['hp0123456789', ['0123456789']],
    ['H/P:019-2233445', ['019-2233445']],
    ['Mobile.+6012-998 7766', ['+6012-998 7766']],
    ['Pn Rohimah (03-5580 1145 x929)', ['03-5580 1145 x929']],
    ['1021\tAHMAD BIN ALI\t820701-22-8680\t019-278 0228', ['019-278 0228']],
  ])('%j', (text, phones) => {
    expect(ofType(text, 'PHONE')).toEqual(phones);
  });
  it('does not start a phone inside a code, a record number or a decimal', () => {
    expect(ofType('MRN KKM/2023/0123456789', 'PHONE')).toEqual([]);
    expect(ofType('ref A0123456789 noted', 'PHONE')).toEqual([]);
    expect(ofType('code abc0123456789', 'PHONE')).toEqual([]);
    expect(ofType('lot 1.0123456789', 'PHONE')).toEqual([]);
    expect(ofType('seen 12/03/2024 and 2024-03-12, BP 120/80', 'PHONE')).toEqual([]);
  });
  it('a slash after a number that is not a phone does not make the next number a pair', () => {
    expect(ofType('Ratio 2023/0123456', 'PHONE')).toEqual([]);
  });
  it('normalises both numbers of a pair', () => {
    const r = redactText('HP 012-3456789/013-4567890, again 0123456789');
    expect(r.redacted_text).toBe('HP [PHONE_1]/[PHONE_2], again [PHONE_1]');
  });
});

describe('titles before surnames that are also eponyms', () => {
  it.each([
    ['Reviewed by Dr Graves today.', 'Graves'],
    ['Dr. Addison saw the patient.', 'Addison'],
    ['Dr Parkinson, Neurology', 'Parkinson'],
    ['Dr. Paget (consultant surgeon) inserted a central line.', 'Paget'],
    ['Seen by Dr Still this morning.', 'Still'],
    ['Dr. Foley inserted the catheter.', 'Foley'],
    ['Dr Cushing reviewed the MRI.', 'Cushing'],
    ['Surgeon: Mr Horner', 'Horner'],
    ['Handed over to Sister Bunga at 7am.', 'Bunga'],
  ])('%j', (text, name) => {
    expect(ofType(text, 'PERSON')).toEqual([name]);
  });
  it.each([
    "Known Parkinson's disease, on Madopar.",
    'Foley catheter in situ, Glasgow Coma Scale 15.',
    "Graves disease on carbimazole; Cushing's syndrome excluded.",
    "Addison's disease, Paget's disease of bone.",
    'Still febrile. Refer Dr Ortho. Reviewed by Dr On Call. Dr Bertugas informed.',
    'Hx of Evans syndrome and Leigh syndrome.',
  ])('keeps %j', (text) => {
    expect(ofType(text, 'PERSON')).toEqual([]);
  });
  it('a titled surname found elsewhere does not turn the eponym phrase into a name', () => {
    const text = 'Dr Foley reviewed. Foley catheter removed on day 3.';
    expect(ofType(text, 'PERSON')).toEqual(['Foley']);
  });
});

describe('record numbers versus lab values', () => {
  it.each(['Plt (450000) noted', 'Hb | 12.3 | Plt | 250000 |', 'Cultures (1234567) pending', '| Test | Result |\n| Plt | 412000 |\n| Na | 135-145 |'])(
    'no MRN in %j',
    (text) => {
      expect(ofType(text, 'MRN')).toEqual([]);
    },
  );
  it.each([
    ['RESIT / RECEIPT No. OR12345678', 'OR12345678'],
    ['Policy no. P0012345678', 'P0012345678'],
  ])('default deny: an unexplained reference number is redacted (as MRN) in %j', (text, v) => {
    expect(found(text)).toEqual([[v, 'MRN']]);
  });
  it.each([
    ['Referral - Mahsuri Kamal (2015414051)', '2015414051'],
    ['Tan Ah Kow | 700101-14-5671 | 20154140510', '20154140510'],
    ['No | Name | IC | RN\n1 | Ali bin Abu | 830225-01-9847 | HN0826343', 'HN0826343'],
    ['RN (baby): MR6945016', 'MR6945016'],
    ['MRN: KPJ-0023456', 'KPJ-0023456'],
    ['Hosp no ABC/19/004512', 'ABC/19/004512'],
  ])('MRN in %j', (text, v) => {
    expect(ofType(text, 'MRN')).toEqual([v]);
  });
});

describe('look-alike characters and glued labels (offsets stay on the original text)', () => {
  it.each([
    ['IC: 880717\u201124\u20116017 updated', '880717\u201124\u20116017'],
    ['IC 021105\u201415\u20144214', '021105\u201415\u20144214'],
    [
      'NRIC \uff18\uff13\uff10\uff12\uff11\uff18\uff0d\uff14\uff17\uff0d\uff14\uff18\uff14\uff17 (scan)',
      '\uff18\uff13\uff10\uff12\uff11\uff18\uff0d\uff14\uff17\uff0d\uff14\uff18\uff14\uff17',
    ],
    ['ic880101145678 hp', '880101145678'],
    ['NRIC:-880101-14-5678', '880101-14-5678'],
    ['K/P.880101145678', '880101145678'],
    ['IC 880101\u200b-14-5678', '880101\u200b-14-5678'],
  ])('%j', (text, ic) => {
    expect(ofType(text, 'MY_IC')).toEqual([ic]);
  });
  it('maps spans back across emoji and dropped characters', () => {
    const text = '👍 Pt Ahmad bin Ali\u200b, IC \uff18\uff18\uff10\uff11\uff10\uff11\uff11\uff14\uff15\uff16\uff17\uff18, tel 012\u20133456789 🙏';
    const r = redactText(text);
    expect(r.redacted_text).toBe('👍 Pt [PERSON_1]\u200b, IC [MY_IC_1], tel [PHONE_1] 🙏');
    for (const e of r.entities) expect(r.mapping[e.placeholder]).toBe(text.slice(e.start, e.end));
  });
  it('does not take an IC glued to a word that is not an IC label', () => {
    expect(ofType('batch X880101145678', 'MY_IC')).toEqual([]);
    expect(ofType('code AB-880101145678', 'MY_IC')).toEqual([]);
  });
});

describe('names in forms, tables and letters', () => {
  it.each([
    ['Rx for: Tiong Sieng Huat       Age: 49', 'Tiong Sieng Huat'],
    ['I am Kurniati Lestiani from Medan.', 'Kurniati Lestiani'],
    ['Reconciled by pharmacist Ambrosius Lojinggil.', 'Ambrosius Lojinggil'],
    ['Witness: Bunga anak Ujat (daughter)', 'Bunga anak Ujat'],
    ['Patient: Harnoor Kaur, 34F', 'Harnoor Kaur'],
    ['1007\tKUAN ERN XIANG\t501224-10-1548\t01148133853', 'KUAN ERN XIANG'],
    ['S: Norliyana c/o productive cough x 2/52', 'Norliyana'],
    ['Wong Jian Hong / 48y / RN P12351392', 'Wong Jian Hong'],
    ['Paramedic:\nMA Thanabalasingam', 'Thanabalasingam'],
  ])('%j', (text, name) => {
    expect(ofType(text, 'PERSON')).toEqual([name]);
  });
  it.each([
    'Diagnosis: Major depressive disorder, single episode.',
    'Diagnosis: Foster father, perpetrator of maltreatment and neglect.',
    'Maternal care for damage to fetus from viral disease in mother, fetus 2.',
    'Pegawai Penyiasat: Insp. bertugas',
  ])('no name in %j', (text) => {
    expect(ofType(text, 'PERSON')).toEqual([]);
  });
});

describe('gazetteers', () => {
  const lex = getGazetteer();
  const isName = (w: string) => (lex.flags(w) & (F.GIVEN | F.SURNAME | F.CN_SURNAME | F.CN_SYLLABLE)) !== 0;
  it('dev-only spellings are gone', () => {
    for (const w of [
      'majinbon',
      'malunjum',
      'jestine',
      'gumpil',
      'sondoh',
      'lineh',
      'jaineh',
      'ginsos',
      'lakui',
      'sikuan',
      'sintoh',
      'entalai',
      'linggang',
      'ngalai',
      'nyanggau',
      'ranggi',
      'sigat',
    ]) {
      expect(isName(w), w).toBe(false);
    }
    for (const w of ['majimbun', 'malanjum', 'kitingan']) expect(isName(w), w).toBe(true);
  });
  it('common names of every community are there', () => {
    for (const w of [
      'surinder',
      'shirin',
      'purnama',
      'mani',
      'nurfatin',
      'thamarai',
      'gurpreet',
      'jugah',
      'slamet',
      'nguyen',
      'kyaw',
      'bahadur',
      'siregar',
      'dela',
      'mcgregor',
    ]) {
      expect(isName(w), w).toBe(true);
    }
    expect(lex.nameCount).toBeGreaterThan(7500); // entries in the name files
  });
});
