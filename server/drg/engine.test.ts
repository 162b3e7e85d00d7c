import { describe, expect, it } from 'vitest';
import { normalizeCode, parseDischargeStatus, strictCode } from './engine';
import { fixtureEngine } from '@/tests/fixtures/drg';
import type { GroupInput } from './types';

const eng = fixtureEngine();
const group = (input: Partial<GroupInput>, codes: 'strict' | 'lenient' = 'strict') => eng.group({ dx: [], sex: 'M', ...input }, { codes });

describe('grouping flow', () => {
  it('assigns a medical DRG from the principal diagnosis MDC with CC/MCC split', () => {
    expect(group({ dx: ['A010'] }).drg).toBe('105');
    expect(group({ dx: ['A020', 'C020'] }).drg).toBe('104');
    const r = group({ dx: ['A020', 'C010'] });
    expect(r).toMatchObject({ drg: '103', mdc: '06', type: 'M', med_surg: 'MEDICAL', return_code: 'OK', severity: 'MCC', severity_driver: 'C010' });
  });

  it('evaluates pre-MDC first; pre-MDC DRGs carry the principal diagnosis MDC', () => {
    const r = group({ dx: ['A010', 'C010'], pr: ['0000005'] });
    expect(r).toMatchObject({ drg: '001', mdc: '06', type: 'P' });
    expect(group({ dx: ['A010'], pr: ['0000005'] }).drg).toBe('002');
  });

  it('reroutes unrelated O.R. procedures to MDC 29 (981–989) keeping the MDC', () => {
    expect(group({ dx: ['C020', 'B020'], pr: ['0000001'] })).toMatchObject({ drg: '981', mdc: '05', type: 'P' });
    expect(group({ dx: ['C020'], pr: ['0000006'] })).toMatchObject({ drg: '989', mdc: '05' });
    expect(group({ dx: ['C020'], pr: ['0000002'] }).drg).toBe('312'); // non-O.R. procedure: medical
  });

  it('reroutes multiple significant trauma from pre-MDC to MDC 24', () => {
    const r = group({ dx: ['S010', 'S020'] });
    expect(r).toMatchObject({ drg: '965', mdc: '24' });
    // MDC 24 rows suppress other trauma codes' severity: S020's MCC does not count for 963
    expect(r.dx[1].suppressed).toBe(true);
    expect(group({ dx: ['S010', 'B020'] }).drg).toBe('210'); // one body site only: stays in MDC 21
  });

  it('lists every satisfied row of the deciding set, final DRG first', () => {
    expect(group({ dx: ['A020', 'C010'] }).all_candidates).toEqual(['103', '105']);
  });
});

describe('procedure clusters', () => {
  it('adds the cluster pseudo-code when every choice is on the claim', () => {
    const r = group({ dx: ['A010'], pr: ['0000003', '0000004'] });
    expect(r.drg).toBe('100');
    expect(r.pr[0].clusters).toEqual(['Z@0001']);
  });
  it('suppresses component attributes only in the cluster MDCs', () => {
    // Without the second component, compa counts (DRG 102); with the cluster, compa is suppressed in
    // MDC 6 but the cluster's own attributes apply.
    expect(group({ dx: ['A010'], pr: ['0000003'] }).drg).toBe('102');
    // In MDC 5 (not a suppression MDC of the cluster) the component's d468 still reroutes to 29,
    // where the cluster suppression (29) removes the component but the cluster's d468 remains.
    expect(group({ dx: ['C020'], pr: ['0000003', '0000004'] }).drg).toBe('983');
  });
});

