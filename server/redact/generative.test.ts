/**
 * Generative recall tests: thousands of valid values of every structured type, in every surface form, placed in many
 * contexts (followed by `.` `,` `-` `/` and a digit, a unit, the end of a line, inside tables, after English and Malay
 * labels, glued to punctuation, two side by side), and names of every community in name positions, in Title Case, ALL
 * CAPS and lower case. Each text also holds clinical content that must survive. Asserts 100% recall (no character of a
 * value is left in the redacted text) and that no clinical span is touched. Seeded: a failure names its seed and text.
 */
import { describe, expect, it } from 'vitest';
import { analyzeText, redactText } from './index';
import { F, getGazetteer, normWord } from './gazetteer';
import {
  accountDigits,
  ACCOUNT_FORMS,
  cardDigits,
  CARD_FORMS,
  email,
  IC_FORMS,
  mrn,
  myKadDigits,
  myPhoneDigits,
  oldIc,
  passport,
  personName,
  PHONE_FORMS,
  Rng,
} from '../../tests/fixtures/phi-values';

/** A template: `{v}` is the value, `{w}` a second value of the same type; `[[...]]` marks clinical text that must stay. */
const CONTEXTS = [
  '{L} {v}. [[54 year old]] man with fever [[3/7]].',
  '{L}: {v}, seen today at [[14:30]].',
  '{L} {v} - [[54M]]',
  '{L} {v} / 2nd admission',
  '({L} {v})',
  '{L} {v}\n[[BP 120/80]] [[HR 88]]',
  '| {L} | {v} | [[Hb 12.3]] |',
  '{L}\t{v}\t[[BP 130/85]]',
  '{L}:{v}',
  '{L} {v}; {w}',
  '{L} {v}. [[3 days]] ago, [[Hb 12.3 g/dL]] on [[15/03/2024]].',
  '{Lm} {v}. [[Umur 54 tahun]].',
  'Details as below: {L} {v}.',
  '[{L} {v}]',
  '"{L}": "{v}"',
  '{L}={v} status=OK',
  '{v}. [[54 year old]] lady',
  '{L} {v}, 2nd visit, [[paracetamol 1g]] QID',
  '{L} {v}/{w}',
  'Tel/IC/etc: {v}',
];

interface TypeCase {
  name: string;
  labels: string[];
  labelsMs: string[];
  value: (rng: Rng) => string;
}

const TYPES: TypeCase[] = [
  {
    name: 'MY_IC',
    labels: ['IC', 'NRIC', 'MyKad', 'I/C no.', 'IC No'],
    labelsMs: ['No. K/P', 'No. KP', 'Kad Pengenalan'],
    value: (r) => r.pick(IC_FORMS)(myKadDigits(r)),
  },
  { name: 'MY_IC (old)', labels: ['Old IC', 'IC (old)', 'K/P lama'], labelsMs: ['No. KP lama', 'IC lama'], value: oldIc },
  {
    name: 'PHONE',
    labels: ['Tel', 'H/P', 'Mobile', 'Contact', 'Phone no.'],
    labelsMs: ['No. Tel', 'Telefon bimbit', 'Hubungi'],
    value: (r) => r.pick(PHONE_FORMS)(myPhoneDigits(r)),
  },
  {
    name: 'CARD_NUMBER',
    labels: ['Card', 'Visa', 'Credit card no.', 'Paid by card'],
    labelsMs: ['No. kad kredit', 'Kad debit'],
    value: (r) => r.pick(CARD_FORMS)(cardDigits(r)),
  },
  {
    name: 'BANK_ACCOUNT',
    labels: ['a/c', 'Acc no.', 'Maybank account', 'CIMB a/c', 'Account'],
    labelsMs: ['No. akaun', 'Akaun bank'],
    value: (r) => r.pick(ACCOUNT_FORMS)(accountDigits(r)),
  },
  { name: 'PASSPORT', labels: ['Passport', 'Passport no.', 'PP no', 'passportno'], labelsMs: ['No. pasport', 'Pasport'], value: passport },
  { name: 'MRN', labels: ['MRN', 'RN', 'Hosp no.', 'Reg no', 'UR No'], labelsMs: ['No. Pendaftaran', 'No. Rekod'], value: mrn },
  {
    name: 'EMAIL',
    labels: ['Email', 'E-mail', 'From'],
    labelsMs: ['Emel'],
    value: (r) => {
      const n = personName(r);
      return email(r, n.given, n.full.split(' ').pop()!);
    },
  },
];

