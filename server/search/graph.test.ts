import { describe, expect, it } from 'vitest';
import { seededRandom } from '../config/random';
import { reachingVocabs } from './graph';
import { buildCsr, csrRow, STD_C, STD_S, type VocabIndex } from './vocab-index';

/** A random concept graph: V vocabularies, 'Is a' mostly inside a vocabulary, a few 'Maps to' (to standard concepts) and 'Is a' across. */
function randomGraph(seed: number) {
  const rand = seededRandom(seed);
  const V = 2 + Math.floor(rand() * 7);
  const n = 60 + Math.floor(rand() * 200);
  const vocab = new Int32Array(n);
  const std = new Uint8Array(n);
  for (let c = 0; c < n; c++) {
    vocab[c] = Math.floor(rand() * V);
    std[c] = rand() < 0.5 ? STD_S : STD_C;
  }
  const isA: Array<[number, number]> = [];
  const maps: Array<[number, number]> = [];
  // rare cross-vocabulary edges, so that some vocabularies reach a target only in more hops, or never
  const crossRate = rand() * 0.01;
  for (let i = 0; i < n * 2; i++) {
    const a = Math.floor(rand() * n);
    const b = Math.floor(rand() * n);
    if (a === b) continue;
    if (vocab[a] === vocab[b]) isA.push([a, b]);
    else if (rand() < crossRate * 20) {
      // 'Is a' across vocabularies exists too (RxNorm Extension → RxNorm)
      if (rand() < 0.3) isA.push([a, b]);
      else if (std[b] === STD_S) maps.push([a, b]);
    }
  }
  const ix = {
    n,
    vocabList: Array.from({ length: V }, (_, v) => `V${v}`),
    vocab,
    std,
    parents: buildCsr(n, isA),
    children: buildCsr(
      n,
      isA.map(([a, b]) => [b, a] as [number, number]),
    ),
    mapsTo: buildCsr(n, maps),
    mappedFrom: buildCsr(
      n,
      maps.map(([a, b]) => [b, a] as [number, number]),
    ),
  } as unknown as VocabIndex;
  return { ix, V, n, rand };
}

/** Brute force: the vocabularies holding a concept from which graph mode's traversal reaches `target` in ≤ hops. */
function bruteForce(ix: VocabIndex, target: number, hops: number): Set<number> {
  const out = new Set<number>();
  for (let a = 0; a < ix.n; a++) {
    let frontier = [a];
    const seen = new Set([a]);
    let hit = ix.vocab[a] === target;
    for (let h = 1; h <= hops && !hit && frontier.length; h++) {
      const next: number[] = [];
      for (const c of frontier) {
        const nb = [...csrRow(ix.mapsTo, c), ...(ix.std[c] === STD_S ? csrRow(ix.mappedFrom, c) : []), ...csrRow(ix.parents, c), ...csrRow(ix.children, c)];
        for (const t of nb)
          if (!seen.has(t)) {
            seen.add(t);
            next.push(t);
            if (ix.vocab[t] === target) hit = true;
          }
      }
      frontier = next;
    }
    if (hit) out.add(ix.vocab[a]!);
  }
  return out;
}

describe('graph mode anchor vocabularies', () => {
  it('never leave out a vocabulary from which the traversal reaches the requested one (300 random graphs)', () => {
    let excluded = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const { ix, V, rand } = randomGraph(seed);
      const target = Math.floor(rand() * V);
      const hops = 1 + Math.floor(rand() * 3);
      const got = new Set(reachingVocabs(ix, [`V${target}`], hops).map((v) => Number(v.slice(1))));
      for (const v of bruteForce(ix, target, hops)) expect(got.has(v), `seed ${seed}: V${v} reaches V${target} in ${hops}`).toBe(true);
      expect(got.has(target)).toBe(true);
      excluded += V - got.size;
    }
    // the restriction does restrict: in many graphs some vocabulary has no path
    expect(excluded).toBeGreaterThan(100);
  });
});
