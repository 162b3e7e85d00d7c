import type { Database } from '../../db';
import { AppError } from '../../errors';
import { log } from '../../log';
import { ftsLanguages } from '../config';
import { slotFor } from '../index-cache';
import type { EffectiveParams } from '../params';

/** Channel 1, sparse: PostgreSQL full text over names and synonyms, and the checks of the request's tsquery. */

export async function checkFts(db: Database, p: EffectiveParams): Promise<void> {
  const slot = slotFor(db);
  let ok = slot.languages.get(p.language);
  if (ok === undefined) {
    const r = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_ts_config WHERE cfgname = $1', [p.language]);
    ok = Number(r[0]?.n ?? 0) > 0;
    slot.languages.set(p.language, ok);
  }
  if (!ok) throw new AppError('invalid_language', `Unknown full-text search configuration '${p.language}' (for example english, simple, french).`);
  if (p.searchType === 'raw') {
    if (p.query.length > 2000 || (p.query.match(/[&|!]|<\d*-?\d*>/g) ?? []).length > 64) {
      throw new AppError('invalid_tsquery', 'The tsquery is too long or has too many operators (at most 64).');
    }
    try {
      await db.query(`SELECT to_tsquery($1::regconfig, $2)::text AS q`, [p.language, p.query]);
    } catch (err) {
      throw new AppError('invalid_tsquery', `The query is not valid tsquery syntax: ${err instanceof Error ? err.message.split('\n')[0] : 'syntax error'}.`);
    }
  }
}

const TSQUERY_FN = { plain: 'plainto_tsquery', phrase: 'phraseto_tsquery', raw: 'to_tsquery', websearch: 'websearch_to_tsquery' } as const;
const SPARSE_LIMIT = 200;
/**
 * The full-text query's budget. At 5M concepts a query of common words joined by a plain-English "or" (websearch
 * syntax: "lesion or tissue" → lesion | tissue) matches 100k+ rows and ranks them all for 1–1.5 s; the other
 * channels answer such queries well, so the channel gives up rather than hold the search.
 */
const SPARSE_TIMEOUT_MS = 300;
const FTS_MAX_WORDS = 24;

export function shortenForFts(q: string): string {
  const words = q.split(/\s+/).filter(Boolean);
  const short = words.slice(0, FTS_MAX_WORDS).join(' ');
  return short.length > 300 ? short.slice(0, 300) : short;
}

/** PostgreSQL full text over names and synonyms. Returns concept id → rank normalised to 0..1 (1 = best). */
export async function sparseChannel(db: Database, p: EffectiveParams, vocabs: string[], domain: string | null): Promise<Map<number, number>> {
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
    // one round trip: the query is on the wire before the in-memory channels take the CPU (see hybridSearch)
    rows = await db.queryWithTimeout<{ concept_id: number; rank: number }>(sql, params, SPARSE_TIMEOUT_MS);
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === '57014') {
      log.warn('full-text channel timed out; answering from the other channels', { ms: SPARSE_TIMEOUT_MS });
      return new Map();
    }
    if (p.searchType === 'raw')
      throw new AppError('invalid_tsquery', `The query is not valid tsquery syntax: ${err instanceof Error ? err.message.split('\n')[0] : 'syntax error'}.`);
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
