import type { Queryable } from '../db';
import { compileLexicon, loadLexicon, type CompiledLexicon } from './lexicon';
import { tokenize, type Word } from './text';
import { seededRandom } from '../config/random';

/**
 * The in-memory side of the search engine, compiled from the database after an import: concepts as columns, every
 * searchable text (names and synonyms) as stemmed token lists with postings, the 'Is a' and 'Maps to' graph as
 * compressed adjacency lists, per-word inverse document frequencies, and the initials of every word run (for
 * abbreviation expansion). Stems come from PostgreSQL's own english_stem dictionary (ts_lexize), so the in-memory
 * channels and the full-text channel agree on what a word is.
 */
export interface Csr {
  start: Int32Array;
  list: Int32Array;
}

function buildCsr(n: number, pairs: Array<[number, number]> | { a: Int32Array; b: Int32Array; len: number }): Csr {
  const get = Array.isArray(pairs) ? (i: number) => pairs[i]! : (i: number) => [pairs.a[i]!, pairs.b[i]!] as [number, number];
  const len = Array.isArray(pairs) ? pairs.length : pairs.len;
  const start = new Int32Array(n + 1);
  for (let i = 0; i < len; i++) start[get(i)[0] + 1]!++;
  for (let i = 0; i < n; i++) start[i + 1]! += start[i]!;
  const fill = start.slice(0, n);
  const list = new Int32Array(len);
  for (let i = 0; i < len; i++) {
    const [a, b] = get(i);
    list[fill[a]!++] = b;
  }
  return { start, list };
}

export function csrRow(c: Csr, i: number): Int32Array {
  return c.list.subarray(c.start[i]!, c.start[i + 1]!);
}

export const STD_NONE = 0;
export const STD_S = 1;
export const STD_C = 2;

export class VocabIndex {
  readonly fingerprint: string;
  // concepts (sorted by vocabulary, then id)
  n = 0;
  conceptId!: Int32Array;
  name: string[] = [];
  code: string[] = [];
  cls: string[] = [];
  vocab!: Uint8Array;
  domain!: Uint8Array;
  std!: Uint8Array;
  /** 1 = billable / leaf (no 'Is a' children), 0 = header or grouping concept. */
  leaf!: Uint8Array;
  vocabList: string[] = [];
  domainList: string[] = [];
  vocabRange = new Map<number, [number, number]>();
  idToIdx = new Map<number, number>();
  codeKey = new Map<string, number[]>();
  // terms
  termConcept!: Int32Array;
  termText: string[] = [];
  termIsName!: Uint8Array;
  termTokStart!: Int32Array;
  tokStem!: Int32Array;
  tokOpt!: Uint8Array;
  termReqIdf!: Float32Array;
  conceptTerms!: Csr;
  // words and stems
  stemIds = new Map<string, number>();
  stemStr: string[] = [];
  idf!: Float32Array;
  postings!: Csr;
  /** surface word → stem id (-1 = stop word). */
  wordStem = new Map<string, number>();
  wordDf = new Map<string, number>();
  /** Lexicon words in sorted order, for prefix look-ups. */
  sortedWords: string[] = [];
  medianIdf = 5;
  maxIdf = 12;
  // abbreviations: initials of every term's word sequence ('_' marks a stop word), with term offsets
  initials = '';
  initialsStart!: Int32Array;
  // graph
  parents!: Csr;
  children!: Csr;
  mapsTo!: Csr;
  mappedFrom!: Csr;
  // dense (built-in encoder)
  dim = 0;
  stemVec!: Float32Array;
  conceptVec!: Int8Array;
  /** The clinical lexicon (server/search/lexicon/) compiled against this vocabulary's stems. */
  lexicon?: CompiledLexicon;
  loadedAt = Date.now();
  buildMs = 0;

  constructor(fingerprint: string) {
    this.fingerprint = fingerprint;
  }

  stemOfWord(w: string): number | undefined {
    return this.wordStem.get(w);
  }

  isBillableLike(i: number): boolean {
    const cls = this.cls[i]!;
    if (cls.includes('nonbill') || cls.endsWith('Hierarchy')) return false;
    if (cls.includes('billing')) return true;
    return this.leaf[i] === 1;
  }
}

/**
 * Residual-category wording ("not elsewhere classified", NEC, NOS, "not otherwise specified") says the code is the
 * default, not what the condition is: those words are optional, like parenthesised ones, so "pleural effusion" is a
 * precise match of *Pleural effusion, not elsewhere classified*.
 */
