import { describe, expect, it } from 'vitest';
import { compileFormula, evaluateFormula, FormulaSyntaxError, formulaOperands, parseFormula, returnCodeMarker, type FormulaNode } from './formula';

describe('formula parser', () => {
  it('gives ~ over & over | precedence', () => {
    expect(parseFormula('a | b & ~c')).toEqual({
      kind: 'or',
      items: [
        { kind: 'operand', prefix: '', name: 'a' },
        {
          kind: 'and',
          items: [
            { kind: 'operand', prefix: '', name: 'b' },
            { kind: 'not', item: { kind: 'operand', prefix: '', name: 'c' } },
          ],
        },
      ],
    });
  });

  it('reads prefixes and ignores whitespace', () => {
    const n = parseFormula('  (PDX:hemorrhage&SDX:x)|ANY:ami |ONLY:incident ');
    expect([...formulaOperands(n)].sort()).toEqual(['ANY:ami', 'ONLY:incident', 'PDX:hemorrhage', 'SDX:x']);
  });

  it('maps the v39.1 control-token dialect to the v40 names', () => {
    expect(formulaOperands(parseFormula('SDX:mccalive & PT:invalid_dstat'))).toEqual(new Set(['SDX:mccalive', 'INVALID_DSTAT']));
    expect(formulaOperands(parseFormula('PT:invalid_pdx | PT:pdx_ecode | PT:invalid_sex'))).toEqual(new Set(['INVALID_PDX', 'PDX_ECODE', 'INVALID_SEX']));
  });

  it('recognises v39.1 return-code marker rows', () => {
    expect(returnCodeMarker('xpt grc 7')).toBe(7);
    expect(returnCodeMarker('ANYDX')).toBeNull();
  });

  it('rejects malformed formulas', () => {
    expect(() => parseFormula('(a & b')).toThrow(FormulaSyntaxError);
    expect(() => parseFormula('a &')).toThrow(FormulaSyntaxError);
    expect(() => parseFormula('a b')).toThrow(FormulaSyntaxError);
    expect(() => parseFormula('')).toThrow(FormulaSyntaxError);
  });
});

describe('formula compiler', () => {
  const names = ['a', 'b', 'c', 'hem', 'MCC_X'];
  const ids = new Map(names.map((n, i) => [n, i]));
  const resolver = { id: (n: string) => ids.get(n) ?? -1, isSynthetic: (n: string) => n === 'c' };
  const P = new Int32Array(8);
  const S = new Int32Array(8);
  const B = new Int32Array(8);
  const U = new Int32Array(8);

  it('matches direct evaluation on every mask (random formulas)', () => {
    let seed = 7;
    const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;
    const gen = (d: number): string => {
      const k = d > 3 ? 3 : rnd(5);
      if (k === 0 && d < 3) return `(${gen(d + 1)} | ${gen(d + 1)})`;
      if (k === 1 && d < 3) return `(${gen(d + 1)} & ${gen(d + 1)})`;
      if (k === 2 && d < 3) return `~${gen(d + 1)}`;
      return ['a', 'PDX:b', 'SDX:hem', 'ANY:hem', 'c', 'MCC', 'CC', 'zzz'][rnd(8)];
    };
    for (let f = 0; f < 200; f++) {
      const src = gen(0);
      const ast = parseFormula(src);
      const pred = compileFormula(ast, resolver, 5);
      for (let mask = 0; mask < 64; mask++) {
        const g = f * 64 + mask + 1;
        P[ids.get('b')!] = mask & 1 ? g : 0;
        S[ids.get('hem')!] = mask & 2 ? g : 0;
        P[ids.get('hem')!] = mask & 4 ? g : 0;
        B[ids.get('a')!] = mask & 8 ? g : 0;
        B[ids.get('c')!] = mask & 16 ? g : 0;
        U[ids.get('a')!] = 0;
        const v = (mask + f) % 3;
        const has = (prefix: string, name: string) => {
          if (prefix === '' && name === 'MCC') return v === 2;
          if (prefix === '' && name === 'CC') return v === 1;
          const id = ids.get(name);
          if (id === undefined) return false;
          if (prefix === 'PDX') return P[id] === g;
          if (prefix === 'SDX') return S[id] === g;
          if (prefix === 'ANY') return P[id] === g || S[id] === g;
          return B[id] === g;
        };
        expect(pred(P, S, B, U, g, v), `${src} mask ${mask}`).toBe(evaluateFormula(ast as FormulaNode, has));
      }
    }
  });

  it('drops cluster-suppressed procedure attributes only in the suppressed MDC', () => {
    const g = 1000;
    B[ids.get('a')!] = g;
    U[ids.get('a')!] = 1 << 6; // every procedure with `a` is suppressed in MDC 6
    expect(compileFormula(parseFormula('a'), resolver, 6)(P, S, B, U, g, 0)).toBe(false);
    expect(compileFormula(parseFormula('a'), resolver, 5)(P, S, B, U, g, 0)).toBe(true);
    // grouper flags are never suppressed
    B[ids.get('c')!] = g;
    U[ids.get('c')!] = 1 << 6;
    expect(compileFormula(parseFormula('c'), resolver, 6)(P, S, B, U, g, 0)).toBe(true);
  });

  it('treats names no code can carry as false', () => {
    expect(compileFormula(parseFormula('MDC05'), resolver, 5)(P, S, B, U, 1, 0)).toBe(false);
    expect(compileFormula(parseFormula('~MDC05'), resolver, 5)(P, S, B, U, 1, 0)).toBe(true);
  });
});
