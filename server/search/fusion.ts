import type { Database } from '../db';
import { allowedMask, lexicalSearch } from './channels/lexical';
import { denseScan } from './channels/dense';
import { estimateFtsMatches, FTS_MAX_MATCHES, sparseChannel } from './channels/sparse';
import { CODE_MATCH_DOTLESS_LOGIT, CODE_MATCH_LOGIT, findCodeMatches, ID_MATCH_LOGIT } from './codes';
import { getModels } from './models';
import type { EffectiveParams } from './params';
import type { AnalyzedQuery, QueryVariant } from './query';
import { emptyEvidence, hasSidedSiblings, nameFacts, narrativeOffset, rerank, STOP_INITIAL, type CandidateEvidence, type TermMatch } from './rerank';
import { looksLikeCode, tokenize } from './text';
import { csrRow, denseCosine, encodeStems, STD_S, type VocabIndex } from './vocab-index';

/** Hybrid mode: the channels fused, every candidate reranked, ICD-10-CM defaults promoted. */

/** The least lexical score of a concept in another vocabulary that the crosswalk follows. */
const SOURCE_MIN = 0.45;
/**
 * The best lexical score below which the dense channel scans the requested vocabularies in full: with the built-in
 * vectors only when the words found next to nothing (at 0.4 the scan ran for 87 of the 950 dev queries at 5M
 * concepts, 52 ms each, and changed no R@10 or MRR there nor on the 1,726 starter dev and blind queries); with an
 * encoder model from SEARCH_MODEL_DIR, whose vectors may know what the words do not, when they matched weakly.
 */
const DENSE_SCAN_BELOW = { builtin: 0.15, model: 0.4 };
export interface Scored {
  c: number;
  logit: number;
  ev: CandidateEvidence;
  /** The reranker's best text match for the concept (the later stages read its coverage and precision). */
  match: TermMatch;
}

/** Words that deny what follows them in a title ("without replacement", "no mention of", "not elsewhere"). */
const DENIAL_WORDS = ['without', 'no', 'not', 'except', 'excluding', 'absent'];
const DENIAL = new RegExp(`^(?:${DENIAL_WORDS.join('|')})$`);

/**
 * Does a text deny something the query asks for: a query word (its stem) within three words after "without", "no" or
 * "not" in the text, where the query does not deny it itself? Reads the text's words, so only for a few texts.
 */
export function negationReader(ix: VocabIndex, q: AnalyzedQuery): (text: string) => boolean {
  const deniedInQuery = new Set<number>();
  q.words.forEach((w, i) => {
    if (!DENIAL.test(w)) return;
    for (const x of q.words.slice(i + 1, i + 4)) {
      const st = ix.stemOfWord(x);
      if (st !== undefined && st >= 0) deniedInQuery.add(st);
    }
  });
  const asked = new Set<number>();
  for (const st of q.variants[0]?.stems ?? []) if (!deniedInQuery.has(st.stem)) asked.add(st.stem);
  return (text: string) => {
    const words = tokenize(text).map((t) => t.text);
    for (let i = 0; i < words.length; i++) {
      if (!DENIAL.test(words[i]!)) continue;
      // "not elsewhere classified", "no mention of": the usual residual wording denies nothing asked
      for (const x of words.slice(i + 1, i + 4)) {
        const st = ix.stemOfWord(x);
        if (st !== undefined && st >= 0 && asked.has(st)) return true;
      }
    }
    return false;
  };
}

const denialWordsFor = new WeakMap<VocabIndex, { stems: Set<number>; stop: boolean }>();
/**
 * Can concept c's name hold a denial word at all? Read from the index's resident stems and initials (a stop word's
 * initial is '_'), so the name itself is read from disk only for the few names that can.
 */
export function mayDeny(ix: VocabIndex, c: number): boolean {
  let d = denialWordsFor.get(ix);
  if (!d) {
    d = { stems: new Set(), stop: false };
    for (const w of DENIAL_WORDS) {
      const st = ix.stemOfWord(w);
      if (st === undefined) continue;
      if (st < 0) d.stop = true;
      else d.stems.add(st);
    }
    denialWordsFor.set(ix, d);
  }
  const k = ix.conceptTermStart[c]!;
  // no texts: the name is read
  if (k === ix.conceptTermStart[c + 1]) return true;
  if (d.stop) for (let i = ix.initialsStart[k]!; i < ix.initialsStart[k + 1]!; i++) if (ix.initials[i] === STOP_INITIAL) return true;
  for (let p = ix.termTokStart[k]!; p < ix.termTokStart[k + 1]!; p++) if (d.stems.has(ix.tokStem[p]!)) return true;
  return false;
}

