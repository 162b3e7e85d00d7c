import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { cacheDir, projectRoot } from '../config/paths';
import { CodeLookup, DictCol, IdLookup, StrCol } from './columns';
import { compileLexicon, loadLexicon } from './lexicon';
import { VocabIndex, type Csr } from './vocab-index';

/**
 * The compiled search index on disk: built once per imported vocabulary (index-build.ts, by the importer, the CLI or
 * a builder process), kept in `$CODING_CACHE_DIR/search-index/<fingerprint>-<stamp>/`, and loaded by every process
 * that searches with a few large reads into typed arrays (outside the V8 heap). Cold columns (every text's string,
 * concept names) stay on disk and are read one string at a time; the rest is resident.
 *
 * Layout: `index.bin` holds every array end to end, 8-byte aligned; `meta.json` lists them (type, offset, length)
 * with the small parts (vocabulary and domain lists, classes, word list and stems).
 */
const FORMAT = 1;
const BUILDER_SOURCES = ['text.ts', 'columns.ts', 'index-build.ts', 'index-store.ts', 'vocab-index.ts'];

let stampMemo: string | undefined;
/** Changes when the format or any source that shapes the index changes (a stale index is never loaded). */
function stamp(): string {
  if (stampMemo) return stampMemo;
  const h = createHash('sha256').update(`format ${FORMAT}`);
  for (const f of BUILDER_SOURCES) {
    try {
      h.update(fs.readFileSync(path.join(projectRoot, 'server', 'search', f)));
    } catch {
      h.update(`${f}: not readable`);
    }
  }
  return (stampMemo = h.digest('hex').slice(0, 12));
}

export function indexDir(fingerprint: string): string {
  return path.join(cacheDir(), 'search-index', `${fingerprint.slice(0, 32)}-${stamp()}`);
}

export function hasStoredIndex(fingerprint: string): boolean {
  return fs.existsSync(path.join(indexDir(fingerprint), 'meta.json'));
}

const storeRoot = () => path.join(cacheDir(), 'search-index');

/**
 * The newest stored index of this vocabulary built by other code (another stamp) in this format: after an upgrade it
 * serves until the builder has stored the current one, so a restart never leaves search down for a whole build.
 */
export function staleIndexDir(fingerprint: string): string | null {
  const prefix = `${fingerprint.slice(0, 32)}-`;
  const current = path.basename(indexDir(fingerprint));
  let best: { dir: string; at: number } | null = null;
  for (const name of fs.existsSync(storeRoot()) ? fs.readdirSync(storeRoot()) : []) {
    if (!name.startsWith(prefix) || name.includes('.') || name === current) continue;
    const meta = path.join(storeRoot(), name, 'meta.json');
    try {
      const head = fs.readFileSync(meta, 'utf8').slice(0, 40);
      if (!head.startsWith(`{"format":${FORMAT},`)) continue;
      const at = fs.statSync(meta).mtimeMs;
      if (!best || at > best.at) best = { dir: path.join(storeRoot(), name), at };
    } catch {
      /* half-removed: skip */
    }
  }
  return best?.dir ?? null;
}

/** Stored indexes not loaded for a week, beyond the newest few, and abandoned temporary folders are removed. */
const KEEP_DAYS = 7;
const KEEP_AT_LEAST = 4;
function pruneStore(current: string): void {
  const now = Date.now();
  const entries: Array<{ dir: string; at: number }> = [];
  for (const name of fs.readdirSync(storeRoot())) {
    const dir = path.join(storeRoot(), name);
    if (dir === current || name.endsWith('.lock')) continue;
    try {
      if (name.includes('.tmp-')) {
        if (now - fs.statSync(dir).mtimeMs > 86_400_000) fs.rmSync(dir, { recursive: true, force: true });
        continue;
      }
      entries.push({ dir, at: fs.statSync(path.join(dir, 'meta.json')).mtimeMs });
    } catch {
      /* another process is changing it: leave it */
    }
  }
  entries.sort((a, b) => b.at - a.at);
  for (const e of entries.slice(KEEP_AT_LEAST)) if (now - e.at > KEEP_DAYS * 86_400_000) fs.rmSync(e.dir, { recursive: true, force: true });
}

