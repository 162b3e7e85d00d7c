/**
 * The MCE rules one by one, including those that cannot fire for FY2025–26 discharges (sex conflicts, the ICD-9
 * edits, non-covered rule C) and the corner cases the MCE README lists. Codes are found in the tables by their
 * flags (not hard-coded), so a test checks the rule, not a particular code.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { editClaim, mceAvailable, parseMceDate, type MceClaim, type MceResult } from './index';
import { mceDir } from './tables';
import { EDIT_TEXT, PAYMENT_EDITS } from './words';
import { mceTables } from './tables';

const present = mceAvailable();

/** A code of a master that carries all `flags` (and none of `without`) on date D. */
function codeWith(master: string, flags: string[], D: number, without: string[] = []): string {
  const lines = fs
    .readFileSync(path.join(mceDir(), `${master}.tsv`), 'utf8')
    .split('\n')
    .slice(1);
  for (const line of lines) {
    const [code, start, end, fl = ''] = line.split('\t');
    if (!code) continue;
    const set = new Set(fl.split(',').filter(Boolean));
    const to = end ? Number(end) : 99999999;
    if (Number(start) <= D && D <= to && flags.every((f) => set.has(f)) && !without.some((f) => set.has(f))) return code;
  }
  throw new Error(`no ${master} code with ${flags.join('+')} on ${D}`);
}

const FY26 = 20260315;
const base = (over: Partial<MceClaim>): MceClaim => ({ dischargeDate: '2026-03-15', age: 50, sex: 1, dischargeStatus: 1, los: 10, dx: [], pr: [], ...over });
const names = (r: MceResult) => r.edits.map((e) => e.name);
const edit = (r: MceResult, name: string) => r.edits.find((e) => e.name === name);

describe.skipIf(!present)('MCE: discharge date', () => {
  it('reads yyyyMMdd as the SMART resolver does (an impossible day falls back to the month end)', () => {
    expect(parseMceDate('20260229')).toBe(20260228);
    expect(parseMceDate('2024-02-30')).toBe(20240229);
    expect(parseMceDate('2026-04-31')).toBe(20260430);
    expect(parseMceDate(20260418)).toBe(20260418);
    for (const bad of ['20261301', '20260132', '2026-4-18', 'soon', '', '20260100']) expect(parseMceDate(bad)).toBeNull();
  });

  it('checks nothing outside the data range or for an unreadable date, and says why', () => {
    const dx = [codeWith('dx_master', ['ecodepdx'], FY26)];
    const late = editClaim(base({ dischargeDate: '2026-10-01', dx }));
    expect(late).toMatchObject({ editType: 'INVALID_DISCHARGE_DATE', edits: [], dateProblem: 'after_termination' });
    expect(editClaim(base({ dischargeDate: '1985-09-30', dx })).dateProblem).toBe('too_early');
    expect(editClaim(base({ dischargeDate: 'yesterday', dx })).dateProblem).toBe('unreadable');
    expect(editClaim(base({ dischargeDate: '2026-09-30', dx })).editType).toBe('PREPAYMENT');
  });
});

