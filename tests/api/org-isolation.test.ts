import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestOrg, sessionCookie, startBackend, userIdOf, type TestBackend, type TestOrg } from '../helpers/backend';

/**
 * Organisation scope: organisation B cannot see or touch organisation A's keys, batch jobs, redaction receipts or
 * uploads. Each answers 404 — never 403 — so existence does not leak.
 */
let be: TestBackend;
let a: TestOrg;
let b: TestOrg;
beforeAll(async () => {
  be = await startBackend();
  a = await createTestOrg(be.db);
  b = await createTestOrg(be.db);
});
afterAll(async () => {
  await be?.close();
});

async function session(o: TestOrg): Promise<string> {
  return sessionCookie(await userIdOf(be.db, o.email));
}

/** Call a UI (tRPC) mutation the way the browser does, with the next-auth session cookie. */
async function trpcMutation(path: string, input: unknown, cookie: string) {
  const res = await fetch(`${be.baseUrl}/api/trpc/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify(input),
  });
  return { status: res.status, body: (await res.json()) as { error?: { data?: { httpStatus?: number; app?: { error: string } } } } };
}

describe(`organisation isolation on ${process.env.TEST_DB ?? 'postgres'}`, () => {
  it("B cannot list or revoke A's keys (404)", async () => {
    const sb = await session(b);
    const revoke = await trpcMutation('account.revokeKey', { id: a.keyId }, sb);
    expect(revoke.status).toBe(404);
    expect(revoke.body.error?.data?.app?.error).toBe('not_found');
    const listed = await fetch(`${be.baseUrl}/api/trpc/account.listKeys`, { headers: { cookie: sb } });
    const keys = ((await listed.json()) as { result: { data: Array<{ id: string }> } }).result.data;
    expect(keys.map((k) => k.id)).not.toContain(a.keyId);
    // A's key still works: nothing was revoked.
    expect((await api(be.baseUrl, 'GET', '/api/v1/auth/whoami', { key: a.key })).status).toBe(200);
  });

  it("B cannot read A's batch job (404)", async () => {
    const submit = await api(be.baseUrl, 'POST', '/api/v1/drg/batch/', {
      key: a.key,
      headers: { 'idempotency-key': `iso-${Date.now()}` },
      body: { cases: [{ case_ref: 'c1', dx_codes: ['I214'], pr_codes: [], gender: 'M', is_alive: true }] },
    });
    expect(submit.status).toBe(201);
    const jobId = submit.body.job_id as string;
    expect((await api(be.baseUrl, 'GET', `/api/v1/drg/batch/${jobId}/`, { key: a.key })).status).toBe(200);
    const other = await api(be.baseUrl, 'GET', `/api/v1/drg/batch/${jobId}/`, { key: b.key });
    expect(other.status).toBe(404);
  });

  it("B cannot read A's redaction receipt (404)", async () => {
    const r = await api(be.baseUrl, 'POST', '/api/v1/redact/', { key: a.key, body: { text: 'Pesakit Ahmad bin Ali, IC 850101-14-5677.' } });
    expect(r.status).toBe(200);
    const id = r.body.redaction_receipt.receipt_id as string;
    expect((await api(be.baseUrl, 'GET', `/api/v1/redact/receipts/${id}`, { key: a.key })).status).toBe(200);
    const other = await api(be.baseUrl, 'GET', `/api/v1/redact/receipts/${id}`, { key: b.key });
    expect(other.status).toBe(404);
    const list = await api(be.baseUrl, 'GET', '/api/v1/redact/receipts/', { key: b.key });
    expect(list.body.receipts.map((x: { id?: string; receipt_id?: string }) => x.id ?? x.receipt_id)).not.toContain(id);
  });

  it("B cannot read A's upload (404)", async () => {
    const p = await api(be.baseUrl, 'POST', '/api/v1/upload/presigned-url', { key: a.key, body: { filename: 'a.csv' } });
    expect(p.status).toBe(201);
    expect((await api(be.baseUrl, 'GET', `/api/v1/upload/${p.body.file_id}`, { key: a.key })).status).toBe(200);
    const other = await api(be.baseUrl, 'GET', `/api/v1/upload/${p.body.file_id}`, { key: b.key });
    expect(other.status).toBe(404);
  });
});

describe(`account administration on ${process.env.TEST_DB ?? 'postgres'}`, () => {
  it('a spend-cap change from the UI is audited', async () => {
    const cookie = await sessionCookie(await userIdOf(be.db, a.email));
    const res = await fetch(`${be.baseUrl}/api/trpc/account.setSpendCap`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ cap_usd: 123.45 }),
    });
    expect(res.status).toBe(200);
    const rows = await be.db.query<{ action: string; actor: string; details: unknown }>(
      `SELECT action, actor, details FROM audit_log WHERE org_id = $1 AND action = 'org.set_cap'`,
      [a.orgId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.actor).toBe(`user:${a.email}`);
    const caps = await be.db.query<{ cap: string }>('SELECT spend_cap_micros::text AS cap FROM organizations WHERE id = $1', [a.orgId]);
    expect(Number(caps[0]!.cap)).toBe(123_450_000);
  });

  it('organisation names are unique regardless of case, also when created concurrently', async () => {
    const { createOrganization } = await import('@/server/auth/accounts');
    const name = `Case Test ${Date.now()}`;
    const results = await Promise.allSettled([
      createOrganization(be.db, name),
      createOrganization(be.db, name.toUpperCase()),
      createOrganization(be.db, name.toLowerCase()),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ status: 409, type: 'organization_exists' });
  });
});
