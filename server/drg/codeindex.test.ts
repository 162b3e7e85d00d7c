import { describe, expect, it } from 'vitest';
import { buildCodeTable, CodeIndex, normalizeCode, strictCode } from './codeindex';

describe('code index', () => {
  // 100,000 distinct codes: positions use every bit the slot layout keeps for them
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  const codes: string[] = [];
  for (let i = 0; codes.length < 100_000; i++) {
    let s = '';
    let x = i * 7919 + 13;
    for (let k = 0; k < 3 + (i % 5); k++) {
      s += alphabet[x % 36];
      x = Math.floor(x / 36) + k * 31;
    }
    codes.push(s);
  }
  const unique = [...new Set(codes)];
  const index = new CodeIndex(buildCodeTable(unique), unique);

  it('finds every code at its position, and nothing else', () => {
    unique.forEach((c, i) => expect(index.indexOf(c)).toBe(i));
    expect(index.indexOf('ZZZZZZZZ')).toBe(-1);
    expect(index.indexOf('')).toBe(-1);
  });

  it('reads codes strictly (upper-cased only) or leniently (trimmed, dots dropped), as the string spellings do', () => {
    const probe = ['i21.4', ' I214', 'I214 ', 'i214', 'I2 14', 'I214\t', '\u0131214', 'I21.4.', '.I214', 'I214XXXX', 12, null];
    const idx = new CodeIndex(buildCodeTable(['I214', '1214']), ['I214', '1214']);
    for (const raw of probe) {
      for (const lenient of [false, true]) {
        const spelled = lenient ? normalizeCode(raw) : strictCode(raw);
        expect(idx.lookup(raw, lenient), `${JSON.stringify(raw)} ${lenient ? 'lenient' : 'strict'}`).toBe(idx.indexOf(spelled));
      }
    }
    expect(idx.lookup('i21.4 ', true)).toBe(0);
    expect(idx.lookup('i21.4', false)).toBe(-1);
    expect(idx.lookup('\u0131214', true)).toBe(0); // leniently, dotless ı upper-cases to I, as String.toUpperCase does
  });
});
