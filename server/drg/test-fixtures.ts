/**
 * A tiny, hand-made version of the grouper tables for unit tests: every mechanism (pre-MDC,
 * reroutes, clusters, CC exclusion, severity suppression, sex MDCs, discharge status, HAC) with a
 * handful of codes. Not used at run time.
 */
import { compileTables } from './compile';
import { GrouperEngine } from './engine';
import type { RawDx, RawFormulaRow, RawPr, RawTables } from './tables';

function dx(code: string, mdc: number, severity: RawDx['severity'], extra: Partial<RawDx> = {}): RawDx {
  return { code, mdc, severity, exclGroup: -1, attributes: [], dxcat: [], hacAttributes: [], sexMdc: null, ...extra };
}
function pr(code: string, attributes: string[], isOr = attributes.includes('d468') || attributes.includes('d477')): RawPr {
  return { code, isOr, attributes, hacAttributes: attributes.filter((a) => /^hac\d+_proc$/.test(a)) };
}
function row(mdc: number, rank: number, drg: number, surgical: RawFormulaRow['surgical'], formula: string, extra: Partial<RawFormulaRow> = {}): RawFormulaRow {
  return { mdc, rank, drg, baseDrg: drg, surgical, rerouteMdc: 0, drgSeverity: 0, severitySuppression: [], formula, ...extra };
}

