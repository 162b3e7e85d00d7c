import fs from 'node:fs';
import { Interner } from '../config/interner';

/**
 * The compiled search index's column types: everything per concept or per text lives in typed arrays and byte blobs,
 * never in one JS string or object per row, so millions of concepts cost flat memory outside the V8 heap and load
 * from disk as a few large reads (see index-store.ts).
 */

/** A growable typed array, for builders that do not know the row count in advance. */
export class Grow<T extends Int32Array | Uint8Array | Float32Array | Uint32Array | Float64Array> {
  len = 0;
  constructor(
    private make: (n: number) => T,
    public buf: T = make(1 << 16),
  ) {}
  push(v: number): void {
    if (this.len === this.buf.length) this.reserve(this.len + 1);
    this.buf[this.len++] = v;
  }
  reserve(n: number): void {
    if (n <= this.buf.length) return;
    const next = this.make(Math.max(n, this.buf.length * 2));
    next.set(this.buf.subarray(0, this.len) as never);
    this.buf = next;
  }
  /** The filled part, as its own (trimmed) array. */
  done(): T {
    return this.buf.slice(0, this.len) as T;
  }
}

export const growI32 = () => new Grow((n) => new Int32Array(n));
export const growU8 = () => new Grow((n) => new Uint8Array(n));

/**
 * A column of strings: UTF-8 bytes end to end, with byte offsets. Either held in memory, or read from its file on
 * demand (one positioned read per string: the cold columns, such as every synonym's text, cost only their offsets).
 */
export class StrCol {
  constructor(
    /** n + 1 byte offsets into the blob (32-bit while the blob is under 4 GB). */
    readonly offsets: Float64Array | Uint32Array,
    private blob: Buffer | null,
    private file: { fd: number; base: number } | null = null,
  ) {}

  get length(): number {
    return this.offsets.length - 1;
  }

  get(i: number): string {
    const a = this.offsets[i]!;
    const b = this.offsets[i + 1]!;
    if (b === undefined || a === undefined) return '';
    if (this.blob) return this.blob.toString('utf8', a, b);
    if (!this.file || b === a) return '';
    // a direct-mapped cache of recent reads: a query asks for the same candidates' names several times, and
    // the next query often for the same neighbourhood
    const slot = i & (COLD_CACHE - 1);
    if (this.cacheKey?.[slot] === i + 1) return this.cacheVal![slot]!;
    const buf = b - a <= READ_BUF.length ? READ_BUF : Buffer.allocUnsafe(b - a);
    const n = fs.readSync(this.file.fd, buf, 0, b - a, this.file.base + a);
    const s = buf.toString('utf8', 0, n);
    this.cacheKey ??= new Int32Array(COLD_CACHE);
    this.cacheVal ??= new Array<string>(COLD_CACHE);
    this.cacheKey[slot] = i + 1;
    this.cacheVal[slot] = s;
    return s;
  }
  private cacheKey: Int32Array | null = null;
  private cacheVal: string[] | null = null;

  slice(from: number, to: number): string[] {
    const out: string[] = [];
    for (let i = from; i < Math.min(to, this.length); i++) out.push(this.get(i));
    return out;
  }

  /** Bytes held in memory (the blob, if resident, and the offsets). */
  get residentBytes(): number {
    return this.offsets.byteLength + (this.blob?.byteLength ?? 0);
  }

  /** The raw parts, for the store. */
  parts(): { offsets: Float64Array | Uint32Array; blob: Buffer | null } {
    return { offsets: this.offsets, blob: this.blob };
  }
}
const READ_BUF = Buffer.allocUnsafe(64 * 1024);
/** Entries of each cold column's read cache (a power of two; ~3 MB of short strings per column). */
const COLD_CACHE = 1 << 15;

