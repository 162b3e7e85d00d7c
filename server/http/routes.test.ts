import { describe, expect, it } from 'vitest';
import { appRouter } from '../api/root';
import { listProcedures } from '../api/procedures';
import { REST_PREFIX } from '../api/trpc';
import { docPath, fullPath, matchRoute, MethodNotAllowedError, routeMethods, routePattern, type CustomRoute } from './route';
import { customRoutes, matchCustomRoute } from './routes';
import { checkOperationOutcome } from '@/tests/fixtures/fhir/structure';

const FHIR = '/api/v1/fhir/drg/$classify';

describe('custom route matching and 405s', () => {
  it('finds the route for its method, and for another method the allowed ones plus the route’s own 405 hook', async () => {
    const post = matchCustomRoute('POST', FHIR);
    expect(post?.route && routeMethods(post.route)).toEqual(['POST']);
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'PROPFIND']) {
      const m = matchCustomRoute(method, FHIR);
      expect(m?.route, method).toBeUndefined();
      if (!m || m.route) throw new Error('expected a 405 match');
      expect(m.allow).toEqual(['POST']);
      const res = await m.methodNotAllowed!({
        req: new Request(`http://x${FHIR}`, { method: method === 'PROPFIND' ? 'PROPFIND' : method }),
        url: new URL(`http://x${FHIR}`),
        requestId: 'r1',
        allow: m.allow,
      });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(res.headers.get('content-type')).toMatch(/^application\/fhir\+json/);
      const body = (await res.json()) as { issue: Array<{ diagnostics: string }> };
      expect(checkOperationOutcome(body)).toEqual([]);
      expect(body.issue[0]!.diagnostics).toBe(`${method} is not supported here; use POST for $classify.`);
    }
    // A route without a hook: the door's JSON 405, which names the methods in an Allow header.
    const upload = matchCustomRoute('POST', '/api/v1/upload/blob/abc');
    expect(upload && !upload.route ? { allow: upload.allow, hook: upload.methodNotAllowed } : null).toEqual({ allow: ['PUT'], hook: undefined });
    expect(matchCustomRoute('GET', '/api/v1/nothing-here')).toBeNull();
    expect(customRoutes.filter((r) => routePattern(r).test(FHIR)).flatMap((r) => routeMethods(r))).toEqual(['POST']); // no per-method stubs
  });

  it('compiles each path template once: segments, rest-of-path, $ as %24, letter case only where asked', () => {
    const routes: CustomRoute[] = [
      { method: 'GET', path: '/things/{id}', auth: { jwt: false }, handle: () => new Response('one') },
      { method: 'GET', path: '/files/{key+}', auth: { scope: 'search', jwt: true }, handle: () => new Response('rest') },
      { method: 'POST', path: '/op/$run', ignoreCase: true, auth: { userOnly: true }, handle: () => new Response('op') },
      { method: ['GET', 'HEAD'], path: '//outside', auth: 'none', database: false, handle: () => new Response('abs') },
    ];
    const params = (method: string, path: string) => {
      const m = matchRoute(routes, method, path);
      return m?.route ? m.params : null;
    };
    expect(params('GET', '/api/v1/things/a%2Fb')).toEqual({ id: 'a%2Fb' });
    expect(params('GET', '/api/v1/things/a/b')).toBeNull();
    expect(params('GET', '/api/v1/files/a/b/c.csv')).toEqual({ key: 'a/b/c.csv' });
    expect(params('POST', '/api/v1/op/$run')).toEqual({});
    expect(params('POST', '/API/V1/OP/%24RUN')).toEqual({});
    expect(params('GET', '/API/V1/THINGS/x')).toBeNull(); // case-sensitive unless ignoreCase
    expect(params('HEAD', '/outside')).toEqual({});
    expect(params('GET', '/api/v1/outside')).toBeNull();
    expect(fullPath(routes[3]!)).toBe('/outside');
    expect(docPath(routes[1]!)).toBe('/files/{key}');
    expect(docPath(routes[3]!)).toBe('/outside');
    const wrongMethod = matchRoute(routes, 'DELETE', '/outside');
    expect(wrongMethod && !wrongMethod.route ? wrongMethod.allow : null).toEqual(['GET', 'HEAD']);
  });

  it('declares each path once: no two custom routes and no custom route and procedure share a method and path', () => {
    const seen = new Map<string, string>();
    const key = (method: string, path: string) => `${method.toUpperCase()} ${path.toLowerCase().replace(/\{\w+\+?\}/g, '{}')}`;
    for (const r of customRoutes) {
      for (const m of routeMethods(r)) {
        const k = key(m, fullPath(r));
        expect(seen.get(k), k).toBeUndefined();
        seen.set(k, 'custom route');
      }
    }
    for (const p of listProcedures(appRouter)) {
      if (!p.meta?.openapi) continue;
      const k = key(p.meta.openapi.method, `${REST_PREFIX}${p.meta.openapi.path.replace(/\/$/, '')}`);
      expect(seen.get(k), `${k} (${p.path})`).toBeUndefined();
      seen.set(k, p.path);
    }
    expect(seen.size).toBeGreaterThanOrEqual(26);
    // the paths the door used to hard-code are table entries now
    for (const [m, p] of [
      ['GET', '/api/v1/health'],
      ['HEAD', '/api/v1/health'],
      ['GET', '/api/v1/openapi.json'],
      ['POST', '/login'],
    ] as const) {
      expect(matchCustomRoute(m, p)?.route, `${m} ${p}`).toBeDefined();
    }
  });

  it('every route declares who may call it: a rule in the table, or none (checked by tsc, and here)', () => {
    // @ts-expect-error a route without an auth field does not type-check
    const forgotten: CustomRoute = { method: 'GET', path: '/x', handle: () => new Response('x') };
    // @ts-expect-error nor does one whose rule is empty
    const empty: CustomRoute = { method: 'GET', path: '/x', auth: {}, handle: () => new Response('x') };
    expect([forgotten, empty]).toHaveLength(2);
    const rules = Object.fromEntries(customRoutes.map((r) => [`${routeMethods(r).join('|')} ${r.path}`, r.auth]));
    expect(rules).toEqual({
      'GET|HEAD /health': 'none',
      'GET /openapi.json': 'none',
      'POST //login': 'none',
      'PUT /upload/blob/{file_id}': 'none',
      'POST /fhir/drg/$classify': { scope: 'drg:classify', jwt: false },
      'POST /llm/chat/completions': { scope: 'llm:chat', jwt: true },
      'GET /llm/models': { scope: 'llm:chat', jwt: true },
      'GET /llm/models/{model+}': { scope: 'llm:chat', jwt: true },
    });
  });

  it('MethodNotAllowedError carries the Allow header, without duplicates', () => {
    const e = new MethodNotAllowedError(['POST', 'GET', 'POST']);
    expect(e.status).toBe(405);
    expect(e.type).toBe('method_not_allowed');
    expect(e.message).toBe('Use POST or GET for this endpoint.');
    expect(e.headers()).toEqual({ allow: 'POST, GET' });
  });
});
