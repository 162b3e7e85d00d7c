import { describe, expect, it } from 'vitest';
import { crosswalkSources, SOURCE_MIN_REACH } from './fusion';
import type { VocabIndex } from './vocab-index';

describe('crosswalk sources', () => {
  it('are the other vocabularies enough of whose concepts lead into a requested one', () => {
    // vocabularies A (requested), B (90 of 100 concepts lead into A), C (1 of 1,000), D (none), E (20 of 1,000)
    const sizes = [50, 100, 1000, 10, 1000];
    const reachIntoA = [0, 90, 1, 0, 20];
    const V = sizes.length;
    const crossReach = new Uint32Array(V * V);
    reachIntoA.forEach((r, v) => (crossReach[v * V + 0] = r));
    const vocab = Uint8Array.from(sizes.flatMap((n, v) => Array.from({ length: n }, () => v)));
    const ix = { vocabList: ['A', 'B', 'C', 'D', 'E'], n: vocab.length, vocab, crossReach } as unknown as VocabIndex;
    expect(SOURCE_MIN_REACH).toBe(0.02);
    expect(crosswalkSources(ix, Uint8Array.from([1, 0, 0, 0, 0]))).toEqual(['B', 'E']);
    // nothing leads into B
    expect(crosswalkSources(ix, Uint8Array.from([0, 1, 0, 0, 0]))).toEqual([]);
  });
});
