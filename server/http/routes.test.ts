import { describe, expect, it, vi } from 'vitest';

// The chat gateway's routes are another domain's; a stand-in keeps this test about the matching.
vi.mock('../gateway/routes', () => ({
  gatewayRoutes: [{ method: 'GET', pattern: /^\/api\/v1\/gateway\/thing$/, handle: async () => new Response('ok') }],
}));
const { matchCustomRoute, MethodNotAllowedError, customRoutes } = await import('./routes');
const { checkOperationOutcome } = await import('../fhir/structure');

const FHIR = '/api/v1/fhir/drg/$classify';

describe('custom route matching and 405s', () => {
  it('finds the route for its method, and for another method the allowed ones plus the route’s own 405 hook', async () => {
    const post = matchCustomRoute('POST', FHIR);
    expect(post?.route?.method).toBe('POST');
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'PROPFIND']) {
      const m = matchCustomRoute(method, FHIR);
      expect(m?.route, method).toBeUndefined();
      if (!m || m.route) throw new Error('expected a 405 match');
      expect(m.allow).toEqual(['POST']);
      const res = await m.methodNotAllowed!({ req: new Request(`http://x${FHIR}`, { method: method === 'PROPFIND' ? 'PROPFIND' : method }), url: new URL(`http://x${FHIR}`), requestId: 'r1', allow: m.allow });
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
    expect(customRoutes.filter((r) => r.pattern.test(FHIR)).map((r) => r.method)).toEqual(['POST']); // no per-method stubs
  });

  it('MethodNotAllowedError carries the Allow header, without duplicates', () => {
    const e = new MethodNotAllowedError(['POST', 'GET', 'POST']);
    expect(e.status).toBe(405);
    expect(e.type).toBe('method_not_allowed');
    expect(e.message).toBe('Use POST or GET for this endpoint.');
    expect(e.headers()).toEqual({ allow: 'POST, GET' });
  });
});
