/**
 * Code lookup without strings: an ICD-10 code (at most 7 letters or digits) is packed into two small integers and
 * found in an open-addressing hash table of typed arrays. The table is built once when a version is compiled and
 * stored in the compiled cache file, so loading a version builds no Map of 150,000 strings, and looking a code up
 * allocates nothing (the raw input string is read character by character).
 *
 * Reading a code follows the grouper's two spellings (see GroupOptions.codes):
 *   strict  – upper-cased, otherwise exactly as given (the CMS grouper): "I21.4" and " I214" are not codes;
 *   lenient – surrounding blanks trimmed, dots dropped, upper-cased: "i21.4 " is I214.
 * Input that needs more than ASCII case folding (non-ASCII characters, inner blanks in lenient mode) takes the
 * slow path, which spells the code with the same string functions as before and packs that.
 */

/** Character → digit of the base-37 packing (0 = no character); 255 = not a code character. */
const DIGIT = new Uint8Array(128).fill(255);
for (let c = 48; c <= 57; c++) DIGIT[c] = c - 47; // 0-9 → 1..10
for (let c = 65; c <= 90; c++) DIGIT[c] = c - 54; // A-Z → 11..36
for (let c = 97; c <= 122; c++) DIGIT[c] = c - 86; // a-z → 11..36 (upper-cased)

/** Longest code the index holds. */
export const MAX_CODE_LENGTH = 7;

/**
 * Slot layout of the table, two integers: hi (21 bits) | index bits 0-10 << 21, and lo (16 bits) | index bits 11-26
 * << 16. A packed key's hi is never 0, so a slot whose low 21 bits are 0 is empty. Two integers per slot and a load
 * of at most 0.66 keep the tables small (1 MB each for the 75,000 ICD-10-CM and 79,000 ICD-10-PCS codes): most of
 * a lookup's cost is the cache miss on its slot.
 */
const SLOT = 2;
const HI_MASK = 0x1fffff;
const LO_MASK = 0xffff;

/** Slot of a packed key in a table of mask + 1 slots (exported for tables that keep more beside the key). */
export function hashOf(hi: number, lo: number, mask: number): number {
  return ((Math.imul(hi, 0x9e3779b1) ^ Math.imul(lo + 0x7f4a7c15, 0x85ebca77)) >>> 0) & mask;
}

/** Packs a code that is already spelled (upper-case letters and digits): returns false when it cannot be packed. */
export function packSpelled(code: string, out: Int32Array): boolean {
  const n = code.length;
  if (n === 0 || n > MAX_CODE_LENGTH) return false;
  let hi = 0;
  let lo = 0;
  for (let i = 0; i < MAX_CODE_LENGTH; i++) {
    let d = 0;
    if (i < n) {
      const c = code.charCodeAt(i);
      d = c < 128 ? DIGIT[c] : 255;
      if (d === 255 || (c >= 97 && c <= 122)) return false;
    }
    if (i < 4) hi = hi * 37 + d;
    else lo = lo * 37 + d;
  }
  out[0] = hi;
  out[1] = lo;
  return true;
}

/** Builds the table for a list of codes: a lookup answers the code's position in the list. */
export function buildCodeTable(codes: readonly string[]): Int32Array {
  if (codes.length >= 1 << 27) throw new Error('too many codes for the code index');
  let size = 1024;
  while (size < codes.length / 0.66) size *= 2;
  const mask = size - 1;
  const table = new Int32Array(size * SLOT);
  const key = new Int32Array(2);
  codes.forEach((code, i) => {
    if (!packSpelled(code, key)) throw new Error(`code "${code}" cannot be indexed (letters and digits, at most ${MAX_CODE_LENGTH})`);
    let h = hashOf(key[0], key[1], mask);
    while ((table[h * SLOT] & HI_MASK) !== 0) h = (h + 1) & mask;
    table[h * SLOT] = key[0] | ((i & 0x7ff) << 21);
    table[h * SLOT + 1] = key[1] | ((i >>> 11) << 16);
  });
  return table;
}

