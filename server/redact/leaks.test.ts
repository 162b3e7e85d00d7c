/**
 * Regression tests for the leaks found when the engine was tried as a new user would (issue 11). Each finding is a
 * class, not one string: every case is run with several values and, where the finding names a shape, in its variants.
 * All values are synthetic.
 */
import { describe, expect, it } from 'vitest';
import { redactText } from './index';

/** Redacted text of `text`; fails if any of `secrets` (or its digits-only form) is still in it. */
function noLeak(text: string, secrets: string[]): string {
  const out = redactText(text).redacted_text;
  const digitsOut = out.replace(/[\s\-./()+]/g, '');
  for (const s of secrets) {
    expect(out, `${JSON.stringify(s)} leaked from ${JSON.stringify(text)}`).not.toContain(s);
    const d = s.replace(/\D/g, '');
    if (d.length >= 6) expect(digitsOut, `digits of ${s} leaked`).not.toContain(d);
  }
  return out;
}

const IC = ['900512-10-5531', '900512105531', '700315-08-5123', '851231-14-5672'];

describe('1. an IC followed by ".", "-", "/" and a digit', () => {
  for (const ic of IC) {
    it.each([
      `IC ${ic}. 54 year old man`,
      `IC ${ic}. 3 days ago`,
      `IC ${ic} - 54M`,
      `IC ${ic} / 2nd admission`,
      `${ic}. 54 year old`,
      `NRIC: ${ic}, 2 weeks`,
    ])(`%j keeps the age and hides the IC`, (text) => {
      const out = noLeak(text, [ic]);
      expect(out).toMatch(/\[MY_IC_1\]/);
      for (const keep of ['54 year old', '3 days', '54M', '2nd admission', '2 weeks']) if (text.includes(keep)) expect(out).toContain(keep);
    });
  }
  it('an IC and a phone joined by a slash are both redacted, with their own types', () => {
    const out = noLeak('900512-10-5531/013-2223344', ['900512-10-5531', '013-2223344']);
    expect(out).toBe('[MY_IC_1]/[PHONE_1]');
  });
});

describe('2. adjacent numbers', () => {
  it('two cards side by side, and one card in three groupings on one line', () => {
    expect(noLeak('cards 4111111111111111 5555 5555 5555 4444', ['4111111111111111', '5555 5555 5555 4444'])).toBe('cards [CARD_NUMBER_1] [CARD_NUMBER_2]');
    expect(noLeak('paid 4111111111111111, 4111 1111 1111 1111, 4111-1111-1111-1111', ['4111111111111111', '4111 1111 1111 1111'])).toBe('paid [CARD_NUMBER_1], [CARD_NUMBER_1], [CARD_NUMBER_1]');
  });
  it('two account numbers after one label', () => {
    expect(noLeak('CIMB a/c 701234567890 701234567891', ['701234567890', '701234567891'])).toBe('CIMB a/c [BANK_ACCOUNT_1] [BANK_ACCOUNT_2]');
    noLeak('Maybank acc 5621 2345 6789, 5621 2345 6790', ['5621 2345 6789', '5621 2345 6790']);
  });
});

describe('3. a valid 12-digit IC with no label and no dashes', () => {
  it.each([
    ['Patient: Zulkarnain Hamdan / 700315085123 / 00123456', ['Zulkarnain Hamdan', '700315085123', '00123456']],
    ['IC: 700315 - 08 - 5123', ['700315 - 08 - 5123']],
    ['7003 1508 5123 (IC)', ['7003 1508 5123']],
    ['Nama: Ravi a/l Muthu | 851231145672 | HKL 1234567', ['Ravi a/l Muthu', '851231145672', 'HKL 1234567']],
  ])('%j', (text, secrets) => {
    noLeak(text, secrets);
  });
});

describe('4. old-style IC numbers', () => {
  it.each([
    ['Mother (K 123456 - old IC) and IC 700315-08-5123', ['K 123456', '700315-08-5123']],
    ['K/P A1234567', ['A1234567']],
    ['IC lama: B 7654321; IC baru 851231-14-5672', ['B 7654321', '851231-14-5672']],
  ])('%j', (text, secrets) => {
    noLeak(text, secrets);
  });
});

describe('5. record numbers with a hospital-code prefix and no label', () => {
  it.each(['HSA.1234567', 'HTAR 7654321', 'HQE2 3344556', 'HKL/2023/045123', 'HPP/R/76852/21', 'HSdg.4023011'])('%j is redacted whole', (rn) => {
    const out = noLeak(`Ref ${rn} seen today`, [rn]);
    expect(out).toBe('Ref [MRN_1] seen today');
  });
  it('bare 10-11 digit numbers in a patient header line next to a name and an IC', () => {
    noLeak('Siti Aminah binti Kassim 700315085123 01234567891', ['Siti Aminah binti Kassim', '700315085123', '01234567891']);
    noLeak('TAN AH KOW  851231-14-5672  2015414051', ['TAN AH KOW', '851231-14-5672', '2015414051']);
  });
});

describe('6. names that are lower case, alone after a role, glued to a title, or family nicknames', () => {
  it.each([
    ['aminah family asking for update', 'aminah'],
    ['tell gurpreet I will call', 'gurpreet'],
    ['S/N Mei Ling checked the line', 'Mei Ling'],
    ['SN Kavitha gave meds', 'Kavitha'],
    ['seen by Dr.Lee today', 'Lee'],
    ['Along came with Angah and Achik', 'Angah'],
    ['Achik will sign the consent', 'Achik'],
  ])('%j', (text, name) => {
    noLeak(text, [name]);
  });
});

describe('7. passports, glued labels, internationalised e-mail, every card range', () => {
  it.each([
    ['passport no. is M123A4567', 'M123A4567'],
    ['passportno 912803456', '912803456'],
    ['email a@xn--80ak6aa92e.xn--p1ai now', 'a@xn--80ak6aa92e.xn--p1ai'],
    ['Visa 4000056655665556, MC 2223003122003222', '4000056655665556'],
    ['JCB 3530111333300000 Diners 36227206271667', '36227206271667'],
    ['UnionPay 6200000000000005, Discover 6011000990139424', '6200000000000005'],
    ['Amex 3782 822463 10005 and Mir 2200 0000 0000 0004', '2200 0000 0000 0004'],
  ])('%j', (text, secret) => {
    noLeak(text, [secret]);
  });
});
