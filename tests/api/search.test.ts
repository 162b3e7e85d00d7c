import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestOrg, startBackend, type TestBackend, type TestOrg } from '../helpers/backend';
import { currentImport, importAthena, validateAthenaDir } from '@/server/search/importer';
import { hasStoredIndex, indexDir, loadIndex, staleIndexDir, storedArrays } from '@/server/search/index-store';
import { buildVocabIndex } from '@/server/search/index-build';
import { conceptVector } from '@/server/search/vocab-index';
import { vectorBlocks } from '@/server/search/channels/dense';
import { writeAthenaFiles } from '../fixtures/athena';
import { estimateFtsMatches } from '@/server/search/channels/sparse';
import { expandAbbreviation } from '@/server/search/query';
import { tokenize } from '@/server/search/text';
import type { EffectiveParams } from '@/server/search/params';
import { seededRandom } from '@/server/config/random';

/**
 * Vocabulary search over real HTTP with a small Athena-format fixture (tab-separated, real OMOP column names) built
 * here. Covers every SPEC §7 search error, the §2.1 parameters, llm output, graph mode and its fallbacks.
 */
const D = '19700101';
const E = '20991231';
const CONCEPTS: Array<[number, string, string, string, string, string, string]> = [
  // id, name, domain, vocab, class, standard, code
  [1001, 'Type 2 diabetes mellitus', 'Condition', 'ICD10CM', '3-char nonbill code', 'S', 'E11'],
  [1002, 'Type 2 diabetes mellitus without complications', 'Condition', 'ICD10CM', '4-char billing code', '', 'E11.9'],
  [1003, 'Type 1 diabetes mellitus without complications', 'Condition', 'ICD10CM', '4-char billing code', 'S', 'E10.9'],
  [1004, 'Essential (primary) hypertension', 'Condition', 'ICD10CM', '3-char billing code', 'S', 'I10'],
  [1005, 'Acute appendicitis, unspecified', 'Condition', 'ICD10CM', '4-char billing code', 'S', 'K35.80'],
  [1006, 'Angina pectoris, unspecified', 'Condition', 'ICD10CM', '4-char billing code', 'S', 'I20.9'],
  [
    2001,
    'Diabetes mellitus without mention of complication, type II or unspecified type, not stated as uncontrolled',
    'Condition',
    'ICD9CM',
    '5-dig billing code',
    '',
    '250.00',
  ],
  [3001, 'Type 2 diabetes mellitus', 'Condition', 'SNOMED', 'Clinical Finding', 'S', '44054006'],
  [4001, 'Resection of Appendix, Percutaneous Endoscopic Approach', 'Procedure', 'ICD10PCS', 'ICD10PCS', 'S', '0DTJ4ZZ'],
  [4002, 'Gastrointestinal System, Resection', 'Procedure', 'ICD10PCS', 'ICD10PCS Hierarchy', 'S', '0DT'],
  [5001, 'Laparoscopic appendectomy', 'Procedure', 'ICD9Proc', '4-dig billing code', '', '47.01'],
  [6001, 'Diabetes w MCC', 'Observation', 'DRG', 'MS-DRG', 'S', '637'],
  [7001, 'Emergency excision of abnormal appendix', 'Procedure', 'OPCS4', 'Procedure', 'S', 'H01.1'],
  [8001, 'Metformin', 'Drug', 'RxNorm', 'Ingredient', 'S', '6809'],
  [1008, 'Asthma', 'Condition', 'ICD10CM', '3-char nonbill code', '', 'J45'],
  [1009, 'Mild intermittent asthma, uncomplicated', 'Condition', 'ICD10CM', '6-char billing code', 'S', 'J45.20'],
  [1010, 'Unspecified asthma, uncomplicated', 'Condition', 'ICD10CM', '6-char billing code', 'S', 'J45.909'],
  [3002, 'Asthma', 'Condition', 'SNOMED', 'Clinical Finding', 'S', '195967001'],
];
const REL: Array<[number, number, string]> = [
  [1002, 1001, 'Is a'],
  [1001, 1002, 'Subsumes'],
  [1002, 3001, 'Maps to'],
  [3001, 1002, 'Mapped from'],
  [2001, 3001, 'Maps to'],
  [3001, 2001, 'Mapped from'],
  [5001, 4001, 'Maps to'],
  [4001, 5001, 'Mapped from'],
  [4001, 4002, 'Is a'],
  [4002, 4001, 'Subsumes'],
  [1009, 1008, 'Is a'],
  [1008, 1009, 'Subsumes'],
  [1010, 1008, 'Is a'],
  [1008, 1010, 'Subsumes'],
  [1008, 3002, 'Maps to'],
  [3002, 1008, 'Mapped from'],
];
const SYN: Array<[number, string]> = [
  [1004, 'High blood pressure'],
  [1004, 'Hypertension (arterial) (benign) (essential) (malignant) (primary) (systemic)'],
  [1002, 'Diabetes, type 2'],
];

