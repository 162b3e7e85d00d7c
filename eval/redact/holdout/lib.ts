/**
 * Helpers for the held-out PHI corpus (see README.md in this folder): a seeded RNG, an inline markup for gold spans,
 * and generators for synthetic identifiers (valid MyKad numbers, phone numbers checked by libphonenumber-js, Luhn-valid
 * cards, non-Luhn long bank accounts, record numbers, passports).
 *
 * Markup: PHI  \uE000TYPE|role|tradition\uE001text\uE002   clinical  \uE003KIND\uE001text\uE002
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  next(): number {
    // mulberry32
    let t = (this.s = (this.s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)];
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  digits(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += String(this.int(0, 9));
    return s;
  }
}

export type Role = 'patient' | 'relative' | 'doctor' | 'nurse' | 'other';

export const phi = (type: string, text: string, role: Role = 'patient', trad = 'n/a') => `\uE000${type}|${role}|${trad}\uE001${text}\uE002`;
export const clin = (kind: string, text: string) => `\uE003${kind}\uE001${text}\uE002`;

export interface GoldEntity {
  start: number;
  end: number;
  type: string;
  text: string;
}
export interface GoldClinical {
  start: number;
  end: number;
  kind: string;
  text: string;
}
export interface ParsedNote {
  text: string;
  entities: GoldEntity[];
  clinical_spans: GoldClinical[];
  info: Array<{ start: number; end: number; role: string; tradition: string }>;
}

/** Strip the markup; offsets are code points (Python string indices). */
export function parseMarkup(src: string): ParsedNote {
  let text = '';
  let cp = 0;
  const entities: GoldEntity[] = [];
  const clinical: GoldClinical[] = [];
  const info: ParsedNote['info'] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === '\uE000' || c === '\uE003') {
      const mid = src.indexOf('\uE001', i);
      const end = src.indexOf('\uE002', mid);
      if (mid < 0 || end < 0) throw new Error('unbalanced markup');
      const head = src.slice(i + 1, mid);
      const body = src.slice(mid + 1, end);
      if (/[\uE000-\uE003]/.test(body)) throw new Error(`nested markup in ${JSON.stringify(body)}`);
      const n = Array.from(body).length;
      if (c === '\uE000') {
        const [type, role, tradition] = head.split('|');
        entities.push({ start: cp, end: cp + n, type, text: body });
        info.push({ start: cp, end: cp + n, role, tradition });
      } else {
        clinical.push({ start: cp, end: cp + n, kind: head, text: body });
      }
      text += body;
      cp += n;
      i = end + 1;
      continue;
    }
    const code = src.codePointAt(i)!;
    const ch = String.fromCodePoint(code);
    text += ch;
    cp += 1;
    i += ch.length;
  }
  return { text, entities, clinical_spans: clinical, info };
}

// ---------------------------------------------------------------- identifiers

const PB_STATES = [
  '01',
  '02',
  '03',
  '04',
  '05',
  '06',
  '07',
  '08',
  '09',
  '10',
  '11',
  '12',
  '13',
  '14',
  '15',
  '16',
  '21',
  '22',
  '24',
  '25',
  '28',
  '30',
  '31',
  '35',
  '38',
  '41',
  '43',
  '47',
  '49',
  '53',
  '56',
  '58',
];

export function icDigits(r: Rng, age: number, sex: 'M' | 'F', refYear = 2024): string {
  const y = refYear - age - (r.chance(0.4) ? 1 : 0);
  const mm = r.int(1, 12);
  const dim = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mm - 1];
  const dd = r.int(1, dim);
  const pb = r.pick(PB_STATES);
  let last = r.int(0, 9);
  if ((last % 2 === 1) !== (sex === 'M')) last = (last + 1) % 10;
  return `${String(y % 100).padStart(2, '0')}${String(mm).padStart(2, '0')}${String(dd).padStart(2, '0')}${pb}${r.digits(3)}${last}`;
}

export type IcFormat = 'dash' | 'plain' | 'space' | 'emdash' | 'nbhyphen' | 'endash' | 'fullwidth' | 'newline';
export function formatIc(d: string, f: IcFormat): string {
  const a = d.slice(0, 6);
  const b = d.slice(6, 8);
  const c = d.slice(8);
  switch (f) {
    case 'dash':
      return `${a}-${b}-${c}`;
    case 'plain':
      return d;
    case 'space':
      return `${a} ${b} ${c}`;
    case 'emdash':
      return `${a}\u2014${b}\u2014${c}`;
    case 'endash':
      return `${a}\u2013${b}\u2013${c}`;
    case 'nbhyphen':
      return `${a}\u2011${b}\u2011${c}`;
    case 'fullwidth':
      return toFullWidth(`${a}-${b}-${c}`);
    case 'newline':
      return `${a}-${b}-\n${c}`;
  }
}

export function toFullWidth(s: string): string {
  return s.replace(/[0-9]/g, (d) => String.fromCharCode(0xff10 + Number(d))).replace(/-/g, '\uff0d');
}

