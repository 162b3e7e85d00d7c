import { BatchCase } from '../api/schemas/drg';
import { describeZodIssues } from '../errors';

/**
 * Case files for DRG batches: CSV, JSONL or JSON, parsed into batch cases with errors that name line numbers.
 * Pure (no Node APIs): the server uses it for `file_id` batches and the Batches page uses it in the browser.
 *
 * CSV: a header row, then one case per row. Columns (any order, case-insensitive): `case_ref`, `dx_codes`,
 * `gender`, `is_alive` (required), `pr_codes`, `discharge_status`, `poa`, and for the Medicare Code Editor
 * `discharge_date`, `age`, `length_of_stay`, `admit_dx` (optional). Codes inside a cell are
 * separated by `;`, `|`, `,` (in a quoted cell) or spaces; `is_alive` is true/false, yes/no, y/n or 1/0. Quoted
 * cells follow RFC 4180 ("" is a quote).
 * JSONL: one JSON case object per line, with the fields of the API's case (`dx_codes`/`pr_codes` may also be a
 * string separated as in CSV). Blank lines are skipped.
 * JSON: an array of case objects, or an object with a `cases` array (an API request body).
 *
 * `maxCases`: parsing stops at the first case beyond it (CSV rows and JSONL lines are read lazily, so the rest of
 * a huge file is never split or validated); `tooManyCases` is then set and the first error says so.
 */
export type CaseFileFormat = 'csv' | 'jsonl' | 'json';

export interface CaseFileError {
  /** 1-based line of the file (CSV/JSONL), or 1-based case number (JSON). */
  line: number;
  message: string;
}

export interface ParsedCaseFile {
  format: CaseFileFormat;
  cases: BatchCase[];
  errors: CaseFileError[];
  /** The file holds more than `maxCases` cases (parsing stopped there). */
  tooManyCases?: boolean;
}

export interface ParseOptions {
  format?: CaseFileFormat;
  filename?: string | null;
  /** Stop after this many cases (rows/lines/array items, valid or not) and report the file as too large. */
  maxCases?: number;
}

const MAX_ERRORS = 20;
const CSV_COLUMNS = [
  'case_ref',
  'dx_codes',
  'pr_codes',
  'gender',
  'is_alive',
  'discharge_status',
  'poa',
  'discharge_date',
  'age',
  'length_of_stay',
  'admit_dx',
] as const;
const REQUIRED_COLUMNS = ['case_ref', 'dx_codes', 'gender', 'is_alive'];

export function detectFormat(text: string, filename?: string | null): CaseFileFormat {
  const name = (filename ?? '').toLowerCase();
  if (name.endsWith('.csv') || name.endsWith('.tsv') || name.endsWith('.txt')) return 'csv';
  if (name.endsWith('.jsonl') || name.endsWith('.ndjson')) return 'jsonl';
  if (name.endsWith('.json')) return 'json';
  const body = stripBom(text).trimStart();
  if (body.startsWith('[')) return 'json';
  if (body.startsWith('{')) {
    try {
      const v = JSON.parse(body) as unknown;
      if (v && typeof v === 'object' && !Array.isArray(v) && Array.isArray((v as { cases?: unknown }).cases)) return 'json';
    } catch {
      /* several objects: JSONL */
    }
    return 'jsonl';
  }
  return 'csv';
}

export function splitCodes(cell: string): string[] {
  return cell
    .split(/[;|,\s]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

function stripBom(s: string): string {
  return s.charCodeAt(0) === 0xfeff ? s.slice(1) : s;
}

function parseBool(v: string): boolean | string {
  const s = v.trim().toLowerCase();
  if (['true', 'yes', 'y', '1', 't'].includes(s)) return true;
  if (['false', 'no', 'n', '0', 'f'].includes(s)) return false;
  return v; // left as text: validation reports it
}

type CsvRow = { line: number; cells: string[] };

/** RFC 4180 rows with the line each row starts on. */
export function csvRows(text: string): CsvRow[] {
  return [...csvRowIterator(text)];
}

/** The same rows, lazily: a caller that stops early never scans the rest of the text. */
export function* csvRowIterator(text: string): Generator<CsvRow> {
  const s = stripBom(text);
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  let touched = false;
  const endRow = (): CsvRow | null => {
    cells.push(cell);
    const row = touched || cells.length > 1 || cell.trim() !== '' ? { line: rowLine, cells } : null;
    cells = [];
    cell = '';
    touched = false;
    return row;
  };
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (quoted) {
      if (ch === '"') {
        if (s[i + 1] === '"') {
          cell += '"';
          i++;
        } else quoted = false;
      } else {
        if (ch === '\n') line++;
        cell += ch;
      }
      continue;
    }
    if (ch === '"' && cell.trim() === '') {
      quoted = true;
      touched = true;
      cell = '';
    } else if (ch === ',') {
      cells.push(cell);
      cell = '';
      touched = true;
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && s[i + 1] === '\n') i++;
      const row = endRow();
      line++;
      rowLine = line;
      if (row) yield row;
    } else cell += ch;
  }
  if (cell !== '' || cells.length || touched) {
    const row = endRow();
    if (row) yield row;
  }
}

