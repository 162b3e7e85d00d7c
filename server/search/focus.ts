import type { Database } from '../db';
import { aboveMin, hybridSearch, restricts, type Scored } from './fusion';
import type { EffectiveParams } from './params';
import { analyzeQuery, type AnalyzedQuery } from './query';
import { narrativeOffset } from './rerank';
import type { VocabIndex } from './vocab-index';

/**
 * Narrative focus. A description ("My husband got a painful band of blisters around his ribs on one side, the doctor
 * said it's shingles") is searched whole and also clause by clause: no concept's title covers the whole story, so the
 * whole-query ranking favours whatever shares the most words with it (rib fractures), while one clause names the
 * finding outright. The lists are fused by weighted reciprocal rank: the whole query weighs 1; a clause weighs by how
 * strongly its best concept covers it, and more when a diagnostic cue introduces it ("diagnosed", "says it's",
 * "confirmed", "?UTI", "doktor kata"). Only a description that no single concept explains well is split.
 */

/** The whole query's best logit at or above which one concept already explains it: no clause search. */
export const FOCUS_BELOW = 4;
/** The characters of a description that are split into clauses. */
const MAX_NARRATIVE_CHARS = 1_000;
/** At most this many clauses are searched (each is one more pass of the in-memory channels). */
const MAX_CLAUSES = 6;
/** Each list's first FUSED_DEPTH concepts take part in the fusion. */
const FUSED_DEPTH = 20;
/** Reciprocal-rank constant: a concept at rank r of a list gains weight / (RRF_K + r). */
const RRF_K = 5;
/** A clause's weight at full strength: introduced by a diagnostic cue, or not. */
const W_CUE = 1.5;
const W_CLAUSE = 0.6;
/** A clause's strength grows from 0 at this best logit to 1 at STRONG_LOGIT. */
const WEAK_LOGIT = 2;
const STRONG_LOGIT = 7;
/** A cue clause's least strength: what follows "the x-ray shows" counts even when its words match loosely. */
const CUE_FLOOR = 0.4;

export interface Clause {
  text: string;
  /** A diagnostic cue introduces it: what follows is what the writer was told the finding is. */
  cue: boolean;
  /**
   * The cue is "for" (what a treatment was for: "antibiotics for pneumonia"): weighed as a cue, but only by how well
   * its words match, with no least strength ("for ages", "in for a check up" match weakly and count for nothing).
   */
  reason?: boolean;
}

/** Words that introduce the finding itself (English and Malay). */
const CUE =
  /(?<![\w'])(?:diagnosed(?:\s+(?:with|as))?|diagnosis(?:\s+(?:of|is|was))?|dx|impression|confirmed|confirms|due\s+to|caused\s+by|because\s+of|treated\s+for|admitted\s+(?:with|for)|showed|shows|revealed|found|known|(?:says?|said|thinks?|thought|told\s+(?:me|us|him|her)|suspects?|suspected)(?:\s+(?:that\s+)?(?:it'?s|it\s+is|it\s+was|(?:he|she|i|you|they)\s+(?:has|have|had)|(?:he|she)'s|(?:he|she)\s+is|i'm|i\s+am))?|kata|cakap|disahkan|didiagnos\w*|menghidap(?:i)?)\s+/gi;
/** Clause boundaries: punctuation, and conjunctions that start another statement (English and Malay). */
const BOUNDARY =
  /[,;:.!?()[\]\n]+|\s(?:and|then|but|so|because(?!\s+of\b)|while|after|since|when|until|which|who|plus|dan|lepas|selepas|sebab|kerana|tapi|bila)\s|(?<!\b(?:said|says|say|think|thinks|thought|told|tells|suspect|suspects|suspected|confirmed|showed|shows|found|revealed|me|us|him|her))\sthat\s|(?<!\b(?:diagnosed|treated|admitted|presented|associated|complicated|along|together|living|born))\s(?:with|dengan)\s/i;
