import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackend, type TestBackend } from '../helpers/backend';
import { importOneVocabulary } from '../fixtures/athena';
import { hybridSearch, requireIndex, resolveParams, search } from '@/server/search/engine';
import { allowedMask, lexicalChannel } from '@/server/search/channels/lexical';
import { parseBasics } from '@/server/search/params';
import { analyzeQuery } from '@/server/search/query';
import { IDF_CAP } from '@/server/search/vocab-index';

/**
 * Coding defaults and scores that must not depend on the vocabulary's size, on generated made-up concepts:
 *  - a fracture's encounter defaults (7th character): closed unless the query says open (A, D; B, E when open), an
 *    open fracture of type I or II unless it says type III (B, not C), routine healing unless it says delayed
 *    healing, nonunion or malunion (D, not G, K, P);
 *  - a query that names a side finds the Alphabetic Index entry that names none ("Fracture of wrist NOS") and codes
 *    to its default on that side, even when titles that name the side outnumber the headers that hand a match down;
 *  - a text that says exactly the query's words scores 1 in the lexical channel, however rare its words are (the
 *    fixture holds enough concepts for a word seen once to pass the idf cap).
 */
const D = '19700101';
const E = '20991231';
const N = 20;
const FILLER = 8_400;
/** Sites with crowded titles, and the titles each. */
const SITES = 4;
const CROWD = 300;
const syll = ['ka', 'lo', 'mi', 'ru', 'te', 'vo', 'zi', 'pa', 'ne', 'su', 'bo', 'ge'];
/** A made-up word, distinct for each (k, salt). */
const word = (k: number, salt: number) => syll[k % 12]! + syll[Math.floor(k / 12) % 12]! + syll[(k * 5 + salt) % 12]! + ['ar', 'ine', 'ole', 'um'][salt % 4]!;
const bone = (k: number) => word(k, 1);
const site = (k: number) => word(k, 2) + 'al';
const cap = (s: string) => s[0]!.toUpperCase() + s.slice(1);

let be: TestBackend;
beforeAll(async () => {
  be = await startBackend();
  const concepts: Array<Array<string | number>> = [];
  const rels: Array<Array<string | number>> = [];
  const synonyms: Array<[number, string]> = [];
  let id = 700_000;
  const add = (name: string, code: string, cls = 'Code', vocab = 'ICD10CM', std = 'S') => {
    concepts.push([id, name, 'Condition', vocab, cls, std, code, D, E, '']);
    return id++;
  };
  const isA = (child: number, parent: number) => rels.push([child, parent, 'Is a', D, E, ''], [parent, child, 'Subsumes', D, E, '']);
  // the filler: enough concepts that a word seen once has an idf above the cap (ln(1 + 8,400) > 9)
  for (let k = 0; k < FILLER; k++) add(`${cap(word(k % 144, 3))} ${word((k * 7) % 144, 0)} disorder ${k % 97}`, `M${10 + (k % 89)}.${k}`);
  for (let k = 0; k < N; k++) {
    // a fracture with the encounters of ICD-10-CM's injury codes
    const h = add(`Fracture of ${bone(k)}`, `S${20 + k}.9`, 'Header');
    const enc: Array<[string, string]> = [
      ['A', 'initial encounter for closed fracture'],
      ['B', 'initial encounter for open fracture type I or II'],
      ['C', 'initial encounter for open fracture type IIIA, IIIB, or IIIC'],
      ['D', 'subsequent encounter for closed fracture with routine healing'],
      ['E', 'subsequent encounter for open fracture type I or II with routine healing'],
      ['G', 'subsequent encounter for closed fracture with delayed healing'],
      ['K', 'subsequent encounter for closed fracture with nonunion'],
      ['P', 'subsequent encounter for closed fracture with malunion'],
      ['S', 'sequela'],
    ];
    for (const [ch, text] of enc) isA(add(`Fracture of ${bone(k)}, ${text}`, `S${20 + k}.9XX${ch}`), h);
    if (k < SITES) {
      // a site: its index entry ("Fracture of <site> NOS") on the unspecified bone's header, whose children name the
      // side; and 300 short titles that name the site and the right side, more than the lexical channel hands on and
      // far more than the headers that hand a match down (as in a download of millions of concepts)
      const top = add(`Fracture of ${site(k)}`, `S${50 + k}`, 'Header');
      const un = add(`Fracture of unspecified ${word(k, 7)} bone`, `S${50 + k}.0`, 'Header');
      isA(un, top);
      synonyms.push([un, `Fracture of ${site(k)} NOS`]);
      for (const [d, side] of [
        ['1', 'right'],
        ['2', 'left'],
        ['9', 'unspecified'],
      ] as const) {
        const h = add(`Fracture of unspecified ${word(k, 7)} bone, ${side} ${site(k)}`, `S${50 + k}.0${d}`, 'Header');
        isA(h, un);
        isA(add(`Fracture of unspecified ${word(k, 7)} bone, ${side} ${site(k)}, initial encounter for closed fracture`, `S${50 + k}.0${d}XA`), h);
        isA(
          add(`Fracture of unspecified ${word(k, 7)} bone, ${side} ${site(k)}, subsequent encounter for fracture with routine healing`, `S${50 + k}.0${d}XD`),
          h,
        );
      }
      for (let j = 0; j < CROWD; j++) {
        const title = `${cap(syll[j % 12]! + syll[Math.floor(j / 12) % 12]! + syll[Math.floor(j / 144) % 12]!)}ine fracture of right ${site(k)}`;
        const sp = add(title, `S${50 + k}.${100 + j}`, 'Header');
        isA(sp, top);
        isA(add(`${title}, initial encounter for closed fracture`, `S${50 + k}.${100 + j}A`), sp);
      }
    }
    // a procedure title of two words seen nowhere else
    add(`${cap(word(k, 8))}ography ${word(k, 9)}etric`, `88.${k}`, 'Code', 'ICD9Proc', '');
  }
  await importOneVocabulary(be.db, {
    vocabulary: 'ICD10CM',
    otherVocabularies: ['ICD9Proc'],
    domain: 'Condition',
    conceptClass: 'Code',
    concepts,
    synonyms,
    relationships: rels,
  });
}, 300_000);
afterAll(async () => {
  await be?.close();
});

