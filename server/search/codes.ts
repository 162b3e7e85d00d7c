import type { VocabIndex } from './vocab-index';

/**
 * Search by code and by concept_id. A query that is one token holding a digit (SNOMED `22298006`, ICD-10-CM `I21.9`
 * or `I219`, ICD-10-PCS `0DTJ4ZZ`, RxNorm `6809`, LOINC `2160-0`, a concept_id) is looked up as a concept code in
 * every vocabulary (case and dots ignored, as the index stores them) and, when it is a whole number in the int32
 * range, as a concept_id. The engine ranks these concepts first, and their 'Maps to' neighbours lead into the
 * requested vocabularies (so the mapping profile translates a SNOMED code into ICD-10-CM).
 */
export interface CodeQuery {
  /** The code key (upper case, no dots, no spaces), or null when the query cannot be a code. */
  key: string | null;
  /** The concept_id the query may be, or null. */
  conceptId: number | null;
}

const MAX_CODE_LENGTH = 20;

export function parseCodeQuery(query: string): CodeQuery {
  const s = query.trim();
  if (!s || s.length > MAX_CODE_LENGTH + 4 || /\s/.test(s)) return { key: null, conceptId: null };
  // a code has a digit and only letters, digits and the separators codes use (I21.9, 2160-0, 0DTJ4ZZ)
  if (!/\d/.test(s) || !/^[0-9A-Za-z][0-9A-Za-z.\-]*$/.test(s)) return { key: null, conceptId: null };
  const key = s.toUpperCase().replace(/\./g, '');
  const conceptId = /^\d{1,10}$/.test(s) && Number(s) > 0 && Number(s) <= 2147483647 ? Number(s) : null;
  return { key: key.length <= MAX_CODE_LENGTH ? key : null, conceptId };
}

export interface CodeMatches {
  /** Concepts whose code is the query (any vocabulary), codes written exactly as typed first. */
  byCode: number[];
  /** Those of byCode whose code is the query as typed (case aside): `7973` is RxNorm 7973 before ICD-9 79.73. */
  literal: Set<number>;
  /** The concept whose concept_id is the query, if any (and not already a code match). */
  byId: number[];
}

export function findCodeMatches(ix: Pick<VocabIndex, 'codeKey' | 'idToIdx' | 'code'>, query: string): CodeMatches {
  const { key, conceptId } = parseCodeQuery(query);
  const typed = query.trim().toUpperCase();
  const hits = key ? [...(ix.codeKey.get(key) ?? [])] : [];
  const literal = new Set(hits.filter((c) => (ix.code.get(c) ?? '').toUpperCase() === typed));
  const byCode = [...hits.filter((c) => literal.has(c)), ...hits.filter((c) => !literal.has(c))];
  const byId: number[] = [];
  if (conceptId !== null) {
    const c = ix.idToIdx.get(conceptId);
    if (c !== undefined && !byCode.includes(c)) byId.push(c);
  }
  return { byCode, literal, byId };
}

/**
 * Reranker logits given to a code match and to a concept_id match: above any text match. A code that matches only
 * with its dots ignored (`I219` → I21.9) ranks just below one written as typed.
 */
export const CODE_MATCH_LOGIT = 12;
export const CODE_MATCH_DOTLESS_LOGIT = 11.8;
export const ID_MATCH_LOGIT = 11.5;
