import { describe, expect, it } from 'vitest';
import { seededRandom } from '../config/random';
import { narrativeClauses, nonIncreasing } from './focus';

const FINDINGS = [
  'shingles',
  'bells palsy',
  'type 2 diabetes',
  'carpal tunnel syndrome',
  'a middle ear infection',
  'iron deficiency anaemia',
  'gout',
  'migraine',
];
const CUES = [
  'the doctor said it is',
  "GP says it's",
  'the scan showed',
  'biopsy confirmed',
  'she was diagnosed with',
  'x-ray shows',
  'treated for',
  'doktor kata',
];
/** Context clauses, and what is left of each once its time words are dropped. */
const CONTEXT: Array<[string, string]> = [
  ['my husband got a painful rash', 'my husband got a painful rash'],
  ['woke up this morning feeling awful', 'woke up feeling awful'],
  ['she fell at home', 'she fell at home'],
  ['pain down the left arm', 'pain down the left arm'],
  ['my son keeps crying', 'my son keeps crying'],
];
const TIMES = ['for 3 days', 'since last night', 'for a few weeks', 'x3 days', 'for months', 'yesterday', 'two weeks ago'];
const JOIN = [', ', '; ', ' and ', '. ', ' then '];

describe('narrative clauses', () => {
  it('find the finding a cue introduces as a cue clause, without the time words around it (3,000 generated)', () => {
    const rand = seededRandom(7);
    const pick = <T>(a: T[]) => a[Math.floor(rand() * a.length)]!;
    for (let i = 0; i < 3000; i++) {
      const finding = pick(FINDINGS);
      const [context, kept] = pick(CONTEXT);
      const parts = [rand() < 0.6 ? `${context} ${pick(TIMES)}` : context];
      if (rand() < 0.5) parts.push(pick(CONTEXT)[0]);
      const cueFirst = rand() < 0.3;
      const cue = `${pick(CUES)} ${finding}${rand() < 0.3 ? ` ${pick(TIMES)}` : ''}`;
      if (cueFirst) parts.unshift(cue);
      else parts.push(cue);
      const text = parts.reduce((s, p, k) => (k ? s + pick(JOIN) + p : p), '');
      const clauses = narrativeClauses(text);
      expect(clauses.length).toBeLessThanOrEqual(6);
      expect(clauses[0]).toEqual({ text: finding, cue: true });
      for (const c of clauses) {
        expect(c.text).not.toMatch(/\b(days|weeks|months|yesterday|last night|ago)\b/);
        expect(c.text.toLowerCase()).not.toBe(text.toLowerCase());
      }
      // the context clauses are there too, as plain clauses
      expect(clauses.filter((c) => !c.cue).map((c) => c.text)).toContain(kept);
    }
  });

  it('splits only the first thousand characters of a huge text, and no run of numbers makes it backtrack', () => {
    const clauses = narrativeClauses(`rash and fever, the doctor said measles, ${'for 1 1 1-2 x3 a few '.repeat(20_000)}, biopsy confirmed gout`);
    expect(clauses[0]).toEqual({ text: 'measles', cue: true });
    expect(clauses.some((c) => c.text.includes('gout'))).toBe(false);
    // 490 numbers with no unit after them: a pattern with two ways to match each gap would not return (2^490 paths)
    expect(narrativeClauses(`pain for ${'1 '.repeat(490)}zzz, GP says flu`).length).toBeGreaterThan(0);
  });

  it('keep "night sweats" and "morning sickness", take no cue from a question or a split "that", and read "for" as a reason', () => {
    const texts = (q: string) => narrativeClauses(q).map((c) => `${c.cue ? 'cue:' : ''}${c.text}`);
    expect(texts('drenching night sweats for 3 weeks, x2 nights')).toContain('drenching night sweats');
    expect(texts('bad morning sickness every morning')).toContain('bad morning sickness');
    expect(narrativeClauses('Is it serious? Lump in my neck that is getting bigger').some((c) => c.cue)).toBe(false);
    expect(texts('stomach pain on and off for ages, the doctor said that it is an ulcer')).toContain('cue:an ulcer');
    // what follows "for" is a reason: weighed by its match alone
    expect(narrativeClauses('stomach pain on and off for ages')).toContainEqual({ text: 'ages', cue: true, reason: true });
    expect(narrativeClauses('IV antibiotics for pneumonia, the scan showed consolidation').slice(0, 2)).toEqual([
      { text: 'consolidation', cue: true },
      { text: 'pneumonia', cue: true, reason: true },
    ]);
    expect(texts('fainted because of low blood pressure')).toContain('cue:low blood pressure');
  });

  it('read "?UTI" as the writer\'s working diagnosis and drop clauses with no word to search', () => {
    expect(narrativeClauses('burning on passing urine, dipstick positive, ?UTI')[0]).toEqual({ text: 'UTI', cue: true });
    expect(narrativeClauses('58F, 3 days, 10 wks, x2').length).toBe(0);
  });
});

describe('nonIncreasing', () => {
  it('is the closest non-increasing sequence (checked against the closed form), sums and length kept, ordered input unchanged (2,000 generated)', () => {
    const rand = seededRandom(3);
    for (let i = 0; i < 2000; i++) {
      const xs = Array.from({ length: 1 + Math.floor(rand() * 30) }, () => Math.round((rand() * 20 - 8) * 100) / 100);
      const ys = nonIncreasing(xs);
      expect(ys).toHaveLength(xs.length);
      for (let k = 1; k < ys.length; k++) expect(ys[k]!).toBeLessThanOrEqual(ys[k - 1]! + 1e-9);
      expect(ys.reduce((a, b) => a + b, 0)).toBeCloseTo(
        xs.reduce((a, b) => a + b, 0),
        6,
      );
      // the top keeps at least the first value, the bottom at most the last (a pool only averages)
      expect(ys[0]!).toBeGreaterThanOrEqual(xs[0]! - 1e-9);
      expect(ys.at(-1)!).toBeLessThanOrEqual(xs.at(-1)! + 1e-9);
      const sorted = [...xs].sort((a, b) => b - a);
      expect(nonIncreasing(sorted)).toEqual(sorted);
      // the least-squares answer by its closed form: y_i = min over j ≤ i of max over k ≥ i of mean(x_j … x_k)
      const mean = (j: number, k: number) => xs.slice(j, k + 1).reduce((a, b) => a + b, 0) / (k - j + 1);
      for (let i = 0; i < xs.length; i++) {
        let y = Infinity;
        for (let j = 0; j <= i; j++) {
          let m = -Infinity;
          for (let k = i; k < xs.length; k++) m = Math.max(m, mean(j, k));
          y = Math.min(y, m);
        }
        expect(ys[i]!).toBeCloseTo(y, 6);
      }
    }
  });
});