function validPhone(raw: string, region: 'MY' | undefined = 'MY'): boolean {
  const p = parsePhoneNumberFromString(raw, region);
  return !!p && p.isValid();
}

export type MobileFormat = 'dash' | 'dash-space' | 'plain' | 'intl' | 'intl-space' | 'intl-noplus' | 'spaces';
/** A valid Malaysian mobile number in one of the common written forms. */
export function mobile(
  r: Rng,
  f: MobileFormat = r.pick(['dash', 'dash', 'dash-space', 'plain', 'intl', 'intl-space', 'intl-noplus', 'spaces'] as const),
): string {
  for (;;) {
    const pre = r.pick(['012', '013', '014', '016', '017', '018', '019', '011', '010']);
    const rest = r.digits(pre === '011' ? 8 : 7);
    if (!validPhone(pre + rest)) continue;
    const p2 = pre.slice(1);
    const a = rest.slice(0, rest.length - 4);
    const b = rest.slice(-4);
    switch (f) {
      case 'dash':
        return `${pre}-${rest}`;
      case 'dash-space':
        return `${pre}-${a} ${b}`;
      case 'plain':
        return pre + rest;
      case 'intl':
        return `+60${p2}-${a} ${b}`;
      case 'intl-space':
        return `+60 ${p2} ${a} ${b}`;
      case 'intl-noplus':
        return `60${p2}-${rest}`;
      case 'spaces':
        return `${pre} ${a} ${b}`;
    }
  }
}

/** A valid Malaysian landline (area code per state). */
export function landline(r: Rng, area?: string): string {
  for (;;) {
    const ac = area ?? r.pick(['03', '03', '04', '05', '06', '07', '09', '082', '084', '086', '088', '089']);
    const n = ac === '03' ? 8 : ac.length === 3 ? 6 : 7;
    const rest = r.digits(n);
    if (!/^[2-9]/.test(rest) || !validPhone(ac + rest)) continue;
    const a = rest.slice(0, n - 4);
    const b = rest.slice(-4);
    return r.chance(0.5) ? `${ac}-${a} ${b}` : r.chance(0.5) ? `${ac}-${rest}` : `(${ac}) ${a} ${b}`;
  }
}

/** A valid foreign mobile written with + and the country code. */
export function foreignMobile(r: Rng, country: 'SG' | 'ID' | 'NP' | 'BD' | 'PH' | 'GB' | 'AU' | 'IN' | 'MM' | 'VN' | 'TH' | 'PK'): string {
  for (;;) {
    let s = '';
    switch (country) {
      case 'SG':
        s = `+65 ${r.pick(['8', '9'])}${r.digits(3)} ${r.digits(4)}`;
        break;
      case 'ID':
        s = `+62 8${r.pick(['12', '13', '21', '52', '57', '78'])}-${r.digits(4)}-${r.digits(4)}`;
        break;
      case 'NP':
        s = `+977 98${r.int(0, 6)}${r.digits(7)}`;
        break;
      case 'BD':
        s = `+880 1${r.pick(['7', '8', '9', '5', '6'])}${r.digits(2)}-${r.digits(6)}`;
        break;
      case 'PH':
        s = `+63 9${r.pick(['17', '18', '28', '47', '99'])} ${r.digits(3)} ${r.digits(4)}`;
        break;
      case 'GB':
        s = `+44 7${r.pick(['700', '911', '824', '592'])} ${r.digits(6)}`;
        break;
      case 'AU':
        s = `+61 4${r.digits(2)} ${r.digits(3)} ${r.digits(3)}`;
        break;
      case 'IN':
        s = `+91 ${r.pick(['98', '97', '94', '88', '70'])}${r.digits(3)} ${r.digits(5)}`;
        break;
      case 'MM':
        s = `+95 9 ${r.pick(['25', '26', '42', '45', '79'])}${r.digits(1)} ${r.digits(3)} ${r.digits(3)}`;
        break;
      case 'VN':
        s = `+84 9${r.pick(['0', '1', '3', '8'])} ${r.digits(3)} ${r.digits(4)}`;
        break;
      case 'TH':
        s = `+66 8${r.int(1, 9)} ${r.digits(3)} ${r.digits(4)}`;
        break;
      case 'PK':
        s = `+92 3${r.pick(['00', '01', '21', '33', '45'])} ${r.digits(7)}`;
        break;
    }
    if (validPhone(s, undefined)) return s;
  }
}

export function luhnDigit(partial: string): number {
  for (let d = 0; d <= 9; d++) if (luhnOk(partial + d)) return d;
  return 0;
}
export function luhnOk(d: string): boolean {
  let sum = 0;
  let dbl = false;
  for (let i = d.length - 1; i >= 0; i--) {
    let x = +d[i];
    if (dbl) {
      x *= 2;
      if (x > 9) x -= 9;
    }
    sum += x;
    dbl = !dbl;
  }
  return sum % 10 === 0;
}

