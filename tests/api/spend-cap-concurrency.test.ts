import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestOrg, startBackend, type TestBackend, type TestOrg } from '../helpers/backend';
import { startTestUpstream, type TestUpstream } from '@/server/gateway/testUpstream';
import { addModel } from '@/server/gateway/registry';
import { charge, setSpendCap, spendStatus, SpendCapError } from '@/server/billing/ledger';

/**
 * Spend caps under parallel HTTP requests: 20 paid chat requests race for room for about five.
 *
 * The rule (SPEC: a request over the cap is refused, nothing charged; an answer that was delivered is billed):
 *   - every request is checked up front: at the cap, or when its likely cost (prompt characters / 4 + max_tokens)
 *     would cross it, it is a 429 that sent and charged nothing;
 *   - every 200 is billed exactly once (one ledger row, idempotency ref `llm_chat:<id>`), even when that settlement
 *     takes the organisation past its cap ("overrun"): the upstream has answered and been paid;
 *   - so an overrun needs requests that passed the check concurrently; it is bounded by the cost of the requests
 *     in flight when the cap was crossed (each at most its own pre-checked estimate when the upstream's token counts
 *     match the estimate), and afterwards the organisation is at its cap and every new request is refused up front.
 */
let be: TestBackend;
let up: TestUpstream;
let org: TestOrg;
beforeAll(async () => {
  be = await startBackend();
  up = await startTestUpstream();
  org = await createTestOrg(be.db, { scopes: ['llm:chat'] });
  await addModel(
    be.db,
    { name: 'paid-echo', base_url: up.baseUrl, upstream_model: 'echo', approved_for_phi: true, price_input_per_1k_usd: 1, price_output_per_1k_usd: 1, timeout_ms: 10_000 },
    { orgId: org.orgId, actor: 'test' },
  );
});
afterAll(async () => {
  await up?.close();
  await be?.close();
});

const chat = () =>
  api(be.baseUrl, 'POST', '/api/v1/llm/chat/completions', {
    key: org.key,
    body: { model: 'paid-echo', max_tokens: 16, messages: [{ role: 'user', content: 'Summarise: stable angina, on aspirin and statin.' }] },
  });

async function ledgerCount(): Promise<number> {
  const rows = await be.db.query<{ n: number }>('SELECT count(*)::int AS n FROM ledger WHERE org_id = $1', [org.orgId]);
  return rows[0]!.n;
}

describe(`spend cap under parallel requests (${process.env.TEST_DB ?? 'postgres'})`, () => {
  it('every delivered answer is billed exactly once; overruns only from requests admitted together; then at the cap', async () => {
    up.reset();
    const first = await chat();
    expect(first.status).toBe(200);
    const one = (await spendStatus(be.db, org.orgId, false)).spent_micros;
    expect(one).toBeGreaterThan(0);
    const cap = one * 6 + Math.floor(one / 2); // room for about five more requests of the same size
    await setSpendCap(be.db, org.orgId, cap);
    const before = await ledgerCount();

    up.reset();
    const results = await Promise.all(Array.from({ length: 20 }, () => chat()));
    const ok = results.filter((r) => r.status === 200);
    const capped = results.filter((r) => r.status === 429);
    expect(ok.length + capped.length).toBe(20);
    expect(capped.every((r) => r.body.error === 'spend_cap_reached')).toBe(true);
    // the requests that fit sequentially always get through; a refused one sent nothing upstream
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(up.requests).toHaveLength(ok.length);

    // exactly once: one ledger row per 200, under its own completion id, and the counter is the sum of the rows
    const after = await ledgerCount();
    expect(after - before).toBe(ok.length);
    for (const r of ok) {
      const rows = await be.db.query<{ n: number }>('SELECT count(*)::int AS n FROM ledger WHERE idempotency_ref = $1', [`llm_chat:${r.body.id}`]);
      expect(rows[0]!.n).toBe(1);
    }
    const s = await spendStatus(be.db, org.orgId, false);
    const rows = await be.db.query<{ total: string }>('SELECT sum(cost_micros)::text AS total FROM ledger WHERE org_id = $1', [org.orgId]);
    expect(Number(rows[0]!.total)).toBe(s.spent_micros);
    // every delivered answer is billed at its cost (the same prompt, so `one` each), none skipped at the cap; any
    // overrun comes only from requests admitted in this burst, and leaves the organisation at its cap
    expect(s.spent_micros).toBe(one * (1 + ok.length));
    if (s.spent_micros > cap) expect(s.at_cap).toBe(true);

    // once at or near the cap, the next request is refused up front and sends nothing
    up.reset();
    const next = await chat();
    expect(next.status).toBe(429);
    expect(up.requests).toHaveLength(0);
  });

  it('ledger: allowOverrun settles past the cap exactly once; a normal charge past the cap writes nothing', async () => {
    const other = await createTestOrg(be.db, { scopes: ['llm:chat'] });
    await setSpendCap(be.db, other.orgId, 1000);
    const base = { orgId: other.orgId, apiKeyId: other.keyId, sandbox: false, serviceType: 'test_charge', units: 1 };
    await expect(charge(be.db, { ...base, costMicros: 1500, idempotencyRef: `t:${other.orgId}:refused` })).rejects.toBeInstanceOf(SpendCapError);
    expect((await spendStatus(be.db, other.orgId, false)).spent_micros).toBe(0);
    expect(await charge(be.db, { ...base, costMicros: 1500, idempotencyRef: `t:${other.orgId}:settle`, allowOverrun: true })).toBe('charged');
    expect(await charge(be.db, { ...base, costMicros: 1500, idempotencyRef: `t:${other.orgId}:settle`, allowOverrun: true })).toBe('duplicate');
    const s = await spendStatus(be.db, other.orgId, false);
    expect(s).toMatchObject({ spent_micros: 1500, cap_micros: 1000, at_cap: true });
    // at the cap, ordinary charges are refused (and free work still passes)
    await expect(charge(be.db, { ...base, costMicros: 1, idempotencyRef: `t:${other.orgId}:after` })).rejects.toBeInstanceOf(SpendCapError);
    expect(await charge(be.db, { ...base, costMicros: 0, idempotencyRef: `t:${other.orgId}:free` })).toBe('charged');
    const rows = await be.db.query<{ n: number; total: string }>('SELECT count(*)::int AS n, sum(cost_micros)::text AS total FROM ledger WHERE org_id = $1', [other.orgId]);
    expect(rows[0]).toMatchObject({ n: 2, total: '1500' });
  });
});