describe.skipIf(!present)('MCE: validation edits', () => {
  it('raises INVALID_CODE per occurrence; blank or all-zero codes are valid except as principal diagnosis', () => {
    const ok = codeWith('dx_master', [], FY26, [
      'unacceptable',
      'unspecified',
      'ecodepdx',
      'manifestation',
      'qadm',
      'adult',
      'maternity',
      'pediatric',
      'newborn',
      'wrngproc',
    ]);
    const r = editClaim(base({ dx: [ok, 'XYZ9', 'XYZ9', '', '000'], pr: ['ZZZZZZZ', '0000000'] }));
    expect(edit(r, 'INVALID_CODE')).toMatchObject({ count: 3, codes: ['XYZ9', 'ZZZZZZZ'], positions: ['dx[1]', 'dx[2]', 'pr[0]'] });
    expect(edit(editClaim(base({ dx: ['', ok] })), 'INVALID_CODE')).toMatchObject({ positions: ['dx[0]'] });
    expect(edit(editClaim(base({ dx: ['0000', ok] })), 'INVALID_CODE')).toMatchObject({ positions: ['dx[0]'] });
  });

  it('upper-cases codes but neither trims nor drops dots', () => {
    const ok = codeWith('dx_master', [], FY26, [
      'unacceptable',
      'unspecified',
      'ecodepdx',
      'manifestation',
      'qadm',
      'adult',
      'maternity',
      'pediatric',
      'newborn',
      'wrngproc',
    ]);
    expect(names(editClaim(base({ dx: [ok.toLowerCase()] })))).toEqual([]);
    expect(names(editClaim(base({ dx: [` ${ok}`] })))).toEqual(['INVALID_CODE']);
    expect(names(editClaim(base({ dx: [`${ok.slice(0, 3)}.${ok.slice(3)}`] })))).toContain('INVALID_CODE');
  });

  it('checks age, sex (unknown is valid only from 2024-10-01) and discharge status by date', () => {
    const dx = [
      codeWith('dx_master', [], FY26, [
        'unacceptable',
        'unspecified',
        'ecodepdx',
        'manifestation',
        'qadm',
        'adult',
        'maternity',
        'pediatric',
        'newborn',
        'wrngproc',
      ]),
    ];
    expect(names(editClaim(base({ dx, age: 125, sex: 9, dischargeStatus: 8 })))).toEqual(['INVALID_AGE', 'INVALID_SEX', 'INVALID_DISCHARGE_STATUS']);
    expect(names(editClaim(base({ dx, age: 124, sex: 0, dischargeStatus: 20 })))).toEqual([]);
    expect(names(editClaim(base({ dx, dischargeDate: '2023-05-01', sex: 0 })))).toEqual(['INVALID_SEX']);
    // status 8 was valid 1994-10-01 … 2005-09-30
    expect(names(editClaim(base({ dx: ['4019'], icdVersion: 9, dischargeDate: '2000-05-01', dischargeStatus: 8 })))).not.toContain('INVALID_DISCHARGE_STATUS');
    const admit = editClaim(base({ dx, admitDx: 'NOPE1' }));
    expect(edit(admit, 'INVALID_ADMIT_DX')).toMatchObject({ codes: ['NOPE1'], positions: ['admit_dx'], type: 'NONE' });
    expect(admit.editType).toBe('NONE'); // reported, but it does not make the claim prepayment
    expect(admit.admitDxEdits).toEqual(['INVALID_ADMIT_DX']);
  });
});

