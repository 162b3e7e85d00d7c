import { describe, expect, it } from 'vitest';
import { ATHENA_TABLES, AthenaFormatError, checkHeader, parseAthenaDate, tsvLine } from './athena';
import { extractIndex, extractNeoplasmTable, extractTabular, parseOrderFile, splitCsvLine } from './bundle/sources';
import { parseXml } from './bundle/xml';
import { searchToMarkdown, listToMarkdown } from './markdown';
import { PROFILES, shortenForFts } from './engine';
import { americanSpelling, editDistance, looksLikeCode, tokenize } from './text';
import { DEFAULT_VOCABULARIES, normalizeDomain, normalizeVocabularies } from './vocabularies';
import { AppError } from '../errors';

describe('text', () => {
  it('tokenizes, folds accents and marks parenthesised words optional', () => {
    const w = tokenize('Hypertension (arterial) [benign], Sjögren’s');
    expect(w.map((x) => x.text)).toEqual(['hypertension', 'arterial', 'benign', 'sjogren', 's']);
    expect(w.map((x) => x.optional)).toEqual([false, true, true, false, false]);
    expect(w[3]!.brk).toBe(true);
  });
  it('British spellings become American', () => {
    expect(americanSpelling('haemorrhage')).toBe('hemorrhage');
    expect(americanSpelling('oesophageal')).toBe('esophageal');
    expect(americanSpelling('tumour')).toBe('tumor');
    expect(americanSpelling('catheterisation')).toBe('catheterization');
  });
  it('edit distance counts transpositions as one', () => {
    expect(editDistance('pnuemonia', 'pneumonia')).toBe(1);
    expect(editDistance('diabetis', 'diabetes')).toBe(1);
    expect(editDistance('abc', 'xyzuvw', 2)).toBe(3);
  });
  it('recognises codes', () => {
    for (const c of ['I21.9', 'E11', '0DTJ4ZZ', '250.00', 'J1100']) expect(looksLikeCode(c), c).toBe(true);
    for (const c of ['heart attack', 'piles', 'a']) expect(looksLikeCode(c), c).toBe(false);
  });
});

describe('athena format', () => {
  it('accepts the real header (any case) and explains a wrong one', () => {
    const concept = ATHENA_TABLES.find((t) => t.table === 'concept')!;
    expect(() => checkHeader(concept, concept.columns.map((c) => c.name.toUpperCase()).join('\t'), 'CONCEPT.csv')).not.toThrow();
    expect(() => checkHeader(concept, 'concept_id,concept_name', 'CONCEPT.csv')).toThrow(/comma-separated/);
    expect(() => checkHeader(concept, 'concept_id\tconcept_name', 'CONCEPT.csv')).toThrow(AthenaFormatError);
  });
  it('dates and lines', () => {
    expect(parseAthenaDate('20991231')).toBe('2099-12-31');
    expect(parseAthenaDate('1970-01-01')).toBe('1970-01-01');
    expect(tsvLine([1, 'a\tb', null])).toBe('1\ta b\t\n');
  });
});

describe('starter bundle sources', () => {
  it('parses CMS order-file lines', () => {
    const line = '00002 A000    1 Cholera due to Vibrio cholerae 01, biovar cholerae           Cholera due to Vibrio cholerae 01, biovar cholerae';
    expect(parseOrderFile(line)).toEqual([
      {
        code: 'A000',
        billable: true,
        shortTitle: 'Cholera due to Vibrio cholerae 01, biovar cholerae',
        longTitle: 'Cholera due to Vibrio cholerae 01, biovar cholerae',
      },
    ]);
  });
  it('reads quoted CSV', () => {
    expect(splitCsvLine('1,"a, ""b""",,x')).toEqual(['1', 'a, "b"', '', 'x']);
  });
  it('extracts index terms and resolves see-references to a code', () => {
    const xml = `<ICD10CM.index><letter><title>A</title>
      <mainTerm><title>Attack, attacks</title>
        <term level="1"><title>heart</title><see>Infarct, myocardium</see></term>
        <term level="1"><title>transient ischemic<nemod>(TIA)</nemod></title><code>G45.9</code></term>
        <term level="1"><title>vague</title><see>condition</see></term>
      </mainTerm>
      <mainTerm><title>Infarct, infarction</title>
        <term level="1"><title>myocardium, myocardial</title><code>I21.3</code></term>
      </mainTerm></letter></ICD10CM.index>`;
    const syn = extractIndex(xml);
    expect(syn).toContainEqual({ code: 'G45.9', text: 'Attack, attacks, transient ischemic (TIA)', source: 'index' });
    expect(syn).toContainEqual({ code: 'I21.3', text: 'Attack, attacks, heart', source: 'index-see' });
    expect(syn.some((s) => s.text.includes('vague'))).toBe(false);
  });
  it('extracts tabular inclusion terms and the neoplasm table', () => {
    const tab = `<ICD10CM.tabular><chapter><section><diag><name>K64</name><desc>Hemorrhoids</desc><includes><note>piles</note></includes>
      <diag><name>K64.0</name><desc>First degree hemorrhoids</desc><inclusionTerm><note>Grade/stage I hemorrhoids</note></inclusionTerm></diag></diag></section></chapter></ICD10CM.tabular>`;
    expect(extractTabular(tab)).toEqual([
      { code: 'K64', text: 'piles', source: 'tabular' },
      { code: 'K64.0', text: 'Grade/stage I hemorrhoids', source: 'tabular' },
    ]);
    const neo = `<x><letter><title>N</title><mainTerm><title>Neoplasm</title><term level="1"><title>liver</title><cell col="2">C22.9</cell><cell col="3">C78.7</cell></term></mainTerm></letter></x>`;
    const n = extractNeoplasmTable(neo);
    expect(n[0]).toEqual({ code: 'C22.9', text: 'liver, malignant neoplasm, primary (cancer)', source: 'neoplasm' });
    expect(n[1]!.code).toBe('C78.7');
  });
  it('parses XML entities and nesting', () => {
    const root = parseXml('<a x="1"><b>A &amp; B</b><c/></a>');
    expect(root.children[0]!.attrs.x).toBe('1');
    expect(root.children[0]!.children[0]!.text).toBe('A & B');
  });
});

