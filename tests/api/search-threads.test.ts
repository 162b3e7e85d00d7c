import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackend, type TestBackend } from '../helpers/backend';
import { writeAthenaFiles } from '../fixtures/athena';
import { seededRandom } from '@/server/config/random';
import { getIndex, hybridSearch, resolveParams, search } from '@/server/search/engine';
import { parseBasics } from '@/server/search/params';
import { analyzeQuery } from '@/server/search/query';
import { nameFacts } from '@/server/search/rerank';
import { importVocabulary } from '@/server/search/index-cache';
import { openSharedIndex, shareIndex } from '@/server/search/index-store';
import { OFF_THREAD_LEXICAL_TEXTS, setLexicalRunner } from '@/server/search/channels/lexical';
import { lexicalOffThread, lexicalWalks, stopWorkerPool, warmWorkerPool } from '@/server/workers/pool';

/**
 * The search index in shared memory: the main thread loads it once; the CPU pool's threads walk its words for large
 * indexes (channels/lexical.ts lexicalSearch) and give exactly the in-process answer.
 */
const D = '19700101';
const E = '20991231';
const WORDS = (
  'acute chronic fracture femur tibia left right open closed infection bacterial viral pneumonia lung heart failure ' +
  'diabetes type kidney disease stage injury burn hand foot ulcer pressure sepsis anemia iron deficiency colon ' +
  'excision resection drainage percutaneous endoscopic approach artery vein bypass graft neoplasm malignant benign ' +
  'unspecified other bilateral in-line of'
).split(' ');
const STORY = 'yesterday stairs driving admitted week dinner exams holiday garden weekend'.split(' ');
const VOCABS: Array<[string, string, string]> = [
  ['ICD10CM', 'Condition', 'S'],
  ['ICD9CM', 'Condition', ''],
  ['SNOMED', 'Condition', 'S'],
  ['ICD10PCS', 'Procedure', 'S'],
];

function writeBundle(dir: string, n: number): void {
  const rand = seededRandom(41);
  const pick = () => WORDS[Math.floor(rand() ** 1.6 * WORDS.length)]!;
  const concepts: Array<Array<string | number>> = [];
  const rel: Array<Array<string | number>> = [];
  const syn: Array<Array<string | number>> = [];
  for (let i = 0; i < n; i++) {
    const [vocab, domain, std] = VOCABS[i % VOCABS.length]!;
    const id = 100_000 + i;
    const words = Array.from({ length: 2 + Math.floor(rand() * 5) }, pick);
    concepts.push([id, words.join(' '), domain, vocab, 'Code', std, `C${i}`, D, E, '']);
    if (rand() < 0.3) syn.push([id, Array.from({ length: 2 + Math.floor(rand() * 3) }, pick).join(' '), 4180186]);
    // ICD-9-CM maps to ICD-10-CM and SNOMED: the crosswalk's sources
    if (vocab === 'ICD9CM') {
      const to = 100_000 + (i - 1);
      rel.push([id, to, 'Maps to', D, E, ''], [to, id, 'Mapped from', D, E, '']);
    }
  }
  // everyday words the vocabulary happens to use once or twice (rare: a high idf), as in real titles ("Fall on stairs",
  // "Encounter for examination for driving license"): what a narrative is told in
  // names that begin with a stop word before "unspecified", and with "Unspecified"
  ['Other and unspecified fracture of femur', 'Unspecified anemia', 'Of unspecified left kidney'].forEach((name, k) =>
    concepts.push([950_000 + k, name, 'Condition', 'ICD10CM', 'Code', 'S', `U${k}`, D, E, '']),
  );
  STORY.forEach((w, k) => concepts.push([900_000 + k, `${w} ${STORY[(k + 3) % STORY.length]}`, 'Condition', 'ICD9CM', 'Code', '', `N${k}`, D, E, '']));
  writeAthenaFiles(dir, {
    'CONCEPT.csv': concepts,
    'CONCEPT_RELATIONSHIP.csv': rel,
    'CONCEPT_SYNONYM.csv': syn,
    'VOCABULARY.csv': VOCABS.map(([v]) => [v, v, 'test', 'v1', 0]),
    'DOMAIN.csv': ['Condition', 'Procedure'].map((d) => [d, d, 0]),
    'CONCEPT_CLASS.csv': [['Code', 'Code', 0]],
    'RELATIONSHIP.csv': [
      ['Maps to', 'Maps to', 0, 0, 'Mapped from', 0],
      ['Mapped from', 'Mapped from', 0, 0, 'Maps to', 0],
    ],
  });
}

