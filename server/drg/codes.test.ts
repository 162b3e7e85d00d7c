import { describe, expect, it } from 'vitest';
import { parseOrderFile } from './codes';
import { lookupCode, suggestCodes } from './index';

describe('order-file parsing', () => {
  it('reads the fixed-width layout', () => {
    const line = '00002 A000    1 Cholera due to Vibrio cholerae 01, biovar cholerae           Cholera due to Vibrio cholerae 01, biovar cholerae\r';
    expect(parseOrderFile(line)).toEqual([
      { code: 'A000', billable: true, short: 'Cholera due to Vibrio cholerae 01, biovar cholerae', long: 'Cholera due to Vibrio cholerae 01, biovar cholerae' },
    ]);
  });
});

describe('lookupCode / suggestCodes', () => {
  it('looks up diagnoses and procedures with titles for the version year', async () => {
    expect(await lookupCode('v43', 'i21.4')).toEqual({
      code: 'I214',
      kind: 'dx',
      valid: true,
      billable: true,
      title: 'Non-ST elevation (NSTEMI) myocardial infarction',
    });
    expect(await lookupCode('v43', '027034Z')).toMatchObject({ kind: 'pr', valid: true, billable: true });
    expect(await lookupCode('v43', 'I21')).toMatchObject({ kind: 'dx', valid: false, billable: false, title: 'Acute myocardial infarction' });
    expect(await lookupCode('v43', 'QQQQ')).toMatchObject({ valid: false, title: null });
  });

  it('knows codes by version', async () => {
    // U071 (COVID-19) exists from FY2020 on; not in v36 (FY2019).
    expect((await lookupCode('v40', 'U071')).valid).toBe(true);
  });

  it('suggests by code prefix and by title words', async () => {
    const byCode = await suggestCodes('v43', 'I21.', 5);
    expect(byCode.length).toBe(5);
    expect(byCode.every((s) => s.code.startsWith('I21'))).toBe(true);
    const byText = await suggestCodes('v43', 'heart failure', 10, { kind: 'dx', billableOnly: true });
    expect(byText.length).toBe(10);
    expect(byText.every((s) => s.kind === 'dx' && s.billable && /heart/i.test(s.title) && /failure/i.test(s.title))).toBe(true);
    expect(await suggestCodes('v43', '', 5)).toEqual([]);
  });
});
