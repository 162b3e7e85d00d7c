import { describe, expect, it } from 'vitest';
import { codeNoteDeterministic } from './deterministic';
import { CodeResolver } from './resolve';
import { lookupCode } from '../drg';
import { codeTitles } from '../drg/codes';
import { versionSpec } from '../drg/versions';
import { codeAssumptions, evidenceContext, PCS_APPROACH } from './assumptions';

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
    expect(arteries.alternatives.map((a) => a.code)).toEqual(['027135Z', '027236Z', '027337Z']); // two, three, four or more arteries with as many drug-eluting devices;
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

/* ---------------- table-driven assumptions, any code, either engine ---------------- */

/** Words that state every axis: with them nothing may be assumed. */
const STATES_ALL = 'right, acute, type 2, open, initial encounter';

function billable(
  version: string,
  kind: 'dx' | 'pr',
  every: number,
  filter: (code: string, title: string) => boolean = () => true,
): Array<{ code: string; title: string }> {
  const t = codeTitles(versionSpec(version).codeYear, kind)!;
  const out: Array<{ code: string; title: string }> = [];
  let n = 0;
  for (let i = 0; i < t.codes.length; i++) {
    if (!t.billable[i] || !filter(t.codes[i]!, t.titles[i]!)) continue;
    if (n++ % every === 0) out.push({ code: t.codes[i]!, title: t.titles[i]! });
  }
  return out;
}

const sideKey = (title: string) => title.toLowerCase().replace(/\b(?:right|left|bilateral|unspecified)\b/g, '§');

