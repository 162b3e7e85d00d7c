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
import { buildCodeTable, CodeIndex } from '../drg/codeindex';
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
 * One code master (ICD-10-CM dx, ICD-10-PCS, ICD-9-CM dx or ICD-9 procedures). A code's lookup answers where its
 * rows are, packed (`first row | count << 20`); each row is `stride` consecutive integers: start date, end date, then
 * the flag words (bit id = the flag's position in flags.tsv). One memory access per row, which matters: claims
 * touch codes all over the 85,000 rows.
 */
export interface CodeMaster {
  readonly index: CodeIndex;
  readonly rows: Int32Array;
  readonly stride: number;
  readonly words: number;
}

/** Flag words start at this offset within a row. */
export const FLAG_OFFSET = 2;
const COUNT_SHIFT = 20;

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
const LAYOUT = 2;

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
  codes: string[];
  table: Int32Array;
  rows: Int32Array;
  words: number;
}

/** A code master's text (code, start_date, end_date, flags) → arrays; rows of a code in start-date order. */
function compileMaster(file: string, flagId: Map<string, number>, termination: number): CompiledMaster {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const head = (lines[0] ?? '').replace(/\r$/, '').split('\t');
  const [ci, si, ei, fi] = ['code', 'start_date', 'end_date', 'flags'].map((h) => head.indexOf(h));
  if (ci < 0 || si < 0 || ei < 0 || fi < 0) throw new Error(`MCE table ${path.basename(file)}: unexpected header ${head.join(',')}`);
  const words = Math.max(1, Math.ceil(flagId.size / 32));
  const rows: Array<{ code: string; start: number; end: number; flags: string }> = [];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i].endsWith('\r') ? lines[i].slice(0, -1) : lines[i];
    if (!line) continue;
    const c = line.split('\t');
    rows.push({ code: c[ci].toUpperCase(), start: dateOf(c[si], 0), end: dateOf(c[ei], termination), flags: c[fi] ?? '' });
  }
  rows.sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : a.start - b.start));
  const stride = FLAG_OFFSET + words;
  const codes: string[] = [];
  const packed: number[] = [];
  const data = new Int32Array(Math.max(1, rows.length) * stride);
  rows.forEach((row, r) => {
    if (codes.length === 0 || codes[codes.length - 1] !== row.code) {
      codes.push(row.code);
      packed.push(r);
    }
    packed[packed.length - 1] += 1 << COUNT_SHIFT;
    if (r >= 1 << COUNT_SHIFT) throw new Error('MCE table: too many rows');
    data[r * stride] = row.start;
    data[r * stride + 1] = row.end;
    if (row.flags) {
      for (const f of row.flags.split(',')) {
        const id = flagId.get(f.trim());
        // A flag outside the MCE's vocabulary would be ignored by the MCE (README: the data holds none).
        if (id !== undefined) data[r * stride + FLAG_OFFSET + (id >>> 5)] |= 1 << (id & 31);
      }
    }
  });
  return { codes, table: buildCodeTable(codes, packed), rows: data, words };
}

function toMaster(c: CompiledMaster): CodeMaster {
  return { index: new CodeIndex(c.table, c.codes), rows: c.rows, stride: FLAG_OFFSET + c.words, words: c.words };
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

let loaded: { env: string | undefined; dir: string; tables: MceTables } | null = null;

/** The MCE tables (read on first use, then kept for the process). Throws when the data folder lacks them. */
export function mceTables(): MceTables {
  if (loaded && loaded.env === process.env.CODING_DATA_DIR) return loaded.tables;
  const dir = mceDir();
  if (loaded && loaded.dir === dir) return loaded.tables;
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
  loaded = { env: process.env.CODING_DATA_DIR, dir, tables };
  return tables;
}

/** Whether the MCE tables are in the data folder. */
export function mceAvailable(): boolean {
  return MCE_FILES.every((name) => fs.existsSync(path.join(mceDir(), name)));
}

/**
 * The row (its offset in `rows`) of a code that applies on date D (YYYYMMDD), or -1 when the code is not valid on D.
 * `packed` is the code's lookup answer (-1: unknown code).
 */
export function rowOfPacked(m: CodeMaster, packed: number, date: number): number {
  if (packed < 0) return -1;
  const rows = m.rows;
  const stride = m.stride;
  let at = (packed & ((1 << COUNT_SHIFT) - 1)) * stride;
  for (let n = packed >>> COUNT_SHIFT; n > 0; n--, at += stride) if (rows[at] <= date && date <= rows[at + 1]) return at;
  return -1;
}

/** The row offset of a code (as the MCE reads it: upper-cased, otherwise exact) on D, or -1 when not valid on D. */
export function rowOn(m: CodeMaster, code: string, date: number): number {
  return rowOfPacked(m, m.index.lookup(code, false), date);
}
