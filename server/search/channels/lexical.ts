import type { AnalyzedQuery, QueryVariant } from '../query';
import type { VocabIndex } from '../vocab-index';

/** Channel 2, lexical: in-memory stemmed matching of names, synonyms and index terms. */

/**
 * A thread's working memory for walks over one index: per-text sums and per-concept scores (dense, zero between
 * walks), and the lists of texts and concepts a walk touched, which grow as needed (a walk touches a small share).
 */
interface Scratch {
  acc: Float32Array;
  touched: Int32Array;
  cScore: Float32Array;
  cTouched: Int32Array;
  /** Concepts in cTouched after the last walk. */
  nc: number;
}
const scratchFor = new WeakMap<VocabIndex, Scratch>();
/** A touched list starts at 1/64 of its most (at least 1,024 entries) and doubles when a walk needs more. */
const firstSize = (max: number) => Math.min(max, Math.max(1024, max >> 6));
function scratch(ix: VocabIndex): Scratch {
  let s = scratchFor.get(ix);
  if (!s) {
    const T = ix.termText.length;
    s = {
      acc: new Float32Array(T),
      touched: new Int32Array(firstSize(T)),
      cScore: new Float32Array(ix.n),
      cTouched: new Int32Array(firstSize(ix.n)),
      nc: 0,
    };
    scratchFor.set(ix, s);
  }
  return s;
}
/** The array, twice as long (at most `max`), with its first `used` entries. */
function grown(a: Int32Array, used: number, max: number): Int32Array {
  const b = new Int32Array(Math.min(max, Math.max(16, a.length * 2)));
  b.set(a.subarray(0, used));
  return b;
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
 * In a split with a floor, a query stem whose posting list (within the walked vocabularies) is longer than this is
 * skipped at first when the variant's other stems are rarer (max-score pruning, exact: see lexicalChannel).
 */
export const LONG_POSTINGS = 8192;
/** With a floor, posting lists shorter than this are walked (testing a touched text for them costs more than walking). */
const SHORT_POSTINGS = 256;

export interface LexicalSplit {
  /** The vocabularies this split scores (its walk covers their texts only). */
  allowed: Uint8Array;
  /** The best `limit` concepts go to `out`. */
  limit: number;
  out: Map<number, number>;
  /** The caller ignores scores below this: the walk skips what cannot reach it (exact above the floor). */
  floor?: number;
}

/**
 * Lexical retrieval: idf-weighted coverage of each query variant by each text, best text per concept. Each split is
 * one pass over the postings of its own vocabularies (`allowed`) only, and returns its top `limit` concepts.
 *
 * A split with a `floor` (the crosswalk's sources) is pruned, and its answer is exactly the full walk's: a variant's
 * long posting lists (common words: "unspecified", "open", "tissue") are skipped at first, and a text none of the
 * walked lists touched scores at most `weight × min(1, Σ skipped weights / total)` (its bound). If that bound could
 * still reach the split's threshold (the larger of its floor and a lower bound of its `limit`-th best score), the
 * skipped lists are walked after all; otherwise only the touched texts that could reach it are tested for the skipped
 * stems. A split without a floor walks every list (unless `opts.longPostings` says otherwise).
 */
export function lexicalChannel(
  ix: VocabIndex,
  q: AnalyzedQuery,
  splits: LexicalSplit[],
  /** The pruning thresholds (tests); `longPostings: Infinity` walks everything. */
  opts: { longPostings?: number; shortPostings?: number } = {},
): void {
  const { termRange } = vocabStructure(ix);
  const sc = scratch(ix);
  const { cScore } = sc;
  for (const sp of splits) {
    if (!sp.allowed.some(Boolean)) continue;
    // the text-id ranges of the split's vocabularies (adjacent ones merged)
    const ranges: number[] = [];
    if (termRange) {
      const vs = [...sp.allowed.keys()].filter((v) => sp.allowed[v] && termRange[2 * v]! >= 0).sort((a, b) => termRange[2 * a]! - termRange[2 * b]!);
      for (const v of vs) {
        const a = termRange[2 * v]!;
        const b = termRange[2 * v + 1]!;
        if (ranges.length && ranges[ranges.length - 1] === a) ranges[ranges.length - 1] = b;
        else ranges.push(a, b);
      }
    }
    // a split without a floor walks every list unless told otherwise: its threshold (the 250th best score) is low, and
    // at 5M concepts the pruned walk measured slower than the full one
    const long = termRange ? (opts.longPostings ?? (sp.floor ? LONG_POSTINGS : Infinity)) : Infinity;
    walk(ix, q, sp.allowed, ranges, { long, short: opts.shortPostings ?? SHORT_POSTINGS, floor: long !== Infinity ? (sp.floor ?? 0) : 0, limit: sp.limit });
    const { nc, cTouched } = sc;
    const keep = sp.floor ?? 0;
    const cut = histogramCut(cScore, cTouched, nc, sp.limit) * 64;
    const pick: number[] = [];
    for (let i = 0; i < nc; i++) {
      const c = cTouched[i]!;
      if (cScore[c]! * 64 >= cut && cScore[c]! >= keep) pick.push(c);
    }
    // ties by concept order: the same answer whichever order the texts were touched in
    pick.sort((a, b) => cScore[b]! - cScore[a]! || a - b);
    for (const c of pick.slice(0, sp.limit)) if ((sp.out.get(c) ?? 0) < cScore[c]!) sp.out.set(c, cScore[c]!);
    for (let i = 0; i < nc; i++) cScore[cTouched[i]!] = 0;
  }
}

/**
 * A score at or below the `limit`-th best of the touched concepts (the lower edge of a 64-bucket histogram's
 * bucket): the top `limit` all score at least this. 0 when fewer concepts than `limit` were touched.
 */
function histogramCut(cScore: Float32Array, cTouched: Int32Array, nc: number, limit: number): number {
  const hist = new Int32Array(65);
  for (let i = 0; i < nc; i++) hist[Math.min(64, Math.floor(cScore[cTouched[i]!]! * 64))]!++;
  let cut = 64;
  for (let acc = 0; cut > 0; cut--) {
    acc += hist[cut]!;
    if (acc >= limit) break;
  }
  return cut / 64;
}

/**
 * Score every variant into the scratch's per-concept best (cScore over cTouched), over the texts in `ranges` (or,
 * without vocabulary ranges, those whose vocabulary is in `mask`). Exact for every concept that can be in the
 * split's answer (see lexicalChannel); a concept that cannot may keep a lower bound of its score.
 */
function walk(ix: VocabIndex, q: AnalyzedQuery, mask: Uint8Array, ranges: number[], o: { long: number; short: number; floor: number; limit: number }): void {
  const sc = scratch(ix);
  const { acc, cScore } = sc;
  let { touched, cTouched } = sc;
  const list = ix.postings.list;
  const useRanges = vocabStructure(ix).termRange !== null;
  sc.nc = 0;
  const credit = (t: number, score: number) => {
    const c = ix.termConcept[t]!;
    if (cScore[c] === 0) {
      if (sc.nc === cTouched.length) sc.cTouched = cTouched = grown(cTouched, sc.nc, ix.n);
      cTouched[sc.nc++] = c;
    }
    if (cScore[c]! < score) cScore[c] = score;
  };
  // a text's score from the summed weight of the variant's stems it holds (increasing in `a`)
  const textScore = (v: QueryVariant, t: number, a: number) => {
    const cov = Math.min(1, a / v.total);
    const req = ix.termReqIdf[t]!;
    const prec = req > 0 ? Math.min(1, a / req) : 1;
    return v.weight * cov * (0.7 + 0.3 * prec);
  };
  // one stem's postings within the ranges, added to the texts' sums (new texts join `touched`)
  let nt = 0;
  const accumulate = (stem: number, w: number) => {
    const start = ix.postings.start[stem]!;
    const end = ix.postings.start[stem + 1]!;
    if (useRanges) {
      for (let r = 0; r < ranges.length; r += 2) {
        const hi = ranges[r + 1]!;
        const from = lowerBound(list, start, end, ranges[r]!);
        // room for every posting of the range in the touched list
        if (nt + (end - from) > touched.length) touched = sc.touched = grownTo(touched, nt, nt + (end - from));
        for (let i = from; i < end; i++) {
          const t = list[i]!;
          if (t >= hi) break;
          if (acc[t] === 0) touched[nt++] = t;
          acc[t]! += w;
        }
      }
      return;
    }
    if (nt + (end - start) > touched.length) touched = sc.touched = grownTo(touched, nt, nt + (end - start));
    for (let i = start; i < end; i++) {
      const t = list[i]!;
      if (!mask[ix.vocab[ix.termConcept[t]!]!]) continue;
      if (acc[t] === 0) touched[nt++] = t;
      acc[t]! += w;
    }
  };
  const grownTo = (a: Int32Array, used: number, need: number) => {
    let b = a;
    while (b.length < need && b.length < acc.length) b = grown(b, used, acc.length);
    return b;
  };
  // below this, a score cannot be in the answer (a lower bound of the limit-th best, or the floor), less a margin for
  // the float32 sums' order
  const threshold = () => Math.max(o.floor, histogramCut(cScore, cTouched, sc.nc, o.limit)) * (1 - 1e-5);
  for (const v of q.variants) {
    const total = v.total;
    if (total <= 0 || v.stems.length === 0) continue;
    // no text of this variant can score above its weight
    if (o.floor > 0 && v.weight < o.floor) continue;
    nt = 0;
    // every sum runs over the stems from the shortest posting list to the longest, in float32: a pruned walk adds the
    // same weights in the same order as the full one, so its scores are the same to the last bit
    const counts = useRanges ? v.stems.map((s) => countInRanges(list, ix.postings.start[s.stem]!, ix.postings.start[s.stem + 1]!, ranges)) : null;
    const order = v.stems.map((_, k) => k);
    if (counts) order.sort((a, b) => counts[a]! - counts[b]! || a - b);
    // max-score: the longest lists are skipped at first (those over `long`, and with a floor while their weight keeps
    // an untouched text below it); one list at least is walked
    let skip = 0;
    let skippedW = 0;
    if (counts && (o.long !== Infinity || o.floor > 0) && v.weight >= 0 && v.stems.every((s) => s.w >= 0)) {
      for (let j = order.length - 1; j >= 1; j--) {
        const k = order[j]!;
        const n = counts[k]!;
        if (n <= o.short) break;
        if (n <= o.long && !(o.floor > 0 && v.weight * Math.min(1, (skippedW + v.stems[k]!.w) / total) < o.floor)) break;
        skippedW += v.stems[k]!.w;
        skip++;
      }
      // with a floor, not even every stem together may reach it
      if (o.floor > 0 && v.weight * Math.min(1, (skippedW + v.stems[order[0]!]!.w) / total) < o.floor && skip === order.length - 1) continue;
    }
    const walked = order.length - skip;
    for (let j = 0; j < walked; j++) accumulate(v.stems[order[j]!]!.stem, v.stems[order[j]!]!.w);
    let exact = skip === 0;
    let theta = 0;
    if (!exact) {
      // the touched texts' sums so far are lower bounds of their scores (a hair below: never above the exact score);
      // if an untouched text could still reach the threshold, the skipped lists are walked after all
      for (let i = 0; i < nt; i++) credit(touched[i]!, textScore(v, touched[i]!, acc[touched[i]!]!) * (1 - 1e-5));
      theta = threshold();
      if (v.weight * Math.min(1, skippedW / total) >= theta) {
        for (let j = walked; j < order.length; j++) accumulate(v.stems[order[j]!]!.stem, v.stems[order[j]!]!.w);
        exact = true;
      }
    }
    for (let i = 0; i < nt; i++) {
      const t = touched[i]!;
      const a0 = acc[t]!;
      acc[t] = 0;
      if (exact) {
        credit(t, textScore(v, t, a0));
        continue;
      }
      // a text that could reach the threshold is tested for every stem, summed in the same order
      if (textScore(v, t, a0 + skippedW) * (1 + 1e-5) < theta) continue;
      let a = 0;
      for (const k of order) if (contains(ix, t, v.stems[k]!.stem)) a = Math.fround(a + v.stems[k]!.w);
      if (a !== 0) credit(t, textScore(v, t, a));
    }
  }
}

/**
 * Runs lexical splits in another thread (the server's CPU pool: workers/pool.ts), over the same index memory. The
 * answer per split: concepts and scores, best first, exactly lexicalChannel's. Null: run here instead.
 */
export type LexicalRunner = (
  ix: VocabIndex,
  q: AnalyzedQuery,
  splits: Array<Omit<LexicalSplit, 'out'>>,
) => Promise<Array<{ concepts: Int32Array; scores: Float32Array }> | null>;

/**
 * Indexes with at least this many texts search their words in the runner's threads when one is set. Measured with 5
 * clients on this 2-core machine (bench:search-scale, pooled against --no-pool, back to back): at 5M concepts (7.95M
 * texts) the walk is most of a query's CPU and the threads served 100–113 queries/s against 92–95 in one thread; at
 * 1M (1.55M texts) the hop cost more than it freed (150–158 queries/s against 174–194), and at the starter's size
 * (~0.5M texts) a walk takes a millisecond or two.
 */
export const OFF_THREAD_LEXICAL_TEXTS = 4_000_000;
let offThread: { run: LexicalRunner; minTexts: number } | null = null;

/** Set (or clear, with null) the runner that takes lexical walks off this thread. */
export function setLexicalRunner(run: LexicalRunner | null, minTexts = OFF_THREAD_LEXICAL_TEXTS): void {
  offThread = run ? { run, minTexts } : null;
}

/** lexicalChannel, in the runner's thread when one is set and the index is large enough (same answer either way). */
export async function lexicalSearch(ix: VocabIndex, q: AnalyzedQuery, splits: LexicalSplit[]): Promise<void> {
  if (offThread && ix.termConcept.length >= offThread.minTexts && splits.some((sp) => sp.allowed.some(Boolean))) {
    const answers = await offThread.run(
      ix,
      q,
      splits.map(({ allowed, limit, floor }) => ({ allowed, limit, ...(floor !== undefined ? { floor } : {}) })),
    );
    if (answers) {
      splits.forEach((sp, i) => {
        const { concepts, scores } = answers[i]!;
        for (let k = 0; k < concepts.length; k++) if ((sp.out.get(concepts[k]!) ?? 0) < scores[k]!) sp.out.set(concepts[k]!, scores[k]!);
      });
      return;
    }
  }
  lexicalChannel(ix, q, splits);
}

/** Run lexicalChannel and return each split's answer as arrays (the runner's thread side). */
export function lexicalAnswers(
  ix: VocabIndex,
  q: AnalyzedQuery,
  splits: Array<Omit<LexicalSplit, 'out'>>,
): Array<{ concepts: Int32Array; scores: Float32Array }> {
  const full = splits.map((sp) => ({ ...sp, out: new Map<number, number>() }));
  lexicalChannel(ix, q, full);
  return full.map(({ out }) => {
    const concepts = new Int32Array(out.size);
    const scores = new Float32Array(out.size);
    let k = 0;
    for (const [c, sc] of out) {
      concepts[k] = c;
      scores[k++] = sc;
    }
    return { concepts, scores };
  });
}

export function allowedMask(ix: VocabIndex, vocabs: Iterable<string>): Uint8Array {
  const m = new Uint8Array(ix.vocabList.length);
  const set = new Set(vocabs);
  ix.vocabList.forEach((v, i) => {
    if (set.has(v)) m[i] = 1;
  });
  return m;
}
