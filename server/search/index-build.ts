import { Interner } from '../config/interner';
import type { Database, Queryable } from '../db';
import { CodeLookup, DictColBuilder, Grow, growI32, growU8, IdLookup, StrColBuilder } from './columns';
import { tokenize } from './text';
import {
  buildCsr,
  buildDense,
  csrRow,
  cappedIdf,
  headWords,
  markResidual,
  parseTextArray,
  STD_C,
  STD_NONE,
  STD_S,
  TOK_HEAD,
  TOK_OPTIONAL,
  VocabIndex,
} from './vocab-index';

/**
 * Compiles the search index from the database, streaming: every large table is read through a cursor in batches and
 * appended to typed arrays and byte blobs (columns.ts), so the build's memory is the index itself plus one batch, not
 * one JS object per row. Stems come from PostgreSQL's own english_stem dictionary (ts_lexize), so the in-memory
 * channels and the full-text channel agree on what a word is. The result is written to disk by index-store.ts and
 * loaded from there by every process that searches.
 */

const BATCH = 20_000;

export interface BuildProgress {
  phase: 'concepts' | 'words' | 'texts' | 'postings' | 'graph' | 'vectors';
  rows: number;
}

/**
 * The rows of `sql` in batches, through a cursor in one transaction (PostgreSQL sorts once; this process holds one
 * batch). A connection without transactions (the agent's worker-thread proxy) gets one query.
 */
export async function eachBatch<T>(db: Queryable & { transaction?: Database['transaction'] }, sql: string, fn: (rows: T[]) => void): Promise<void> {
  if (!db.transaction) {
    fn(await db.query<T>(sql));
    return;
  }
  await db.transaction(async (tx) => {
    await tx.query(`DECLARE search_index_build NO SCROLL CURSOR FOR ${sql}`);
    for (;;) {
      const rows = await tx.query<T>(`FETCH ${BATCH} FROM search_index_build`);
      if (!rows.length) break;
      fn(rows);
    }
    await tx.query('CLOSE search_index_build');
  });
}

interface ConceptRow {
  concept_id: number;
  concept_name: string | null;
  concept_code: string | null;
  vocabulary_id: string;
  domain_id: string | null;
  concept_class_id: string | null;
  standard_concept: string | null;
}

