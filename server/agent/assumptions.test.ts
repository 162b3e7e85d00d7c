import { describe, expect, it } from 'vitest';
import { codeNoteDeterministic } from './deterministic';
import { CodeResolver } from './resolve';

/** When the note is silent on what decides a code, the agent says what it assumed and offers the alternatives. */
const resolver = () => new CodeResolver(null, 'v40');
const note = (proc: string) => `Diagnosis: NSTEMI\nProcedure: ${proc}\n62 year old man. Discharged day 3.`;

describe('agent assumptions (coronary stents)', () => {
  it('assumes drug-eluting and one artery when the note says neither, and lists the alternatives', async () => {
    const r = await codeNoteDeterministic(note('PCI with stenting'), resolver());
    const pr = r.procedures[0]!;
    expect(pr.code).toBe('027034Z'); // one artery, drug-eluting intraluminal device
    const about = (pr.assumptions ?? []).map((a) => a.about);
    expect(about).toEqual(['stent type', 'number of arteries treated']);
    const stent = pr.assumptions!.find((a) => a.about === 'stent type')!;
    expect(stent.alternatives.map((a) => a.code)).toEqual(['02703DZ']);
    const arteries = pr.assumptions!.find((a) => a.about === 'number of arteries treated')!;
    expect(arteries.alternatives.map((a) => a.code)).toEqual(['027135Z', '027236Z', '027337Z']) // two, three, four or more arteries with as many drug-eluting devices;
    expect(r.rationale.join(' ')).toContain('027034Z: the note does not say the stent type; assumed drug-eluting');
  });
  it('assumes nothing when the note says the stent type and the vessel', async () => {
    const r = await codeNoteDeterministic(note('PCI with one drug-eluting stent to the LAD'), resolver());
    const pr = r.procedures[0]!;
    expect(pr.code).toBe('027034Z');
    expect(pr.assumptions).toBeUndefined();
  });
  it('a bare-metal stent to two named vessels needs no assumption', async () => {
    const r = await codeNoteDeterministic(note('PCI: bare-metal stents to the LAD and to the RCA'), resolver());
    expect(r.procedures[0]!.code).toBe('02713DZ'); // two arteries, (bare-metal) intraluminal device
    expect(r.procedures[0]!.assumptions).toBeUndefined();
  });
});
