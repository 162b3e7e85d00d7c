import type { Database, Queryable } from '../db';
import { checkFts } from './channels/sparse';
import { parentsOf, toResult } from './concepts';
import { focusedSearch } from './focus';
import { graphSearch } from './graph';
import { requireIndex } from './index-cache';
import { parseBasics, resolveParams, type EffectiveParams, type SearchMode } from './params';
import { analyzeQuery } from './query';
import type { ConceptResult, SearchInput, SearchMetadata, SearchResponse } from './schema';
import type { VocabIndex } from './vocab-index';

/**
 * The search engine behind POST /api/v1/search/ and the `search` CLI.
 *
 * hybrid: several retrieval channels are fused, then every candidate is scored by the reranker:
 *   1. sparse  — PostgreSQL full text (`search_term.tsv_<language>`) with the caller's search_type, language,
 *                rank_normalization and use_search_rank;
 *   2. lexical — in-memory stemmed matching of names, synonyms and ICD-10-CM index terms (OR semantics, idf coverage),
 *                including the spelling-corrected, abbreviation-expanded and clinical-lexicon rewrites of the query
 *                (lay terms, Malay, procedure names; see query.ts and lexicon.ts);
 *   3. dense   — the pluggable encoder (built-in random-indexing vectors, or an ONNX model from SEARCH_MODEL_DIR);
 *   4. crosswalk — concepts in other vocabularies that match the query (ICD-9 titles, WHO ICD-10, SNOMED…) lead to
 *                their 'Maps to' targets (1 hop, or 2 hops through a standard bridge);
 *   plus codes typed as codes, and the billable descendants of matching header codes; a header that explains the
 *   whole query hands its place to its default billable code. Queries with nothing to search for (stop words,
 *   single characters, punctuation) return no results.
 * graph: anchors from hybrid search, then 'Maps to' (2 hops through standard bridges) and 'Is a' traversal.
 *
 * Stages (one module each): params.ts (request → effective parameters, profiles) → index-cache.ts (the compiled
 * index) → query.ts (query analysis) → channels/ (sparse, lexical, dense) and codes.ts → fusion.ts (hybrid: fusion,
 * crosswalk, rerank, defaults) → graph.ts (graph mode) → concepts.ts (results, parents, concept detail).
 */
export { ANCHOR_QUALITY_GATE, DEFAULT_MIN_RELEVANCE, PROFILES, resolveParams, type EffectiveParams, type ProfileName, type SearchMode } from './params';
export { getIndex, peekIndex, requireIndex, VocabularyUnavailableError, warmIndex } from './index-cache';
export { shortenForFts } from './channels/sparse';
export { hybridSearch } from './fusion';
export { graphSearch } from './graph';
export { conceptDetail, parentsOf, vocabularyLists, type ConceptDetail } from './concepts';

/* ---------- entry point ---------- */

export async function search(db: Database, input: SearchInput, opts: { maxIndexWaitMs?: number } = {}): Promise<SearchResponse> {
  const basics = parseBasics(input);
  const ix = await requireIndex(db, { maxWaitMs: opts.maxIndexWaitMs });
  const p = resolveParams(input, ix, basics);
  await checkFts(db, p);
  const q = await analyzeQuery(db, ix, p.query, { vocabularies: p.vocabularies });
  if (p.requestedMode === 'graph') {
    const g = await graphSearch(db, ix, p, q);
    if (g.results) return respond(ix, p, g.results, 'graph');
    const h = await focusedSearch(db, ix, p, q, p.vocabularies);
    return respond(
      ix,
      p,
      h.slice(0, p.topK).map((r) => toResult(ix, r.c, r.logit)),
      'hybrid',
      g.fallbackReason,
    );
  }
  const h = await focusedSearch(db, ix, p, q, p.vocabularies);
  return respond(
    ix,
    p,
    h.slice(0, p.topK).map((r) => toResult(ix, r.c, r.logit)),
    'hybrid',
  );
}

function respond(ix: VocabIndex, p: EffectiveParams, results: ConceptResult[], mode: SearchMode, fallbackReason?: string): SearchResponse {
  const final = results.slice(0, p.topK);
  if (p.findRelationship) for (const r of final) r.parents = parentsOf(ix, r.concept_id, p.relationshipFilters);
  const metadata: SearchMetadata = {
    query: p.query,
    // named and supported, but only those the database holds are actually searched
    vocabularies_searched: p.vocabularies.filter((v) => ix.vocabList.includes(v)),
    domain_id: p.domain,
    total_results: final.length,
    find_relationship: p.findRelationship,
    search_mode: mode,
    requested_search_mode: p.requestedMode,
    profile: p.profile,
    include_bridges: mode === 'graph' ? p.includeBridges : false,
    filter_to_input_vocab: mode === 'graph' ? p.filterToInputVocab : true,
    fts_options: { search_type: p.searchType, language: p.language, use_search_rank: p.useSearchRank, rank_normalization: p.rankNormalization },
  };
  if (mode !== p.requestedMode && fallbackReason) metadata.fallback_reason = fallbackReason;
  return { results: final, metadata };
}

export type { Queryable };
