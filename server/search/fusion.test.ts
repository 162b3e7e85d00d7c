import { describe, expect, it } from 'vitest';
import { crosswalkSources, mayDeny, negationReader, SOURCE_MIN_REACH } from './fusion';
import type { AnalyzedQuery } from './query';
import { seededRandom } from '../config/random';
import type { VocabIndex } from './vocab-index';

describe('crosswalk sources', () => {
  it('are the other vocabularies enough of whose concepts lead into a requested one', () => {
    // vocabularies A (requested), B (90 of 100 concepts lead into A), C (1 of 1,000), D (none), E (20 of 1,000)
    const sizes = [50, 100, 1000, 10, 1000];
    const reachIntoA = [0, 90, 1, 0, 20];
    const V = sizes.length;
    const crossReach = new Uint32Array(V * V);
    reachIntoA.forEach((r, v) => (crossReach[v * V + 0] = r));
    const vocab = Uint8Array.from(sizes.flatMap((n, v) => Array.from({ length: n }, () => v)));
    const ix = { vocabList: ['A', 'B', 'C', 'D', 'E'], n: vocab.length, vocab, crossReach } as unknown as VocabIndex;
    expect(SOURCE_MIN_REACH).toBe(0.02);
    expect(crosswalkSources(ix, Uint8Array.from([1, 0, 0, 0, 0]))).toEqual(['B', 'E']);
    // nothing leads into B
    expect(crosswalkSources(ix, Uint8Array.from([0, 1, 0, 0, 0]))).toEqual([]);
  });
});

describe('a crosswalk source that denies what the query asks for', () => {
  const WORDS = ['heart', 'valve', 'replacement', 'repair', 'mesh', 'hernia', 'obstruction', 'gangrene', 'drainage', 'biopsy', 'graft', 'fracture'];
  const ix = {
    stemOfWord: (w: string) => (WORDS.includes(w) ? WORDS.indexOf(w) : /^(of|the|with|without|no|not|mention)$/.test(w) ? -1 : undefined),
  } as unknown as VocabIndex;
  const query = (text: string) => {
    const words = text.toLowerCase().split(/\s+/);
    const stems = words.filter((w) => WORDS.includes(w)).map((w, group) => ({ stem: WORDS.indexOf(w), w: 5, word: w, group }));
    return { words, variants: [{ kind: 'original', weight: 1, stems, total: 5 * stems.length, label: text }] } as unknown as AnalyzedQuery;
  };

  it('is dropped when a word the query asks for follows "without", "no" or "not" in it, and kept otherwise (generated)', () => {
    const rand = seededRandom(3);
    let n = 0;
    for (let i = 0; i < 400; i++) {
      const [a, b] = [WORDS[Math.floor(rand() * WORDS.length)]!, WORDS[Math.floor(rand() * WORDS.length)]!];
      if (a === b) continue;
      const denial = ['without', 'no', 'not', 'without mention of'][i % 4]!;
      const negates = negationReader(ix, query(`${a} ${b}`));
      expect(negates(`${a} of the thing ${denial} ${b}`), `${a} ${b} / ${denial} ${b}`).toBe(true);
      expect(negates(`${a} ${b} of the thing`)).toBe(false);
      // the query denies it too: the source says what it says
      expect(negationReader(ix, query(`${a} ${denial} ${b}`))(`${a} ${denial} ${b}`)).toBe(false);
      // a denied word the query does not ask for denies nothing it asks
      const other = WORDS.find((w) => w !== a && w !== b)!;
      expect(negates(`${a} ${b} ${denial} ${other}`)).toBe(false);
      n++;
    }
    expect(n).toBeGreaterThan(300);
  });
});

describe('the resident check before a source name is read', () => {
  it('never rules out a name that holds a denial word, and rules out names with no stop word and no "without" (generated)', () => {
    const STOPS = new Set(['of', 'the', 'with', 'no', 'not', 'and']);
    const VOCAB = ['heart', 'valve', 'replacement', 'repair', 'mesh', 'hernia', 'without', 'except', 'fracture', 'graft'];
    const stemOf = (w: string) => (STOPS.has(w) ? -1 : VOCAB.includes(w) ? VOCAB.indexOf(w) : undefined);
    const rand = seededRandom(7);
    const names: string[][] = [];
    for (let i = 0; i < 500; i++) {
      const n = 2 + Math.floor(rand() * 6);
      const pool = [...VOCAB, ...STOPS];
      names.push(Array.from({ length: n }, () => pool[Math.floor(rand() * pool.length)]!));
    }
    // the index's layout for one name term per concept: stems of the words that have one, one initial per word
    const tokStem: number[] = [];
    const initials: number[] = [];
    const termTokStart = [0];
    const initialsStart = [0];
    for (const words of names) {
      for (const w of words) {
        const st = stemOf(w)!;
        initials.push(st < 0 ? 95 : w.charCodeAt(0));
        if (st >= 0) tokStem.push(st);
      }
      termTokStart.push(tokStem.length);
      initialsStart.push(initials.length);
    }
    const ix = {
      stemOfWord: stemOf,
      conceptTermStart: Int32Array.from(names.map((_, i) => i).concat(names.length)),
      termTokStart: Int32Array.from(termTokStart),
      initialsStart: Int32Array.from(initialsStart),
      initials: Buffer.from(initials),
      tokStem: Int32Array.from(tokStem),
    } as unknown as VocabIndex;
    let skipped = 0;
    names.forEach((words, c) => {
      const holds = words.some((w) => /^(without|no|not|except)$/.test(w));
      if (holds) expect(mayDeny(ix, c), words.join(' ')).toBe(true);
      if (!mayDeny(ix, c)) skipped++;
      // no stop word and no "without"/"except": nothing to read
      if (!words.some((w) => STOPS.has(w) || w === 'without' || w === 'except')) expect(mayDeny(ix, c), words.join(' ')).toBe(false);
    });
    expect(skipped).toBeGreaterThan(10);
  });
});
