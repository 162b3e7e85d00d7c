/**
 * The Medicare Code Editor's tables (`$CODING_DATA_DIR/mce/`, see its README.md): code masters with dated flag rows,
 * age ranges, discharge statuses, the flag vocabulary, the edit list and the data version.
 *
 * The masters are compiled once into arrays – per code its consecutive rows, each with a date range and its flags as
 * a bit set – and found through the grouper's packed code index (`drg/codeindex.ts`: no string Map, no allocation per
 * lookup). The compiled form is cached in `cacheDir()/mce/` (keyed by the source files' sizes and times), so a
 * process that edits claims loads it in milliseconds instead of parsing 200,000 rows.
 *
 * The MCE's own conventions, kept here: dates are integers YYYYMMDD; a row applies on D when start <= D <= end; an
 * empty end date means the data's termination date; the rows of one code never overlap.
 */
import fs from 'node:fs';
import path from 'node:path';
import { cacheDir, dataDir } from '../config/paths';
import { hashOf, packSpelled, packStrict } from '../drg/codeindex';
import { readCache, sourceKeyOf, writeCache } from './cache';

export type EditType = 'PREPAYMENT' | 'POSTPAYMENT' | 'NONE';
export type CodeType = 'DIAGNOSIS' | 'PROCEDURE' | 'BOTH' | 'NONE';

export interface EditSpec {
  name: string;
  ordinal: number;
  codeType: CodeType;
  editType: EditType;
  /** ICD versions whose edit counter holds the edit: I10, I9 or ALL. */
  counter: 'I10' | 'I9' | 'ALL';
}

export interface FlagSpec {
  flag: string;
  attribute: string;
  codeType: CodeType;
}

/**
 * One code master (ICD-10-CM dx, ICD-10-PCS, ICD-9-CM dx or ICD-9 procedures), laid out for one memory access per
 * code: claims touch codes all over 80,000 rows, and each cache miss costs more than the rest of an edit.
 *
 * An open-addressing hash table of 4 integers per slot: the packed code (2 integers, see drg/codeindex.ts), then for
 * a code with a single row its date range (days since 1980-01-01, start << 16 | end) and its flag set, or for a code
 * with several rows -(first overflow row + 1) and the row count. Overflow rows are (start day, end day, flag set). A
 * flag set is an index into `flagSets` (W words each; bit id = the flag's position in flags.tsv): the masters hold a
 * few hundred distinct combinations, which stay in cache.
 */
export interface CodeMaster {
  readonly table: Int32Array;
  readonly mask: number;
  readonly overflow: Int32Array;
  readonly flagSets: Int32Array;
  readonly words: number;
}

const SLOT = 4;
const EMPTY = -1;
/** Days are counted from 1980-01-01 (the earliest start date is 1980-10-01; 16 bits reach 2159). */
const EPOCH = Date.UTC(1980, 0, 1);

/** YYYYMMDD → days since 1980-01-01. */
export function dayOf(yyyymmdd: number): number {
  const y = Math.floor(yyyymmdd / 10000);
  const m = Math.floor(yyyymmdd / 100) % 100;
  const d = yyyymmdd % 100;
  return Math.round((Date.UTC(y, m - 1, d) - EPOCH) / 86_400_000);
}

export interface DatedRange {
  start: number;
  end: number;
}

export interface MceTables {
  /** Data version, e.g. "431". */
  version: string;
  /** Last discharge date the data covers (YYYYMMDD). */
  terminationDate: number;
  /** First discharge date the MCE accepts (YYYYMMDD). */
  firstValidDate: number;
  edits: EditSpec[];
  flags: FlagSpec[];
  /** Flag name → bit id (position in flags.tsv). */
  flagId: Map<string, number>;
  dx10: CodeMaster;
  pr10: CodeMaster;
  /** ICD-9 masters: read on first use (only ICD-9 claims need them). */
  icd9(): { dx: CodeMaster; pr: CodeMaster };
  /** Age group (newborn, pediatric, maternity, adult) → its dated age ranges. */
  ageRanges: Map<string, Array<DatedRange & { minAge: number; maxAge: number }>>;
  /** Discharge status → the date ranges in which it is valid. */
  dischargeStatus: Map<number, DatedRange[]>;
}

export const MCE_FILES = [
  'dx_master.tsv',
  'pr_master.tsv',
  'icd9_dx_master.tsv',
  'icd9_pr_master.tsv',
  'age_ranges.tsv',
  'discharge_status.tsv',
  'flags.tsv',
  'edits.tsv',
  'meta.tsv',
];

/** Bump when the compiled layout changes. */
const LAYOUT = 4;

