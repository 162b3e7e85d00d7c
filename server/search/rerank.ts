import type { AnalyzedQuery, QueryVariant } from './query';
import { csrRow, TOK_HEAD, TOK_OPTIONAL, type VocabIndex } from './vocab-index';

/**
 * The reranker: scores one (query, concept) pair at a time, like a cross-encoder, and returns a logit. Built-in model:
 * a fixed linear model over match features (how much of the query a concept's name or synonym covers, how much of
 * that text is left unexplained, exact match, the crosswalk and graph evidence, the dense cosine, billable/default
 * codes, the encounter and side the query names). Lexicon rewrites are scored like the query as typed, scaled by the
 * rewrite's confidence, so a lay term that is exactly a concept's text ("throwing up" → Vomiting) scores nearly like
 * an exact match. Its scale follows the cross-encoder convention the API documents: roughly −15…+15, about 0
 * separating irrelevant from relevant, so `min_relevance = -2` keeps borderline matches and drops noise.
 */
export interface CandidateEvidence {
  /** Best lexical score seen by a retrieval channel (0..1). */
  lexical: number;
  /** Full-text (PostgreSQL) rank, normalised 0..1, or -1 when not in the full-text result. */
  sparse: number;
  /** Crosswalk evidence (a matched concept in another vocabulary maps here), 0..1. */
  cross: number;
  /** Inherited from a matching header (grouping) concept, 0..1. */
  inherited: number;
  /** Dense cosine (built-in or ONNX encoder), -1..1; NaN when unknown. */
  dense: number;
  /** Exact code match (1), code prefix/descendant (0.5), else 0. */
  code: number;
}

export function emptyEvidence(): CandidateEvidence {
  return { lexical: 0, sparse: -1, cross: 0, inherited: 0, dense: Number.NaN, code: 0 };
}

export interface TermMatch {
  cov: number;
  prec: number;
  exact: boolean;
  isName: boolean;
  term: number;
}

/** What a text's coverage keeps when the query matches none of its main term's words (vocab-index.ts headWords). */
const HEAD_MISSED = 0.8;

/** How well one variant matches the best of a concept's texts (each query word group counts once). */
export function matchConcept(ix: VocabIndex, c: number, v: QueryVariant): TermMatch {
  const qw = new Map<number, { w: number; g: number }>();
  for (const s of v.stems) if (!qw.has(s.stem)) qw.set(s.stem, { w: s.w, g: s.group });
  const total = v.total;
  let best: TermMatch = { cov: 0, prec: 0, exact: false, isName: false, term: -1 };
  let bestScore = -1;
  if (total <= 0) return best;
  const seen = new Set<number>();
  const groupBest = new Map<number, number>();
  let groups = 0;
  for (const s of v.stems) groups = Math.max(groups, s.group + 1);
  for (let k = ix.conceptTermStart[c]!; k < ix.conceptTermStart[c + 1]!; k++) {
    seen.clear();
    groupBest.clear();
    let matchedReq = 0;
    let req = 0;
    let reqStems = 0;
    let reqMatched = 0;
    let head = 0;
    let headHit = 0;
    for (let p = ix.termTokStart[k]!; p < ix.termTokStart[k + 1]!; p++) {
      const s = ix.tokStem[p]!;
      if (seen.has(s)) continue;
      seen.add(s);
      const q = qw.get(s);
      const bits = ix.tokOpt[p]!;
      const opt = (bits & TOK_OPTIONAL) !== 0;
      if (!opt) {
        reqStems++;
        // the text's own required weight, uncapped like matchedReq (termReqIdf is capped for the lexical channel)
        req += ix.idf[s]!;
      }
      if (bits & TOK_HEAD && !opt) {
        head++;
        if (q !== undefined) headHit++;
      }
      if (q !== undefined) {
        if ((groupBest.get(q.g) ?? 0) < q.w) groupBest.set(q.g, q.w);
        if (!opt) {
          matchedReq += ix.idf[s]!;
          reqMatched++;
        }
      }
    }
    let matched = 0;
    for (const w of groupBest.values()) matched += w;
    // an index entry reached through its subterms alone ("Syphilis (acquired), … pneumonia" for "hospital acquired
    // pneumonia") is an entry for another condition; a one-word query ("rheumatoid") is a subterm's word by nature
    const cov = Math.min(1, matched / total) * (head > 0 && headHit === 0 && groups > 1 ? HEAD_MISSED : 1);
    const prec = req > 0 ? Math.min(1, matchedReq / req) : cov > 0 ? 1 : 0;
    const exact = groupBest.size === groups && cov > 0.98 && reqMatched === reqStems;
    const score = cov * (0.72 + 0.28 * prec) + (exact ? 0.05 : 0) + (ix.termIsName[k] ? 0.01 : 0);
    if (score > bestScore) {
      bestScore = score;
      best = { cov, prec, exact, isName: ix.termIsName[k] === 1, term: k };
    }
  }
  return best;
}