export function fixtureTables(): RawTables {
  return {
    dx: [
      dx('A010', 6, 'NCC', { exclGroup: 1, dxcat: ['dxc0601'] }), // digestive PDX; its CC-exclusion list 1 holds B010
      dx('A020', 6, 'NCC', { dxcat: ['dxc0601'], attributes: ['incident'] }),
      dx('B010', 6, 'CC', { dxcat: ['dxc0601'] }),
      dx('B020', 5, 'MCC', { attributes: ['mccalive'], dxcat: ['dxc0501'] }),
      dx('C010', 5, 'MCC', { attributes: ['ami'], dxcat: ['dxc0501'] }),
      dx('C020', 5, 'CC', { dxcat: ['dxc0501'] }),
      dx('S010', 21, 'CC', { attributes: ['strauma', 'sthead'], dxcat: ['dxc2101'] }),
      dx('S020', 21, 'MCC', { attributes: ['strauma', 'stchest'], dxcat: ['dxc2101'] }),
      dx('N010', 12, 'NCC', { sexMdc: { M: 12, F: 13 }, dxcat: ['dxc1201', 'dxc1301'] }),
      dx('H010', 21, 'CC', { hacAttributes: ['HAC05'], dxcat: ['dxc2101'] }),
      dx('H020', 21, 'MCC', { hacAttributes: ['HAC05'], dxcat: ['dxc2101'] }),
      dx('P010', 15, 'NCC', { attributes: ['incident'], dxcat: ['dxc1501'] }),
      dx('V010', 0, 'NCC', { attributes: ['ecode'] }),
    ],
    pr: [
      pr('0000001', ['d468', 'majorx']),
      pr('0000002', ['minorx']),
      pr('0000003', ['compa', 'd468']),
      pr('0000004', ['compb']),
      pr('0000005', ['heartx', 'd468']),
      pr('0000006', ['d477']),
      pr('Z@0001', ['clus', 'd468']),
    ],
    clusters: [{ id: 'Z@0001', suppressionMdcs: [6, 29], choices: [['0000003'], ['0000004']] }],
    ccExclusions: new Map([[1, ['B010']]]),
    formulas: [
      row(0, 1, 0, 'NA', 'SDX:mccalive & INVALID_DSTAT'),
      row(0, 2, 0, 'NA', 'INVALID_PDX'),
      row(0, 3, 0, 'NA', 'PDX_ECODE'),
      row(0, 4, 1, 'SURGICAL', 'heartx & MCC'),
      row(0, 5, 2, 'SURGICAL', 'heartx'),
      row(0, 6, 0, 'NA', 'PDX:strauma & MULTST', { rerouteMdc: 24 }),
      row(0, 7, 0, 'NA', 'INVALID_SEX'),
      row(0, 8, 0, 'NA', 'MDC00'),
      row(5, 1, 0, 'NA', '(d468 | d477)', { rerouteMdc: 29 }),
      row(5, 2, 280, 'MEDICAL', 'ALIVE & MCC & ANY:ami', { severitySuppression: ['ami'] }),
      row(5, 3, 281, 'MEDICAL', 'ALIVE & CC & ANY:ami', { severitySuppression: ['ami'] }),
      row(5, 4, 282, 'MEDICAL', 'ALIVE & ANY:ami', { severitySuppression: ['ami'] }),
      row(5, 5, 283, 'MEDICAL', 'ANY:ami'),
      row(5, 6, 310, 'MEDICAL', 'MCC'),
      row(5, 7, 311, 'MEDICAL', 'CC'),
      row(5, 8, 312, 'MEDICAL', 'ANYDX'),
      row(6, 1, 100, 'SURGICAL', 'clus'),
      row(6, 2, 101, 'SURGICAL', 'compa & MCC'),
      row(6, 3, 102, 'SURGICAL', 'compa'),
      row(6, 4, 0, 'NA', '(d468 | d477)', { rerouteMdc: 29 }),
      row(6, 5, 103, 'MEDICAL', 'MCC & PDX:dxc0601'),
      row(6, 6, 104, 'MEDICAL', 'CC & PDX:dxc0601'),
      row(6, 7, 105, 'MEDICAL', 'PDX:dxc0601'),
      row(12, 1, 120, 'MEDICAL', 'ANYDX'),
      row(13, 1, 130, 'MEDICAL', 'ANYDX'),
      row(15, 1, 0, 'NA', 'INVALID_DSTAT'),
      row(15, 2, 789, 'MEDICAL', '(DIED | XFRNBA)'),
      row(15, 3, 795, 'MEDICAL', 'ONLY:incident'),
      row(15, 4, 794, 'MEDICAL', 'ANYDX'),
      row(21, 1, 0, 'NA', '(d468 | d477)', { rerouteMdc: 29 }),
      row(21, 2, 210, 'MEDICAL', 'MCC & PDX:dxc2101'),
      row(21, 3, 211, 'MEDICAL', 'PDX:dxc2101'),
      row(24, 1, 0, 'NA', '(d468 | d477)', { rerouteMdc: 29 }),
      row(24, 2, 963, 'MEDICAL', 'PDX:strauma & MCC', { severitySuppression: ['strauma'] }),
      row(24, 3, 965, 'MEDICAL', 'PDX:strauma & MULTST', { severitySuppression: ['strauma'] }),
      row(29, 1, 981, 'SURGICAL', 'MCC & d468'),
      row(29, 2, 982, 'SURGICAL', 'CC & d468'),
      row(29, 3, 983, 'SURGICAL', 'd468'),
      row(29, 4, 987, 'SURGICAL', 'MCC & d477'),
      row(29, 5, 989, 'SURGICAL', 'd477'),
      row(99, 1, 999, 'NA', '(ANYDX) & (ERRORDRG)'),
    ],
    drgs: [],
    mdcs: new Map([
      [0, 'Pre-MDC'],
      [5, 'Circulatory'],
      [6, 'Digestive'],
      [12, 'Male'],
      [13, 'Female'],
      [15, 'Newborns'],
      [21, 'Injuries'],
      [24, 'Multiple significant trauma'],
    ]),
    hacFormulas: [{ hac: 5, title: 'Falls and trauma', formula: 'SDX:HAC05' }],
    hacCodes: new Map([
      ['H010', ['HAC05']],
      ['H020', ['HAC05']],
    ]),
  };
}

export function fixtureEngine(version = 'v99'): GrouperEngine {
  const t = compileTables(fixtureTables(), {
    version,
    fiscalYear: 'FY2099',
    fidelity: 'exact',
    sourceKey: 'fixture',
    invalidPrIsOr: false,
    notes: [],
  });
  return new GrouperEngine(t);
}