export function writeFixture(dir: string): void {
  const vocabs = [...new Set(CONCEPTS.map((c) => c[3]))];

  writeAthenaFiles(dir, {
    'CONCEPT.csv': CONCEPTS.map((c) => [...c, D, E, '']),
    'CONCEPT_RELATIONSHIP.csv': REL.map((r) => [...r, D, E, '']),
    'CONCEPT_ANCESTOR.csv': [
      [1001, 1002, 1, 1],
      [4002, 4001, 1, 1],
    ],
    'CONCEPT_SYNONYM.csv': SYN.map((s) => [...s, 4180186]),
    'VOCABULARY.csv': vocabs.map((v) => [v, v, 'test', 'v1', 0]),
    'DOMAIN.csv': ['Condition', 'Procedure', 'Observation', 'Drug'].map((d) => [d, d, 0]),
    'CONCEPT_CLASS.csv': [...new Set(CONCEPTS.map((c) => c[4]))].map((c) => [c, c, 0]),
    'RELATIONSHIP.csv': [
      ['Is a', 'Is a', 1, 1, 'Subsumes', 0],
      ['Subsumes', 'Subsumes', 1, 1, 'Is a', 0],
      ['Maps to', 'Maps to', 0, 0, 'Mapped from', 0],
      ['Mapped from', 'Mapped from', 0, 0, 'Maps to', 0],
    ],
  });
}

let be: TestBackend;
let org: TestOrg;
let redactOnly: TestOrg;
let fixture: string;

beforeAll(async () => {
  be = await startBackend();
  org = await createTestOrg(be.db, { scopes: ['search'] });
  redactOnly = await createTestOrg(be.db, { scopes: ['redact'] });
  fixture = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-athena-'));
  writeFixture(fixture);
});
afterAll(async () => {
  await be?.close();
  if (fixture) fs.rmSync(fixture, { recursive: true, force: true });
});

const post = (body: unknown, query = '', key = org.key) => api(be.baseUrl, 'POST', `/api/v1/search/${query}`, { key, body });

