import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestOrg, startBackend, type TestBackend, type TestOrg } from '../helpers/backend';
import { buildReceipt, failedClosedReceipt, type RedactionReceipt } from '@/server/redact';
import { getReceipt, listReceipts, recordReceipt } from '@/server/redact/receipts-store';
import { AppError } from '@/server/errors';

/** server/redact/receipts-store.ts on a real database, and the receipt inspector endpoints over HTTP. */
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

describe(`redaction receipts store on ${process.env.TEST_DB ?? 'postgres'}`, () => {
  it('records a chat receipt (rehydration fields) and reads it back exactly', async () => {
    const receipt = buildReceipt({
      entitiesRedacted: { PERSON: 2, PHONE: 1 },
      clientPreredacted: true,
      freeTextFields: 3,
      clientAssertedDeidentified: true,
      rehydration: { unresolved: 1 },
    });
    const id = await recordReceipt(be.db, {
      orgId: a.orgId,
      apiKeyId: a.keyId,
      source: 'chat',
      receipt,
      requestId: 'req-chat-1',
      inputChars: 1234,
      durationMs: 12.6,
    });
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const got = await getReceipt(be.db, a.orgId, id);
    expect(got).toMatchObject({
      receipt_id: id,
      source: 'chat',
      api_key_id: a.keyId,
      user_id: null,
      request_id: 'req-chat-1',
      failure_reason: null,
      input_chars: 1234,
      duration_ms: 13,
      entities_total: 3,
    });
    expect(got.receipt).toEqual(receipt);
    expect(got.receipt.rehydration_complete).toBe(false);
    expect(got.receipt.unresolved_placeholder_count).toBe(1);
    expect(Date.now() - new Date(got.created_at).getTime()).toBeLessThan(60_000);
  });

  it('another organisation gets 404 for the same id (store and HTTP), and unknown / malformed ids are 404 too', async () => {
    const id = await recordReceipt(be.db, { orgId: a.orgId, source: 'redact', receipt: buildReceipt({ entitiesRedacted: { MY_IC: 1 } }) });
    await expect(getReceipt(be.db, b.orgId, id)).rejects.toMatchObject({ status: 404, type: 'receipt_not_found' });
    await expect(getReceipt(be.db, a.orgId, '00000000-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(AppError);
    await expect(getReceipt(be.db, a.orgId, 'not-a-uuid')).rejects.toMatchObject({ status: 404 });

    const mine = await api(be.baseUrl, 'GET', `/api/v1/redact/receipts/${id}/`, { key: a.key });
    expect(mine.status).toBe(200);
    expect(mine.body.receipt.entities_redacted).toEqual({ MY_IC: 1 });
    const theirs = await api(be.baseUrl, 'GET', `/api/v1/redact/receipts/${id}/`, { key: b.key });
    expect(theirs.status).toBe(404);
    expect(theirs.body).toEqual({ error: 'receipt_not_found', message: expect.any(String) });
    expect((await api(be.baseUrl, 'GET', '/api/v1/redact/receipts/nope/', { key: a.key })).status).toBe(404);

    // a receipt made over HTTP by org b is invisible to org a, in the list as well
    const made = await api(be.baseUrl, 'POST', '/api/v1/redact/', { key: b.key, body: { text: 'Pt Tan Ah Kow, tel 019-876 5432.' } });
    expect(made.status).toBe(200);
    const rid = made.body.redaction_receipt.receipt_id as string;
    expect((await api(be.baseUrl, 'GET', `/api/v1/redact/receipts/${rid}`, { key: a.key })).status).toBe(404);
    const listA = await api(be.baseUrl, 'GET', '/api/v1/redact/receipts/', { key: a.key });
    expect(listA.body.receipts.map((r: { receipt_id: string }) => r.receipt_id)).not.toContain(rid);
    const listB = await api(be.baseUrl, 'GET', '/api/v1/redact/receipts/', { key: b.key });
    expect(listB.body.receipts.map((r: { receipt_id: string }) => r.receipt_id)).toContain(rid);
  });

  it('stores only known fields: unknown entity types, non-integer counts and extra properties never reach the table', async () => {
    const dirty = {
      ...buildReceipt({ entitiesRedacted: { PERSON: 1 } }),
      entities_redacted: { PERSON: 2.7, 'Ahmad bin Ali': 1, EMAIL: -3, PHONE: '4' },
      mapping: { '[PERSON_1]': 'Ahmad bin Ali' },
      redacted_text: 'Pt Ahmad bin Ali',
    } as unknown as RedactionReceipt;
    const id = await recordReceipt(be.db, { orgId: a.orgId, source: 'agent', receipt: dirty, requestId: 'r'.repeat(500) });
    const got = await getReceipt(be.db, a.orgId, id);
    expect(got.receipt.entities_redacted).toEqual({ PERSON: 2 });
    expect(got.entities_total).toBe(2);
    expect(got.request_id).toHaveLength(100);
    const [row] = await be.db.query<{ j: string }>(`SELECT row_to_json(t)::text AS j FROM redaction_receipts t WHERE id = $1`, [id]);
    expect(row!.j).not.toContain('Ahmad');
    await expect(recordReceipt(be.db, { orgId: a.orgId, source: 'email' as never, receipt: buildReceipt() })).rejects.toThrow(/source/);
  });

  it('failed_closed receipts keep no counts and always carry a failure reason', async () => {
    const id = await recordReceipt(be.db, {
      orgId: a.orgId,
      source: 'chat',
      receipt: { ...failedClosedReceipt({ freeTextFields: 2 }), entities_redacted: { PERSON: 5 } },
      failureReason: 'time_budget_exceeded',
    });
    const got = await getReceipt(be.db, a.orgId, id);
    expect(got.receipt).toMatchObject({ status: 'failed_closed', entities_redacted: {}, free_text_fields: 2 });
    expect(got.failure_reason).toBe('time_budget_exceeded');
    expect(got.entities_total).toBe(0);
    const noReason = await recordReceipt(be.db, { orgId: a.orgId, source: 'chat', receipt: failedClosedReceipt() });
    expect((await getReceipt(be.db, a.orgId, noReason)).failure_reason).toBe('internal_error');
  });

  it('lists newest first, pages with before, filters by source and status', async () => {
    const org = await createTestOrg(be.db);
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      ids.push(
        await recordReceipt(be.db, { orgId: org.orgId, source: i % 2 ? 'chat' : 'redact', receipt: buildReceipt({ entitiesRedacted: { PHONE: i + 1 } }) }),
      );
      await new Promise((r) => setTimeout(r, 3)); // distinct millisecond timestamps
    }
    const first = await listReceipts(be.db, org.orgId, { limit: 3 });
    expect(first.receipts.map((r) => r.receipt_id)).toEqual([ids[6], ids[5], ids[4]]);
    expect(first.next_before).toBe(ids[4]);
    const second = await listReceipts(be.db, org.orgId, { limit: 3, before: first.next_before });
    expect(second.receipts.map((r) => r.receipt_id)).toEqual([ids[3], ids[2], ids[1]]);
    const third = await listReceipts(be.db, org.orgId, { limit: 3, before: second.next_before });
    expect(third.receipts.map((r) => r.receipt_id)).toEqual([ids[0]]);
    expect(third.next_before).toBeNull();

    const chats = await listReceipts(be.db, org.orgId, { source: 'chat' });
    expect(chats.receipts).toHaveLength(3);
    expect(chats.receipts.every((r) => r.source === 'chat')).toBe(true);
    expect((await listReceipts(be.db, org.orgId, { status: 'failed_closed' })).receipts).toHaveLength(0);

    // a cursor from another organisation, or garbage, yields nothing from this one
    const foreign = await recordReceipt(be.db, { orgId: b.orgId, source: 'redact', receipt: buildReceipt() });
    expect((await listReceipts(be.db, org.orgId, { before: foreign })).receipts).toEqual([]);
    expect((await listReceipts(be.db, org.orgId, { before: 'garbage' })).receipts).toEqual([]);

    // the same over HTTP
    const http = await api(be.baseUrl, 'GET', `/api/v1/redact/receipts/?limit=2&source=redact`, { key: org.key });
    expect(http.status).toBe(200);
    expect(http.body.receipts.map((r: { receipt_id: string }) => r.receipt_id)).toEqual([ids[6], ids[4]]);
    expect(http.body.next_before).toBe(ids[4]);
    const bad = await api(be.baseUrl, 'GET', `/api/v1/redact/receipts/?limit=0`, { key: org.key });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^limit: /);
    expect((await api(be.baseUrl, 'GET', `/api/v1/redact/receipts/?before=xyz`, { key: org.key })).status).toBe(400);
  });

  it('removes an organisation’s receipts with the organisation (cascade)', async () => {
    const org = await createTestOrg(be.db);
    await recordReceipt(be.db, { orgId: org.orgId, source: 'redact', receipt: buildReceipt() });
    await be.db.query('DELETE FROM organizations WHERE id = $1', [org.orgId]);
    const [row] = await be.db.query<{ n: number }>('SELECT count(*)::int AS n FROM redaction_receipts WHERE org_id = $1', [org.orgId]);
    expect(row!.n).toBe(0);
  });
});