const RESIDUAL = [['not', 'elsewhere', 'classified'], ['not', 'elsewhere', 'specified'], ['not', 'otherwise', 'specified'], ['nec'], ['nos']];
export function markResidual(words: Word[]): Word[] {
  for (let i = 0; i < words.length; i++) {
    for (const r of RESIDUAL) {
      if (r.every((x, k) => words[i + k]?.text === x)) {
        for (let k = 0; k < r.length; k++) words[i + k] = { ...words[i + k]!, optional: true };
        i += r.length - 1;
        break;
      }
    }
  }
  return words;
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
export async function buildVocabIndex(db: Queryable, fingerprint: string): Promise<VocabIndex> {
  const t0 = Date.now();
  const ix = new VocabIndex(fingerprint);
  const rows = await db.query<ConceptRow>(
    `SELECT concept_id, concept_name, concept_code, vocabulary_id, domain_id, concept_class_id, standard_concept
       FROM concept WHERE invalid_reason IS NULL ORDER BY vocabulary_id, concept_id`,
  );
  const n = rows.length;
  ix.n = n;
  ix.conceptId = new Int32Array(n);
  ix.vocab = new Uint8Array(n);
  ix.domain = new Uint8Array(n);
  ix.std = new Uint8Array(n);
  ix.leaf = new Uint8Array(n);
  const vIdx = new Map<string, number>();
  const dIdx = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const r = rows[i]!;
    const id = Number(r.concept_id);
    ix.conceptId[i] = id;
    ix.idToIdx.set(id, i);
    ix.name.push(r.concept_name ?? '');
    const code = r.concept_code ?? '';
    ix.code.push(code);
    ix.cls.push(r.concept_class_id ?? '');
    let v = vIdx.get(r.vocabulary_id);
    if (v === undefined) {
      v = ix.vocabList.length;
      ix.vocabList.push(r.vocabulary_id);
      vIdx.set(r.vocabulary_id, v);
      ix.vocabRange.set(v, [i, i + 1]);
    } else ix.vocabRange.get(v)![1] = i + 1;
    ix.vocab[i] = v;
    const dn = r.domain_id ?? '';
    let d = dIdx.get(dn);
    if (d === undefined) {
      d = ix.domainList.length;
      ix.domainList.push(dn);
      dIdx.set(dn, d);
    }
    ix.domain[i] = d;
    ix.std[i] = r.standard_concept === 'S' ? STD_S : r.standard_concept === 'C' ? STD_C : STD_NONE;
    const key = code.toUpperCase().replace(/\./g, '');
    const list = ix.codeKey.get(key);
    if (list) list.push(i);
    else ix.codeKey.set(key, [i]);
  }
  // row objects are large: let them go before the next query (keeps the build's peak memory down)
  rows.length = 0;

  // words → stems (PostgreSQL's english stemmer; an empty result means a stop word)
  const lex = await db.query<{ word: string; df: number; stems: string[] | string | null }>(
    `SELECT word, df, ts_lexize('english_stem', word) AS stems FROM search_lexicon`,
  );
  const stemId = (s: string) => {
    let id = ix.stemIds.get(s);
    if (id === undefined) {
      id = ix.stemStr.length;
      ix.stemStr.push(s);
      ix.stemIds.set(s, id);
    }
    return id;
  };
  for (const r of lex) {
    const stems = parseTextArray(r.stems);
    ix.wordDf.set(r.word, Number(r.df));
    ix.wordStem.set(r.word, stems.length ? stemId(stems[0]!) : -1);
  }
  lex.length = 0;
  ix.sortedWords = [...ix.wordDf.keys()].sort();
  const wordToStem = (w: string): number => {
    const s = ix.wordStem.get(w);
    if (s !== undefined) return s;
    // numbers and mixed tokens are not in the lexicon: the word is its own stem
    const id = stemId(w);
    ix.wordStem.set(w, id);
    return id;
  };

  // terms
  const terms = await db.query<{ concept_id: number; term: string; is_name: boolean }>('SELECT concept_id, term, is_name FROM search_term ORDER BY term_id');
  const order: number[] = [];
  const tConcept: number[] = [];
  for (let t = 0; t < terms.length; t++) {
    const ci = ix.idToIdx.get(Number(terms[t]!.concept_id));
    if (ci === undefined) continue;
    order.push(t);
    tConcept.push(ci);
  }
  // sort terms by concept index (names first) so each concept's terms are contiguous
  const perm = order.map((_, k) => k).sort((a, b) => tConcept[a]! - tConcept[b]! || Number(terms[order[b]!]!.is_name) - Number(terms[order[a]!]!.is_name));
  const T = perm.length;
  ix.termConcept = new Int32Array(T);
  ix.termIsName = new Uint8Array(T);
  ix.termTokStart = new Int32Array(T + 1);
  // token stems and optional flags in growable typed buffers (millions of tokens)
  let toks = new Int32Array(1 << 20);
  let opts = new Uint8Array(1 << 20);
  let nTok = 0;
  const initialsParts: string[] = [];
  ix.initialsStart = new Int32Array(T + 1);
  let initialsLen = 0;
  for (let k = 0; k < T; k++) {
    const src = terms[order[perm[k]!]!]!;
    ix.termConcept[k] = tConcept[perm[k]!]!;
    ix.termText.push(src.term);
    ix.termIsName[k] = src.is_name ? 1 : 0;
    ix.termTokStart[k] = nTok;
    let ini = '';
    for (const w of markResidual(tokenize(src.term))) {
      const s = wordToStem(w.text);
      ini += s < 0 ? '_' : w.text[0];
      if (s < 0) continue;
      if (nTok === toks.length) {
        const t2 = new Int32Array(toks.length * 2);
        t2.set(toks);
        toks = t2;
        const o2 = new Uint8Array(opts.length * 2);
        o2.set(opts);
        opts = o2;
      }
      toks[nTok] = s;
      opts[nTok++] = w.optional ? 1 : 0;
    }
    ix.initialsStart[k] = initialsLen;
    initialsParts.push(ini + '|');
    initialsLen += ini.length + 1;
  }
  ix.termTokStart[T] = nTok;
  ix.initialsStart[T] = initialsLen;
  ix.initials = initialsParts.join('');
  ix.tokStem = toks.slice(0, nTok);
  ix.tokOpt = opts.slice(0, nTok);
  ix.conceptTerms = buildCsr(n, { a: ix.termConcept, b: Int32Array.from({ length: T }, (_, k) => k), len: T });
  terms.length = 0;
  order.length = 0;
  tConcept.length = 0;
  perm.length = 0;
  initialsParts.length = 0;

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
  // postings (term ids per stem)
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
      if (!ix.tokOpt[p]) req += ix.idf[s]!;
    }
    ix.termReqIdf[k] = req;
  }
  ix.postings = { start: pStart, list: pList };

  // graph
  const edges = await db.query<{ a: number; b: number; r: string }>(
    `SELECT concept_id_1 AS a, concept_id_2 AS b, relationship_id AS r FROM concept_relationship
      WHERE relationship_id IN ('Is a', 'Maps to') AND invalid_reason IS NULL`,
  );
  // edges as parallel typed arrays (not one small array per edge)
  const isA = { a: new Int32Array(edges.length), b: new Int32Array(edges.length), len: 0 };
  const maps = { a: new Int32Array(edges.length), b: new Int32Array(edges.length), len: 0 };
  for (const e of edges) {
    const a = ix.idToIdx.get(Number(e.a));
    const b = ix.idToIdx.get(Number(e.b));
    if (a === undefined || b === undefined || a === b) continue;
    const l = e.r === 'Is a' ? isA : maps;
    l.a[l.len] = a;
    l.b[l.len++] = b;
  }
  edges.length = 0;
  ix.parents = buildCsr(n, isA);
  ix.children = buildCsr(n, { a: isA.b, b: isA.a, len: isA.len });
  ix.mapsTo = buildCsr(n, maps);
  ix.mappedFrom = buildCsr(n, { a: maps.b, b: maps.a, len: maps.len });
  for (let i = 0; i < n; i++) ix.leaf[i] = ix.children.start[i + 1] === ix.children.start[i] ? 1 : 0;

  buildDense(ix);
  ix.lexicon = compileLexicon(loadLexicon(), (w) => ix.wordStem.get(w));
  ix.buildMs = Date.now() - t0;
  return ix;
}

