import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { appRouter } from './root';
import { listProcedures } from './procedures';
import { authed, router } from './trpc';

/**
 * `listProcedures` is the only reader of tRPC's and zod's internals. These tests pin what it reads, so a library
 * upgrade that moves them fails here instead of silently losing REST routes or typed query parameters.
 */
describe('listProcedures (tRPC and zod internals behind one function)', () => {
  it('reads path, type, meta and the input object fields of a router built here', () => {
    const auth = { jwt: false } as const;
    const r = router({
      plain: authed(auth, { method: 'GET', path: '/t/plain' })
        .input(z.object({ a: z.string(), n: z.coerce.number() }))
        .query(() => 1),
      strict: authed(auth)
        .input(z.strictObject({ b: z.boolean() }))
        .mutation(() => 2),
      optional: authed(auth)
        .input(z.object({ c: z.string() }).optional())
        .query(() => 3),
      noInput: authed({ userOnly: true }).query(() => 4),
      nested: router({
        deep: authed(auth)
          .input(z.string())
          .query(() => 5),
      }),
    });
    const byPath = Object.fromEntries(listProcedures(r).map((p) => [p.path, p]));
    expect(Object.keys(byPath).sort()).toEqual(['nested.deep', 'noInput', 'optional', 'plain', 'strict']);
    expect(byPath.plain!.type).toBe('query');
    expect(byPath.strict!.type).toBe('mutation');
    expect(byPath.plain!.meta?.openapi?.path).toBe('/t/plain');
    expect(byPath.plain!.meta?.auth).toEqual(auth);
    expect(byPath.noInput!.meta?.auth).toEqual({ userOnly: true });
    expect(Object.keys(byPath.plain!.inputShape ?? {})).toEqual(['a', 'n']);
    expect(byPath.plain!.inputShape!.n!.parse('7')).toBe(7); // the field schemas themselves, usable to type query strings
    expect(Object.keys(byPath.strict!.inputShape ?? {})).toEqual(['b']);
    expect(Object.keys(byPath.optional!.inputShape ?? {})).toEqual(['c']);
    expect(byPath.noInput!.inputShape).toBeUndefined();
    expect(byPath['nested.deep']!.inputShape).toBeUndefined();
  });

  it('finds every REST procedure of the app router with its auth rule and, for object inputs, its fields', () => {
    const all = listProcedures(appRouter);
    const rest = all.filter((p) => p.meta?.openapi);
    expect(rest.length).toBeGreaterThanOrEqual(17);
    for (const p of all) expect(p.meta?.auth, p.path).toBeDefined();
    const classify = all.find((p) => p.path === 'drg.classify');
    expect(classify?.meta?.openapi).toMatchObject({ method: 'POST', path: '/drg/classify' });
    expect(Object.keys(classify?.inputShape ?? {})).toEqual(expect.arrayContaining(['dx_codes', 'pr_codes', 'gender', 'is_alive', 'version']));
    const codes = all.find((p) => p.path === 'drg.codes');
    expect(codes?.inputShape?.limit).toBeDefined();
  });

  it('says so when the router internals are not where it looks', () => {
    expect(() => listProcedures({ _def: {} } as unknown as typeof appRouter)).toThrow(/tRPC internals changed/);
    expect(() => listProcedures({ _def: { procedures: { x: { _def: {} } } } } as unknown as typeof appRouter)).toThrow(/tRPC internals changed/);
  });
});

describe('auth rules are required by the types', () => {
  it('a procedure cannot be built without its rule (checked by tsc; these lines are never called)', () => {
    const attempts = [
      // @ts-expect-error no auth rule
      () => authed(),
      // @ts-expect-error an empty rule: a credential rule must say whether access tokens are accepted (jwt)
      () => authed({}),
      // @ts-expect-error signed-in users only and a key scope are exclusive
      () => authed({ userOnly: true, scope: 'search', jwt: true }),
      // @ts-expect-error not a scope
      () => authed({ scope: 'everything', jwt: false }),
    ];
    expect(attempts).toHaveLength(4);
    // the rules that do type-check are the ones the routers use
    expect(authed({ scope: 'search', jwt: true })).toBeDefined();
    expect(authed({ userOnly: true, role: 'admin' })).toBeDefined();
  });
});
