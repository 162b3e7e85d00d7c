import type { AnalyzedQuery } from '../query';
import type { VocabIndex } from '../vocab-index';

/** Channel 2, lexical: in-memory stemmed matching of names, synonyms and index terms. */

interface Scratch {
  acc: Float32Array;
  touched: Int32Array;
  cScore: Float32Array;
  cTouched: Int32Array;
}
const scratchFor = new WeakMap<VocabIndex, Scratch>();
function scratch(ix: VocabIndex): Scratch {
  let s = scratchFor.get(ix);
  if (!s) {
    const T = ix.termText.length;
    s = { acc: new Float32Array(T), touched: new Int32Array(T), cScore: new Float32Array(ix.n), cTouched: new Int32Array(ix.n) };
    scratchFor.set(ix, s);
  }
  return s;
}

/**
 * Per-vocabulary structure of the index, computed once per index: texts are stored in concept order and concepts in
 * vocabulary order, so each vocabulary's texts are one range of text ids, and (postings being sorted) one sub-range
 * of every posting list: the walk skips the postings of vocabularies outside the mask instead of testing each one.
 */
export interface VocabStructure {
  /** [start, end) text ids per vocabulary; null when texts are not grouped by vocabulary (then every posting is tested). */
  termRange: Int32Array | null;
}
const structureFor = new WeakMap<VocabIndex, VocabStructure>();
export function vocabStructure(ix: VocabIndex): VocabStructure {
  let st = structureFor.get(ix);
  if (st) return st;
  const V = ix.vocabList.length;
  const T = ix.termConcept.length;
  let termRange: Int32Array | null = new Int32Array(2 * V).fill(-1);
  for (let t = 0; t < T; t++) {
    const v = ix.vocab[ix.termConcept[t]!]!;
    if (termRange[2 * v] === -1) termRange[2 * v] = t;
    else if (termRange[2 * v + 1] !== t) {
      termRange = null; // not contiguous
      break;
    }
    termRange[2 * v + 1] = t + 1;
  }
  if (termRange) {
    const { start, list } = ix.postings;
    outer: for (let s = 0; s + 1 < start.length; s++) {
      for (let i = start[s]! + 1; i < start[s + 1]!; i++) {
        if (list[i]! <= list[i - 1]!) {
          termRange = null;
          break outer;
        }
      }
    }
  }
  structureFor.set(ix, (st = { termRange }));
  return st;
}

/** First index in list[lo, hi) whose value is ≥ x. */
function lowerBound(list: Int32Array, lo: number, hi: number, x: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Lexical retrieval: idf-weighted coverage of each query variant by each text, best text per concept. One pass over
 * the postings of the vocabularies in `mask` only; returns the top `limit` concepts of each of the `splits`.
 */
export function lexicalChannel(
  ix: VocabIndex,
  q: AnalyzedQuery,
  mask: Uint8Array,
  splits: Array<{ allowed: Uint8Array; limit: number; out: Map<number, number> }>,
): void {
  const { acc, touched, cScore, cTouched } = scratch(ix);
  const { termRange } = vocabStructure(ix);
  // the text-id ranges of the vocabularies in the mask (adjacent ones merged)
  const ranges: number[] = [];
  if (termRange) {
    const vs = [...mask.keys()].filter((v) => mask[v] && termRange[2 * v]! >= 0).sort((a, b) => termRange[2 * a]! - termRange[2 * b]!);
    for (const v of vs) {
      const a = termRange[2 * v]!;
      const b = termRange[2 * v + 1]!;
      if (ranges.length && ranges[ranges.length - 1] === a) ranges[ranges.length - 1] = b;
      else ranges.push(a, b);
    }
  }
  const list = ix.postings.list;
  let nc = 0;
  for (const v of q.variants) {
    const total = v.total;
    if (total <= 0 || v.stems.length === 0) continue;
    let nt = 0;
    for (const s of v.stems) {
      const start = ix.postings.start[s.stem]!;
      const end = ix.postings.start[s.stem + 1]!;
      if (termRange) {
        for (let r = 0; r < ranges.length; r += 2) {
          const hi = ranges[r + 1]!;
          for (let i = lowerBound(list, start, end, ranges[r]!); i < end; i++) {
            const t = list[i]!;
            if (t >= hi) break;
            if (acc[t] === 0) touched[nt++] = t;
            acc[t]! += s.w;
          }
        }
        continue;
      }
      for (let i = start; i < end; i++) {
        const t = list[i]!;
        if (!mask[ix.vocab[ix.termConcept[t]!]!]) continue;
        if (acc[t] === 0) touched[nt++] = t;
        acc[t]! += s.w;
      }
    }
    for (let i = 0; i < nt; i++) {
      const t = touched[i]!;
      const a = acc[t]!;
      acc[t] = 0;
      const cov = Math.min(1, a / total);
      const req = ix.termReqIdf[t]!;
      const prec = req > 0 ? Math.min(1, a / req) : 1;
      const score = v.weight * cov * (0.7 + 0.3 * prec);
      const c = ix.termConcept[t]!;
      if (cScore[c] === 0) cTouched[nc++] = c;
      if (cScore[c]! < score) cScore[c] = score;
    }
  }
  for (const sp of splits) {
    // top-k by a 64-bucket histogram, then an exact sort of the few above the cut
    const hist = new Int32Array(65);
    for (let i = 0; i < nc; i++) {
      const c = cTouched[i]!;
      if (sp.allowed[ix.vocab[c]!]) hist[Math.min(64, Math.floor(cScore[c]! * 64))]!++;
    }
    let cut = 64;
    for (let acc2 = 0; cut > 0; cut--) {
      acc2 += hist[cut]!;
      if (acc2 >= sp.limit) break;
    }
    const pick: number[] = [];
    for (let i = 0; i < nc; i++) {
      const c = cTouched[i]!;
      if (sp.allowed[ix.vocab[c]!] && cScore[c]! * 64 >= cut) pick.push(c);
    }
    pick.sort((a, b) => cScore[b]! - cScore[a]!);
    for (const c of pick.slice(0, sp.limit)) if ((sp.out.get(c) ?? 0) < cScore[c]!) sp.out.set(c, cScore[c]!);
  }
  for (let i = 0; i < nc; i++) cScore[cTouched[i]!] = 0;
}

export function allowedMask(ix: VocabIndex, vocabs: Iterable<string>): Uint8Array {
  const m = new Uint8Array(ix.vocabList.length);
  const set = new Set(vocabs);
  ix.vocabList.forEach((v, i) => {
    if (set.has(v)) m[i] = 1;
  });
  return m;
}