/**
 * Time and frequency phrases: the clause's clinical words without them ("for months", "since last night", "x3 days").
 * Night, morning and evening only with a number or quantifier before them: "night sweats" and "morning sickness" stay.
 * One separator pattern between the words, so a long run of numbers cannot make the match backtrack exponentially.
 */
const TIME =
  /\b(?:(?:for|since|over|in|during|within|about|almost|nearly)\s+)?(?:x?\d+(?!\d)[-\s]*|(?:the|last|past|next|few|couple|of|several|many|a|an|one|two|three|four|five|six|seven|ten)[-\s]+)*(?:hours?|hrs?|days?|weeks?|wks?|months?|years?|yrs?)(?:\s+ago|\s+old)?\b|\b(?:x?\d+(?!\d)[-\s]*|(?:last|past|next|few|several|many|one|two|three|four|five|six|seven|ten|this|every|each|most)[-\s]+)+(?:nights?|mornings?|evenings?)\b|\b(?:yesterday|today|tonight|this\s+afternoon|a\s+few\s+times(?:\s+a\s+\w+)?)\b/gi;

/** The clauses of a description worth searching alone: at most MAX_CLAUSES, cues first, none equal to the whole. */
export function narrativeClauses(text: string): Clause[] {
  // the query's analysis reads its first 32 words (query.ts MAX_WORDS); the split is bounded too, a little wider
  const raw = text.slice(0, MAX_NARRATIVE_CHARS);
  const out = new Map<string, Clause>();
  const add = (text: string, cue: boolean, reason = false) => {
    const t = text.replace(TIME, ' ').replace(/\s+/g, ' ').trim();
    if (!/[a-z]{3}/i.test(t) || t.toLowerCase() === raw.trim().toLowerCase()) return;
    const k = t.toLowerCase();
    const next: Clause = reason ? { text: t, cue: true, reason: true } : { text: t, cue };
    // a cue outranks a reason, which outranks a plain clause
    const rank = (c: Clause) => (c.cue ? (c.reason ? 1 : 2) : 0);
    const had = out.get(k);
    if (!had || rank(next) > rank(had)) out.set(k, next);
  };
  // "?UTI", "? appendicitis": the writer's working diagnosis (a question mark that ends a question is not one)
  for (const m of raw.matchAll(/(?:^|[\s,;(])\?\s*([A-Za-z][\w' -]{1,40})/g)) add(m[1]!.split(BOUNDARY)[0]!, true);
  for (const piece of raw.split(BOUNDARY)) {
    const part = piece?.replace(TIME, ' ').trim();
    if (!part) continue;
    // the last cue with words after it: "the doctor said it's shingles" → "shingles"
    let cueAt = -1;
    for (const m of part.matchAll(CUE)) if (/[a-z]{3}/i.test(part.slice(m.index + m[0].length))) cueAt = m.index + m[0].length;
    if (cueAt > 0) add(part.slice(cueAt), true);
    // "antibiotics for pneumonia": what it was for (a reason: see Clause)
    const forAt = part.search(/\sfor\s+\S/i);
    if (forAt > 0) add(part.slice(forAt + 5), false, true);
    add(part, false);
  }
  // cues first, then reasons, then the plain clauses (each in the text's order)
  const all = [...out.values()];
  return [...all.filter((c) => c.cue && !c.reason), ...all.filter((c) => c.reason), ...all.filter((c) => !c.cue)].slice(0, MAX_CLAUSES);
}

const strength = (best: number) => Math.max(0, Math.min(1, (best - WEAK_LOGIT) / (STRONG_LOGIT - WEAK_LOGIT)));

/**
 * Hybrid search with narrative focus: `hybridSearch` for a query one concept can explain; for a description, the
 * whole query's and its clauses' lists fused (see above). Returns reranked candidates, best first, with logits that
 * never rise down the list (`nonIncreasing`), then filtered by min_relevance: the threshold judges the scores the
 * response shows.
 */
export async function focusedSearch(db: Database, ix: VocabIndex, p: EffectiveParams, q: AnalyzedQuery, vocabs: string[]): Promise<Scored[]> {
  if (narrativeOffset(q) === 0 || restricts(p)) return hybridSearch(db, ix, p, q, vocabs);
  const whole = await hybridSearch(db, ix, p, q, vocabs, { minRelevance: null });
  if (!whole.length || whole[0]!.logit >= FOCUS_BELOW) return aboveMin(whole, p.minRelevance);
  const clauses = narrativeClauses(p.query);
  if (!clauses.length) return aboveMin(whole, p.minRelevance);

  const fused = new Map<number, { score: number; best: Scored }>();
  const take = (list: Scored[], weight: number) => {
    list.slice(0, FUSED_DEPTH).forEach((s, r) => {
      const f = fused.get(s.c);
      if (!f) fused.set(s.c, { score: weight / (RRF_K + r + 1), best: s });
      else {
        f.score += weight / (RRF_K + r + 1);
        if (s.logit > f.best.logit) f.best = s;
      }
    });
  };
  take(whole, 1);
  // the clauses are searched together: their lexical walks run in the CPU pool's threads for large indexes, and their
  // spelling look-ups overlap; they are fused in clause order, so the answer does not depend on which finishes first
  const lists = await Promise.all(
    clauses.map(async (clause) => {
      const cq = await analyzeQuery(db, ix, clause.text, { vocabularies: vocabs });
      if (cq.empty) return [];
      // the clause is read in the whole description's context: its side and encounter
      cq.laterality ??= q.laterality;
      cq.encounter ??= q.encounter;
      cq.laterEncounter ||= q.laterEncounter;
      cq.openFracture ||= q.openFracture;
      cq.healingComplication ||= q.healingComplication;
      cq.gustiloIII ||= q.gustiloIII;
      // plain text: a clause never turns the full-text filter back on ("pain,-free now" → "-free now")
      return hybridSearch(db, ix, { ...p, query: clause.text, searchType: 'plain' }, cq, vocabs, {
        minRelevance: null,
        limit: 150,
        noDenseScan: true,
        noSparse: true,
      });
    }),
  );
  clauses.forEach((clause, k) => {
    const list = lists[k]!;
    if (!list.length) return;
    const st = strength(list[0]!.logit);
    const w = clause.cue ? W_CUE * (clause.reason ? st : Math.max(CUE_FLOOR, st)) : W_CLAUSE * st;
    if (w > 0) take(list, w);
  });
  // the whole query's candidates below the fused depth keep their order after the fused ones
  const order = [...fused.values()].sort((a, b) => b.score - a.score || a.best.c - b.best.c).map((f) => f.best);
  const seen = new Set(order.map((s) => s.c));
  for (const s of whole) if (!seen.has(s.c)) order.push(s);
  // the fused order's logits are pooled into a non-increasing run; min_relevance then judges the pooled logits, the
  // scores the response shows
  const logits = nonIncreasing(order.map((s) => s.logit));
  return aboveMin(
    order.map((s, i) => (s.logit === logits[i] ? s : { ...s, logit: logits[i]! })),
    p.minRelevance,
  );
}

/**
 * The non-increasing sequence closest to `xs` (least squares; pool adjacent violators): the fused order's logits as
 * a ranking shows them, each block that the order puts against its own logits replaced by the block's mean.
 */
export function nonIncreasing(xs: number[]): number[] {
  const blocks: Array<{ sum: number; n: number }> = [];
  for (const x of xs) {
    blocks.push({ sum: x, n: 1 });
    while (blocks.length > 1) {
      const b = blocks[blocks.length - 1]!;
      const a = blocks[blocks.length - 2]!;
      if (a.sum / a.n >= b.sum / b.n) break;
      a.sum += b.sum;
      a.n += b.n;
      blocks.pop();
    }
  }
  return blocks.flatMap((b) => Array<number>(b.n).fill(b.sum / b.n));
}