export class StrColBuilder {
  private bytes = new Grow((n) => new Uint8Array(n), new Uint8Array(1 << 20));
  private offsets = new Grow((n) => new Float64Array(n));
  constructor() {
    this.offsets.push(0);
  }
  push(s: string): void {
    this.bytes.reserve(this.bytes.len + s.length * 3);
    const b = this.bytes.buf;
    this.bytes.len += Buffer.from(b.buffer, b.byteOffset, b.length).write(s, this.bytes.len, 'utf8');
    this.offsets.push(this.bytes.len);
  }
  done(): StrCol {
    const bytes = this.bytes.done();
    const offsets = this.bytes.len < 2 ** 32 ? Uint32Array.from(this.offsets.buf.subarray(0, this.offsets.len)) : this.offsets.done();
    return new StrCol(offsets, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  }
}

/** A low-cardinality string column (concept classes): one byte-pair per row and a short list of values. */
export class DictCol {
  constructor(
    readonly codes: Uint16Array,
    readonly values: string[],
  ) {}
  get(i: number): string {
    return this.values[this.codes[i]!] ?? '';
  }
  get length(): number {
    return this.codes.length;
  }
}

export class DictColBuilder {
  private codes = new Grow((n) => new Uint32Array(n));
  private values = new Interner();
  push(s: string): void {
    const k = this.values.id(s);
    if (k >= 0xffff) throw new Error('too many distinct values for a dictionary column');
    this.codes.push(k);
  }
  done(): DictCol {
    return new DictCol(Uint16Array.from(this.codes.done()), this.values.names);
  }
}

/** concept_id → row, by binary search over the sorted ids (no Map of millions of entries). */
export class IdLookup {
  constructor(
    readonly ids: Int32Array,
    readonly rows: Int32Array,
  ) {}
  static build(conceptId: Int32Array): IdLookup {
    const n = conceptId.length;
    const rows = new Int32Array(n);
    for (let i = 0; i < n; i++) rows[i] = i;
    rows.sort((a, b) => conceptId[a]! - conceptId[b]!);
    const ids = new Int32Array(n);
    for (let k = 0; k < n; k++) ids[k] = conceptId[rows[k]!]!;
    return new IdLookup(ids, rows);
  }
  get(id: number): number | undefined {
    if (!Number.isInteger(id) || id > 0x7fffffff || id < -0x80000000) return undefined;
    const ids = this.ids;
    let lo = 0;
    let hi = ids.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = ids[mid]!;
      if (v === id) return this.rows[mid];
      if (v < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }
  get size(): number {
    return this.ids.length;
  }
}

/** FNV-1a over a string's UTF-16 units. */
export function hash32(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** The key a code is looked up by: upper case, without dots ("i21.9" and "I219" are one key). */
export function codeKeyOf(code: string): string {
  return code.toUpperCase().replace(/\./g, '');
}

/** Normalised code → rows with that code (in any vocabulary): hashes sorted, then checked against the code column. */
export class CodeLookup {
  constructor(
    readonly hashes: Uint32Array,
    readonly rows: Int32Array,
    private code: StrCol,
  ) {}
  static build(code: StrCol): CodeLookup {
    const n = code.length;
    const h = new Uint32Array(n);
    for (let i = 0; i < n; i++) h[i] = hash32(codeKeyOf(code.get(i)));
    const rows = new Int32Array(n);
    for (let i = 0; i < n; i++) rows[i] = i;
    rows.sort((a, b) => h[a]! - h[b]! || a - b);
    const hashes = new Uint32Array(n);
    for (let k = 0; k < n; k++) hashes[k] = h[rows[k]!]!;
    return new CodeLookup(hashes, rows, code);
  }
  get(key: string): number[] | undefined {
    const h = hash32(key);
    const hs = this.hashes;
    let lo = 0;
    let hi = hs.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (hs[mid]! < h) lo = mid + 1;
      else hi = mid;
    }
    const out: number[] = [];
    for (let k = lo; k < hs.length && hs[k] === h; k++) {
      const r = this.rows[k]!;
      if (codeKeyOf(this.code.get(r)) === key) out.push(r);
    }
    return out.length ? out : undefined;
  }
}