describe('vocabularies and domains', () => {
  it('normalises case and spacing; unknown names are a 400 invalid_vocabulary', () => {
    expect(normalizeVocabularies(['icd10cm', 'RXNORM EXTENSION', 'Icd9Proc'], [])).toEqual(['ICD10CM', 'RxNorm Extension', 'ICD9Proc']);
    expect(normalizeVocabularies(undefined, [])).toEqual(DEFAULT_VOCABULARIES);
    expect(DEFAULT_VOCABULARIES).not.toContain('DRG');
    expect(DEFAULT_VOCABULARIES).not.toContain('OPCS4');
    expect(normalizeVocabularies(['loinc'], ['LOINC'])).toEqual(['LOINC']);
    try {
      normalizeVocabularies(['ICD11'], []);
      throw new Error('no error');
    } catch (e) {
      expect(e).toBeInstanceOf(AppError);
      expect((e as AppError).status).toBe(400);
      expect((e as AppError).type).toBe('invalid_vocabulary');
    }
  });
  it('domains', () => {
    expect(normalizeDomain('condition', [])).toBe('Condition');
    expect(normalizeDomain(undefined, [])).toBeNull();
    expect(() => normalizeDomain('Galaxy', [])).toThrow(/Unknown domain/);
  });
});

describe('profiles', () => {
  it('follow SPEC §4.1', () => {
    expect(PROFILES.mapping).toMatchObject({ search_mode: 'graph', max_hops: 2, include_bridges: false, filter_to_input_vocab: true });
    expect(PROFILES.explore).toMatchObject({ search_mode: 'graph', max_hops: 3, include_bridges: true, filter_to_input_vocab: false, quality_gate: false });
    expect(PROFILES.hybrid.search_mode).toBe('hybrid');
  });
  it('long texts are shortened for full text search', () => {
    expect(shortenForFts('a '.repeat(1000)).split(' ').length).toBeLessThanOrEqual(24);
  });
});

describe('markdown (response_format=llm)', () => {
  it('renders compact tables with escaped pipes', () => {
    const md = searchToMarkdown({
      results: [
        {
          concept_id: 1,
          concept_name: 'A | B',
          concept_code: 'X1',
          vocabulary_id: 'ICD10CM',
          concept_class_id: 'c',
          similarity: 3.14159,
          graph_score: 1,
          combined_score: 1,
          score: 3.1,
          is_bridge: true,
          parents: [],
        },
      ],
      metadata: {
        query: 'q',
        vocabularies_searched: ['ICD10CM'],
        domain_id: null,
        total_results: 1,
        find_relationship: true,
        search_mode: 'graph',
        requested_search_mode: 'graph',
        profile: 'explore',
        include_bridges: true,
        filter_to_input_vocab: false,
        fts_options: { search_type: 'websearch', language: 'english', use_search_rank: true, rank_normalization: 0 },
      },
    });
    expect(md).toContain('| 1 | ICD10CM | X1 | A \\| B | c | 3.14 | 1 | yes |');
    expect(listToMarkdown({ domains: ['Condition'] })).toContain('| Condition |');
  });
});