export interface RerankResult {
  logit: number;
  match: TermMatch;
  variant: QueryVariant;
}

/** What a pregnancy (O) or newborn (P) code loses when the query says nothing of a pregnancy or a newborn. */
const CONTEXT_PENALTY = 1.2;
/** What a poisoning of another intent than accidental loses when the query does not say the intent. */
const OTHER_INTENT_PENALTY = 0.6;
/** ICD-10-PCS sections whose 5th character is the approach: medical and surgical, obstetrics, administration, measurement and monitoring, other procedures. */
const APPROACH_SECTIONS = new Set(['0', '1', '3', '4', '8']);
/** What a procedure done the way the query says gains over its siblings done another way. */
const APPROACH_BONUS = 1.3;
const ENCOUNTER_7TH = /^[STV-Y]\d\d\.?[0-9A-Z]{0,3}X*[A-Z]$/;

export function rerank(ix: VocabIndex, c: number, q: AnalyzedQuery, ev: CandidateEvidence): RerankResult {
  let bestRel = -1;
  let bestMatch: TermMatch = { cov: 0, prec: 0, exact: false, isName: false, term: -1 };
  let bestVariant = q.variants[0]!;
  for (const v of q.variants) {
    const m = matchConcept(ix, c, v);
    const rel = v.weight * m.cov * (0.7 + 0.3 * m.prec) + (m.exact ? 0.04 * v.weight : 0);
    if (rel > bestRel) {
      bestRel = rel;
      bestMatch = m;
      bestVariant = v;
    }
  }
  const inherited = ev.inherited * 0.9;
  const rel = Math.max(0, bestRel, inherited, 0.92 * ev.cross, ev.lexical * 0.5);
  // concave: matching the informative half of a lay phrasing ("snores loudly at night") is already evidence
  let logit = -7.5 + 11 * Math.pow(rel, 0.65);
  logit += 1.6 * bestMatch.prec * Math.min(1, bestRel / 0.6);
  if (bestMatch.exact && bestVariant.weight >= 0.99) logit += 2.2;
  // a confident lexicon rewrite that is exactly a concept's text (throwing up → vomiting) earns most of that bonus
  else if (bestMatch.exact && bestVariant.kind === 'lexicon') logit += 2.2 * Math.max(0, Math.min(1, (bestVariant.weight - 0.6) / 0.35));
  if (bestMatch.isName && bestRel > 0.5) logit += 0.4;
  if (ev.sparse >= 0) logit += 0.6 + 0.6 * ev.sparse;
  logit += 1.2 * ev.cross;
  if (!Number.isNaN(ev.dense)) logit += 1.2 * Math.max(0, ev.dense - 0.6);
  logit += 11 * ev.code;
  // coders code to billable leaves: prefer them over headers, and the default 7th character (initial encounter)
  const billable = ix.isBillableLike(c);
  logit += billable ? 0.8 : -0.6;
  const code = ix.code.get(c);
  const vocab = ix.vocabList[ix.vocab[c]!]!;
  const facts = nameFacts(ix, c);
  if (vocab === 'ICD10CM' && code.length >= 8 && ENCOUNTER_7TH.test(code)) {
    // the 7th character: initial encounter unless the query names another one
    const seventh = code[code.length - 1]!;
    const kind = seventh === 'S' ? 'sequela' : /[ABC]/.test(seventh) ? 'initial' : 'subsequent';
    const named = q.encounter === 'subsequent' || q.encounter === 'sequela' ? q.encounter : q.laterEncounter ? null : 'initial';
    if (named) {
      if (kind !== named) logit -= named === 'initial' ? 1.6 : 1;
      // within the encounter, the defaults the codes' names say: a fracture is closed unless the query says it is
      // open (guideline I.C.19.c.1; A and D, or B and E), an open one is type I or II unless the query says type
      // III, and a fracture heals routinely unless the query says delayed healing, nonunion or malunion
      else if (facts.fracture && (facts.fracture === 'open') !== !!q.openFracture) logit -= 1.6;
      else if (facts.healingComplication && !q.healingComplication) logit -= 1;
      else if (facts.fracture === 'open' && q.gustiloIII && !facts.gustiloIII) logit -= 1;
      else logit += facts.gustiloIII && !q.gustiloIII ? 0.2 : 0.5;
    }
  }
  // the approach the query's words imply (PCS 5th character, in the sections whose 5th character is the approach)
  if (q.approach && vocab === 'ICD10PCS' && code.length === 7 && APPROACH_SECTIONS.has(code[0]!) && code[4] === q.approach) logit += APPROACH_BONUS;
  if (vocab === 'ICD10CM' && q.context) {
    // chapter 15 describes a pregnant or puerperal patient and chapter 16 a newborn: a query that says neither means
    // someone else ("varicose veins of the leg" is not "varicose veins in the puerperium")
    if (code[0] === 'O' && !q.context.pregnancy) logit -= CONTEXT_PENALTY;
    else if (code[0] === 'P' && !q.context.newborn) logit -= CONTEXT_PENALTY;
    // a poisoning whose intent is not said is coded as accidental (guideline I.C.19.e.5.b): the other intents step back
    else if (code[0] === 'T' && facts.otherIntent && !q.context.intent) logit -= OTHER_INTENT_PENALTY;
  }
  if (q.laterality) {
    // the side the query names: a concept for the other side is a different code
    const side = facts.bilateral ? 'bilateral' : facts.right ? (facts.left ? 'bilateral' : 'right') : facts.left ? 'left' : null;
    if (side) logit += side === q.laterality ? 0.3 : -1.5;
    // "unspecified knee" when the query names the side, and the code has sided siblings
    else if (facts.unspecified > 0 && hasSidedSiblings(ix, c)) logit -= 1.2;
  }
  if (facts.unspecified > 0 && rel > 0.5) logit += 0.35;
  // "Other asthma" is a specified kind: an unqualified query means the unspecified one
  else if ((vocab === 'ICD10CM' || vocab === 'ICD9CM') && facts.startsWithStopWord && !q.words.includes('other') && /^other\b/i.test(ix.name.get(c)))
    logit -= 0.4;
  // words nothing explains ("xyzzy plugh") make every match less certain
  if (q.unexplained > 0) logit -= Math.min(3.5, 4.5 * q.unexplained);
  return { logit: Math.max(-15, Math.min(15, logit)), match: bestMatch, variant: bestVariant };
}

