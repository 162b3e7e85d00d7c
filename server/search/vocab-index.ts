import type { CodeLookup, DictCol, IdLookup, StrCol } from './columns';
import type { CompiledLexicon } from './lexicon';
import { tokenize, type Word } from './text';
import { seededRandom } from '../config/random';

/**
 * The in-memory side of the search engine: concepts as columns, every searchable text (names and synonyms) as
 * stemmed token lists with postings, the 'Is a' and 'Maps to' graph as compressed adjacency lists, per-word inverse
 * document frequencies, and the initials of every word run (for abbreviation expansion). Everything per concept or
 * per text is a typed array or a byte column (columns.ts). Compiled once per import by index-build.ts, stored and
 * loaded by index-store.ts, held per database by index-cache.ts.
 */
export interface Csr {
  start: Int32Array;
  list: Int32Array;
}

export function buildCsr(n: number, pairs: Array<[number, number]> | { a: Int32Array; b: Int32Array; len: number }): Csr {
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
  name!: StrCol;
  code!: StrCol;
  cls!: DictCol;
  vocab!: Uint8Array;
  domain!: Uint8Array;
  std!: Uint8Array;
  /** 1 = billable / leaf (no 'Is a' children), 0 = header or grouping concept. */
  leaf!: Uint8Array;
  vocabList: string[] = [];
  domainList: string[] = [];
  vocabRange = new Map<number, [number, number]>();
  idToIdx!: IdLookup;
  codeKey!: CodeLookup;
  // terms
  termConcept!: Int32Array;
  termText!: StrCol;
  termIsName!: Uint8Array;
  termTokStart!: Int32Array;
  tokStem!: Int32Array;
  tokOpt!: Uint8Array;
  termReqIdf!: Float32Array;
  /** Texts are stored in concept order: concept c's texts are ids conceptTermStart[c] … conceptTermStart[c + 1] - 1 (its name first). */
  conceptTermStart!: Int32Array;
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
  initials: Buffer = Buffer.alloc(0);
  initialsStart!: Int32Array;
  // graph
  parents!: Csr;
  children!: Csr;
  mapsTo!: Csr;
  mappedFrom!: Csr;
  /** Crosswalk reach between vocabularies (V × V, see index-build.ts crosswalkReach). */
  crossReach!: Uint32Array;
  // dense (built-in encoder)
  dim = 0;
  stemVec!: Float32Array;
  /**
   * Concept vectors, int8, n × dim: resident in an index built in this process. A loaded index leaves them in its file
   * (`conceptVecFile`): a query's candidates recompute theirs from their names' stems (`conceptVector`, exactly what
   * was stored), and a dense scan reads the scanned vocabularies' rows in blocks (channels/dense.ts vectorBlocks).
   */
  conceptVec: Int8Array | null = null;
  conceptVecFile: { fd: number; base: number } | null = null;
  /** The clinical lexicon (server/search/lexicon/) compiled against this vocabulary's stems. */
  lexicon?: CompiledLexicon;
  loadedAt = Date.now();
  /** How long the build took (in the process that built it) and the load from disk took (in this one). */
  buildMs = 0;
  loadMs = 0;
  /** Bytes of the index held in this process (the rest is read from disk on demand). */
  residentBytes = 0;

  constructor(fingerprint: string) {
    this.fingerprint = fingerprint;
  }

  stemOfWord(w: string): number | undefined {
    return this.wordStem.get(w);
  }

  isBillableLike(i: number): boolean {
    const cls = this.cls.get(i);
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
/** tokOpt bits: a nonessential word (in parentheses, or residual wording such as "not elsewhere classified"). */
export const TOK_OPTIONAL = 1;
/** tokOpt bits: a word of an index entry's main term ("Syphilis, syphilitic" in "Syphilis, syphilitic (acquired), pneumonia"). */
export const TOK_HEAD = 2;
/**
 * Very rare words would otherwise dominate coverage and precision; beyond this idf all words weigh the same. The
 * query's weights and a text's required weight (termReqIdf) both use it, so a text that says exactly the query's words
 * scores 1 in the lexical channel whatever the vocabulary's size (uncapped, the text's idf grew with the vocabulary
 * while the query's stayed at the cap: "Impedance phlebography" scored 0.95 against its own title at 225k concepts and
 * 0.89 at 5M). The reranker's precision compares a text's matched words with the same text's words, uncapped.
 */
export const IDF_CAP = 9;
/** A stem's idf, capped at IDF_CAP. */
export const cappedIdf = (ix: VocabIndex, stem: number): number => Math.min(IDF_CAP, ix.idf[stem]!);

/**
 * The words of a text's main term, counted as tokenize counts them: an Alphabetic Index entry ("Toxoplasma,
 * toxoplasmosis (acquired), with, pneumonia") names its main term first and its subterms after the commas. The main
 * term runs to the first comma, and over the commas after it while each segment is a form of the same word
 * ("Infection, infected, infective"). 0 for a text without a comma.
 */
export function headWords(text: string): number {
  const segs: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of text) {
    if (ch === '(' || ch === '[') depth++;
    else if ((ch === ')' || ch === ']') && depth > 0) depth--;
    if (ch === ',' && depth === 0) {
      segs.push(cur);
      cur = '';
    } else cur += ch;
  }
  if (!segs.length) return 0;
  segs.push(cur);
  // a segment's root: the first four letters of its first essential word
  const root = (words: Word[]) => words.find((w) => !w.optional)?.text.slice(0, 4) ?? '';
  const first = tokenize(segs[0]!);
  const main = root(first);
  let n = first.length;
  if (main.length < 4) return n;
  for (let i = 1; i < segs.length; i++) {
    const words = tokenize(segs[i]!);
    if (root(words) !== main || words.filter((w) => !w.optional).length !== 1) break;
    n += words.length;
  }
  return n;
}

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
export function buildDense(ix: VocabIndex): void {
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
    for (let k = ix.conceptTermStart[c]!; k < ix.conceptTermStart[c + 1]!; k++)
      for (let p = ix.termTokStart[k]!; p < ix.termTokStart[k + 1]!; p++) bag.set(ix.tokStem[p]!, ix.idf[ix.tokStem[p]!]!);
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
  const cv = new Int8Array(ix.n * D);
  const tmp = new Float32Array(D);
  for (let c = 0; c < ix.n; c++) conceptVector(ix, c, cv, c * D, tmp);
  ix.conceptVec = cv;
}

/**
 * Concept c's int8 vector into `out` at `off`: the idf-weighted mean of its name's stem vectors (optional words half),
 * normalised and quantised. The stored vectors are made by this function, so a recomputed one is the stored one.
 */
export function conceptVector(ix: VocabIndex, c: number, out: Int8Array, off: number, tmp: Float32Array): void {
  const D = ix.dim;
  const k = ix.conceptTermStart[c]!;
  if (k === ix.conceptTermStart[c + 1]) {
    out.fill(0, off, off + D);
    return;
  }
  tmp.fill(0);
  const vec = ix.stemVec;
  for (let p = ix.termTokStart[k]!; p < ix.termTokStart[k + 1]!; p++) {
    const s = ix.tokStem[p]!;
    const w = ix.idf[s]! * (ix.tokOpt[p]! & TOK_OPTIONAL ? 0.5 : 1);
    for (let d = 0; d < D; d++) tmp[d]! += w * vec[s * D + d]!;
  }
  normalize(tmp, 0, D);
  for (let d = 0; d < D; d++) out[off + d] = Math.max(-127, Math.min(127, Math.round(tmp[d]! * 127)));
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
  let m = ix.conceptVec;
  let base = i * D;
  if (!m) {
    // recomputed rows are kept in a direct-mapped cache: the candidates of one query come back in the next ones
    let cache = rowCache.get(ix);
    if (!cache) rowCache.set(ix, (cache = { key: new Int32Array(ROW_CACHE).fill(-1), rows: new Int8Array(ROW_CACHE * D), tmp: new Float32Array(D) }));
    const slot = i & (ROW_CACHE - 1);
    base = slot * D;
    if (cache.key[slot] !== i) {
      conceptVector(ix, i, cache.rows, base, cache.tmp);
      cache.key[slot] = i;
    }
    m = cache.rows;
  }
  let s = 0;
  for (let d = 0; d < D; d++) s += q[d]! * m[base + d]!;
  return s / 127;
}
/** Rows in each loaded index's cache of recomputed vectors (a power of two: 65,536 × 64 bytes = 4 MB). */
const ROW_CACHE = 1 << 16;
const rowCache = new WeakMap<VocabIndex, { key: Int32Array; rows: Int8Array; tmp: Float32Array }>();
