import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { closestRelative, deriveFromBase, manualDir, parseAppendixA, parseAppendixFJ, readManual } from './derive';
import { compileTables } from './compile';
import { GrouperEngine } from './engine';
import { fixtureTables } from './test-fixtures';

describe('Definitions Manual appendices', () => {
  it('parses Appendix A rows', () => {
    const rows = parseAppendixA('001     P  HEART TRANSPLANT WITH MCC\r\n020 01  P  INTRACRANIAL VASCULAR\r\n998        PRINCIPAL DIAGNOSIS INVALID\r\n');
    expect(rows).toEqual([
      { drg: 1, mdc: null, type: 'P', title: 'HEART TRANSPLANT WITH MCC' },
      { drg: 20, mdc: 1, type: 'P', title: 'INTRACRANIAL VASCULAR' },
      { drg: 998, mdc: null, type: null, title: 'PRINCIPAL DIAGNOSIS INVALID' },
    ]);
  });

  it('parses Appendices F–I', () => {
    const text = [
      '|   Appendix F Unrelated Operating Room Procedures (MS-DRGs 981-989)   |',
      '  00BF0ZZ Excision of Olfactory Nerve, Open Approach',
      '|    Appendix G Diagnoses Defined as Complications or Comorbidities    |',
      '  A000    Cholera due to Vibrio cholerae 01, biovar cholerae',
      '| Appendix H Diagnoses Defined as Major Complications or Comorbidities |',
      '  A021    Salmonella sepsis',
      'Appendix H Part 2: Codes that are Major CC only if patient discharged alive',
      '  I462  Cardiac arrest due to underlying cardiac condition',
      '|         Appendix I Hospital Acquired Conditions (HACS) List          |',
      'HAC 05: FALLS AND TRAUMA',
      'SECONDARY DIAGNOSIS',
      '  S0000XA CC  Unspecified superficial injury of scalp, initial encounter',
      'HAC 06: CATHETER-ASSOCIATED URINARY TRACT INFECTION (UTI)',
      'SECONDARY DIAGNOSIS',
      '  T83511A CC  Infection due to indwelling urethral catheter, initial encounter',
      'IN ADDITION, MARK THE FOLLOWING SECONDARY DIAGNOSIS CODES IF THEY ARE PRESENT ON THE CLAIM',
      '  N390  CC  Urinary tract infection, site not specified',
      'HAC 08: SURGICAL SITE INFECTION-MEDIASTINITIS AFTER CORONARY BYPASS GRAFT (CABG)',
      'PROCEDURES',
      '  0210083 Bypass Coronary Artery, One Artery from Coronary Artery with Zooplastic Tissue, Open Approach',
      'NON-OPERATING ROOM PROCEDURES',
      '02H43JZ* Insertion of Pacemaker Lead into Coronary Vein, Percutaneous Approach',
      'AND',
      'SECONDARY DIAGNOSIS',
      '  J9851 MCC Mediastinitis',
    ].join('\n');
    const m = parseAppendixFJ(text);
    expect([...m.nonExtensiveOr]).toEqual(['00BF0ZZ']);
    expect([...m.cc]).toEqual(['A000']);
    expect([...m.mcc].sort()).toEqual(['A021', 'I462']);
    expect([...m.mccAlive]).toEqual(['I462']);
    expect([...(m.hacDx.get('S0000XA') ?? [])]).toEqual(['HAC05']);
    expect([...(m.hacDx.get('T83511A') ?? [])]).toEqual(['hac06_sdx']);
    expect([...(m.hacDx.get('N390') ?? [])]).toEqual(['hac06_show']);
    expect([...(m.hacDx.get('J9851') ?? [])]).toEqual(['HAC08']);
    expect([...(m.hacPr.get('0210083') ?? [])]).toEqual(['hac08_proc']);
    expect([...(m.hacPr.get('02H43JZ') ?? [])]).toEqual(['hac08_proc']);
  });

  it.skipIf(!fs.existsSync(path.join(manualDir('v38'), 'appendix_A.txt')))('reads a real manual (v38)', () => {
    const m = readManual('v38');
    expect(m.drgs.length).toBeGreaterThan(700);
    expect(m.mccAlive.has('I469')).toBe(true);
    expect(m.cc.size).toBeGreaterThan(10000);
    expect(m.nonExtensiveOr.size).toBeGreaterThan(5000);
  });
});

describe('derivation', () => {
  it('finds the closest relative by longest common prefix', () => {
    const sorted = ['A000', 'A001', 'A009', 'B200', 'S72001A', 'S72001B'];
    expect(closestRelative(sorted, 'A002')).toBe('A001');
    expect(closestRelative(sorted, 'S72001C')).toBe('S72001B');
    expect(closestRelative(sorted, 'B2')).toBe('B200');
  });

  it('applies code validity, CC/MCC lists, mccalive, O.R. lists and the DRG list', () => {
    const base = fixtureTables();
    base.drgs = [100, 101, 102, 103, 104, 105, 981, 982, 983].map((d) => ({ drg: d, type: 'SURGICAL', formulaMdcs: [6], baseDrg: d, title: `DRG ${d}` }));
    const manual = {
      drgs: [100, 102, 103, 104, 105, 981, 982, 983, 989].map((d) => ({ drg: d, mdc: 6, type: 'P' as const, title: `OLD ${d}` })),
      nonExtensiveOr: new Set(['0000001']),
      cc: new Set(['B010', 'B011']),
      mcc: new Set(['C010', 'B020']),
      mccAlive: new Set<string>(),
      hacDx: new Map([['B011', new Set(['HAC05'])]]),
      hacPr: new Map<string, Set<string>>(),
    };
    const derived = deriveFromBase(base, manual, { dx: ['A010', 'B010', 'B011', 'B020', 'C010'], pr: ['0000001', '0000003', '0000004'] });
    const byCode = new Map(derived.dx.map((d) => [d.code, d]));
    expect(byCode.has('C020')).toBe(false); // not in the year's code file
    expect(byCode.get('B011')).toMatchObject({ mdc: 6, severity: 'CC', hacAttributes: ['HAC05'] }); // new code: from relative B010
    expect(byCode.get('B020')?.attributes).not.toContain('mccalive');
    expect(derived.pr.find((p) => p.code === '0000001')?.attributes).toContain('d477');
    expect(derived.formulas.some((r) => r.drg === 101)).toBe(false); // not in this version's Appendix A
    expect(derived.drgs.find((d) => d.drg === 100)?.title).toBe('OLD 100');
    const eng = new GrouperEngine(compileTables(derived, { version: 'v98', fiscalYear: 'FY2098', fidelity: 'derived', sourceKey: 'x', invalidPrIsOr: true, notes: [] }));
    expect(eng.group({ dx: ['A020', 'B011'], sex: 'M' }).return_code).toBe('INVALID_PDX'); // A020 not in the code file
    expect(eng.group({ dx: ['A010', 'C010'], sex: 'M' }).drg).toBe('103');
    // B011 inherits B010's CC-exclusion links: A010 excludes it as it excludes B010
    expect(eng.group({ dx: ['A010', 'B011'], sex: 'M' }).drg).toBe('105');
    // every MDC 5 DRG of the fixture is missing from this Appendix A: nothing can match
    expect(eng.group({ dx: ['C010'], sex: 'M' }).return_code).toBe('UNGROUPABLE');
  });
});
