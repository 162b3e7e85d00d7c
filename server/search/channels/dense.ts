import type { DenseEncoder } from '../models';
import fs from 'node:fs';
import type { VocabIndex } from '../vocab-index';

/** Rows read per block when the concept vectors stay in the index file (4,096 × 64 bytes). */
const BLOCK_ROWS = 4096;
let blockBuf = new Int8Array(0);

/**
 * The concept vectors of [a, b) block by block: `fn(mat, first, from, to)` with row c (from ≤ c < to) at
 * mat[(c − first) × dim]. Resident vectors are one block; a loaded index's are read from its file.
 */
export function vectorBlocks(ix: VocabIndex, a: number, b: number, fn: (mat: Int8Array, first: number, from: number, to: number) => void): void {
  if (ix.conceptVec) {
    if (b > a) fn(ix.conceptVec, 0, a, b);
    return;
  }
  const file = ix.conceptVecFile;
  if (!file) throw new Error('search index: concept vectors are neither resident nor on disk');
  const D = ix.dim;
  if (blockBuf.length < BLOCK_ROWS * D) blockBuf = new Int8Array(BLOCK_ROWS * D);
  // a block is used before the next is read (fn is synchronous), so one buffer serves every scan
  const buf = blockBuf;
  for (let s = a; s < b; s += BLOCK_ROWS) {
    const e = Math.min(b, s + BLOCK_ROWS);
    const bytes = (e - s) * D;
    for (let done = 0; done < bytes;) {
      const n = fs.readSync(file.fd, buf, done, bytes - done, file.base + s * D + done);
      if (n === 0) throw new Error('search index: the concept vectors are truncated');
      done += n;
    }
    fn(buf, s, s, e);
  }
}

/**
 * Channel 3, dense: a full scan of the requested vocabularies' contiguous ranges for the concepts nearest the query
 * vector (the built-in int8 random-indexing vectors inline, or the pluggable encoder). Returns the best `limit`.
 */
export function denseScan(ix: VocabIndex, qVec: Float32Array, allowed: Uint8Array, domainIdx: number, enc: DenseEncoder | undefined, limit: number): number[] {
  const top: Array<[number, number]> = [];
  let floor = 0.55;
  const D = ix.dim;
  const H = D >> 1;
  // Cauchy–Schwarz on the second half, around the vocabulary's mean vector μ (its concepts cluster around it):
  // q·m = q₁·m₁ + q₂·μ₂ + q₂·(m₂ − μ₂) ≤ q₁·m₁ + q₂·μ₂ + |q₂|·|m₂ − μ₂|, so a concept whose first half cannot lift it
  // above the floor is skipped without reading the rest (exact: the same answer as the full scan)
  let qHi = 0;
  for (let d = H; d < D; d++) qHi += qVec[d]! * qVec[d]!;
  qHi = Math.sqrt(qHi) * (1 + 1e-6);
  for (let v = 0; v < ix.vocabList.length; v++) {
    if (!allowed[v]) continue;
    const [a, b] = ix.vocabRange.get(v)!;
    const dom = ix.domain;
    const consider = (c: number, cos: number) => {
      if (cos > floor) {
        top.push([c, cos]);
        if (top.length > 120) {
          top.sort((x, y) => y[1] - x[1]);
          top.length = 60;
          floor = top[top.length - 1]![1];
        }
      }
    };
    if (enc) {
      for (let c = a; c < b; c++) if (domainIdx < 0 || dom[c] === domainIdx) consider(c, enc.cosine(qVec, c));
      continue;
    }
    // the built-in encoder's scan is inlined over the int8 matrix (the tail latency of short queries)
    const half = halfResiduals(ix, v);
    let qMean = 0;
    for (let d = H; d < D; d++) qMean += qVec[d]! * half.mean[d - H]!;
    const hiNorm = half.norm;
    const slack = Math.abs(qMean) * 1e-6 + 1e-9;
    vectorBlocks(ix, a, b, (mat, first, from, to) => {
      for (let c = from; c < to; c++) {
        if (domainIdx >= 0 && dom[c] !== domainIdx) continue;
        let acc = 0;
        let d = 0;
        const base = (c - first) * D;
        for (; d + 4 <= H; d += 4)
          acc += qVec[d]! * mat[base + d]! + qVec[d + 1]! * mat[base + d + 1]! + qVec[d + 2]! * mat[base + d + 2]! + qVec[d + 3]! * mat[base + d + 3]!;
        for (; d < H; d++) acc += qVec[d]! * mat[base + d]!;
        if (acc + qMean + qHi * hiNorm[c - a]! + slack <= floor * 127) continue;
        for (; d + 4 <= D; d += 4)
          acc += qVec[d]! * mat[base + d]! + qVec[d + 1]! * mat[base + d + 1]! + qVec[d + 2]! * mat[base + d + 2]! + qVec[d + 3]! * mat[base + d + 3]!;
        for (; d < D; d++) acc += qVec[d]! * mat[base + d]!;
        consider(c, acc / 127);
      }
    });
  }
  return top
    .sort((x, y) => y[1] - x[1])
    .slice(0, limit)
    .map(([c]) => c);
}

/**
 * Per vocabulary (computed on its first scan): the mean of its concepts' int8 vectors over the second half of the
 * dimensions, and each concept's distance from it there, rounded up.
 */
const halfResidualsFor = new WeakMap<VocabIndex, Map<number, { mean: Float64Array; norm: Float32Array }>>();
function halfResiduals(ix: VocabIndex, v: number): { mean: Float64Array; norm: Float32Array } {
  let byVocab = halfResidualsFor.get(ix);
  if (!byVocab) halfResidualsFor.set(ix, (byVocab = new Map()));
  let out = byVocab.get(v);
  if (out) return out;
  const [a, b] = ix.vocabRange.get(v)!;
  const D = ix.dim;
  const H = D >> 1;
  const mean = new Float64Array(D - H);
  vectorBlocks(ix, a, b, (mat, first, from, to) => {
    for (let c = from; c < to; c++) for (let d = H; d < D; d++) mean[d - H]! += mat[(c - first) * D + d]!;
  });
  for (let d = 0; d < D - H; d++) mean[d]! /= Math.max(1, b - a);
  const norm = new Float32Array(b - a);
  vectorBlocks(ix, a, b, (mat, first, from, to) => {
    for (let c = from; c < to; c++) {
      let s = 0;
      for (let d = H; d < D; d++) s += (mat[(c - first) * D + d]! - mean[d - H]!) ** 2;
      norm[c - a] = Math.sqrt(s) * (1 + 1e-6) + 1e-6;
    }
  });
  byVocab.set(v, (out = { mean, norm }));
  return out;
}
