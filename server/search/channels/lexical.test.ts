import { describe, expect, it } from 'vitest';
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
    lexicalChannel(mixed, q, mask, [{ allowed: mask, limit: 10, out }]);
    expect([...out.keys()]).toEqual([2]);
  });

  it('walks only the postings of the vocabularies in the mask', () => {
    const ix = tinyIndex();
    const q = {
      variants: [{ kind: 'original', weight: 1, total: 1, label: 'x', stems: [{ stem: 0, w: 1, word: 'x', group: 0 }] }],
    } as unknown as AnalyzedQuery;
    const out = new Map<number, number>();
    const mask = Uint8Array.from([0, 1, 0, 1]);
    lexicalChannel(ix, q, mask, [{ allowed: mask, limit: 10, out }]);
    expect([...out.keys()].sort()).toEqual([2, 4]);
  });
});
