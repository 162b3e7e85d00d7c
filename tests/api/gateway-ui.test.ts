/**
 * The UI door of the gateway (tRPC, signed-in users): the Models page procedures (admins only for changes) and the
 * playground, which runs the same core as POST /llm/chat/completions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestOrg, sessionCookie, startBackend, userIdOf, type TestBackend, type TestOrg } from '../helpers/backend';
import { createUser } from '@/server/auth/accounts';
import { addModel } from '@/server/gateway/registry';
import { startTestUpstream, type TestUpstream } from '@/tests/fixtures/test-upstream';

let be: TestBackend;
let up: TestUpstream;
let org: TestOrg;
let adminToken: string;
let coderToken: string;

/** Sign in (checks the password) and return the UI's next-auth session cookie for that user. */
async function login(email: string, password: string): Promise<string> {
  const r = await api(be.baseUrl, 'POST', '/login/', { body: { email, password } });
  expect(r.status).toBe(200);
  return sessionCookie(await userIdOf(be.db, email));
}

async function trpc(proc: string, token: string, input?: unknown, method: 'GET' | 'POST' = 'POST') {
  const url = `${be.baseUrl}/api/trpc/${proc}${method === 'GET' && input !== undefined ? `?input=${encodeURIComponent(JSON.stringify(input))}` : ''}`;
  const res = await fetch(url, {
    method,
    headers: { cookie: token, 'content-type': 'application/json' },
    body: method === 'POST' ? JSON.stringify(input) : undefined,
  });
  const json = (await res.json()) as { result?: { data: any }; error?: { data: { app: { status: number; error: string; message: string } } } };
  return { status: res.status, data: json.result?.data, error: json.error?.data.app };
}

beforeAll(async () => {
  be = await startBackend();
  up = await startTestUpstream();
  org = await createTestOrg(be.db);
  await createUser(be.db, { orgId: org.orgId, email: `coder-${org.orgId.slice(0, 8)}@example.test`, password: 'coder-password-1', role: 'coder' });
  adminToken = await login(org.email, org.password);
  coderToken = await login(`coder-${org.orgId.slice(0, 8)}@example.test`, 'coder-password-1');
  await addModel(be.db, { name: 'ui-shared', base_url: up.baseUrl, upstream_model: 'echo', approved_for_phi: true }, { orgId: null, actor: 'test' });
});
afterAll(async () => {
  await up?.close();
  await be?.close();
});

describe(`gateway UI procedures on ${process.env.TEST_DB ?? 'postgres'}`, () => {
  it('admins add and remove their organisation models; coders cannot; deployment models are read only', async () => {
    const add = await trpc('gateway.addModel', adminToken, {
      name: 'ui-echo',
      base_url: up.baseUrl,
      upstream_model: 'echo',
      approved_for_phi: true,
      price_input_per_1k_usd: 0.002,
    });
    expect(add.status).toBe(200);
    expect(add.data).toMatchObject({ name: 'ui-echo', scope: 'organization', approved_for_phi: true, price_input_per_1k_usd: 0.002 });
    const denied = await trpc('gateway.addModel', coderToken, { name: 'ui-x', base_url: up.baseUrl, upstream_model: 'echo' });
    expect(denied.error).toMatchObject({ status: 403, error: 'admin_required' });
    const bad = await trpc('gateway.addModel', adminToken, { name: 'ui-bad', base_url: 'http://169.254.169.254/v1', upstream_model: 'echo' });
    expect(bad.error).toMatchObject({ status: 400, error: 'invalid_model' });

    const asAdmin = await trpc('gateway.models', adminToken, undefined, 'GET');
    const names = asAdmin.data.models.map((m: { name: string }) => m.name);
    expect(names).toEqual(expect.arrayContaining(['ui-echo', 'ui-shared']));
    expect(asAdmin.data.models.find((m: { name: string }) => m.name === 'ui-echo').base_url).toBe(up.baseUrl);
    expect(asAdmin.data.key_env_prefix).toMatch(/^LLM_ORG_[0-9A-F]{8}_$/);
    const asCoder = await trpc('gateway.models', coderToken, undefined, 'GET');
    expect(asCoder.data.models.find((m: { name: string }) => m.name === 'ui-echo').base_url).toBe('');

    const shared = asAdmin.data.models.find((m: { name: string }) => m.name === 'ui-shared');
    const rmShared = await trpc('gateway.removeModel', adminToken, { id: shared.id });
    expect(rmShared.error).toMatchObject({ status: 404, error: 'model_not_found' });
    const audit = await be.db.query<{ action: string }>("SELECT action FROM audit_log WHERE org_id = $1 AND action LIKE 'model.%'", [org.orgId]);
    expect(audit.map((a) => a.action)).toEqual(['model.add']);
  });

  it('the playground returns what the user sees and what the model received, never the mapping', async () => {
    up.reset();
    const r = await trpc('gateway.playground', coderToken, {
      model: 'ui-echo',
      system: 'You help coders.',
      messages: [
        { role: 'user', content: 'Patient Tan Ah Kow, IC 850101-14-5673.' },
        { role: 'assistant', content: 'Noted Tan Ah Kow.' },
        { role: 'user', content: 'Summarise Tan Ah Kow.' },
      ],
    });
    expect(r.status).toBe(200);
    expect(r.data.answer).toBe('Summarise Tan Ah Kow.');
    expect(r.data.model_answer).toBe('Summarise [PERSON_1].');
    expect(r.data.sent_messages).toEqual([
      { role: 'system', content: 'You help coders.' },
      { role: 'user', content: 'Patient [PERSON_1], IC [MY_IC_1].' },
      { role: 'assistant', content: 'Noted [PERSON_1].' },
      { role: 'user', content: 'Summarise [PERSON_1].' },
    ]);
    expect(r.data.receipt).toMatchObject({ status: 'ok', rehydration_complete: true, free_text_fields: 4 });
    expect(JSON.stringify(r.data)).not.toMatch(/"mapping"/);
    expect(up.requests[0]!.raw).not.toContain('Tan Ah Kow');
    const row = await be.db.query<{ user_id: string | null; service_type: string }>(
      "SELECT user_id::text AS user_id, service_type FROM ledger WHERE org_id = $1 AND service_type = 'llm_chat'",
      [org.orgId],
    );
    expect(row).toHaveLength(1);
    expect(row[0]!.user_id).not.toBeNull();
  });

  it('playground errors carry the gateway error types', async () => {
    const nf = await trpc('gateway.playground', adminToken, { model: 'nope', messages: [{ role: 'user', content: 'x' }] });
    expect(nf.error).toMatchObject({ status: 404, error: 'model_not_found' });
  });
});
