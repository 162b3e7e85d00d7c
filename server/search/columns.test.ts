import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../config/random';
import { codeKeyOf, CodeLookup, DictColBuilder, IdLookup, StrCol, StrColBuilder } from './columns';

/** The compiled index's columns, on thousands of generated values: every value comes back exactly. */
const rand = seededRandom(20261126);
const pick = <T>(a: T[]) => a[Math.floor(rand() * a.length)]!;
const ALPHABETS = ['abcdefghij ', 'ÀÉÎõüçñ ', '中文字 ', '😀🩺 ', '0123456789.-', '\t"\\\'|,'];
function randomString(max: number): string {
  let s = '';
  const len = Math.floor(rand() * max);
  for (let i = 0; i < len; i++) s += pick([...pick(ALPHABETS)]);
  return s;
}

describe('search index columns', () => {
  it('a string column returns every string, resident and read from its file', () => {
    const values = Array.from({ length: 5000 }, (_, i) => (i % 97 === 0 ? '' : randomString(i % 500 === 0 ? 70_000 : 60)));
    const b = new StrColBuilder();
    for (const v of values) b.push(v);
    const col = b.done();
    expect(col.length).toBe(values.length);
    for (let i = 0; i < values.length; i++) expect(col.get(i)).toBe(values[i]);
    expect(col.slice(10, 20)).toEqual(values.slice(10, 20));
    // the same bytes on disk at an offset, read one string at a time
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-col-'));
    const file = path.join(dir, 'blob');
    const { offsets, blob } = col.parts();
    fs.writeFileSync(file, Buffer.concat([Buffer.alloc(13, 7), blob!]));
    const fd = fs.openSync(file, 'r');
    try {
      const cold = new StrCol(offsets, null, { fd, base: 13 });
      for (let i = 0; i < values.length; i++) expect(cold.get(i)).toBe(values[i]);
      // again in random order
      for (let k = 0; k < 5000; k++) {
        const i = Math.floor(rand() * values.length);
        expect(cold.get(i)).toBe(values[i]);
      }
      expect(cold.get(values.length + 5)).toBe('');
      expect(cold.residentBytes).toBe(offsets.byteLength);
    } finally {
      fs.closeSync(fd);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a cold column's read cache: rows sharing a slot (i, i + 2^15, i + 2^16) never answer for each other", () => {
    const n = 100_000;
    const b = new StrColBuilder();
    for (let i = 0; i < n; i++) b.push(`row ${i} ${randomString(8)}`);
    const col = b.done();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-col-'));
    const file = path.join(dir, 'blob');
    const { offsets, blob } = col.parts();
    fs.writeFileSync(file, blob!);
    const fd = fs.openSync(file, 'r');
    try {
      const cold = new StrCol(offsets, null, { fd, base: 0 });
      for (let k = 0; k < 30_000; k++) {
        const i = (Math.floor(rand() * 2 ** 15) + pick([0, 2 ** 15, 2 ** 16])) % n;
        expect(cold.get(i)).toBe(col.get(i));
      }
    } finally {
      fs.closeSync(fd);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('id look-up finds every id and nothing else', () => {
    const ids = new Set<number>();
    while (ids.size < 20_000) ids.add(Math.floor((rand() - 0.3) * 2 ** 31));
    const arr = Int32Array.from(ids);
    const lk = IdLookup.build(arr);
    for (let i = 0; i < arr.length; i++) expect(lk.get(arr[i]!)).toBe(i);
    for (let k = 0; k < 5000; k++) {
      const x = Math.floor((rand() - 0.3) * 2 ** 31);
      expect(lk.get(x)).toBe(ids.has(x) ? arr.indexOf(x) : undefined);
    }
    for (const odd of [0.5, NaN, 2 ** 40, -(2 ** 40), Infinity]) expect(lk.get(odd)).toBeUndefined();
  });

  it('code look-up finds every row of a code, dots and case aside, and no other code', () => {
    const codes: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      const base = `${pick(['I', 'E', 'S', '0', 'Z'])}${Math.floor(rand() * 3000)}`;
      codes.push(rand() < 0.3 ? `${base.slice(0, 3)}.${base.slice(3)}` : rand() < 0.1 ? base.toLowerCase() : base);
    }
    const b = new StrColBuilder();
    for (const c of codes) b.push(c);
    const lk = CodeLookup.build(b.done());
    const expected = new Map<string, number[]>();
    codes.forEach((c, i) => (expected.get(codeKeyOf(c)) ?? expected.set(codeKeyOf(c), []).get(codeKeyOf(c))!).push(i));
    for (const [key, rows] of expected) expect(lk.get(key)).toEqual(rows);
    expect(lk.get('NOT-A-CODE')).toBeUndefined();
  });

  it('a dictionary column keeps its values', () => {
    const values = Array.from({ length: 3000 }, () => pick(['Clinical Finding', '3-char billing code', '', 'Ingredient', 'ICD10PCS Hierarchy']));
    const b = new DictColBuilder();
    for (const v of values) b.push(v);
    const col = b.done();
    expect(col.values.length).toBeLessThanOrEqual(5);
    for (let i = 0; i < values.length; i++) expect(col.get(i)).toBe(values[i]);
  });
});