export function parseTextArray(v: string[] | string | null | undefined): string[] {
  if (!v) return [];
  if (Array.isArray(v)) return v;
  const inner = v.replace(/^\{|\}$/g, '');
  return inner ? inner.split(',').map((s) => s.replace(/^"|"$/g, '')) : [];
}

/* ---------- built-in dense encoder: random indexing over the vocabulary's own texts ---------- */

const DENSE_DIM = 64;
const DENSE_NNZ = 6;

// deterministic: the same sequence for the same seed in every process
const rng = seededRandom;

/**
 * Word vectors by random indexing: every stem gets a sparse random ±1 signature; a stem's vector is the idf-weighted
 * sum of the signatures of the stems it shares a concept with (names and synonyms together), so "piles" lands near
 * "hemorrhoid" and "renal" near "kidney". Concept vectors are the idf-weighted mean of their name's stem vectors,
 * stored as int8. No external weights; deterministic; a few seconds for the full starter vocabulary.
 */
function buildDense(ix: VocabIndex): void {
  const S = ix.stemStr.length;
  const D = DENSE_DIM;
  const sigIdx = new Int32Array(S * DENSE_NNZ);
  const sigVal = new Float32Array(S * DENSE_NNZ);
  for (let s = 0; s < S; s++) {
    let h = 2166136261;
    for (const ch of ix.stemStr[s]!) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
    const r = rng(h);
    for (let k = 0; k < DENSE_NNZ; k++) {
      sigIdx[s * DENSE_NNZ + k] = Math.floor(r() * D);
      sigVal[s * DENSE_NNZ + k] = r() < 0.5 ? -1 : 1;
    }
  }
  const vec = new Float32Array(S * D);
  const bag = new Map<number, number>();
  const sum = new Float32Array(D);
  for (let c = 0; c < ix.n; c++) {
    bag.clear();
    const terms = csrRow(ix.conceptTerms, c);
    for (const k of terms) for (let p = ix.termTokStart[k]!; p < ix.termTokStart[k + 1]!; p++) bag.set(ix.tokStem[p]!, ix.idf[ix.tokStem[p]!]!);
    if (bag.size < 2) continue;
    sum.fill(0);
    for (const [s, w] of bag) for (let k = 0; k < DENSE_NNZ; k++) sum[sigIdx[s * DENSE_NNZ + k]!]! += w * sigVal[s * DENSE_NNZ + k]!;
    for (const [s, w] of bag) {
      const base = s * D;
      for (let d = 0; d < D; d++) vec[base + d]! += sum[d]!;
      for (let k = 0; k < DENSE_NNZ; k++) vec[base + sigIdx[s * DENSE_NNZ + k]!]! -= w * sigVal[s * DENSE_NNZ + k]!;
    }
  }
  for (let s = 0; s < S; s++) normalize(vec, s * D, D);
  ix.dim = D;
  ix.stemVec = vec;
  ix.conceptVec = new Int8Array(ix.n * D);
  const tmp = new Float32Array(D);
  for (let c = 0; c < ix.n; c++) {
    const terms = csrRow(ix.conceptTerms, c);
    const k = terms[0];
    if (k === undefined) continue;
    tmp.fill(0);
    for (let p = ix.termTokStart[k]!; p < ix.termTokStart[k + 1]!; p++) {
      const s = ix.tokStem[p]!;
      const w = ix.idf[s]! * (ix.tokOpt[p] ? 0.5 : 1);
      for (let d = 0; d < D; d++) tmp[d]! += w * vec[s * D + d]!;
    }
    normalize(tmp, 0, D);
    for (let d = 0; d < D; d++) ix.conceptVec[c * D + d] = Math.max(-127, Math.min(127, Math.round(tmp[d]! * 127)));
  }
}

