import { AppError } from '../errors';
import type { SearchInput } from './schema';
import type { VocabIndex } from './vocab-index';
import { normalizeDomain, normalizeVocabularies } from './vocabularies';

/** Stage 1 of a search: the request's parameters, with the SPEC §4.1 profiles applied. */
export type SearchMode = 'hybrid' | 'graph';
export type ProfileName = 'explore' | 'hybrid' | 'mapping';

interface Profile {
  search_mode: SearchMode;
  max_hops: number;
  include_bridges: boolean;
  filter_to_input_vocab: boolean;
  quality_gate: boolean;
  min_relevance?: number | null;
}

/** SPEC §4.1 presets. Explicit body fields override them; the profile overrides `search_mode`. */
export const PROFILES: Record<ProfileName, Profile> = {
  mapping: { search_mode: 'graph', max_hops: 2, include_bridges: false, filter_to_input_vocab: true, quality_gate: true },
  explore: { search_mode: 'graph', max_hops: 3, include_bridges: true, filter_to_input_vocab: false, quality_gate: false, min_relevance: null },
  hybrid: { search_mode: 'hybrid', max_hops: 0, include_bridges: false, filter_to_input_vocab: true, quality_gate: false },
};

export const DEFAULT_MIN_RELEVANCE = -2;
/** Graph anchors must reach this reranker logit unless the profile disables the quality gate. */
export const ANCHOR_QUALITY_GATE = 0;

export interface EffectiveParams {
  query: string;
  vocabularies: string[];
  domain: string | null;
  topK: number;
  findRelationship: boolean;
  relationshipFilters: NonNullable<SearchInput['relationship_filters']>;
  searchType: 'plain' | 'phrase' | 'raw' | 'websearch';
  language: string;
  useSearchRank: boolean;
  rankNormalization: number;
  minRelevance: number | null;
  includeBridges: boolean;
  filterToInputVocab: boolean;
  requestedMode: SearchMode;
  profile: ProfileName | null;
  maxHops: number;
  qualityGate: boolean;
}

/** The checks that need no vocabulary: a request missing its query is a 400 even before any import. */
export function parseBasics(input: SearchInput): { query: string; profile: ProfileName | null; mode: SearchMode } {
  const query = (input.query ?? input.q ?? '').trim();
  if (!query) throw new AppError('missing_query', 'A search query is required: send `query` in the body or `q` in the query string.');
  let profile: ProfileName | null = null;
  if (input.profile !== undefined && input.profile !== '') {
    const p = input.profile.trim().toLowerCase();
    if (p !== 'explore' && p !== 'hybrid' && p !== 'mapping')
      throw new AppError('invalid_profile', `Unknown profile '${input.profile}'. Use explore, hybrid or mapping.`);
    profile = p;
  }
  let mode: SearchMode = 'hybrid';
  if (input.search_mode !== undefined && input.search_mode !== '') {
    const m = input.search_mode.trim().toLowerCase();
    if (m !== 'hybrid' && m !== 'graph') throw new AppError('invalid_search_mode', `Unknown search_mode '${input.search_mode}'. Use hybrid or graph.`);
    mode = m;
  }
  return { query, profile, mode: profile ? PROFILES[profile].search_mode : mode };
}

export function resolveParams(input: SearchInput, ix: VocabIndex, basics = parseBasics(input)): EffectiveParams {
  const { query, profile, mode } = basics;
  const preset = profile ? PROFILES[profile] : null;
  const vocabularies = normalizeVocabularies(input.vocabularies, ix.vocabList);
  const domain = normalizeDomain(input.domain_id, ix.domainList);
  return {
    query,
    vocabularies,
    domain,
    topK: input.top_k ?? 10,
    findRelationship: input.find_relationship ?? false,
    relationshipFilters: input.relationship_filters ?? {},
    searchType: input.search_type ?? 'websearch',
    language: (input.language ?? 'english').trim().toLowerCase(),
    useSearchRank: input.use_search_rank ?? true,
    rankNormalization: input.rank_normalization ?? 0,
    minRelevance: input.min_relevance !== undefined ? input.min_relevance : preset?.min_relevance !== undefined ? preset.min_relevance : DEFAULT_MIN_RELEVANCE,
    includeBridges: input.include_bridges ?? preset?.include_bridges ?? false,
    filterToInputVocab: input.filter_to_input_vocab ?? preset?.filter_to_input_vocab ?? true,
    requestedMode: mode,
    profile,
    maxHops: preset && preset.max_hops > 0 ? preset.max_hops : 2,
    qualityGate: preset ? preset.quality_gate : true,
  };
}