/** Content words a concept's text can be expected to cover; beyond them a query reads as a description. */
const NARRATIVE_WORDS = 4;
/**
 * The logit a long description's matches gain, the same for every candidate of the query (the ranking is unchanged):
 * one concept's title never covers "69M admitted with crushing chest pain down his left arm, sweaty" the way it covers
 * a short query, so without it a concept that explains the description's clinical core scores as noise and falls
 * under min_relevance. Grows with the square root of the content words beyond NARRATIVE_WORDS, at most 3.
 */
export function narrativeOffset(q: AnalyzedQuery): number {
  const v = q.variants[0];
  if (!v) return 0;
  const groups = new Set<number>();
  for (const s of v.stems) if (s.w > 0) groups.add(s.group);
  return groups.size <= NARRATIVE_WORDS ? 0 : Math.min(3, 4 * (Math.sqrt(groups.size / NARRATIVE_WORDS) - 1));
}

/**
 * What a concept's name says about its kind, read from the name's resident word stems and initials instead of its text
 * on disk (at 5M concepts the reranker's name reads were a tenth of the search thread's time). "other" is a stop word
 * (no stem): a name that begins with a stop word is read to tell "Other …" from "In-line …".
 */
export interface NameFacts {
  /** Times "unspecified" occurs. */
  unspecified: number;
  /** The name begins with "Unspecified". */
  startsUnspecified: boolean;
  /** The name begins with a stop word ("Other …", "In-line …"). */
  startsWithStopWord: boolean;
  /** The name says a poisoning's intent other than accidental: intentional self-harm, assault, undetermined. */
  otherIntent: boolean;
  right: boolean;
  left: boolean;
  bilateral: boolean;
  /** What the name says of a fracture: "open fracture" or "closed fracture" ("…, initial encounter for open fracture"), the first said. */
  fracture: 'open' | 'closed' | null;
  /** The name says delayed healing, nonunion or malunion. */
  healingComplication: boolean;
  /** The name says an open fracture of Gustilo type III ("open fracture type IIIA, IIIB, or IIIC"). */
  gustiloIII: boolean;
}
/** The initial a stop word has in the index's initials (index-build.ts initialByte). */
export const STOP_INITIAL = 95;
const factStems = new WeakMap<
  VocabIndex,
  Record<
    | 'unspecified'
    | 'right'
    | 'left'
    | 'bilateral'
    | 'intentional'
    | 'assault'
    | 'undetermined'
    | 'open'
    | 'closed'
    | 'delayed'
    | 'nonunion'
    | 'malunion'
    | 'iiia'
    | 'fracture',
    number
  >
