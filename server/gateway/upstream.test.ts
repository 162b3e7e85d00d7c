/**
 * The upstream client and the SSE parser against the test upstream (real HTTP, real wire format). No database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { SseParser } from './sse';
import { streamPieces, startTestUpstream, type TestUpstream } from '@/tests/fixtures/test-upstream';
import { chatCompletionsUrl, upstreamChat, upstreamChatStream } from './upstream';
import { checkKeyEnv, normalizeBaseUrl, orgKeyEnvPrefix } from './registry';

let up: TestUpstream;
beforeAll(async () => {
  up = await startTestUpstream({ stallMs: 5000 });
});
afterAll(async () => {
  await up?.close();
});

const target = () => ({ model: 'demo', baseUrl: up.baseUrl, key: 'sk-x' });
const body = (model: string, extra: Record<string, unknown> = {}) => ({
  model,
  messages: [{ role: 'user', content: 'Hello [PERSON_1], IC [MY_IC_1].' }],
  ...extra,
});

describe('SseParser', () => {
  it('handles events split anywhere, CRLF, comments, multi-line data and a last event without a blank line', () => {
    const p = new SseParser();
    const wire = ': ping\r\ndata: {"a":1}\r\n\r\nevent: x\ndata: line1\ndata: line2\n\ndata: [DONE]';
    const events = [];
    for (const ch of wire) events.push(...p.push(ch));
    events.push(...p.end());
    expect(events).toEqual([
      { event: null, data: '{"a":1}' },
      { event: 'x', data: 'line1\nline2' },
      { event: null, data: '[DONE]' },
    ]);
  });
});

describe('upstream client', () => {
  it('builds the endpoint URL, keeping a query string', () => {
    expect(chatCompletionsUrl('http://h:1/v1')).toBe('http://h:1/v1/chat/completions');
    expect(chatCompletionsUrl('https://x.openai.azure.com/openai/v1?api-version=2024-10-21')).toBe(
      'https://x.openai.azure.com/openai/v1/chat/completions?api-version=2024-10-21',
    );
  });

  it('non-streamed: parses a chat.completion and sends the key as Bearer', async () => {
    up.reset();
    const r = await upstreamChat(target(), body('echo'), { budgetMs: 5000 });
    expect(r.choices[0]!.message.content).toBe('Hello [PERSON_1], IC [MY_IC_1].');
    expect(r.usage?.prompt_tokens).toBeGreaterThan(0);
    expect(up.requests[0]!.authorization).toBe('Bearer sk-x');
  });

  it('past the budget: 504 model_timeout naming the model, and the upstream request is aborted', async () => {
    up.reset();
    const t0 = performance.now();
    await expect(upstreamChat(target(), body('stall'), { budgetMs: 150 })).rejects.toMatchObject({
      status: 504,
      type: 'model_timeout',
      message: expect.stringContaining("'demo'"),
    });
    expect(performance.now() - t0).toBeLessThan(1500);
    await up.waitForAborted(1);
    expect(up.requests[0]!.aborted).toBe(true);
  });

  it('errors: upstream 500 → 502 without its text; unreachable → 502; not a completion → 502', async () => {
    await expect(upstreamChat(target(), body('error'), { budgetMs: 5000 })).rejects.toMatchObject({
      status: 502,
      type: 'upstream_error',
      extra: { upstream_status: 500, upstream_error: 'test_failure' },
    });
    await expect(upstreamChat({ ...target(), baseUrl: 'http://127.0.0.1:1/v1' }, body('echo'), { budgetMs: 5000 })).rejects.toMatchObject({
      status: 502,
      type: 'upstream_unreachable',
    });
    up.enqueue({ status: 200, rawBody: '{"hello":"world"}' });
    await expect(upstreamChat(target(), body('echo'), { budgetMs: 5000 })).rejects.toMatchObject({ status: 502, type: 'upstream_invalid_response' });
    up.enqueue({ status: 400, rawBody: '{"error":{"message":"You sent Ahmad","type":"invalid_request_error"}}' });
    const err = await upstreamChat(target(), body('echo'), { budgetMs: 5000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).message).not.toContain('Ahmad');
  });

  it('streamed: yields the chunks in order; the test upstream really splits placeholders', async () => {
    const ctl = new AbortController();
    const chunks = await upstreamChatStream(target(), body('echo', { stream: true, stream_options: { include_usage: true } }), { signal: ctl.signal });
    const pieces: string[] = [];
    let usage = 0;
    for await (const c of chunks) {
      const d = c.choices?.[0]?.delta?.content;
      if (d) pieces.push(d);
      if (c.usage?.completion_tokens) usage = c.usage.completion_tokens;
    }
    expect(pieces.join('')).toBe('Hello [PERSON_1], IC [MY_IC_1].');
    expect(pieces.some((p) => /\[[A-Z_]*$/.test(p))).toBe(true);
    expect(usage).toBeGreaterThan(0);
  });

  it('streamPieces cuts every placeholder in the middle', () => {
    const text = 'ab [PERSON_12] cd [MY_IC_3]';
    const pieces = streamPieces(text);
    expect(pieces.join('')).toBe(text);
    let at = 0;
    const cuts = pieces.map((p) => (at += p.length));
    for (const m of text.matchAll(/\[[A-Z_]+_\d+\]/g))
      expect(
        cuts.some((c) => c > m.index && c < m.index + m[0].length),
        m[0],
      ).toBe(true);
  });
});

describe('registry rules', () => {
  it('key variables: deployment models use LLM_* or *_API_KEY, never our own secrets; org models only their prefix', () => {
    expect(() => checkKeyEnv('OPENAI_API_KEY', null)).not.toThrow();
    expect(() => checkKeyEnv('LLM_LOCAL', null)).not.toThrow();
    for (const bad of ['JWT_SECRET', 'DATABASE_URL', 'AWS_SECRET_ACCESS_KEY', 'HOME', 'lower_api_key', 'REDACTION_HMAC_SECRET'])
      expect(() => checkKeyEnv(bad, null), bad).toThrow(AppError);
    const org = '1a2b3c4d-0000-4000-8000-000000000000';
    expect(orgKeyEnvPrefix(org)).toBe('LLM_ORG_1A2B3C4D_');
    expect(() => checkKeyEnv('LLM_ORG_1A2B3C4D_OPENAI', org)).not.toThrow();
    expect(() => checkKeyEnv('OPENAI_API_KEY', org)).toThrow(/LLM_ORG_1A2B3C4D_/);
    expect(() => checkKeyEnv('LLM_ORG_99999999_OPENAI', org)).toThrow(AppError);
  });

  it('base URLs: http(s) only, no credentials or fragment, no metadata hosts; trailing slash dropped', () => {
    expect(normalizeBaseUrl('https://api.openai.com/v1/')).toBe('https://api.openai.com/v1');
    expect(normalizeBaseUrl('http://127.0.0.1:11434/v1')).toBe('http://127.0.0.1:11434/v1');
    expect(normalizeBaseUrl('https://x.openai.azure.com/openai/v1?api-version=1')).toBe('https://x.openai.azure.com/openai/v1?api-version=1');
    for (const bad of ['ftp://x/v1', 'https://user:pw@x/v1', 'https://x/v1#f', 'http://169.254.169.254/latest', 'not a url'])
      expect(() => normalizeBaseUrl(bad), bad).toThrow(AppError);
  });
});
