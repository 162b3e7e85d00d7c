import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../config/random';
import type { AnalyzedQuery } from '../query';
import type { VocabIndex } from '../vocab-index';
import { lexicalChannel, vocabStructure } from './lexical';

/**
 * A hand-built index: vocabularies A (concepts 0-1), B (2), C (3), D (4); one text per concept; one stem (0) in every
 * text.
 */
function tinyIndex(): VocabIndex {
  const csr = (rows: number[][]) => {
    const start = new Int32Array(rows.length + 1);
    rows.forEach((r, i) => (start[i + 1] = start[i]! + r.length));
    return { start, list: Int32Array.from(rows.flat()) };
  };
  return {
    n: 5,
    vocabList: ['A', 'B', 'C', 'D'],
    vocab: Uint8Array.from([0, 0, 1, 2, 3]),
    termConcept: Int32Array.from([0, 1, 2, 3, 4]),
    termText: ['a0', 'a1', 'b2', 'c3', 'd4'],
    termReqIdf: Float32Array.from([1, 1, 1, 1, 1]),
    postings: csr([[0, 1, 2, 3, 4]]),
    mapsTo: csr([[], [], [0], [4], []]),
  } as unknown as VocabIndex;
}

describe('lexical channel and the vocabulary filter', () => {
  it('finds each vocabulary as one range of texts; texts out of vocabulary order fall back to testing each posting', () => {
    expect([...vocabStructure(tinyIndex()).termRange!]).toEqual([0, 2, 2, 3, 3, 4, 4, 5]);
    const mixed = tinyIndex();
    (mixed as unknown as { termConcept: Int32Array }).termConcept = Int32Array.from([0, 2, 1, 3, 4]);
    expect(vocabStructure(mixed).termRange).toBeNull();
    const q = {
      variants: [{ kind: 'original', weight: 1, total: 1, label: 'x', stems: [{ stem: 0, w: 1, word: 'x', group: 0 }] }],
    } as unknown as AnalyzedQuery;
    const out = new Map<number, number>();
    const mask = Uint8Array.from([0, 1, 0, 0]);
    lexicalChannel(mixed, q, [{ allowed: mask, limit: 10, out }]);
    expect([...out.keys()]).toEqual([2]);
  });

  it('walks only the postings of the vocabularies in the mask', () => {
    const ix = tinyIndex();
    const q = {
      variants: [{ kind: 'original', weight: 1, total: 1, label: 'x', stems: [{ stem: 0, w: 1, word: 'x', group: 0 }] }],
    } as unknown as AnalyzedQuery;
    const out = new Map<number, number>();
    const mask = Uint8Array.from([0, 1, 0, 1]);
    lexicalChannel(ix, q, [{ allowed: mask, limit: 10, out }]);
    expect([...out.keys()].sort()).toEqual([2, 4]);
  });
});

/** A random index: vocabularies in ranges, 1–3 texts per concept, stems drawn so that a few are very common. */
function randomIndex(rand: () => number, n: number, stems: number): VocabIndex {
  const V = 4;
  const vocab = new Uint8Array(n);
  for (let c = 0; c < n; c++) vocab[c] = Math.min(V - 1, Math.floor((c / n) * V));
  const termConcept: number[] = [];
  const tokStart: number[] = [0];
  const tok: number[] = [];
  const zipf = () => Math.min(stems - 1, Math.floor(Math.exp(rand() * Math.log(stems)) - 1));
  for (let c = 0; c < n; c++) {
    const texts = 1 + Math.floor(rand() * 3);
    for (let k = 0; k < texts; k++) {
      termConcept.push(c);
      const len = 1 + Math.floor(rand() * 6);
      for (let w = 0; w < len; w++) tok.push(zipf());
      tokStart.push(tok.length);
    }
  }
  const T = termConcept.length;
  const rows: number[][] = Array.from({ length: stems }, () => []);
  const reqIdf = new Float32Array(T);
  for (let t = 0; t < T; t++) {
    const seen = new Set<number>();
    for (let p = tokStart[t]!; p < tokStart[t + 1]!; p++) {
      if (seen.has(tok[p]!)) continue;
      seen.add(tok[p]!);
      rows[tok[p]!]!.push(t);
      reqIdf[t]! += 1 + (tok[p]! % 7);
    }
  }
  const start = new Int32Array(stems + 1);
  rows.forEach((r, i) => (start[i + 1] = start[i]! + r.length));
  return {
    n,
    vocabList: ['A', 'B', 'C', 'D'],
    vocab,
    termConcept: Int32Array.from(termConcept),
    termText: { length: T },
    termTokStart: Int32Array.from(tokStart),
    tokStem: Int32Array.from(tok),
    termReqIdf: reqIdf,
    postings: { start, list: Int32Array.from(rows.flat()) },
  } as unknown as VocabIndex;
}

describe('lexical channel, pruned walk', () => {
  it("gives exactly the full walk's answer on 3,000 generated queries (long posting lists added to touched texts only)", () => {
    const rand = seededRandom(915);
    const ix = randomIndex(rand, 4000, 400);
    let pruned = 0;
    for (let i = 0; i < 3000; i++) {
      const variants = Array.from({ length: 1 + Math.floor(rand() * 3) }, (_, k) => {
        const stems = Array.from({ length: 1 + Math.floor(rand() * 5) }, (_, g) => ({
          stem: rand() < 0.5 ? Math.floor(rand() * 8) : Math.floor(rand() * 400),
          w: 0.2 + rand() * 3,
          word: 'w',
          group: g,
        }));
        const total = stems.reduce((a, s) => a + s.w, 0) * (rand() < 0.3 ? 1.5 : 1);
        return { kind: 'original', weight: k === 0 ? 1 : 0.5 + rand() * 0.5, total, label: 'x', stems };
      });
      const q = { variants } as unknown as AnalyzedQuery;
      const mask = Uint8Array.from({ length: 4 }, () => (rand() < 0.6 ? 1 : 0));
      const other = mask.map((m) => 1 - m);
      const limit = 5 + Math.floor(rand() * 120);
      const run = (longPostings: number, shortPostings?: number) => {
        const a = new Map<number, number>();
        const b = new Map<number, number>();
        lexicalChannel(
          ix,
          q,
          [
            { allowed: mask, limit, out: a },
            { allowed: other, limit: 40, out: b, floor: 0.45 },
          ],
          { longPostings, shortPostings },
        );
        return { a: [...a].sort((x, y) => x[0] - y[0]), b: [...b].sort((x, y) => x[0] - y[0]) };
      };
      const full = run(Infinity);
      const fast = run(20, 3);
      expect(fast, `query ${i}`).toEqual(full);
      if (variants.some((v) => v.stems.some((s) => ix.postings.start[s.stem + 1]! - ix.postings.start[s.stem]! > 20))) pruned++;
    }
    expect(pruned).toBeGreaterThan(1000); // the pruned path was exercised, not only the full walk
  });
});
