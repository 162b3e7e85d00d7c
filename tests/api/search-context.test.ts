import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackend, type TestBackend } from '../helpers/backend';
import { writeAthenaFiles } from '../fixtures/athena';
import { importVocabulary } from '@/server/search/index-cache';
import { search } from '@/server/search/engine';

/**
 * Who the patient is, as coded: chapter 15 (O) describes a pregnant or puerperal patient and chapter 16 (P) a newborn,
 * so a query that says neither means the general code; a poisoning whose intent is not said is accidental (ICD-10-CM
 * guideline I.C.19.e.5.b). Generated made-up diseases and drugs, whose O, P and other-intent titles are the closer
 * text matches: by words alone they would lead.
 */
const D = '19700101';
const E = '20991231';
const N = 20;
const syll = ['ka', 'lo', 'mi', 'ru', 'te', 'vo', 'zi', 'pa', 'ne', 'su'];
const disease = (k: number) => syll[k % 10]! + syll[Math.floor(k / 10) + 2]! + 'osis';
const drug = (k: number) => syll[(k * 3) % 10]! + syll[Math.floor(k / 10) + 5]! + 'zol';

let be: TestBackend;
let dir: string;
beforeAll(async () => {
  be = await startBackend();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-athena-context-'));
  const concepts: Array<Array<string | number>> = [];
  let id = 800_000;
  const add = (name: string, code: string) => concepts.push([id++, name, 'Condition', 'ICD10CM', 'Code', 'S', code, D, E, '']);
  for (let k = 0; k < N; k++) {
    const d = disease(k)[0]!.toUpperCase() + disease(k).slice(1);
    add(`${d} of unspecified site, unspecified type`, `B${10 + k}.9`);
    add(`${d} in the puerperium`, `O${10 + k}.9`);
    add(`Congenital ${disease(k)}`, `P${10 + k}.9`);
    // the other intents first: on a tie, the concept read first would lead
    add(`Toxic effect of ${drug(k)} from unspecified source, assault, initial encounter`, `T${36 + (k % 14)}.${k % 10}X3A`);
    add(`Toxic effect of ${drug(k)} from unspecified source, undetermined, initial encounter`, `T${36 + (k % 14)}.${k % 10}X4A`);
    add(`Toxic effect of ${drug(k)} from unspecified source, accidental (unintentional), initial encounter`, `T${36 + (k % 14)}.${k % 10}X1A`);
  }
  writeAthenaFiles(dir, {
    'CONCEPT.csv': concepts,
    'CONCEPT_RELATIONSHIP.csv': [],
    'CONCEPT_SYNONYM.csv': [],
    'VOCABULARY.csv': [['ICD10CM', 'ICD10CM', 'test', 'v1', 0]],
    'DOMAIN.csv': [['Condition', 'Condition', 0]],
    'CONCEPT_CLASS.csv': [['Code', 'Code', 0]],
    'RELATIONSHIP.csv': [],
  });
  await importVocabulary(be.db, dir);
}, 120_000);
afterAll(async () => {
  await be?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe(`the patient a query describes, on ${process.env.TEST_DB ?? 'postgres'}`, () => {
  const top = async (query: string) => (await search(be.db, { query, vocabularies: ['ICD10CM'], top_k: 5, min_relevance: null })).results[0]?.concept_code;
  it(`pregnancy and newborn codes only when the query says so; accidental poisoning unless another intent is said (${N * 7} generated)`, async () => {
    const misses: string[] = [];
    const want = async (q: string, code: string) => {
      const got = await top(q);
      if (got !== code) misses.push(`${q} → ${got} (want ${code})`);
    };
    for (let k = 0; k < N; k++) {
      const t = `T${36 + (k % 14)}.${k % 10}X`;
      await want(disease(k), `B${10 + k}.9`);
      await want(`${disease(k)} after delivery in the puerperium`, `O${10 + k}.9`);
      await want(`${disease(k)} in a newborn, congenital`, `P${10 + k}.9`);
      await want(`${drug(k)} poisoning`, `${t}1A`);
      await want(`poisoning by ${drug(k)}`, `${t}1A`);
      await want(`${drug(k)} poisoning, assault`, `${t}3A`);
      await want(`${drug(k)} poisoning, undetermined`, `${t}4A`);
    }
    expect(misses).toEqual([]);
  });
});
