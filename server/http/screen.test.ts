import { describe, expect, it } from 'vitest';
import { InputRejectedError, MAX_INPUT_DEPTH, screenInput } from './screen';
import { isApiPath } from './paths';

describe('screenInput', () => {
  const refused = (v: unknown) => {
    try {
      screenInput(v);
      return null;
    } catch (err) {
      expect(err).toBeInstanceOf(InputRejectedError);
      expect((err as InputRejectedError).status).toBe(400);
      expect((err as InputRejectedError).type).toBe('invalid_request');
      return (err as Error).message;
    }
  };

  it('accepts ordinary values, paired surrogates (emoji) and nesting up to the limit', () => {
    expect(refused({ a: ['x', 1, true, null, { b: 'Ahmad 😀 — ü' }] })).toBeNull();
    let v: unknown = 'leaf';
    for (let i = 0; i < MAX_INPUT_DEPTH; i++) v = [v];
    expect(refused(v)).toBeNull();
  });

  it('refuses NUL and lone surrogates in values and keys, naming the field but never a caller key', () => {
    expect(refused({ cases: [{ case_ref: 'a\u0000b' }] })).toBe('cases.0.case_ref: contains a NUL character (U+0000), which is not accepted.');
    expect(refused({ model: '\ud800' })).toMatch(/^model: contains an unpaired surrogate/);
    expect(refused({ x: 'a\udc00' })).toMatch(/^x: contains an unpaired surrogate/);
    expect(refused({ prior_mapping: { 'Ahmad bin Ali': 'a\u0000' } })).toMatch(/^prior_mapping: contains a NUL/); // the key is caller data
    expect(refused({ 'k\u0000': 1 })).toMatch(/^body: a key contains a NUL/);
    expect(refused('\u0000')).toMatch(/^body: /);
  });

  it('refuses nesting past the limit without recursing (100,000 levels)', () => {
    let v: unknown = {};
    for (let i = 0; i < 100_000; i++) v = { x: v };
    expect(refused(v)).toMatch(new RegExp(`^x\\.x\\..*nested more than ${MAX_INPUT_DEPTH} levels deep`));
    let a: unknown = [];
    for (let i = 0; i <= MAX_INPUT_DEPTH; i++) a = [a];
    expect(refused(a)).toMatch(/nested more than/);
  });
});

describe('isApiPath', () => {
  it('sends every /api path (any case) but next-auth to the API door', () => {
    for (const p of ['/api/v1/health', '/api/v2/x', '/API/V1/health', '/Api/trpc/x', '/api', '/api/', '/api/unknown', '/login', '/login/'])
      expect(isApiPath(p), p).toBe(true);
    for (const p of ['/api/auth/session', '/api/auth', '/signin', '/', '/apiary', '/docs', '/_next/static/x.js']) expect(isApiPath(p), p).toBe(false);
  });
});
