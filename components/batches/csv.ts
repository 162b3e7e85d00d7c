/**
 * Batch results → CSV (RFC 4180), for the Batches page's download.
 *
 * Formula injection: a spreadsheet runs a cell that starts with `=`, `+`, `-` or `@` (and some read a leading tab
 * or carriage return the same way). case_ref and error texts come from callers, so such cells are written with a
 * leading `'`, which spreadsheets show as text. Numbers we write ourselves (the index) are left alone.
 */
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '@/server/api/root';

type BatchCase = inferRouterOutputs<AppRouter>['batch']['get']['results'][number];
type BatchResult = NonNullable<BatchCase['result']>;

/** What the CSV needs of a case result (tRPC batch.get), narrowed to the columns it writes. */
export type ResultRow = Pick<BatchCase, 'index' | 'case_ref' | 'status' | 'error_code' | 'error'> & {
  result: Pick<BatchResult, 'primary_drg' | 'description' | 'mdc' | 'type' | 'return_code' | 'severity' | 'version'> | null;
  /** Medicare Code Editor edits of the case (the CSV lists their names). */
  edits?: Array<Pick<NonNullable<BatchCase['edits']>[number], 'edit'>> | null;
};

/** The submitted codes of a case (tRPC batch.inputs), written beside its result. */
export type InputRow = inferRouterOutputs<AppRouter>['batch']['inputs'][number];

/** `row` is the number the screen shows (1-based); `index` the API's 0-based position. */
const COLUMNS = [
  'row',
  'index',
  'case_ref',
  'dx_codes',
  'pr_codes',
  'gender',
  'is_alive',
  'discharge_status',
  'status',
  'primary_drg',
  'description',
  'mdc',
  'type',
  'severity',
  'return_code',
  'version',
  'error_code',
  'error',
  'edits',
] as const;

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(v: string | number | null | undefined): string {
  let s = v === null || v === undefined ? '' : String(v);
  if (typeof v === 'string' && FORMULA_START.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function resultsToCsv(rows: ResultRow[], inputs: InputRow[] = []): string {
  const lines = [COLUMNS.join(',')];
  const byIndex = new Map(inputs.map((i) => [i.index, i]));
  for (const r of rows) {
    const x = r.result;
    const i = byIndex.get(r.index);
    lines.push(
      [
        r.index + 1,
        r.index,
        r.case_ref,
        i?.dx_codes.join(' '),
        i?.pr_codes.join(' '),
        i?.gender,
        i?.is_alive === null || i?.is_alive === undefined ? '' : String(i.is_alive),
        i?.discharge_status,
        r.status,
        x?.primary_drg,
        x?.description,
        x?.mdc,
        x?.type,
        x?.severity,
        x?.return_code,
        x?.version,
        r.error_code,
        r.error,
        (r.edits ?? []).map((e) => e.edit).join(' '),
      ]
        .map(csvCell)
        .join(','),
    );
  }
  return lines.join('\r\n') + '\r\n';
}

export function downloadText(filename: string, text: string, type = 'text/csv'): void {
  const url = URL.createObjectURL(new Blob([text], { type: `${type};charset=utf-8` }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
