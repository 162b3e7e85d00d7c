import { describe, expect, it } from 'vitest';
import { analyzeText, redactText, type EntityType } from './index';

/** The [text, type] pairs the engine found. */
function found(text: string): Array<[string, EntityType]> {
  return analyzeText(text).entities.map((e) => [text.slice(e.start, e.end), e.type]);
}
function typesOf(text: string, value: string): EntityType[] {
  return found(text)
    .filter(([v]) => v === value)
    .map(([, t]) => t);
}

describe('MY_IC', () => {
  it.each([
    ['IC 841001-12-6723 noted', '841001-12-6723'],
    ['NRIC: 790617162002', '790617162002'],
    ['No. KP 551201 10 5508.', '551201 10 5508'],
    ['MyKid: 100706123293', '100706123293'],
    ['IC: 850101-14-\n5673 (broken line)', '850101-14-\n5673'],
    ['Old IC: A 694888', 'A 694888'],
    ['IC lama: K1234567', 'K1234567'],
  ])('finds %j', (text, value) => {
    expect(typesOf(text, value)).toEqual(['MY_IC']);
  });
  it('does not type invalid birth dates and place-of-birth codes as ICs; default deny still redacts them', () => {
    expect(found('ref 841341-12-6723')).toEqual([['841341-12-6723', 'MRN']]); // month 13
    expect(found('ref 840230-12-6723')).toEqual([['840230-12-6723', 'MRN']]); // 30 Feb
    expect(found('number 841001006723')).toEqual([['841001006723', 'MRN']]); // PB 00
    expect(found('number 841001706723')).toEqual([['841001706723', 'MRN']]); // PB 70 not allocated
  });
  it('still redacts the dashed IC shape with a valid date when the PB code is wrong (recall over validation)', () => {
    expect(typesOf('IC 841001-70-6723', '841001-70-6723')).toEqual(['MY_IC']);
  });
  it('does not type an old-IC pattern without IC context as an IC (default deny redacts it as MRN)', () => {
    expect(typesOf('Ward A 694888', 'A 694888')).toEqual(['MRN']);
  });
});

describe('PHONE', () => {
  it('stops before a date written after two spaces (the longest run took the day)', () => {
    expect(found('Tel: 09-557 2333  06/10/2024 09.15 pg').filter(([, t]) => t === 'PHONE')).toEqual([['09-557 2333', 'PHONE']]);
  });
  it.each([
    'Tel 012-345 6789',
    'call 0123456789 now',
    'HP: +6012-345 6789',
    'contact +60 3-2615 5555',
    'office (03) 2615 5555',
    'line 03-2615 5555 ext. 123',
    'line 03-2615 5555 samb. 221',
    'home 084-556 559',
    'foreign +61 431 935 989',
    '6019 4093850',
  ])('finds a phone in %j', (text) => {
    const f = found(text);
    expect(f.some(([, t]) => t === 'PHONE')).toBe(true);
  });
  it('keeps the extension inside the span', () => {
    expect(typesOf('Enquiries 03-6843 3082 ext. 628.', '03-6843 3082 ext. 628')).toEqual(['PHONE']);
  });
  it('normalises formats to one placeholder', () => {
    const r = redactText('Call 012-345 6789 or +60123456789 or 6012 3456789.');
    expect(r.redacted_text).toBe('Call [PHONE_1] or [PHONE_1] or [PHONE_1].');
  });
  it('does not take dates, vitals, or lab values', () => {
    expect(found('Seen 03-05-2024, BP 120/80, Plt 341, Na 138, on 2023-12-21 at 0610H')).toEqual([]);
  });
});

describe('EMAIL', () => {
  it('finds addresses', () => {
    expect(typesOf('mail siti.aminah_88@moh.gov.my today', 'siti.aminah_88@moh.gov.my')).toEqual(['EMAIL']);
  });
  it('does not take an @ in prose', () => {
    expect(found('Ahmad @ Mat was seen @ 10am')).not.toContainEqual(expect.arrayContaining(['EMAIL']));
  });
});