describe(`search on ${process.env.TEST_DB ?? 'postgres'}`, () => {
  it('answers 503 vocabulary_unavailable before any import', async () => {
    const r = await post({ query: 'diabetes' });
    expect(r.status).toBe(503);
    expect(r.body.error).toBe('vocabulary_unavailable');
    // a request that could never succeed is told so first
    const bad = await post({ vocabularies: ['ICD10CM'] });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('missing_query');
    expect((await post({ query: 'diabetes', search_mode: 'fuzzy' })).body.error).toBe('invalid_search_mode');
  });

  it('refuses a wrong Athena file with a clear message', () => {
    const bad = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-athena-bad-'));
    writeFixture(bad);
    fs.writeFileSync(path.join(bad, 'CONCEPT.csv'), 'concept_id,concept_name,domain_id\n1,x,Condition\n');
    expect(() => validateAthenaDir(bad)).toThrow(/CONCEPT\.csv.*tab/);
    fs.writeFileSync(path.join(bad, 'CONCEPT.csv'), 'concept_id\tname\n');
    expect(() => validateAthenaDir(bad)).toThrow(/unexpected header/);
    fs.rmSync(path.join(bad, 'DOMAIN.csv'));
    expect(() => validateAthenaDir(bad)).toThrow(/missing DOMAIN\.csv/);
    fs.rmSync(bad, { recursive: true, force: true });
  });

  it('imports an Athena-format folder, idempotently, and builds the search structures', async () => {
    const first = await importAthena(be.db, fixture, { batchRows: 4 });
    expect(first.status).toBe('imported');
    expect(first.counts.concept).toBe(CONCEPTS.length);
    expect(first.counts.concept_relationship).toBe(REL.length);
    expect(first.counts.search_term).toBe(CONCEPTS.length + SYN.length);
    expect(first.counts.search_lexicon).toBeGreaterThan(10);
    const again = await importAthena(be.db, fixture);
    expect(again.status).toBe('unchanged');
    expect(again.counts.concept).toBe(CONCEPTS.length);
    const tsv = await be.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM search_term WHERE tsv_english @@ plainto_tsquery('english', 'hypertension')`);
    expect(Number(tsv[0]!.n)).toBeGreaterThan(0);
  });

  it('resumes a half-finished import instead of starting over', async () => {
    await be.db.query(
      `UPDATE vocab_import SET status = 'loading', progress = jsonb_set(progress, '{structures,analyze}', 'false') WHERE id = (SELECT max(id) FROM vocab_import)`,
    );
    const r = await importAthena(be.db, fixture);
    expect(r.status).toBe('resumed');
    expect(r.counts.concept).toBe(CONCEPTS.length);
  });

  it('a search that cannot be served yet (index not built) answers 503 at once instead of waiting', async () => {
    process.env.SEARCH_INDEX_WAIT_MS = '0';
    try {
      const t = Date.now();
      const r = await post({ query: 'high blood pressure' });
      expect(r.status).toBe(503);
      expect(r.body.error).toBe('vocabulary_unavailable');
      expect(r.body.message).toMatch(/not ready yet/);
      expect(Date.now() - t).toBeLessThan(5000); // the answer did not wait for the build
    } finally {
      delete process.env.SEARCH_INDEX_WAIT_MS;
    }
    // the index is built meanwhile: on PostgreSQL by a separate builder process (the server never compiles it), on
    // the embedded database in-process; searches are served once it is stored and loaded
    let status = 0;
    for (let i = 0; i < 240 && status !== 200; i++) {
      status = (await post({ query: 'high blood pressure' })).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 500));
    }
    expect(status).toBe(200);
    expect(hasStoredIndex((await currentImport(be.db))!.fingerprint)).toBe(true);
  });

  it("the full-text channel's cost estimate bounds the rows its tsquery matches (600 generated queries)", async () => {
    const fp = (await currentImport(be.db))!.fingerprint;
    const ix = await buildVocabIndex(be.db, fp);
    const rand = seededRandom(2611);
    const words = [
      ...new Set(
        [...CONCEPTS.map((c) => c[1]), ...SYN.map((s) => s[1])]
          .join(' ')
          .split(/[^A-Za-z0-9']+/)
          .filter(Boolean),
      ),
    ];
    const extra = ['of', 'the', 'with', 'or', 'OR', 'zzqx', "Down's", 'diabetic', 'complications', '"type 2"', '-asthma', '(primary)', 'unspecified,'];
    let bounded = 0;
    for (let i = 0; i < 600; i++) {
      const n = 1 + Math.floor(rand() * 6);
      const q = Array.from({ length: n }, () => (rand() < 0.25 ? extra[Math.floor(rand() * extra.length)]! : words[Math.floor(rand() * words.length)]!)).join(
        ' ',
      );
      for (const searchType of ['websearch', 'plain'] as const) {
        const fn = searchType === 'websearch' ? 'websearch_to_tsquery' : 'plainto_tsquery';
        const r = await be.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM search_term WHERE to_tsvector('english', term) @@ ${fn}('english', $1)`, [
          q,
        ]);
        const est = estimateFtsMatches(ix, { query: q, searchType } as EffectiveParams);
        expect(est, `${searchType} ${q}`).toBeGreaterThanOrEqual(Number(r[0]!.n));
        if (est === Number(r[0]!.n)) bounded++;
      }
    }
    // and it is close: often exact
    expect(bounded).toBeGreaterThan(300);
  });

  it('abbreviations expand only to runs of words whose initials spell them, with no punctuation inside (every 2–3 letter string)', async () => {
    const fp = (await currentImport(be.db))!.fingerprint;
    const ix = await buildVocabIndex(be.db, fp);
    // brute force from the texts themselves: every run of words (no one-letter or stop word, no break after its first
    // word) and what it spells
    const spelt = new Map<string, Set<string>>();
    for (let t = 0; t < ix.termText.length; t++) {
      const words = tokenize(ix.termText.get(t));
      for (let i = 0; i < words.length; i++)
        for (let L = 2; L <= 3 && i + L <= words.length; L++) {
          const run = words.slice(i, i + L);
          const stems = run.map((w) => ix.stemOfWord(w.text) ?? -1);
          if (run.some((w, j) => (w.text.length < 2 && !/\d/.test(w.text)) || (j > 0 && w.brk)) || stems.some((st) => st < 0)) continue;
          const abbr = run.map((w) => w.text[0]).join('');
          if (!spelt.has(abbr)) spelt.set(abbr, new Set());
          spelt.get(abbr)!.add(stems.join(','));
        }
    }
    const letters = [...new Set([...spelt.keys()].join(''))];
    let expanded = 0;
    for (const a of letters)
      for (const b of letters)
        for (const c of ['', ...letters]) {
          const abbr = a + b + c;
          for (const e of expandAbbreviation(ix, abbr, false)) {
            expect(spelt.get(abbr)?.has(e.stems.join(',')), `${abbr} → ${e.phrase}`).toBe(true);
            expect(
              e.phrase
                .split(' ')
                .map((w) => w[0])
                .join(''),
            ).toBe(abbr);
            expanded++;
          }
        }
    expect(expanded).toBeGreaterThan(5);
    // "Hypertension (arterial) (benign)": a parenthesis breaks the run, so nothing expands "ab"; "type 2 diabetes" does
    // expand "t2d" and a break before a run's first word does not stop it ("Diabetes, type 2": "t2")
    expect(expandAbbreviation(ix, 'ab', false)).toEqual([]);
    expect(expandAbbreviation(ix, 't2d', false).map((e) => e.phrase)).toContain('type 2 diabetes');
    expect(spelt.get('t2')).toBeDefined();
    // spelt from the requested vocabularies' texts only: SNOMED has "Type 2 diabetes mellitus", RxNorm has not
    expect(expandAbbreviation(ix, 't2dm', false, ['SNOMED']).map((e) => e.phrase)).toContain('type 2 diabetes mellitus');
    expect(expandAbbreviation(ix, 't2dm', false, ['RxNorm'])).toEqual([]);
  });

  it('the stored index loads back exactly as it was built (every array, string, word and stem)', async () => {
    const fp = (await currentImport(be.db))!.fingerprint;
    const built = await buildVocabIndex(be.db, fp);
    const loaded = await loadIndex(fp);
    const a = new Map(storedArrays(built).filter(([k]) => !k.endsWith('.blob')));
    for (const [k, arr] of storedArrays(loaded).filter(([key]) => !key.endsWith('.blob'))) expect(Array.from(arr), k).toEqual(Array.from(a.get(k)!));
    expect(loaded.n).toBe(CONCEPTS.length);
    for (let i = 0; i < loaded.n; i++) {
      expect(loaded.name.get(i)).toBe(built.name.get(i));
      expect(loaded.code.get(i)).toBe(built.code.get(i));
      expect(loaded.cls.get(i)).toBe(built.cls.get(i));
    }
    for (let t = 0; t < built.termText.length; t++) expect(loaded.termText.get(t)).toBe(built.termText.get(t));
    expect([...loaded.wordStem]).toEqual([...built.wordStem]);
    expect([...loaded.wordDf]).toEqual([...built.wordDf]);
    expect(loaded.stemStr).toEqual(built.stemStr);
    expect(loaded.sortedWords).toEqual(built.sortedWords);
    expect(loaded.vocabList).toEqual(built.vocabList);
    expect(loaded.initials.equals(built.initials)).toBe(true);
    // the concept vectors stay in the file: read back in blocks, and recomputed from the stems, they are the built ones
    expect(loaded.conceptVec).toBeNull();
    const D = built.dim;
    const fromFile = new Int8Array(loaded.n * D);
    vectorBlocks(loaded, 0, loaded.n, (mat, first, from, to) => fromFile.set(mat.subarray((from - first) * D, (to - first) * D), from * D));
    expect(Array.from(fromFile)).toEqual(Array.from(built.conceptVec!));
    const row = new Int8Array(D);
    for (let c = 0; c < loaded.n; c++) {
      conceptVector(loaded, c, row, 0, new Float32Array(D));
      expect(Array.from(row), loaded.name.get(c)).toEqual(Array.from(built.conceptVec!.subarray(c * D, (c + 1) * D)));
    }
    // names and texts stay on disk: the resident part is smaller than what was built
    expect(loaded.residentBytes).toBeGreaterThan(0);
    expect(loaded.name.residentBytes).toBeLessThan(built.name.residentBytes);
    expect(loaded.termText.residentBytes).toBeLessThan(built.termText.residentBytes);
  });

  it("after an upgrade, the same vocabulary's index built by the previous code is found to serve meanwhile", async () => {
    const fp = (await currentImport(be.db))!.fingerprint;
    const dir = indexDir(fp);
    const old = `${dir.slice(0, dir.lastIndexOf('-'))}-0ldstamp0000`;
    expect(staleIndexDir(fp)).toBeNull(); // the current build is not a stand-in for itself
    fs.cpSync(dir, old, { recursive: true });
    try {
      expect(staleIndexDir(fp)).toBe(old);
      const ix = await loadIndex(fp, old);
      expect(ix.n).toBe(CONCEPTS.length);
      expect(staleIndexDir('0'.repeat(64))).toBeNull(); // another vocabulary's index never stands in
    } finally {
      fs.rmSync(old, { recursive: true, force: true });
    }
  });

  it('searches with a JSON body and returns every metadata key', async () => {
    const r = await post({ query: 'high blood pressure', vocabularies: ['icd10cm'] });
    expect(r.status).toBe(200);
    expect(r.body.results[0]).toMatchObject({
      concept_id: 1004,
      concept_code: 'I10',
      vocabulary_id: 'ICD10CM',
      concept_class_id: '3-char billing code',
      parents: null,
    });
    expect(typeof r.body.results[0].similarity).toBe('number');
    expect(r.body.results[0]).not.toHaveProperty('graph_score');
    expect(r.body.results[0]).not.toHaveProperty('is_bridge');
    expect(r.body.metadata).toEqual({
      query: 'high blood pressure',
      vocabularies_searched: ['ICD10CM'],
      domain_id: null,
      total_results: r.body.results.length,
      find_relationship: false,
      search_mode: 'hybrid',
      requested_search_mode: 'hybrid',
      profile: null,
      include_bridges: false,
      filter_to_input_vocab: true,
      fts_options: { search_type: 'websearch', language: 'english', use_search_rank: true, rank_normalization: 0 },
    });
  });

  it('accepts q in the query string with an empty body, form-urlencoded and multipart bodies', async () => {
    const a = await api(be.baseUrl, 'POST', '/api/v1/search/?q=hypertension', { key: org.key });
    expect(a.status).toBe(200);
    expect(a.body.results[0].concept_code).toBe('I10');
    const form = await api(be.baseUrl, 'POST', '/api/v1/search/', {
      key: org.key,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      raw: 'query=hypertension&vocabularies=ICD10CM,SNOMED&top_k=2&find_relationship=true&min_relevance=null',
    });
    expect(form.status).toBe(200);
    expect(form.body.metadata.vocabularies_searched).toEqual(['ICD10CM', 'SNOMED']);
    expect(form.body.metadata.find_relationship).toBe(true);
    expect(form.body.results.length).toBeLessThanOrEqual(2);
    const fd = new FormData();
    fd.set('query', 'appendectomy');
    fd.set('vocabularies', 'ICD10PCS');
    const multi = await fetch(`${be.baseUrl}/api/v1/search/`, { method: 'POST', headers: { 'x-api-key': org.key }, body: fd });
    expect(multi.status).toBe(200);
    const body = (await multi.json()) as { results: Array<{ concept_code: string }> };
    expect(body.results.map((x) => x.concept_code)).toContain('0DTJ4ZZ');
  });

  it('400s: missing query, invalid search_mode, profile, vocabularies, domain, top_k, language, tsquery, filters', async () => {
    const cases: Array<[unknown, string, string]> = [
      [{}, '', 'missing_query'],
      [{ query: '   ' }, '', 'missing_query'],
      [{ query: '' }, '', 'invalid_request'],
      [{ query: 'x', search_mode: 'semantic' }, '', 'invalid_search_mode'],
      [{ query: 'x' }, '?search_mode=fuzzy', 'invalid_search_mode'],
      [{ query: 'x', profile: 'deep' }, '', 'invalid_profile'],
      [{ query: 'x', vocabularies: ['ICD10CM', 'ICD11'] }, '', 'invalid_vocabulary'],
      [{ query: 'x', vocabularies: [''] }, '', 'invalid_request'],
      [{ query: 'x', domain_id: 'Galaxy' }, '', 'invalid_domain'],
      [{ query: 'x', top_k: 0 }, '', 'invalid_request'],
      [{ query: 'x', top_k: 101 }, '', 'invalid_request'],
      [{ query: 'x', rank_normalization: 32 }, '', 'invalid_request'],
      [{ query: 'x', search_type: 'regex' }, '', 'invalid_request'],
      [{ query: 'x', language: 'klingon' }, '', 'invalid_language'],
      [{ query: 'diabetes & (', search_type: 'raw' }, '', 'invalid_tsquery'],
      [{ query: '&', search_type: 'raw' }, '', 'invalid_tsquery'],
      [{ query: 'x', relationship_filters: { concept_id_2__name: 'x' } }, '', 'invalid_request'],
    ];
    for (const [body, qs, type] of cases) {
      const r = await post(body, qs);
      expect(r.status, JSON.stringify(body) + qs).toBe(400);
      expect(r.body.error, JSON.stringify(body)).toBe(type);
      expect(typeof r.body.message).toBe('string');
    }
    const tk = await post({ query: 'x', top_k: 101 });
    expect(tk.body.message).toMatch(/top_k/);
  });

  it('normalises vocabularies case-insensitively; DRG and OPCS4 only when named', async () => {
    const d = await post({ query: 'diabetes', min_relevance: null, top_k: 50 });
    expect(d.body.metadata.vocabularies_searched).not.toContain('DRG');
    expect(d.body.metadata.vocabularies_searched).not.toContain('OPCS4');
    expect(d.body.results.some((x: { vocabulary_id: string }) => x.vocabulary_id === 'DRG')).toBe(false);
    const named = await post({ query: 'diabetes', vocabularies: ['drg', 'Icd10Cm', 'rxnorm extension'] });
    // RxNorm Extension is a known vocabulary (no 400) but this database holds none of it: not reported as searched
    expect(named.body.metadata.vocabularies_searched).toEqual(['DRG', 'ICD10CM']);
    expect(named.body.results.some((x: { vocabulary_id: string }) => x.vocabulary_id === 'DRG')).toBe(true);
  });

  it('domain_id filters (case-insensitive) and top_k limits', async () => {
    const r = await post({ query: 'appendix', domain_id: 'procedure', min_relevance: null, vocabularies: ['ICD10CM', 'ICD10PCS'] });
    expect(r.body.metadata.domain_id).toBe('Procedure');
    expect(r.body.results.length).toBeGreaterThan(0);
    for (const x of r.body.results) expect(x.vocabulary_id).toBe('ICD10PCS');
    const one = await post({ query: 'diabetes', top_k: 1, min_relevance: null });
    expect(one.body.results).toHaveLength(1);
    expect(one.body.metadata.total_results).toBe(1);
  });

  it('search_type maps to the tsquery functions; language, use_search_rank and rank_normalization are echoed', async () => {
    for (const search_type of ['plain', 'phrase', 'raw', 'websearch'] as const) {
      const query = search_type === 'raw' ? 'diabetes & type' : search_type === 'phrase' ? 'type 2 diabetes' : 'type 2 diabetes';
      const r = await post({ query, search_type, vocabularies: ['ICD10CM'], use_search_rank: false, rank_normalization: 5, language: 'english' });
      expect(r.status, search_type).toBe(200);
      expect(r.body.metadata.fts_options).toEqual({ search_type, language: 'english', use_search_rank: false, rank_normalization: 5 });
      expect(r.body.results.length, search_type).toBeGreaterThan(0);
    }
    // raw and phrase restrict results to full-text matches
    const neg = await post({ query: 'diabetes & !type', search_type: 'raw', vocabularies: ['ICD10CM'] });
    expect(neg.status).toBe(200);
    expect(neg.body.results).toHaveLength(0);
    const simple = await post({ query: 'hypertension', language: 'Simple' });
    expect(simple.status).toBe(200);
    expect(simple.body.metadata.fts_options.language).toBe('simple');
  });

  it('min_relevance drops weak results; null disables the filter', async () => {
    const strict = await post({ query: 'hypertension', min_relevance: 14.9 });
    expect(strict.body.results).toHaveLength(0);
    const off = await post({ query: 'hypertension', min_relevance: null, top_k: 5 });
    expect(off.body.results.length).toBeGreaterThan(0);
    const dflt = await post({ query: 'zzqxv blorf' });
    expect(dflt.status).toBe(200);
    expect(dflt.body.results).toHaveLength(0);
  });

  it('find_relationship adds Is a parents; relationship_filters narrow them', async () => {
    const r = await post({ query: 'type 2 diabetes without complications', vocabularies: ['ICD10CM'], find_relationship: true });
    const e119 = r.body.results.find((x: { concept_code: string }) => x.concept_code === 'E11.9');
    expect(e119.parents).toEqual([{ parent_concept_id: 1001, parent_concept_code: 'E11', parent_concept_name: 'Type 2 diabetes mellitus' }]);
    const f = await post({
      query: 'type 2 diabetes without complications',
      vocabularies: ['ICD10CM'],
      find_relationship: true,
      relationship_filters: { concept_id_2__concept_class_id__in: ['4-char billing code'] },
    });
    expect(f.body.results.find((x: { concept_code: string }) => x.concept_code === 'E11.9').parents).toEqual([]);
    const g = await post({
      query: 'type 2 diabetes without complications',
      vocabularies: ['ICD10CM'],
      find_relationship: true,
      relationship_filters: { concept_id_2__vocabulary_id: 'icd10cm', concept_id_2__domain_id__in: ['Condition'] },
    });
    expect(g.body.results.find((x: { concept_code: string }) => x.concept_code === 'E11.9').parents).toHaveLength(1);
  });

  it('graph mode: Maps-to translation through a standard bridge, scores, bridges and the vocabulary filter', async () => {
    const r = await post({ query: 'type 2 diabetes mellitus without complications', vocabularies: ['ICD9CM'], search_mode: 'graph' });
    expect(r.status).toBe(200);
    expect(r.body.metadata.search_mode).toBe('graph');
    expect(r.body.metadata.requested_search_mode).toBe('graph');
    expect(r.body.metadata).not.toHaveProperty('fallback_reason');
    const hit = r.body.results.find((x: { concept_code: string }) => x.concept_code === '250.00');
    expect(hit).toBeTruthy();
    expect(hit.is_bridge).toBeUndefined();
    for (const x of r.body.results) {
      expect(x.graph_score).toBeGreaterThanOrEqual(0);
      expect(x.graph_score).toBeLessThanOrEqual(1);
      expect(x.combined_score).toBe(x.graph_score);
      expect(x.score).toBe(x.similarity);
      expect(x.vocabulary_id).toBe('ICD9CM');
    }
    const bridges = await post({
      query: 'type 2 diabetes mellitus without complications',
      vocabularies: ['ICD9CM'],
      search_mode: 'graph',
      include_bridges: true,
    });
    const b = bridges.body.results.find((x: { concept_code: string }) => x.concept_code === '44054006');
    expect(b).toMatchObject({ vocabulary_id: 'SNOMED', is_bridge: true });
    expect(bridges.body.metadata.include_bridges).toBe(true);
    const open = await post({
      query: 'laparoscopic appendectomy',
      vocabularies: ['ICD9Proc'],
      search_mode: 'graph',
      filter_to_input_vocab: false,
      min_relevance: null,
    });
    expect(open.body.metadata.filter_to_input_vocab).toBe(false);
    expect(open.body.results.map((x: { concept_code: string }) => x.concept_code)).toContain('0DTJ4ZZ');
  });

  it('profiles: presets, search_mode override, body override', async () => {
    const m = await post({ query: 'type 2 diabetes mellitus without complications', vocabularies: ['ICD9CM'] }, '?profile=mapping&search_mode=hybrid');
    expect(m.body.metadata).toMatchObject({
      profile: 'mapping',
      search_mode: 'graph',
      requested_search_mode: 'graph',
      include_bridges: false,
      filter_to_input_vocab: true,
    });
    const e = await post({ query: 'type 2 diabetes mellitus without complications', vocabularies: ['ICD9CM'], profile: 'explore' });
    expect(e.body.metadata).toMatchObject({ profile: 'explore', search_mode: 'graph', include_bridges: true, filter_to_input_vocab: false });
    expect(e.body.results.some((x: { is_bridge?: boolean }) => x.is_bridge === true)).toBe(true);
    const o = await post({
      query: 'type 2 diabetes mellitus without complications',
      vocabularies: ['ICD9CM'],
      profile: 'explore',
      include_bridges: false,
      filter_to_input_vocab: true,
    });
    expect(o.body.metadata).toMatchObject({ include_bridges: false, filter_to_input_vocab: true });
    expect(o.body.results.some((x: { is_bridge?: boolean }) => x.is_bridge === true)).toBe(false);
    const h = await post({ query: 'hypertension' }, '?profile=hybrid&search_mode=graph');
    expect(h.body.metadata).toMatchObject({ profile: 'hybrid', search_mode: 'hybrid', requested_search_mode: 'hybrid' });
  });

  it('search by code (any vocabulary, with or without dots) and by concept_id puts that concept first, in both modes', async () => {
    const first = async (body: Record<string, unknown>) => {
      const r = await post(body);
      expect(r.status).toBe(200);
      return r.body as { results: Array<{ concept_id: number; concept_code: string; vocabulary_id: string }>; metadata: Record<string, unknown> };
    };
    for (const mode of ['hybrid', 'graph']) {
      const snomed = await first({ query: '44054006', search_mode: mode });
      expect(snomed.results[0], mode).toMatchObject({ concept_id: 3001, vocabulary_id: 'SNOMED', concept_code: '44054006' });
      expect(snomed.metadata.search_mode).toBe(mode);
      for (const q of ['E11.9', 'e119', 'E119'])
        expect((await first({ query: q, search_mode: mode })).results[0], `${q} ${mode}`).toMatchObject({ concept_id: 1002, concept_code: 'E11.9' });
      expect((await first({ query: '0DTJ4ZZ', search_mode: mode })).results[0]).toMatchObject({ concept_id: 4001 });
      expect((await first({ query: '6809', search_mode: mode })).results[0]).toMatchObject({ concept_id: 8001, vocabulary_id: 'RxNorm' });
      // a concept_id
      expect((await first({ query: '1004', search_mode: mode })).results[0], mode).toMatchObject({ concept_id: 1004, concept_code: 'I10' });
      expect((await first({ query: '4001', vocabularies: ['ICD10PCS'], search_mode: mode })).results[0]).toMatchObject({ concept_code: '0DTJ4ZZ' });
    }
    // the mapping profile translates a SNOMED code into ICD-10-CM through 'Maps to' (no "no anchors" fallback)
    const m = await first({ query: '44054006', vocabularies: ['ICD10CM'], profile: 'mapping' });
    expect(m.metadata).toMatchObject({ profile: 'mapping', search_mode: 'graph' });
    expect(m.metadata).not.toHaveProperty('fallback_reason');
    expect(m.results[0]).toMatchObject({ concept_code: 'E11.9', vocabulary_id: 'ICD10CM' });
    expect(m.results.every((x) => x.vocabulary_id === 'ICD10CM')).toBe(true);
    // a SNOMED code mapped from an ICD-10-CM header: its default billable code (unspecified) first, then the header
    const hdr = await first({ query: '195967001', vocabularies: ['ICD10CM'], profile: 'mapping' });
    expect(hdr.metadata).not.toHaveProperty('fallback_reason');
    expect(hdr.results.map((x) => x.concept_code).slice(0, 2)).toEqual(['J45.909', 'J45']);
    // hybrid over ICD-9-CM: the SNOMED concept leads to the ICD-9-CM code that maps to it
    const h = await first({ query: '44054006', vocabularies: ['ICD9CM'] });
    expect(h.results[0]).toMatchObject({ concept_code: '250.00' });
    // a number that is no code and no concept_id finds nothing
    expect((await first({ query: '987654321' })).results).toEqual([]);
  });

  it('graph falls back to hybrid with fallback_reason (no anchors, empty graph expansion)', async () => {
    const none = await post({ query: 'qqqzzx vvbnm', search_mode: 'graph' });
    expect(none.status).toBe(200);
    expect(none.body.metadata).toMatchObject({ search_mode: 'hybrid', requested_search_mode: 'graph' });
    expect(none.body.metadata.fallback_reason).toMatch(/^no anchors/);
    // no vocabulary has an edge into OPCS4: anchors are sought in OPCS4 alone
    const unreachable = await post({ query: 'essential hypertension', vocabularies: ['OPCS4'], search_mode: 'graph' });
    expect(unreachable.body.metadata.search_mode).toBe('hybrid');
    expect(unreachable.body.metadata.fallback_reason).toBe('no anchors: hybrid search found no concept in OPCS4 or in a vocabulary that leads into it');
    // ICD-10-CM leads into ICD-9-CM (through SNOMED), but the hypertension code has no edge the traversal can follow
    const empty = await post({ query: 'essential hypertension', vocabularies: ['ICD9CM'], search_mode: 'graph' });
    expect(empty.body.metadata.search_mode).toBe('hybrid');
    expect(empty.body.metadata.fallback_reason).toMatch(/^empty graph expansion/);
  });

  it('response_format=llm returns markdown tables (query string or body)', async () => {
    const a = await post({ query: 'hypertension', find_relationship: true }, '?response_format=llm');
    expect(a.status).toBe(200);
    expect(a.headers.get('content-type')).toMatch(/text\/markdown/);
    expect(a.text).toMatch(/\| # \| vocabulary \| code \| name \|/);
    expect(a.text).toContain('| I10 |');
    const b = await post({ query: 'type 2 diabetes mellitus', vocabularies: ['ICD9CM'], search_mode: 'graph', response_format: 'llm' });
    expect(b.headers.get('content-type')).toMatch(/text\/markdown/);
    expect(b.text).toMatch(/graph_score/);
    const v = await api(be.baseUrl, 'GET', '/api/v1/search/vocabularies/?response_format=llm', { key: org.key });
    expect(v.headers.get('content-type')).toMatch(/text\/markdown/);
    expect(v.text).toContain('| ICD10CM |');
  });

  it('lists vocabularies and domains; scope search; JWT allowed; 401 without credentials', async () => {
    const v = await api(be.baseUrl, 'GET', '/api/v1/search/vocabularies/', { key: org.key });
    expect(v.status).toBe(200);
    expect(v.body.vocabularies).toEqual(
      expect.arrayContaining(['ICD10', 'ICD10CM', 'ICD10PCS', 'ICD9CM', 'ICD9Proc', 'SNOMED', 'CPT4', 'HCPCS', 'RxNorm', 'RxNorm Extension', 'OPCS4', 'DRG']),
    );
    expect(v.body.domains).toEqual(['Condition', 'Procedure', 'Drug', 'Measurement', 'Observation', 'Device', 'Specimen']);
    const d = await api(be.baseUrl, 'GET', '/api/v1/search/domains', { key: org.key });
    expect(d.body).toEqual({ domains: v.body.domains });
    const login = await api(be.baseUrl, 'POST', '/login/', { body: { email: org.email, password: org.password } });
    const jwt = login.body.access_token as string;
    const j = await api(be.baseUrl, 'POST', '/api/v1/search/', { bearer: jwt, body: { query: 'hypertension' } });
    expect(j.status).toBe(200);
    const jd = await api(be.baseUrl, 'GET', '/api/v1/search/domains/', { bearer: jwt });
    expect(jd.status).toBe(200);
    const forbidden = await post({ query: 'hypertension' }, '', redactOnly.key);
    expect(forbidden.status).toBe(403);
    const anon = await api(be.baseUrl, 'POST', '/api/v1/search/', { body: { query: 'hypertension' } });
    expect(anon.status).toBe(401);
  });

  it('corrects English misspellings, but never a Malay word into an English one (angin is not angina)', async () => {
    const top = async (query: string) =>
      ((await post({ query, vocabularies: ['ICD10CM'] })).body.results as Array<{ concept_code: string }>).map((r) => r.concept_code);
    expect((await top('angina'))[0]).toBe('I20.9');
    expect((await top('anginna'))[0]).toBe('I20.9');
    // "angin" (wind) is a Malay lexicon word ("angin ahmar" = stroke): outside its phrase it is not a typo of "angina"
    expect(await top('angin')).toEqual([]);
    expect(await top('makan angin')).toEqual([]);
    // an everyday Malay phrase asks for nothing medical; a Malay medical phrase still reads through the lexicon
    expect(await top('selamat pagi')).toEqual([]);
    expect((await top('darah tinggi'))[0]).toBe('I10');
  });

  it('survives hostile input: injection, emoji, huge and odd text', async () => {
    for (const query of ["'; DROP TABLE concept; --", '😀😀', 'a'.repeat(5000), "' OR 1=1; -- ".repeat(300), '\u200b\u200b', '%_%']) {
      const r = await post({ query });
      expect([200, 400]).toContain(r.status);
    }
    const still = await post({ query: 'hypertension' });
    expect(still.body.results[0].concept_code).toBe('I10');
  });
});