export function mceDir(): string {
  return path.join(dataDir(), 'mce');
}

/** Rows of a small TSV file as objects keyed by its header. */
function readTsv(file: string): Array<Record<string, string>> {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const head = (lines[0] ?? '').replace(/\r$/, '').split('\t');
  const out: Array<Record<string, string>> = [];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i].replace(/\r$/, '');
    if (!line) continue;
    const cells = line.split('\t');
    const o: Record<string, string> = {};
    head.forEach((h, k) => (o[h] = cells[k] ?? ''));
    out.push(o);
  }
  return out;
}

function dateOf(cell: string | undefined, open: number): number {
  const s = (cell ?? '').trim();
  if (!s) return open;
  if (!/^\d{8}$/.test(s)) throw new Error(`MCE table: bad date "${s}"`);
  return Number(s);
}

interface CompiledMaster {
  table: Int32Array;
  overflow: Int32Array;
  flagSets: Int32Array;
  words: number;
}

/** A code master's text (code, start_date, end_date, flags) → the hash table, overflow rows and flag sets. */
function compileMaster(file: string, flagId: Map<string, number>, termination: number): CompiledMaster {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const head = (lines[0] ?? '').replace(/\r$/, '').split('\t');
  const [ci, si, ei, fi] = ['code', 'start_date', 'end_date', 'flags'].map((h) => head.indexOf(h));
  if (ci < 0 || si < 0 || ei < 0 || fi < 0) throw new Error(`MCE table ${path.basename(file)}: unexpected header ${head.join(',')}`);
  const words = Math.max(1, Math.ceil(flagId.size / 32));
  const rows: Array<{ code: string; start: number; end: number; set: number }> = [];
  const setIndex = new Map<string, number>();
  const sets: number[] = [];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i].endsWith('\r') ? lines[i].slice(0, -1) : lines[i];
    if (!line) continue;
    const c = line.split('\t');
    const bits = new Array<number>(words).fill(0);
    for (const f of (c[fi] ?? '').split(',')) {
      const id = flagId.get(f.trim());
      // A flag outside the MCE's vocabulary would be ignored by the MCE (README: the data holds none).
      if (id !== undefined) bits[id >>> 5] |= 1 << (id & 31);
    }
    const key = bits.join(',');
    let set = setIndex.get(key);
    if (set === undefined) {
      set = setIndex.size;
      setIndex.set(key, set);
      sets.push(...bits);
    }
    rows.push({ code: c[ci].toUpperCase(), start: dayOf(dateOf(c[si], 0)), end: dayOf(dateOf(c[ei], termination)), set });
  }
  rows.sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : a.start - b.start));
  const byCode = new Map<string, Array<(typeof rows)[number]>>();
  for (const r of rows) {
    const list = byCode.get(r.code);
    if (list) list.push(r);
    else byCode.set(r.code, [r]);
  }
  let size = 1024;
  while (size < byCode.size / 0.66) size *= 2;
  const mask = size - 1;
  const table = new Int32Array(size * SLOT).fill(EMPTY);
  const overflow: number[] = [];
  const key = new Int32Array(2);
  for (const [code, list] of byCode) {
    if (!packSpelled(code, key)) throw new Error(`MCE table ${path.basename(file)}: code "${code}" cannot be indexed`);
    let h = hashOf(key[0], key[1], mask);
    while (table[h * SLOT] !== EMPTY) h = (h + 1) & mask;
    const at = h * SLOT;
    table[at] = key[0];
    table[at + 1] = key[1];
    if (list.length === 1) {
      table[at + 2] = (list[0]!.start << 16) | list[0]!.end;
      table[at + 3] = list[0]!.set;
    } else {
      table[at + 2] = -(overflow.length / 3 + 1);
      table[at + 3] = list.length;
      for (const r of list) overflow.push(r.start, r.end, r.set);
    }
  }
  return { table, overflow: Int32Array.from(overflow), flagSets: Int32Array.from(sets), words };
}

function toMaster(c: CompiledMaster): CodeMaster {
  return { table: c.table, mask: c.table.length / SLOT - 1, overflow: c.overflow, flagSets: c.flagSets, words: c.words };
}

/** A master from the cache, or compiled from its TSV (and cached). */
function master(dir: string, name: string, flagId: Map<string, number>, termination: number): CodeMaster {
  const file = path.join(dir, name);
  const key = sourceKeyOf([file, path.join(dir, 'flags.tsv'), path.join(dir, 'meta.tsv')], `mce-layout=${LAYOUT}`);
  const folder = path.join(cacheDir(), 'mce');
  const stem = name.replace(/\.tsv$/, '');
  const cached = readCache<CompiledMaster>(folder, stem, key);
  if (cached) return toMaster(cached);
  const c = compileMaster(file, flagId, termination);
  writeCache(folder, stem, key, c);
  return toMaster(c);
}