describe('CARD_NUMBER', () => {
  it.each(['4137 0833 0305 3213', '2720-3414-9248-2537', '4235718603106184', '3782 822463 10005'])('finds Luhn-valid %s', (v) => {
    expect(typesOf(`Paid with card ${v}.`, v)).toEqual(['CARD_NUMBER']);
  });
  it('does not validate a Luhn-invalid number as a card; default deny still redacts it, typed by its label', () => {
    const e = analyzeText('Paid with card 4137 0833 0305 3214.').entities;
    expect(e.map((x) => [x.recognizer, x.type])).toEqual([['unexplained_id', 'CARD_NUMBER']]);
  });
});

describe('BANK_ACCOUNT', () => {
  it.each([
    ['Refund to Maybank acc no. 1949989078', '1949989078'],
    ['No. akaun: 8445-81625282', '8445-81625282'],
    ['credited to CIMB account 2689 0512 0661 15', '2689 0512 0661 15'],
    ['a/c no: 306815486623', '306815486623'],
  ])('finds %j', (text, v) => {
    expect(typesOf(text, v)).toEqual(['BANK_ACCOUNT']);
  });
  it('needs account context to type an account (default deny redacts the number as MRN)', () => {
    expect(typesOf('Reference 1949989078', '1949989078')).toEqual(['MRN']);
  });
  it('takes a column headed as an account (No. akaun)', () => {
    const text = 'Bil | Nama | No. akaun | Amaun\n1 | Rosnah bt Ali | 3 55102 88 204417 | RM 80.00';
    expect(typesOf(text, '3 55102 88 204417')).toEqual(['BANK_ACCOUNT']);
  });
});

describe('PASSPORT', () => {
  it.each([
    ['Passport A90482421', 'A90482421'],
    ['Passport no.: EB1206153', 'EB1206153'],
    ['Passport: 63356136', '63356136'],
    ['passport E2145128N', 'E2145128N'],
  ])('finds %j', (text, v) => {
    expect(typesOf(text, v)).toEqual(['PASSPORT']);
  });
  it('needs context to type foreign formats as passports (default deny redacts them as MRN)', () => {
    expect(typesOf('Ref 63356136 used', '63356136')).toEqual(['MRN']);
    expect(found('Batch 63356136 used')).toEqual([]); // a medicine's batch number is product data
  });
  it('takes foreign formats in a column headed Passport, past the separator row', () => {
    const text = 'No | Name | Country | Passport | Age\n---|---|---|---|---\n4 | RAMON SANTOS | Philippines | P7719204C | 33';
    expect(typesOf(text, 'P7719204C')).toEqual(['PASSPORT']);
    expect(typesOf('No | Item | Batch\n1 | Syringe | P7719204C', 'P7719204C')).toEqual(['MRN']);
  });
});

describe('MRN', () => {
  it.each([
    ['RN: 0374079', '0374079'],
    ['MRN HDOK/2023/307946', 'HDOK/2023/307946'],
    ['No. Pendaftaran: 20144172539', '20144172539'],
    ['Reg. No. 15-441952', '15-441952'],
    ['Referral - Aina (HDOK/2010/615098)', 'HDOK/2010/615098'],
    ['Hosp. no. KK-414130', 'KK-414130'],
  ])('finds %j', (text, v) => {
    expect(typesOf(text, v)).toEqual(['MRN']);
  });
  it.each([
    ['MRN: HTJS/OT/23/00871   Age: 44', 'HTJS/OT/23/00871'],
    ['No. Rekod Hospital : HKB 072 5518', 'HKB 072 5518'],
    ['rn HPSF 2301 7719\nreviewed', 'HPSF 2301 7719'],
    ['ED reg ED23-004512   Contact: wife', 'ED23-004512'],
    ['Reg no ABC-0931', 'ABC-0931'],
    ['RN (baby): HTAA/NB/23/01127', 'HTAA/NB/23/01127'],
    ['No. Daftar KK : KKB/ANC/2023/0412', 'KKB/ANC/2023/0412'],
    ['RN 2209 1177 Wad 5', '2209 1177'],
    ['| No. RN | M/81/00771 |', 'M/81/00771'],
  ])('finds a labelled record number of any local shape in %j', (text, v) => {
    expect(typesOf(text, v)).toEqual(['MRN']);
  });
  it('reads a table column whose header names an identifier, past the separator row', () => {
    const text = '| Bed | Name | RN | Age |\n|-----|------|----|-----|\n| 3 | Rosli bin Taib | SGH2-330417 | 61 |';
    expect(typesOf(text, 'SGH2-330417')).toEqual(['MRN']);
    const tsv = 'REG_NO\tREG_DATE\tCLINIC\nRX2301120004\t2023-01-12\tKLINIK PAKAR';
    expect(typesOf(tsv, 'RX2301120004')).toEqual(['MRN']);
    expect(found(tsv).some(([v]) => v.includes('2023-01-12'))).toBe(false);
  });
  it('does not take lab values or codes', () => {
    expect(found('NT-proBNP 33293, hsTnI 5939, ICD-10 I21.4, DRG 280')).toEqual([]);
  });
  it('does not read a year, a nurse or an unlabelled reference as a record number', () => {
    expect(found('Nama dalam rekod 1978 ditulis lain')).toEqual([]);
    expect(typesOf('RN Siti called 012-345 6789', '012-345 6789')).toEqual(['PHONE']);
    // an unlabelled claim reference is not typed as a record number by its shape; default deny still redacts it
    expect(found('Claim HC-OP-230105-1187 rejected')).toEqual([['HC-OP-230105-1187', 'MRN']]);
  });
});

