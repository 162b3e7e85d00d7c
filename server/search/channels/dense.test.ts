import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../config/random';
import type { VocabIndex } from '../vocab-index';
import { denseScan } from './dense';

/** The brute-force answer: every concept's cosine, the same floor rule (above 0.55, best `limit`). */
function bruteForce(ix: VocabIndex, q: Float32Array, allowed: Uint8Array, domainIdx: number, limit: number): number[] {
  const all: Array<[number, number]> = [];
  for (let c = 0; c < ix.n; c++) {
    if (!allowed[ix.vocab[c]!] || (domainIdx >= 0 && ix.domain[c] !== domainIdx)) continue;
    let acc = 0;
    for (let d = 0; d < ix.dim; d++) acc += q[d]! * ix.conceptVec![c * ix.dim + d]!;
    if (acc / 127 > 0.55) all.push([c, acc / 127]);
  }
  return all
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([c]) => c);
}

describe('dense channel', () => {
  it('the pruned scan (first half, then a Cauchy–Schwarz bound) gives the full scan’s answer on 500 generated queries, from memory and from the file', () => {
    const rand = seededRandom(1126);
    const n = 12_000;
    const D = 64;
    const V = 3;
    const gauss = () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
    // clustered unit vectors (near-duplicates are common, as among a vocabulary's titles), quantised to int8
    const centres = Array.from({ length: 40 }, () => Array.from({ length: D }, gauss));
    const conceptVec = new Int8Array(n * D);
    for (let c = 0; c < n; c++) {
      const ctr = centres[Math.floor(rand() * centres.length)]!;
      const spread = rand() * 1.5;
      const x = ctr.map((m) => m + spread * gauss());
      const norm = Math.hypot(...x);
      for (let d = 0; d < D; d++) conceptVec[c * D + d] = Math.round((x[d]! / norm) * 127);
    }
    const domain = Uint8Array.from({ length: n }, () => Math.floor(rand() * 2));
    // uneven vocabularies (1,500, 8,200 and 2,300 concepts): the middle one spans three 4,096-row blocks
    const edges = [0, 1_500, 9_700, n];
    const vocab = Uint8Array.from({ length: n }, (_, c) => edges.findIndex((e, v) => c >= e && c < edges[v + 1]!));
    const vocabRange = new Map<number, [number, number]>(Array.from({ length: V }, (_, v) => [v, [edges[v]!, edges[v + 1]!]]));
    const ix = { n, dim: D, conceptVec, vocab, domain, vocabRange, vocabList: ['A', 'B', 'C'] } as unknown as VocabIndex;
    // the same vectors left in a file (as a loaded index leaves them), behind a header, read in 4,096-row blocks
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-dense-'));
    const file = path.join(dir, 'index.bin');
    fs.writeFileSync(file, Buffer.concat([Buffer.alloc(40, 7), Buffer.from(conceptVec.buffer)]));
    const fd = fs.openSync(file, 'r');
    const onDisk = { ...ix, conceptVec: null, conceptVecFile: { fd, base: 40 } } as unknown as VocabIndex;
    try {
      let found = 0;
      for (let k = 0; k < 500; k++) {
        const ctr = centres[Math.floor(rand() * centres.length)]!;
        const x = ctr.map((m) => m + rand() * 2 * gauss());
        const norm = Math.hypot(...x);
        const q = Float32Array.from(x, (m) => m / norm);
        const allowed = Uint8Array.from({ length: V }, () => (rand() < 0.6 ? 1 : 0));
        const dom = rand() < 0.3 ? Math.floor(rand() * 2) : -1;
        const limit = 1 + Math.floor(rand() * 40);
        const got = denseScan(ix, q, allowed, dom, undefined, limit);
        expect(got, `query ${k}`).toEqual(bruteForce(ix, q, allowed, dom, limit));
        expect(denseScan(onDisk, q, allowed, dom, undefined, limit), `query ${k} from the file`).toEqual(got);
        found += got.length;
      }
      expect(found).toBeGreaterThan(2000); // the queries do find concepts above the floor
    } finally {
      fs.closeSync(fd);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