/** Compile the index from the database. */
export async function buildVocabIndex(
  db: Queryable & { transaction?: Database['transaction'] },
  fingerprint: string,
  progress: (p: BuildProgress) => void = () => undefined,
): Promise<VocabIndex> {
  const t0 = Date.now();
  const ix = new VocabIndex(fingerprint);

  // concepts (sorted by vocabulary, then id: each vocabulary is one contiguous range)
  const ids = growI32();
  const vocab = growU8();
  const domain = growU8();
  const std = growU8();
  const name = new StrColBuilder();
  const code = new StrColBuilder();
  const cls = new DictColBuilder();
  const vocabs = new Interner(ix.vocabList);
  const domains = new Interner(ix.domainList);
  await eachBatch<ConceptRow>(
    db,
    `SELECT concept_id, concept_name, concept_code, vocabulary_id, domain_id, concept_class_id, standard_concept
       FROM concept WHERE invalid_reason IS NULL ORDER BY vocabulary_id, concept_id`,
    (rows) => {
      for (const r of rows) {
        const i = ids.len;
        ids.push(Number(r.concept_id));
        name.push(r.concept_name ?? '');
        code.push(r.concept_code ?? '');
        cls.push(r.concept_class_id ?? '');
        const known = ix.vocabList.length;
        const v = vocabs.id(r.vocabulary_id);
        if (v > 255) throw new Error('more than 256 vocabularies');
        if (v === known) ix.vocabRange.set(v, [i, i + 1]);
        else ix.vocabRange.get(v)![1] = i + 1;
        vocab.push(v);
        const d = domains.id(r.domain_id ?? '');
        if (d > 255) throw new Error('more than 256 domains');
        domain.push(d);
        std.push(r.standard_concept === 'S' ? STD_S : r.standard_concept === 'C' ? STD_C : STD_NONE);
      }
      progress({ phase: 'concepts', rows: ids.len });
    },
  );
  const n = ids.len;
  ix.n = n;
  ix.conceptId = ids.done();
  ix.vocab = vocab.done();
  ix.domain = domain.done();
  ix.std = std.done();
  ix.leaf = new Uint8Array(n);
  ix.name = name.done();
  ix.code = code.done();
  ix.cls = cls.done();
  ix.idToIdx = IdLookup.build(ix.conceptId);
  ix.codeKey = CodeLookup.build(ix.code);

  // words → stems (PostgreSQL's english stemmer; an empty result means a stop word)
  const stems = new Interner(ix.stemStr, ix.stemIds);
  const stemId = (s: string) => stems.id(s);
  await eachBatch<{ word: string; df: number; stems: string[] | string | null }>(
    db,
    `SELECT word, df, ts_lexize('english_stem', word) AS stems FROM search_lexicon`,
    (rows) => {
      for (const r of rows) {
        const stems = parseTextArray(r.stems);
        ix.wordDf.set(r.word, Number(r.df));
        ix.wordStem.set(r.word, stems.length ? stemId(stems[0]!) : -1);
      }
      progress({ phase: 'words', rows: ix.wordDf.size });
    },
  );
  ix.sortedWords = [...ix.wordDf.keys()].sort();
  const wordToStem = (w: string): number => {
    const s = ix.wordStem.get(w);
    if (s !== undefined) return s;
    // numbers and mixed tokens are not in the lexicon: the word is its own stem
    const id = stemId(w);
    ix.wordStem.set(w, id);
    return id;
  };

  // texts, in concept order (names first, then synonyms in term order), so each concept's texts are contiguous
  const termConcept = growI32();
  const termIsName = growU8();
  const termTokStart = growI32();
  const termText = new StrColBuilder();
  const toks = growI32();
  const opts = growU8();
  const initials = growU8();
  const initialsStart = growI32();
  let lastCi = -1;
  await eachBatch<{ concept_id: number; term: string; is_name: boolean }>(
    db,
    `SELECT t.concept_id, t.term, t.is_name FROM search_term t JOIN concept c ON c.concept_id = t.concept_id
      WHERE c.invalid_reason IS NULL ORDER BY c.vocabulary_id, c.concept_id, t.is_name DESC, t.term_id`,
    (rows) => {
      for (const r of rows) {
        const ci = ix.idToIdx.get(Number(r.concept_id));
        if (ci === undefined) continue;
        if (ci < lastCi) throw new Error('search_term rows did not arrive in concept order');
        lastCi = ci;
        termConcept.push(ci);
        termText.push(r.term);
        termIsName.push(r.is_name ? 1 : 0);
        termTokStart.push(toks.len);
        initialsStart.push(initials.len);
        const head = r.is_name ? 0 : headWords(r.term);
        let at = 0;
        for (const w of markResidual(tokenize(r.term))) {
          const inHead = at++ < head;
          const s = wordToStem(w.text);
          initials.push(initialByte(w, s));
          if (s < 0) continue;
          toks.push(s);
          opts.push((w.optional ? TOK_OPTIONAL : 0) | (inHead ? TOK_HEAD : 0));
        }
        initials.push(124); // '|'
      }
      progress({ phase: 'texts', rows: termConcept.len });
    },
  );
  const T = termConcept.len;
  termTokStart.push(toks.len);
  initialsStart.push(initials.len);
  ix.termConcept = termConcept.done();
  ix.termIsName = termIsName.done();
  ix.termTokStart = termTokStart.done();
  ix.termText = termText.done();
  ix.tokStem = toks.done();
  ix.tokOpt = opts.done();
  const ini = initials.done();
  ix.initials = Buffer.from(ini.buffer, ini.byteOffset, ini.byteLength);
  ix.initialsStart = initialsStart.done();
  // texts arrive in concept order: each concept's texts are one range
  ix.conceptTermStart = new Int32Array(n + 1);
  for (let k = 0; k < T; k++) ix.conceptTermStart[ix.termConcept[k]! + 1]!++;
  for (let c = 0; c < n; c++) ix.conceptTermStart[c + 1]! += ix.conceptTermStart[c]!;

  // document frequency per stem = number of concepts with the stem in any of their texts
  const S = ix.stemStr.length;
  const df = new Int32Array(S);
  const seenBy = new Int32Array(S).fill(-1);
  const postCount = new Int32Array(S);
  const seenTerm = new Int32Array(S).fill(-1);
  for (let k = 0; k < T; k++) {
    const c = ix.termConcept[k]!;
    for (let p = ix.termTokStart[k]!; p < ix.termTokStart[k + 1]!; p++) {
      const s = ix.tokStem[p]!;
      if (seenBy[s] !== c) {
        seenBy[s] = c;
        df[s]!++;
      }
      if (seenTerm[s] !== k) {
        seenTerm[s] = k;
        postCount[s]!++;
      }
    }
  }
  ix.idf = new Float32Array(S);
  for (let s = 0; s < S; s++) ix.idf[s] = Math.log(1 + n / Math.max(1, df[s]!));
  const sortedIdf = Array.from(ix.idf)
    .filter((_, s) => df[s]! > 0)
    .sort((a, b) => a - b);
  ix.medianIdf = sortedIdf[Math.floor(sortedIdf.length / 2)] ?? 5;
  ix.maxIdf = Math.log(1 + n);
  // postings (text ids per stem, ascending)
  const pStart = new Int32Array(S + 1);
  for (let s = 0; s < S; s++) pStart[s + 1] = pStart[s]! + postCount[s]!;
  const pList = new Int32Array(pStart[S]!);
  const fill = pStart.slice(0, S);
  seenTerm.fill(-1);
  ix.termReqIdf = new Float32Array(T);
  for (let k = 0; k < T; k++) {
    let req = 0;
    for (let p = ix.termTokStart[k]!; p < ix.termTokStart[k + 1]!; p++) {
      const s = ix.tokStem[p]!;
      if (seenTerm[s] === k) continue;
      seenTerm[s] = k;
      pList[fill[s]!++] = k;
      if (!(ix.tokOpt[p]! & TOK_OPTIONAL)) req += cappedIdf(ix, s);
    }
    ix.termReqIdf[k] = req;
  }
  ix.postings = { start: pStart, list: pList };
  progress({ phase: 'postings', rows: pList.length });

  // graph: 'Is a' and 'Maps to' as parallel typed arrays (not one small array per edge)
  const isA = { a: growI32(), b: growI32() };
  const maps = { a: growI32(), b: growI32() };
  let edges = 0;
  await eachBatch<{ a: number; b: number; isa: boolean }>(
    db,
    `SELECT concept_id_1 AS a, concept_id_2 AS b, relationship_id = 'Is a' AS isa FROM concept_relationship
      WHERE relationship_id IN ('Is a', 'Maps to') AND invalid_reason IS NULL`,
    (rows) => {
      for (const e of rows) {
        const a = ix.idToIdx.get(Number(e.a));
        const b = ix.idToIdx.get(Number(e.b));
        if (a === undefined || b === undefined || a === b) continue;
        const l = e.isa ? isA : maps;
        l.a.push(a);
        l.b.push(b);
      }
      edges += rows.length;
      progress({ phase: 'graph', rows: edges });
    },
  );
  const pairs = (l: { a: Grow<Int32Array>; b: Grow<Int32Array> }) => ({ a: l.a.buf, b: l.b.buf, len: l.a.len });
  ix.parents = buildCsr(n, pairs(isA));
  ix.children = buildCsr(n, { a: isA.b.buf, b: isA.a.buf, len: isA.a.len });
  ix.mapsTo = buildCsr(n, pairs(maps));
  ix.mappedFrom = buildCsr(n, { a: maps.b.buf, b: maps.a.buf, len: maps.a.len });
  for (let i = 0; i < n; i++) ix.leaf[i] = ix.children.start[i + 1] === ix.children.start[i] ? 1 : 0;
  ix.crossReach = crosswalkReach(ix);

  buildDense(ix);
  progress({ phase: 'vectors', rows: n });
  ix.buildMs = Date.now() - t0;
  return ix;
}