/** Lenient spelling: trimmed, dots removed, upper case. */
export function normalizeCode(code: unknown): string {
  return String(code ?? '')
    .trim()
    .replace(/\./g, '')
    .toUpperCase();
}

/** The CMS grouper's own reading of a code: upper-cased, otherwise exactly as given. */
export function strictCode(code: unknown): string {
  const s = typeof code === 'string' ? code : String(code ?? '');
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 97 && c <= 122) return s.toUpperCase();
  }
  return s;
}

/**
 * Packs a code as submitted, read as the CMS software reads it (upper-cased, otherwise exact), into out[0..1]; false
 * when it is no code (too long, other characters). Non-ASCII input is spelled with toUpperCase first.
 */
export function packStrict(raw: string, out: Int32Array): boolean {
  let hi = 0;
  let lo = 0;
  const n = raw.length;
  if (n === 0 || n > MAX_CODE_LENGTH) {
    // toUpperCase of a non-ASCII character can change the length ("ß" → "SS"): spell it first
    for (let i = 0; i < n; i++) if (raw.charCodeAt(i) >= 128) return packSpelled(raw.toUpperCase(), out);
    return false;
  }
  for (let i = 0; i < MAX_CODE_LENGTH; i++) {
    let d = 0;
    if (i < n) {
      const c = raw.charCodeAt(i);
      if (c >= 128) return packSpelled(raw.toUpperCase(), out);
      d = DIGIT[c];
      if (d === 255) return false;
    }
    if (i < 4) hi = hi * 37 + d;
    else lo = lo * 37 + d;
  }
  out[0] = hi;
  out[1] = lo;
  return true;
}

/** A version's code table (diagnoses or procedures). */
export class CodeIndex {
  private readonly mask: number;
  private readonly key = new Int32Array(2);

  constructor(
    private readonly table: Int32Array,
    /** Codes by index (spelled). */
    readonly codes: readonly string[],
  ) {
    this.mask = table.length / SLOT - 1;
  }

  private find(hi: number, lo: number): number {
    const t = this.table;
    const mask = this.mask;
    let h = hashOf(hi, lo, mask);
    for (;;) {
      const a = t[h * SLOT];
      const k = a & HI_MASK;
      if (k === 0) return -1;
      if (k === hi) {
        const b = t[h * SLOT + 1];
        if ((b & LO_MASK) === lo) return ((a >>> 21) & 0x7ff) | ((b >>> 16) << 11);
      }
      h = (h + 1) & mask;
    }
  }

  /** Index of a spelled code (upper case, no dots), or -1. */
  indexOf(code: string): number {
    return packSpelled(code, this.key) ? this.find(this.key[0], this.key[1]) : -1;
  }

  /**
   * Index of a code as submitted, read strictly or leniently, or -1. No allocation on the common path (ASCII
   * letters, digits and, when lenient, dots and surrounding spaces).
   */
  lookup(raw: unknown, lenient: boolean): number {
    if (typeof raw !== 'string') return this.indexOf(lenient ? normalizeCode(raw) : strictCode(raw));
    let start = 0;
    let end = raw.length;
    if (lenient) {
      while (start < end && raw.charCodeAt(start) === 32) start++;
      while (end > start && raw.charCodeAt(end - 1) === 32) end--;
    }
    let hi = 0;
    let lo = 0;
    let n = 0;
    for (let i = start; i < end; i++) {
      const c = raw.charCodeAt(i);
      if (lenient && c === 46) continue; // '.'
      const d = c < 128 ? DIGIT[c] : 255;
      if (d === 255) {
        // Non-ASCII (case mapping could produce a code character) or, leniently, other blanks: the slow path.
        if (c >= 128 || (lenient && c <= 32)) return this.indexOf(lenient ? normalizeCode(raw) : strictCode(raw));
        return -1;
      }
      if (n === MAX_CODE_LENGTH) return -1;
      if (n < 4) hi = hi * 37 + d;
      else lo = lo * 37 + d;
      n++;
    }
    if (n === 0) return -1;
    for (; n < MAX_CODE_LENGTH; n++) {
      if (n < 4) hi *= 37;
      else lo *= 37;
    }
    return this.find(hi, lo);
  }
}
