import type { AnalyzedQuery } from '../query';
import type { VocabIndex } from '../vocab-index';

/** Channel 2, lexical: in-memory stemmed matching of names, synonyms and index terms. */

interface Scratch {
  acc: Float32Array;
  touched: Int32Array;
  cScore: Float32Array;
  cTouched: Int32Array;
  /** Texts already touched (pruned walks). */
  mark: Uint8Array;
  /** Concepts in cTouched after the last walk. */
  nc: number;
}
const scratchFor = new WeakMap<VocabIndex, Scratch>();
function scratch(ix: VocabIndex): Scratch {
  let s = scratchFor.get(ix);
  if (!s) {
    const T = ix.termText.length;
    s = {
      acc: new Float32Array(T),
      touched: new Int32Array(T),
      cScore: new Float32Array(ix.n),
      cTouched: new Int32Array(ix.n),
      mark: new Uint8Array(T),
      nc: 0,
    };
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

/** Postings of a stem within the text-id ranges [a, b) of `ranges`. */
function countInRanges(list: Int32Array, start: number, end: number, ranges: number[]): number {
  let n = 0;
  for (let r = 0; r < ranges.length; r += 2) n += lowerBound(list, start, end, ranges[r + 1]!) - lowerBound(list, start, end, ranges[r]!);
  return n;
}

/** True when text t contains the stem. */
function contains(ix: VocabIndex, t: number, stem: number): boolean {
  for (let p = ix.termTokStart[t]!; p < ix.termTokStart[t + 1]!; p++) if (ix.tokStem[p] === stem) return true;
  return false;
}

/**
 * A query stem whose posting list (within the walked vocabularies) is longer than this is not walked when the
 * query's other stems are rarer: its weight is added only to the texts those touched (max-score pruning), and the
 * result is checked to be exact (see lexicalChannel).
 */
export const LONG_POSTINGS = 8192;

/**
 * Lexical retrieval: idf-weighted coverage of each query variant by each text, best text per concept. One pass over
 * the postings of the vocabularies in `mask` only; returns the top `limit` concepts of each of the `splits`.
 *
 * Cost is bounded by the rare words, not by the vocabulary's size (max-score pruning): a variant's long posting
 * lists (common words: "unspecified", "left", "tissue") are not walked when its other stems touch texts; their
 * weights are added to the touched texts only. A text with none of the rare stems scores at most
 * `weight × min(1, Σ long weights / total)` (the bound B); if every split still has `limit` concepts scoring above
 * the largest B (or its caller ignores scores below its `floor` > B), no untouched text could have entered it and the
 * answer is exactly the full walk's. Otherwise the channel walks everything again.
 */
export function lexicalChannel(
  ix: VocabIndex,
  q: AnalyzedQuery,
  mask: Uint8Array,
  splits: Array<{ allowed: Uint8Array; limit: number; out: Map<number, number>; floor?: number }>,
  opts: { longPostings?: number } = {},
): void {
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
  const long = termRange ? (opts.longPostings ?? LONG_POSTINGS) : Infinity;
  const sc = scratch(ix);
  const { cScore, cTouched } = sc;
  const bound = walk(ix, q, mask, ranges, long);
  if (bound > 0) {
    const nc = sc.nc;
    const exact = splits.every((sp) => {
      // nothing scoring at most the bound matters to this split's caller, or nothing can be in it
      if ((sp.floor ?? 0) > bound || !sp.allowed.some(Boolean)) return true;
      let above = 0;
      for (let i = 0; i < nc && above < sp.limit; i++) {
        const c = cTouched[i]!;
        if (sp.allowed[ix.vocab[c]!] && cScore[c]! > bound) above++;
      }
      return above >= sp.limit;
    });
    if (!exact) {
      for (let i = 0; i < nc; i++) cScore[cTouched[i]!] = 0;
      walk(ix, q, mask, ranges, Infinity);
    }
  }
  const nc = sc.nc;
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
    // ties by concept order: the same answer whichever order the texts were touched in
    pick.sort((a, b) => cScore[b]! - cScore[a]! || a - b);
    for (const c of pick.slice(0, sp.limit)) if ((sp.out.get(c) ?? 0) < cScore[c]!) sp.out.set(c, cScore[c]!);
  }
  for (let i = 0; i < nc; i++) cScore[cTouched[i]!] = 0;
}

/**
 * Score every variant into the scratch's per-concept best (cScore over cTouched). Stems with more than `long`
 * postings are added only to the texts the others touched; returns the largest score an untouched text could have
 * had (0 when nothing was skipped).
 */
function walk(ix: VocabIndex, q: AnalyzedQuery, mask: Uint8Array, ranges: number[], long: number): number {
  const sc = scratch(ix);
  const { acc, touched, cScore, cTouched, mark } = sc;
  const list = ix.postings.list;
  const useRanges = vocabStructure(ix).termRange !== null;
  let nc = 0;
  let bound = 0;
  for (const v of q.variants) {
    const total = v.total;
    if (total <= 0 || v.stems.length === 0) continue;
    let nt = 0;
    // which stems are walked: all, unless some are long and the others rarer
    let lazy: boolean[] | null = null;
    if (long !== Infinity && v.weight >= 0) {
      const counts = v.stems.map((s) => countInRanges(list, ix.postings.start[s.stem]!, ix.postings.start[s.stem + 1]!, ranges));
      if (counts.some((n) => n > long) && v.stems.every((s) => s.w >= 0)) {
        lazy = counts.map((n) => n > long);
        if (lazy.every(Boolean)) lazy[counts.indexOf(Math.min(...counts))] = false;
      }
    }
    if (!lazy) {
      for (const s of v.stems) {
        const start = ix.postings.start[s.stem]!;
        const end = ix.postings.start[s.stem + 1]!;
        if (useRanges) {
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
    } else {
      // the rare stems touch texts; then every touched text sums all its stems' weights in the query's order
      let lazyW = 0;
      v.stems.forEach((s, k) => {
        if (lazy![k]) {
          lazyW += s.w;
          return;
        }
        const start = ix.postings.start[s.stem]!;
        const end = ix.postings.start[s.stem + 1]!;
        for (let r = 0; r < ranges.length; r += 2) {
          const hi = ranges[r + 1]!;
          for (let i = lowerBound(list, start, end, ranges[r]!); i < end; i++) {
            const t = list[i]!;
            if (t >= hi) break;
            if (!mark[t]) {
              mark[t] = 1;
              touched[nt++] = t;
            }
          }
        }
      });
      for (let i = 0; i < nt; i++) {
        const t = touched[i]!;
        mark[t] = 0;
        for (const s of v.stems) if (contains(ix, t, s.stem)) acc[t]! += s.w;
      }
      bound = Math.max(bound, v.weight * Math.min(1, lazyW / total));
    }
    for (let i = 0; i < nt; i++) {
      const t = touched[i]!;
      const a = acc[t]!;
      acc[t] = 0;
      if (a === 0 && lazy) continue; // touched by a stem of zero weight only
      const cov = Math.min(1, a / total);
      const req = ix.termReqIdf[t]!;
      const prec = req > 0 ? Math.min(1, a / req) : 1;
      const score = v.weight * cov * (0.7 + 0.3 * prec);
      const c = ix.termConcept[t]!;
      if (cScore[c] === 0) cTouched[nc++] = c;
      if (cScore[c]! < score) cScore[c] = score;
    }
  }
  sc.nc = nc;
  return bound;
}

export function allowedMask(ix: VocabIndex, vocabs: Iterable<string>): Uint8Array {
  const m = new Uint8Array(ix.vocabList.length);
  const set = new Set(vocabs);
  ix.vocabList.forEach((v, i) => {
    if (set.has(v)) m[i] = 1;
  });
  return m;
}
