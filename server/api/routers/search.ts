import { z } from 'zod';
import { authed, router } from '../trpc';
import { AppError } from '../../errors';
import { indexWaitMs } from '../../search/config';
import { conceptDetail, requireIndex, search } from '../../search/engine';
import { listToMarkdown, searchToMarkdown } from '../../search/markdown';
import { DomainsResponseSchema, ListInputSchema, SearchInputSchema, SearchResponseSchema, VocabulariesResponseSchema } from '../../search/schema';
import { listDomains, listVocabularies } from '../../search/vocabularies';

/**
 * Vocabulary search (SPEC §4.1–4.3). Scope `search`; API keys and JWT access tokens (and the UI session).
 * The core is server/search/engine.ts; this door validates, authorises and shapes.
 */
const AUTH = { scope: 'search', jwt: true } as const;

const SEARCH_DESCRIPTION = `Search OMOP concepts by text.

* **Body**: JSON, form-urlencoded or multipart; may be empty when \`q\` is in the query string. Query parameters \`q\`, \`profile\`, \`response_format\` and \`search_mode\` are accepted too (the body wins).
* **Profiles**: \`mapping\` (graph, 2 hops, vocabulary-filtered, no bridges), \`explore\` (graph, 3 hops, bridges, no vocabulary filter, no quality gate, no min_relevance), \`hybrid\` (plain text search). A profile overrides \`search_mode\`; explicit body fields override the profile.
* **hybrid** fuses PostgreSQL full text (\`search_type\`, \`language\`, \`use_search_rank\`, \`rank_normalization\`), in-memory matching of names, synonyms and ICD-10-CM index terms with spelling correction and abbreviation expansion, a dense encoder and ICD-9/WHO crosswalks, then reranks. \`similarity\` is the reranker logit (about −15…+15, 0 ≈ relevant); \`min_relevance\` (default −2, null = off) drops weaker results. With \`search_type\` raw or phrase (or websearch with quotes, \`-\` or \`or\`), results are limited to full-text matches.
* **graph** takes hybrid anchors and follows 'Maps to' (2 hops through standard bridges) and 'Is a'; \`graph_score\` ∈ [0,1] is normalised proximity (\`combined_score\` equals it), \`score\` equals \`similarity\`. In graph mode \`min_relevance\` applies to direct matches only. When the graph cannot answer, the response falls back to hybrid and \`metadata.fallback_reason\` says why.
* **Errors** (400): \`missing_query\`, \`invalid_search_mode\`, \`invalid_profile\`, \`invalid_vocabulary\`, \`invalid_domain\`, \`invalid_language\`, \`invalid_tsquery\` (raw syntax), \`invalid_request\` (top_k 1–100, rank_normalization 0–31, relationship_filters keys…). 503 \`vocabulary_unavailable\` until a vocabulary is imported.
* \`response_format=llm\` returns compact markdown tables (text/markdown).`;

export const searchRouter = router({
  search: authed(
    AUTH,
    {
      method: 'POST',
      path: '/search',
      tags: ['search'],
      summary: 'Search OMOP concepts (hybrid or graph)',
      description: SEARCH_DESCRIPTION,
      errorResponses: [400, 401, 403, 500, 503],
    },
    { forms: true, query: ['q', 'profile', 'response_format', 'search_mode'], markdown: searchToMarkdown },
  )
    .input(SearchInputSchema)
    .output(SearchResponseSchema)
    .mutation(({ ctx, input }) => search(ctx.db, input, { maxIndexWaitMs: indexWaitMs() })),

  vocabularies: authed(
    AUTH,
    {
      method: 'GET',
      path: '/search/vocabularies',
      tags: ['search'],
      summary: 'Supported vocabularies and domains',
      description:
        'The vocabularies accepted by `vocabularies` (SPEC §4.1, plus any other vocabulary in the imported data) and the supported domains. `response_format=llm` returns markdown.',
      errorResponses: [401, 403],
    },
    { markdown: listToMarkdown },
  )
    .input(ListInputSchema)
    .output(VocabulariesResponseSchema)
    .query(async ({ ctx }) => {
      const ix = await requireIndex(ctx.db, { maxWaitMs: indexWaitMs() }).catch(() => null);
      return { vocabularies: listVocabularies(ix?.vocabList ?? []), domains: listDomains(ix?.domainList ?? []) };
    }),

  domains: authed(
    AUTH,
    {
      method: 'GET',
      path: '/search/domains',
      tags: ['search'],
      summary: 'Supported domains',
      description: 'The domains accepted by `domain_id`. `response_format=llm` returns markdown.',
      errorResponses: [401, 403],
    },
    { markdown: listToMarkdown },
  )
    .input(ListInputSchema)
    .output(DomainsResponseSchema)
    .query(async ({ ctx }) => {
      const ix = await requireIndex(ctx.db, { maxWaitMs: indexWaitMs() }).catch(() => null);
      return { domains: listDomains(ix?.domainList ?? []) };
    }),

  /** UI only (no REST path): the concept drawer. */
  concept: authed(AUTH)
    .input(z.object({ concept_id: z.number().int() }))
    .query(async ({ ctx, input }) => {
      const d = await conceptDetail(ctx.db, input.concept_id);
      if (!d) throw new AppError('not_found', `No concept ${input.concept_id}.`);
      return d;
    }),
});