describe('table-driven assumptions over the code tables', () => {
  it('every alternative of thousands of codes is a valid, billable code of the version that differs only on its axis; stated axes are never assumed', async () => {
    const tally: Record<string, number> = {};
    for (const version of ['v40', 'v43']) {
      const sample = [
        ...billable(version, 'dx', version === 'v40' ? 23 : 97).map((x) => ({ ...x, kind: 'dx' as const })),
        ...billable(version, 'pr', version === 'v40' ? 61 : 241).map((x) => ({ ...x, kind: 'pr' as const })),
      ];
      expect(sample.length).toBeGreaterThan(version === 'v40' ? 4000 : 1000);
      for (const { code, title, kind } of sample) {
        const got = await codeAssumptions(version, code, kind, 'the condition was treated');
        for (const a of got) {
          tally[`${version}:${a.about}`] = (tally[`${version}:${a.about}`] ?? 0) + 1;
          const codes = a.alternatives.map((x) => x.code);
          expect(new Set(codes).size, `${code} ${a.about}`).toBe(codes.length);
          for (const alt of a.alternatives) {
            const info = await lookupCode(version, alt.code);
            expect(info.valid && info.billable && info.kind === kind, `${version} ${code} → ${alt.code} (${a.about})`).toBe(true);
            expect(alt.title).toBe(info.title);
            expect(alt.code).not.toBe(code);
            expect(alt.code).toHaveLength(code.length);
            const diff = [...code].map((ch, i) => (ch === alt.code[i] ? -1 : i)).filter((i) => i >= 0);
            if (a.about === 'side (laterality)' || a.about === 'acute or chronic') expect(alt.code.slice(0, 3)).toBe(code.slice(0, 3));
            if (a.about === 'side (laterality)') expect(sideKey(alt.title), `${code} → ${alt.code}`).toBe(sideKey(title));
            if (a.about === 'surgical approach') expect(diff).toEqual([4]);
            if (a.about === 'encounter (7th character)' || a.about === 'open or closed fracture') expect(diff).toEqual([6]);
            if (a.about === 'type of diabetes') {
              expect(code.slice(0, 3)).toBe('E11');
              expect(['E10', 'E13']).toContain(alt.code.slice(0, 3));
              expect(alt.code.slice(3)).toBe(code.slice(3));
            }
          }
        }
        // the same code with every axis stated: nothing assumed
        expect(await codeAssumptions(version, code, kind, STATES_ALL), `${version} ${code}`).toEqual([]);
      }
    }
    // the sample reaches every axis, many times (not a vacuous pass)
    expect(tally['v40:side (laterality)']).toBeGreaterThan(500);
    expect(tally['v40:encounter (7th character)']).toBeGreaterThan(500);
    expect(tally['v40:open or closed fracture']).toBeGreaterThan(50);
    expect(tally['v40:surgical approach']).toBeGreaterThan(200);
    expect(tally['v40:acute or chronic']).toBeGreaterThan(3);
    expect(tally['v40:type of diabetes']).toBeGreaterThan(3);
    expect(tally['v43:side (laterality)']).toBeGreaterThan(100);
  }, 240_000);

  it('offers every counterpart the tables hold: the other side, type 1 / other specified diabetes, the other approaches, subsequent and sequela', async () => {
    const version = 'v40';
    const t = codeTitles(versionSpec(version).codeYear, 'dx')!;
    const byTitle = new Map<string, string>();
    t.codes.forEach((c, i) => t.billable[i] && byTitle.set(`${c.length}|${c.slice(0, 3)}|${t.titles[i]!.toLowerCase()}`, c));
    const valid = async (c: string, kind: 'dx' | 'pr') => {
      const i = await lookupCode(version, c);
      return i.valid && i.billable && i.kind === kind;
    };
    let checked = 0;
    // right ↔ left by plain string replacement in the titles
    for (const { code, title } of billable(version, 'dx', 7, (_c, tt) => /\bright\b/i.test(tt) && !/\bleft\b/i.test(tt))) {
      const left = byTitle.get(`${code.length}|${code.slice(0, 3)}|${title.toLowerCase().replace(/\bright\b/, 'left')}`);
      if (!left || !(await valid(left, 'dx'))) continue;
      const a = (await codeAssumptions(version, code, 'dx', 'the condition')).find((x) => x.about === 'side (laterality)');
      expect(
        a?.alternatives.map((x) => x.code),
        code,
      ).toContain(left);
      checked++;
    }
    expect(checked).toBeGreaterThan(300);
    // every billable E11 code: exactly the E10/E13 codes with the same remainder that the version accepts
    checked = 0;
    for (const { code } of billable(version, 'dx', 1, (c) => c.startsWith('E11'))) {
      const want: string[] = [];
      for (const p of ['E10', 'E13']) if (await valid(p + code.slice(3), 'dx')) want.push(p + code.slice(3));
      const a = (await codeAssumptions(version, code, 'dx', 'diabetes')).find((x) => x.about === 'type of diabetes')!;
      expect(
        a.alternatives.map((x) => x.code),
        code,
      ).toEqual(want);
      expect((await codeAssumptions(version, code, 'dx', 'T2DM')).find((x) => x.about === 'type of diabetes')).toBeUndefined();
      checked++;
    }
    expect(checked).toBeGreaterThan(50);
    // initial encounter (not a fracture): the D and S codes with the same first six characters
    checked = 0;
    for (const { code } of billable(
      version,
      'dx',
      13,
      (c, tt) => c.length === 7 && c.endsWith('A') && /initial encounter$/i.test(tt) && !/fracture/i.test(tt),
    )) {
      const want: string[] = [];
      for (const ch of ['D', 'S']) if (await valid(code.slice(0, 6) + ch, 'dx')) want.push(code.slice(0, 6) + ch);
      const a = (await codeAssumptions(version, code, 'dx', 'injury')).find((x) => x.about === 'encounter (7th character)');
      expect(a?.alternatives.map((x) => x.code).sort() ?? [], code).toEqual(want.sort());
      checked++;
    }
    expect(checked).toBeGreaterThan(300);
    // the PCS approach: every other approach character the version accepts
    checked = 0;
    for (const { code } of billable(version, 'pr', 97, (c) => c[0] === '0')) {
      const want: string[] = [];
      for (const ch of Object.keys(PCS_APPROACH)) {
        const c = code.slice(0, 4) + ch + code.slice(5);
        if (c !== code && (await valid(c, 'pr'))) want.push(c);
      }
      const a = (await codeAssumptions(version, code, 'pr', 'the procedure')).find((x) => x.about === 'surgical approach');
      expect(a?.alternatives.map((x) => x.code).sort() ?? [], code).toEqual(want.sort());
      checked++;
    }
    expect(checked).toBeGreaterThan(500);
  }, 240_000);

  it('reads the axis from the lines of the evidence, and from the whole note when no evidence was located', () => {
    const note = 'Diagnosis: NSTEMI\nComorbidities: diabetes mellitus\nPMH: type 2 diabetes in mother';
    const at = note.indexOf('diabetes mellitus');
    expect(evidenceContext(note, [{ text: 'diabetes mellitus', start: at, end: at + 17, section: null }])).toBe('Comorbidities: diabetes mellitus');
    expect(evidenceContext(note, [{ text: 'diabetes', start: null, end: null, section: null }])).toBe(note);
    expect(evidenceContext(note, [])).toBe(note);
  });
});

describe('agent assumptions beyond stents (deterministic engine)', () => {
  it('diabetes without a type: E11.9 assumed type 2, with type 1 and other specified as alternatives; a stated type assumes nothing', async () => {
    const r = await codeNoteDeterministic(
      'Diagnosis: Community acquired pneumonia\nComorbidities: diabetes mellitus\n70 year old man. Discharged day 5.',
      resolver(),
    );
    const dm = r.secondary.find((c) => c.code.startsWith('E11'))!;
    expect(dm.code).toBe('E119');
    expect(dm.assumptions?.map((a) => a.about)).toEqual(['type of diabetes']);
    expect(dm.assumptions![0]!.alternatives.map((a) => [a.code, a.label])).toEqual([
      ['E109', 'type 1'],
      ['E139', 'other specified diabetes'],
    ]);
    expect(r.rationale.join(' ')).toContain('E11.9: the note does not say the type of diabetes; assumed type 2');
    const stated = await codeNoteDeterministic(
      'Diagnosis: Community acquired pneumonia\nComorbidities: type 2 diabetes mellitus\n70 year old man. Discharged day 5.',
      resolver(),
    );
    expect(stated.secondary.find((c) => c.code === 'E119')!.assumptions).toBeUndefined();
  });
});
