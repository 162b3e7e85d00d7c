/** Template context for the held-out corpus: random choices, people and marked-up values. */
import {
  account,
  card,
  clin,
  email,
  foreignMobile,
  foreignPassport,
  formatIc,
  icDigits,
  landline,
  mobile,
  mrn,
  myPassport,
  phi,
  type IcFormat,
  type MobileFormat,
  type Rng,
  type Role,
} from './lib';
import type { People, Person } from './names';

export const K = clin;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const BULAN = ['Januari', 'Februari', 'Mac', 'April', 'Mei', 'Jun', 'Julai', 'Ogos', 'September', 'Oktober', 'November', 'Disember'];

export class G {
  constructor(
    readonly r: Rng,
    readonly people: People,
  ) {}

  pick<T>(xs: readonly T[]): T {
    return this.r.pick(xs);
  }
  int(a: number, b: number): number {
    return this.r.int(a, b);
  }
  chance(p: number): boolean {
    return this.r.chance(p);
  }

  person(t?: string, sex?: 'M' | 'F'): Person {
    return t ? this.people.of(t, sex) : this.people.any();
  }
  /** A PERSON span (the name only; titles go outside in the template). */
  P(p: Person, role: Role, text = p.full): string {
    return phi('PERSON', text, role, p.trad);
  }

  ic(p: Person, age: number, f: IcFormat = this.pick(['dash', 'dash', 'dash', 'plain', 'plain', 'space'] as const), role: Role = 'patient'): string {
    return phi('MY_IC', formatIc(icDigits(this.r, age, p.sex), f), role, p.trad);
  }
  icRaw(p: Person, age: number, f: IcFormat, role: Role = 'patient'): { marked: string; value: string } {
    const value = formatIc(icDigits(this.r, age, p.sex), f);
    return { marked: phi('MY_IC', value, role, p.trad), value };
  }
  oldIc(p: Person, role: Role = 'patient'): string {
    const v = this.pick(['A', 'K', 'B', 'H']) + (this.chance(0.3) ? ' ' : '') + this.r.digits(this.pick([6, 7]));
    return phi('MY_IC', v, role, p.trad);
  }
  hp(p: Person | null, role: Role = 'patient', f?: MobileFormat): string {
    return phi('PHONE', mobile(this.r, f), role, p?.trad ?? 'n/a');
  }
  hpValue(f?: MobileFormat): string {
    return mobile(this.r, f);
  }
  land(p: Person | null, role: Role = 'other', area?: string): string {
    return phi('PHONE', landline(this.r, area), role, p?.trad ?? 'n/a');
  }
  landExt(role: Role = 'other'): string {
    const ext = this.pick([
      ` ext. ${this.int(100, 4999)}`,
      ` ext ${this.int(100, 4999)}`,
      ` samb. ${this.int(100, 999)}`,
      ` x${this.int(100, 999)}`,
      ` Ext: ${this.int(1000, 8999)}`,
    ]);
    return phi('PHONE', landline(this.r, this.pick(['03', '04', '05', '07', '088', '082'])) + ext, role);
  }
  fphone(p: Person | null, country: Parameters<typeof foreignMobile>[1], role: Role = 'patient'): string {
    return phi('PHONE', foreignMobile(this.r, country), role, p?.trad ?? 'n/a');
  }
  mail(p: Person, role: Role, domain?: string): string {
    return phi('EMAIL', email(this.r, p.mailA, p.mailB, domain), role, p.trad);
  }
  mailRaw(local: string, domain: string, role: Role = 'other'): string {
    return phi('EMAIL', `${local}@${domain}`, role);
  }
  mrn(shape?: number, p?: Person): string {
    return phi('MRN', mrn(this.r, shape), 'patient', p?.trad ?? 'n/a');
  }
  card(p?: Person, kind?: 'visa' | 'mc' | 'amex', sep?: ' ' | '-' | ''): string {
    return phi('CARD_NUMBER', card(this.r, kind, sep), 'patient', p?.trad ?? 'n/a');
  }
  acct(p?: Person, len?: number, grouped?: boolean): string {
    return phi('BANK_ACCOUNT', account(this.r, len, grouped), 'patient', p?.trad ?? 'n/a');
  }
  passport(p: Person, country = 'MY'): string {
    return phi('PASSPORT', country === 'MY' ? myPassport(this.r) : foreignPassport(this.r, country), 'patient', p.trad);
  }

  /** A date in one of the usual written forms, marked as clinical DATE. */
  date(style = this.int(0, 6)): string {
    const d = this.int(1, 28);
    const m = this.int(1, 12);
    const y = this.int(2021, 2024);
    const pad = (x: number) => String(x).padStart(2, '0');
    let s: string;
    switch (style) {
      case 0:
        s = `${pad(d)}/${pad(m)}/${y}`;
        break;
      case 1:
        s = `${d}/${m}/${y % 100}`;
        break;
      case 2:
        s = `${d} ${MONTHS[m - 1]} ${y}`;
        break;
      case 3:
        s = `${y}-${pad(m)}-${pad(d)}`;
        break;
      case 4:
        s = `${pad(d)}.${pad(m)}.${y}`;
        break;
      case 5:
        s = `${d} ${BULAN[m - 1]} ${y}`;
        break;
      default:
        s = `${pad(d)}-${pad(m)}-${y}`;
    }
    return K('DATE', s);
  }
  time(): string {
    const h = this.int(0, 23);
    const mi = this.int(0, 59);
    const pad = (x: number) => String(x).padStart(2, '0');
    return K('TIME', this.pick([`${pad(h)}:${pad(mi)}`, `${pad(h)}${pad(mi)}H`, `${pad(h)}${pad(mi)}hrs`, `${(h % 12) + 1}.${pad(mi)}pm`]));
  }
  age(lo = 18, hi = 90): number {
    return this.int(lo, hi);
  }
  bp(): string {
    return K('VITAL', `BP ${this.int(90, 190)}/${this.int(50, 110)}`);
  }
}