type Typed = Int8Array | Uint8Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array;
const TYPES = { i8: Int8Array, u8: Uint8Array, u16: Uint16Array, i32: Int32Array, u32: Uint32Array, f32: Float32Array, f64: Float64Array } as const;
type TypeName = keyof typeof TYPES;
const typeOf = (a: Typed): TypeName => (Object.keys(TYPES) as TypeName[]).find((t) => a instanceof TYPES[t])!;

interface ArrayEntry {
  key: string;
  type: TypeName;
  offset: number;
  length: number;
}
interface Meta {
  format: number;
  fingerprint: string;
  n: number;
  vocabList: string[];
  domainList: string[];
  vocabRange: Array<[number, number, number]>;
  clsValues: string[];
  medianIdf: number;
  maxIdf: number;
  dim: number;
  buildMs: number;
  stems: string[];
  /** Lexicon words in the order the index met them: [word, df, stem]. */
  lexWords: Array<[string, number, number]>;
  /** Other tokens (numbers, mixed tokens) that are their own stem: [word, stem]. */
  extraWords: Array<[string, number]>;
  arrays: ArrayEntry[];
  bytes: number;
}

/** The index's typed-array fields, stored under their own names. */
const PLAIN = [
  'conceptId',
  'vocab',
  'domain',
  'std',
  'leaf',
  'termConcept',
  'termIsName',
  'termTokStart',
  'tokStem',
  'tokOpt',
  'termReqIdf',
  'conceptTermStart',
  'idf',
  'initialsStart',
  'crossReach',
  'stemVec',
  'conceptVec',
] as const satisfies ReadonlyArray<keyof VocabIndex>;
/** Its adjacency lists (`<name>.start`, `<name>.list`) and string columns (`<name>.offsets`, `<name>.blob`). */
const CSRS = ['postings', 'parents', 'children', 'mapsTo', 'mappedFrom'] as const satisfies ReadonlyArray<keyof VocabIndex>;
const STRS = ['name', 'code', 'termText'] as const satisfies ReadonlyArray<keyof VocabIndex>;

/** Every array of the index, by key; `cold` ones stay on disk when loaded. */
export function storedArrays(ix: VocabIndex): Array<[string, Typed]> {
  const csr = (k: string, c: Csr): Array<[string, Typed]> => [
    [`${k}.start`, c.start],
    [`${k}.list`, c.list],
  ];
  const str = (k: string, c: StrCol): Array<[string, Typed]> => {
    const { offsets, blob } = c.parts();
    // a column read from disk lists only its offsets (saveIndex refuses it: it stores built indexes only)
    if (!blob) return [[`${k}.offsets`, offsets]];
    return [
      [`${k}.offsets`, offsets],
      [`${k}.blob`, new Uint8Array(blob.buffer, blob.byteOffset, blob.byteLength)],
    ];
  };
  return [
    // a loaded index's concept vectors stay in its file (saveIndex refuses it: it stores built indexes only)
    ...PLAIN.flatMap((k): Array<[string, Typed]> => {
      const a = ix[k];
      return a ? [[k, a]] : [];
    }),
    ...CSRS.flatMap((k) => csr(k, ix[k])),
    ...STRS.flatMap((k) => str(k, ix[k])),
    ['cls', ix.cls.codes],
    ['idToIdx.ids', ix.idToIdx.ids],
    ['idToIdx.rows', ix.idToIdx.rows],
    ['codeKey.hashes', ix.codeKey.hashes],
    ['codeKey.rows', ix.codeKey.rows],
    ['initials', new Uint8Array(ix.initials.buffer, ix.initials.byteOffset, ix.initials.byteLength)],
  ];
}
/**
 * Left on disk: the name and text columns, read one string at a time for the few candidates of a query, and the
 * concept vectors (a fifth of the resident index at 5M concepts), recomputed for candidates from their stems and read
 * in blocks by a dense scan (vocab-index.ts conceptVector, channels/dense.ts vectorBlocks).
 */
const COLD = new Set(['name.blob', 'termText.blob', 'conceptVec']);

