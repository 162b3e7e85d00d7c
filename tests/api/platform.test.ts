import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestOrg, sessionCookie, startBackend, userIdOf, type TestBackend, type TestOrg } from '../helpers/backend';
import { setLogSink } from '@/server/log';
import { resetEnvCache } from '@/server/env';

let be: TestBackend;
let orgA: TestOrg;
let orgB: TestOrg;
const logLines: string[] = [];

beforeAll(async () => {
  be = await startBackend();
  orgA = await createTestOrg(be.db);
  orgB = await createTestOrg(be.db);
  setLogSink((l) => logLines.push(l));
});
afterAll(async () => {
  await be?.close();
});

async function login(o: TestOrg): Promise<string> {
  const r = await api(be.baseUrl, 'POST', '/login/', { body: { email: o.email, password: o.password } });
  expect(r.status).toBe(200);
  expect(r.body.token_type).toBe('Bearer');
  expect(r.body.expires_in).toBeGreaterThan(0);
  return r.body.access_token as string;
}

describe(`platform on ${process.env.TEST_DB ?? 'postgres'}`, () => {
  it('health needs no auth and reports the database, queue and data sets', async () => {
    for (const p of ['/api/v1/health/', '/api/v1/health']) {
      const r = await api(be.baseUrl, 'GET', p);
      expect(r.status).toBe(200);
      expect(r.body.status).toBe('ok');
      expect(r.body.database.reachable).toBe(true);
      expect(r.body.database.backend).toBe(be.kind);
      expect(r.body).toHaveProperty('queue');
      const sets = Object.fromEntries((r.body.data_sets as Array<{ name: string; loaded: boolean; detail?: Record<string, unknown> }>).map((d) => [d.name, d]));
      expect(Object.keys(sets)).toEqual(expect.arrayContaining(['msdrg', 'redaction', 'vocabulary']));
      expect(sets.msdrg!.detail!.default).toBe('v40');
      expect(sets.redaction!.loaded).toBe(true);
      expect(typeof r.body.version).toBe('string');
    }
  });

  it('serves the OpenAPI document with scopes in descriptions', async () => {
    const r = await api(be.baseUrl, 'GET', '/api/v1/openapi.json');
    expect(r.status).toBe(200);
    expect(r.body.openapi).toMatch(/^3\./);
    expect(r.body.paths['/auth/whoami'].get.description).toMatch(/Bearer access token/);
    expect(r.body.paths['/health'].get.security).toEqual([]);
    expect(r.body.components.securitySchemes.ApiKeyHeader.name).toBe('X-API-Key');
  });

  describe('auth matrix', () => {
    it('no credentials → 401 missing_credentials', async () => {
      const r = await api(be.baseUrl, 'GET', '/api/v1/usage/');
      expect(r.status).toBe(401);
      expect(r.body).toMatchObject({ error: 'missing_credentials' });
      expect(typeof r.body.message).toBe('string');
    });

    it('malformed key → 401 invalid_api_key', async () => {
      const r = await api(be.baseUrl, 'GET', '/api/v1/usage/', { key: 'not-a-key' });
      expect(r.status).toBe(401);
      expect(r.body.error).toBe('invalid_api_key');
    });

    it('unknown key of the right shape → 401 invalid_api_key', async () => {
      const fake = orgA.key.slice(0, -6) + 'ZZZZZZ';
      const r = await api(be.baseUrl, 'GET', '/api/v1/usage/', { key: fake });
      expect(r.status).toBe(401);
      expect(r.body.error).toBe('invalid_api_key');
    });

    it('valid key works in X-API-Key and as Bearer', async () => {
      const a = await api(be.baseUrl, 'GET', '/api/v1/auth/whoami', { key: orgA.key });
      expect(a.status).toBe(200);
      expect(a.body.organization_id).toBe(orgA.orgId);
      expect(a.body.credential).toBe('api_key');
      const b = await api(be.baseUrl, 'GET', '/api/v1/usage', { bearer: orgA.key });
      expect(b.status).toBe(200);
      expect(b.body.production.at_cap).toBe(false);
    });

    it('JWT is accepted where allowed and refused with 401 on key-only endpoints', async () => {
      const token = await login(orgA);
      const ok = await api(be.baseUrl, 'GET', '/api/v1/auth/whoami/', { bearer: token });
      expect(ok.status).toBe(200);
      expect(ok.body.credential).toBe('access_token');
      expect(ok.body.user.email).toBe(orgA.email);
      const refused = await api(be.baseUrl, 'GET', '/api/v1/usage/', { bearer: token });
      expect(refused.status).toBe(401);
      expect(refused.body.error).toBe('api_key_required');
      expect(refused.body.message).toMatch(/API key/);
    });

    it('wrong password → 401, tampered JWT → 401', async () => {
      const bad = await api(be.baseUrl, 'POST', '/login', { body: { email: orgA.email, password: 'wrong-password' } });
      expect(bad.status).toBe(401);
      expect(bad.body.error).toBe('invalid_credentials');
      const token = await login(orgA);
      const tampered = token.slice(0, -3) + (token.endsWith('AAA') ? 'BBB' : 'AAA');
      const r = await api(be.baseUrl, 'GET', '/api/v1/auth/whoami', { bearer: tampered });
      expect(r.status).toBe(401);
      expect(r.body.error).toBe('invalid_token');
    });

    it('wrong scope → 403 naming the scopes held (over HTTP)', async () => {
      const { createApiKey } = await import('@/server/auth/keys');
      const org = await createTestOrg(be.db, { scopes: ['redact', 'search'] });
      const r = await api(be.baseUrl, 'POST', '/api/v1/drg/classify/', {
        key: org.key,
        body: { dx_codes: ['I214'], gender: 'M', is_alive: true },
      });
      expect(r.status).toBe(403);
      expect(r.body.error).toBe('insufficient_scope');
      expect(r.body.scopes_held).toEqual(['redact', 'search']);
      expect(r.body.message).toMatch(/redact, search/);
      const who = await api(be.baseUrl, 'GET', '/api/v1/auth/whoami', { key: org.key });
      expect(who.body.scopes).toEqual(['redact', 'search']);
      // A key with the scope passes the same call.
      const full = await createApiKey(be.db, { orgId: org.orgId, scopes: ['drg:classify'], actor: 'test' });
      const ok = await api(be.baseUrl, 'POST', '/api/v1/drg/classify/', { key: full.key, body: { dx_codes: ['I214'], gender: 'M', is_alive: true } });
      expect(ok.status).toBe(200);
    });

    it('account administration needs the UI session: an access token cannot mint keys; a session cookie is ignored on /api/v1', async () => {
      const token = await login(orgB);
      const viaToken = await fetch(`${be.baseUrl}/api/trpc/account.createKey`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ scopes: [] }),
      });
      expect(viaToken.status).toBe(401);
      expect(((await viaToken.json()) as { error: { data: { app: { error: string } } } }).error.data.app.error).toBe('session_required');
      const cookie = await sessionCookie(await userIdOf(be.db, orgB.email));
      const viaSession = await fetch(`${be.baseUrl}/api/trpc/account.listKeys`, { headers: { cookie } });
      expect(viaSession.status).toBe(200);
      // The same cookie on the REST door is not a credential (no cross-site request can act with it).
      const rest = await api(be.baseUrl, 'GET', '/api/v1/auth/whoami', { headers: { cookie } });
      expect(rest.status).toBe(401);
      expect(rest.body.error).toBe('missing_credentials');
    });

    it('failed sign-ins are throttled on /login/ and on the UI sign-in path alike', async () => {
      const { signIn, resetSignInThrottle } = await import('@/server/auth/signin');
      const org = await createTestOrg(be.db);
      try {
        for (let i = 0; i < 10; i++) {
          const r = await api(be.baseUrl, 'POST', '/login/', { body: { email: org.email, password: `wrong-${i}` } });
          expect(r.status).toBe(401);
        }
        const blocked = await api(be.baseUrl, 'POST', '/login/', { body: { email: org.email, password: org.password } });
        expect(blocked.status).toBe(429);
        expect(blocked.body.error).toBe('too_many_attempts');
        // next-auth's authorize() calls the same signIn(): it is blocked too, even with the right password.
        await expect(signIn(be.db, org.email, org.password)).rejects.toMatchObject({ status: 429 });
      } finally {
        resetSignInThrottle();
      }
      const after = await api(be.baseUrl, 'POST', '/login/', { body: { email: org.email, password: org.password } });
      expect(after.status).toBe(200);
    });

    it('revocation applies on the very next request and is audit-logged', async () => {
      const { createApiKey, revokeApiKey } = await import('@/server/auth/keys');
      const { listAudit } = await import('@/server/auth/audit');
      const extra = await createApiKey(be.db, { orgId: orgA.orgId, actor: 'test' });
      expect((await api(be.baseUrl, 'GET', '/api/v1/usage', { key: extra.key })).status).toBe(200);
      await revokeApiKey(be.db, orgA.orgId, extra.view.id, 'user:admin@example.test');
      const r = await api(be.baseUrl, 'GET', '/api/v1/usage', { key: extra.key });
      expect(r.status).toBe(401);
      expect(r.body.error).toBe('key_revoked');
      const audit = await listAudit(be.db, orgA.orgId);
      const entry = audit.find((e) => e.action === 'key.revoke' && e.target_id === extra.view.id);
      expect(entry?.actor).toBe('user:admin@example.test');
      expect(entry?.created_at).toBeTruthy();
    });

    it('expired key → 401 key_expired', async () => {
      const { createApiKey, revokeApiKey } = await import('@/server/auth/keys');
      const k = await createApiKey(be.db, { orgId: orgA.orgId, actor: 'test' });
      await be.db.query(`UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1`, [k.view.id]);
      const r = await api(be.baseUrl, 'GET', '/api/v1/usage', { key: k.key });
      expect(r.status).toBe(401);
      expect(r.body.error).toBe('key_expired');
      await revokeApiKey(be.db, orgA.orgId, k.view.id, 'test');
    });

    it('a third active key → 409 until one is revoked', async () => {
      const { createApiKey, revokeApiKey } = await import('@/server/auth/keys');
      const org = await createTestOrg(be.db); // has one key
      const second = await createApiKey(be.db, { orgId: org.orgId, actor: 'test' });
      await expect(createApiKey(be.db, { orgId: org.orgId, actor: 'test' })).rejects.toMatchObject({ status: 409, type: 'too_many_active_keys' });
      await revokeApiKey(be.db, org.orgId, second.view.id, 'test');
      const third = await createApiKey(be.db, { orgId: org.orgId, actor: 'test' });
      expect(third.key).toMatch(/^cg_live_[0-9A-Za-z]{32}$/);
    });

    it('keys are stored only as a hash and a lookup id', async () => {
      const rows = await be.db.query<Record<string, unknown>>('SELECT * FROM api_keys WHERE org_id = $1', [orgA.orgId]);
      const dump = JSON.stringify(rows);
      expect(dump).not.toContain(orgA.key);
      expect(dump).not.toContain(orgA.key.slice(8)); // the random part
    });

    it("organisation B cannot see A's keys (404, not 403)", async () => {
      const { revokeApiKey } = await import('@/server/auth/keys');
      await expect(revokeApiKey(be.db, orgB.orgId, orgA.keyId, 'test')).rejects.toMatchObject({ status: 404 });
    });
  });

  describe('errors', () => {
    it('unknown path → 404 JSON', async () => {
      const r = await api(be.baseUrl, 'GET', '/api/v1/nothing-here', { key: orgA.key });
      expect(r.status).toBe(404);
      expect(r.body).toMatchObject({ error: 'not_found' });
    });

    it('bad JSON → 400 invalid_json; wrong content type → 415', async () => {
      const r = await api(be.baseUrl, 'POST', '/login/', { raw: '{"email":', headers: { 'content-type': 'application/json' } });
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('invalid_json');
      const t = await api(be.baseUrl, 'POST', '/login/', { raw: 'email=x', headers: { 'content-type': 'text/plain' } });
      expect(t.status).toBe(415);
    });

    it('validation failure names the field', async () => {
      const r = await api(be.baseUrl, 'POST', '/login/', { body: { email: 'a@b.c', password: 'x', extra: 1 } });
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('invalid_request');
      expect(r.body.message).toMatch(/extra/);
    });

    it('oversized body → 413', async () => {
      const big = 'x'.repeat(5 * 1024 * 1024);
      const r = await api(be.baseUrl, 'POST', '/api/v1/auth/whoami', { key: orgA.key, raw: big, headers: { 'content-type': 'application/json' } });
      expect(r.status).toBe(413);
      expect(r.body.error).toBe('payload_too_large');
      const login = await api(be.baseUrl, 'POST', '/login/', {
        raw: JSON.stringify({ email: 'a'.repeat(40_000) }),
        headers: { 'content-type': 'application/json' },
      });
      expect(login.status).toBe(413);
    });

    it('wrong method → 405 JSON', async () => {
      const r = await api(be.baseUrl, 'DELETE', '/api/v1/health');
      expect(r.status).toBe(405);
      expect(r.body.error).toBe('method_not_allowed');
    });

    it('logs carry request ids and never the key', async () => {
      process.env.LOG_LEVEL = 'info';
      resetEnvCache();
      await api(be.baseUrl, 'GET', '/api/v1/usage', { key: orgA.key, headers: { 'x-request-id': 'test-req-12345' } });
      const line = logLines.find((l) => l.includes('test-req-12345'));
      expect(line).toBeTruthy();
      expect(logLines.join('\n')).not.toContain(orgA.key);
      process.env.LOG_LEVEL = 'warn';
      resetEnvCache();
    });
  });
});
