import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encode } from 'next-auth/jwt';
import { api, createTestOrg, startBackend, type TestBackend, type TestOrg } from '../helpers/backend';
import { ENGINE_NAME, ENGINE_VERSION, ENTITY_TYPES } from '@/server/redact';
import { nextAuthSecret } from '@/server/auth/session';

/** POST /api/v1/redact/ (SPEC §4.9, §2.6) over real HTTP with real keys, on PostgreSQL and PGlite. */
let be: TestBackend;
let org: TestOrg;
let redactOnly: TestOrg;
let searchOnly: TestOrg;

beforeAll(async () => {
  be = await startBackend();
  org = await createTestOrg(be.db);
  redactOnly = await createTestOrg(be.db, { scopes: ['redact'] });
  searchOnly = await createTestOrg(be.db, { scopes: ['search'] });
});
afterAll(async () => {
  await be?.close();
});

const PATH = '/api/v1/redact/';
const NOTE =
  'Pt Ahmad Faizal bin Ismail (54M), IC 850101-14-5673, tel 012-345 6789. BP 130/80, HR 88, SpO2 98%. ' +
  'Wife Siti Aminah binti Yusof 013-2233445. Seen by Dr Lim Wei Ming on 3/5/24. 😀 e-mail faizal.ismail@gmail.com';
const PHI = ['Ahmad Faizal bin Ismail', '850101-14-5673', '012-345 6789', 'Siti Aminah binti Yusof', '013-2233445', 'Lim Wei Ming', 'faizal.ismail@gmail.com'];
const CLINICAL = ['54M', 'BP 130/80', 'HR 88', 'SpO2 98%', '3/5/24'];

const RECEIPT_KEYS = [
  'receipt_version',
  'engine',
  'engine_version',
  'rehydration_complete',
  'unresolved_placeholder_count',
  'client_preredacted',
  'entities_redacted',
  'free_text_fields',
  'client_asserted_deidentified',
  'redacted_anyway',
  'status',
  'retention',
  'receipt_id',
].sort();

function redact(body: unknown, key = org.key) {
  return api(be.baseUrl, 'POST', PATH, { key, body });
}

