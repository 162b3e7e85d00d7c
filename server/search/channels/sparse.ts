import type { Database } from '../../db';
import { AppError } from '../../errors';
import { log } from '../../log';
import { ftsLanguages } from '../config';
import { slotFor } from '../index-cache';
import type { EffectiveParams } from '../params';
import { tokenize } from '../text';
import type { VocabIndex } from '../vocab-index';

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

/**
 * Above this many matching texts (estimated), a full-text query that only ranks (not one that filters: raw, phrase,
 * quotes or a minus in websearch) is not sent. At 5M concepts PostgreSQL needs about 0.5 µs per matching row to scan
 * the GIN lists and 7 µs to rank it, so 180k matches ("…lesion or tissue": websearch reads `or` as OR) cost 90 ms
 * before ranking and 1.4 s with it, and the other channels answer such queries. On the starter's dev and blind
 * sets, leaving the channel out altogether moved R@10 by at most 0.004 on any set (README). 5,000 rather than 20,000:
 * at 5M concepts interleaved p95 32.0 → 27.6 ms, with R@10 unchanged there and on the starter.
 */
export const FTS_MAX_MATCHES = 5_000;

/**
 * An upper bound of the rows PostgreSQL visits for the query's tsquery, from the in-memory index: websearch's `or`
 * splits the query into alternatives, each of which matches at most the texts of its rarest word (stop words
 * and words after a minus left out). Texts of every vocabulary count: the GIN index
 * finds them all, and the vocabulary filter is applied row by row afterwards ("Down's syndrome" at 5M concepts: 67k
 * rows visited, 8k of them ICD-10-CM, 290 ms).
 */
export function estimateFtsMatches(ix: VocabIndex, p: EffectiveParams): number {
  const alternatives = p.searchType === 'websearch' ? p.query.split(/\s+or\s+/i) : [p.query];
  const { start } = ix.postings;
  let total = 0;
  for (const alt of alternatives) {
    let least = Infinity;
    let negated = false;
    for (const raw of alt.split(/\s+/)) {
      if (raw.startsWith('-')) {
        negated = true;
        continue;
      }
      for (const w of tokenize(raw)) {
        const stem = ix.stemOfWord(w.text);
        if (stem !== undefined) {
          if (stem >= 0) least = Math.min(least, start[stem + 1]! - start[stem]!);
          continue;
        }
        // a word no text holds ("diabetic") may share its stem with one that does ("diabetes" → diabet): the stemmer
        // strips at most a few letters (and reads a final y as i), so the known stems it could reduce to are prefixes
        let guess = -1;
        for (const form of w.text.endsWith('y') ? [w.text, `${w.text.slice(0, -1)}i`] : [w.text])
          for (let len = Math.max(3, form.length - 5); len <= form.length; len++) {
            const id = ix.stemIds.get(form.slice(0, len));
            if (id !== undefined) guess = Math.max(guess, start[id + 1]! - start[id]!);
          }
        // none: PostgreSQL drops it (a stop word) or matches nothing with it
        if (guess >= 0) least = Math.min(least, guess);
      }
    }
    // nothing but "-word": every text without the word
    if (least !== Infinity) total += least;
    else if (negated) total += ix.termConcept.length;
  }
  return total;
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
