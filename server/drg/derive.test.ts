import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { closestRelative, deriveFromBase, familyOf, manualDir, parseAppendixA, parseAppendixFJ, readManual, type DeriveReport } from './derive';
import { compileTables } from './compile';
import { GrouperEngine } from './engine';
import { fixtureTables } from '@/tests/fixtures/drg';

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
    // DRG 101 is not in this version's Appendix A (and no family of it is): its rows stay as ghosts that never assign
    expect(derived.formulas.some((r) => r.drg === 101 && !r.ghost)).toBe(false);
    expect(derived.formulas.some((r) => r.drg === 101 && r.ghost)).toBe(true);
    expect(derived.drgs.find((d) => d.drg === 100)?.title).toBe('OLD 100');
    const eng = new GrouperEngine(
      compileTables(derived, { version: 'v98', fiscalYear: 'FY2098', fidelity: 'derived', sourceKey: 'x', invalidPrIsOr: true, notes: [] }),
    );
    expect(eng.group({ dx: ['A020', 'B011'], sex: 'M' }).return_code).toBe('INVALID_PDX'); // A020 not in the code file
    expect(eng.group({ dx: ['A010', 'C010'], sex: 'M' }).drg).toBe('103');
    // B011 inherits B010's CC-exclusion links: A010 excludes it as it excludes B010
    expect(eng.group({ dx: ['A010', 'B011'], sex: 'M' }).drg).toBe('105');
    // every MDC 5 DRG of the fixture is missing from this Appendix A: nothing can match
    expect(eng.group({ dx: ['C010'], sex: 'M' }).return_code).toBe('UNGROUPABLE');
  });
});