function pushError(out: ParsedCaseFile, line: number, message: string): void {
  if (out.errors.length < MAX_ERRORS) out.errors.push({ line, message });
  else if (out.errors.length === MAX_ERRORS) out.errors.push({ line: 0, message: 'more errors follow; fix the ones above first' });
}

function validate(raw: Record<string, unknown>, line: number, out: ParsedCaseFile): void {
  const r = BatchCase.safeParse(raw);
  if (r.success) {
    out.cases.push(r.data);
    return;
  }
  // The schema's messages, named by field; a case-level issue (unknown fields) is about "case", and is_alive gets
  // the spellings a file may use.
  const issues = r.error.issues.map((i) => {
    if (!i.path.length) return { ...i, path: ['case'] };
    if (i.path[0] === 'is_alive' && i.code === 'invalid_type') {
      const message =
        raw.is_alive === undefined
          ? 'required (true or false)'
          : `expected true or false (also yes/no, y/n, 1/0), got ${JSON.stringify(raw.is_alive).slice(0, 40)}`;
      return { ...i, message };
    }
    return i;
  });
  pushError(out, line, describeZodIssues(issues));
}

/** Counts a case (valid or not) against `maxCases`; false once the file has more than that. */
function admit(out: ParsedCaseFile, line: number, seen: number, maxCases: number | undefined): boolean {
  if (maxCases === undefined || seen <= maxCases) return true;
  out.tooManyCases = true;
  out.errors.unshift({ line, message: `the file has more than ${maxCases} cases (a batch has 1 to ${maxCases}); split it into several batches` });
  return false;
}

function normaliseObject(o: Record<string, unknown>): Record<string, unknown> {
  const c = { ...o };
  if (typeof c.dx_codes === 'string') c.dx_codes = splitCodes(c.dx_codes);
  if (typeof c.pr_codes === 'string') c.pr_codes = splitCodes(c.pr_codes);
  if (typeof c.is_alive === 'string') c.is_alive = parseBool(c.is_alive);
  if (typeof c.case_ref === 'number') c.case_ref = String(c.case_ref);
  return c;
}

