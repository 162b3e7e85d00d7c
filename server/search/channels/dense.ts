import type { DenseEncoder } from '../models';
import type { VocabIndex } from '../vocab-index';

/**
 * Channel 3, dense: a full scan of the requested vocabularies' contiguous ranges for the concepts nearest the query
 * vector (the built-in int8 random-indexing vectors inline, or the pluggable encoder). Returns the best `limit`.
 */
export function denseScan(ix: VocabIndex, qVec: Float32Array, allowed: Uint8Array, domainIdx: number, enc: DenseEncoder | undefined, limit: number): number[] {
  const top: Array<[number, number]> = [];
  let floor = 0.55;
  for (let v = 0; v < ix.vocabList.length; v++) {
    if (!allowed[v]) continue;
    const [a, b] = ix.vocabRange.get(v)!;
    // the built-in encoder's scan is inlined over the int8 matrix (the tail latency of short queries)
    const D = ix.dim;
    const mat = ix.conceptVec;
    const dom = ix.domain;
    for (let c = a; c < b; c++) {
      if (domainIdx >= 0 && dom[c] !== domainIdx) continue;
      let cos: number;
      if (enc) cos = enc.cosine(qVec, c);
      else {
        let acc = 0;
        let d = 0;
        const base = c * D;
        for (; d + 4 <= D; d += 4)
          acc += qVec[d]! * mat[base + d]! + qVec[d + 1]! * mat[base + d + 1]! + qVec[d + 2]! * mat[base + d + 2]! + qVec[d + 3]! * mat[base + d + 3]!;
        for (; d < D; d++) acc += qVec[d]! * mat[base + d]!;
        cos = acc / 127;
      }
      if (cos > floor) {
        top.push([c, cos]);
        if (top.length > 120) {
          top.sort((x, y) => y[1] - x[1]);
          top.length = 60;
          floor = top[top.length - 1]![1];
        }
      }
    }
  }
  return top
    .sort((x, y) => y[1] - x[1])
    .slice(0, limit)
    .map(([c]) => c);
}
