import type { Database } from '../db';
import { findCodeMatches } from './codes';
import { round, toResult } from './concepts';
import { CROSS_UNCORROBORATED, CROSS_WHOLE, defaultDescendants, hybridSearch, queryStems, sharesWords } from './fusion';
import { ANCHOR_QUALITY_GATE, type EffectiveParams } from './params';
import type { AnalyzedQuery } from './query';
import { emptyEvidence, rerank } from './rerank';
import type { ConceptResult } from './schema';
import { csrRow, STD_S, type VocabIndex } from './vocab-index';

/** Graph mode: hybrid anchors, then 'Maps to' / 'Mapped from' (through standard bridges) and 'Is a' traversal. */

export interface GraphOutcome {
  results?: ConceptResult[];
  fallbackReason?: string;
}

/**
 * Which vocabularies have an edge into which, along the edges the traversal below follows: 'Maps to', a standard
 * concept's 'Mapped from', and 'Is a' both ways. adj[v * V + w] = 1 when some concept of v has a neighbour in w.
 * One pass over the index's 'Maps to' and 'Is a' rows, on the first graph search (about 0.1 s at 5M concepts).
 */
const adjacencyFor = new WeakMap<VocabIndex, Uint8Array>();
export function vocabAdjacency(ix: VocabIndex): Uint8Array {
  let adj = adjacencyFor.get(ix);
  if (adj) return adj;
  const V = ix.vocabList.length;
  adj = new Uint8Array(V * V);
  const { vocab, std } = ix;
  for (let c = 0; c < ix.n; c++) {
    const vc = vocab[c]!;
    for (let i = ix.mapsTo.start[c]!; i < ix.mapsTo.start[c + 1]!; i++) {
      const t = ix.mapsTo.list[i]!;
      adj[vc * V + vocab[t]!] = 1;
      if (std[t] === STD_S) adj[vocab[t]! * V + vc] = 1;
    }
    for (let i = ix.parents.start[c]!; i < ix.parents.start[c + 1]!; i++) {
      const t = ix.parents.list[i]!;
      adj[vc * V + vocab[t]!] = 1;
      adj[vocab[t]! * V + vc] = 1;
    }
  }
  adjacencyFor.set(ix, adj);
  return adj;
}

/**
 * The vocabularies from which the traversal can reach one of `targets` within `hops` edges (the targets included):
 * an anchor anywhere else could only lead to results that the vocabulary filter drops, so a filter to ICD-10-CM does
 * not search the drug vocabularies' 2 million texts for anchors.
 */
export function reachingVocabs(ix: VocabIndex, targets: string[], hops: number): string[] {
  const V = ix.vocabList.length;
  const adj = vocabAdjacency(ix);
  const dist = new Int32Array(V).fill(-1);
  let frontier: number[] = [];
  for (const t of targets) {
    const w = ix.vocabList.indexOf(t);
    if (w >= 0 && dist[w] < 0) {
      dist[w] = 0;
      frontier.push(w);
    }
  }
  for (let h = 1; h <= hops && frontier.length; h++) {
    const next: number[] = [];
    for (const w of frontier)
      for (let v = 0; v < V; v++)
        if (dist[v] < 0 && adj[v * V + w]) {
          dist[v] = h;
          next.push(v);
        }
    frontier = next;
  }
  return ix.vocabList.filter((_, v) => dist[v]! >= 0);
}

