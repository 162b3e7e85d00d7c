import { describe, expect, it } from 'vitest';
import { groupCase } from '../drg';
import { codeNoteDeterministic } from './deterministic';
import { groupCoding } from './grouping';
import { parseFinalAnswer } from './llm';
import { CodeResolver, titleScore } from './resolve';
import { runTool } from './tools';
import { composeResponse, grouperLink } from './run';

/**
 * The deterministic engine without a database: codes are resolved from the code ranges in the CMS files (the path
 * the agent takes when no vocabulary is imported). The search-engine path is covered by tests/api/agent*.test.ts
 * and `npm run eval:agent`. Expected DRGs come from the grouper on hand-written expected codes.
 */
const resolver = () => new CodeResolver(null, 'v40');

const CAP = `HOSPITAL KUALA LUMPUR - DISCHARGE SUMMARY
Name: Tan Ah Kow    IC: 570312-10-5531
Diagnosis:
1. Community acquired pneumonia (right lower lobe)
Comorbidities: T2DM on OHA, HPT

67 year old gentleman with 4 days of fever and productive cough. Denies haemoptysis.
CXR: right lower zone consolidation. No evidence of pleural effusion.
Rule out PE — CTPA negative. Family history: mother had breast cancer.
Treated with IV augmentin. Discharged well on day 5.`;

const HF = `Diagnoses:
1. Acute on chronic systolic heart failure (HFrEF, EF 30%)
2. Hypertension
3. CKD stage 4
Madam Wong, 69F. h/o CVA 2019 with full recovery. Old MI 2015.
IV furosemide. Discharged day 7.`;

const APPX = `Diagnosis: Acute appendicitis (non-perforated)
Operation: Laparoscopic appendicectomy on 15/8/2024
21 year old male. No abscess. Past surgical history: open cholecystectomy 2010.
Plan: interval review; if recurrent pain, for colonoscopy.`;

describe('deterministic engine (offline code resolution)', () => {
  it('codes a pneumonia summary: principal from the diagnosis list, comorbidities, negation traps not coded', async () => {
    const c = await codeNoteDeterministic(CAP, resolver());
    expect(c.principal?.code).toBe('J189');
    expect(c.principal?.evidence[0]?.text).toBe('Community acquired pneumonia');
    expect(c.principal?.evidence[0]?.start).toBe(CAP.indexOf('Community acquired pneumonia'));
    expect(c.secondary.map((x) => x.code).sort()).toEqual(['E119', 'I10']);
    expect(c.procedures).toEqual([]);
    const excluded = c.excluded.map((e) => `${e.concept}:${e.reason}`);
    expect(excluded).toEqual(expect.arrayContaining(['pleural_effusion:negated', 'pulmonary_embolism:negated', 'breast_cancer:family', 'haemoptysis:negated']));
    expect(c.patient).toMatchObject({ sex: 'M', alive: true, discharge_status: 1 });
    const g = await groupCoding(c, 'v40');
    const expected = await groupCase('v40', { dx: ['J189', 'E119', 'I10'], sex: 'M', alive: true });
    expect(g?.drg).toBe(expected.drg);
    expect(c.secondary.every((s) => s.cc_mcc === null)).toBe(true);
  });

  it('applies the hypertension + heart failure + CKD combination and codes history as status codes', async () => {
    const c = await codeNoteDeterministic(HF, resolver());
    expect(c.principal?.code).toBe('I130');
    expect(c.principal?.rule).toMatch(/presumed linked/);
    const sdx = c.secondary.map((x) => x.code);
    expect(sdx.slice(0, 2).sort()).toEqual(['I5023', 'N184']);
    expect(sdx).toEqual(expect.arrayContaining(['Z8673', 'I252']));
    expect(sdx).not.toContain('I10');
    const g = await groupCoding(c, 'v40');
    expect(g?.mdc).toBe('05');
    expect(c.secondary.find((x) => x.code === 'I5023')?.cc_mcc).toBe('MCC');
    expect(g?.severity).toBe('MCC');
  });

  it('codes a performed procedure, not the past one or the planned one', async () => {
    const c = await codeNoteDeterministic(APPX, resolver());
    expect(c.principal?.code).toBe('K3580');
    expect(c.procedures.map((p) => p.code)).toEqual(['0DTJ4ZZ']);
    expect(c.excluded.find((e) => e.concept === 'cholecystectomy')?.reason).toBe('history');
    expect(c.excluded.find((e) => e.concept === 'abscess')?.reason).toBe('negated');
    const g = await groupCoding(c, 'v40');
    expect(g?.type).toBe('P');
    expect(c.procedures[0]!.is_or).toBe(true);
    expect(grouperLink(c)).toBe('/grouper?dx=K35.80&pr=0DTJ4ZZ');
  });

  it('answers with no principal diagnosis when nothing codable is written', async () => {
    const c = await codeNoteDeterministic('No fever, no cough. Denies chest pain. Well.', resolver());
    expect(c.principal).toBeNull();
    expect(await groupCoding(c, 'v40')).toBeNull();
    expect(composeResponse(c, null, 'deterministic', null)).toMatch(/No codable diagnosis/);
  });
});