/** Does the full-text channel filter the candidates (raw, phrase, quotes or a minus in websearch), not only rank them? */
export function restricts(p: EffectiveParams): boolean {
  return p.searchType === 'raw' || p.searchType === 'phrase' || (p.searchType === 'websearch' && /["]|(^|\s)-\w/.test(p.query));
}

/** Hybrid search over `vocabs` (already normalised). Returns reranked, filtered candidates, best first. */
export async function hybridSearch(
  db: Database,
  ix: VocabIndex,
  p: EffectiveParams,
  q: AnalyzedQuery,
  vocabs: string[],
  /** `anchors`: graph mode's anchors, whose logits its quality gate judges as they are (no narrative offset). */
  opts: { minRelevance?: number | null; limit?: number; noDenseScan?: boolean; noSparse?: boolean; anchors?: boolean } = {},
): Promise<Scored[]> {
  // nothing to search for (stop words, single characters, bare numbers, punctuation) unless it is a code
  const codeHits = findCodeMatches(ix, p.query);
  const codeQuery = codeHits.byCode.length > 0 || codeHits.byId.length > 0;
  if (q.empty && !codeQuery && !looksLikeCode(p.query)) return [];
  const allowed = allowedMask(ix, vocabs);
  const ev = new Map<number, CandidateEvidence>();
  const evOf = (c: number) => {
    let e = ev.get(c);
    if (!e) ev.set(c, (e = emptyEvidence()));
    return e;
  };
  const domainIdx = p.domain ? ix.domainList.indexOf(p.domain) : -1;

  // 1. sparse (PostgreSQL full text): when it filters (raw, phrase, quotes or a minus in websearch) always; when it
  // only ranks, unless its query would match so many texts that ranking them takes PostgreSQL longer than the whole
  // search should (FTS_MAX_MATCHES)
  const restrict = restricts(p);
  const sparsePromise =
    restrict || (!opts.noSparse && estimateFtsMatches(ix, p) <= FTS_MAX_MATCHES)
      ? sparseChannel(db, p, vocabs, p.domain)
      : Promise.resolve(new Map<number, number>());
  // let the connection pool send it (its hand-over runs on the next tick): PostgreSQL then works on the other core
  // while the in-memory channels below hold this thread
  await new Promise((r) => setImmediate(r));

  // 2. lexical (names, synonyms, index terms; spelling and abbreviation variants)
  // 4. (sources) crosswalk: a second split scores the other vocabularies, above SOURCE_MIN only
  // only the vocabularies whose concepts can lead into the requested ones are scored as sources: a filter restricts
  // the work, not only the results
  const otherVocabs = crosswalkSources(ix, allowed);
  const otherMask = allowedMask(ix, otherVocabs);
  const lex = new Map<number, number>();
  const src = new Map<number, number>();
  await lexicalSearch(ix, q, [
    { allowed, limit: 250, out: lex },
    { allowed: otherMask, limit: 40, out: src, floor: SOURCE_MIN },
  ]);
  for (const [c, s] of lex) evOf(c).lexical = s;

  // codes and concept_ids typed as such: the concept itself, its children (a header code), and — for a concept of
  // another vocabulary — its 'Maps to' neighbours in ours (below, with the crosswalk)
  const codeSources: number[] = [];
  for (const c of [...codeHits.byCode, ...codeHits.byId]) {
    if (!allowed[ix.vocab[c]!]) codeSources.push(c);
  }
  {
    for (const c of codeHits.byCode) {
      if (!allowed[ix.vocab[c]!]) continue;
      evOf(c).code = 1;
      let n = 0;
      for (const ch of csrRow(ix.children, c)) {
        if (n++ >= 30) break;
        evOf(ch).code = Math.max(evOf(ch).code, 0.45);
      }
    }
    for (const c of codeHits.byId) if (allowed[ix.vocab[c]!]) evOf(c).code = 1;
  }

  // 4. crosswalk: matches in other vocabularies → their Maps-to targets in ours (1 hop, or 2 via a standard bridge)
  if (otherVocabs.length) {
    const negates = negationReader(ix, q);
    const stems = queryStems(q);
    const sources = [...src]
      .filter(([, s]) => s >= SOURCE_MIN)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 40);
    // a source that says it was done without what the query says was done ("valvuloplasty without replacement" for
    // "heart valve replacement") leads nowhere the query means; its name is read only when it leads somewhere at all
    const typed = new Set(codeSources);
    const denies = (s: number) => !typed.has(s) && mayDeny(ix, s) && negates(ix.name.get(s));
    for (const c of codeSources) {
      sources.unshift([c, 1]);
      // a standard concept typed as a code (SNOMED 22298006): the concepts of ours that map to it
      if (ix.std[c] === STD_S) {
        const from = [...csrRow(ix.mappedFrom, c)].filter((t) => allowed[ix.vocab[t]!]);
        for (const t of from.slice(0, 60)) evOf(t).cross = Math.max(evOf(t).cross, from.length <= 4 ? 1 : 1 / (1 + 0.04 * (from.length - 4)));
      }
    }
    // several GEM targets are each an approximate equivalent: a mild penalty for fan-out only
    const fan = (n: number) => (n <= 4 ? 1 : 1 / (1 + 0.04 * (n - 4)));
    for (const [s, score] of sources) {
      const targets = csrRow(ix.mapsTo, s);
      const direct = [...targets].filter((t) => allowed[ix.vocab[t]!]);
      const bridged = [...targets]
        .filter((b) => ix.std[b] === STD_S)
        .map((b) => [...csrRow(ix.mappedFrom, b)].filter((t) => t !== s && allowed[ix.vocab[t]!]))
        .filter((back) => back.length && back.length <= 40);
      if ((!direct.length && !bridged.length) || denies(s)) continue;
      // a source that says only part of the query leads to a target that must say some of it too: a partly matching
      // source's 'Maps to' is evidence for its own meaning, not the query's
      const w = (t: number) => (score >= CROSS_WHOLE || sharesWords(ix, t, stems) ? 1 : CROSS_UNCORROBORATED);
      for (const t of direct) evOf(t).cross = Math.max(evOf(t).cross, score * fan(direct.length) * w(t));
      for (const back of bridged) for (const t of back) evOf(t).cross = Math.max(evOf(t).cross, 0.8 * score * fan(back.length) * w(t));
    }
  }

  // 3. dense: cosine for every candidate; a full scan only when the words matched weakly (best lexical score below
  // DENSE_SCAN_BELOW) or not at all. The scan costs a pass over every concept of the requested vocabularies (50–100
  // ms for ICD-10-PCS at 5M concepts).
  const models = getModels(ix);
  const qVec = models.encoder
    ? await models.encoder.encodeQuery(p.query)
    : encodeStems(ix, [...q.variants.flatMap((v) => v.stems.map((s) => ({ stem: s.stem, w: v.weight })))]);
  const bestLex = Math.max(0, ...lex.values());
  const scanBelow = models.encoder ? DENSE_SCAN_BELOW.model : DENSE_SCAN_BELOW.builtin;
  if (qVec && !opts.noDenseScan && (bestLex < scanBelow || !q.variants.some((v) => v.stems.length))) {
    for (const c of denseScan(ix, qVec, allowed, domainIdx, models.encoder, 30)) evOf(c);
  }

  const sparse = await sparsePromise;
  for (const [id, r] of sparse) {
    const c = ix.idToIdx.get(id);
    if (c !== undefined) evOf(c).sparse = r;
  }

  // header codes pass their match down to their billable descendants (defaults first)
  const headers = [...ev]
    .filter(([c, e]) => !ix.isBillableLike(c) && Math.max(e.lexical, e.cross) >= 0.5)
    .sort((a, b) => Math.max(b[1].lexical, b[1].cross) - Math.max(a[1].lexical, a[1].cross))
    .slice(0, 12);
  for (const [h, e] of headers) {
    const inherit = Math.max(e.lexical, e.cross);
    for (const d of defaultDescendants(ix, h, 12)) evOf(d).inherited = Math.max(evOf(d).inherited, inherit);
  }

  // preliminary cut, then rerank
  let cands = [...ev].filter(([c]) => allowed[ix.vocab[c]!] && (domainIdx < 0 || ix.domain[c] === domainIdx));
  if (restrict) cands = cands.filter(([, e]) => e.sparse >= 0);
  const pre = (e: CandidateEvidence) => Math.max(e.lexical, e.cross, e.inherited * 0.9, e.code, e.sparse >= 0 ? 0.3 + 0.2 * e.sparse : 0) + 0.1;
  cands.sort((a, b) => pre(b[1]) - pre(a[1]));
  cands = cands.slice(0, opts.limit ?? 400);
  const scored: Scored[] = [];
  for (const [c, e] of cands) {
    if (Number.isNaN(e.dense) && qVec) e.dense = models.encoder ? models.encoder.cosine(qVec, c) : denseCosine(ix, qVec, c);
    const r = rerank(ix, c, q, e);
    scored.push({ c, logit: r.logit, ev: e, match: r.match });
  }
  if (models.reranker)
    await models.reranker.rescore(
      p.query,
      scored.slice(0, 50).map((s) => ({ s, text: ix.name.get(s.c) })),
    );
  promoteDefaults(ix, q, scored, allowed, !restrict && domainIdx < 0);
  diseaseBeforeSymptoms(ix, q, scored);
  conditionBeforeCause(ix, q, scored);
  // the concept whose code (or concept_id) is the query comes first
  if (codeQuery) {
    const exact = new Set(codeHits.byCode);
    const byId = new Set(codeHits.byId);
    for (const s of scored) {
      if (exact.has(s.c)) s.logit = Math.max(s.logit, codeHits.literal.has(s.c) ? CODE_MATCH_LOGIT : CODE_MATCH_DOTLESS_LOGIT);
      else if (byId.has(s.c)) s.logit = Math.max(s.logit, ID_MATCH_LOGIT);
    }
  }
  scored.sort((a, b) => b.logit - a.logit || a.c - b.c);
  // a long description's matches are calibrated against min_relevance like a short query's (rerank.ts)
  const offset = opts.anchors ? 0 : narrativeOffset(q);
  if (offset > 0) for (const s of scored) s.logit = Math.min(15, s.logit + offset);
  return aboveMin(scored, opts.minRelevance !== undefined ? opts.minRelevance : p.minRelevance);
}

/** A crosswalk source scoring this much says (nearly) all the query says; its targets need no words of their own. */
export const CROSS_WHOLE = 0.9;
/** What a weaker source's evidence keeps for a target that shares no word with the query or its rewrites. */
export const CROSS_UNCORROBORATED = 0.6;

/** The stems of the query's words and of all its rewrites. */
export function queryStems(q: AnalyzedQuery): Set<number> {
  return new Set(q.variants.flatMap((v) => v.stems.filter((st) => st.w > 0).map((st) => st.stem)));
}

/** Whether any text of concept c holds one of the stems (the query's words and its rewrites'). */
export function sharesWords(ix: VocabIndex, c: number, stems: Set<number>): boolean {
  const [from, to] = conceptTokens(ix, c);
  for (let p = from; p < to; p++) if (stems.has(ix.tokStem[p]!)) return true;
  return false;
}

/** The positions of concept c's tokens over all its texts (its texts, and so their tokens, are contiguous). */
function conceptTokens(ix: VocabIndex, c: number): [number, number] {
  return [ix.termTokStart[ix.conceptTermStart[c]!]!, ix.termTokStart[ix.conceptTermStart[c + 1]!]!];
}

/** The candidates at or above min_relevance (all of them when it is null). */
export function aboveMin(list: Scored[], min: number | null): Scored[] {
  return min === null ? list : list.filter((s) => s.logit >= min);
}

/**
 * The least share of a vocabulary's concepts that must lead into a requested vocabulary for its texts to be walked
 * as crosswalk sources. At 5M synthetic concepts, 4,026 of SNOMED's 1.44M concepts (0.3 %), 317 of LOINC's 478k and
 * 1,360 of CPT4's 144k lead into ICD-10-CM, yet walking their texts was most of the lexical time of an ICD-10-CM query
 * (ICD-9-CM and WHO ICD-10, 94–96 %, are what the crosswalk is for).
 */
export const SOURCE_MIN_REACH = 0.02;

/** The other vocabularies with crosswalk reach into any vocabulary of `allowed` (SOURCE_MIN_REACH of their concepts). */
export function crosswalkSources(ix: VocabIndex, allowed: Uint8Array): string[] {
  const V = ix.vocabList.length;
  const size = vocabSizes(ix);
  return ix.vocabList.filter((_, v) => {
    if (allowed[v]) return false;
    let reach = 0;
    for (let w = 0; w < V; w++) if (allowed[w]) reach += ix.crossReach[v * V + w]!;
    return reach > 0 && reach >= SOURCE_MIN_REACH * size[v]!;
  });
}

const sizesFor = new WeakMap<VocabIndex, Int32Array>();
/** Concepts per vocabulary. */
function vocabSizes(ix: VocabIndex): Int32Array {
  let size = sizesFor.get(ix);
  if (!size) {
    size = new Int32Array(ix.vocabList.length);
    for (let c = 0; c < ix.n; c++) size[ix.vocab[c]!]!++;
    sizesFor.set(ix, size);
  }
  return size;
}

/**
 * Coders code to billable codes: a strongly matching ICD-10-CM / ICD-9-CM header (O42 "Premature rupture of
 * membranes") hands its score to its default billable descendant (O42.90 …unspecified…), which then ranks just above
 * it, unless that descendant already scores higher on its own.
 */
function promoteDefaults(ix: VocabIndex, q: AnalyzedQuery, scored: Scored[], allowed: Uint8Array, allowNew: boolean): void {
  const byC = new Map(scored.map((s) => [s.c, s]));
  const top = [...scored].sort((a, b) => b.logit - a.logit).slice(0, 15);
  for (const h of top) {
    if (h.logit < 0 || ix.isBillableLike(h.c)) continue;
    const vocab = ix.vocabList[ix.vocab[h.c]!]!;
    if (vocab !== 'ICD10CM' && vocab !== 'ICD9CM') continue;
    // only when the header's own text says (nearly) all the query says: "PROM" → O42, not a title with specifics
    if (h.match.cov < 0.85) continue;
    const d = defaultDescendants(ix, h.c, 1)[0];
    if (d === undefined || !allowed[ix.vocab[d]!]) continue;
    // a query that names a side is not answered by the unspecified-side default ("osteoarthritis both knees": M17.0, not M17.9)
    if (q.laterality && !sideAgrees(ix, d, q.laterality)) {
      h.logit -= 0.5;
      continue;
    }
    let t = byC.get(d);
    if (!t && !allowNew) continue;
    if (!t) {
      const ev = emptyEvidence();
      ev.inherited = Math.max(h.ev.lexical, h.ev.cross);
      const r = rerank(ix, d, q, ev);
      t = { c: d, logit: r.logit, ev, match: r.match };
      scored.push(t);
      byC.set(d, t);
    }
    // the default code takes (nearly) the header's place; the header steps back behind it
    if (t.logit < h.logit - 0.15) t.logit = h.logit - 0.15;
    h.logit -= 0.5;
  }
}

/** Does concept c agree with the side a query names: its own side, or no side where its siblings name none? */
function sideAgrees(ix: VocabIndex, c: number, side: NonNullable<AnalyzedQuery['laterality']>): boolean {
  const f = nameFacts(ix, c);
  const own = f.bilateral ? 'bilateral' : f.right ? (f.left ? 'bilateral' : 'right') : f.left ? 'left' : null;
  return own ? own === side : !(f.unspecified > 0 && hasSidedSiblings(ix, c));
}

/**
 * The start of the ICD-10-CM ordering rules below: the candidates sorted best first, the vocabulary's position and the
 * query's first variant; nothing when there is no ICD-10-CM, no variant or a single candidate.
 */
function icdLead(ix: VocabIndex, q: AnalyzedQuery, scored: Scored[]): { icd: number; v: QueryVariant; top: Scored } | undefined {
  const icd = ix.vocabList.indexOf('ICD10CM');
  const v = q.variants[0];
  if (icd < 0 || !v || scored.length < 2) return undefined;
  scored.sort((a, b) => b.logit - a.logit || a.c - b.c);
  return { icd, v, top: scored[0]! };
}

/** The query's word groups (of its first variant) that each concept's texts hold, read from the resident stems. */
function queryGroupsIn(ix: VocabIndex, v: QueryVariant): (c: number) => Set<number> {
  const groupOf = new Map<number, number>();
  for (const st of v.stems) if (st.w > 0) groupOf.set(st.stem, st.group);
  return (c: number): Set<number> => {
    const out = new Set<number>();
    const [from, to] = conceptTokens(ix, c);
    for (let p = from; p < to; p++) {
      const g = groupOf.get(ix.tokStem[p]!);
      if (g !== undefined) out.add(g);
    }
    return out;
  };
}

/** An ICD-10-CM code as CMS writes it: E11, E11.9, S72.001A. */
const ICD10CM_CODE = /^[A-Z]\d[0-9A-Z](\.[0-9A-Z]{1,4})?$/;
/** How far below a leading external cause code an injury or disease code may score and still be put before it. */
const CAUSE_MARGIN = 6;
/** The least share of the condition's matched text that the query explains. */
const CAUSE_PRECISION = 0.5;
/**
 * External causes (ICD-10-CM chapter 20, V00–Y99) say how an injury happened and are never listed first (guideline
 * I.C.20): "broke my wrist falling on the ice" is the fracture, then the fall. When an external cause code leads, and
 * a code of chapters 1–19 within CAUSE_MARGIN of it matches a query word the cause does not ("wrist", "rabies" in
 * "rabies after dog bite"), that code is put first. A query that names only the cause ("dog bite", "fall from a
 * ladder") keeps it.
 */
function conditionBeforeCause(ix: VocabIndex, q: AnalyzedQuery, scored: Scored[]): void {
  const lead = icdLead(ix, q, scored);
  if (!lead) return;
  const { icd, v, top } = lead;
  // the chapters are read from the code: only codes of ICD-10-CM's shape (a letter, two characters, a dot before
  // the rest) are read, not other concepts a download files under the vocabulary
  const chapterOf = (c: number) => (ix.vocab[c] === icd && ICD10CM_CODE.test(ix.code.get(c)) ? ix.code.get(c)[0]! : '');
  if (!/^[V-Y]$/.test(chapterOf(top.c))) return;
  const groupsOf = queryGroupsIn(ix, v);
  const causeGroups = groupsOf(top.c);
  const conditions = scored
    .filter((s) => s.logit >= top.logit - CAUSE_MARGIN)
    .slice(0, 30)
    .filter((s) => /^[A-T]$/.test(chapterOf(s.c)) && s.match.prec >= CAUSE_PRECISION && [...groupsOf(s.c)].some((g) => !causeGroups.has(g)));
  let condition = conditions[0];
  // a code to code to first: the initial encounter "T23.009A", not its stem "T23.009"
  if (condition && !q.laterEncounter) {
    const stem = ix.code.get(condition.c);
    const initial = scored.slice(0, 60).find((s) => {
      const code = ix.code.get(s.c);
      return ix.vocab[s.c] === icd && code.length > stem.length && code.startsWith(stem) && /^[ST]\d\d\.?[0-9A-Z]{1,3}X*A$/.test(code);
    });
    if (initial) condition = initial;
  }
  if (condition) condition.logit = top.logit + 0.01;
}

/** How far below a leading symptom code a disease code may score and still be put before it. */
const DISEASE_MARGIN = 3;
/** Words that name a disease as history or background rather than as the cause of the symptoms. */
const HISTORY_WORD = /^(?:known|history|hx|background|previous|previously|past|pmh|pmhx)$/;
/** The least share of the disease's matched text that the query explains. */
const DISEASE_PRECISION = 0.75;
/**
 * Signs and symptoms that come with a disease are not coded beside it once it is named (ICD-10-CM guidelines,
 * I.B.4–5): "bronkitis cough", "numonia with high fever and cough". When an ICD-10-CM symptom code (chapter 18,
 * R00–R99) leads, and a disease code within DISEASE_MARGIN of it matches a word of the query that no symptom code
 * among the candidates matches, the disease code is put first. Words a symptom code matches ("fever" in "headache and
 * fever") never make a disease lead.
 */
function diseaseBeforeSymptoms(ix: VocabIndex, q: AnalyzedQuery, scored: Scored[]): void {
  const lead = icdLead(ix, q, scored);
  if (!lead) return;
  const { icd, v, top } = lead;
  const kind = (c: number): 'symptom' | 'disease' | 'other' => {
    if (ix.vocab[c] !== icd) return 'other';
    const code = ix.code.get(c);
    if (code.startsWith('R')) return 'symptom';
    return /^[A-NOPQ]/.test(code) ? 'disease' : 'other';
  };
  if (kind(top.c) !== 'symptom') return;
  // "headache, known diabetes": a disease named as history or background is not what the symptom comes from
  if (q.words.some((w) => HISTORY_WORD.test(w))) return;
  const groupsOf = queryGroupsIn(ix, v);
  const window = scored.filter((s) => s.logit >= top.logit - DISEASE_MARGIN).slice(0, 30);
  const symptomGroups = new Set<number>();
  for (const s of scored.slice(0, 60)) if (kind(s.c) === 'symptom') for (const g of groupsOf(s.c)) symptomGroups.add(g);
  // the disease's best text says little more than the query does ("Bronchitis", "Pneumonia, unspecified organism"):
  // not a title that merely shares an incidental word ("shower", "exertion", "rest")
  const disease = window.find((s) => kind(s.c) === 'disease' && [...groupsOf(s.c)].some((g) => !symptomGroups.has(g)) && s.match.prec >= DISEASE_PRECISION);
  if (disease) disease.logit = top.logit + 0.01;
}

/** Billable descendants of a header: the "unspecified"/default codes first, initial encounter preferred. */
export function defaultDescendants(ix: VocabIndex, h: number, limit: number): number[] {
  // the same headers come back query after query, and each costs up to 400 names read from disk: kept per index
  let memo = descendantsMemo.get(ix);
  if (!memo) descendantsMemo.set(ix, (memo = new Map()));
  let all = memo.get(h);
  if (!all) {
    all = rankDescendants(ix, h, DESCENDANTS_KEPT);
    if (memo.size >= DESCENDANTS_MEMO) memo.clear();
    memo.set(h, all);
  }
  return limit >= all.length ? all : all.slice(0, limit);
}
/** The most default descendants kept per header (callers ask for 12 at most), and the headers remembered. */
const DESCENDANTS_KEPT = 12;
const DESCENDANTS_MEMO = 50_000;
const descendantsMemo = new WeakMap<VocabIndex, Map<number, number[]>>();

function rankDescendants(ix: VocabIndex, h: number, limit: number): number[] {
  const out: Array<[number, number]> = [];
  const queue: Array<[number, number]> = [[h, 0]];
  const seen = new Set<number>([h]);
  while (queue.length && out.length < 400) {
    const [c, depth] = queue.shift()!;
    for (const ch of csrRow(ix.children, c)) {
      if (seen.has(ch)) continue;
      seen.add(ch);
      if (depth < 4) queue.push([ch, depth + 1]);
      // only billable codes are ranked: an intermediate header's name is not read
      if (!ix.isBillableLike(ch)) continue;
      const name = ix.name.get(ch);
      const code = ix.code.get(ch);
      let pref = -depth;
      // "Unspecified fracture of unspecified femur" is more the default than "…subtrochanteric fracture of unspecified femur"
      const facts = nameFacts(ix, ch);
      if (facts.unspecified) pref += 2 + 0.75 * (facts.unspecified - 1) + (facts.startsUnspecified ? 0.75 : 0);
      if (/\.9/.test(code)) pref += 0.25;
      if (/\b(other|specified)\b/i.test(name) && !/unspecified/i.test(name)) pref -= 0.5;
      if (/9$/.test(code.replace(/[A-Z]$/, ''))) pref += 0.5;
      if (code.length >= 8 && /[A-Z]$/.test(code)) pref += code.endsWith('A') ? 1 : -3;
      out.push([ch, pref]);
    }
  }
  return out
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([c]) => c);
}