let be: TestBackend;
let dir: string;
beforeAll(async () => {
  be = await startBackend();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-athena-threads-'));
  writeBundle(dir, 2400);
  await importVocabulary(be.db, dir);
}, 120_000);
afterAll(async () => {
  setLexicalRunner(null);
  await be?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe(`search index shared with worker threads on ${process.env.TEST_DB ?? 'postgres'}`, () => {
  it('loads the resident arrays into shared memory, and opens them again without copying', async () => {
    const ix = (await getIndex(be.db))!;
    const shared = shareIndex(ix)!;
    expect(shared.arrays.length).toBeGreaterThan(20);
    for (const [key, a] of shared.arrays) expect(a.buffer instanceof SharedArrayBuffer, key).toBe(true);
    const again = await openSharedIndex(shared);
    expect(again).not.toBe(ix);
    expect(again.conceptId.buffer).toBe(ix.conceptId.buffer);
    expect(again.postings.list.buffer).toBe(ix.postings.list.buffer);
    expect(again.n).toBe(ix.n);
    expect(again.stemStr).toEqual(ix.stemStr);
    expect(again.name.get(5)).toBe(ix.name.get(5));
  });

  it('walks the words in the CPU pool with exactly the in-process answer (300 generated queries, both modes)', async () => {
    const rand = seededRandom(7);
    // words that carry meaning (every query then walks the index at least once)
    const meaningful = WORDS.filter((w) => !['other', 'of', 'in-line'].includes(w));
    const word = () => meaningful[Math.floor(rand() * meaningful.length)]!;
    const typo = (w: string) => (w.length > 5 && rand() < 0.3 ? w.slice(0, 2) + w[3] + w[2] + w.slice(4) : w);
    const inputs = Array.from({ length: 300 }, (_, i) => ({
      query: Array.from({ length: 1 + Math.floor(rand() * 4) }, () => typo(word())).join(' '),
      vocabularies: i % 3 === 0 ? ['ICD10CM'] : i % 3 === 1 ? ['ICD10CM', 'ICD10PCS'] : undefined,
      search_mode: (i % 4 === 0 ? 'graph' : 'hybrid') as 'graph' | 'hybrid',
      top_k: 15,
      min_relevance: null,
    }));
    const answer = async (input: (typeof inputs)[number]) => JSON.stringify((await search(be.db, input)).results);
    setLexicalRunner(null);
    const inProcess: string[] = [];
    for (const input of inputs) inProcess.push(await answer(input));
    expect(inProcess.filter((a) => a !== '[]').length).toBeGreaterThan(250);

    await warmWorkerPool(be.db);
    // the starter bundle's size stays in-process by default; this index is small, so the threshold is lowered
    expect((await getIndex(be.db))!.termConcept.length).toBeLessThan(OFF_THREAD_LEXICAL_TEXTS);
    setLexicalRunner(lexicalOffThread, 0);
    // the first walk of a newly loaded index waits for the threads to open it
    const before = lexicalWalks();
    expect(await answer(inputs[0]!)).toBe(inProcess[0]);
    expect(lexicalWalks().offThread).toBeGreaterThan(before.offThread);
    expect(lexicalWalks().inProcess).toBe(before.inProcess);
    const offThread: string[] = [];
    for (const input of inputs) offThread.push(await answer(input));
    const after = lexicalWalks();
    expect(after.inProcess).toBe(before.inProcess);
    expect(after.offThread - before.offThread).toBeGreaterThanOrEqual(inputs.length);
    for (let i = 0; i < inputs.length; i++) expect(offThread[i], inputs[i]!.query).toBe(inProcess[i]);

    // five at a time, as concurrent requests arrive: still the same answers
    const concurrent = await Promise.all(inputs.slice(0, 50).map(answer));
    expect(concurrent).toEqual(inProcess.slice(0, 50));
    await stopWorkerPool();
  }, 180_000);
});

describe(`what a name says, from the resident index on ${process.env.TEST_DB ?? 'postgres'}`, () => {
  it('unspecified, the sides and a leading stop word read from stems and initials agree with the name text', async () => {
    const ix = (await getIndex(be.db))!;
    let unspecified = 0;
    let sided = 0;
    let stopFirst = 0;
    for (let c = 0; c < ix.n; c++) {
      const name = ix.name.get(c);
      const f = nameFacts(ix, c);
      expect(f.unspecified, name).toBe((name.match(/\bunspecified\b/gi) ?? []).length);
      expect(f.startsUnspecified, name).toBe(/^unspecified\b/i.test(name));
      expect([f.right, f.left, f.bilateral], name).toEqual([/\bright\b/i.test(name), /\bleft\b/i.test(name), /\bbilateral\b/i.test(name)]);
      // "Other …" and "Of …" begin with a stop word; the reranker reads those names to tell them apart
      expect(f.startsWithStopWord, name).toBe(/^(other|of|in)\b/i.test(name));
      if (f.unspecified) unspecified++;
      if (f.right || f.left || f.bilateral) sided++;
      if (f.startsWithStopWord) stopFirst++;
    }
    expect(Math.min(unspecified, sided, stopFirst)).toBeGreaterThan(50);
  });
});

describe(`long descriptions on ${process.env.TEST_DB ?? 'postgres'}`, () => {
  it('the default min_relevance keeps a concept named inside a narrative, ranked as without it (200 generated)', async () => {
    const rand = seededRandom(11);
    // the story around the concept, in everyday words the vocabulary uses rarely
    const storyOf = () => Array.from({ length: 4 + Math.floor(rand() * 4) }, () => STORY[Math.floor(rand() * STORY.length)]!);
    const concepts = (await getIndex(be.db))!;
    let found = 0;
    let foundAll = 0;
    let tried = 0;
    for (let i = 0; i < 200; i++) {
      // a concept of ICD-10-CM (every 4th from the first) with a name of at least 3 words, told among filler words
      const c = 4 * Math.floor(rand() * (concepts.n / 4));
      const name = concepts.name.get(c);
      const words = name.split(' ');
      if (words.length < 3) continue;
      tried++;
      const story = storyOf();
      const cut = Math.floor(rand() * story.length);
      const told = [...story.slice(0, cut), ...words, ...story.slice(cut)].join(' ');
      const input = { query: told, vocabularies: ['ICD10CM'], top_k: 10 };
      const withDefault = (await search(be.db, input)).results;
      const all = (await search(be.db, { ...input, min_relevance: null })).results;
      // the default threshold only cuts the tail: the same order
      expect(withDefault.map((r) => r.concept_id)).toEqual(all.slice(0, withDefault.length).map((r) => r.concept_id));
      if (withDefault.some((r) => r.concept_code === concepts.code.get(c))) found++;
      if (all.some((r) => r.concept_code === concepts.code.get(c))) foundAll++;
    }
    expect(tried).toBeGreaterThan(100);
    // (the generated names share most of their words: many are not in the top 10 at all)
    expect(foundAll / tried).toBeGreaterThan(0.2);
    // the threshold keeps (nearly) every one the ranking found
    expect(found).toBeGreaterThanOrEqual(0.9 * foundAll);
  });
});

describe(`narrative focus on ${process.env.TEST_DB ?? 'postgres'}`, () => {
  it('brings up what a cue names inside a story of other findings, which the whole query alone does not (150 generated)', async () => {
    const rand = seededRandom(23);
    const ix = (await getIndex(be.db))!;
    const pick = <T>(a: T[]) => a[Math.floor(rand() * a.length)]!;
    const story = () => Array.from({ length: 2 + Math.floor(rand() * 3) }, () => pick(STORY)).join(' ');
    const cues = ['the doctor said it is', 'the scan showed', 'biopsy confirmed', 'she was diagnosed with', 'GP thinks it is'];
    // ICD-10-CM names (every 4th concept from the first), short enough to be what a cue names
    const icd = Array.from({ length: Math.floor(ix.n / 4) }, (_, k) => ix.name.get(4 * k)).filter((n) => n.split(' ').length <= 4);
    let focused = 0;
    let whole = 0;
    let tried = 0;
    for (let i = 0; i < 150; i++) {
      const finding = pick(icd);
      // what the finding's words find on their own, clearly first
      const own = (await search(be.db, { query: finding, vocabularies: ['ICD10CM'], top_k: 2, min_relevance: null })).results;
      if (own.length < 2 || own[0]!.similarity! - own[1]!.similarity! < 0.5) continue;
      const target = own[0]!.concept_code;
      tried++;
      const query = `${story()} ${pick(icd)}, ${story()} ${pick(icd)}, ${pick(cues)} ${finding}`;
      const input = { query, vocabularies: ['ICD10CM'], top_k: 3, min_relevance: null };
      if ((await search(be.db, input)).results.some((r) => r.concept_code === target)) focused++;
      // the whole query alone, as without the focus stage
      const p = resolveParams(input, ix, parseBasics(input));
      const q = await analyzeQuery(be.db, ix, query, { vocabularies: ['ICD10CM'] });
      const alone = await hybridSearch(be.db, ix, p, q, ['ICD10CM'], { minRelevance: null });
      if (alone.slice(0, 3).some((s) => ix.code.get(s.c) === target)) whole++;
    }
    expect(tried).toBeGreaterThan(40);
    expect(focused / tried).toBeGreaterThan(0.7);
    expect(focused - whole).toBeGreaterThan(0.2 * tried);
  });
});
