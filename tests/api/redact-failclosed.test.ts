import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestOrg, startBackend, type TestBackend, type TestOrg } from '../helpers/backend';
import { FAULT_HEADER } from '@/server/api/routers/redact';
import { ENGINE_NAME, ENGINE_VERSION } from '@/server/redact';
import { setLogSink } from '@/server/log';

/**
 * Fail closed (SPEC §4.9, §7): a recognizer error or an exhausted time budget gives 503 `redaction_failed`, a
 * failed_closed receipt and no text. Faults are injected through the test-only header, which the server honours only
 * when NODE_ENV=test AND REDACT_FAULT_INJECTION=1 (the API test server runs in this process, so setting the
 * environment here drives it).
 */
// NODE_ENV is typed read-only by @types/node; these tests switch it on purpose.
const env = process.env as Record<string, string | undefined>;
const saved = { node: env.NODE_ENV, flag: env.REDACT_FAULT_INJECTION };

let be: TestBackend;
let org: TestOrg;
const logLines: string[] = [];
let restoreSink: () => void;

beforeAll(async () => {
  be = await startBackend();
  org = await createTestOrg(be.db);
  restoreSink = setLogSink((l) => logLines.push(l));
});
afterAll(async () => {
  restoreSink?.();
  await be?.close();
});
afterEach(() => {
  env.NODE_ENV = saved.node;
  env.REDACT_FAULT_INJECTION = saved.flag;
});

const PATH = '/api/v1/redact/';
const NOTE = 'Pt Ahmad Faizal bin Ismail (54M), IC 850101-14-5673, tel 012-345 6789. BP 130/80. Dr Lim Wei Ming.';
const PHI = ['Ahmad', 'Faizal', 'Ismail', '850101-14-5673', '850101', '012-345 6789', 'Lim Wei Ming'];

function redactWithFault(fault: string, body: Record<string, unknown> = { text: NOTE }) {
  return api(be.baseUrl, 'POST', PATH, { key: org.key, body, headers: { [FAULT_HEADER]: fault } });
}

async function dumpReceipts(): Promise<string> {
  const rows = await be.db.query<{ j: string }>(`SELECT row_to_json(t)::text AS j FROM redaction_receipts t WHERE org_id = $1`, [org.orgId]);
  return rows.map((r) => r.j).join('\n');
}

function expectFailedClosed(r: { status: number; body: any; text: string }, reason: string, asserted = false) {
  expect(r.status).toBe(503);
  expect(r.body.error).toBe('redaction_failed');
  expect(typeof r.body.message).toBe('string');
  expect(r.body.reason).toBe(reason);
  expect(r.body).not.toHaveProperty('redacted_text');
  expect(r.body).not.toHaveProperty('mapping');
  expect(r.body).not.toHaveProperty('entities');
  for (const v of PHI) expect(r.text).not.toContain(v);
  expect(r.body.redaction_receipt).toMatchObject({
    receipt_version: 1,
    engine: ENGINE_NAME,
    engine_version: ENGINE_VERSION,
    rehydration_complete: null,
    unresolved_placeholder_count: 0,
    client_preredacted: false,
    entities_redacted: {},
    free_text_fields: 1,
    client_asserted_deidentified: asserted,
    redacted_anyway: false,
    status: 'failed_closed',
    retention: 'metadata_only',
  });
  expect(r.body.redaction_receipt.receipt_id).toMatch(/^[0-9a-f-]{36}$/);
}

