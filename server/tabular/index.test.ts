import { describe, expect, it } from 'vitest';
import { parseTabular, parseTabularDocument, tabularDocument, tabularNotes } from './index';

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
  it('parses chapter and section notes and hands them down to every code under them', () => {
    const xml = `<ICD10CM.tabular><chapter><name>9</name><desc>Diseases of the circulatory system (I00-I99)</desc>
      <excludes2><note>certain conditions originating in the perinatal period (P04-P96)</note></excludes2>
      <sectionIndex><sectionRef first="I20" last="I25" id="I20-I25">Ischemic heart diseases</sectionRef></sectionIndex>
      <section id="I20-I25"><desc>Ischemic heart diseases (I20-I25)</desc>
        <useAdditionalCode><note>code to identify presence of hypertension (I10-I16)</note></useAdditionalCode>
        <diag><name>I21</name><desc>Acute myocardial infarction</desc><diag><name>I21.4</name><desc>NSTEMI</desc></diag></diag>
      </section>
      <section id="I26-I28"><desc>Pulmonary heart disease (I26-I28)</desc><diag><name>I26</name><desc>Pulmonary embolism</desc></diag></section></chapter></ICD10CM.tabular>`;
    const d = parseTabularDocument(xml);
    expect(d.chapters.get('9')).toEqual({
      code: 'I00-I99',
      desc: 'Diseases of the circulatory system (I00-I99)',
      notes: { excludes2: ['certain conditions originating in the perinatal period (P04-P96)'] },
    });
    expect(d.sections.get('I20-I25')?.notes).toEqual({ useAdditionalCode: ['code to identify presence of hypertension (I10-I16)'] });
    expect(d.sections.get('I20-I25')?.chapter).toBe('9');
    expect(d.sections.get('I26-I28')?.notes).toEqual({});
    expect(d.sectionOf.get('I21')).toBe('I20-I25');
    expect(d.sectionOf.get('I26')).toBe('I26-I28');
    // the section's note is not taken as the category's, nor the chapter's as the section's
    expect(d.codes.get('I21')?.notes).toEqual({});
    expect(d.codes.get('I214')?.parent).toBe('I21');
  });
  it('finds every chapter and section of the FY2017 tabular and the notes at those levels', () => {
    const d = tabularDocument()!;
    expect(d.chapters.size).toBe(21);
    expect(d.sections.size).toBe(295);
    const withNotes = (m: Map<string, { notes: object }>) => [...m.values()].filter((g) => Object.keys(g.notes).length).length;
    expect(withNotes(d.chapters)).toBe(21);
    expect(withNotes(d.sections)).toBe(129);
    const count = (m: Map<string, { notes: Record<string, string[] | undefined> }>) =>
      [...m.values()].reduce((n, g) => n + Object.values(g.notes).reduce((k, v) => k + (v?.length ?? 0), 0), 0);
    expect(count(d.chapters)).toBe(164);
    expect(count(d.sections)).toBe(574);
    // every category sits in exactly one section, and each section in a chapter that exists
    for (const [cat, sec] of d.sectionOf) {
      expect(d.sections.has(sec), cat).toBe(true);
      expect(d.chapters.has(d.sections.get(sec)!.chapter), sec).toBe(true);
    }
    expect(d.sectionOf.get('I21')).toBe('I20-I25');
    expect(d.sectionOf.get('S72')).toBe('S70-S79');
  });
  it('a leaf code inherits its chapter and section notes, labelled by level, chapter first', () => {
    const s = tabularNotes('S72.001A');
    expect(s.levels.map((l) => l.level)).toEqual(['chapter', 'section', 'category', 'subcategory', 'subcategory', 'code']);
    const chapter = s.levels[0]!;
    expect(chapter.code).toBe('S00-T88');
    expect(chapter.desc).toMatch(/^Chapter 19: Injury, poisoning/);
    expect(chapter.notes.useAdditionalCode).toEqual(['code to identify any retained foreign body, if applicable (Z18.-)']);
    expect(chapter.notes.notes?.[0]).toMatch(/^Use secondary code\(s\) from Chapter 20/);
    expect(s.levels[1]!.code).toBe('S70-S79');
    const i214 = tabularNotes('I214');
    expect(i214.levels.find((l) => l.level === 'section')?.notes.useAdditionalCode).toEqual(['code to identify presence of hypertension (I10-I16)']);
    expect(i214.levels.find((l) => l.level === 'chapter')?.code).toBe('I00-I99');
    // a section without notes is not listed; the chapter still is
    const a000 = tabularNotes('A00.0');
    expect(a000.levels.map((l) => [l.level, l.code])).toEqual([
      ['chapter', 'A00-B99'],
      ['code', 'A000'],
    ]);
    expect(a000.levels[0]!.notes.useAdditionalCode).toEqual(['code to identify resistance to antimicrobial drugs (Z16.-)']);
  });
});