/**
 * One byte per word of a text, for abbreviations spelt by initials (query.ts expandAbbreviation): the word's first
 * character (tokens are [a-z0-9]); '_' for a stop word; '#' for a one-letter word, which never spells a letter of an
 * abbreviation; and for a word after a punctuation break ("lesion, tissue"; not a space, hyphen or apostrophe) the
 * letter in upper case, or the digit + 128, which may start an abbreviation but not continue one.
 */
export function initialByte(w: { text: string; brk: boolean }, stem: number): number {
  if (stem < 0) return 95;
  const ch = w.text.charCodeAt(0);
  const digit = ch >= 48 && ch <= 57;
  if (w.text.length === 1 && !digit) return 35;
  if (!w.brk) return ch;
  return digit ? ch + 128 : ch - 32;
}

/**
 * Which vocabularies the crosswalk can lead from, to which: reach[v * V + w] counts the concepts of v that lead to a
 * concept of w through 'Maps to' (1 hop) or through a standard concept's 'Mapped from' (2 hops), the paths
 * fusion.ts's crosswalk follows (counted without its fan-out limits, so a pair is never missed). A search of w scores
 * only the other vocabularies with reach into w: a filter to ICD-10-CM does not walk the drug vocabularies' texts.
 */
export function crosswalkReach(ix: VocabIndex): Uint32Array {
  const V = ix.vocabList.length;
  const reach = new Uint32Array(V * V);
  // per standard concept, the distinct vocabularies of the concepts mapped to it
  const fromVocabs = new Map<number, number[]>();
  const vocabsMappedTo = (b: number): number[] => {
    let l = fromVocabs.get(b);
    if (!l) {
      const set = new Set<number>();
      for (const t of csrRow(ix.mappedFrom, b)) set.add(ix.vocab[t]!);
      fromVocabs.set(b, (l = [...set]));
    }
    return l;
  };
  const seen = new Int32Array(V).fill(-1);
  for (let s = 0; s < ix.n; s++) {
    const from = ix.vocab[s]!;
    const mark = (w: number) => {
      if (seen[w] === s) return;
      seen[w] = s;
      reach[from * V + w]!++;
    };
    for (const t of csrRow(ix.mapsTo, s)) {
      mark(ix.vocab[t]!);
      if (ix.std[t] === STD_S) for (const w of vocabsMappedTo(t)) mark(w);
    }
  }
  return reach;
}
