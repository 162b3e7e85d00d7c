import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestOrg, startBackend, type TestBackend, type TestOrg } from '../helpers/backend';
import { startTestUpstream, type TestUpstream } from '@/tests/fixtures/test-upstream';
import { addModel } from '@/server/gateway/registry';
import { charge, chargeManyIn, releaseReservation, reserveSpend, setSpendCap, settleReservation, spendStatus, SpendCapError } from '@/server/billing/ledger';
import { runPeriodicNow } from '@/server/queue';
import { RESERVATION_SWEEP } from '@/server/billing/sweep';

/**
 * Chat spend caps under parallel HTTP requests (issue 12 item 1). Every chat request reserves its worst case (the
 * prompt as sent at one token per UTF-8 byte, plus max_tokens, at the model's prices) with one conditional UPDATE
 * before anything goes upstream, and settles to the real token counts afterwards. Invariant: the ledger never passes
 * the cap, whatever the concurrency; every 200 is billed exactly once; a 429 sent and charged nothing.
 */
let be: TestBackend;
let up: TestUpstream;
beforeAll(async () => {
  be = await startBackend();
  up = await startTestUpstream();
});
afterAll(async () => {
  await up?.close();
  await be?.close();
});

/** An organisation with its own priced echo model ($0.0025 / $0.01 per 1K input / output tokens). */
async function pricedOrg(): Promise<TestOrg> {
  const org = await createTestOrg(be.db, { scopes: ['llm:chat'] });
  await addModel(
    be.db,
    {
      name: 'priced-echo',
      base_url: up.baseUrl,
      upstream_model: 'echo',
      approved_for_phi: true,
      price_input_per_1k_usd: 0.0025,
      price_output_per_1k_usd: 0.01,
      timeout_ms: 60_000,
    },
    { orgId: org.orgId, actor: 'test' },
  );
  return org;
}

const PROMPT = (() => {
  const base =
    'Summarise the admission: 67M with community acquired pneumonia, T2DM on metformin, HPT on amlodipine; CXR right lower zone consolidation; IV ceftriaxone then oral amoxicillin-clavulanate. ';
  let s = '';
  while (s.length < 4000) s += base;
  return s.slice(0, 4000);
})();

async function counter(orgId: string): Promise<{ spent: number; reserved: number; ledger: number; reservations: number }> {
  const rows = await be.db.query<{ spent: string | null; reserved: string | null; ledger: string | null; reservations: number }>(
    `SELECT (SELECT sum(spent_micros) FROM spend_counters WHERE org_id = $1 AND sandbox = false)::text AS spent,
            (SELECT sum(reserved_micros) FROM spend_counters WHERE org_id = $1 AND sandbox = false)::text AS reserved,
            (SELECT sum(cost_micros) FROM ledger WHERE org_id = $1 AND sandbox = false)::text AS ledger,
            (SELECT count(*) FROM spend_reservations WHERE org_id = $1)::int AS reservations`,
    [orgId],
  );
  const r = rows[0]!;
  return { spent: Number(r.spent ?? 0), reserved: Number(r.reserved ?? 0), ledger: Number(r.ledger ?? 0), reservations: r.reservations };
}