describe(`coding defaults and size-free scores, on ${process.env.TEST_DB ?? 'postgres'}`, () => {
  const ranked = async (query: string) =>
    (await search(be.db, { query, vocabularies: ['ICD10CM'], top_k: 10, min_relevance: null })).results.map((r) => r.concept_code);

  it(`a fracture is closed, type I or II when open, and heals routinely, unless the query says otherwise (${N * 10} generated)`, async () => {
    const misses: string[] = [];
    for (let k = 0; k < N; k++) {
      const cases: Array<[string, string]> = [
        [`fracture of ${bone(k)}`, 'A'],
        [`open fracture of ${bone(k)}`, 'B'],
        [`${bone(k)} fracture, open`, 'B'],
        [`fractured ${bone(k)}, open`, 'B'],
        [`open fracture of ${bone(k)}, gustilo type 3`, 'C'],
        [`fracture of ${bone(k)}, follow up`, 'D'],
        [`open fracture of ${bone(k)}, follow up visit`, 'E'],
        [`fracture of ${bone(k)} with delayed healing`, 'G'],
        [`${bone(k)} fracture nonunion`, 'K'],
        [`malunion of ${bone(k)} fracture`, 'P'],
      ];
      for (const [q, want] of cases) {
        const got = await ranked(q);
        if (got[0] !== `S${20 + k}.9XX${want}`) misses.push(`${q} → ${got.slice(0, 3).join(' ')}`);
      }
    }
    expect(misses).toEqual([]);
  });

  it(`a side named: the query's words without it reach the index entry, which hands its match to its default on that side, among ${CROWD} titles that name the side (${SITES} generated)`, async () => {
    const ix = await requireIndex(be.db, { maxWaitMs: 60_000 });
    const misses: string[] = [];
    for (let k = 0; k < SITES; k++) {
      const query = `fractured right ${site(k)}`;
      const input = { query, vocabularies: ['ICD10CM'], min_relevance: null };
      const p = resolveParams(input, ix, parseBasics(input));
      const q = await analyzeQuery(be.db, ix, p.query, { vocabularies: p.vocabularies });
      const unsided = q.variants.find((v) => v.kind === 'unsided');
      if (!unsided || unsided.stems.some((st) => st.word === 'right')) misses.push(`${query}: no variant without the side`);
      const scored = await hybridSearch(be.db, ix, p, q, p.vocabularies, { minRelevance: null });
      const at = (code: string) => scored.findIndex((s) => ix.code.get(s.c) === code);
      const right = at(`S${50 + k}.01XA`);
      // the entry's match reached the right side's default, which the lexical channel alone leaves out (its own
      // title ranks below the ${CROWD} shorter ones), and it ranks above the other side's and the unspecified side's
      if (right < 0 || scored[right]!.ev.inherited < 0.8) misses.push(`${query}: S${50 + k}.01XA not handed the index entry's match`);
      for (const d of ['2', '9'])
        if (at(`S${50 + k}.0${d}XA`) >= 0 && at(`S${50 + k}.0${d}XA`) < right) misses.push(`${query}: S${50 + k}.0${d}XA above the right side`);
    }
    // a query that names both sides, or none, has no such variant; nor one whose "left" or "right" names a part of
    // an unpaired organ
    for (const query of [
      `fractured ${site(0)}`,
      `fracture of both ${site(0)}s`,
      `bilateral ${site(0)} fracture`,
      'left heart catheterisation',
      'right-sided heart failure',
      'right colon cancer',
    ]) {
      const q = await analyzeQuery(be.db, ix, query, { vocabularies: ['ICD10CM'] });
      if (q.variants.some((v) => v.kind === 'unsided')) misses.push(`${query}: a variant without a side`);
    }
    expect(misses).toEqual([]);
  });

  it(`a text that says exactly the query's rare words scores 1 in the lexical channel (${N} generated)`, async () => {
    const ix = await requireIndex(be.db, { maxWaitMs: 60_000 });
    const off: string[] = [];
    for (let k = 0; k < N; k++) {
      const text = `${word(k, 8)}ography ${word(k, 9)}etric`;
      const input = { query: text, vocabularies: ['ICD9Proc'] };
      const p = resolveParams(input, ix, parseBasics(input));
      const q = await analyzeQuery(be.db, ix, p.query, { vocabularies: p.vocabularies });
      // the words are rare enough to be capped: the case this checks
      for (const st of q.variants[0]!.stems) expect(ix.idf[st.stem]!).toBeGreaterThan(IDF_CAP);
      const out = new Map<number, number>();
      lexicalChannel(ix, q, [{ allowed: allowedMask(ix, ['ICD9Proc']), limit: 5, out }]);
      const best = [...out].sort((a, b) => b[1] - a[1])[0];
      if (!best || ix.code.get(best[0]) !== `88.${k}` || Math.abs(best[1] - 1) > 1e-5)
        off.push(`${text}: ${best ? `${ix.code.get(best[0])} ${best[1]}` : 'nothing'}`);
    }
    expect(off).toEqual([]);
  });
});
