import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackend, type TestBackend } from '../helpers/backend';
import { importOneVocabulary } from '../fixtures/athena';
import { search } from '@/server/search/engine';

/**
 * Evidence that belongs to another condition than the query's:
 *  - an Alphabetic Index entry reached through its subterms alone ("Syphilis, syphilitic (acquired), pneumonia" for
 *    "hospital acquired pneumonia") is the entry of its main term, not of the query;
 *  - a crosswalk source that says only part of the query (an ICD-9-CM title) leads through 'Maps to' to a target that
 *    must say some of it too.
 * Generated made-up conditions; by words alone (or by the crosswalk alone) the wrong concept would lead.
 */
const D = '19700101';
const E = '20991231';
const N = 20;
const syll = ['ka', 'lo', 'mi', 'ru', 'te', 'vo', 'zi', 'pa', 'ne', 'su'];
const cap = (s: string) => s[0]!.toUpperCase() + s.slice(1);
const illness = (k: number) => syll[k % 10]! + syll[Math.floor(k / 10) + 2]! + 'itis';
const other = (k: number) => syll[(k * 3 + 1) % 10]! + syll[Math.floor(k / 10) + 5]! + 'osis';
const germ = (k: number) => syll[(k * 7 + 2) % 10]! + syll[Math.floor(k / 10) + 3]! + 'coccal';

let be: TestBackend;
beforeAll(async () => {
  be = await startBackend();
  const concepts: Array<Array<string | number>> = [];
  const synonyms: Array<[number, string]> = [];
  const rels: Array<Array<string | number>> = [];
  let id = 900_000;
  const add = (name: string, code: string, vocab = 'ICD10CM', std = 'S') => {
    concepts.push([id, name, 'Condition', vocab, 'Code', std, code, D, E, '']);
    return id++;
  };
  // "ward" and "acquired" are common words, as "hospital" and "acquired" are in a real vocabulary
  for (let k = 0; k < 150; k++) add(`${k % 2 ? 'Ward' : 'Acquired'} disorder number ${k}`, `Z${10 + (k % 80)}.${k}`);
  for (let k = 0; k < N; k++) {
    add(`${cap(illness(k))}, unspecified`, `J${10 + k}.9`);
    // another condition's index entry whose subterms say "ward" and the illness
    const o = add(`${cap(other(k))} of lung`, `A${10 + k}.4`);
    synonyms.push([o, `${cap(other(k))}, ${other(k).replace(/osis$/, 'otic')} (acquired), congenital, early, ward, ${illness(k)}`]);
    // a germ's illness, and an ICD-9-CM title that says the germ and more, mapped to an unrelated code
    add(`${cap(germ(k))} septicemia of adult, late onset, unspecified`, `B${10 + k}.9`);
    const s = add(`${cap(germ(k))} septicemia with shock of newborn, specified`, `038.${k}`, 'ICD9CM', '');
    const t = add(`Personal history of falls, number ${k}`, `Z95.${k}`);
    rels.push([s, t, 'Maps to', D, E, ''], [t, s, 'Mapped from', D, E, '']);
  }
  await importOneVocabulary(be.db, {
    vocabulary: 'ICD10CM',
    otherVocabularies: ['ICD9CM'],
    domain: 'Condition',
    conceptClass: 'Code',
    concepts,
    synonyms,
    relationships: rels,
  });
}, 120_000);
afterAll(async () => {
  await be?.close();
});

describe(`evidence that belongs to another condition, on ${process.env.TEST_DB ?? 'postgres'}`, () => {
  const ranked = async (query: string) =>
    (await search(be.db, { query, vocabularies: ['ICD10CM'], top_k: 10, min_relevance: null })).results.map((r) => r.concept_code);
  it(`an index entry matched by its subterms alone ranks below the query's own condition (${N} generated)`, async () => {
    const misses: string[] = [];
    for (let k = 0; k < N; k++) {
      const got = await ranked(`ward acquired ${illness(k)}`);
      const right = got.indexOf(`J${10 + k}.9`);
      const wrong = got.indexOf(`A${10 + k}.4`);
      if (right < 0 || (wrong >= 0 && wrong < right)) misses.push(`ward acquired ${illness(k)} → ${got.slice(0, 3).join(' ')}`);
    }
    expect(misses).toEqual([]);
  });
  it(`a partly matching crosswalk source's target, sharing no word with the query, ranks below a concept that does (${N} generated)`, async () => {
    const misses: string[] = [];
    for (let k = 0; k < N; k++) {
      const q = `${germ(k)} septicemia shock`;
      const got = await ranked(q);
      const right = got.indexOf(`B${10 + k}.9`);
      const wrong = got.indexOf(`Z95.${k}`);
      if (right < 0 || (wrong >= 0 && wrong < right)) misses.push(`${q} → ${got.slice(0, 3).join(' ')}`);
      // the source's whole title still leads to its target
      const whole = `${germ(k)} septicemia with shock of newborn, specified`;
      if (!(await ranked(whole)).slice(0, 3).includes(`Z95.${k}`)) misses.push(`${whole}: Z95.${k} not in the top 3`);
    }
    expect(misses).toEqual([]);
  });
  it(`graph mode: a concept reached from a partly matching anchor, sharing no word with the query, ranks below one that does (${N} generated)`, async () => {
    const graph = async (query: string) => {
      const res = await search(be.db, { query, vocabularies: ['ICD10CM'], top_k: 10, min_relevance: null, search_mode: 'graph' });
      expect(res.metadata.search_mode).toBe('graph');
      return res.results.map((r) => r.concept_code);
    };
    const misses: string[] = [];
    for (let k = 0; k < N; k++) {
      const q = `${germ(k)} septicemia shock`;
      const got = await graph(q);
      const right = got.indexOf(`B${10 + k}.9`);
      const wrong = got.indexOf(`Z95.${k}`);
      if (right < 0 || (wrong >= 0 && wrong < right)) misses.push(`${q} → ${got.slice(0, 3).join(' ')}`);
      // the whole title still leads there: the traversal is what graph mode is for
      const whole = `${germ(k)} septicemia with shock of newborn, specified`;
      if (!(await graph(whole)).slice(0, 3).includes(`Z95.${k}`)) misses.push(`${whole}: Z95.${k} not in the top 3 (graph)`);
    }
    expect(misses).toEqual([]);
  });
});