/** Write the index to its folder (beside it first, then renamed: a reader never sees half a folder). */
export function saveIndex(ix: VocabIndex): string {
  const dir = indexDir(ix.fingerprint);
  const tmp = `${dir}.tmp-${process.pid}-${Date.now()}`;
  fs.mkdirSync(tmp, { recursive: true });
  const fd = fs.openSync(path.join(tmp, 'index.bin'), 'w');
  const arrays: ArrayEntry[] = [];
  let offset = 0;
  const pad = Buffer.alloc(8);
  const all = storedArrays(ix);
  for (const k of ['name.blob', 'code.blob', 'termText.blob', 'conceptVec'])
    if (!all.some(([key]) => key === k)) throw new Error(`${k}: a loaded index cannot be stored again`);
  try {
    for (const [key, a] of all) {
      const bytes = Buffer.from(a.buffer, a.byteOffset, a.byteLength);
      for (let done = 0; done < bytes.length;) done += fs.writeSync(fd, bytes, done, Math.min(1 << 28, bytes.length - done));
      arrays.push({ key, type: typeOf(a), offset, length: a.length });
      offset += bytes.length;
      const fillTo = Math.ceil(offset / 8) * 8;
      if (fillTo > offset) fs.writeSync(fd, pad, 0, fillTo - offset);
      offset = fillTo;
    }
  } finally {
    fs.closeSync(fd);
  }
  const lexWords: Meta['lexWords'] = [];
  for (const [w, df] of ix.wordDf) lexWords.push([w, df, ix.wordStem.get(w)!]);
  const extraWords: Meta['extraWords'] = [];
  for (const [w, s] of ix.wordStem) if (!ix.wordDf.has(w)) extraWords.push([w, s]);
  const meta: Meta = {
    format: FORMAT,
    fingerprint: ix.fingerprint,
    n: ix.n,
    vocabList: ix.vocabList,
    domainList: ix.domainList,
    vocabRange: [...ix.vocabRange].map(([v, [a, b]]) => [v, a, b]),
    clsValues: ix.cls.values,
    medianIdf: ix.medianIdf,
    maxIdf: ix.maxIdf,
    dim: ix.dim,
    buildMs: ix.buildMs,
    stems: ix.stemStr,
    lexWords,
    extraWords,
    arrays,
    bytes: offset,
  };
  fs.writeFileSync(path.join(tmp, 'meta.json'), JSON.stringify(meta));
  try {
    fs.renameSync(tmp, dir);
  } catch (err) {
    // another process stored the same index first: theirs is as good as ours
    fs.rmSync(tmp, { recursive: true, force: true });
    if (!hasStoredIndex(ix.fingerprint)) throw err;
  }
  pruneStore(dir);
  return dir;
}

/** An index's open file, closed when the index is garbage (a search in flight may still read an older one). */
const closer = new FinalizationRegistry<number>((fd) => {
  try {
    fs.closeSync(fd);
  } catch {
    /* already closed */
  }
});

/**
 * A loaded index's resident arrays, as another thread of this process receives them: they live in SharedArrayBuffers,
 * so a worker thread (the DRG agent's, the search pool's) searches with the loading thread's copy instead of reading
 * its own. `key` names one load (a newer load of the same folder has another).
 */
export interface SharedIndex {
  key: string;
  fingerprint: string;
  dir: string;
  arrays: Array<[string, Typed]>;
}
const sharedOf = new WeakMap<VocabIndex, SharedIndex>();

/** The shareable form of an index this process loaded (null for one built in memory and never stored). */
export function shareIndex(ix: VocabIndex): SharedIndex | null {
  return sharedOf.get(ix) ?? null;
}

/** The last shared indexes opened in this thread, by key: a thread holds one copy of each, whatever asks for it. */
const opened = new Map<string, Promise<VocabIndex>>();
const OPEN_AT_MOST = 2;
/** The index another thread loaded (shareIndex), opened here over the same memory: only meta.json is read. */
export function openSharedIndex(s: SharedIndex): Promise<VocabIndex> {
  let p = opened.get(s.key);
  if (!p) {
    p = loadIndex(s.fingerprint, s.dir, s);
    p.catch(() => opened.delete(s.key));
    opened.set(s.key, p);
    // an index replaced by a newer import is released (a search in flight keeps its own reference)
    for (const k of opened.keys()) if (opened.size > OPEN_AT_MOST && k !== s.key) opened.delete(k);
  }
  return p;
}

/**
 * Load a stored index: resident arrays read in large async chunks into shared memory (see SharedIndex), cold columns
 * left on disk. `dir`: another stored index of the same vocabulary (staleIndexDir). `from`: the arrays another thread
 * loaded, used instead of reading them.
 */