export async function graphSearch(db: Database, ix: VocabIndex, p: EffectiveParams, q: AnalyzedQuery): Promise<GraphOutcome> {
  // anchors: hybrid search over the requested vocabularies and the default set, so a mapping can start anywhere the
  // traversal can lead from into a requested vocabulary (all of them when results may come from any vocabulary)
  const anyVocab = ix.vocabList.filter((v) => v !== 'DRG' && v !== 'OPCS4');
  const anchorVocabs = [
    ...new Set([...p.vocabularies, ...(p.filterToInputVocab ? reachingVocabs(ix, p.vocabularies, p.maxHops) : anyVocab).filter((v) => anyVocab.includes(v))]),
  ];
  const anchors = (
    await hybridSearch(db, ix, { ...p, domain: null }, q, anchorVocabs, { minRelevance: null, limit: 300, noDenseScan: true, anchors: true })
  ).slice(0, 10);
  if (!anchors.length) {
    const limited = anchorVocabs.length < anyVocab.length;
    return {
      fallbackReason: limited
        ? `no anchors: hybrid search found no concept in ${p.vocabularies.join(', ')} or in a vocabulary that leads into ${p.vocabularies.length > 1 ? 'them' : 'it'}`
        : 'no anchors: hybrid search found no concept to start the graph traversal from',
    };
  }
  const best = anchors[0]!.logit;
  if (p.qualityGate && best < ANCHOR_QUALITY_GATE) {
    return { fallbackReason: `low-quality rerank: the best anchor scored ${best.toFixed(2)}, below the graph quality gate of ${ANCHOR_QUALITY_GATE}` };
  }
  const gated = anchors.filter((a) => !p.qualityGate || a.logit >= Math.min(ANCHOR_QUALITY_GATE, best - 4));
  const inVocab = new Set(p.vocabularies);
  const score = new Map<number, number>();
  const bridges = new Set<number>();
  const reachedByMap = new Set<number>();
  const anchorSet = new Set<number>();
  // whether a concept's best path starts at an anchor that says (nearly) all the query says, or is a code typed
  const fromWhole = new Map<number, boolean>();
  const push = (c: number, s: number, whole: boolean) => {
    if ((score.get(c) ?? 0) < s) {
      score.set(c, s);
      fromWhole.set(c, whole);
    }
  };
  for (const a of gated) {
    const w = 1 / (1 + Math.exp(-a.logit / 3));
    anchorSet.add(a.c);
    const whole = a.ev.code > 0 || Math.max(a.ev.lexical, a.ev.cross) >= CROSS_WHOLE;
    push(a.c, w, whole);
    // BFS over Maps to / Mapped from (through standard bridges) and Is a / Subsumes
    let frontier: Array<[number, number]> = [[a.c, w]];
    const seen = new Set<number>([a.c]);
    for (let hop = 1; hop <= p.maxHops && frontier.length; hop++) {
      const next: Array<[number, number]> = [];
      for (const [c, s] of frontier) {
        const hopTo = (t: number, decay: number, viaMaps: boolean) => {
          if (viaMaps) reachedByMap.add(t);
          if (seen.has(t)) return;
          seen.add(t);
          const v = s * decay;
          push(t, v, whole);
          if (next.length < 4000) next.push([t, v]);
        };
        for (const t of csrRow(ix.mapsTo, c)) hopTo(t, 0.9, true);
        if (ix.std[c] === STD_S) {
          const from = csrRow(ix.mappedFrom, c);
          // a standard concept reached through 'Maps to' and leading on through 'Mapped from' is a 2-hop bridge
          if (reachedByMap.has(c) && from.length > 1) bridges.add(c);
          for (const t of from) hopTo(t, 0.85, false);
        }
        let k = 0;
        for (const t of csrRow(ix.parents, c)) if (k++ < 8) hopTo(t, 0.7, false);
        k = 0;
        for (const t of csrRow(ix.children, c)) if (k++ < 25) hopTo(t, 0.6, false);
      }
      frontier = next;
    }
  }
  const domainIdx = p.domain ? ix.domainList.indexOf(p.domain) : -1;
  const picked: Array<{ c: number; g: number; bridge: boolean }> = [];
  // a concept reached from an anchor that says only part of the query, and sharing no word with the query or its
  // rewrites, is evidence for the anchor's own meaning: it keeps what a crosswalk target keeps (fusion.ts)
  const stems = queryStems(q);
  const corroborated = (c: number, g: number) => (anchorSet.has(c) || fromWhole.get(c) || sharesWords(ix, c, stems) ? g : g * CROSS_UNCORROBORATED);
  for (const [c, g0] of score) {
    const vocab = ix.vocabList[ix.vocab[c]!]!;
    const isBridge = bridges.has(c) && !inVocab.has(vocab);
    if (domainIdx >= 0 && ix.domain[c] !== domainIdx) continue;
    if (isBridge) {
      if (p.includeBridges) picked.push({ c, g: corroborated(c, g0), bridge: true });
      continue;
    }
    if (p.filterToInputVocab && !inVocab.has(vocab)) continue;
    if (anchorSet.has(c) && p.minRelevance !== null) {
      const a = anchors.find((x) => x.c === c)!;
      if (a.logit < p.minRelevance) continue;
    }
    picked.push({ c, g: corroborated(c, g0), bridge: false });
  }
  if (!picked.some((x) => !x.bridge)) return { fallbackReason: 'empty graph expansion: the traversal reached no concept in the requested vocabularies' };
  // translating a code: coders code to billable codes, so an ICD-10-CM / ICD-9-CM header the traversal reached
  // (SNOMED 22298006 → I21) hands its place to its default billable descendant (I21.9: unspecified, initial
  // encounter), ranked just above it. (For text queries this cost GEM dx MRR 0.971 → 0.964: not applied.)
  const codeQuery = ((m) => m.byCode.length + m.byId.length > 0)(findCodeMatches(ix, p.query));
  const pickedAt = new Map(picked.map((x, i) => [x.c, i]));
  for (const x of codeQuery ? [...picked] : []) {
    if (x.bridge || anchorSet.has(x.c) || ix.isBillableLike(x.c)) continue;
    const vocab = ix.vocabList[ix.vocab[x.c]!]!;
    if (vocab !== 'ICD10CM' && vocab !== 'ICD9CM') continue;
    const d = defaultDescendants(ix, x.c, 1)[0];
    if (d === undefined || (domainIdx >= 0 && ix.domain[d] !== domainIdx)) continue;
    if (p.filterToInputVocab && !inVocab.has(ix.vocabList[ix.vocab[d]!]!)) continue;
    const at = pickedAt.get(d);
    if (at === undefined) {
      pickedAt.set(d, picked.length);
      picked.push({ c: d, g: x.g * 1.001, bridge: false });
    } else if (picked[at]!.g <= x.g) picked[at]!.g = x.g * 1.001;
  }
  const maxG = Math.max(...picked.map((x) => x.g));
  const out: ConceptResult[] = [];
  const ranked = picked
    .map((x) => ({ ...x, sim: anchors.find((a) => a.c === x.c)?.logit ?? rerank(ix, x.c, q, emptyEvidence()).logit }))
    .sort((a, b) => b.g - a.g || b.sim - a.sim);
  for (const x of ranked.slice(0, p.topK)) {
    const gs = round(x.g / maxG);
    const r: ConceptResult = { ...toResult(ix, x.c, x.sim), graph_score: gs, combined_score: gs, score: round(x.sim) };
    if (x.bridge) r.is_bridge = true;
    out.push(r);
  }
  return { results: out };
}