/** Build the text of a template: the values' spans and the clinical spans, in UTF-16 offsets. */
function build(template: string, fill: Record<string, string>): { text: string; values: Array<[number, number]>; clinical: Array<[number, number]> } {
  let text = '';
  const values: Array<[number, number]> = [];
  const clinical: Array<[number, number]> = [];
  const re = /\{(\w+)\}|\[\[(.*?)\]\]/g;
  let last = 0;
  for (const m of template.matchAll(re)) {
    text += template.slice(last, m.index);
    if (m[1]) {
      const v = fill[m[1]];
      if (m[1] === 'v' || m[1] === 'w') values.push([text.length, text.length + v.length]);
      text += v;
    } else {
      clinical.push([text.length, text.length + m[2].length]);
      text += m[2];
    }
    last = m.index + m[0].length;
  }
  text += template.slice(last);
  return { text, values, clinical };
}

function check(text: string, values: Array<[number, number]>, clinical: Array<[number, number]>): string | null {
  const { entities } = analyzeText(text, { timeBudgetMs: 10_000 });
  const covered = new Uint8Array(text.length);
  for (const e of entities) covered.fill(1, e.start, e.end);
  for (const [s, e] of values) {
    let miss = 0;
    for (let k = s; k < e; k++) if (!covered[k] && /[\p{L}\p{N}]/u.test(text[k])) miss++;
    if (miss) return `missed ${JSON.stringify(text.slice(s, e))}`;
  }
  for (const [s, e] of clinical) {
    for (let k = s; k < e; k++) if (covered[k]) return `clinical span touched ${JSON.stringify(text.slice(s, e))}`;
  }
  return null;
}

const PER_TYPE = 600;

describe('generative recall of structured identifiers', () => {
  for (const t of TYPES) {
    it(`${t.name}: ${PER_TYPE} values in ${CONTEXTS.length} contexts, 100% recall, clinical text kept`, () => {
      const rng = new Rng(0x5eed + t.name.length * 977);
      const failures: string[] = [];
      for (let i = 0; i < PER_TYPE; i++) {
        const template = CONTEXTS[i % CONTEXTS.length];
        const fill = { v: t.value(rng), w: t.value(rng), L: rng.pick(t.labels), Lm: rng.pick(t.labelsMs) };
        const { text, values, clinical } = build(template, fill);
        const err = check(text, values, clinical);
        if (err) failures.push(`${err} in ${JSON.stringify(text)}`);
      }
      expect(failures.slice(0, 12), `${failures.length} of ${PER_TYPE} failed`).toEqual([]);
    });
  }

  it('the same values with no label at all are still redacted (default deny), and the clinical text is kept', () => {
    const rng = new Rng(4242);
    const failures: string[] = [];
    const bare = ['Pt {v}. [[54 year old]] man.', '| {v} | [[Hb 12.3]] |', '{v}\n[[BP 120/80]]', 'ref {v}, [[3 days]] ago', '[{v}]', '{v}/{w}'];
    const gens = [
      (r: Rng) => r.pick(IC_FORMS.slice(0, 8))(myKadDigits(r)),
      (r: Rng) => r.pick(PHONE_FORMS)(myPhoneDigits(r)),
      (r: Rng) => r.pick(CARD_FORMS)(cardDigits(r)),
      (r: Rng) => r.pick(ACCOUNT_FORMS)(accountDigits(r)),
      passport,
      mrn,
    ];
    for (let i = 0; i < 1200; i++) {
      const g = gens[i % gens.length];
      const { text, values, clinical } = build(bare[i % bare.length], { v: g(rng), w: g(rng) });
      const err = check(text, values, clinical);
      if (err) failures.push(`${err} in ${JSON.stringify(text)}`);
    }
    expect(failures.slice(0, 12), `${failures.length} of 1200 failed`).toEqual([]);
  });
});

