/**
 * ICD-10-CM / ICD-10-PCS titles from the CMS order files (`icd10cm-pcs/cms_YYYY_{dx,pr}.zip`),
 * for `lookupCode` and `suggestCodes`. A year's files are parsed once and cached as JSON under
 * `cacheDir()/drg/codes-YYYY-<key>.json`.
 *
 * Order-file layout (fixed width): cols 1–5 order number, col 7 (7 chars) code without dot,
 * col 15 `1` billable / `0` header, cols 17–76 short title, col 78– long title.
 */
import fs from 'node:fs';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { cacheDir, dataDir } from '../config/paths';
import { sourceKey } from './compile';

export interface CodeTitles {
  year: number;
  kind: 'dx' | 'pr';
  /** Codes in file order (headers and billable codes). */
  codes: string[];
  titles: string[];
  billable: Uint8Array;
  index: Map<string, number>;
  /** Lower-cased titles, for text search. */
  lower: string[];
}

export function codeZipPath(year: number, kind: 'dx' | 'pr'): string {
  return path.join(dataDir(), 'icd10cm-pcs', `cms_${year}_${kind}.zip`);
}

/** The order file's text from a CMS zip (file names differ by year; folders inside the zip vary). */
export function readOrderFile(year: number, kind: 'dx' | 'pr'): string | null {
  const zip = codeZipPath(year, kind);
  if (!fs.existsSync(zip)) return null;
  const re = kind === 'dx' ? /(^|\/)icd10cm_order_\d{4}\.txt$/i : /(^|\/)icd10pcs_order_\d{4}\.txt$/i;
  const files = unzipSync(new Uint8Array(fs.readFileSync(zip)), { filter: (f) => re.test(f.name) });
  const name = Object.keys(files)[0];
  if (!name) return null;
  return Buffer.from(files[name]).toString('latin1');
}

export interface OrderRow {
  code: string;
  billable: boolean;
  short: string;
  long: string;
}

export function parseOrderFile(text: string): OrderRow[] {
  const out: OrderRow[] = [];
  for (let line of text.split('\n')) {
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (line.length < 16) continue;
    const code = line.slice(6, 13).trim();
    if (!code) continue;
    out.push({ code, billable: line[14] === '1', short: line.slice(16, 76).trim(), long: line.slice(77).trim() });
  }
  return out;
}

const memo = new Map<string, CodeTitles | null>();

function build(year: number, kind: 'dx' | 'pr', codes: string[], titles: string[], billable: Uint8Array): CodeTitles {
  const index = new Map<string, number>();
  codes.forEach((c, i) => index.set(c, i));
  return { year, kind, codes, titles, billable, index, lower: titles.map((t) => t.toLowerCase()) };
}

/** Titles for a fiscal year's code file; null when the file is not there. */
export function codeTitles(year: number, kind: 'dx' | 'pr'): CodeTitles | null {
  const mk = `${year}-${kind}`;
  if (memo.has(mk)) return memo.get(mk) ?? null;
  const zip = codeZipPath(year, kind);
  let result: CodeTitles | null = null;
  if (fs.existsSync(zip)) {
    const key = sourceKey([zip], 'titles');
    const folder = path.join(cacheDir(), 'drg');
    const file = path.join(folder, `codes-${year}-${kind}-${key}.json`);
    try {
      const j = JSON.parse(fs.readFileSync(file, 'utf8')) as { codes: string; titles: string[]; billable: string };
      const codes = j.codes.split('\n');
      result = build(
        year,
        kind,
        codes,
        j.titles,
        Uint8Array.from(j.billable, (ch) => (ch === '1' ? 1 : 0)),
      );
    } catch {
      const text = readOrderFile(year, kind);
      if (text) {
        const rows = parseOrderFile(text);
        const codes = rows.map((r) => r.code);
        const titles = rows.map((r) => r.long || r.short);
        const billable = Uint8Array.from(rows, (r) => (r.billable ? 1 : 0));
        result = build(year, kind, codes, titles, billable);
        try {
          fs.mkdirSync(folder, { recursive: true });
          for (const f of fs.readdirSync(folder)) {
            if (f.startsWith(`codes-${year}-${kind}-`) && f !== path.basename(file)) fs.rmSync(path.join(folder, f), { force: true });
          }
          const tmp = `${file}.${process.pid}.tmp`;
          fs.writeFileSync(tmp, JSON.stringify({ codes: codes.join('\n'), titles, billable: Array.from(billable).join('') }));
          fs.renameSync(tmp, file);
        } catch {
          // unwritable cache: fine
        }
      }
    }
  }
  memo.set(mk, result);
  return result;
}

/** Title lookup with fallback to the following fiscal year (April releases add codes). */
export function titleOf(year: number, kind: 'dx' | 'pr', code: string): { title: string | null; billable: boolean; found: boolean } {
  for (const y of [year, year + 1]) {
    const t = codeTitles(y, kind);
    const i = t?.index.get(code);
    if (t && i !== undefined) return { title: t.titles[i], billable: t.billable[i] === 1, found: y === year };
  }
  return { title: null, billable: false, found: false };
}