describe('CC/MCC', () => {
  it('excludes a CC when the principal diagnosis is on its exclusion list', () => {
    const r = group({ dx: ['A010', 'B010'] });
    expect(r.drg).toBe('105');
    expect(r.dx[1]).toMatchObject({ excluded_by_pdx: true, initial_severity_flag: 'CC_EXCLUDED' });
    expect(group({ dx: ['A020', 'B010'] }).drg).toBe('104');
  });
  it('applies row severity suppression (AMI rows ignore other AMI codes)', () => {
    const r = group({ dx: ['C010', 'C010'] });
    expect(r.drg).toBe('282');
    expect(r.dx[1]).toMatchObject({ suppressed: true, final_severity_flag: 'MCC_EXCLUDED_BY_DRG_LOGIC' });
    expect(group({ dx: ['C010', 'C020'] }).drg).toBe('281');
  });
  it('counts "MCC only if discharged alive" codes only for live discharges', () => {
    expect(group({ dx: ['C020', 'B020'], alive: true }).drg).toBe('310');
    const died = group({ dx: ['C020', 'B020'], alive: false });
    expect(died.drg).toBe('312');
    expect(died.dx[1].excluded_died).toBe(true);
  });
});

describe('edits and return codes', () => {
  it('gives DRG 999 INVALID_PDX for an unknown principal diagnosis (no exception)', () => {
    expect(group({ dx: ['ZZZ9'] })).toMatchObject({ drg: '999', mdc: '00', type: null, med_surg: 'NONE', return_code: 'INVALID_PDX' });
    expect(group({ dx: [] }).return_code).toBe('INVALID_PDX');
  });
  it('rejects external-cause codes as principal diagnosis', () => {
    expect(group({ dx: ['V010', 'A010'] }).return_code).toBe('DX_CANNOT_BE_PDX');
  });
  it('chooses the MDC of sex-dependent principal diagnoses by sex', () => {
    expect(group({ dx: ['N010'], sex: 'M' })).toMatchObject({ drg: '120', mdc: '12' });
    expect(group({ dx: ['N010'], sex: 'F' })).toMatchObject({ drg: '130', mdc: '13' });
    for (const sex of ['U', '', 'X']) expect(group({ dx: ['N010'], sex }).return_code).toBe('INVALID_SEX');
    expect(group({ dx: ['A010'], sex: 'U' }).return_code).toBe('OK');
  });
  it('checks the discharge status only where it matters', () => {
    expect(group({ dx: ['P010'], dischargeStatus: '00' }).return_code).toBe('INVALID_DISCHARGE_STATUS');
    expect(group({ dx: ['A010'], dischargeStatus: 'xx' }).return_code).toBe('OK');
    expect(group({ dx: ['A010', 'B020'], dischargeStatus: '' }).return_code).toBe('INVALID_DISCHARGE_STATUS');
    expect(group({ dx: ['P010'], dischargeStatus: 20 }).drg).toBe('789');
    expect(group({ dx: ['P010'], dischargeStatus: '02' }).drg).toBe('789'); // transfer (XFRNBA)
    expect(group({ dx: ['P010'], dischargeStatus: '01' }).drg).toBe('795'); // only "incident" codes
    expect(group({ dx: ['P010', 'A010'], dischargeStatus: 1 }).drg).toBe('794');
  });
  it('parses discharge statuses', () => {
    expect(parseDischargeStatus(undefined, true)).toBe(1);
    expect(parseDischargeStatus(undefined, false)).toBe(20);
    expect(parseDischargeStatus('07', true)).toBe(7);
    expect(parseDischargeStatus(' 1', false)).toBe(1);
    for (const bad of ['00', '19', '60', '99', 'xx', '', '1a']) expect(parseDischargeStatus(bad, true)).toBe(-1);
  });
});