const NAME_CONTEXTS = [
  'Seen by Dr {n} today, [[BP 120/80]].',
  'Name: {n}\n[[Age 54]]',
  'Nama: {n}',
  '{n} ([[54F]]) admitted for fever.',
  'Wife {n} informed, contact later.',
  'Hi {n},\nPlease review the [[Hb 12.3]] result.',
  '[12/03/2024, 10:15] {n}: ok noted',
  '12/03/2024, 10:15 - {n}: will come',
  '{n}, [[06.02.23 07:43]]\nok',
  'Accompanied by {n} (son).',
  'Pt: {n}, [[54 y/o]], c/o fever',
  'Disediakan oleh: {n}',
  'Patient {n} was reviewed; plan [[paracetamol 1g]] QID.',
  'Referral for {n}, [[54M]], from Klinik Kesihatan Jinjang.',
  '| {n} | [[Hb 12.3]] | [[15/03/2024]] |',
  'I, {n}, consent to the procedure.',
  'Thanks,\n{n}',
  'NOK: {n} (husband)',
];

describe('generative recall of names in name positions', () => {
  const lex = getGazetteer();
  // a generated word that happens to be a dictionary word is an ordinary word, not a test of name recall
  const ordinary = (full: string) =>
    full.split(/\s+/).some((w) => lex.flags(normWord(w)) & (F.DICT | F.COMMON | F.CLINICAL | F.MEDICAL | F.PLACE | F.INSTITUTION));
  for (const casing of ['Title Case', 'ALL CAPS'] as const) {
    it(`${casing}: 900 names of seven communities in ${NAME_CONTEXTS.length} name positions`, () => {
      const rng = new Rng(casing === 'Title Case' ? 77 : 78);
      const failures: string[] = [];
      let n = 0;
      while (n < 900) {
        const name = personName(rng);
        if (ordinary(name.full)) continue;
        const v = casing === 'ALL CAPS' ? name.full.toUpperCase() : name.full;
        const { text, values, clinical } = build(NAME_CONTEXTS[n % NAME_CONTEXTS.length], { n: v });
        n++;
        values.length = 0;
        const at = text.indexOf(v);
        values.push([at, at + v.length]);
        const err = check(text, values, clinical);
        if (err) failures.push(`${name.community}: ${err} in ${JSON.stringify(text)}`);
      }
      expect(failures.slice(0, 12), `${failures.length} of 900 failed`).toEqual([]);
    });
  }

  it('lower case: given names in chat after person cues, and whole patronymic names', () => {
    const rng = new Rng(79);
    const lower = [
      'tell {n} i will call back',
      'family {n} called, asking for update',
      'pls update on {n} bed 12',
      'saya {n} nak tukar tarikh',
      'dr {n} on call tonight',
      'ok noted, saya {n} x dpt datang',
    ];
    const failures: string[] = [];
    let n = 0;
    while (n < 600) {
      const name = personName(rng);
      const v = (n % 2 ? name.full : name.given).toLowerCase();
      if (ordinary(v) || v.length < 4) continue;
      const { text } = build(lower[n % lower.length], { n: v });
      n++;
      const at = text.indexOf(v);
      const err = check(text, [[at, at + v.length]], []);
      if (err) failures.push(`${name.community}: ${err} in ${JSON.stringify(text)}`);
    }
    expect(failures.slice(0, 12), `${failures.length} of 600 failed`).toEqual([]);
  });

  it('a name written twice is one placeholder; the surface form of each mention is in the entity list', () => {
    const r = redactText('Seen by Dr Zarifah Hamdan. Dr Zarifah Hamdan will review.');
    expect(r.redacted_text).toBe('Seen by Dr [PERSON_1]. Dr [PERSON_1] will review.');
  });
});