describe.skipIf(!present)('MCE: diagnosis edits', () => {
  it('principal-diagnosis edits fire on the principal only', () => {
    const ecode = codeWith('dx_master', ['ecodepdx'], FY26);
    const manif = codeWith('dx_master', ['manifestation'], FY26);
    const ok = codeWith('dx_master', [], FY26, [
      'unacceptable',
      'unspecified',
      'ecodepdx',
      'manifestation',
      'qadm',
      'adult',
      'maternity',
      'pediatric',
      'newborn',
      'wrngproc',
    ]);
    expect(names(editClaim(base({ dx: [ecode, ok] })))).toContain('E_CODE_AS_PDX');
    expect(names(editClaim(base({ dx: [ok, ecode] })))).not.toContain('E_CODE_AS_PDX');
    expect(names(editClaim(base({ dx: [manif, ok] })))).toContain('MANIFESTATION_AS_PDX');
  });

  it('REQUIRES_SDX only without any secondary entry; UNACCEPTABLE_PDX otherwise', () => {
    const req = codeWith('dx_master', ['unacceptable', 'reqsdx'], FY26);
    const unacc = codeWith('dx_master', ['unacceptable'], FY26, ['reqsdx', 'unspecified']);
    expect(names(editClaim(base({ dx: [req] })))).toEqual(['REQUIRES_SDX']);
    expect(names(editClaim(base({ dx: [req, ''] })))).toEqual([]); // a blank secondary entry counts
    expect(names(editClaim(base({ dx: [unacc] })))).toContain('UNACCEPTABLE_PDX');
  });

  it('age conflicts use the range on the date, also with an invalid age; admit-dx conflicts are not counted', () => {
    const mat = codeWith('dx_master', ['maternity'], FY26, ['female']);
    expect(edit(editClaim(base({ dx: [mat], age: 65 })), 'AGE_CONFLICT')).toMatchObject({ codes: [mat] });
    expect(names(editClaim(base({ dx: [mat], age: 64 })))).not.toContain('AGE_CONFLICT');
    // maternity was 12–55 before 2019-10-01
    const old = codeWith('dx_master', ['maternity'], 20190101);
    expect(names(editClaim(base({ dx: [old], age: 60, dischargeDate: '2019-01-01', sex: 2 })))).toContain('AGE_CONFLICT');
    expect(names(editClaim(base({ dx: [mat], age: -1 })))).toEqual(expect.arrayContaining(['INVALID_AGE', 'AGE_CONFLICT']));
    const ok = codeWith('dx_master', [], FY26, [
      'unacceptable',
      'unspecified',
      'ecodepdx',
      'manifestation',
      'qadm',
      'adult',
      'maternity',
      'pediatric',
      'newborn',
      'wrngproc',
    ]);
    const r = editClaim(base({ dx: [ok], admitDx: mat, age: 80 }));
    expect(names(r)).toEqual([]);
    expect(r.admitDxEdits).toEqual(['AGE_CONFLICT']);
  });

  it('sex conflicts fire for discharges up to 2024-09-30 (diagnoses and procedures); unknown sex conflicts before', () => {
    const D = 20240601;
    const fem = codeWith('dx_master', ['female'], D, ['maternity', 'unacceptable', 'unspecified']);
    const femPr = codeWith('pr_master', ['female'], D, ['csect', 'vagdel', 'noncovered', 'lcov', 'ncov_z302']);
    const r = editClaim(base({ dischargeDate: '2024-06-01', dx: [fem], pr: [femPr], sex: 1 }));
    expect(edit(r, 'SEX_CONFLICT')).toMatchObject({ count: 2, codes: [fem, femPr], positions: ['dx[0]', 'pr[0]'] });
    expect(names(editClaim(base({ dischargeDate: '2024-06-01', dx: [fem], sex: 2 })))).toEqual([]);
    expect(names(editClaim(base({ dischargeDate: '2024-06-01', dx: [fem], sex: 0 })))).toEqual(['SEX_CONFLICT', 'INVALID_SEX']);
    // the same code carries no sex flag from 2024-10-01
    expect(names(editClaim(base({ dx: [fem], sex: 1 })))).not.toContain('SEX_CONFLICT');
  });

  it('DUPLICATE_OF_PDX compares the raw strings, each duplicate counts', () => {
    const ok = codeWith('dx_master', [], FY26, [
      'unacceptable',
      'unspecified',
      'ecodepdx',
      'manifestation',
      'qadm',
      'adult',
      'maternity',
      'pediatric',
      'newborn',
      'wrngproc',
    ]);
    expect(edit(editClaim(base({ dx: [ok, ok, ok] })), 'DUPLICATE_OF_PDX')).toMatchObject({ count: 2, positions: ['dx[1]', 'dx[2]'] });
    expect(names(editClaim(base({ dx: [ok, ok.toLowerCase()] })))).not.toContain('DUPLICATE_OF_PDX');
  });
});

