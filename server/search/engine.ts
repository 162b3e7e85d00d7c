import type { Database, Queryable } from '../db';
import { AppError } from '../errors';
import { log } from '../log';
import { ftsLanguages } from './config';
import { currentImport, onVocabularyImported } from './importer';
import { getModels } from './models';
import { analyzeQuery, type AnalyzedQuery } from './query';
import { emptyEvidence, rerank, type CandidateEvidence } from './rerank';
import type { ConceptResult, SearchInput, SearchMetadata, SearchResponse } from './schema';
import { looksLikeCode } from './text';
import { CODE_MATCH_DOTLESS_LOGIT, CODE_MATCH_LOGIT, findCodeMatches, ID_MATCH_LOGIT } from './codes';
import { buildVocabIndex, csrRow, denseCosine, encodeStems, STD_S, type VocabIndex } from './vocab-index';
import { normalizeDomain, normalizeVocabularies } from './vocabularies';

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
 */
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

/* ---------- index cache (per database) ---------- */

interface Slot {
  ix?: VocabIndex;
  loading?: Promise<VocabIndex | null>;
  checkedAt: number;
  generation: number;
  tsvColumns?: Set<string>;
  languages: Map<string, boolean>;
}
const slots = new WeakMap<Database, Slot>();
let generation = 0;
onVocabularyImported(() => {
  generation++;
});
const RECHECK_MS = 5000;

export class VocabularyUnavailableError extends AppError {
  constructor() {
    super(503, 'vocabulary_unavailable', 'No vocabulary is loaded yet. Import one with `npm run cli -- vocab import <dir>` (npm start loads the starter bundle).');
  }
}

function slotFor(db: Database): Slot {
  let s = slots.get(db);
  if (!s) slots.set(db, (s = { checkedAt: 0, generation, languages: new Map() }));
  return s;
}

/** The compiled index for this database, (re)built when the imported vocabulary changed. */
export async function getIndex(db: Database): Promise<VocabIndex | null> {
  const slot = slotFor(db);
  const now = Date.now();
  if (slot.ix && slot.generation === generation && now - slot.checkedAt < RECHECK_MS) return slot.ix;
  if (slot.loading) return slot.loading;
  slot.loading = (async () => {
    try {
      const cur = await currentImport(db);
      slot.checkedAt = Date.now();
      slot.generation = generation;
      if (!cur || (cur.status !== 'complete' && !slot.ix)) return null;
      if (cur.status !== 'complete') return slot.ix ?? null; // an import is running: keep serving the old index
      if (slot.ix?.fingerprint === cur.fingerprint) return slot.ix;
      const ix = await buildVocabIndex(db, cur.fingerprint);
      const cols = await db.query<{ column_name: string }>(`SELECT column_name FROM information_schema.columns WHERE table_name = 'search_term' AND column_name LIKE 'tsv\\_%'`);
      slot.tsvColumns = new Set(cols.map((c) => c.column_name));
      slot.ix = ix;
      log.info('search index ready', { concepts: ix.n, terms: ix.termText.length, stems: ix.stemStr.length, ms: ix.buildMs });
      return ix;
    } finally {
      slot.loading = undefined;
    }
  })();
  return slot.loading;
}

/** The compiled index if one is in memory (never builds one). */
export function peekIndex(db: Database): VocabIndex | null {
  return slots.get(db)?.ix ?? null;
}

/** Warm the index in the background (after start-up), so the first search is fast. */
export function warmIndex(db: Database): void {
  getIndex(db).catch((err: unknown) => log.warn('search index warm-up failed', { err: err instanceof Error ? err.message : String(err) }));
}

export async function requireIndex(db: Database): Promise<VocabIndex> {
  const ix = await getIndex(db);
  if (!ix) throw new VocabularyUnavailableError();
  return ix;
}

/* ---------- parameters ---------- */

