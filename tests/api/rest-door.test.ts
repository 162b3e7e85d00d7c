import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestOrg, startBackend, type TestBackend, type TestOrg } from '../helpers/backend';

/** The REST door passes JSON bodies as sent (no coercion), and types query/path parameters from the schema. */
let be: TestBackend;
let org: TestOrg;
beforeAll(async () => {
  be = await startBackend();
  org = await createTestOrg(be.db);
});
afterAll(async () => {
  await be?.close();
});

describe(`REST door on ${process.env.TEST_DB ?? 'postgres'}`, () => {
  const body = { dx_codes: ['I214', 'E1165'], pr_codes: ['02703DZ'], gender: 'M' };

  it('never coerces JSON values: "false" is not a boolean', async () => {
    for (const bad of ['false', 'true', 0, 1, null]) {
      const r = await api(be.baseUrl, 'POST', '/api/v1/drg/classify/', { key: org.key, body: { ...body, is_alive: bad } });
      expect(r.status, `is_alive=${JSON.stringify(bad)}`).toBe(400);
      expect(r.body.message).toMatch(/is_alive/);
    }
    const alive = await api(be.baseUrl, 'POST', '/api/v1/drg/classify/', { key: org.key, body: { ...body, is_alive: true } });
    const died = await api(be.baseUrl, 'POST', '/api/v1/drg/classify/', { key: org.key, body: { ...body, is_alive: false } });
    expect(alive.status).toBe(200);
    expect(died.status).toBe(200);
    expect(alive.body.input.is_alive).toBe(true);
    expect(died.body.input.is_alive).toBe(false);
  });

  it('types query parameters from the schema and ignores nothing silently', async () => {
    const r = await api(be.baseUrl, 'GET', '/api/v1/drg/codes/?q=I21&limit=3&version=v43', { key: org.key });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['query', 'results', 'version']);
    expect(r.body.version).toBe('v43'); // the string query parameter reached the procedure
    expect(r.body.query).toBe('I21');
    expect(r.body.results).toHaveLength(3); // limit=3 was read as the number 3
    expect(r.body.results[0]).toEqual({ code: 'I21', display: 'I21', kind: 'dx', title: expect.any(String), billable: false, valid: false });
    const bad = await api(be.baseUrl, 'GET', '/api/v1/drg/codes/?q=I21&limit=abc', { key: org.key });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/limit/);
  });

  it('path parameters reach the procedure (and another id is a 404)', async () => {
    const r = await api(be.baseUrl, 'GET', '/api/v1/upload/00000000-0000-4000-8000-000000000000/', { key: org.key });
    expect(r.status).toBe(404);
    expect(r.body.error).toBe('upload_not_found');
  });
});