describe.skipIf(!present)('MCE: procedure edits', () => {
  const ok = () =>
    codeWith('dx_master', [], FY26, [
      'unacceptable',
      'unspecified',
      'ecodepdx',
      'manifestation',
      'qadm',
      'adult',
      'maternity',
      'pediatric',
      'newborn',
      'wrngproc',
      'ncov6',
      'ncov_z302',
      'diabtypeI',
      'clintrial',
    ]);

  it('length of stay: fires under 5 days (ICD-10), also for a negative stay', () => {
    const vent = codeWith('pr_master', ['los'], FY26);
    expect(names(editClaim(base({ dx: [ok()], pr: [vent], los: 4 })))).toContain('INCONSISTENT_WITH_LENGTH_OF_STAY');
    expect(names(editClaim(base({ dx: [ok()], pr: [vent], los: -1 })))).toContain('INCONSISTENT_WITH_LENGTH_OF_STAY');
    expect(names(editClaim(base({ dx: [ok()], pr: [vent], los: 5 })))).not.toContain('INCONSISTENT_WITH_LENGTH_OF_STAY');
  });

  it('non-covered rule F (age over 60) and the pancreas transplant (rule B) with its limited coverage', () => {
    const hip = codeWith('pr_master', ['ncov12agele60'], FY26);
    expect(names(editClaim(base({ dx: [ok()], pr: [hip], age: 61 })))).toContain('NON_COVERED');
    expect(names(editClaim(base({ dx: [ok()], pr: [hip], age: 60 })))).not.toContain('NON_COVERED');
    const pancreas = codeWith('pr_master', ['ncov45', 'lcov'], FY26);
    const kidney = codeWith('pr_master', ['kidneyxp'], FY26);
    const diabetes1 = codeWith('dx_master', ['diabtypeI'], FY26);
    expect(edit(editClaim(base({ dx: [ok()], pr: [pancreas] })), 'NON_COVERED')).toMatchObject({ codes: [pancreas] });
    expect(edit(editClaim(base({ dx: [ok()], pr: [pancreas, kidney] })), 'LIMITED_COVERAGE')?.codes).toContain(pancreas);
    expect(names(editClaim(base({ dx: [diabetes1], pr: [pancreas] })))).toContain('LIMITED_COVERAGE');
  });

  it('rules D and G pair a procedure with a diagnosis; C pairs two artificial-heart procedures (before 2022-04)', () => {
    const d = codeWith('dx_master', ['ncov_z302'], FY26);
    const ster = codeWith('pr_master', ['ncov_z302'], FY26);
    expect(names(editClaim(base({ dx: [d], pr: [ster], sex: 2 })))).toContain('NON_COVERED');
    expect(names(editClaim(base({ dx: [ok()], pr: [ster], sex: 2 })))).not.toContain('NON_COVERED');
    const D = '2021-06-01';
    const a = codeWith('pr_master', ['lcov_artheartxpa'], 20210601);
    const b = codeWith('pr_master', ['lcov_artheartxpb'], 20210601);
    const trial = codeWith('dx_master', ['clintrial'], 20210601);
    const plain = codeWith('dx_master', [], 20210601, [
      'unacceptable',
      'unspecified',
      'ecodepdx',
      'manifestation',
      'qadm',
      'adult',
      'maternity',
      'pediatric',
      'newborn',
      'clintrial',
      'wrngproc',
    ]);
    expect(edit(editClaim(base({ dischargeDate: D, dx: [plain], pr: [a, b] })), 'NON_COVERED')?.count).toBe(2);
    expect(edit(editClaim(base({ dischargeDate: D, dx: [plain, trial], pr: [a, b] })), 'LIMITED_COVERAGE')?.count).toBe(2);
    expect(names(editClaim(base({ dischargeDate: D, dx: [plain], pr: [a] })))).toEqual([]); // one of the pair only
  });

  it('questionable obstetric admission unless a secondary diagnosis has the delivery outcome', () => {
    const D = '2024-06-01';
    const csect = codeWith('pr_master', ['csect'], 20240601);
    const outcome = codeWith('dx_master', ['delout'], 20240601);
    const mat = codeWith('dx_master', ['maternity'], 20240601, ['delout', 'unacceptable', 'unspecified']);
    expect(names(editClaim(base({ dischargeDate: D, sex: 2, age: 30, dx: [mat], pr: [csect] })))).toContain('QUESTIONABLE_OBSTETRIC_ADMISSION');
    expect(names(editClaim(base({ dischargeDate: D, sex: 2, age: 30, dx: [mat, outcome], pr: [csect] })))).not.toContain('QUESTIONABLE_OBSTETRIC_ADMISSION');
    // an outcome code as principal diagnosis does not stop it
    expect(names(editClaim(base({ dischargeDate: D, sex: 2, age: 30, dx: [outcome], pr: [csect] })))).toContain('QUESTIONABLE_OBSTETRIC_ADMISSION');
  });
});