/** The checks that need no vocabulary: a request missing its query is a 400 even before any import. */
function parseBasics(input: SearchInput): { query: string; profile: ProfileName | null; mode: SearchMode } {
  const query = (input.query ?? input.q ?? '').trim();
  if (!query) throw new AppError(400, 'missing_query', 'A search query is required: send `query` in the body or `q` in the query string.');
  let profile: ProfileName | null = null;
  if (input.profile !== undefined && input.profile !== '') {
    const p = input.profile.trim().toLowerCase();
    if (p !== 'explore' && p !== 'hybrid' && p !== 'mapping') throw new AppError(400, 'invalid_profile', `Unknown profile '${input.profile}'. Use explore, hybrid or mapping.`);
    profile = p;
  }
  let mode: SearchMode = 'hybrid';
  if (input.search_mode !== undefined && input.search_mode !== '') {
    const m = input.search_mode.trim().toLowerCase();
    if (m !== 'hybrid' && m !== 'graph') throw new AppError(400, 'invalid_search_mode', `Unknown search_mode '${input.search_mode}'. Use hybrid or graph.`);
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

/* ---------- entry point ---------- */

export async function search(db: Database, input: SearchInput): Promise<SearchResponse> {
  const basics = parseBasics(input);
  const ix = await requireIndex(db);
  const p = resolveParams(input, ix, basics);
  await checkFts(db, p);
  const q = await analyzeQuery(db, ix, p.query, { vocabularies: p.vocabularies });
  if (p.requestedMode === 'graph') {
    const g = await graphSearch(db, ix, p, q);
    if (g.results) return respond(ix, p, g.results, 'graph');
    const h = await hybridSearch(db, ix, p, q, p.vocabularies);
    return respond(ix, p, h.slice(0, p.topK).map((r) => toResult(ix, r.c, r.logit)), 'hybrid', g.fallbackReason);
  }
  const h = await hybridSearch(db, ix, p, q, p.vocabularies);
  return respond(ix, p, h.slice(0, p.topK).map((r) => toResult(ix, r.c, r.logit)), 'hybrid');
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

function round(x: number, d = 4): number {
  const f = 10 ** d;
  return Math.round(x * f) / f;
}

function toResult(ix: VocabIndex, c: number, logit: number): ConceptResult {
  return {
    concept_id: ix.conceptId[c]!,
    concept_name: ix.name[c]!,
    concept_code: ix.code[c]!,
    vocabulary_id: ix.vocabList[ix.vocab[c]!]!,
    concept_class_id: ix.cls[c] || null,
    similarity: round(logit),
    parents: null,
  };
}

export function parentsOf(ix: VocabIndex, conceptId: number, f: EffectiveParams['relationshipFilters']): ConceptResult['parents'] {
  const c = ix.idToIdx.get(conceptId);
  if (c === undefined) return [];
  const eq = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  const inList = (v: string, list?: string[]) => !list || list.some((x) => eq(x, v));
  const out: NonNullable<ConceptResult['parents']> = [];
  for (const pi of csrRow(ix.parents, c)) {
    const cls = ix.cls[pi]!;
    const vocab = ix.vocabList[ix.vocab[pi]!]!;
    const domain = ix.domainList[ix.domain[pi]!]!;
    if (f.concept_id_2__concept_class_id && !eq(cls, f.concept_id_2__concept_class_id)) continue;
    if (!inList(cls, f.concept_id_2__concept_class_id__in)) continue;
    if (f.concept_id_2__vocabulary_id && !eq(vocab, f.concept_id_2__vocabulary_id)) continue;
    if (!inList(vocab, f.concept_id_2__vocabulary_id__in)) continue;
    if (f.concept_id_2__domain_id && !eq(domain, f.concept_id_2__domain_id)) continue;
    if (!inList(domain, f.concept_id_2__domain_id__in)) continue;
    out.push({ parent_concept_id: ix.conceptId[pi]!, parent_concept_code: ix.code[pi]!, parent_concept_name: ix.name[pi]! });
  }
  return out;
}

/* ---------- full-text checks and the sparse channel ---------- */

async function checkFts(db: Database, p: EffectiveParams): Promise<void> {
  const slot = slotFor(db);
  let ok = slot.languages.get(p.language);
  if (ok === undefined) {
    const r = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_ts_config WHERE cfgname = $1', [p.language]);
    ok = Number(r[0]?.n ?? 0) > 0;
    slot.languages.set(p.language, ok);
  }
  if (!ok) throw new AppError(400, 'invalid_language', `Unknown full-text search configuration '${p.language}' (for example english, simple, french).`);
  if (p.searchType === 'raw') {
    if (p.query.length > 2000 || (p.query.match(/[&|!]|<\d*-?\d*>/g) ?? []).length > 64) {
      throw new AppError(400, 'invalid_tsquery', 'The tsquery is too long or has too many operators (at most 64).');
    }
    try {
      await db.query(`SELECT to_tsquery($1::regconfig, $2)::text AS q`, [p.language, p.query]);
    } catch (err) {
      throw new AppError(400, 'invalid_tsquery', `The query is not valid tsquery syntax: ${err instanceof Error ? err.message.split('\n')[0] : 'syntax error'}.`);
    }
  }
}

const TSQUERY_FN = { plain: 'plainto_tsquery', phrase: 'phraseto_tsquery', raw: 'to_tsquery', websearch: 'websearch_to_tsquery' } as const;
const SPARSE_LIMIT = 200;
const SPARSE_TIMEOUT_MS = 2000;
const FTS_MAX_WORDS = 24;

export function shortenForFts(q: string): string {
  const words = q.split(/\s+/).filter(Boolean);
  const short = words.slice(0, FTS_MAX_WORDS).join(' ');
  return short.length > 300 ? short.slice(0, 300) : short;
}

/** PostgreSQL full text over names and synonyms. Returns concept id → rank normalised to 0..1 (1 = best). */
async function sparseChannel(db: Database, p: EffectiveParams, vocabs: string[], domain: string | null): Promise<Map<number, number>> {
  const slot = slotFor(db);
  const col = `tsv_${p.language}`;
  const indexed = slot.tsvColumns?.has(col) && ftsLanguages().includes(p.language);
  const tsv = indexed ? `t."${col}"` : `to_tsvector($1::regconfig, t.term)`;
  const fn = TSQUERY_FN[p.searchType];
  // very long texts make enormous tsqueries: the first words carry the meaning, the rest only cost time
  const text = p.searchType === 'raw' ? p.query : shortenForFts(p.query);
  const params: unknown[] = [p.language, text, vocabs];
  let where = `${tsv} @@ q.q AND t.vocabulary_id = ANY($3::text[])`;
  if (domain) {
    params.push(domain);
    where += ` AND t.domain_id = $${params.length}`;
  }
  if (p.useSearchRank) params.push(p.rankNormalization);
  const rank = p.useSearchRank ? `ts_rank_cd(${tsv}, q.q, $${params.length}::int)` : '0::real';
  const order = p.useSearchRank ? 'ORDER BY rank DESC' : '';
  const sql = `SELECT t.concept_id, ${rank} AS rank FROM search_term t, ${fn}($1::regconfig, $2) AS q(q) WHERE ${where} ${order} LIMIT ${SPARSE_LIMIT}`;
  let rows: Array<{ concept_id: number; rank: number }>;
  try {
    rows = await db.transaction(async (tx) => {
      if (db.kind === 'postgres') await tx.query(`SET LOCAL statement_timeout = ${SPARSE_TIMEOUT_MS}`);
      return tx.query<{ concept_id: number; rank: number }>(sql, params);
    });
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === '57014') {
      log.warn('full-text channel timed out; answering from the other channels', { ms: SPARSE_TIMEOUT_MS });
      return new Map();
    }
    if (p.searchType === 'raw') throw new AppError(400, 'invalid_tsquery', `The query is not valid tsquery syntax: ${err instanceof Error ? err.message.split('\n')[0] : 'syntax error'}.`);
    throw err;
  }
  const out = new Map<number, number>();
  const max = rows.reduce((m, r) => Math.max(m, Number(r.rank)), 0);
  for (const r of rows) {
    const id = Number(r.concept_id);
    const v = max > 0 ? Number(r.rank) / max : 0.5;
    if ((out.get(id) ?? -1) < v) out.set(id, v);
  }
  return out;
}

/* ---------- in-memory channels ---------- */

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
function lexicalChannel(ix: VocabIndex, q: AnalyzedQuery, mask: Uint8Array, splits: Array<{ allowed: Uint8Array; limit: number; out: Map<number, number> }>): void {
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

function allowedMask(ix: VocabIndex, vocabs: Iterable<string>): Uint8Array {
  const m = new Uint8Array(ix.vocabList.length);
  const set = new Set(vocabs);
  ix.vocabList.forEach((v, i) => {
    if (set.has(v)) m[i] = 1;
  });
  return m;
}

interface Scored {
  c: number;
  logit: number;
  ev: CandidateEvidence;
}

/** Hybrid search over `vocabs` (already normalised). Returns reranked, filtered candidates, best first. */
export async function hybridSearch(db: Database, ix: VocabIndex, p: EffectiveParams, q: AnalyzedQuery, vocabs: string[], opts: { minRelevance?: number | null; limit?: number; noDenseScan?: boolean } = {}): Promise<Scored[]> {
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

  // 1. sparse (PostgreSQL full text)
  const sparsePromise = sparseChannel(db, p, vocabs, p.domain);

  // 2. lexical (names, synonyms, index terms; spelling and abbreviation variants)
  // 4. (sources) crosswalk: the same pass scores the other vocabularies
  const otherVocabs = ix.vocabList.filter((v) => !vocabs.includes(v));
  const otherMask = allowedMask(ix, otherVocabs);
  const lex = new Map<number, number>();
  const src = new Map<number, number>();
  lexicalChannel(ix, q, allowedMask(ix, ix.vocabList), [
    { allowed, limit: 250, out: lex },
    { allowed: otherMask, limit: 40, out: src },
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
    const sources = [...src].filter(([, s]) => s >= 0.45).sort((a, b) => b[1] - a[1]).slice(0, 40);
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
      for (const t of direct) evOf(t).cross = Math.max(evOf(t).cross, score * fan(direct.length));
      for (const b of targets) {
        if (ix.std[b] !== STD_S) continue;
        const back = [...csrRow(ix.mappedFrom, b)].filter((t) => t !== s && allowed[ix.vocab[t]!]);
        if (!back.length || back.length > 40) continue;
        for (const t of back) evOf(t).cross = Math.max(evOf(t).cross, 0.8 * score * fan(back.length));
      }
    }
  }

  // 3. dense: cosine for every candidate; a full scan only when the words alone did not explain the query
  const models = getModels(ix);
  const qVec = models.encoder ? await models.encoder.encodeQuery(p.query) : encodeStems(ix, [...q.variants.flatMap((v) => v.stems.map((s) => ({ stem: s.stem, w: v.weight })))]);
  const bestLex = Math.max(0, ...lex.values());
  if (qVec && !opts.noDenseScan && (bestLex < 0.6 || !q.variants.some((v) => v.stems.length))) {
    const top: Array<[number, number]> = [];
    let floor = 0.55;
    for (let v = 0; v < ix.vocabList.length; v++) {
      if (!allowed[v]) continue;
      const [a, b] = ix.vocabRange.get(v)!;
      // the built-in encoder's scan is inlined over the int8 matrix (the tail latency of short queries)
      const D = ix.dim;
      const mat = ix.conceptVec;
      const dom = ix.domain;
      const enc = models.encoder;
      for (let c = a; c < b; c++) {
        if (domainIdx >= 0 && dom[c] !== domainIdx) continue;
        let cos: number;
        if (enc) cos = enc.cosine(qVec, c);
        else {
          let acc = 0;
          let d = 0;
          const base = c * D;
          for (; d + 4 <= D; d += 4) acc += qVec[d]! * mat[base + d]! + qVec[d + 1]! * mat[base + d + 1]! + qVec[d + 2]! * mat[base + d + 2]! + qVec[d + 3]! * mat[base + d + 3]!;
          for (; d < D; d++) acc += qVec[d]! * mat[base + d]!;
          cos = acc / 127;
        }
        if (cos > floor) {
          top.push([c, cos]);
          if (top.length > 120) {
            top.sort((x, y) => y[1] - x[1]);
            top.length = 60;
            floor = top[top.length - 1]![1];
          }
        }
      }
    }
    for (const [c] of top.sort((x, y) => y[1] - x[1]).slice(0, 30)) evOf(c);
  }

  const sparse = await sparsePromise;
  for (const [id, r] of sparse) {
    const c = ix.idToIdx.get(id);
    if (c !== undefined) evOf(c).sparse = r;
  }

  // header codes pass their match down to their billable descendants (defaults first)
  const headers = [...ev].filter(([c, e]) => !ix.isBillableLike(c) && Math.max(e.lexical, e.cross) >= 0.5).sort((a, b) => Math.max(b[1].lexical, b[1].cross) - Math.max(a[1].lexical, a[1].cross)).slice(0, 12);
  for (const [h, e] of headers) {
    const inherit = Math.max(e.lexical, e.cross);
    for (const d of defaultDescendants(ix, h, 12)) evOf(d).inherited = Math.max(evOf(d).inherited, inherit);
  }

  // preliminary cut, then rerank
  let cands = [...ev].filter(([c]) => allowed[ix.vocab[c]!] && (domainIdx < 0 || ix.domain[c] === domainIdx));
  const restrict = p.searchType === 'raw' || p.searchType === 'phrase' || (p.searchType === 'websearch' && /["]|(^|\s)-\w/.test(p.query));
  if (restrict) cands = cands.filter(([, e]) => e.sparse >= 0);
  const pre = (e: CandidateEvidence) => Math.max(e.lexical, e.cross, e.inherited * 0.9, e.code, e.sparse >= 0 ? 0.3 + 0.2 * e.sparse : 0) + 0.1;
  cands.sort((a, b) => pre(b[1]) - pre(a[1]));
  cands = cands.slice(0, opts.limit ?? 400);
  const scored: Scored[] = [];
  for (const [c, e] of cands) {
    if (Number.isNaN(e.dense) && qVec) e.dense = models.encoder ? models.encoder.cosine(qVec, c) : denseCosine(ix, qVec, c);
    const r = rerank(ix, c, q, e);
    scored.push({ c, logit: r.logit, ev: e });
  }
  if (models.reranker) await models.reranker.rescore(p.query, scored.slice(0, 50).map((s) => ({ s, text: ix.name[s.c]! })));
  promoteDefaults(ix, q, scored, allowed, !restrict && domainIdx < 0);
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
  const min = opts.minRelevance !== undefined ? opts.minRelevance : p.minRelevance;
  return min === null ? scored : scored.filter((s) => s.logit >= min);
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
    if (rerank(ix, h.c, q, h.ev).match.cov < 0.85) continue;
    const d = defaultDescendants(ix, h.c, 1)[0];
    if (d === undefined || !allowed[ix.vocab[d]!]) continue;
    let t = byC.get(d);
    if (!t && !allowNew) continue;
    if (!t) {
      const ev = emptyEvidence();
      ev.inherited = Math.max(h.ev.lexical, h.ev.cross);
      t = { c: d, logit: rerank(ix, d, q, ev).logit, ev };
      scored.push(t);
      byC.set(d, t);
    }
    // the default code takes (nearly) the header's place; the header steps back behind it
    if (t.logit < h.logit - 0.15) t.logit = h.logit - 0.15;
    h.logit -= 0.5;
  }
}

/** Billable descendants of a header: the "unspecified"/default codes first, initial encounter preferred. */
function defaultDescendants(ix: VocabIndex, h: number, limit: number): number[] {
  const out: Array<[number, number]> = [];
  const queue: Array<[number, number]> = [[h, 0]];
  const seen = new Set<number>([h]);
  while (queue.length && out.length < 400) {
    const [c, depth] = queue.shift()!;
    for (const ch of csrRow(ix.children, c)) {
      if (seen.has(ch)) continue;
      seen.add(ch);
      const name = ix.name[ch]!;
      const code = ix.code[ch]!;
      let pref = -depth;
      // "Unspecified fracture of unspecified femur" is more the default than "…subtrochanteric fracture of unspecified femur"
      const unspec = (name.match(/unspecified/gi) ?? []).length;
      if (unspec) pref += 2 + 0.75 * (unspec - 1) + (/^unspecified\b/i.test(name) ? 0.75 : 0);
      if (/\.9/.test(code)) pref += 0.25;
      if (/\b(other|specified)\b/i.test(name) && !/unspecified/i.test(name)) pref -= 0.5;
      if (/9$/.test(code.replace(/[A-Z]$/, ''))) pref += 0.5;
      if (code.length >= 8 && /[A-Z]$/.test(code)) pref += code.endsWith('A') ? 1 : -3;
      if (ix.isBillableLike(ch)) out.push([ch, pref]);
      if (depth < 4) queue.push([ch, depth + 1]);
    }
  }
  return out.sort((a, b) => b[1] - a[1]).slice(0, limit).map(([c]) => c);
}

/* ---------- graph mode ---------- */

interface GraphOutcome {
  results?: ConceptResult[];
  fallbackReason?: string;
}

export async function graphSearch(db: Database, ix: VocabIndex, p: EffectiveParams, q: AnalyzedQuery): Promise<GraphOutcome> {
  // anchors: hybrid search over the requested vocabularies and the default set, so a mapping can start anywhere
  const anchorVocabs = [...new Set([...p.vocabularies, ...ix.vocabList.filter((v) => v !== 'DRG' && v !== 'OPCS4')])];
  const anchors = (await hybridSearch(db, ix, { ...p, domain: null }, q, anchorVocabs, { minRelevance: null, limit: 300, noDenseScan: true })).slice(0, 10);
  if (!anchors.length) return { fallbackReason: 'no anchors: hybrid search found no concept to start the graph traversal from' };
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
  const push = (c: number, s: number) => {
    if ((score.get(c) ?? 0) < s) score.set(c, s);
  };
  for (const a of gated) {
    const w = 1 / (1 + Math.exp(-a.logit / 3));
    anchorSet.add(a.c);
    push(a.c, w);
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
          push(t, v);
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
  for (const [c, g] of score) {
    const vocab = ix.vocabList[ix.vocab[c]!]!;
    const isBridge = bridges.has(c) && !inVocab.has(vocab);
    if (domainIdx >= 0 && ix.domain[c] !== domainIdx) continue;
    if (isBridge) {
      if (p.includeBridges) picked.push({ c, g, bridge: true });
      continue;
    }
    if (p.filterToInputVocab && !inVocab.has(vocab)) continue;
    if (anchorSet.has(c) && p.minRelevance !== null) {
      const a = anchors.find((x) => x.c === c)!;
      if (a.logit < p.minRelevance) continue;
    }
    picked.push({ c, g, bridge: false });
  }
  if (!picked.some((x) => !x.bridge)) return { fallbackReason: 'empty graph expansion: the traversal reached no concept in the requested vocabularies' };
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

/* ---------- lists and concept details (UI) ---------- */

export async function vocabularyLists(db: Database): Promise<{ vocabularies: string[]; domains: string[] }> {
  const ix = await getIndex(db);
  return { vocabularies: ix ? ix.vocabList : [], domains: ix ? ix.domainList.filter(Boolean) : [] };
}

export interface ConceptDetail {
  concept_id: number;
  concept_name: string;
  concept_code: string;
  vocabulary_id: string;
  domain_id: string;
  concept_class_id: string;
  standard_concept: string | null;
  billable: boolean;
  synonyms: string[];
  parents: Array<{ concept_id: number; concept_code: string; concept_name: string; vocabulary_id: string }>;
  children: Array<{ concept_id: number; concept_code: string; concept_name: string; vocabulary_id: string }>;
  relationships: Array<{ relationship_id: string; concept_id: number; concept_code: string; concept_name: string; vocabulary_id: string; standard_concept: string | null }>;
  ancestors: Array<{ concept_id: number; concept_code: string; concept_name: string; vocabulary_id: string; min_levels_of_separation: number }>;
}

export async function conceptDetail(db: Database, conceptId: number): Promise<ConceptDetail | null> {
  const rows = await db.query<{ concept_id: number; concept_name: string; concept_code: string; vocabulary_id: string; domain_id: string; concept_class_id: string; standard_concept: string | null }>(
    'SELECT concept_id, concept_name, concept_code, vocabulary_id, domain_id, concept_class_id, standard_concept FROM concept WHERE concept_id = $1',
    [conceptId],
  );
  const c = rows[0];
  if (!c) return null;
  const [syn, rel, anc] = await Promise.all([
    db.query<{ name: string }>('SELECT concept_synonym_name AS name FROM concept_synonym WHERE concept_id = $1 ORDER BY concept_synonym_name LIMIT 200', [conceptId]),
    db.query<{ relationship_id: string; concept_id: number; concept_code: string; concept_name: string; vocabulary_id: string; standard_concept: string | null }>(
      `SELECT r.relationship_id, c.concept_id, c.concept_code, c.concept_name, c.vocabulary_id, c.standard_concept
         FROM concept_relationship r JOIN concept c ON c.concept_id = r.concept_id_2
        WHERE r.concept_id_1 = $1 AND r.invalid_reason IS NULL ORDER BY r.relationship_id, c.vocabulary_id, c.concept_code LIMIT 300`,
      [conceptId],
    ),
    db.query<{ concept_id: number; concept_code: string; concept_name: string; vocabulary_id: string; min_levels_of_separation: number }>(
      `SELECT c.concept_id, c.concept_code, c.concept_name, c.vocabulary_id, a.min_levels_of_separation
         FROM concept_ancestor a JOIN concept c ON c.concept_id = a.ancestor_concept_id
        WHERE a.descendant_concept_id = $1 AND a.ancestor_concept_id <> $1 ORDER BY a.min_levels_of_separation, c.concept_code LIMIT 100`,
      [conceptId],
    ),
  ]);
  const pick = (r: { concept_id: number; concept_code: string; concept_name: string; vocabulary_id: string }) => ({ concept_id: Number(r.concept_id), concept_code: r.concept_code, concept_name: r.concept_name, vocabulary_id: r.vocabulary_id });
  const relationships = rel.map((r) => ({ ...pick(r), relationship_id: r.relationship_id, standard_concept: r.standard_concept }));
  const billableCls = /billing/.test(c.concept_class_id ?? '') || (!/nonbill|Hierarchy/.test(c.concept_class_id ?? '') && !relationships.some((r) => r.relationship_id === 'Subsumes'));
  return {
    concept_id: Number(c.concept_id),
    concept_name: c.concept_name,
    concept_code: c.concept_code,
    vocabulary_id: c.vocabulary_id,
    domain_id: c.domain_id,
    concept_class_id: c.concept_class_id,
    standard_concept: c.standard_concept,
    billable: billableCls,
    synonyms: syn.map((s) => s.name),
    parents: relationships.filter((r) => r.relationship_id === 'Is a').map(pick),
    children: relationships.filter((r) => r.relationship_id === 'Subsumes').map(pick),
    relationships: relationships.filter((r) => r.relationship_id !== 'Is a' && r.relationship_id !== 'Subsumes'),
    ancestors: anc.map((a) => ({ ...pick(a), min_levels_of_separation: Number(a.min_levels_of_separation) })),
  };
}

export type { Queryable };
