import { describe, expect, it } from 'vitest';
import { csvCell, resultsToCsv, type ResultRow } from '@/components/batches/csv';

/** The Batches page's CSV download (components/batches/csv.ts): RFC 4180 quoting and formula-injection defence. */
describe('batch results CSV', () => {
  it('prefixes cells that a spreadsheet would run as a formula with a quote', () => {
    for (const bad of ['=HYPERLINK("http://x","y")', '+1+1', '-2+3', '@SUM(A1)', '\tx', '\r=1']) {
      const c = csvCell(bad);
      const unquoted = c.startsWith('"') ? c.slice(1, -1).replace(/""/g, '"') : c;
      expect(unquoted, JSON.stringify(bad)).toBe(`'${bad}`);
    }
    expect(csvCell('I21.4')).toBe('I21.4');
    expect(csvCell('a, "b"')).toBe('"a, ""b"""');
    expect(csvCell(0)).toBe('0');
    expect(csvCell(null)).toBe('');
  });

  it('writes one row per case with hostile case_ref and error texts neutralised', () => {
    const rows: ResultRow[] = [
      {
        index: 0,
        case_ref: "=cmd|' /C calc'!A0",
        status: 'done',
        result: { primary_drg: '249', description: 'Perc cardiovasc proc', mdc: '05', type: 'P', return_code: 'OK', severity: 'NON_CC', version: 'v40' },
        error_code: null,
        error: null,
      },
      {
        index: 1,
        case_ref: 'ok-1',
        status: 'failed',
        result: null,
        error_code: 'INVALID_PDX',
        error: '-ungroupable, DRG 999',
        edits: [{ edit: 'INVALID_CODE' }, { edit: 'AGE_CONFLICT' }],
      },
    ];
    const inputs = [{ index: 0, dx_codes: ['I214', 'E1165'], pr_codes: ['02703DZ'], gender: 'M', is_alive: true, discharge_status: null }];
    const lines = resultsToCsv(rows, inputs).trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'row,index,case_ref,dx_codes,pr_codes,gender,is_alive,discharge_status,status,primary_drg,description,mdc,type,severity,return_code,version,error_code,error,edits',
    );
    expect(lines[1]).toBe("1,0,'=cmd|' /C calc'!A0,I214 E1165,02703DZ,M,true,,done,249,Perc cardiovasc proc,05,P,NON_CC,OK,v40,,,");
    expect(lines[2]).toBe(`2,1,ok-1,,,,,,failed,,,,,,,,INVALID_PDX,"'-ungroupable, DRG 999",INVALID_CODE AGE_CONFLICT`);
  });
});