function normalize(v: Float32Array, off: number, len: number): void {
  let s = 0;
  for (let i = 0; i < len; i++) s += v[off + i]! * v[off + i]!;
  const inv = s > 0 ? 1 / Math.sqrt(s) : 0;
  for (let i = 0; i < len; i++) v[off + i]! *= inv;
}

/** Query vector from stems (idf-weighted), or null when none of them is known. */
export function encodeStems(ix: VocabIndex, stems: Array<{ stem: number; w: number }>): Float32Array | null {
  const D = ix.dim;
  const q = new Float32Array(D);
  let any = false;
  for (const { stem, w } of stems) {
    if (stem < 0 || stem >= ix.stemStr.length) continue;
    any = true;
    const f = ix.idf[stem]! * w;
    for (let d = 0; d < D; d++) q[d]! += f * ix.stemVec[stem * D + d]!;
  }
  if (!any) return null;
  normalize(q, 0, D);
  return q;
}

/** Cosine of a query vector with concept i (int8 storage). */
export function denseCosine(ix: VocabIndex, q: Float32Array, i: number): number {
  const D = ix.dim;
  let s = 0;
  const base = i * D;
  for (let d = 0; d < D; d++) s += q[d]! * ix.conceptVec[base + d]!;
  return s / 127;
}
