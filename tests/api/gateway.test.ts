/**
 * The PHI-safe chat gateway over real HTTP, driven with the official `openai` npm client (plain chat, tools,
 * streaming, errors), against the test upstream (the one allowed double: a real OpenAI-compatible HTTP server).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { api, createTestOrg, startBackend, type TestBackend, type TestOrg } from '../helpers/backend';
import { startTestUpstream, type TestUpstream } from '@/tests/fixtures/test-upstream';
import { addModel, orgKeyEnvPrefix } from '@/server/gateway/registry';
import { setSpendCap, spendStatus } from '@/server/billing/ledger';
import { createApiKey } from '@/server/auth/keys';
import { setLogSink } from '@/server/log';

let be: TestBackend;
let up: TestUpstream;
let keyedUp: TestUpstream;
let org: TestOrg;
let client: OpenAI;
const logLines: string[] = [];
const env = process.env;
const KEY_ENV = 'LLM_TEST_GATEWAY_UPSTREAM_KEY';
const KEY_VALUE = 'sk-test-upstream-secret-value-7f3a9';

const NAME = 'Ahmad Faizal bin Rahman';
const IC = '850101-14-5678';
const PHONE = '012-345 6789';
const NOTE = `Patient ${NAME} (IC ${IC}) seen today for chest pain. Contact ${PHONE}. Plan: ECG, troponin.`;

beforeAll(async () => {
  be = await startBackend();
  up = await startTestUpstream();
  keyedUp = await startTestUpstream({ requireKey: KEY_VALUE });
  org = await createTestOrg(be.db, { scopes: ['llm:chat'] });
  const add = (name: string, upstream: string, extra: Parameters<typeof addModel>[1] extends infer I ? Partial<I> : never = {}, base = up.baseUrl) =>
    addModel(
      be.db,
      {
        name,
        base_url: base,
        upstream_model: upstream,
        approved_for_phi: true,
        price_input_per_1k_usd: 0.01,
        price_output_per_1k_usd: 0.02,
        timeout_ms: 5000,
        ...extra,
      },
      { orgId: org.orgId, actor: 'test' },
    );
  await add('echo', 'echo');
  await add('echo-all', 'echo-all');
  await add('tools', 'tool-call');
  await add('alter', 'alter');
  await add('stall', 'stall', { timeout_ms: 300 });
  await add('broken', 'error');
  await add('no-usage', 'no-usage');
  await add('reasoner', 'echo', { family: 'reasoning' });
  await add('unapproved', 'echo', { approved_for_phi: false });
  await add('keyed', 'echo', { api_key_env: `${orgKeyEnvPrefix(org.orgId)}KEYED` }, keyedUp.baseUrl);
  await add('unset-key', 'echo', { api_key_env: `${orgKeyEnvPrefix(org.orgId)}NOT_SET` });
  // a deployment-wide model, visible to every organisation
  await addModel(
    be.db,
    { name: 'shared-echo', base_url: up.baseUrl, upstream_model: 'echo', approved_for_phi: true, api_key_env: KEY_ENV },
    { orgId: null, actor: 'test' },
  );
  env[`${orgKeyEnvPrefix(org.orgId)}KEYED`] = KEY_VALUE;
  env[KEY_ENV] = KEY_VALUE;
  client = new OpenAI({ baseURL: `${be.baseUrl}/api/v1/llm`, apiKey: org.key, maxRetries: 0 });
  setLogSink((l) => logLines.push(l));
});

afterAll(async () => {
  await up?.close();
  await keyedUp?.close();
  await be?.close();
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

async function ledgerRows(orgId: string) {
  return be.db.query<{
    service_type: string;
    units: number;
    cost: string;
    sandbox: boolean;
    invoiced: boolean;
    details: unknown;
    api_key_id: string | null;
    user_id: string | null;
  }>(
    'SELECT service_type, units, cost_micros::text AS cost, sandbox, invoiced, details, api_key_id::text AS api_key_id, user_id::text AS user_id FROM ledger WHERE org_id = $1 ORDER BY id',
    [orgId],
  );
}

describe(`chat gateway on ${process.env.TEST_DB ?? 'postgres'}`, () => {
  it('plain chat with the openai client: redacted upstream, originals restored, receipt, usage, one ledger row', async () => {
    up.reset();
    const before = (await ledgerRows(org.orgId)).length;
    const res = await client.chat.completions.create({ model: 'echo', messages: [{ role: 'user', content: NOTE }] });
    // the test upstream echoed the placeholders; the gateway restored every original value
    expect(res.object).toBe('chat.completion');
    expect(res.model).toBe('echo');
    expect(res.choices[0]!.message.content).toBe(NOTE);
    expect(res.choices[0]!.finish_reason).toBe('stop');
    // what left the process
    expect(up.requests).toHaveLength(1);
    const sent = up.requests[0]!.body as { model: string; messages: Array<{ content: string }>; max_tokens: number };
    expect(sent.model).toBe('echo');
    expect(sent.max_tokens).toBe(1024);
    const sentText = sent.messages[0]!.content;
    for (const phi of [NAME, 'Ahmad', 'Rahman', IC, '850101145678', PHONE, '3456789']) expect(up.requests[0]!.raw).not.toContain(phi);
    expect(sentText).toMatch(/\[PERSON_1\]/);
    expect(sentText).toMatch(/\[MY_IC_1\]/);
    expect(sentText).toMatch(/\[PHONE_1\]/);
    expect(sentText).toContain('chest pain');
    // receipt
    const receipt = (res as unknown as { redaction_receipt: Record<string, unknown> }).redaction_receipt;
    expect(receipt).toMatchObject({
      status: 'ok',
      rehydration_complete: true,
      unresolved_placeholder_count: 0,
      placeholders_repaired: 0,
      retention: 'metadata_only',
      free_text_fields: 1,
    });
    expect(receipt.entities_redacted).toMatchObject({ PERSON: 1, MY_IC: 1, PHONE: 1 });
    expect(typeof receipt.receipt_id).toBe('string');
    // usage comes from the upstream; cost from the registry price
    expect(res.usage!.prompt_tokens).toBe(Math.ceil(sentText.length / 4));
    expect(res.usage!.total_tokens).toBe(res.usage!.prompt_tokens + res.usage!.completion_tokens);
    const rows = await ledgerRows(org.orgId);
    expect(rows).toHaveLength(before + 1);
    const row = rows.at(-1)!;
    expect(row.service_type).toBe('llm_chat');
    expect(row.units).toBe(res.usage!.total_tokens);
    expect(Number(row.cost)).toBe(Math.ceil((res.usage!.prompt_tokens * 10_000 + res.usage!.completion_tokens * 20_000) / 1000));
    expect(row.api_key_id).toBe(org.keyId);
    expect(row.sandbox).toBe(false);
    const details = JSON.stringify(row.details);
    expect(details).toContain('"input_tokens"');
    for (const phi of [NAME, IC, PHONE, '[PERSON_1]']) expect(details).not.toContain(phi);
    // the stored receipt is metadata only
    const stored = await be.db.query<{ source: string; status: string; entities_total: number }>(
      'SELECT source, status, entities_total FROM redaction_receipts WHERE id = $1',
      [receipt.receipt_id],
    );
    expect(stored[0]).toMatchObject({ source: 'chat', status: 'ok', entities_total: 3 });
  });

  it('accepts the key as X-API-Key and a JWT access token as Bearer; refuses a key without llm:chat', async () => {
    const a = await api(be.baseUrl, 'POST', '/api/v1/llm/chat/completions', {
      key: org.key,
      body: { model: 'echo', messages: [{ role: 'user', content: 'hello' }] },
    });
    expect(a.status).toBe(200);
    expect(a.body.choices[0].message.content).toBe('hello');
    const login = await api(be.baseUrl, 'POST', '/login/', { body: { email: org.email, password: org.password } });
    const jwtClient = new OpenAI({ baseURL: `${be.baseUrl}/api/v1/llm`, apiKey: login.body.access_token, maxRetries: 0 });
    const b = await jwtClient.chat.completions.create({ model: 'echo', messages: [{ role: 'user', content: `Dr ${NAME}` }] });
    expect(b.choices[0]!.message.content).toBe(`Dr ${NAME}`);
    const rows = await ledgerRows(org.orgId);
    expect(rows.at(-1)!.user_id).not.toBeNull(); // a signed-in user is billed as the user
    const searchOnly = await createApiKey(be.db, { orgId: (await createTestOrg(be.db)).orgId, scopes: ['search'], actor: 'test' });
    const err = await errorOf(
      new OpenAI({ baseURL: `${be.baseUrl}/api/v1/llm`, apiKey: searchOnly.key, maxRetries: 0 }).chat.completions.create({
        model: 'echo',
        messages: [{ role: 'user', content: 'x' }],
      }),
    );
    expect(err.status).toBe(403);
    expect(err.error).toBe('insufficient_scope');
    const none = await api(be.baseUrl, 'POST', '/api/v1/llm/chat/completions', { body: { model: 'echo', messages: [{ role: 'user', content: 'x' }] } });
    expect(none.status).toBe(401);
    expect(none.body.error).toBe('missing_credentials');
  });

  it('one mapping for the whole request: system, user, assistant tool_call arguments and tool results share placeholders', async () => {
    up.reset();
    const res = await client.chat.completions.create({
      model: 'echo-all',
      messages: [
        { role: 'system', content: `You assist Dr Siti Aminah binti Hassan. Patient: ${NAME}.` },
        { role: 'user', content: `Look up ${NAME}, IC ${IC}.` },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: JSON.stringify({ patient_name: NAME, ic: IC }) } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: JSON.stringify({ name: NAME, phone: PHONE, note: `${NAME}\nIC ${IC}` }) },
        { role: 'user', content: 'Summarise.' },
      ],
      tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: { patient_name: { type: 'string' } } } } }],
    });
    const raw = up.requests[0]!.raw;
    for (const phi of [NAME, 'Rahman', IC, '850101145678', PHONE, 'Siti Aminah']) expect(raw).not.toContain(phi);
    const body = up.requests[0]!.body as {
      messages: Array<{ role: string; content: string | null; tool_calls?: Array<{ id: string; function: { arguments: string } }> }>;
      tools: unknown[];
    };
    const [sys, user, asst, tool] = body.messages;
    const person = /\[PERSON_\d+\]/.exec(user!.content!)![0];
    expect(sys!.content).toContain(`Patient: ${person}.`);
    const args = JSON.parse(asst!.tool_calls![0]!.function.arguments) as Record<string, string>;
    expect(args.patient_name).toBe(person);
    expect(args.ic).toBe('[MY_IC_1]');
    expect(asst!.tool_calls![0]!.id).toBe('call_1');
    const toolJson = JSON.parse(tool!.content!) as Record<string, string>;
    expect(toolJson.name).toBe(person);
    expect(toolJson.note).toBe(`${person}\nIC [MY_IC_1]`);
    expect(body.tools).toHaveLength(1);
    // the echo of everything comes back with the originals
    const content = res.choices[0]!.message.content!;
    expect(content).toContain(`Patient: ${NAME}.`);
    expect(content).toContain(`Look up ${NAME}, IC ${IC}.`);
    expect(JSON.parse(content.split('\n\n')[2]!)).toEqual({ name: NAME, phone: PHONE, note: `${NAME}\nIC ${IC}` });
    const receipt = (res as unknown as { redaction_receipt: { free_text_fields: number; rehydration_complete: boolean } }).redaction_receipt;
    expect(receipt.rehydration_complete).toBe(true);
    // one field per text (system, user, arguments, tool result, user) plus the tool's parameter schema; a JSON text is
    // one field however many values it holds (finding 6)
    expect(receipt.free_text_fields).toBe(6);
  });

  it('conversation_key keeps placeholders stable across requests', async () => {
    up.reset();
    const ask = (key: string, content: string) =>
      client.chat.completions.create({ model: 'echo', messages: [{ role: 'user', content }], conversation_key: key } as never);
    await ask('conv-1', `First visit: ${NAME}.`);
    await ask('conv-1', `Dr Lim Wei Ming reviewed. Then ${NAME} again.`);
    await ask('conv-2', `First visit: ${NAME}.`);
    const ph = (i: number) =>
      [...(up.requests[i]!.body as { messages: Array<{ content: string }> }).messages[0]!.content.matchAll(/\[PERSON_\d+\]/g)].map((m) => m[0]);
    const first = ph(0)[0];
    expect(ph(1)).toContain(first);
    expect(ph(2)[0]).not.toBe(first);
  });

  it('tools: returned tool_calls arguments have originals restored, even values that need JSON escaping', async () => {
    up.reset();
    const res = await client.chat.completions.create({
      model: 'tools',
      messages: [{ role: 'user', content: `Register ${NAME}, IC ${IC}, phone ${PHONE}.` }],
      tools: [{ type: 'function', function: { name: 'register_patient', parameters: { type: 'object', properties: { text: { type: 'string' } } } } }],
      tool_choice: 'auto',
    });
    const call = res.choices[0]!.message.tool_calls![0]!;
    expect(res.choices[0]!.finish_reason).toBe('tool_calls');
    expect(call.type).toBe('function');
    expect((call as { function: { name: string } }).function.name).toBe('register_patient');
    const args = JSON.parse((call as { function: { arguments: string } }).function.arguments) as { text: string };
    expect(args.text).toBe(`Register ${NAME}, IC ${IC}, phone ${PHONE}.`);
    expect(up.requests[0]!.raw).not.toContain(NAME);
    expect((up.requests[0]!.body as { tool_choice: string }).tool_choice).toBe('auto');

    // a scripted answer whose arguments are not valid JSON: values are restored JSON-escaped
    up.enqueue({ tool_calls: [{ name: 'register_patient', arguments: '{"who": "[PERSON_1]", "ic": "[MY_IC_1]"' }] });
    const r2 = await client.chat.completions.create({
      model: 'tools',
      messages: [{ role: 'user', content: `Patient ${NAME}, IC ${IC}.` }],
      tools: [{ type: 'function', function: { name: 'register_patient' } }],
    });
    expect((r2.choices[0]!.message.tool_calls![0] as { function: { arguments: string } }).function.arguments).toBe(`{"who": "${NAME}", "ic": "${IC}"`);
  });

  it('placeholders the model altered: case/spacing repaired, invented index counted as unresolved', async () => {
    up.reset();
    const res = await client.chat.completions.create({ model: 'alter', messages: [{ role: 'user', content: NOTE }] });
    const content = res.choices[0]!.message.content!;
    // [person_1] and [ MY_IC_1 ] and [phone_1] were repaired; [PERSON_9999] is reported, not silently returned
    expect(content).toBe(`Altered: ${NAME} ${IC} ${PHONE} Invented: [PERSON_9999]`);
    const receipt = (res as unknown as { redaction_receipt: Record<string, unknown> }).redaction_receipt;
    expect(receipt.rehydration_complete).toBe(false);
    expect(receipt.unresolved_placeholder_count).toBe(1);
    expect(receipt.placeholders_repaired).toBe(3);
  });

  it('streaming with the openai client: chunk events, no placeholder cut in half, receipt chunk before [DONE]', async () => {
    up.reset();
    const stream = await client.chat.completions.create({
      model: 'echo',
      messages: [{ role: 'user', content: NOTE }],
      stream: true,
      redact_only: true,
      stream_options: { include_usage: true },
    } as never as OpenAI.ChatCompletionCreateParamsStreaming);
    const pieces: string[] = [];
    const chunks: Array<Record<string, unknown>> = [];
    for await (const c of stream) {
      chunks.push(c as unknown as Record<string, unknown>);
      const d = c.choices[0]?.delta?.content;
      if (d) pieces.push(d);
    }
    const sentText = (up.requests[0]!.body as { messages: Array<{ content: string }>; stream: boolean }).messages[0]!.content;
    expect((up.requests[0]!.body as { stream: boolean }).stream).toBe(true);
    // redact_only: the placeholders are the answer, exactly as the model sent them
    expect(pieces.join('')).toBe(sentText);
    expect(pieces.join('')).not.toContain(NAME);
    // the upstream split every placeholder across two events; the gateway never passes half of one on
    let offset = 0;
    const bounds = pieces.map((p) => (offset += p.length));
    for (const m of sentText.matchAll(/\[[A-Z_]+_\d+\]/g)) {
      const cut = bounds.some((b) => b > m.index && b < m.index + m[0].length);
      expect(cut, `${m[0]} split across chunks`).toBe(false);
    }
    for (const p of pieces) expect(p).not.toMatch(/\[[A-Z_ ]*\d*$/);
    expect(chunks[0]!.object).toBe('chat.completion.chunk');
    const last = chunks.at(-1)! as { choices: unknown[]; redaction_receipt: Record<string, unknown>; usage: { total_tokens: number } };
    expect(last.choices).toEqual([]);
    expect(last.redaction_receipt).toMatchObject({ status: 'ok', rehydration_complete: null, unresolved_placeholder_count: 0 });
    // include_usage: true → usage on the receipt chunk (the upstream's real counts)
    expect(last.usage.total_tokens).toBeGreaterThan(0);
    const finish = chunks.find((c) => (c.choices as Array<{ finish_reason: string | null }>)[0]?.finish_reason);
    expect((finish!.choices as Array<{ finish_reason: string }>)[0]!.finish_reason).toBe('stop');
    const rows = await ledgerRows(org.orgId);
    expect(rows.at(-1)!.details).toMatchObject({ stream: true });
  });

  it('streaming on the wire: text/event-stream, the receipt chunk right before data: [DONE]', async () => {
    const res = await fetch(`${be.baseUrl}/api/v1/llm/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${org.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'echo', messages: [{ role: 'user', content: NOTE }], stream: true, redact_only: true }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const text = await res.text();
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
    const events = text.split('\n\n').filter(Boolean);
    const receiptEvent = JSON.parse(events.at(-2)!.replace(/^data: /, '')) as Record<string, unknown>;
    expect(receiptEvent.object).toBe('chat.completion.chunk');
    expect(receiptEvent.choices).toEqual([]);
    expect(receiptEvent.redaction_receipt).toBeTruthy();
    // no stream_options.include_usage: the receipt chunk is still sent, without usage (as OpenAI sends none)
    expect(receiptEvent).not.toHaveProperty('usage');
    for (const e of events) expect(e.startsWith('data: ')).toBe(true);
    expect(text).not.toContain(NAME);
  });

  describe('refusals: 400 with their own type, nothing sent upstream', () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['stream without redact_only', { stream: true }, 'stream_requires_redact_only'],
      ['stream with redact_only false', { stream: true, redact_only: false }, 'stream_requires_redact_only'],
      ['tools with stream', { stream: true, redact_only: true, tools: [{ type: 'function', function: { name: 'f' } }] }, 'tools_not_supported_with_stream'],
      [
        'an image part',
        {
          messages: [
            {
              role: 'user',
              content: [
                { type: 'text', text: 'see' },
                { type: 'image_url', image_url: { url: 'https://x/y.png' } },
              ],
            },
          ],
        },
        'unsupported_content_part',
      ],
      ['tool_choice required', { tools: [{ type: 'function', function: { name: 'f' } }], tool_choice: 'required' }, 'tool_choice_not_supported'],
      [
        'a named tool_choice',
        { tools: [{ type: 'function', function: { name: 'f' } }], tool_choice: { type: 'function', function: { name: 'f' } } },
        'tool_choice_not_supported',
      ],
      ['functions', { functions: [{ name: 'f', parameters: {} }] }, 'functions_not_supported'],
      ['function_call', { function_call: 'auto' }, 'functions_not_supported'],
      ['max_tokens below 16 on the reasoning family', { model: 'reasoner', max_tokens: 8 }, 'max_tokens_too_low'],
      ['max_completion_tokens below 16 on the reasoning family', { model: 'reasoner', max_completion_tokens: 15 }, 'max_tokens_too_low'],
      ['max_tokens 0', { max_tokens: 0 }, 'invalid_request'],
      ['max_tokens above 32000', { max_tokens: 32001 }, 'invalid_request'],
      ['an unknown field', { n: 2 }, 'invalid_request'],
      ['conversation_key over 200 characters', { conversation_key: 'k'.repeat(201) }, 'invalid_request'],
    ];
    for (const [what, extra, type] of cases) {
      it(`${what} → ${type}`, async () => {
        up.reset();
        const err = await errorOf(client.chat.completions.create({ model: 'echo', messages: [{ role: 'user', content: NOTE }], ...extra } as never));
        expect(err).toBeInstanceOf(OpenAI.BadRequestError);
        expect(err.status).toBe(400);
        expect(err.error).toBe(type);
        expect(up.requests).toHaveLength(0);
      });
    }

    it('the error body keeps the platform shape and names the parameter', async () => {
      const r = await api(be.baseUrl, 'POST', '/api/v1/llm/chat/completions', {
        key: org.key,
        body: { model: 'echo', messages: [{ role: 'user', content: 'x' }], stream: true },
      });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ error: 'stream_requires_redact_only', param: 'stream' });
      expect(r.body.message).toMatch(/redact_only/);
    });

    it('the reasoning family accepts 16; the standard family has no floor', async () => {
      up.reset();
      await client.chat.completions.create({
        model: 'reasoner',
        messages: [{ role: 'user', content: 'hi' }],
        max_tokens: 16,
        reasoning: { effort: 'low', summary: 'auto', other: 1 },
      } as never);
      const sent = up.requests[0]!.body as Record<string, unknown>;
      expect(sent.max_completion_tokens).toBe(16);
      expect(sent.reasoning_effort).toBe('low');
      expect(sent.reasoning).toEqual({ effort: 'low', summary: 'auto' });
      await client.chat.completions.create({
        model: 'echo',
        messages: [{ role: 'user', content: 'hi' }],
        max_tokens: 1,
        reasoning: { effort: 'high' },
      } as never);
      const std = up.requests[1]!.body as Record<string, unknown>;
      expect(std.max_tokens).toBe(1);
      expect(std).not.toHaveProperty('reasoning_effort');
      expect(std).not.toHaveProperty('reasoning');
    });
  });

  it('unknown model → 404 model_not_found; unapproved model → 403 model_not_approved, nothing sent', async () => {
    up.reset();
    const nf = await errorOf(client.chat.completions.create({ model: 'no-such-model', messages: [{ role: 'user', content: NOTE }] }));
    expect(nf).toBeInstanceOf(OpenAI.NotFoundError);
    expect(nf.error).toBe('model_not_found');
    const na = await errorOf(client.chat.completions.create({ model: 'unapproved', messages: [{ role: 'user', content: NOTE }] }));
    expect(na).toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect(na.error).toBe('model_not_approved');
    expect(up.requests).toHaveLength(0);
    // another organisation's model is unknown here
    const other = await createTestOrg(be.db);
    const r = await api(be.baseUrl, 'POST', '/api/v1/llm/chat/completions', {
      key: other.key,
      body: { model: 'echo', messages: [{ role: 'user', content: 'x' }] },
    });
    expect(r.status).toBe(404);
    expect(r.body.error).toBe('model_not_found');
  });

  it('time budget: 504 model_timeout naming the model, the upstream request aborted, no retry, nothing billed', async () => {
    up.reset();
    const before = (await ledgerRows(org.orgId)).length;
    const retrying = new OpenAI({ baseURL: `${be.baseUrl}/api/v1/llm`, apiKey: org.key }); // default retries: 2
    const t0 = performance.now();
    const err = await errorOf(retrying.chat.completions.create({ model: 'stall', messages: [{ role: 'user', content: NOTE }] }));
    const ms = performance.now() - t0;
    expect(err.status).toBe(504);
    expect(err.error).toBe('model_timeout');
    expect(ms).toBeLessThan(3000);
    await up.waitForAborted(1);
    expect(up.requests).toHaveLength(1); // x-should-retry: false → the client did not retry
    expect(up.requests[0]!.aborted).toBe(true);
    const raw = await api(be.baseUrl, 'POST', '/api/v1/llm/chat/completions', {
      key: org.key,
      body: { model: 'stall', messages: [{ role: 'user', content: 'x' }] },
    });
    expect(raw.status).toBe(504);
    expect(raw.body.message).toContain("'stall'");
    expect(raw.body.message).toContain('300 ms');
    await up.waitForAborted(2);
    expect((await ledgerRows(org.orgId)).length).toBe(before);
  });

  it('failed-closed redaction: 503 with a failed_closed receipt, nothing sent upstream, no retry', async () => {
    const saved = env.REDACT_FAULT_INJECTION;
    env.REDACT_FAULT_INJECTION = '1';
    try {
      up.reset();
      const r = await api(be.baseUrl, 'POST', '/api/v1/llm/chat/completions', {
        key: org.key,
        headers: { 'x-redact-fault-injection': 'throw:*' },
        body: { model: 'echo', messages: [{ role: 'user', content: NOTE }] },
      });
      expect(r.status).toBe(503);
      expect(r.body.error).toBe('redaction_failed');
      expect(r.body.redaction_receipt).toMatchObject({ status: 'failed_closed', rehydration_complete: null, entities_redacted: {} });
      expect(r.headers.get('x-should-retry')).toBe('false');
      expect(r.text).not.toContain(NAME);
      expect(r.text).not.toContain('chest pain');
      expect(up.requests).toHaveLength(0);
      const stored = await be.db.query<{ status: string; failure_reason: string }>('SELECT status, failure_reason FROM redaction_receipts WHERE id = $1', [
        r.body.redaction_receipt.receipt_id,
      ]);
      expect(stored[0]).toEqual({ status: 'failed_closed', failure_reason: 'recognizer_error' });
      // the openai client surfaces it as a 5xx APIError and, told not to, does not retry
      const retrying = new OpenAI({ baseURL: `${be.baseUrl}/api/v1/llm`, apiKey: org.key, defaultHeaders: { 'x-redact-fault-injection': 'delay:2500' } });
      const e = await errorOf(
        retrying.chat.completions.create({ model: 'echo', messages: [{ role: 'user', content: NOTE }], stream: true, redact_only: true } as never),
      );
      expect(e.status).toBe(503);
      expect(e.error).toBe('redaction_failed');
      expect(up.requests).toHaveLength(0);
    } finally {
      env.REDACT_FAULT_INJECTION = saved;
    }
  });

  it('spend cap: 429 at the cap (nothing sent), and when max_tokens could cross it', async () => {
    const capped = await createTestOrg(be.db);
    await addModel(
      be.db,
      { name: 'pricey', base_url: up.baseUrl, upstream_model: 'echo', approved_for_phi: true, price_input_per_1k_usd: 1, price_output_per_1k_usd: 1 },
      { orgId: capped.orgId, actor: 'test' },
    );
    const c = new OpenAI({ baseURL: `${be.baseUrl}/api/v1/llm`, apiKey: capped.key, maxRetries: 0 });
    up.reset();
    await setSpendCap(be.db, capped.orgId, 0);
    const atCap = await errorOf(c.chat.completions.create({ model: 'pricey', messages: [{ role: 'user', content: NOTE }] }));
    expect(atCap).toBeInstanceOf(OpenAI.RateLimitError);
    expect(atCap.error).toBe('spend_cap_reached');
    expect(up.requests).toHaveLength(0);
    // $0.50 left; max_tokens 1024 at $1/1K could cost > $1
    await setSpendCap(be.db, capped.orgId, 500_000);
    const over = await errorOf(c.chat.completions.create({ model: 'pricey', messages: [{ role: 'user', content: NOTE }] }));
    expect(over.status).toBe(429);
    expect(up.requests).toHaveLength(0);
    // a small max_tokens fits and is billed
    const ok = await c.chat.completions.create({ model: 'pricey', messages: [{ role: 'user', content: 'hello there' }], max_tokens: 50 });
    expect(ok.choices[0]!.message.content).toBe('hello there');
    const s = await spendStatus(be.db, capped.orgId, false);
    expect(s.spent_micros).toBe(Math.ceil(((ok.usage!.prompt_tokens + ok.usage!.completion_tokens) * 1_000_000) / 1000));
  });

  it('a sandbox key bills the sandbox pool (metered, never invoiced)', async () => {
    const sb = await createApiKey(be.db, { orgId: org.orgId, scopes: ['llm:chat'], sandbox: true, actor: 'test' });
    const c = new OpenAI({ baseURL: `${be.baseUrl}/api/v1/llm`, apiKey: sb.key, maxRetries: 0 });
    await c.chat.completions.create({ model: 'echo', messages: [{ role: 'user', content: 'synthetic' }] });
    const row = (await ledgerRows(org.orgId)).at(-1)!;
    expect(row).toMatchObject({ service_type: 'llm_chat', sandbox: true, invoiced: false, api_key_id: sb.view.id });
  });

  it('upstream keys: read from the named variable and sent as Bearer; an unset variable is a clear 503 that never shows a value', async () => {
    keyedUp.reset();
    const ok = await client.chat.completions.create({ model: 'keyed', messages: [{ role: 'user', content: 'ping' }] });
    expect(ok.choices[0]!.message.content).toBe('ping');
    expect(keyedUp.requests[0]!.authorization).toBe(`Bearer ${KEY_VALUE}`);
    up.reset();
    const shared = await client.chat.completions.create({ model: 'shared-echo', messages: [{ role: 'user', content: 'pong' }] });
    expect(shared.choices[0]!.message.content).toBe('pong');
    expect(up.requests[0]!.authorization).toBe(`Bearer ${KEY_VALUE}`);
    const r = await api(be.baseUrl, 'POST', '/api/v1/llm/chat/completions', {
      key: org.key,
      body: { model: 'unset-key', messages: [{ role: 'user', content: 'x' }] },
    });
    expect(r.status).toBe(503);
    expect(r.body.error).toBe('upstream_not_configured');
    expect(r.body.message).toContain('NOT_SET');
    // the upstream's own 401 is a 502 that does not echo the upstream's message
    env[`${orgKeyEnvPrefix(org.orgId)}KEYED`] = 'wrong';
    try {
      const bad = await api(be.baseUrl, 'POST', '/api/v1/llm/chat/completions', {
        key: org.key,
        body: { model: 'keyed', messages: [{ role: 'user', content: 'x' }] },
      });
      expect(bad.status).toBe(502);
      expect(bad.body).toMatchObject({ error: 'upstream_error', upstream_status: 401, upstream_error: 'invalid_api_key' });
      expect(bad.text).not.toContain('Incorrect API key');
    } finally {
      env[`${orgKeyEnvPrefix(org.orgId)}KEYED`] = KEY_VALUE;
    }
    expect(logLines.join('\n')).not.toContain(KEY_VALUE);
  });

  it('upstream failures: 500 → 502 upstream_error; missing usage is estimated', async () => {
    const e = await errorOf(client.chat.completions.create({ model: 'broken', messages: [{ role: 'user', content: NOTE }] }));
    expect(e.status).toBe(502);
    expect(e.error).toBe('upstream_error');
    const r = await client.chat.completions.create({ model: 'no-usage', messages: [{ role: 'user', content: 'abcdefgh' }] });
    expect(r.usage!.completion_tokens).toBe(2);
    expect((await ledgerRows(org.orgId)).at(-1)!.details).toMatchObject({ usage_estimated: true });
  });

  it('a client that stops reading a stream aborts the upstream', async () => {
    const slow = await startTestUpstream({ chunkDelayMs: 40 });
    try {
      await addModel(be.db, { name: 'slow', base_url: slow.baseUrl, upstream_model: 'echo', approved_for_phi: true }, { orgId: org.orgId, actor: 'test' });
      const ctl = new AbortController();
      const stream = await client.chat.completions.create(
        {
          model: 'slow',
          messages: [{ role: 'user', content: 'word '.repeat(200) }],
          stream: true,
          redact_only: true,
        } as never as OpenAI.ChatCompletionCreateParamsStreaming,
        {
          signal: ctl.signal,
        },
      );
      let n = 0;
      // the openai client ends the iteration quietly when its signal aborts
      for await (const _ of stream) if (++n === 3) ctl.abort();
      expect(n).toBe(3);
      await slow.waitForAborted(1);
      expect(slow.requests[0]!.aborted).toBe(true);
      // what was generated before the stop is billed (estimated), marked as not completed
      let row: Awaited<ReturnType<typeof ledgerRows>>[number] | undefined;
      for (let i = 0; i < 50 && !row; i++) {
        row = (await ledgerRows(org.orgId)).find((r) => (r.details as { model?: string }).model === 'slow');
        if (!row) await new Promise((r) => setTimeout(r, 20));
      }
      expect(row!.details).toMatchObject({ completed: false, usage_estimated: true, stream: true });
    } finally {
      await slow.close();
    }
  });

  it('GET /llm/models lists usable names through the openai client, never upstream URLs or keys', async () => {
    const page = await client.models.list();
    const ids = page.data.map((m) => m.id);
    expect(ids).toEqual(expect.arrayContaining(['echo', 'reasoner', 'shared-echo', 'unapproved']));
    const json = JSON.stringify(page.data);
    expect(json).not.toContain(up.baseUrl);
    expect(json).not.toContain(KEY_ENV);
    const one = await client.models.retrieve('reasoner');
    expect(one).toMatchObject({ id: 'reasoner', object: 'model', family: 'reasoning', approved_for_phi: true });
    const doc = await api(be.baseUrl, 'GET', '/api/v1/openapi.json');
    const op = doc.body.paths['/llm/chat/completions'].post;
    expect(op.description).toMatch(/redaction_receipt/);
    expect(op.requestBody.content['application/json'].schema.properties.conversation_key.maxLength).toBe(200);
    expect(op.requestBody.content['application/json'].schema.additionalProperties).toBe(false);
    expect(doc.body.paths['/llm/models'].get).toBeTruthy();
  });

  it('logs carry no PHI, placeholders or mappings', () => {
    const all = logLines.join('\n');
    for (const s of [NAME, IC, PHONE, 'chest pain', '[PERSON_1]']) expect(all).not.toContain(s);
    expect(all).toContain('chat redaction failed closed'); // the sink did capture the gateway's lines
  });
});