/** One chat call; streamed calls are read to the end. Returns the status, the completion id and the error type. */
async function chatCall(
  key: string,
  streamed: boolean,
  body: Record<string, unknown> = {},
): Promise<{ status: number; id: string | null; error: string | null }> {
  const res = await fetch(`${be.baseUrl}/api/v1/llm/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'priced-echo',
      max_tokens: 1000,
      messages: [{ role: 'user', content: PROMPT }],
      ...(streamed ? { stream: true, redact_only: true, stream_options: { include_usage: true } } : {}),
      ...body,
    }),
  });
  const text = await res.text();
  if (res.status !== 200) return { status: res.status, id: null, error: (JSON.parse(text) as { error: string }).error };
  if (!streamed) return { status: 200, id: (JSON.parse(text) as { id: string }).id, error: null };
  const events = text
    .split('\n\n')
    .map((e) => e.replace(/^data: /, '').trim())
    .filter((e) => e && e !== '[DONE]')
    .map((e) => JSON.parse(e) as { id?: string; error?: string; redaction_receipt?: unknown });
  const failed = events.find((e) => e.error);
  expect(events.at(-1)?.redaction_receipt, 'a streamed 200 ends with its receipt').toBeDefined();
  return { status: failed ? 502 : 200, id: events[0]?.id ?? null, error: failed?.error ?? null };
}

describe(`chat spend cap under concurrency (${process.env.TEST_DB ?? 'postgres'})`, () => {
  it('100 concurrent chat calls (70 plain, 30 streamed): the ledger never exceeds the cap; each 200 billed once; 429s sent nothing', async () => {
    const org = await pricedOrg();
    // one request costs $0.0125 (1000 + 1000 tokens); its reservation is about $0.0201 (4 KB of prompt JSON at one
    // token per byte, plus max_tokens): $0.25 holds about 12 reservations at once and about 20 real answers in all
    const cap = 250_000;
    await setSpendCap(be.db, org.orgId, cap);
    up.reset();

    // watch the counter and the ledger while the burst runs: spent + reserved and the ledger stay within the cap
    let watching = true;
    const samples: Array<{ spent: number; reserved: number; ledger: number }> = [];
    const watcher = (async () => {
      while (watching) {
        samples.push(await counter(org.orgId));
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => chatCall(org.key, i % 10 >= 7)));
    watching = false;
    await watcher;

    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 429);
    expect(ok.length + refused.length, JSON.stringify(results.filter((r) => r.status !== 200 && r.status !== 429))).toBe(100);
    expect(refused.every((r) => r.error === 'spend_cap_reached')).toBe(true);
    expect(ok.length).toBeGreaterThanOrEqual(5);
    expect(refused.length).toBeGreaterThanOrEqual(50);
    expect(up.requests, 'a refused request sends nothing upstream').toHaveLength(ok.length);

    for (const s of samples) {
      expect(s.spent + s.reserved).toBeLessThanOrEqual(cap);
      expect(s.ledger).toBeLessThanOrEqual(cap);
    }
    const end = await counter(org.orgId);
    expect(end.ledger).toBeLessThanOrEqual(cap);
    expect(end.spent).toBe(end.ledger); // the counter is the sum of the rows
    expect(end.reserved).toBe(0); // every reservation settled or released
    expect(end.reservations).toBe(0);
    // exactly once, at the real usage (1000 prompt + 1000 completion tokens each), streamed or not
    for (const r of ok) {
      const rows = await be.db.query<{ cost: string; details: Record<string, unknown> }>(
        'SELECT cost_micros::text AS cost, details FROM ledger WHERE idempotency_ref = $1',
        [`llm_chat:${r.id}`],
      );
      expect(rows).toHaveLength(1);
      expect(Number(rows[0]!.cost)).toBe(12_500);
      expect(rows[0]!.details.unbilled_micros).toBeUndefined();
      expect(Number(rows[0]!.details.reserved_micros)).toBeGreaterThan(12_500);
    }
    expect(end.ledger).toBe(ok.length * 12_500);
    const streamedRows = await be.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ledger WHERE org_id = $1 AND details->>'stream' = 'true'`, [
      org.orgId,
    ]);
    expect(streamedRows[0]!.n).toBeGreaterThanOrEqual(1);

    // afterwards: refused up front exactly when the leftover cannot hold one more reservation
    const reservedEach = Number(
      (await be.db.query<{ r: string }>(`SELECT details->>'reserved_micros' AS r FROM ledger WHERE idempotency_ref = $1`, [`llm_chat:${ok[0]!.id}`]))[0]!.r,
    );
    up.reset();
    const next = await chatCall(org.key, false);
    expect(next.status).toBe(cap - end.spent >= reservedEach ? 200 : 429);
    expect(up.requests).toHaveLength(next.status === 200 ? 1 : 0);
    expect((await counter(org.orgId)).ledger).toBeLessThanOrEqual(cap);
  });

  it('an upstream reporting more tokens than any reservation covers is billed only up to the cap (the rest recorded as unbilled)', async () => {
    const org = await pricedOrg();
    await setSpendCap(be.db, org.orgId, 100_000);
    up.reset();
    up.enqueue({ content: 'ok', usage: { prompt_tokens: 50_000, completion_tokens: 50_000 } }); // $0.625 claimed
    const r = await chatCall(org.key, false, { max_tokens: 100, messages: [{ role: 'user', content: 'hello' }] });
    expect(r.status).toBe(200); // delivered
    const rows = await be.db.query<{ cost: string; details: Record<string, unknown> }>(
      'SELECT cost_micros::text AS cost, details FROM ledger WHERE idempotency_ref = $1',
      [`llm_chat:${r.id}`],
    );
    expect(rows).toHaveLength(1);
    expect(Number(rows[0]!.cost)).toBe(100_000); // what was left under the cap
    expect(rows[0]!.details.unbilled_micros).toBe(625_000 - 100_000);
    const s = await spendStatus(be.db, org.orgId, false);
    expect(s).toMatchObject({ spent_micros: 100_000, reserved_micros: 0, cap_micros: 100_000, at_cap: true });
    expect((await chatCall(org.key, false, { max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] })).status).toBe(429);
  });

  it('a crashed request holds its reservation only until it expires; the sweep gives it back', async () => {
    const org = await pricedOrg();
    await setSpendCap(be.db, org.orgId, 100_000);
    // a request that reserved and then died with its process (never settled, never released)
    const dead = await reserveSpend(be.db, { orgId: org.orgId, sandbox: false, amountMicros: 99_500, serviceType: 'llm_chat', ttlSeconds: 600 });
    expect((await spendStatus(be.db, org.orgId, false)).reserved_micros).toBe(99_500);
    up.reset();
    const blocked = await chatCall(org.key, false, { max_tokens: 100, messages: [{ role: 'user', content: 'hello' }] });
    expect([blocked.status, blocked.error]).toEqual([429, 'spend_cap_reached']);
    expect(up.requests).toHaveLength(0);
    // not expired yet: the sweep leaves it
    expect(await runPeriodicNow(be.db, RESERVATION_SWEEP)).toBe(0);
    await be.db.query(`UPDATE spend_reservations SET expires_at = now() - interval '1 second' WHERE id = $1`, [dead.id]);
    expect(await runPeriodicNow(be.db, RESERVATION_SWEEP)).toBe(1);
    expect(await spendStatus(be.db, org.orgId, false)).toMatchObject({ spent_micros: 0, reserved_micros: 0 });
    const ok = await chatCall(org.key, false, { max_tokens: 100, messages: [{ role: 'user', content: 'hello' }] });
    expect(ok.status).toBe(200);
    // settling the swept reservation later (the process was only slow) bills against what is left, once
    const late = await settleReservation(be.db, dead, { serviceType: 'llm_chat', costMicros: 1000, idempotencyRef: `late:${dead.id}` });
    expect(late).toMatchObject({ outcome: 'charged', billedMicros: 1000, unbilledMicros: 0 });
    expect(await settleReservation(be.db, dead, { serviceType: 'llm_chat', costMicros: 1000, idempotencyRef: `late:${dead.id}` })).toMatchObject({
      outcome: 'duplicate',
      billedMicros: 0,
    });
    const end = await counter(org.orgId);
    expect(end).toMatchObject({ reserved: 0, reservations: 0 });
    expect(end.spent).toBe(end.ledger);
  });

  it('ledger: reservations count against the cap for every charge, and release gives them back exactly', async () => {
    const org = await pricedOrg();
    await setSpendCap(be.db, org.orgId, 10_000);
    const base = { apiKeyId: org.keyId, sandbox: false, serviceType: 'test_charge', units: 1 };
    const r1 = await reserveSpend(be.db, { orgId: org.orgId, sandbox: false, amountMicros: 6000, serviceType: 'llm_chat', ttlSeconds: 60 });
    await expect(reserveSpend(be.db, { orgId: org.orgId, sandbox: false, amountMicros: 5000, serviceType: 'llm_chat', ttlSeconds: 60 })).rejects.toBeInstanceOf(
      SpendCapError,
    );
    // a batch charge that fits the cap but not beside the reservation is refused too (nothing written)
    await expect(
      be.db.transaction((tx) => chargeManyIn(tx, [{ ...base, orgId: org.orgId, costMicros: 5000, idempotencyRef: `b:${org.orgId}:1` }])),
    ).rejects.toBeInstanceOf(SpendCapError);
    expect(await charge(be.db, { ...base, orgId: org.orgId, costMicros: 4000, idempotencyRef: `b:${org.orgId}:2` })).toBe('charged');
    await releaseReservation(be.db, r1);
    await releaseReservation(be.db, r1); // twice is harmless
    expect(await spendStatus(be.db, org.orgId, false)).toMatchObject({ spent_micros: 4000, reserved_micros: 0 });
    const r2 = await reserveSpend(be.db, { orgId: org.orgId, sandbox: false, amountMicros: 6000, serviceType: 'llm_chat', ttlSeconds: 60 });
    expect(await settleReservation(be.db, r2, { ...base, costMicros: 2500, idempotencyRef: `s:${r2.id}` })).toEqual({
      outcome: 'charged',
      billedMicros: 2500,
      unbilledMicros: 0,
    });
    expect(await counter(org.orgId)).toEqual({ spent: 6500, reserved: 0, ledger: 6500, reservations: 0 });
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
    await expect(charge(be.db, { ...base, costMicros: 1, idempotencyRef: `t:${other.orgId}:after` })).rejects.toBeInstanceOf(SpendCapError);
    expect(await charge(be.db, { ...base, costMicros: 0, idempotencyRef: `t:${other.orgId}:free` })).toBe('charged');
    const rows = await be.db.query<{ n: number; total: string }>('SELECT count(*)::int AS n, sum(cost_micros)::text AS total FROM ledger WHERE org_id = $1', [
      other.orgId,
    ]);
    expect(rows[0]).toMatchObject({ n: 2, total: '1500' });
  });
});