describe.skipIf(!present)('MCE: ICD-9 claims (postpayment edits, ICD-9 coverage rules)', () => {
  const icd9 = (D: number, over: Partial<MceClaim>) => editClaim(base({ icdVersion: 9, dischargeDate: String(D), ...over }));

  it('bilateral: two distinct bilateral procedures with a musculoskeletal principal diagnosis, counted once', () => {
    const D = 20060601;
    const mdc08 = codeWith('icd9_dx_master', ['mdc08'], D, [
      'unacceptable',
      'msp',
      'nonspecific',
      'ecodepdx',
      'manifestation',
      'qadm',
      'adult',
      'maternity',
      'pediatric',
      'newborn',
      'female',
      'male',
    ]);
    const lines = fs.readFileSync(path.join(mceDir(), 'icd9_pr_master.tsv'), 'utf8').split('\n');
    const bil = lines
      .filter(
        (l) => l.split('\t')[3]?.split(',').includes('bilateral') && Number(l.split('\t')[1]) <= D && (!l.split('\t')[2] || D <= Number(l.split('\t')[2])),
      )
      .map((l) => l.split('\t')[0]);
    const r = icd9(D, { dx: [mdc08], pr: [bil[0], bil[1]] });
    expect(edit(r, 'BILATERAL')).toMatchObject({ count: 1, codes: [bil[0], bil[1]], type: 'POSTPAYMENT' });
    expect(names(icd9(D, { dx: [mdc08], pr: [bil[0], bil[0]] }))).not.toContain('BILATERAL');
    expect(r.editType === 'POSTPAYMENT' || r.editType === 'BOTH').toBe(true);
  });

  it('open biopsy, Medicare as secondary payer and nonspecific principal diagnosis are postpayment', () => {
    const biopsy = codeWith('icd9_pr_master', ['biopsy'], 20050601);
    const msp = codeWith('icd9_dx_master', ['msp'], 20000601, ['unacceptable', 'nonspecific']);
    const nonspec = codeWith('icd9_dx_master', ['nonspecific'], 20000601, ['unacceptable', 'msp']);
    expect(edit(icd9(20050601, { dx: ['4019'], pr: [biopsy] }), 'OPEN_BIOPSY')?.type).toBe('POSTPAYMENT');
    expect(names(icd9(20000601, { dx: ['4019', msp] }))).toContain('MEDICARE_IS_SECONDARY_PAYER');
    expect(names(icd9(20000601, { dx: [nonspec] }))).toContain('NONSPECIFIC_PDX');
    expect(names(icd9(20000601, { dx: [nonspec], dischargeStatus: 20 }))).not.toContain('NONSPECIFIC_PDX');
  });

  it('LOS threshold is 4 days for ICD-9; limited-coverage variants and rule 13A', () => {
    const vent = codeWith('icd9_pr_master', ['los'], 20140601);
    expect(names(icd9(20140601, { dx: ['4019'], pr: [vent], los: 4 }))).not.toContain('INCONSISTENT_WITH_LENGTH_OF_STAY');
    expect(names(icd9(20140601, { dx: ['4019'], pr: [vent], los: 3 }))).toContain('INCONSISTENT_WITH_LENGTH_OF_STAY');
    const lvrs = codeWith('icd9_pr_master', ['lcov_lvrs'], 20140601);
    expect(names(icd9(20140601, { dx: ['4019'], pr: [lvrs] }))).toContain('LIMITED_COVERAGE_LVRS');
    const a = codeWith('icd9_pr_master', ['ncov13a'], 20140601);
    const b = codeWith('icd9_pr_master', ['ncov13b'], 20140601);
    expect(names(icd9(20140601, { dx: ['4019'], pr: [a] }))).toContain('NON_COVERED');
    expect(names(icd9(20140601, { dx: ['4019'], pr: [a, b] }))).not.toContain('NON_COVERED');
  });
});

describe.skipIf(!present)('MCE: inputs not given', () => {
  it('lists the edits that could have fired without guessing the input', () => {
    const mat = codeWith('dx_master', ['maternity'], FY26, ['female']);
    const vent = codeWith('pr_master', ['los'], FY26);
    const r = editClaim(base({ dx: [mat], pr: [vent], age: null, los: null, dischargeStatus: null }));
    expect(names(r)).not.toContain('AGE_CONFLICT');
    expect(r.notChecked).toEqual(
      expect.arrayContaining([
        { edit: 'INVALID_AGE', needs: 'age' },
        { edit: 'AGE_CONFLICT', needs: 'age' },
        { edit: 'INVALID_DISCHARGE_STATUS', needs: 'discharge_status' },
        { edit: 'INCONSISTENT_WITH_LENGTH_OF_STAY', needs: 'length_of_stay' },
      ]),
    );
    const plain = editClaim(base({ dx: [codeWith('dx_master', [], FY26, ['maternity', 'adult', 'pediatric', 'newborn'])], age: null }));
    expect(plain.notChecked.map((x) => x.edit)).not.toContain('AGE_CONFLICT');
  });
});

describe.skipIf(!present)('MCE: edit catalogue', () => {
  it('has words for every edit of edits.tsv, with its payment class', () => {
    for (const e of mceTables().edits) {
      const t = EDIT_TEXT[e.name];
      expect(t, e.name).toBeTruthy();
      expect(t.payment, e.name).toBe(e.editType === 'NONE' ? 'none' : e.editType.toLowerCase());
    }
    expect(PAYMENT_EDITS.postpayment.sort()).toEqual(['BILATERAL', 'MEDICARE_IS_SECONDARY_PAYER', 'NONSPECIFIC_OR', 'NONSPECIFIC_PDX', 'OPEN_BIOPSY']);
    expect(PAYMENT_EDITS.none).toEqual(['INVALID_ADMIT_DX']);
  });
});