>();
export function nameFacts(ix: VocabIndex, c: number): NameFacts {
  let st = factStems.get(ix);
  if (!st) {
    const id = (w: string) => ix.stemOfWord(w) ?? -2;
    st = {
      unspecified: id('unspecified'),
      right: id('right'),
      left: id('left'),
      bilateral: id('bilateral'),
      intentional: id('intentional'),
      assault: id('assault'),
      undetermined: id('undetermined'),
      open: id('open'),
      closed: id('closed'),
      delayed: id('delayed'),
      nonunion: id('nonunion'),
      malunion: id('malunion'),
      iiia: id('iiia'),
      fracture: id('fracture'),
    };
    factStems.set(ix, st);
  }
  const f: NameFacts = {
    unspecified: 0,
    startsUnspecified: false,
    startsWithStopWord: false,
    otherIntent: false,
    right: false,
    left: false,
    bilateral: false,
    fracture: null,
    healingComplication: false,
    gustiloIII: false,
  };
  const k = ix.conceptTermStart[c]!;
  if (k === ix.conceptTermStart[c + 1]) return f;
  f.startsWithStopWord = ix.initials[ix.initialsStart[k]!] === STOP_INITIAL;
  const a = ix.termTokStart[k]!;
  const b = ix.termTokStart[k + 1]!;
  for (let p = a; p < b; p++) {
    const s = ix.tokStem[p]!;
    if (s === st.unspecified) {
      f.unspecified++;
      if (p === a && !f.startsWithStopWord) f.startsUnspecified = true;
    } else if (s === st.right) f.right = true;
    else if (s === st.left) f.left = true;
    else if (s === st.bilateral) f.bilateral = true;
    else if (s === st.intentional || s === st.assault || s === st.undetermined) f.otherIntent = true;
    else if ((s === st.open || s === st.closed) && !f.fracture && p + 1 < b && ix.tokStem[p + 1] === st.fracture)
      f.fracture = s === st.open ? 'open' : 'closed';
    else if (s === st.delayed || s === st.nonunion || s === st.malunion) f.healingComplication = true;
    else if (s === st.iiia) f.gustiloIII = true;
  }
  return f;
}

const sidedCache = new WeakMap<VocabIndex, Map<number, boolean>>();

/** Does a sibling of concept c (another child of one of its parents, or of a grandparent) name a side (right, left or bilateral)? */
export function hasSidedSiblings(ix: VocabIndex, c: number): boolean {
  let cache = sidedCache.get(ix);
  if (!cache) sidedCache.set(ix, (cache = new Map()));
  const hit = cache.get(c);
  if (hit !== undefined) return hit;
  const sidedChild = (p: number, not: number) => {
    for (const sib of csrRow(ix.children, p)) {
      if (sib === not) continue;
      const f = nameFacts(ix, sib);
      if (f.right || f.left || f.bilateral) return true;
    }
    return false;
  };
  // the siblings, or, for a code whose siblings differ only in the encounter ("Open bite, unspecified foot, initial
  // encounter" under "…, unspecified foot"), its parent's siblings
  const parents = [...csrRow(ix.parents, c)];
  const sided = parents.some((p) => sidedChild(p, c)) || parents.some((p) => [...csrRow(ix.parents, p)].some((g) => sidedChild(g, p)));
  if (cache.size > 100_000) cache.clear();
  cache.set(c, sided);
  return sided;
}
