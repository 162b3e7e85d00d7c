import { z } from 'zod';

/**
 * One schema for the search resource (SPEC §2.1–2.3): the router validates with it, the OpenAPI document is generated
 * from it, and the evaluation CLI parses its JSON Lines with it. `search_mode`, `profile`, `vocabularies` and
 * `domain_id` are checked by the engine so that each gets its own error type (invalid_search_mode, …).
 */
export const RelationshipFiltersSchema = z
  .strictObject({
    concept_id_2__concept_class_id: z.string().min(1).optional(),
    concept_id_2__concept_class_id__in: z.array(z.string().min(1)).optional(),
    concept_id_2__vocabulary_id: z.string().min(1).optional(),
    concept_id_2__vocabulary_id__in: z.array(z.string().min(1)).optional(),
    concept_id_2__domain_id: z.string().min(1).optional(),
    concept_id_2__domain_id__in: z.array(z.string().min(1)).optional(),
  })
  .describe('Filters on the parent concepts returned with find_relationship (the `concept_id_2` side of the Is a relationship).');

export const SearchInputSchema = z.object({
  q: z.string().optional().describe('Search text from the query string; alternative to `query`.'),
  query: z.string().min(1).optional().describe('Search text. Required unless `q` is given in the query string.'),
  profile: z.string().optional().describe('explore | hybrid | mapping. Preset defaults; explicit body fields override it.'),
  response_format: z.enum(['json', 'llm']).optional().describe('json (default) or llm (compact markdown tables, text/markdown).'),
  search_mode: z.string().optional().describe('hybrid (default) or graph. Overridden by `profile` when both are set.'),
  vocabularies: z.array(z.string().min(1)).optional().describe('Vocabularies to search (case-insensitive). Default: all supported except DRG and OPCS4.'),
  domain_id: z.string().min(1).optional().describe('Domain filter (case-insensitive): Condition, Procedure, Drug, Measurement, Observation, Device, Specimen.'),
  top_k: z.number().int().min(1).max(100).optional().describe('Number of results, 1–100 (default 10).'),
  find_relationship: z.boolean().optional().describe('Attach each result’s parent concepts (Is a). Default false.'),
  relationship_filters: RelationshipFiltersSchema.optional(),
  search_type: z.enum(['plain', 'phrase', 'raw', 'websearch']).optional().describe('Full-text query syntax (default websearch).'),
  language: z.string().min(1).optional().describe('Full-text search configuration (default english).'),
  use_search_rank: z.boolean().optional().describe('Order full-text results by ts_rank_cd (default true).'),
  rank_normalization: z.number().int().min(0).max(31).optional().describe('ts_rank_cd normalization flags, 0–31 (default 0).'),
  min_relevance: z.number().nullable().optional().describe('Drop results whose reranker logit is below this (default -2); null disables the filter.'),
  include_bridges: z.boolean().optional().describe('Graph mode: include the standard bridge concepts of 2-hop Maps-to paths (is_bridge: true).'),
  filter_to_input_vocab: z.boolean().optional().describe('Graph mode: restrict results to `vocabularies` (default true).'),
});
export type SearchInput = z.infer<typeof SearchInputSchema>;

export const ParentSchema = z.object({
  parent_concept_id: z.number().int(),
  parent_concept_code: z.string(),
  parent_concept_name: z.string(),
});

export const ConceptResultSchema = z.object({
  concept_id: z.number().int(),
  concept_name: z.string(),
  concept_code: z.string(),
  vocabulary_id: z.string(),
  concept_class_id: z.string().nullable(),
  similarity: z.number().nullable(),
  graph_score: z.number().nullable().optional(),
  combined_score: z.number().nullable().optional().describe('Deprecated alias of graph_score.'),
  score: z.number().nullable().optional(),
  is_bridge: z.boolean().optional(),
  parents: z.array(ParentSchema).nullable(),
});
export type ConceptResult = z.infer<typeof ConceptResultSchema>;

export const SearchMetadataSchema = z.object({
  query: z.string(),
  vocabularies_searched: z
    .array(z.string())
    .describe('Vocabularies actually searched, in normalized casing: those named (or the defaults) that this database holds.'),
  domain_id: z.string().nullable(),
  total_results: z.number().int(),
  find_relationship: z.boolean(),
  search_mode: z.enum(['hybrid', 'graph']),
  requested_search_mode: z.enum(['hybrid', 'graph']),
  profile: z.string().nullable(),
  include_bridges: z.boolean(),
  filter_to_input_vocab: z.boolean(),
  fts_options: z.object({
    search_type: z.string(),
    language: z.string(),
    use_search_rank: z.boolean(),
    rank_normalization: z.number().int(),
  }),
  fallback_reason: z.string().optional(),
});
export type SearchMetadata = z.infer<typeof SearchMetadataSchema>;

export const SearchResponseSchema = z.object({ results: z.array(ConceptResultSchema), metadata: SearchMetadataSchema });
export type SearchResponse = z.infer<typeof SearchResponseSchema>;

export const VocabulariesResponseSchema = z.object({ vocabularies: z.array(z.string()), domains: z.array(z.string()) });
export const DomainsResponseSchema = z.object({ domains: z.array(z.string()) });
export const ListInputSchema = z.object({ response_format: z.enum(['json', 'llm']).optional() }).optional();