function parseCsv(text: string, out: ParsedCaseFile, maxCases: number | undefined): void {
  const rows = csvRowIterator(text);
  const first = rows.next();
  if (first.done) {
    out.errors.push({ line: 1, message: 'the file is empty' });
    return;
  }
  const header = first.value;
  const columns = header.cells.map((c) => c.trim().toLowerCase());
  const unknown = columns.filter((c) => !(CSV_COLUMNS as readonly string[]).includes(c));
  const missing = REQUIRED_COLUMNS.filter((c) => !columns.includes(c));
  if (unknown.length || missing.length) {
    const parts = [];
    if (missing.length) parts.push(`missing column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
    if (unknown.length) parts.push(`unknown column${unknown.length > 1 ? 's' : ''} ${unknown.map((c) => `'${c}'`).join(', ')}`);
    out.errors.push({ line: header.line, message: `header: ${parts.join('; ')} (expected ${CSV_COLUMNS.join(', ')})` });
    return;
  }
  let seen = 0;
  for (const row of rows) {
    if (!admit(out, row.line, ++seen, maxCases)) return;
    if (row.cells.length !== columns.length) {
      pushError(out, row.line, `expected ${columns.length} cells, found ${row.cells.length}`);
      continue;
    }
    const o: Record<string, unknown> = {};
    columns.forEach((col, i) => {
      const v = row.cells[i]!.trim();
      if (col === 'dx_codes' || col === 'pr_codes') o[col] = splitCodes(v);
      else if (col === 'poa') {
        if (v !== '') o.poa = v.split(/[;|\s]+/).map((p) => p.trim().toUpperCase());
      } else if (col === 'is_alive') o.is_alive = v === '' ? undefined : parseBool(v);
      else if (col === 'discharge_status' || col === 'age' || col === 'length_of_stay') {
        if (v !== '') o[col] = /^\d+$/.test(v) ? Number(v) : v;
      } else if (col === 'discharge_date' || col === 'admit_dx') {
        if (v !== '') o[col] = v;
      } else o[col] = v;
    });
    validate(o, row.line, out);
  }
}

/** Lines without splitting the whole text. */
function* lineIterator(text: string): Generator<{ line: number; text: string }> {
  let start = 0;
  for (let line = 1; start <= text.length; line++) {
    const nl = text.indexOf('\n', start);
    const end = nl === -1 ? text.length : nl;
    yield { line, text: text.slice(start, end > start && text[end - 1] === '\r' ? end - 1 : end) };
    if (nl === -1) return;
    start = nl + 1;
  }
}

function parseJsonl(text: string, out: ParsedCaseFile, maxCases: number | undefined): void {
  let seen = 0;
  for (const { line, text: l } of lineIterator(stripBom(text))) {
    if (!l.trim()) continue;
    if (!admit(out, line, ++seen, maxCases)) return;
    let v: unknown;
    try {
      v = JSON.parse(l);
    } catch {
      pushError(out, line, 'not valid JSON');
      continue;
    }
    if (!v || typeof v !== 'object' || Array.isArray(v)) {
      pushError(out, line, 'each line must be one JSON object (a case)');
      continue;
    }
    validate(normaliseObject(v as Record<string, unknown>), line, out);
  }
}

function parseJson(text: string, out: ParsedCaseFile, maxCases: number | undefined): void {
  let v: unknown;
  try {
    v = JSON.parse(stripBom(text));
  } catch (err) {
    out.errors.push({ line: 1, message: `not valid JSON (${err instanceof Error ? err.message : 'parse error'})` });
    return;
  }
  const list = Array.isArray(v) ? v : v && typeof v === 'object' && Array.isArray((v as { cases?: unknown }).cases) ? (v as { cases: unknown[] }).cases : null;
  if (!list) {
    out.errors.push({ line: 1, message: 'expected an array of cases, or an object with a "cases" array' });
    return;
  }
  if (!admit(out, maxCases === undefined ? 0 : maxCases + 1, list.length, maxCases)) return;
  list.forEach((c, i) => {
    if (!c || typeof c !== 'object' || Array.isArray(c)) {
      pushError(out, i + 1, 'a case must be an object');
      return;
    }
    validate(normaliseObject(c as Record<string, unknown>), i + 1, out);
  });
}

/** Parse a case file. `errors` is empty when every case is valid; duplicate case_ref values are reported too. */
export function parseCaseFile(text: string, opts: ParseOptions = {}): ParsedCaseFile {
  const format = opts.format ?? detectFormat(text, opts.filename);
  const out: ParsedCaseFile = { format, cases: [], errors: [] };
  if (format === 'csv') parseCsv(text, out, opts.maxCases);
  else if (format === 'jsonl') parseJsonl(text, out, opts.maxCases);
  else parseJson(text, out, opts.maxCases);
  if (out.tooManyCases) return out;
  const dups = duplicateCaseRefs(out.cases);
  if (dups.length)
    out.errors.push({
      line: 0,
      message: `case_ref values must be unique within a batch; duplicated: ${dups.slice(0, 10).join(', ')}${dups.length > 10 ? ', …' : ''}`,
    });
  return out;
}

export function duplicateCaseRefs(cases: ReadonlyArray<{ case_ref: string }>): string[] {
  const seen = new Set<string>();
  const dups = new Set<string>();
  for (const c of cases) {
    if (seen.has(c.case_ref)) dups.add(c.case_ref);
    seen.add(c.case_ref);
  }
  return [...dups];
}

/** The errors as one message: "line 3: dx_codes: …; line 7: …" (JSON files count cases instead of lines). */
export function describeCaseFileErrors(parsed: Pick<ParsedCaseFile, 'errors' | 'format'>): string {
  const unit = parsed.format === 'json' ? 'case' : 'line';
  return parsed.errors.map((e) => (e.line > 0 ? `${unit} ${e.line}: ${e.message}` : e.message)).join('; ');
}