let loaded: { dir: string; tables: MceTables } | null = null;

/**
 * The MCE tables (read on first use, then kept for the process; reading process.env on every claim would cost more
 * than a claim's lookups). Throws when the data folder lacks them. `resetMceTables()` forgets them (tests).
 */
export function mceTables(): MceTables {
  if (loaded) return loaded.tables;
  const dir = mceDir();
  const f = (name: string) => path.join(dir, name);
  const meta = new Map(readTsv(f('meta.tsv')).map((r) => [r.key, r.value]));
  const termination = dateOf(meta.get('termination_date'), NaN);
  const first = dateOf(meta.get('valid_discharge_date_begin') ?? '19851001', NaN);
  if (!Number.isFinite(termination)) throw new Error('MCE meta.tsv: termination_date missing');
  const flags: FlagSpec[] = readTsv(f('flags.tsv')).map((r) => ({ flag: r.flag, attribute: r.mce_attribute, codeType: r.mce_code_type as CodeType }));
  const flagId = new Map(flags.map((x, i) => [x.flag, i]));
  const edits: EditSpec[] = readTsv(f('edits.tsv'))
    .map((r) => ({
      name: r.edit,
      ordinal: Number(r.ordinal),
      codeType: r.code_type as CodeType,
      editType: r.edit_type as EditType,
      counter: r.counter_applicability as EditSpec['counter'],
    }))
    .sort((a, b) => a.ordinal - b.ordinal);
  const ageRanges = new Map<string, Array<DatedRange & { minAge: number; maxAge: number }>>();
  for (const r of readTsv(f('age_ranges.tsv'))) {
    const list = ageRanges.get(r.age_group) ?? [];
    list.push({ minAge: Number(r.start_age), maxAge: Number(r.end_age), start: dateOf(r.start_date, 0), end: dateOf(r.end_date, termination) });
    ageRanges.set(r.age_group, list);
  }
  const dischargeStatus = new Map<number, DatedRange[]>();
  for (const r of readTsv(f('discharge_status.tsv'))) {
    const code = Number(r.code);
    const list = dischargeStatus.get(code) ?? [];
    list.push({ start: dateOf(r.start_date, 0), end: dateOf(r.end_date, termination) });
    dischargeStatus.set(code, list);
  }
  let icd9: { dx: CodeMaster; pr: CodeMaster } | null = null;
  const tables: MceTables = {
    version: meta.get('version') ?? '',
    terminationDate: termination,
    firstValidDate: first,
    edits,
    flags,
    flagId,
    dx10: master(dir, 'dx_master.tsv', flagId, termination),
    pr10: master(dir, 'pr_master.tsv', flagId, termination),
    icd9: () => (icd9 ??= { dx: master(dir, 'icd9_dx_master.tsv', flagId, termination), pr: master(dir, 'icd9_pr_master.tsv', flagId, termination) }),
    ageRanges,
    dischargeStatus,
  };
  loaded = { dir, tables };
  return tables;
}

/** Whether the MCE tables are in the data folder. */
export function mceAvailable(): boolean {
  return MCE_FILES.every((name) => fs.existsSync(path.join(mceDir(), name)));
}

const key = new Int32Array(2);

/**
 * The flag set of a code (as the MCE reads it: upper-cased, otherwise exact) on day `day` (see dayOf): an index into
 * `flagSets`, or -1 when the code is not valid that day.
 */
export function flagSetOn(m: CodeMaster, code: string, day: number): number {
  if (!packStrict(code, key)) return -1;
  const hi = key[0];
  const lo = key[1];
  const t = m.table;
  const mask = m.mask;
  let h = hashOf(hi, lo, mask);
  for (;;) {
    const at = h * SLOT;
    const k = t[at];
    if (k === EMPTY) return -1;
    if (k === hi && t[at + 1] === lo) {
      const a = t[at + 2];
      if (a >= 0) return day >= a >>> 16 && day <= (a & 0xffff) ? t[at + 3] : -1;
      const rows = m.overflow;
      for (let r = (-a - 1) * 3, n = t[at + 3]; n > 0; n--, r += 3) if (rows[r] <= day && day <= rows[r + 1]) return rows[r + 2];
      return -1;
    }
    h = (h + 1) & mask;
  }
}

/** The flag set of a code on date D (YYYYMMDD), or -1 when not valid on D. */
export function rowOn(m: CodeMaster, code: string, date: number): number {
  return flagSetOn(m, code, dayOf(date));
}