describe('PERSON', () => {
  it.each([
    ['Patient: Nurul Aina binti Faris, aged 43', 'Nurul Aina binti Faris'],
    ['Seen by Dr. Aiman b. Shukri today', 'Aiman b. Shukri'],
    ['Name: Kamala a/p Velu', 'Kamala a/p Velu'],
    ['Pt Peter anak Entalai, 77M', 'Peter anak Entalai'],
    ['Escort: Sendi ak Ranggi', 'Sendi ak Ranggi'],
    ['Seen by Dr Tan Moi Hwee, Psychiatry MO', 'Tan Moi Hwee'],
    ['Consultant: Dr. Thomas L. Evans', 'Thomas L. Evans'],
    ['Client: Mr Ronny Gumpil, 36 years old', 'Ronny Gumpil'],
    ['Interpreter: Mohammad Rafiqul Hoque', 'Mohammad Rafiqul Hoque'],
    ['Emergency contact: Lineh Sondoh (wife) 014-6500253', 'Lineh Sondoh'],
    ['Father: Jason Ng Hao Kit, tel 01169670812', 'Jason Ng Hao Kit'],
    ['Family informed: Shalini a/p Jaswant Singh (daughter)', 'Shalini a/p Jaswant Singh'],
    ['Attending: RAJA ZAKARIA BIN RAJA FIRDAUS', 'RAJA ZAKARIA BIN RAJA FIRDAUS'],
    ['Tuan Haji Rosdi bin Haji Jusoh attended', 'Rosdi bin Haji Jusoh'],
  ])('finds the name in %j (titles outside, connectors inside)', (text, name) => {
    expect(typesOf(text, name)).toEqual(['PERSON']);
  });
  it('reads ordinary English and Malay words as words, not names (Walked, Payee, Isnin)', () => {
    const persons = (t: string) =>
      found(t)
        .filter(([, ty]) => ty === 'PERSON')
        .map(([v]) => v);
    expect(persons('S: Passed flatus. Tolerating soft diet. Walked 50 m with physio (Jasmine Khor).')).toEqual(['Jasmine Khor']);
    expect(persons('Payee name : Tan Mei Ling\nPayee NRIC : 820101-10-1234')).toEqual(['Tan Mei Ling']);
    expect(persons('Tarikh: Isnin, 22 Januari 2024. Lawatan oleh Puan Rokiah Salleh')).toEqual(['Rokiah Salleh']);
    // a name that is also an English word still reads as a name after a cue
    expect(persons('wife Melody bringing insulin from home')).toEqual(['Melody']);
  });
  it('takes the cells of a column headed Name, ALL CAPS included', () => {
    const text = 'No | Name | Country | Result\n1 | THIHA ZAW LIN | Myanmar | FIT\n2 | RIZWAN ALI KHAN | Pakistan | UNFIT';
    const names = found(text)
      .filter(([, t]) => t === 'PERSON')
      .map(([v]) => v);
    expect(names).toEqual(['THIHA ZAW LIN', 'RIZWAN ALI KHAN']);
    expect(found('No | Drug name | Dose\n1 | Augmentin | 625 mg').filter(([, t]) => t === 'PERSON')).toEqual([]);
  });
  it('finds repeated first-name-only and surname-only mentions', () => {
    const text = 'Name: Kelvin Seah Chee Beng\nKelvin is a 75-yr-old man. Seah family informed.';
    const names = found(text)
      .filter(([, t]) => t === 'PERSON')
      .map(([v]) => v);
    expect(names).toEqual(['Kelvin Seah Chee Beng', 'Kelvin', 'Seah']);
  });
  it('finds lower-case names in quick notes', () => {
    const text = '20/08/2023 21:49 review: inggai (41F) still febrile. spoke to son robert (017-3440481). dr. yusof';
    const names = found(text)
      .filter(([, t]) => t === 'PERSON')
      .map(([v]) => v);
    expect(names).toEqual(['inggai', 'robert', 'yusof']);
  });
  it('finds WhatsApp senders and signatures', () => {
    const text = '[12/03/2024, 08:15] Kak Yati: bed 12 BP 150/90 \u{1F61F}\n\nThanks,\nMark';
    const names = found(text)
      .filter(([, t]) => t === 'PERSON')
      .map(([v]) => v);
    expect(names).toEqual(['Yati', 'Mark']);
  });
  it('does not take departments after a title, or places after a connector-like word', () => {
    expect(found('Refer Dr Ortho. D/w Dr. Surgery and MO Paeds. Reviewed by Dr On Call. Ahmad di Kuala Lumpur.')).toEqual([['Ahmad', 'PERSON']]);
  });
  it('keeps hospitals and places in notes typed in lower case', () => {
    const text = 'follow up at klinik kesihatan sri gading and hospital raja permaisuri bainun. lives in shah alam. son aiman informed.';
    expect(found(text)).toEqual([['aiman', 'PERSON']]);
  });
  it('does not take role words, headings or clinical capitalised words', () => {
    const text =
      'DISCHARGE SUMMARY\nImpression: Acute Exacerbation of Bronchial Asthma. Plan: Continue IV Tazocin.\n' +
      'Known HTN, DLP. Refer Dietitian. MO on call informed. the SN on duty reviewed.';
    expect(found(text)).toEqual([]);
  });
});

