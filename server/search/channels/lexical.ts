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
 * Lexical retrieval: idf-weighted coverage of each query variant by each text, best text per concept. One pass over
 * the postings for every vocabulary in `mask`; returns the top `limit` concepts of each of the `splits`.
 */
export function lexicalChannel(ix: VocabIndex, q: AnalyzedQuery, mask: Uint8Array, splits: Array<{ allowed: Uint8Array; limit: number; out: Map<number, number> }>): void {
  const { acc, touched, cScore, cTouched } = scratch(ix);
  let nc = 0;
  for (const v of q.variants) {
    const total = v.total;
    if (total <= 0 || v.stems.length === 0) continue;
    let nt = 0;
    for (const s of v.stems) {
      const start = ix.postings.start[s.stem]!;
      const end = ix.postings.start[s.stem + 1]!;
      for (let i = start; i < end; i++) {
        const t = ix.postings.list[i]!;
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