describe(`redact endpoint on ${process.env.TEST_DB ?? 'postgres'}`, () => {
  it('returns every field of §2.6 with the right types, and every receipt field', async () => {
    const r = await redact({ text: NOTE, return_mapping: true });
    expect(r.status).toBe(200);
    const b = r.body;
    expect(Object.keys(b).sort()).toEqual(['entities', 'entities_redacted', 'mapping', 'redacted_text', 'redaction_receipt']);

    expect(typeof b.redacted_text).toBe('string');
    for (const v of PHI) expect(b.redacted_text).not.toContain(v);
    for (const c of CLINICAL) expect(b.redacted_text).toContain(c);
    expect(b.redacted_text).toMatch(/^Pt \[PERSON_1\] \(54M\), IC \[MY_IC_1\], tel \[PHONE_1\]\./);
    expect(b.redacted_text).toContain('😀 e-mail [EMAIL_1]');

    // mapping: placeholder → original, exactly the placeholders in the text
    expect(b.mapping).toEqual({
      '[PERSON_1]': 'Ahmad Faizal bin Ismail',
      '[MY_IC_1]': '850101-14-5673',
      '[PHONE_1]': '012-345 6789',
      '[PERSON_2]': 'Siti Aminah binti Yusof',
      '[PHONE_2]': '013-2233445',
      '[PERSON_3]': 'Lim Wei Ming',
      '[EMAIL_1]': 'faizal.ismail@gmail.com',
    });
    const inText = [...(b.redacted_text as string).matchAll(/\[[A-Z_]+_\d+\]/g)].map((m) => m[0]);
    expect(new Set(inText)).toEqual(new Set(Object.keys(b.mapping)));

    expect(b.entities_redacted).toEqual({ PERSON: 3, MY_IC: 1, PHONE: 2, EMAIL: 1 });
    for (const [k, v] of Object.entries(b.entities_redacted)) {
      expect(ENTITY_TYPES).toContain(k);
      expect(Number.isInteger(v)).toBe(true);
    }

    // entities: UTF-16 offsets into the input; slicing the input gives the mapped original
    expect(b.entities).toHaveLength(7);
    for (const e of b.entities) {
      expect(Object.keys(e).sort()).toEqual(['end', 'placeholder', 'recognizer', 'score', 'start', 'type']);
      expect(NOTE.slice(e.start, e.end)).toBe(b.mapping[e.placeholder]);
      expect(e.placeholder.startsWith(`[${e.type}_`)).toBe(true);
      expect(e.score).toBeGreaterThanOrEqual(0.5);
      expect(e.score).toBeLessThanOrEqual(1);
      expect(typeof e.recognizer).toBe('string');
      for (const v of PHI) expect(JSON.stringify(e)).not.toContain(v);
    }
    // offsets after the emoji are UTF-16 code units (JavaScript indices)
    const email = b.entities.find((e: { type: string }) => e.type === 'EMAIL');
    expect(email.start).toBe(NOTE.indexOf('faizal.ismail@gmail.com'));

    const rc = b.redaction_receipt;
    expect(Object.keys(rc).sort()).toEqual(RECEIPT_KEYS);
    expect(rc).toMatchObject({
      receipt_version: 1,
      engine: ENGINE_NAME,
      engine_version: ENGINE_VERSION,
      rehydration_complete: null,
      unresolved_placeholder_count: 0,
      client_preredacted: false,
      entities_redacted: { PERSON: 3, MY_IC: 1, PHONE: 2, EMAIL: 1 },
      free_text_fields: 1,
      client_asserted_deidentified: false,
      redacted_anyway: false,
      status: 'ok',
      retention: 'metadata_only',
    });
    expect(typeof rc.engine).toBe('string');
    expect(typeof rc.engine_version).toBe('string');
    expect(rc.receipt_id).toMatch(/^[0-9a-f-]{36}$/);

    // the stored copy has the same receipt, and nothing else
    const stored = await api(be.baseUrl, 'GET', `/api/v1/redact/receipts/${rc.receipt_id}/`, { key: org.key });
    expect(stored.status).toBe(200);
    const { receipt_id: _id, ...withoutId } = rc;
    expect(stored.body.receipt).toEqual(withoutId);
    expect(stored.body).toMatchObject({
      receipt_id: rc.receipt_id,
      source: 'redact',
      api_key_id: org.keyId,
      user_id: null,
      entities_total: 7,
      failure_reason: null,
    });
    expect(stored.body.input_chars).toBe([...NOTE].length);
    expect(stored.body.request_id).toBe(r.headers.get('x-request-id'));
    for (const v of PHI) expect(stored.text).not.toContain(v);
  });

  it('return_mapping defaults to true; false omits mapping but keeps the text, counts, entities and receipt', async () => {
    const dflt = await redact({ text: NOTE });
    expect(dflt.status).toBe(200);
    expect(dflt.body.mapping['[PERSON_1]']).toBe('Ahmad Faizal bin Ismail');

    const r = await redact({ text: NOTE, return_mapping: false });
    expect(r.status).toBe(200);
    expect(r.body).not.toHaveProperty('mapping');
    expect(r.body.redacted_text).toBe(dflt.body.redacted_text);
    expect(r.body.entities_redacted).toEqual(dflt.body.entities_redacted);
    expect(r.body.redaction_receipt.status).toBe('ok');
    for (const v of PHI) expect(r.text).not.toContain(v);
  });

  it('limits: 0 and 100001 characters → 400 naming text; 100000 → 200; code points, not UTF-16 units', async () => {
    const empty = await redact({ text: '' });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toBe('invalid_request');
    expect(empty.body.message).toMatch(/^text: /);

    const filler = 'Patient stable, BP 120/80, plan for review in clinic. ';
    const big = filler.repeat(Math.ceil(100_000 / filler.length)).slice(0, 100_000);
    expect(big.length).toBe(100_000);
    const ok = await redact({ text: big, return_mapping: false });
    expect(ok.status).toBe(200);
    expect(ok.body.redacted_text).toBe(big);
    expect(ok.body.redaction_receipt.entities_redacted).toEqual({});

    const over = await redact({ text: big + 'x' });
    expect(over.status).toBe(400);
    expect(over.body.error).toBe('invalid_request');
    expect(over.body.message).toMatch(/^text: .*100000/);

    const over101k = await redact({ text: filler.repeat(Math.ceil(101_000 / filler.length)).slice(0, 101_000) });
    expect(over101k.status).toBe(400);
    expect(over101k.body.error).toBe('invalid_request');
    expect(over101k.body.message).toMatch(/text/);

    // 100000 emoji are 200000 UTF-16 units but 100000 characters: accepted; one more is refused
    const emoji = '😀'.repeat(100_000);
    expect((await redact({ text: emoji, return_mapping: false })).status).toBe(200);
    expect((await redact({ text: emoji + '😀' })).status).toBe(400);

    expect((await redact({})).body.message).toMatch(/^text: /);
    expect((await redact({ text: 42 })).status).toBe(400);
  });

  it('limits on the other fields: conversation_key ≤ 200, prior_mapping keys/values, unknown fields', async () => {
    const key200 = await redact({ text: NOTE, conversation_key: 'k'.repeat(200) });
    expect(key200.status).toBe(200);
    const key201 = await redact({ text: NOTE, conversation_key: 'k'.repeat(201) });
    expect(key201.status).toBe(400);
    expect(key201.body).toMatchObject({ error: 'invalid_request' });
    expect(key201.body.message).toMatch(/^conversation_key: /);

    const badKey = await redact({ text: NOTE, prior_mapping: { 'PERSON 1': 'Ali' } });
    expect(badKey.status).toBe(400);
    expect(badKey.body.message).toMatch(/prior_mapping/);
    const zero = await redact({ text: NOTE, prior_mapping: { '[PERSON_0]': 'Ali' } });
    expect(zero.status).toBe(400);
    const badValue = await redact({ text: NOTE, prior_mapping: { '[PERSON_1]': 5 } });
    expect(badValue.status).toBe(400);
    expect(badValue.body.message).toMatch(/prior_mapping/);
    const tooLong = await redact({ text: NOTE, prior_mapping: { '[PERSON_1]': 'x'.repeat(1001) } });
    expect(tooLong.status).toBe(400);
    const notObject = await redact({ text: NOTE, prior_mapping: ['[PERSON_1]'] });
    expect(notObject.status).toBe(400);
    const many = Object.fromEntries(Array.from({ length: 10_001 }, (_, i) => [`[PERSON_${i + 1}]`, `Name ${i}`]));
    const tooMany = await redact({ text: NOTE, prior_mapping: many });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toMatch(/prior_mapping: .*10000/);

    const unknown = await redact({ text: NOTE, mode: 'fast' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/unknown field 'mode'/);
    // strings are not coerced to booleans (a coerced "false" would be true and return the mapping)
    for (const v of ['no', 'false', 0, null]) {
      const badFlag = await redact({ text: NOTE, return_mapping: v });
      expect(badFlag.status).toBe(400);
      expect(badFlag.body.message).toMatch(/^return_mapping: /);
      expect(badFlag.text).not.toContain('Ahmad');
    }
    expect((await redact({ text: NOTE, client_asserted_deidentified: 'true' })).status).toBe(400);
  });

  it('prior_mapping keeps placeholders stable across calls; new values get the next free index', async () => {
    const first = await redact({ text: 'Pt Ahmad Faizal bin Ismail, IC 850101-14-5673, tel 012-345 6789.' });
    expect(first.status).toBe(200);
    expect(first.body.redacted_text).toBe('Pt [PERSON_1], IC [MY_IC_1], tel [PHONE_1].');

    // same people written differently, plus a new person and a new phone
    const second = await redact({
      text: 'Call from Tan Ah Kow (brother-in-law) about AHMAD FAIZAL BIN ISMAIL, IC 850101145673; callback 019-876 5432 or +60 12-345 6789.',
      prior_mapping: first.body.mapping,
    });
    expect(second.status).toBe(200);
    const t = second.body.redacted_text as string;
    expect(t).toContain('about [PERSON_1]');
    expect(t).toContain('IC [MY_IC_1]');
    expect(t).toContain('or [PHONE_1]'); // the same number in E.164 form
    expect(t).toContain('Call from [PERSON_2]');
    expect(t).toContain('callback [PHONE_2]');
    expect(second.body.mapping['[PERSON_2]']).toBe('Tan Ah Kow');
    expect(second.body.mapping['[PHONE_2]']).toBe('019-876 5432');

    // a prior mapping with gaps: the next index is above the highest known one
    const gap = await redact({ text: 'Seen by Dr Lim Wei Ming.', prior_mapping: { '[PERSON_7]': 'Siti Aminah binti Yusof' } });
    expect(gap.body.redacted_text).toBe('Seen by Dr [PERSON_8].');
  });

  it('a chain of three calls, each sending back the previous mapping: every entry comes back, no two people share a placeholder', async () => {
    const one = await redact({ text: 'Pt Ahmad Faizal bin Ismail, IC 850101-14-5673.' });
    expect(one.body.redacted_text).toBe('Pt [PERSON_1], IC [MY_IC_1].');
    // call 2 mentions neither value of call 1: its mapping must still carry them
    const two = await redact({ text: 'Wife Siti Aminah binti Yusof called.', prior_mapping: one.body.mapping });
    expect(two.body.redacted_text).toBe('Wife [PERSON_2] called.');
    expect(two.body.mapping).toEqual({ ...one.body.mapping, '[PERSON_2]': 'Siti Aminah binti Yusof' });
    // call 3 sends only call 2's mapping: a new person gets a new index, the known ones keep theirs
    const three = await redact({ text: 'Dr Lim Wei Ming saw Ahmad Faizal bin Ismail; Siti Aminah binti Yusof present.', prior_mapping: two.body.mapping });
    expect(three.body.redacted_text).toBe('Dr [PERSON_3] saw [PERSON_1]; [PERSON_2] present.');
    expect(Object.keys(three.body.mapping).sort()).toEqual(['[MY_IC_1]', '[PERSON_1]', '[PERSON_2]', '[PERSON_3]']);
    const people = Object.entries(three.body.mapping).filter(([k]) => k.startsWith('[PERSON_'));
    expect(new Set(people.map(([, v]) => v)).size).toBe(people.length);
  });

  it('conversation_key (deprecated) keeps placeholders stable across calls; prior_mapping wins over it', async () => {
    const a = await redact({ text: 'Pt Ahmad Faizal bin Ismail, tel 012-345 6789.', conversation_key: 'ward-5-bed-12' });
    const b = await redact({ text: 'Tel 012-345 6789 again; Tan Ah Kow visited Ahmad Faizal bin Ismail.', conversation_key: 'ward-5-bed-12' });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    const phA = Object.keys(a.body.mapping).find((k) => a.body.mapping[k] === 'Ahmad Faizal bin Ismail')!;
    const phoneA = Object.keys(a.body.mapping).find((k) => a.body.mapping[k] === '012-345 6789')!;
    expect(phA).toMatch(/^\[PERSON_\d+\]$/);
    expect(phA).not.toBe('[PERSON_1]'); // HMAC-derived, not sequential (1 in 999999 chance of equality)
    expect(b.body.mapping[phA]).toBe('Ahmad Faizal bin Ismail');
    expect(b.body.mapping[phoneA]).toBe('012-345 6789');
    expect(a.body.redaction_receipt.status).toBe('ok');

    // another key gives other placeholders
    const other = await redact({ text: 'Pt Ahmad Faizal bin Ismail, tel 012-345 6789.', conversation_key: 'other-conversation' });
    expect(other.body.mapping[phA]).toBeUndefined();

    // prior_mapping takes precedence (even an empty one): sequential placeholders
    const both = await redact({ text: 'Pt Ahmad Faizal bin Ismail, tel 012-345 6789.', conversation_key: 'ward-5-bed-12', prior_mapping: {} });
    expect(both.body.redacted_text).toBe('Pt [PERSON_1], tel [PHONE_1].');
    const both2 = await redact({
      text: 'Pt Ahmad Faizal bin Ismail, tel 012-345 6789.',
      conversation_key: 'ward-5-bed-12',
      prior_mapping: { '[PERSON_3]': 'Ahmad Faizal bin Ismail' },
    });
    expect(both2.body.redacted_text).toBe('Pt [PERSON_3], tel [PHONE_1].');
  });

  it('client_preredacted: placeholders already in the input are kept, not counted, and their indexes reserved', async () => {
    const r = await redact({ text: 'Follow-up for [PERSON_1] (IC [MY_IC_1]): Tan Ah Kow called from 019-8765432.' });
    expect(r.status).toBe(200);
    expect(r.body.redacted_text).toBe('Follow-up for [PERSON_1] (IC [MY_IC_1]): [PERSON_2] called from [PHONE_1].');
    expect(r.body.redaction_receipt.client_preredacted).toBe(true);
    expect(r.body.entities_redacted).toEqual({ PERSON: 1, PHONE: 1 });
    expect(r.body.redaction_receipt.entities_redacted).toEqual({ PERSON: 1, PHONE: 1 });
    expect(r.body.mapping).toEqual({ '[PERSON_2]': 'Tan Ah Kow', '[PHONE_1]': '019-8765432' });

    const plain = await redact({ text: 'No placeholders here, just [1] a citation and [Note 2].' });
    expect(plain.body.redaction_receipt.client_preredacted).toBe(false);
    expect(plain.body.redacted_text).toBe('No placeholders here, just [1] a citation and [Note 2].');
  });

  it('client_asserted_deidentified (extension): the engine runs anyway and says so', async () => {
    const r = await redact({ text: NOTE, client_asserted_deidentified: true });
    expect(r.status).toBe(200);
    expect(r.body.redaction_receipt).toMatchObject({ client_asserted_deidentified: true, redacted_anyway: true, status: 'ok' });
    for (const v of PHI) expect(r.body.redacted_text).not.toContain(v);
  });

  it('auth: scope redact required (403 names the scopes held), JWT refused (401), redact-only key and Bearer key work', async () => {
    const denied = await redact({ text: NOTE }, searchOnly.key);
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ error: 'insufficient_scope', required_scope: 'redact', scopes_held: ['search'] });
    expect(denied.body.message).toMatch(/redact.*holds: search/);
    expect(denied.text).not.toContain('Ahmad');

    const receiptsDenied = await api(be.baseUrl, 'GET', '/api/v1/redact/receipts/', { key: searchOnly.key });
    expect(receiptsDenied.status).toBe(403);

    expect((await redact({ text: NOTE }, redactOnly.key)).status).toBe(200);
    const bearer = await api(be.baseUrl, 'POST', PATH, { bearer: org.key, body: { text: NOTE } });
    expect(bearer.status).toBe(200);

    const none = await api(be.baseUrl, 'POST', PATH, { body: { text: NOTE } });
    expect(none.status).toBe(401);
    expect(none.body.error).toBe('missing_credentials');

    const login = await api(be.baseUrl, 'POST', '/login/', { body: { email: org.email, password: org.password } });
    expect(login.status).toBe(200);
    const jwt = await api(be.baseUrl, 'POST', PATH, { bearer: login.body.access_token, body: { text: NOTE } });
    expect(jwt.status).toBe(401);
    expect(jwt.body.error).toBe('api_key_required');
  });

  it('the UI door (tRPC with the session cookie) runs the same procedure and records the user', async () => {
    const [user] = await be.db.query<{ id: string }>('SELECT id::text AS id FROM users WHERE email = $1', [org.email]);
    const token = await encode({ token: { sub: user!.id }, secret: nextAuthSecret() });
    const res = await fetch(`${be.baseUrl}/api/trpc/redact.redact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `next-auth.session-token=${token}` },
      body: JSON.stringify({ text: NOTE }),
    });
    expect(res.status).toBe(200);
    const data = ((await res.json()) as { result: { data: Record<string, any> } }).result.data;
    const rest = await redact({ text: NOTE });
    expect(data.redacted_text).toBe(rest.body.redacted_text);
    expect(data.mapping).toEqual(rest.body.mapping);
    const stored = await api(be.baseUrl, 'GET', `/api/v1/redact/receipts/${data.redaction_receipt.receipt_id}`, { key: org.key });
    expect(stored.status).toBe(200);
    expect(stored.body).toMatchObject({ user_id: user!.id, api_key_id: null, source: 'redact' });

    const anonymous = await fetch(`${be.baseUrl}/api/trpc/redact.redact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: NOTE }),
    });
    const err = (await anonymous.json()) as { error: { data: { app: { status: number; error: string } } } };
    expect(err.error.data.app).toMatchObject({ status: 401, error: 'missing_credentials' });
  });

  it('OpenAPI: the endpoint, its scope, conversation_key deprecated with the collision caveat, the receipts paths', async () => {
    const r = await api(be.baseUrl, 'GET', '/api/v1/openapi.json');
    expect(r.status).toBe(200);
    const op = r.body.paths['/redact'].post;
    expect(op.description).toMatch(/Scope: `redact`/);
    expect(op.description).toMatch(/refused with 401/);
    const schema = op.requestBody.content['application/json'].schema;
    const props = schema.properties ?? r.body.components?.schemas?.[schema.$ref?.split('/').pop()]?.properties;
    expect(props.conversation_key.deprecated).toBe(true);
    expect(props.conversation_key.description).toMatch(/cross.*collision|collisions across calls/i);
    expect(props.text.description).toMatch(/100000/);
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '503']));
    expect(r.body.paths['/redact/receipts'].get).toBeDefined();
    expect(r.body.paths['/redact/receipts/{receipt_id}'].get).toBeDefined();
  });

  it('the request body limit is not the text limit: 4 MiB bodies get 413 before parsing', async () => {
    const huge = await api(be.baseUrl, 'POST', PATH, {
      key: org.key,
      raw: JSON.stringify({ text: 'a'.repeat(5 * 1024 * 1024) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(huge.status).toBe(413);
    expect(huge.body.error).toBe('payload_too_large');
  });
});
