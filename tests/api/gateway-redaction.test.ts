/**
 * The chat gateway's redaction of everything that leaves the process, its billing after delivery, a client that goes
 * away and the request's time budget — over real HTTP with the official `openai` client where natural, against the
 * test upstream (which records every body it receives). One test per reviewed finding.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { api, createTestOrg, startBackend, type TestBackend, type TestOrg } from '../helpers/backend';
import { startTestUpstream, type TestUpstream } from '@/tests/fixtures/test-upstream';
import { addModel } from '@/server/gateway/registry';
import { setSpendCap, spendStatus } from '@/server/billing/ledger';
import { setLogSink } from '@/server/log';
import { resetEnvCache } from '@/server/env';

let be: TestBackend;
let up: TestUpstream;
let org: TestOrg;
let client: OpenAI;
const logLines: string[] = [];
const env = process.env;
const savedLogLevel = env.LOG_LEVEL;

const NAME = 'Ahmad Faizal bin Rahman';
const OTHER = 'Siti Aminah binti Hassan';
const DOCTOR = 'Lim Wei Ming';
const IC = '850101-14-5678';
const PHONE = '012-345 6789';

/** A Luhn-valid number: `prefix` plus one check digit. */
function luhn(prefix: string): string {
  for (let d = 0; d < 10; d++) {
    const n = prefix + d;
    let sum = 0;
    [...n].reverse().forEach((c, i) => {
      let v = Number(c);
      if (i % 2) v = v * 2 > 9 ? v * 2 - 9 : v * 2;
      sum += v;
    });
    if (sum % 10 === 0) return n;
  }
  throw new Error('unreachable');
}

beforeAll(async () => {
  env.LOG_LEVEL = 'info'; // the disconnect test reads info lines (captured by the sink, never printed)
  resetEnvCache();
  be = await startBackend();
  up = await startTestUpstream();
  org = await createTestOrg(be.db, { scopes: ['llm:chat', 'redact'] });
  const add = (name: string, upstream: string, timeout_ms = 5000) =>
    addModel(
      be.db,
      { name, base_url: up.baseUrl, upstream_model: upstream, approved_for_phi: true, price_input_per_1k_usd: 0.01, price_output_per_1k_usd: 0.02, timeout_ms },
      { orgId: org.orgId, actor: 'test' },
    );
  await add('r-echo', 'echo', 10_000);
  await add('r-echo-all', 'echo-all');
  await add('r-tools', 'tool-call');
  await add('r-fast', 'echo', 100);
  client = new OpenAI({ baseURL: `${be.baseUrl}/api/v1/llm`, apiKey: org.key, maxRetries: 0 });
  setLogSink((l) => logLines.push(l));
});

afterAll(async () => {
  await up?.close();
  await be?.close();
  if (savedLogLevel === undefined) delete env.LOG_LEVEL;
  else env.LOG_LEVEL = savedLogLevel;
  resetEnvCache();
});

async function errorOf(p: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  try {
    await p;
  } catch (e) {
    if (e instanceof OpenAI.APIError) return e;
    throw e;
  }
  throw new Error('expected an APIError');
}

type Sent = {
  messages: Array<{ role: string; content: string | null }>;
  stop?: string[];
  tools?: Array<{
    function: { description?: string; parameters?: { properties: Record<string, { enum?: string[]; default?: string; description?: string }> } };
  }>;
};

const receiptOf = (r: unknown) => (r as { redaction_receipt: Record<string, unknown> }).redaction_receipt;