describe('code resolution scoring', () => {
  it('prefers the title that says what the query says', () => {
    const q = 'pneumonia, unspecified organism';
    expect(titleScore(q, 'Pneumonia, unspecified organism', null)).toBeGreaterThan(titleScore(q, 'Lobar pneumonia, unspecified organism', null));
    const p = 'Drainage of Right Pleural Cavity with Drainage Device, Percutaneous Approach';
    expect(titleScore(p, 'Drainage of Right Pleural Cavity with Drainage Device, Percutaneous Approach', 7)).toBeGreaterThan(
      titleScore(p, 'Drainage of Right Pleural Cavity with Drainage Device, Percutaneous Endoscopic Approach', 7.5),
    );
  });
});

describe('LLM engine pieces', () => {
  it('reads the final JSON answer, bare or fenced', () => {
    const a = parseFinalAnswer(
      'Here you go:\n```json\n{"principal": {"code": "J18.9", "evidence": "CAP"}, "secondary": ["E11.9"], "procedures": [], "sex": "M", "alive": true, "rationale": "CAP."}\n```',
    );
    expect(a).toMatchObject({ principal: { code: 'J18.9', evidence: 'CAP' }, secondary: [{ code: 'E11.9' }], sex: 'M', alive: true });
    expect(parseFinalAnswer('I think it is pneumonia.')).toBeNull();
    expect(parseFinalAnswer('{"foo": 1}')).toBeNull();
  });

  it('tools answer from our cores and report bad arguments as data', async () => {
    const ctx = { resolver: resolver(), version: 'v40' };
    expect(JSON.parse(await runTool('lookup_code', '{"code":"I21"}', ctx))).toMatchObject({ code: 'I21', valid: false, billable: false });
    expect(JSON.parse(await runTool('lookup_code', '{"code":"i21.4"}', ctx))).toMatchObject({ code: 'I21.4', kind: 'dx', valid: true, billable: true });
    const drg = JSON.parse(await runTool('classify_drg', '{"dx_codes":["I21.4","I50.21"],"pr_codes":["027034Z"],"sex":"M"}', ctx)) as {
      drg: string;
      diagnoses: Array<{ code: string; cc_mcc: string | null }>;
    };
    const expected = await groupCase('v40', { dx: ['I214', 'I5021'], pr: ['027034Z'], sex: 'M' });
    expect(drg.drg).toBe(expected.drg);
    expect(drg.diagnoses[1]).toMatchObject({ code: 'I50.21', cc_mcc: 'MCC' });
    const search = JSON.parse(await runTool('search_concepts', '{"query":"acute appendicitis","kind":"dx"}', ctx)) as { results: Array<{ code: string }> };
    expect(search.results.map((r) => r.code)).toContain('K35.80');
    expect(JSON.parse(await runTool('classify_drg', '{"dx_codes":[]}', ctx)).error).toMatch(/dx_codes/);
    expect(JSON.parse(await runTool('lookup_code', 'not json', ctx)).error).toMatch(/not valid JSON/);
    expect(JSON.parse(await runTool('drop_tables', '{}', ctx)).error).toMatch(/unknown tool/);
  });
});