describe('HAC: initial vs final DRG', () => {
  it('drops a HAC code that was not present on admission from the final grouping', () => {
    const r = group({ dx: ['A020', 'H020'], poa: ['Y', 'N'] });
    expect(r).toMatchObject({ initial_drg: '103', drg: '105', hac_status: 'FINAL_DRG_CHANGES' });
    expect(r.dx[1]).toMatchObject({ hac_met: true, initial_severity_flag: 'MCC', final_severity_flag: 'NEITHER' });
  });
  it('keeps codes present on admission (Y/W) or without POA', () => {
    for (const poa of [['Y', 'Y'], ['Y', 'W'], undefined]) {
      expect(group({ dx: ['A020', 'H020'], poa }).drg).toBe('103');
    }
  });
  it('reports no change when another CC/MCC keeps the level', () => {
    expect(group({ dx: ['A020', 'H020', 'C010'], poa: ['Y', 'U', 'Y'] })).toMatchObject({ drg: '103', hac_status: 'FINAL_DRG_NO_CHANGE' });
  });
  it('makes the final DRG 999 when a HAC code has missing/invalid POA', () => {
    for (const p of ['', '1', 'Z']) {
      const r = group({ dx: ['A020', 'H020'], poa: ['Y', p] });
      expect(r).toMatchObject({ initial_drg: '103', drg: '999', return_code: 'HAC_MISSING_ONE_POA', hac_status: 'FINAL_DRG_UNGROUPABLE' });
    }
  });
  it('handles exempt and unknown hospital POA status', () => {
    expect(group({ dx: ['A020', 'H020'], poa: ['Y', 'N'], hospitalStatus: 'EXEMPT' })).toMatchObject({ drg: '103', hac_status: 'NOT_APPLICABLE' });
    // One secondary diagnosis: the HAC code's own POA decides (N/U, or invalid/1), whatever the principal's POA.
    expect(group({ dx: ['A020', 'H020'], poa: ['N', 'N'], hospitalStatus: 'UNKNOWN' }).return_code).toBe('HAC_STATUS_INVALID_POA_N_OR_U');
    expect(group({ dx: ['A020', 'H020'], poa: ['Y', 'N'], hospitalStatus: 'UNKNOWN' }).return_code).toBe('HAC_STATUS_INVALID_POA_N_OR_U');
    // Two or more secondary diagnoses: MULT, even when only the HAC code is not Y/W (CMS: I5020:Y, T80211A:N, I10:Y).
    expect(group({ dx: ['A020', 'H020', 'A010'], poa: ['Y', 'N', 'Y'], hospitalStatus: 'UNKNOWN' }).return_code).toBe(
      'HAC_STATUS_INVALID_MULT_HACS_POA_NOT_Y_W',
    );
    expect(group({ dx: ['A020', 'H020', 'A010'], poa: ['Y', '1', 'Y'], hospitalStatus: 'UNKNOWN' }).return_code).toBe(
      'HAC_STATUS_INVALID_MULT_HACS_POA_NOT_Y_W',
    );
    expect(group({ dx: ['A020', 'H020'], poa: ['Y', '1'], hospitalStatus: 'UNKNOWN' }).return_code).toBe('HAC_STATUS_INVALID_POA_INVALID_OR_1');
  });
  it('skips HAC logic after an edit error', () => {
    expect(group({ dx: ['ZZZ', 'H020'], poa: ['Y', ''] })).toMatchObject({ return_code: 'INVALID_PDX', hac_status: 'NOT_APPLICABLE' });
  });
});

describe('code normalisation', () => {
  it('lenient mode drops dots and blanks and upper-cases', () => {
    expect(normalizeCode(' a01.0 ')).toBe('A010');
    const r = group({ dx: ['a01.0', 'c01.0'] }, 'lenient');
    expect(r.drg).toBe('103');
    expect(r.warnings.some((w) => w.includes('read as A010'))).toBe(true);
  });
  it('strict mode reads codes as the CMS grouper does (upper-case only)', () => {
    expect(strictCode('a010')).toBe('A010');
    expect(group({ dx: ['a010'] }).return_code).toBe('OK');
    expect(group({ dx: ['A01.0'] }).return_code).toBe('INVALID_PDX');
    expect(group({ dx: [' A010'] }).return_code).toBe('INVALID_PDX');
    const r = group({ dx: ['A010', 'A01.0'], pr: ['00000.1'] });
    expect(r.dx[1].valid).toBe(false);
    expect(r.pr[0]).toMatchObject({ valid: false, is_or: false });
  });
  it('groupCore agrees with group', () => {
    const input = { dx: ['A020', 'H020'], poa: ['Y', 'N'], sex: 'F' };
    const core = eng.groupCore(input);
    const full = eng.group(input, { codes: 'strict' });
    expect(core).toMatchObject({ drg: Number(full.drg), mdc: Number(full.mdc), grc: full.return_code, initialDrg: Number(full.initial_drg) });
  });
});