export function card(
  r: Rng,
  kind: 'visa' | 'mc' | 'amex' = r.pick(['visa', 'visa', 'mc', 'amex'] as const),
  sep: ' ' | '-' | '' = r.pick([' ', ' ', '-', ''] as const),
): string {
  if (kind === 'amex') {
    const p = r.pick(['34', '37']) + r.digits(12);
    const d = p + luhnDigit(p);
    return sep === '' ? d : `${d.slice(0, 4)}${sep}${d.slice(4, 10)}${sep}${d.slice(10)}`;
  }
  const p = kind === 'visa' ? '4' + r.digits(14) : '5' + r.int(1, 5) + r.digits(13);
  const d = p + luhnDigit(p);
  return sep === '' ? d : d.match(/.{4}/g)!.join(sep);
}

/** A bank account number; 13+ digit accounts are never Luhn-valid (so they cannot be mistaken for cards). */
export function account(r: Rng, len = r.pick([10, 12, 12, 14, 14, 16]), grouped = r.chance(0.4)): string {
  for (;;) {
    const d = String(r.int(1, 9)) + r.digits(len - 1);
    if (len >= 13 && luhnOk(d)) continue;
    if (!grouped) return d;
    if (len === 12) return `${d.slice(0, 4)} ${d.slice(4, 8)} ${d.slice(8)}`;
    if (len === 14) return `${d.slice(0, 5)}-${d.slice(5)}`;
    if (len === 16) return d.match(/.{4}/g)!.join('-');
    return `${d.slice(0, 3)}-${d.slice(3, 6)}-${d.slice(6)}`;
  }
}

export function myPassport(r: Rng): string {
  return r.pick(['A', 'A', 'H', 'K']) + r.digits(8);
}
export function foreignPassport(r: Rng, country: string): string {
  switch (country) {
    case 'NP':
      return r.pick(['PA', '']) + r.digits(7) + (r.chance(0.5) ? '' : '');
    case 'BD':
      return r.pick(['EB', 'BX', 'EE', 'A']) + r.digits(7);
    case 'MM':
      return r.pick(['MA', 'MD', 'ME', 'MG']) + r.digits(6);
    case 'ID':
      return r.pick(['B', 'C', 'X', 'E']) + r.digits(7);
    case 'PH':
      return 'P' + r.digits(7) + r.pick(['A', 'B', 'C']);
    case 'IN':
      return r.pick(['M', 'N', 'T', 'V', 'Z']) + r.digits(7);
    case 'VN':
      return 'C' + r.digits(7);
    case 'GB':
      return r.digits(9);
    case 'SG':
      return r.pick(['E', 'K']) + r.digits(7) + r.pick(['A', 'J', 'N', 'P']);
    default:
      return r.pick(['N', 'P']) + r.digits(8);
  }
}

/** Hospital registration numbers in a variety of local shapes. */
export function mrn(r: Rng, shape = r.int(0, 9)): string {
  switch (shape) {
    case 0:
      return r.digits(1).replace(/./, '0') + r.digits(6);
    case 1:
      return `${r.pick(['HSA', 'HTAR', 'HRPB', 'HQE', 'HUSM', 'HPP', 'HSB', 'HTJ', 'HSNZ', 'HBU'])}/${r.pick(['19', '20', '21', '22', '23', '2023', '2024'])}/${r.digits(6)}`;
    case 2:
      return `${r.pick(['KPJ', 'SJMC', 'GMC', 'PHKL', 'TMC', 'LWH', 'IHC'])}-${r.digits(7)}`;
    case 3:
      return `${r.pick(['M', 'R', 'P'])}${r.digits(8)}`;
    case 4:
      return `${r.digits(4)}/${r.digits(6)}`;
    case 5:
      return `${r.pick(['RN', 'MR', 'HN'])}${r.digits(7)}`;
    case 6:
      return `${r.int(10, 24)}-${r.digits(6)}`;
    case 7:
      return `00${r.digits(6)}`;
    case 8:
      return `${r.pick(['SDMC', 'UMMC', 'PPUKM', 'HUKM'])}/${r.digits(2)}/${r.digits(5)}`;
    default:
      return `${r.int(2018, 2024)}${r.digits(6)}`;
  }
}

export function email(r: Rng, first: string, last: string, domain?: string): string {
  const f = first.toLowerCase().replace(/[^a-z]/g, '');
  const l = last.toLowerCase().replace(/[^a-z]/g, '');
  const d =
    domain ??
    r.pick([
      'gmail.com',
      'yahoo.com.my',
      'hotmail.com',
      'moh.gov.my',
      'kpjhealth.com.my',
      'outlook.com',
      'sunway.com.my',
      'ummc.edu.my',
      'icloud.com',
      'protonmail.com',
    ]);
  const local = r.pick([`${f}.${l}`, `${f}${l}${r.int(1, 99)}`, `${f}_${l}`, `${f[0]}${l}`, `${l}.${f}`, `${f}${r.int(70, 99)}`]);
  return `${local}@${d}`;
}