describe('hard phenomena', () => {
  const persons = (text: string) =>
    found(text)
      .filter(([, t]) => t === 'PERSON')
      .map(([v]) => v);
  it('ALL CAPS notes', () => {
    expect(persons('PATIENT: TAN AH KOW (72M)\nNOK: LIM SIEW PENG (DAUGHTER)\nDISCHARGED WELL WITH SON FIKRI BIN TAN.')).toEqual([
      'TAN AH KOW',
      'LIM SIEW PENG',
      'FIKRI BIN TAN',
    ]);
  });
  it('a note typed entirely in lower case', () => {
    const text = 'hi mazlan,\nsharing a case: nurul aina binti faris, aged 43. visitors: son aiman and sister salmah.\nthanks,\nmark';
    expect(persons(text)).toEqual(['mazlan', 'nurul aina binti faris', 'aiman', 'salmah', 'mark']);
  });
  it('hereditary prefix alone, with a relation after it', () => {
    expect(persons('Family members: Ali/Abu (sons), Siti (daughter).')).toEqual(['Ali', 'Abu', 'Siti']);
  });
  it('capitalised connectors and the title Sdr.', () => {
    expect(persons('Siti Bt Ali and Ahmad Bin Abu. Sdr. Kamal agreed.')).toEqual(['Siti Bt Ali', 'Ahmad Bin Abu', 'Kamal']);
  });
  it('chat lines: a sender phone number is PHONE, a sender name is PERSON', () => {
    const f = found('[12/03/2024, 08:20] +60 12-778 3301: pls call Encik Zulhelmi\n[12/03/2024, 08:31] Jeevitha Raman: done');
    expect(f).toEqual([
      ['+60 12-778 3301', 'PHONE'],
      ['Zulhelmi', 'PERSON'],
      ['Jeevitha Raman', 'PERSON'],
    ]);
  });
  it('names next to punctuation, in tables and signatures', () => {
    const text = 'Name | IC | Phone\nTan Ah Kow | 700101-14-5671 | 012-345 6789\n\nBest regards,\nNurul Huda\nPegawai Farmasi';
    expect(persons(text)).toEqual(['Tan Ah Kow', 'Nurul Huda']);
  });
  it('an IC with unusual grouping after an IC label', () => {
    expect(typesOf('NRIC: 8501 0114 5673', '8501 0114 5673')).toEqual(['MY_IC']);
  });
});