describe('derived DRGs the base version does not have', () => {
  it('reads the family and severity split of a DRG title', () => {
    expect(familyOf('MAJOR HEAD AND NECK PROCEDURES WITH CC/MCC OR MAJOR DEVICE')).toEqual({
      family: 'MAJOR HEAD AND NECK PROCEDURES',
      split: 'CC_MCC',
      rest: 'OR MAJOR DEVICE',
    });
    expect(familyOf('Major head and neck procedures without CC/MCC')).toEqual({ family: 'MAJOR HEAD AND NECK PROCEDURES', split: 'NONE', rest: '' });
    expect(familyOf('Other disorders of the eye without MCC').split).toBe('NOT_MCC');
    expect(familyOf('SALIVARY GLAND PROCEDURES')).toEqual({ family: 'SALIVARY GLAND PROCEDURES', split: null, rest: '' });
  });

  it("carries a base family over to the version's DRGs of that family, keeps the others as ghosts, and names what it cannot produce", () => {
    const base = fixtureTables();
    const titles: Record<number, string> = {
      100: 'BIG OPERATION WITH MCC',
      101: 'BIG OPERATION WITH CC',
      102: 'BIG OPERATION WITHOUT CC/MCC',
      103: 'OTHER WITH MCC',
      104: 'OTHER WITH CC',
      105: 'OTHER WITHOUT CC/MCC',
    };
    base.drgs = base.drgs.map((d) => ({ ...d, title: titles[d.drg] ?? d.title }));
    for (const d of Object.keys(titles).map(Number))
      if (!base.drgs.some((x) => x.drg === d)) base.drgs.push({ drg: d, type: 'SURGICAL', formulaMdcs: [6], baseDrg: d, title: titles[d]! });
    // The old version: one "big operation" pair split CC/MCC vs none, no "other" DRGs, and a DRG 107 nobody can produce.
    const others = [...new Set(base.formulas.map((r) => r.drg))].filter((d) => d > 0 && !(d >= 100 && d <= 105));
    const old = [
      ...others.map((d) => ({ drg: d, mdc: 6, type: 'P' as const, title: `KEPT ${d}` })),
      { drg: 90, mdc: 6, type: 'P' as const, title: 'BIG OPERATION WITH CC/MCC OR MAJOR DEVICE' },
      { drg: 91, mdc: 6, type: 'P' as const, title: 'BIG OPERATION WITHOUT CC/MCC' },
      { drg: 107, mdc: 6, type: 'P' as const, title: 'LOST OPERATION' },
    ];
    const manual = {
      drgs: old,
      nonExtensiveOr: new Set<string>(),
      cc: new Set(['B010']),
      mcc: new Set(['C010', 'B020']),
      mccAlive: new Set<string>(),
      hacDx: new Map(),
      hacPr: new Map(),
    };
    const report: Partial<DeriveReport> = {};
    const derived = deriveFromBase(
      base,
      manual,
      { dx: base.dx.map((d) => d.code), pr: base.pr.filter((p) => !p.code.startsWith('Z@')).map((p) => p.code) },
      report,
    );
    expect(report.mapped).toEqual([
      [100, 90],
      [101, 90],
      [102, 91],
    ]);
    expect(report.ghosts).toEqual([103, 104, 105]);
    expect(report.unproducible).toEqual([107]);
    expect(report.fidelityNote).toMatch(/cannot produce DRG 107 \(lost operation\)/);
    expect(report.fidelityNote).toMatch(/DRGs 090-091 take the base version's logic of DRGs 100-102/);
    expect(report.fidelityNote).toMatch(/"or major device"/);
    expect(report.fidelityNote).toMatch(/DRGs 103-105 \(other\) do not exist in this version/);
    const eng = new GrouperEngine(
      compileTables(derived, {
        version: 'v97',
        fiscalYear: 'FY2097',
        fidelity: 'derived',
        sourceKey: 'x',
        invalidPrIsOr: true,
        notes: ['derived from v99 tables'],
        fidelityNote: report.fidelityNote,
      }),
    );
    // compa (DRG 102 in the base) → 91; with an MCC (100 in the base) → 90
    const plain = eng.group({ dx: ['A010'], pr: ['0000003'], sex: 'M' });
    expect(plain.drg).toBe('091');
    expect(plain.warnings.join(' ')).toMatch(/DRG 091 comes from 102/);
    expect(plain.fidelity_note).toBe(report.fidelityNote);
    // a case the base sends to 103 (a ghost here) falls through, and says so
    const ghost = eng.group({ dx: ['A020', 'C010'], sex: 'M' });
    expect(ghost.drg).not.toBe('103');
    expect(ghost.warnings.join(' ')).toMatch(/in v99's logic this case goes to DRG 103, which v97 does not have/);
    expect(eng.groupCore({ dx: ['A020', 'C010'], sex: 'M' }).ghostDrg).toBe(103);
  });

  it.skipIf(!fs.existsSync(path.join(manualDir('v37'), 'appendix_A.txt')))(
    'v37: A69.0 with a head lymphatic resection (07T00ZZ) is DRG 130; DRGs 131-132 are named as not producible',
    async () => {
      const { getGrouper } = await import('./index');
      const g = await getGrouper('v37');
      const r = g.group({ dx: ['A690'], pr: ['07T00ZZ'], sex: 'M' });
      expect(r.drg).toBe('130');
      expect(r.description).toBe('MAJOR HEAD AND NECK PROCEDURES WITHOUT CC/MCC');
      expect(g.group({ dx: ['A690', 'J9601'], pr: ['07T00ZZ'], sex: 'M' }).drg).toBe('129');
      expect(r.fidelity_note).toMatch(/cannot produce DRGs 131-132 \(cranial and facial procedures\)/);
      // hip replacement for a hip fracture: v39.1's DRG 521 does not exist in v37 – grouped further down, and said so
      const hip = g.group({ dx: ['S72001A', 'J9601'], pr: ['0SR9019'], sex: 'F' });
      expect(hip.drg).toBe('469');
      expect(hip.warnings.join(' ')).toMatch(/goes to DRG 521, which v37 does not have/);
      expect((await getGrouper('v40')).fidelity_note).toBeNull();
    },
  );
});