describe(`gateway redaction of every field, billing, disconnects, budget (${process.env.TEST_DB ?? 'postgres'})`, () => {
  it('finding 1: PHI in stop, tool descriptions and parameter enums/defaults never reaches the upstream; an enum value echoed in a tool call comes back', async () => {
    const request = {
      model: 'r-tools',
      messages: [{ role: 'user' as const, content: `Book a review for ${NAME}.` }],
      stop: [`${NAME}:`, 'END'],
      tools: [
        {
          type: 'function' as const,
          function: {
            name: 'book_review',
            description: `Books reviews with Dr ${DOCTOR} (tel ${PHONE}).`,
            parameters: {
              type: 'object',
              properties: { patient: { type: 'string', enum: [NAME, OTHER], default: OTHER, description: `Patient name, e.g. ${OTHER}` } },
              required: ['patient'],
            },
          },
        },
      ],
    };
    up.reset();
    const res = await client.chat.completions.create(request);
    const raw = up.requests[0]!.raw;
    for (const phi of [NAME, 'Faizal', DOCTOR, PHONE, '3456789', OTHER, 'Aminah']) expect(raw, phi).not.toContain(phi);
    const sent = up.requests[0]!.body as unknown as Sent;
    expect(sent.stop).toEqual([expect.stringMatching(/^\[PERSON_\d+\]:$/), 'END']);
    const patient = sent.tools![0]!.function.parameters!.properties.patient!;
    expect(patient.enum).toHaveLength(2);
    // one mapping for the whole request: the message and the enum share the placeholder of the same name
    expect(sent.messages[0]!.content).toContain(patient.enum![0]);
    expect(sent.stop![0]).toBe(`${patient.enum![0]}:`);
    expect(patient.default).toBe(patient.enum![1]);
    expect(sent.tools![0]!.function.description).toMatch(/^Books reviews with Dr \[PERSON_\d+\] \(tel \[PHONE_1\]\)\.$/);
    const args = JSON.parse((res.choices[0]!.message.tool_calls![0] as { function: { arguments: string } }).function.arguments) as { text: string };
    expect(args.text).toBe(`Book a review for ${NAME}.`);

    // the model picks the other enum value (its placeholder) in its tool call: the original comes back
    up.reset();
    up.enqueue({ tool_calls: [{ name: 'book_review', arguments: JSON.stringify({ patient: patient.enum![1] }) }] });
    const again = await client.chat.completions.create(request);
    expect(JSON.parse((again.choices[0]!.message.tool_calls![0] as { function: { arguments: string } }).function.arguments)).toEqual({ patient: OTHER });
    expect(receiptOf(again)).toMatchObject({ rehydration_complete: true, unresolved_placeholder_count: 0, free_text_fields: 5 });
  });

  it('finding 2: JSON keys that are names and JSON numbers of any size are redacted; the echoed document comes back byte for byte', async () => {
    const card = luhn('411111111111111111'); // 19 digits: beyond Number.MAX_SAFE_INTEGER
    const doc = `{"Ahmad_Faizal": {"ic": 850101145678, "card": ${card}}, "patients": {"${OTHER}": {"visits": 3}}, "amount": 12345678901234567890, "ratio": 1.50}`;
    up.reset();
    const res = await client.chat.completions.create({
      model: 'r-echo',
      messages: [
        { role: 'user', content: 'Summarise the record.' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_r1', type: 'function', function: { name: 'get_record', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'call_r1', content: doc },
      ],
    });
    const raw = up.requests[0]!.raw;
    for (const phi of ['Ahmad_Faizal', 'Faizal', OTHER, 'Aminah', '850101145678', card, card.slice(0, 12), card.slice(-12)])
      expect(raw, phi).not.toContain(phi);
    const sentTool = JSON.parse((up.requests[0]!.body as unknown as Sent).messages[2]!.content!) as Record<string, unknown>;
    expect(Object.keys(sentTool)).toEqual([expect.stringMatching(/^\[PERSON_\d+\]$/), 'patients', 'amount', 'ratio']);
    expect(Object.values(sentTool)[0]).toEqual({ ic: '[MY_IC_1]', card: '[CARD_NUMBER_1]' });
    // a long number that is no identifier is forwarded exactly as written, not rounded through a JS number
    expect(raw).toContain('\\"amount\\": 12345678901234567890');
    // the echo restores keys, values and the numbers (as numbers) exactly
    expect(res.choices[0]!.message.content).toBe(doc);
    expect(receiptOf(res)).toMatchObject({ rehydration_complete: true, free_text_fields: 3, entities_redacted: { PERSON: 2, MY_IC: 1, CARD_NUMBER: 1 } });
  });

  it('finding 1: a resent tool call whose name or id is free text or carries PHI is refused with a clear 400; nothing is sent', async () => {
    up.reset();
    const resend = (name: string, id: string) =>
      errorOf(
        client.chat.completions.create({
          model: 'r-echo',
          messages: [
            { role: 'user', content: 'Look it up.' },
            { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name, arguments: '{}' } }] },
            { role: 'tool', tool_call_id: id, content: 'done' },
          ],
        }),
      );
    const spaced = await resend(`lookup ${NAME}`, 'call_1');
    expect(spaced.status).toBe(400);
    expect(spaced.error).toBe('invalid_request');
    const named = await resend('lookup_Ahmad_Faizal', 'call_1');
    expect(named.status).toBe(400);
    expect(named.error).toBe('identifier_in_token');
    const r = await api(be.baseUrl, 'POST', '/api/v1/llm/chat/completions', {
      key: org.key,
      body: {
        model: 'r-echo',
        messages: [{ role: 'assistant', content: null, tool_calls: [{ id: 'call_850101145678', type: 'function', function: { name: 'f', arguments: '{}' } }] }],
      },
    });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: 'identifier_in_token', param: 'messages.0.tool_calls.0.id' });
    expect(r.body.message).toMatch(/IC number/);
    expect(r.text).not.toContain('850101145678');
    const longId = await api(be.baseUrl, 'POST', '/api/v1/llm/chat/completions', {
      key: org.key,
      body: { model: 'r-echo', messages: [{ role: 'tool', tool_call_id: `call ${NAME}`, content: 'x' }] },
    });
    expect(longId.status).toBe(400);
    expect(longId.body.message).toContain('messages.0.tool_call_id');
    expect(up.requests).toHaveLength(0);
  });

  it('finding 3/14: a client placeholder in a later message never collides with ours, is left as written and is not unresolved', async () => {
    up.reset();
    const res = await client.chat.completions.create({
      model: 'r-echo-all',
      messages: [
        { role: 'user', content: `Patient ${NAME} was admitted.` },
        { role: 'user', content: 'His brother [PERSON_1] (redacted by our own system) visited.' },
      ],
    });
    const sent = up.requests[0]!.body as unknown as Sent;
    expect(sent.messages[0]!.content).toBe('Patient [PERSON_2] was admitted.');
    expect(sent.messages[1]!.content).toBe('His brother [PERSON_1] (redacted by our own system) visited.');
    expect(res.choices[0]!.message.content).toBe(`Patient ${NAME} was admitted.\n\nHis brother [PERSON_1] (redacted by our own system) visited.`);
    expect(receiptOf(res)).toMatchObject({
      client_preredacted: true,
      rehydration_complete: true,
      unresolved_placeholder_count: 0,
      entities_redacted: { PERSON: 1 },
      free_text_fields: 2,
    });
  });

  it('a three-turn conversation that resends its earlier turns: one person keeps one placeholder, two people never share one', async () => {
    const people = [NAME, OTHER, DOCTOR];
    const turns = [`Patient ${NAME} was admitted.`, `His wife ${OTHER} called.`, `Dr ${DOCTOR} reviewed ${NAME}.`];
    const messages: Array<{ role: 'user' | 'assistant'; content: string }> = [];
    const seen = new Map<string, Set<string>>(); // placeholder -> the people it stood for, across the three requests
    for (const turn of turns) {
      messages.push({ role: 'user', content: turn });
      up.reset();
      const res = await client.chat.completions.create({
        model: 'r-echo',
        messages,
        conversation_key: 'ward-5-bed-12',
        redact_only: true,
      } as never as OpenAI.ChatCompletionCreateParamsNonStreaming);
      const sent = up.requests[0]!.body as unknown as Sent;
      // what the upstream saw for each user turn, aligned with the original turn: placeholder -> the text it replaced
      sent.messages.forEach((m, i) => {
        if (messages[i]!.role !== 'user' || !m.content) return;
        for (const p of people) expect(m.content, 'no PHI reaches the upstream').not.toContain(p);
        const parts = m.content.split(/(\[[A-Z_]+_\d+\])/);
        const re = new RegExp('^' + parts.map((x, k) => (k % 2 ? '(.+?)' : x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('') + '$');
        const got = re.exec(messages[i]!.content);
        expect(got, 'the upstream text is the original with placeholders').not.toBeNull();
        parts.forEach((x, k) => {
          if (k % 2 && x.startsWith('[PERSON_')) (seen.get(x) ?? seen.set(x, new Set()).get(x)!).add(got![(k + 1) / 2]!);
        });
      });
      // the answer keeps the placeholders (redact_only) and is resent as the assistant turn
      messages.push({ role: 'assistant', content: res.choices[0]!.message.content! });
    }
    for (const [ph, who] of seen) expect([...who], `${ph} stood for one person`).toHaveLength(1);
    const byPerson = new Map<string, Set<string>>();
    for (const [ph, who] of seen) for (const p of who) (byPerson.get(p) ?? byPerson.set(p, new Set()).get(p)!).add(ph);
    expect(byPerson.get(NAME)?.size, 'the patient kept one placeholder over three turns').toBe(1);
    expect(byPerson.size).toBe(3);
  });

  it('finding 4: an answer whose real usage passes its reservation is delivered and billed once, never past the cap (non-streamed and streamed)', async () => {
    const capped = await createTestOrg(be.db, { scopes: ['llm:chat'] });
    await addModel(
      be.db,
      { name: 'pricey', base_url: up.baseUrl, upstream_model: 'echo', approved_for_phi: true, price_input_per_1k_usd: 1, price_output_per_1k_usd: 1 },
      { orgId: capped.orgId, actor: 'test' },
    );
    const c = new OpenAI({ baseURL: `${be.baseUrl}/api/v1/llm`, apiKey: capped.key, maxRetries: 0 });
    const rowsOf = (ref: string) =>
      be.db.query<{ cost: string; details: Record<string, unknown> }>('SELECT cost_micros::text AS cost, details FROM ledger WHERE idempotency_ref = $1', [
        ref,
      ]);

    // non-streamed: the worst case (prompt bytes + max_tokens 20) is reserved; the upstream then reports 1000 output
    // tokens, far more than max_tokens allows: the answer is delivered, billed up to the cap, the rest recorded
    const s0 = await spendStatus(be.db, capped.orgId, false);
    await setSpendCap(be.db, capped.orgId, s0.spent_micros + 100_000);
    up.reset();
    up.enqueue({ content: 'y'.repeat(4000) });
    const res = await c.chat.completions.create({ model: 'pricey', messages: [{ role: 'user', content: 'hello' }], max_tokens: 20 });
    expect(res.choices[0]!.message.content).toBe('y'.repeat(4000)); // delivered, not a 429
    const rows = await rowsOf(`llm_chat:${res.id}`);
    expect(rows).toHaveLength(1);
    const real = (res.usage!.prompt_tokens + res.usage!.completion_tokens) * 1000;
    expect(Number(rows[0]!.cost)).toBe(100_000);
    expect(rows[0]!.details.unbilled_micros).toBe(real - 100_000);
    const s1 = await spendStatus(be.db, capped.orgId, false);
    expect(s1).toMatchObject({ spent_micros: s0.spent_micros + 100_000, reserved_micros: 0, at_cap: true });
    expect(s1.spent_micros).toBe(s1.cap_micros);
    // at the cap: refused up front, nothing sent
    up.reset();
    const refused = await errorOf(c.chat.completions.create({ model: 'pricey', messages: [{ role: 'user', content: 'hello' }], max_tokens: 1 }));
    expect(refused.status).toBe(429);
    expect(up.requests).toHaveLength(0);

    // streamed: the same, settled at the end of the delivered stream
    await setSpendCap(be.db, capped.orgId, s1.spent_micros + 100_000);
    up.reset();
    up.enqueue({ content: 'z'.repeat(4000) });
    const stream = await c.chat.completions.create({
      model: 'pricey',
      messages: [{ role: 'user', content: 'hello' }],
      max_tokens: 20,
      stream: true,
      redact_only: true,
      stream_options: { include_usage: true },
    } as never as OpenAI.ChatCompletionCreateParamsStreaming);
    let text = '';
    let id = '';
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const ch of stream) {
      id = ch.id;
      text += ch.choices[0]?.delta?.content ?? '';
      if (ch.usage) usage = ch.usage;
    }
    expect(text).toBe('z'.repeat(4000));
    const srows = await rowsOf(`llm_chat:${id}`);
    expect(srows).toHaveLength(1);
    expect(srows[0]!.details).toMatchObject({
      stream: true,
      usage_estimated: false,
      unbilled_micros: (usage!.prompt_tokens + usage!.completion_tokens) * 1000 - 100_000,
    });
    expect(Number(srows[0]!.cost)).toBe(100_000);
    const s2 = await spendStatus(be.db, capped.orgId, false);
    expect(s2).toMatchObject({ spent_micros: s1.spent_micros + 100_000, reserved_micros: 0, at_cap: true });
    const sum = await be.db.query<{ total: string }>('SELECT sum(cost_micros)::text AS total FROM ledger WHERE org_id = $1', [capped.orgId]);
    expect(Number(sum[0]!.total)).toBe(s2.spent_micros);
    expect(s2.spent_micros).toBeLessThanOrEqual(s2.cap_micros!);
  });

  it('finding 8: a client that disconnects from a non-streamed call aborts the upstream quietly (499, info log, no 500, nothing billed)', async () => {
    up.reset();
    up.enqueue({ content: 'too late', delayMs: 3000 });
    const ledgerBefore = await be.db.query<{ n: number }>('SELECT count(*)::int AS n FROM ledger WHERE org_id = $1', [org.orgId]);
    const ctl = new AbortController();
    const pending = fetch(`${be.baseUrl}/api/v1/llm/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${org.key}`, 'content-type': 'application/json', 'x-request-id': 'disconnect-test-0001' },
      body: JSON.stringify({ model: 'r-echo', messages: [{ role: 'user', content: `Summarise ${NAME}.` }] }),
      signal: ctl.signal,
    }).catch((e: unknown) => e);
    for (let i = 0; i < 200 && up.requests.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(up.requests).toHaveLength(1);
    ctl.abort();
    await pending;
    await up.waitForAborted(1);
    let line: string | undefined;
    for (let i = 0; i < 100 && !line; i++) {
      line = logLines.find((l) => l.includes('disconnect-test-0001') && l.includes('"msg":"request"'));
      if (!line) await new Promise((r) => setTimeout(r, 20));
    }
    const mine = logLines.filter((l) => l.includes('disconnect-test-0001'));
    expect(JSON.parse(line!)).toMatchObject({ level: 'info', status: 499 });
    expect(mine.some((l) => l.includes('chat client disconnected') && l.includes('"level":"info"'))).toBe(true);
    expect(mine.some((l) => /"level":"(error|warn)"/.test(l))).toBe(false);
    expect(logLines.join('\n')).not.toContain('unhandled error');
    const ledgerAfter = await be.db.query<{ n: number }>('SELECT count(*)::int AS n FROM ledger WHERE org_id = $1', [org.orgId]);
    expect(ledgerAfter[0]!.n).toBe(ledgerBefore[0]!.n);
  });

  it("finding 5: the request's time budget covers redaction (503 time_budget_exceeded, nothing sent); a huge JSON tool result is redacted in a few passes within it", async () => {
    // ~0.9 MB of JSON rows in 11 tool-result parts (about 105,000 keys and values), a name in some rows
    const rows = Array.from({ length: 15_000 }, (_, i) => ({
      id: i,
      code: `I${i % 100}.9`,
      status: 'active',
      note: i % 500 === 0 ? `seen by Dr ${DOCTOR}` : 'stable',
    }));
    const parts: Array<{ type: 'text'; text: string }> = [];
    for (let i = 0; i < rows.length; i += 1400) parts.push({ type: 'text', text: JSON.stringify({ rows: rows.slice(i, i + 1400) }) });
    const body = (model: string) => ({
      model,
      messages: [
        { role: 'user', content: 'Summarise.' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_big', type: 'function', function: { name: 'rows', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'call_big', content: parts },
      ],
    });
    expect(JSON.stringify(body('x')).length).toBeGreaterThan(900_000);

    up.reset();
    const t0 = performance.now();
    const ok = await api(be.baseUrl, 'POST', '/api/v1/llm/chat/completions', { key: org.key, body: body('r-echo') });
    const ms = performance.now() - t0;
    expect(ok.status).toBe(200);
    expect(up.requests[0]!.raw).not.toContain(DOCTOR);
    expect(ok.body.choices[0].message.content).toBe(parts.map((p) => p.text).join(''));
    expect(ok.body.redaction_receipt.free_text_fields).toBe(2 + parts.length);
    expect(ms).toBeLessThan(8000);

    // the same request against a model whose whole budget is 100 ms: fails closed, nothing sent
    up.reset();
    const slow = await api(be.baseUrl, 'POST', '/api/v1/llm/chat/completions', { key: org.key, body: body('r-fast') });
    expect(slow.status).toBe(503);
    expect(slow.body).toMatchObject({ error: 'redaction_failed', reason: 'time_budget_exceeded', redaction_receipt: { status: 'failed_closed' } });
    expect(up.requests).toHaveLength(0);

    // and deterministically: a slow engine (fault injection) past the 100 ms budget of the request, well inside 2 s per text
    const saved = env.REDACT_FAULT_INJECTION;
    env.REDACT_FAULT_INJECTION = '1';
    try {
      const r = await api(be.baseUrl, 'POST', '/api/v1/llm/chat/completions', {
        key: org.key,
        headers: { 'x-redact-fault-injection': 'delay:60' },
        body: { model: 'r-fast', messages: [{ role: 'user', content: `Patient ${NAME}` }] },
      });
      expect(r.status).toBe(503);
      expect(r.body.reason).toBe('time_budget_exceeded');
      expect(up.requests).toHaveLength(0);
    } finally {
      env.REDACT_FAULT_INJECTION = saved;
    }
  });

  it('finding 7: a REDACTION_HMAC_SECRET that is set but too short fails closed with a configuration error (chat and redact doors)', async () => {
    const saved = env.REDACTION_HMAC_SECRET;
    env.REDACTION_HMAC_SECRET = 'too-short';
    try {
      up.reset();
      const chat = await api(be.baseUrl, 'POST', '/api/v1/llm/chat/completions', {
        key: org.key,
        body: { model: 'r-echo', conversation_key: 'conv-7', messages: [{ role: 'user', content: `Patient ${NAME}` }] },
      });
      expect(chat.status).toBe(503);
      expect(chat.body).toMatchObject({ error: 'redaction_failed', reason: 'configuration', redaction_receipt: { status: 'failed_closed' } });
      expect(chat.body.message).toContain('REDACTION_HMAC_SECRET');
      expect(chat.text).not.toContain('too-short');
      expect(up.requests).toHaveLength(0);
      const redact = await api(be.baseUrl, 'POST', '/api/v1/redact/', { key: org.key, body: { text: `Patient ${NAME}`, conversation_key: 'conv-7' } });
      expect(redact.status).toBe(503);
      expect(redact.body).toMatchObject({ error: 'redaction_failed', reason: 'configuration' });
      expect(redact.body.message).toContain('REDACTION_HMAC_SECRET');
      expect(redact.text).not.toContain('too-short');
      // without conversation_key the secret is not needed
      const plain = await api(be.baseUrl, 'POST', '/api/v1/llm/chat/completions', {
        key: org.key,
        body: { model: 'r-echo', messages: [{ role: 'user', content: `Patient ${NAME}` }] },
      });
      expect(plain.status).toBe(200);
    } finally {
      if (saved === undefined) delete env.REDACTION_HMAC_SECRET;
      else env.REDACTION_HMAC_SECRET = saved;
    }
    expect(logLines.join('\n')).not.toContain('too-short');
  });

  it('the OpenAPI description says what is sent and how errors and streams look', async () => {
    const doc = await api(be.baseUrl, 'GET', '/api/v1/openapi.json');
    const d = doc.body.paths['/llm/chat/completions'].post.description as string;
    expect(d).not.toContain('Only the redacted request leaves the process');
    for (const s of [
      '`stop` string',
      "tool's `description`",
      '`parameters` schema',
      'identifier_in_token',
      'include_usage',
      'platform shape',
      'time_budget_exceeded',
      'worst-case cost',
      'never passes the cap',
    ])
      expect(d).toContain(s);
  });

  it('logs carry no PHI, placeholders or mappings', () => {
    const all = logLines.join('\n');
    for (const s of [NAME, OTHER, DOCTOR, IC, PHONE, '850101145678', '[PERSON_1]']) expect(all).not.toContain(s);
  });
});
