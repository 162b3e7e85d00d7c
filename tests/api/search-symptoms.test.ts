import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackend, type TestBackend } from '../helpers/backend';
import { importOneVocabulary } from '../fixtures/athena';
import { search } from '@/server/search/engine';

/**
 * A disease named beside its symptoms is found first (ICD-10-CM guidelines I.B.4–5: symptoms that come with a named
 * disease are not coded beside it), over generated made-up diseases and symptoms. Each symptom word is rarer than its
 * disease word, so by idf alone the symptom's code would lead.
 */
const D = '19700101';
const E = '20991231';
const N = 30;
const syll = ['ka', 'lo', 'mi', 'ru', 'te', 'vo', 'zi', 'pa', 'ne', 'su'];
const word = (k: number, salt: number, end: string) => syll[k % 10]! + syll[Math.floor(k / 10) % 10]! + syll[(salt * 3) % 10]! + end;
const symptom = (k: number) => word(k, 1, 'ugh');
const disease = (k: number) => word(k, 2, 'itis');

let be: TestBackend;
beforeAll(async () => {
  be = await startBackend();
  const concepts: Array<Array<string | number>> = [];
  let id = 500_000;
  const add = (name: string, code: string) => concepts.push([id++, name, 'Condition', 'ICD10CM', 'Code', 'S', code, D, E, '']);
  for (let k = 0; k < N; k++) {
    add(`${symptom(k)}, unspecified`, `R${10 + k}.9`);
    add(`${disease(k)}, unspecified`, `J${10 + k}.9`);
    // the disease word is commoner than the symptom word: other diseases carry it
    add(`Chronic ${disease(k)} of lower lobe`, `J${10 + k}.1`);
    add(`Acute ${disease(k)} with obstruction`, `J${10 + k}.2`);
  }
  await importOneVocabulary(be.db, { vocabulary: 'ICD10CM', domain: 'Condition', conceptClass: 'Code', concepts });
}, 120_000);
afterAll(async () => {
  await be?.close();
});

describe(`a disease before its symptoms on ${process.env.TEST_DB ?? 'postgres'}`, () => {
  it(`the disease named with a symptom leads; the symptom alone, or two symptoms, lead with symptom codes (${N * 3} generated)`, async () => {
    const top = async (query: string) => (await search(be.db, { query, vocabularies: ['ICD10CM'], top_k: 5, min_relevance: null })).results;
    for (let k = 0; k < N; k++) {
      const both = await top(`${disease(k)} ${symptom(k)}`);
      expect(both[0]?.concept_code, `${disease(k)} ${symptom(k)}`).toBe(`J${10 + k}.9`);
      // the symptom's own code is still offered
      expect(both.map((r) => r.concept_code)).toContain(`R${10 + k}.9`);
      expect((await top(symptom(k)))[0]?.concept_code).toBe(`R${10 + k}.9`);
      const two = await top(`${symptom(k)} and ${symptom((k + 1) % N)}`);
      expect(two[0]?.concept_code.startsWith('R'), `${symptom(k)} and ${symptom((k + 1) % N)}`).toBe(true);
    }
  });
});
