import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackend, type TestBackend } from '../helpers/backend';
import { importOneVocabulary } from '../fixtures/athena';
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
const joint = (k: number) => syll[(k * 7) % 10]! + syll[Math.floor(k / 10) + 6]! + 'arthrosis';
const animal = (k: number) => `${syll[(k * 3 + 1) % 10]!}${syll[Math.floor(k / 10) + 4]!}bat ${syll[(k * 9 + 2) % 10]!}kin`;
const fever = (k: number) => syll[(k * 7 + 3) % 10]! + syll[Math.floor(k / 10) + 1]! + 'pox';
const wound = (k: number) => syll[(k * 3 + 2) % 10]! + syll[Math.floor(k / 10) + 7]! + 'gash';
const drug = (k: number) => syll[(k * 3) % 10]! + syll[Math.floor(k / 10) + 5]! + 'zol';

let be: TestBackend;
beforeAll(async () => {
  be = await startBackend();
  const concepts: Array<Array<string | number>> = [];
  const rels: Array<Array<string | number>> = [];
  let id = 800_000;
  const add = (name: string, code: string) => {
    concepts.push([id, name, 'Condition', 'ICD10CM', 'Code', 'S', code, D, E, '']);
    return id++;
  };
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
  // external causes beside the conditions they cause
  for (let k = 0; k < N; k++) {
    add(`Bitten by ${animal(k)}, initial encounter`, `W${50 + k}.0XXA`);
    add(`${fever(k)[0]!.toUpperCase() + fever(k).slice(1)}, unspecified`, `A${60 + k}.9`);
  }
  // sides are common words in a real vocabulary (low idf): a header's text then covers a query that adds one
  for (let k = 0; k < 200; k++) add(`Disorder ${k} of ${['right', 'left', 'bilateral', 'right and left'][k % 4]} limb`, `Z${10 + (k % 80)}.${k % 9}${k}`);
  // a header whose default (unspecified) child names no side, beside a bilateral and two one-sided children
  for (let k = 0; k < N; k++) {
    const j = joint(k);
    const h = add(`${j[0]!.toUpperCase() + j.slice(1)} of knee`, `M${40 + k}`);
    const kids = [
      add(`${j[0]!.toUpperCase() + j.slice(1)} of knee, unspecified`, `M${40 + k}.9`),
      add(`Bilateral primary ${j} of knee`, `M${40 + k}.0`),
      add(`Unilateral primary ${j}, right knee`, `M${40 + k}.11`),
      add(`Unilateral primary ${j}, left knee`, `M${40 + k}.12`),
    ];
    concepts.find((c) => c[0] === h)![5] = '';
    for (const c of kids) rels.push([c, h, 'Is a', D, E, ''], [h, c, 'Subsumes', D, E, '']);
  }
  // a side under a header, each side's code with its encounters below it: the unspecified side's initial encounter has
  // only encounter siblings, its parent the sided ones
  for (let k = 0; k < N; k++) {
    const w = wound(k);
    const h = add(`Open ${w}, hand`, `S${60 + k}.5`);
    concepts.find((c) => c[0] === h)![5] = '';
    for (const [d, side] of [
      ['1', 'right hand'],
      ['2', 'left hand'],
      ['9', 'unspecified hand'],
    ] as const) {
      const mid = add(`Open ${w}, ${side}`, `S${60 + k}.5${d}`);
      concepts.find((c) => c[0] === mid)![5] = '';
      rels.push([mid, h, 'Is a', D, E, ''], [h, mid, 'Subsumes', D, E, '']);
      for (const [x, enc] of [
        ['A', 'initial encounter'],
        ['D', 'subsequent encounter'],
      ] as const) {
        const leaf = add(`Open ${w}, ${side}, ${enc}`, `S${60 + k}.5${d}${x}`);
        rels.push([leaf, mid, 'Is a', D, E, ''], [mid, leaf, 'Subsumes', D, E, '']);
      }
    }
  }
  await importOneVocabulary(be.db, { vocabulary: 'ICD10CM', domain: 'Condition', conceptClass: 'Code', concepts, relationships: rels });
}, 120_000);
afterAll(async () => {
  await be?.close();
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

  it(`the condition before its external cause, the cause when only it is named (${N * 2} generated)`, async () => {
    const misses: string[] = [];
    for (let k = 0; k < N; k++) {
      for (const [q, code] of [
        [`${fever(k)} after a ${animal(k)} bite`, `A${60 + k}.9`],
        [`bitten by a ${animal(k)}`, `W${50 + k}.0XXA`],
      ] as const) {
        const got = await top(q);
        if (got !== code) misses.push(`${q} → ${got} (want ${code})`);
      }
    }
    expect(misses).toEqual([]);
  });

  it(`a side named, "both" as bilateral: the sided code, not the unspecified-side default (${N * 7} generated)`, async () => {
    const misses: string[] = [];
    for (let k = 0; k < N; k++) {
      const m = `M${40 + k}`;
      for (const [q, code] of [
        [`${joint(k)} knee`, `${m}.9`],
        [`${joint(k)} both knees`, `${m}.0`],
        [`bilateral ${joint(k)} of knee`, `${m}.0`],
        [`right knee ${joint(k)}`, `${m}.11`],
        [`${joint(k)} of knee, right`, `${m}.11`],
        [`${wound(k)} left hand`, `S${60 + k}.52A`],
        [`${wound(k)} hand kiri`, `S${60 + k}.52A`],
      ] as const) {
        const got = await top(q);
        if (got !== code) misses.push(`${q} → ${got} (want ${code})`);
      }
    }
    expect(misses).toEqual([]);
  });
});