describe(`redact fails closed on ${process.env.TEST_DB ?? 'postgres'}`, () => {
  it('a throwing recognizer (any of them, or a named one) → 503, failed_closed receipt, no text', async () => {
    env.NODE_ENV = 'test';
    env.REDACT_FAULT_INJECTION = '1';
    const before = await dumpReceipts();
    for (const where of ['*', 'person', 'my_ic', 'phone']) {
      const r = await redactWithFault(`throw:${where}`);
      expectFailedClosed(r, 'recognizer_error');
    }
    // only failed_closed metadata rows were stored; no text, no counts
    const rows = await be.db.query<{ status: string; failure_reason: string; entities_total: number; entities_redacted: unknown; input_chars: number }>(
      `SELECT status, failure_reason, entities_total, entities_redacted, input_chars FROM redaction_receipts WHERE org_id = $1`,
      [org.orgId],
    );
    expect(rows.filter((x) => x.status === 'failed_closed')).toHaveLength(4);
    for (const row of rows) {
      expect(row.failure_reason).toBe('recognizer_error');
      expect(row.entities_total).toBe(0);
      expect(row.input_chars).toBe(NOTE.length);
    }
    const dump = await dumpReceipts();
    expect(dump.length).toBeGreaterThan(before.length);
    for (const v of PHI) expect(dump).not.toContain(v);

    // the receipt is in the inspector with its failure reason
    const list = await api(be.baseUrl, 'GET', '/api/v1/redact/receipts/?status=failed_closed', { key: org.key });
    expect(list.status).toBe(200);
    expect(list.body.receipts.length).toBe(4);
    expect(list.body.receipts[0].receipt.status).toBe('failed_closed');
    expect(list.body.receipts[0].failure_reason).toBe('recognizer_error');
  });

  it('an exhausted time budget → 503 with reason time_budget_exceeded', async () => {
    env.NODE_ENV = 'test';
    env.REDACT_FAULT_INJECTION = '1';
    const r = await redactWithFault('delay:2100', { text: NOTE, return_mapping: true, client_asserted_deidentified: true });
    // the client's assertion is recorded; redacted_anyway stays false because nothing was returned
    expectFailedClosed(r, 'time_budget_exceeded', true);
  });

  it('the logs name the failure but never the text', async () => {
    env.NODE_ENV = 'test';
    env.REDACT_FAULT_INJECTION = '1';
    logLines.length = 0;
    const r = await redactWithFault('throw:email');
    expect(r.status).toBe(503);
    const failure = logLines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.msg === 'redaction failed closed');
    expect(failure).toMatchObject({ reason: 'recognizer_error', recognizer: 'email', request_id: r.headers.get('x-request-id') });
    for (const v of PHI) expect(logLines.join('\n')).not.toContain(v);
  });

  it('production cannot enable it: outside NODE_ENV=test the header does nothing, even with REDACT_FAULT_INJECTION=1', async () => {
    for (const nodeEnv of ['production', 'development']) {
      env.NODE_ENV = nodeEnv;
      env.REDACT_FAULT_INJECTION = '1';
      for (const fault of ['throw:*', 'throw:person', 'delay:2100']) {
        const started = Date.now();
        const r = await redactWithFault(fault);
        expect(r.status).toBe(200);
        expect(r.body.redaction_receipt.status).toBe('ok');
        expect(r.body.redacted_text).toBe('Pt [PERSON_1] (54M), IC [MY_IC_1], tel [PHONE_1]. BP 130/80. Dr [PERSON_2].');
        if (fault.startsWith('delay')) expect(Date.now() - started).toBeLessThan(2000);
      }
    }
  });

  it('and NODE_ENV=test alone is not enough: the flag must be set too', async () => {
    env.NODE_ENV = 'test';
    delete env.REDACT_FAULT_INJECTION;
    const r = await redactWithFault('throw:*');
    expect(r.status).toBe(200);
    expect(r.body.redacted_text).toContain('[PERSON_1]');
    env.REDACT_FAULT_INJECTION = '0';
    expect((await redactWithFault('throw:*')).status).toBe(200);
  });

  it('a malformed fault header is ignored, and the switch does not leak into requests without the header', async () => {
    env.NODE_ENV = 'test';
    env.REDACT_FAULT_INJECTION = '1';
    expect((await redactWithFault('explode now')).status).toBe(200);
    const plain = await api(be.baseUrl, 'POST', PATH, { key: org.key, body: { text: NOTE } });
    expect(plain.status).toBe(200);
    expect(plain.body.redaction_receipt.status).toBe('ok');
  });
});
