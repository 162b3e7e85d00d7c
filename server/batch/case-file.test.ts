import { describe, expect, it } from 'vitest';
import { csvRows, describeCaseFileErrors, detectFormat, parseCaseFile, splitCodes } from './case-file';

describe('batch case files', () => {
  it('reads CSV with codes separated by ; | , or spaces, booleans in several spellings, and optional columns', () => {
    const csv = [
      'Case_Ref,dx_codes,pr_codes,gender,is_alive,discharge_status,poa',
      'c1,I21.4;I50.21,027034Z,m,true,,',
      'c2,"J44.9 J96.01",,F,no,1,Y N',
      'c3,"K35.80, E11.9",0DTJ4ZZ|0DTJ0ZZ,F,1,20,',
      '',
    ].join('\r\n');
    const p = parseCaseFile(csv, { filename: 'cases.csv' });
    expect(p.errors).toEqual([]);
    expect(p.format).toBe('csv');
    expect(p.cases).toEqual([
      { case_ref: 'c1', dx_codes: ['I214', 'I5021'], pr_codes: ['027034Z'], gender: 'M', is_alive: true },
      { case_ref: 'c2', dx_codes: ['J449', 'J9601'], pr_codes: [], gender: 'F', is_alive: false, discharge_status: 1, poa: ['Y', 'N'] },
      { case_ref: 'c3', dx_codes: ['K3580', 'E119'], pr_codes: ['0DTJ4ZZ', '0DTJ0ZZ'], gender: 'F', is_alive: true, discharge_status: 20 },
    ]);
  });

  it('names the line of every bad CSV row', () => {
    const csv =
      'case_ref,dx_codes,gender,is_alive\nok,I214,M,true\nno-dx,,M,true\nbad-sex,I214,Q,true\nbad-alive,I214,M,maybe\nno-alive,I214,M,\nshort,I214\nbad-pr,I214,M,true\n';
    const p = parseCaseFile(csv, { filename: 'x.csv' });
    expect(p.cases.map((c) => c.case_ref)).toEqual(['ok', 'bad-pr']);
    expect(p.errors.map((e) => e.line)).toEqual([3, 4, 5, 6, 7]);
    expect(p.errors[0]!.message).toMatch(/^dx_codes: at least one diagnosis/);
    expect(p.errors[1]!.message).toMatch(/^gender:/);
    expect(p.errors[2]!.message).toMatch(/^is_alive: expected true or false/);
    expect(p.errors[3]!.message).toMatch(/^is_alive: required/);
    expect(p.errors[4]!.message).toBe('expected 4 cells, found 2');
    expect(describeCaseFileErrors(p)).toMatch(/^line 3: dx_codes: .*; line 4: gender: /);
  });

  it('refuses a CSV header with missing or unknown columns', () => {
    const p = parseCaseFile('case_ref,diagnoses,gender\nc1,I214,M\n', { filename: 'x.csv' });
    expect(p.cases).toEqual([]);
    expect(p.errors).toHaveLength(1);
    expect(p.errors[0]).toMatchObject({ line: 1 });
    expect(p.errors[0]!.message).toMatch(/missing columns dx_codes, is_alive; unknown column 'diagnoses'/);
  });

  it('keeps quoted cells with commas, quotes and newlines together, and counts lines across them', () => {
    const rows = csvRows('a,b\n"x, ""y""","multi\nline"\nlast,row');
    expect(rows).toEqual([
      { line: 1, cells: ['a', 'b'] },
      { line: 2, cells: ['x, "y"', 'multi\nline'] },
      { line: 4, cells: ['last', 'row'] },
    ]);
  });

  it('reads JSONL with blank lines, string code lists, and reports bad JSON by line', () => {
    const jsonl =
      '{"case_ref":"j1","dx_codes":["I214"],"gender":"M","is_alive":true}\n\n{"case_ref":"j2","dx_codes":"K35.80;E11.9","gender":"F","is_alive":"yes"}\n{oops}\n[1]\n{"case_ref":"j5","dx_codes":["I214"],"gender":"M","is_alive":true,"extra":1}\n';
    const p = parseCaseFile(jsonl, { filename: 'cases.jsonl' });
    expect(p.cases.map((c) => [c.case_ref, c.dx_codes, c.is_alive])).toEqual([
      ['j1', ['I214'], true],
      ['j2', ['K3580', 'E119'], true],
    ]);
    expect(p.errors).toEqual([
      { line: 4, message: 'not valid JSON' },
      { line: 5, message: 'each line must be one JSON object (a case)' },
      { line: 6, message: "case: unknown field 'extra'" },
    ]);
  });

  it('reads JSON arrays and API bodies, counting cases instead of lines', () => {
    const body = JSON.stringify({
      cases: [
        { case_ref: 'a', dx_codes: ['I214'], gender: 'M', is_alive: true },
        { case_ref: 'b', dx_codes: [], gender: 'M', is_alive: true },
      ],
    });
    const p = parseCaseFile(body);
    expect(p.format).toBe('json');
    expect(p.cases).toHaveLength(1);
    expect(describeCaseFileErrors(p)).toMatch(/^case 2: dx_codes/);
    expect(parseCaseFile('[{"case_ref":"a","dx_codes":["I214"],"gender":"F","is_alive":false}]').cases[0]!.is_alive).toBe(false);
    expect(parseCaseFile('{"nope":1}', { format: 'json' }).errors[0]!.message).toMatch(/array of cases/);
  });

  it('reports duplicate case_ref values', () => {
    const p = parseCaseFile('case_ref,dx_codes,gender,is_alive\na,I214,M,1\nb,I214,M,1\na,I214,F,0\n');
    expect(p.errors).toEqual([{ line: 0, message: 'case_ref values must be unique within a batch; duplicated: a' }]);
  });

  it('detects the format from the file name, then from the content', () => {
    expect(detectFormat('{}', 'x.CSV')).toBe('csv');
    expect(detectFormat('', 'x.ndjson')).toBe('jsonl');
    expect(detectFormat('[]')).toBe('json');
    expect(detectFormat('{"cases":[]}')).toBe('json');
    expect(detectFormat('{"a":1}\n{"a":2}')).toBe('jsonl');
    expect(detectFormat('case_ref,dx_codes')).toBe('csv');
    expect(splitCodes(' I21.4;; I50.21 |E11.9,Z00 ')).toEqual(['I21.4', 'I50.21', 'E11.9', 'Z00']);
  });

  it('stops at maxCases + 1: a CSV, JSONL or JSON file with more cases is refused without reading the rest', () => {
    const row = (i: number) => `c${i},I21.4,,M,true`;
    const csv = ['case_ref,dx_codes,pr_codes,gender,is_alive', ...Array.from({ length: 1000 }, (_, i) => row(i))].join('\n');
    const exact = parseCaseFile(csv, { filename: 'x.csv', maxCases: 1000 });
    expect(exact.errors).toEqual([]);
    expect(exact.tooManyCases).toBeUndefined();
    expect(exact.cases).toHaveLength(1000);
    const over = parseCaseFile(`${csv}\n${row(1000)}\n`, { filename: 'x.csv', maxCases: 1000 });
    expect(over.tooManyCases).toBe(true);
    expect(over.errors[0]).toEqual({ line: 1002, message: 'the file has more than 1000 cases (a batch has 1 to 1000); split it into several batches' });
    expect(over.cases).toHaveLength(1000);

    // Everything after case 1001 is never looked at: an unterminated quote and 40 MB of junk after it raise no error of
    // their own (the one error is the count). Speed is measured by bench:batch, not asserted here.
    const junk = `${csv}\n${row(1000)}\n"${'x'.repeat(40 * 1024 * 1024)}`;
    const big = parseCaseFile(junk, { filename: 'x.csv', maxCases: 1000 });
    expect(big.tooManyCases).toBe(true);
    expect(big.errors).toHaveLength(1);
    expect(big.errors[0]!.message).toMatch(/more than 1000 cases/);

    const jsonl = Array.from({ length: 1002 }, (_, i) => JSON.stringify({ case_ref: `j${i}`, dx_codes: ['I214'], gender: 'F', is_alive: true })).join('\r\n');
    const j = parseCaseFile(`${jsonl}\r\n{oops${'y'.repeat(1_000_000)}`, { filename: 'x.jsonl', maxCases: 1000 });
    expect(j.tooManyCases).toBe(true);
    expect(j.errors[0]!.line).toBe(1001);
    // 5000 items refused by count, none validated (each '{}' would be an error of its own)
    const json = parseCaseFile(`[${Array.from({ length: 5000 }, () => '{}').join(',')}]`, { filename: 'x.json', maxCases: 1000 });
    expect(json.tooManyCases).toBe(true);
    expect(json.errors).toHaveLength(1);
    expect(json.errors[0]!.message).toMatch(/more than 1000 cases/);
  });

  it('without maxCases, parses everything (the browser shows the count)', () => {
    const csv = ['case_ref,dx_codes,gender,is_alive', ...Array.from({ length: 1005 }, (_, i) => `c${i},I214,M,1`)].join('\n');
    const p = parseCaseFile(csv);
    expect(p.cases).toHaveLength(1005);
    expect(p.tooManyCases).toBeUndefined();
  });

  it('caps the error list', () => {
    const lines = ['case_ref,dx_codes,gender,is_alive', ...Array.from({ length: 40 }, (_, i) => `c${i},,M,true`)];
    const p = parseCaseFile(lines.join('\n'));
    expect(p.errors).toHaveLength(21);
    expect(p.errors[20]!.message).toMatch(/more errors follow/);
  });
});
