import { describe, expect, it } from 'vitest';
import { parseTabular, tabularNotes } from './index';

describe('ICD-10-CM tabular notes', () => {
  it('parses notes per level and 7th characters from the XML shape', () => {
    const xml = `<ICD10CM.tabular><chapter><section><diag><name>S72</name><desc>Fracture of femur</desc>
      <excludes1><note>traumatic amputation of hip (S78.0-)</note></excludes1>
      <sevenChrNote><note>The appropriate 7th character is to be added</note></sevenChrNote>
      <sevenChrDef><extension char="A">initial encounter for closed fracture</extension><extension char="D">subsequent encounter</extension></sevenChrDef>
      <diag><name>S72.0</name><desc>Fracture of head and neck of femur</desc><diag><name>S72.00</name><desc>Fracture of unspecified part of neck of femur</desc></diag></diag></diag></section></chapter></ICD10CM.tabular>`;
    const m = parseTabular(xml);
    expect(m.get('S72')?.notes.excludes1).toEqual(['traumatic amputation of hip (S78.0-)']);
    expect(m.get('S72')?.seventh).toEqual({ A: 'initial encounter for closed fracture', D: 'subsequent encounter' });
    expect(m.get('S7200')?.parent).toBe('S720');
  });
  it('reads I21 from the reference data (FY2017) and inherits 7th characters for S72.001A', () => {
    const i214 = tabularNotes('I21.4');
    expect(i214.source.fiscal_year).toBe(2017);
    const cat = i214.levels.find((l) => l.code === 'I21');
    expect(cat?.notes.excludes2).toContain('old myocardial infarction (I25.2)');
    expect(cat?.notes.useAdditionalCode?.length).toBeGreaterThan(0);
    const s72 = tabularNotes('S72.001A');
    expect(s72.seventh?.from).toBe('S72');
    expect(s72.seventh?.characters.A).toMatch(/initial encounter/);
    expect(tabularNotes('ZZZ99').found).toBe(false);
  });
});
