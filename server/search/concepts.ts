import type { Database } from '../db';
import { getIndex } from './index-cache';
import type { EffectiveParams } from './params';
import type { ConceptResult } from './schema';
import { csrRow, type VocabIndex } from './vocab-index';

/** Concepts as results, their parents, the vocabulary lists and the concept detail page (SQL). */
export function round(x: number, d = 4): number {
  const f = 10 ** d;
  return Math.round(x * f) / f;
}

export function toResult(ix: VocabIndex, c: number, logit: number): ConceptResult {
  return {
    concept_id: ix.conceptId[c]!,
    concept_name: ix.name.get(c),
    concept_code: ix.code.get(c),
    vocabulary_id: ix.vocabList[ix.vocab[c]!]!,
    concept_class_id: ix.cls.get(c) || null,
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
    const cls = ix.cls.get(pi);
    const vocab = ix.vocabList[ix.vocab[pi]!]!;
    const domain = ix.domainList[ix.domain[pi]!]!;
    if (f.concept_id_2__concept_class_id && !eq(cls, f.concept_id_2__concept_class_id)) continue;
    if (!inList(cls, f.concept_id_2__concept_class_id__in)) continue;
    if (f.concept_id_2__vocabulary_id && !eq(vocab, f.concept_id_2__vocabulary_id)) continue;
    if (!inList(vocab, f.concept_id_2__vocabulary_id__in)) continue;
    if (f.concept_id_2__domain_id && !eq(domain, f.concept_id_2__domain_id)) continue;
    if (!inList(domain, f.concept_id_2__domain_id__in)) continue;
    out.push({ parent_concept_id: ix.conceptId[pi]!, parent_concept_code: ix.code.get(pi), parent_concept_name: ix.name.get(pi) });
  }
  return out;
}

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
  relationships: Array<{
    relationship_id: string;
    concept_id: number;
    concept_code: string;
    concept_name: string;
    vocabulary_id: string;
    standard_concept: string | null;
  }>;
  ancestors: Array<{ concept_id: number; concept_code: string; concept_name: string; vocabulary_id: string; min_levels_of_separation: number }>;
}

export async function conceptDetail(db: Database, conceptId: number): Promise<ConceptDetail | null> {
  const rows = await db.query<{
    concept_id: number;
    concept_name: string;
    concept_code: string;
    vocabulary_id: string;
    domain_id: string;
    concept_class_id: string;
    standard_concept: string | null;
  }>('SELECT concept_id, concept_name, concept_code, vocabulary_id, domain_id, concept_class_id, standard_concept FROM concept WHERE concept_id = $1', [
    conceptId,
  ]);
  const c = rows[0];
  if (!c) return null;
  const [syn, rel, anc] = await Promise.all([
    db.query<{ name: string }>('SELECT concept_synonym_name AS name FROM concept_synonym WHERE concept_id = $1 ORDER BY concept_synonym_name LIMIT 200', [
      conceptId,
    ]),
    db.query<{
      relationship_id: string;
      concept_id: number;
      concept_code: string;
      concept_name: string;
      vocabulary_id: string;
      standard_concept: string | null;
    }>(
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
  const pick = (r: { concept_id: number; concept_code: string; concept_name: string; vocabulary_id: string }) => ({
    concept_id: Number(r.concept_id),
    concept_code: r.concept_code,
    concept_name: r.concept_name,
    vocabulary_id: r.vocabulary_id,
  });
  const relationships = rel.map((r) => ({ ...pick(r), relationship_id: r.relationship_id, standard_concept: r.standard_concept }));
  const billableCls =
    /billing/.test(c.concept_class_id ?? '') ||
    (!/nonbill|Hierarchy/.test(c.concept_class_id ?? '') && !relationships.some((r) => r.relationship_id === 'Subsumes'));
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