export async function loadIndex(fingerprint: string, dir = indexDir(fingerprint), from?: SharedIndex): Promise<VocabIndex> {
  const t0 = Date.now();
  const metaFile = path.join(dir, 'meta.json');
  const meta = JSON.parse(await fs.promises.readFile(metaFile, 'utf8')) as Meta;
  // last used: the store keeps what is used
  const now = new Date();
  await fs.promises.utimes(metaFile, now, now).catch(() => undefined);
  if (meta.format !== FORMAT) throw new Error(`search index format ${meta.format} is not ${FORMAT}`);
  const file = path.join(dir, 'index.bin');
  const fh = await fs.promises.open(file, 'r');
  const byKey = new Map<string, Typed>(from?.arrays);
  const cold = new Map<string, ArrayEntry>();
  try {
    for (const e of meta.arrays) {
      if (COLD.has(e.key)) {
        cold.set(e.key, e);
        continue;
      }
      if (from) continue;
      const T = TYPES[e.type];
      const a = new (T as new (b: SharedArrayBuffer) => Typed)(new SharedArrayBuffer(e.length * T.BYTES_PER_ELEMENT));
      const view = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
      for (let done = 0; done < view.length;) {
        const { bytesRead } = await fh.read(view, done, Math.min(1 << 26, view.length - done), e.offset + done);
        if (bytesRead === 0) throw new Error(`search index ${dir} is truncated`);
        done += bytesRead;
      }
      byKey.set(e.key, a);
    }
  } finally {
    await fh.close();
  }
  const fd = fs.openSync(file, 'r');
  const get = <T extends Typed>(k: string): T => {
    const a = byKey.get(k);
    if (!a) throw new Error(`search index ${dir} lacks ${k}`);
    return a as T;
  };
  const csr = (k: string): Csr => ({ start: get(`${k}.start`), list: get(`${k}.list`) });
  const str = (k: string): StrCol => {
    const c = cold.get(`${k}.blob`);
    if (c) return new StrCol(get(`${k}.offsets`), null, { fd, base: c.offset });
    const blob = get<Uint8Array>(`${k}.blob`);
    return new StrCol(get(`${k}.offsets`), Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength));
  };
  const ix = new VocabIndex(meta.fingerprint);
  closer.register(ix, fd);
  ix.n = meta.n;
  Object.assign(ix, Object.fromEntries(PLAIN.filter((k) => !COLD.has(k)).map((k) => [k, get(k)])));
  const vec = cold.get('conceptVec');
  if (!vec) throw new Error(`search index ${dir} lacks conceptVec`);
  ix.conceptVecFile = { fd, base: vec.offset };
  for (const k of CSRS) ix[k] = csr(k);
  for (const k of STRS) ix[k] = str(k);
  ix.cls = new DictCol(get('cls'), meta.clsValues);
  ix.idToIdx = new IdLookup(get('idToIdx.ids'), get('idToIdx.rows'));
  ix.codeKey = new CodeLookup(get('codeKey.hashes'), get('codeKey.rows'), ix.code);
  const ini = get<Uint8Array>('initials');
  ix.initials = Buffer.from(ini.buffer, ini.byteOffset, ini.byteLength);
  ix.dim = meta.dim;
  ix.vocabList = meta.vocabList;
  ix.domainList = meta.domainList;
  for (const [v, a, b] of meta.vocabRange) ix.vocabRange.set(v, [a, b]);
  ix.medianIdf = meta.medianIdf;
  ix.maxIdf = meta.maxIdf;
  ix.stemStr = meta.stems;
  meta.stems.forEach((s, i) => ix.stemIds.set(s, i));
  for (const [w, df, s] of meta.lexWords) {
    ix.wordDf.set(w, df);
    ix.wordStem.set(w, s);
  }
  for (const [w, s] of meta.extraWords) ix.wordStem.set(w, s);
  ix.sortedWords = [...ix.wordDf.keys()].sort();
  ix.lexicon = compileLexicon(loadLexicon(), (w) => ix.wordStem.get(w));
  ix.buildMs = meta.buildMs;
  ix.loadMs = Date.now() - t0;
  ix.residentBytes = [...byKey.values()].reduce((s, a) => s + a.byteLength, 0);
  sharedOf.set(ix, { key: from?.key ?? `${dir}#${randomUUID()}`, fingerprint: meta.fingerprint, dir, arrays: [...byKey] });
  return ix;
}
