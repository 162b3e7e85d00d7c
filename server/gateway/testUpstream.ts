/**
 * A small OpenAI-compatible HTTP server for tests, benchmarks and demos (`npm run dev:upstream`). Real LLMs cannot
 * be reached here, so this is the one allowed double: real HTTP, the real wire format (`chat.completion`, SSE
 * `chat.completion.chunk` events ending with `data: [DONE]`, `usage`, `tool_calls`).
 *
 * It records every request it receives (raw body, parsed body, whether an Authorization header came, whether the
 * client aborted) and behaves according to the upstream model name in the body:
 *
 *   echo       (default) answers with the text of the last user or tool message: placeholders come straight back
 *   echo-all   answers with every message's text, joined by a blank line
 *   tool-call  answers with a tool call to the first tool, arguments {"text": <last user/tool text>}
 *   alter      answers with the placeholders of the last user/tool message altered ([person_1], [ PERSON_2 ], …)
 *              and one invented placeholder [PERSON_9999]
 *   stall      never answers (until `stallMs`, default 120 s, or the client aborts)
 *   error      answers 500 with an OpenAI-style error body
 *   no-usage   like echo, without `usage`
 *
 * With `stream: true` the answer is streamed in small pieces, and every placeholder is split across two events (so
 * the gateway's chunker is exercised). `enqueue()` scripts the next answer(s) exactly.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  /** The body exactly as received. */
  raw: string;
  body: Record<string, unknown> | null;
  authorization: string | null;
  /** The client closed the connection before the answer was complete (an aborted request). */
  aborted: boolean;
  /** The answer was sent in full. */
  completed: boolean;
  at: number;
}

export interface ScriptedAnswer {
  content?: string | null;
  tool_calls?: Array<{ id?: string; name: string; arguments: string }>;
  finish_reason?: string;
  status?: number;
  /** Raw body to send instead of a chat.completion (with `status`). */
  rawBody?: string;
  /** Omit usage. */
  noUsage?: boolean;
  /** Report these token counts instead of characters / 4 (an upstream that counts differently, or over-reports). */
  usage?: { prompt_tokens: number; completion_tokens: number };
  /** Wait this long before answering. */
  delayMs?: number;
}

export interface TestUpstreamOptions {
  port?: number;
  host?: string;
  /** When set, requests must carry `Authorization: Bearer <requireKey>` (401 otherwise). */
  requireKey?: string;
  stallMs?: number;
  /** Pause between streamed events (default 0: one event per write, no timer). */
  chunkDelayMs?: number;
  /** Keep at most this many recorded requests (default 10000). */
  maxRecorded?: number;
  /** Called for every chat request received (dev:upstream prints a line). */
  onRequest?: (r: RecordedRequest) => void;
}

export interface TestUpstream {
  /** Base URL to register as a model's base_url, e.g. http://127.0.0.1:4010/v1 */
  baseUrl: string;
  port: number;
  requests: RecordedRequest[];
  /** Script the next answers (first in, first out). */
  enqueue(...answers: ScriptedAnswer[]): void;
  /** Forget recorded requests and scripted answers. */
  reset(): void;
  /** Resolves when `n` requests have been recorded as aborted. */
  waitForAborted(n?: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

const PLACEHOLDER = /\[[A-Z][A-Z_]*_\d+\]/g;

type Msg = { role?: unknown; content?: unknown };

function textOf(m: Msg | undefined): string {
  if (!m) return '';
  if (typeof m.content === 'string') return m.content;
  if (Array.isArray(m.content)) return m.content.map((p) => (p && typeof p === 'object' && typeof (p as { text?: unknown }).text === 'string' ? (p as { text: string }).text : '')).join('');
  return '';
}

function lastUserOrTool(messages: Msg[]): string {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.role === 'user' || messages[i]!.role === 'tool') return textOf(messages[i]);
  return '';
}

function alter(text: string): string {
  const seen = [...new Set(text.match(PLACEHOLDER) ?? [])];
  const altered = seen.map((p, i) => (i % 2 === 0 ? p.toLowerCase() : `[ ${p.slice(1, -1)} ]`));
  return `Altered: ${altered.join(' ')} Invented: [PERSON_9999]`;
}

const tokens = (chars: number) => Math.ceil(chars / 4);

/** Split text into stream pieces: every placeholder is cut in its middle, the rest every 7 characters. */
export function streamPieces(text: string): string[] {
  const cuts = new Set<number>();
  for (let i = 7; i < text.length; i += 7) cuts.add(i);
  for (const m of text.matchAll(PLACEHOLDER)) cuts.add(m.index + Math.floor(m[0].length / 2));
  const sorted = [...cuts].filter((c) => c > 0 && c < text.length).sort((a, b) => a - b);
  const out: string[] = [];
  let last = 0;
  for (const c of sorted) {
    out.push(text.slice(last, c));
    last = c;
  }
  out.push(text.slice(last));
  return out.filter(Boolean);
}

export async function startTestUpstream(opts: TestUpstreamOptions = {}): Promise<TestUpstream> {
  const requests: RecordedRequest[] = [];
  let queue: ScriptedAnswer[] = [];
  let seq = 0;
  const abortWaiters: Array<{ n: number; resolve: () => void }> = [];
  const max = opts.maxRecorded ?? 10_000;

  const noteAbort = () => {
    const n = requests.filter((r) => r.aborted).length;
    for (const w of abortWaiters.splice(0)) {
      if (n >= w.n) w.resolve();
      else abortWaiters.push(w);
    }
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const path = (req.url ?? '/').split('?')[0]!;
      if (req.method === 'GET' && /\/models\/?$/.test(path)) {
        const ids = ['echo', 'echo-all', 'tool-call', 'alter', 'stall', 'error', 'no-usage'];
        send(res, 200, { object: 'list', data: ids.map((id) => ({ id, object: 'model', created: 0, owned_by: 'test-upstream' })) });
        return;
      }
      if (req.method !== 'POST' || !/\/chat\/completions\/?$/.test(path)) {
        send(res, 404, { error: { message: 'not found', type: 'invalid_request_error' } });
        return;
      }
      let body: Record<string, unknown> | null = null;
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        body = null;
      }
      const rec: RecordedRequest = { method: req.method, path, raw, body, authorization: req.headers.authorization ?? null, aborted: false, completed: false, at: Date.now() };
      requests.push(rec);
      if (requests.length > max) requests.splice(0, requests.length - max);
      opts.onRequest?.(rec);
      res.on('close', () => {
        if (!res.writableFinished) {
          rec.aborted = true;
          noteAbort();
        }
      });
      res.on('finish', () => {
        rec.completed = true;
      });
      if (opts.requireKey && req.headers.authorization !== `Bearer ${opts.requireKey}`) {
        send(res, 401, { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' } });
        return;
      }
      if (!body || !Array.isArray(body.messages)) {
        send(res, 400, { error: { message: 'messages is required', type: 'invalid_request_error' } });
        return;
      }
      void answer(body, res);
    });
  });

  async function answer(body: Record<string, unknown>, res: http.ServerResponse): Promise<void> {
    const messages = body.messages as Msg[];
    const model = typeof body.model === 'string' ? body.model : 'echo';
    const scripted = queue.shift();
    const stream = body.stream === true;
    if (scripted?.delayMs) await sleepUnlessClosed(scripted.delayMs, res);
    if (res.destroyed) return;
    if (!scripted && model === 'stall') {
      await sleepUnlessClosed(opts.stallMs ?? 120_000, res);
      if (!res.destroyed) send(res, 200, completion(model, 'finally', undefined, 'stop', messages, false));
      return;
    }
    if (scripted?.status || (!scripted && model === 'error')) {
      const status = scripted?.status ?? 500;
      if (scripted?.rawBody !== undefined) {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(scripted.rawBody);
      } else send(res, status, { error: { message: 'The test upstream was asked to fail.', type: 'server_error', code: 'test_failure' } });
      return;
    }
    let content: string | null;
    let toolCalls: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }> | undefined;
    let finish = 'stop';
    if (scripted) {
      content = scripted.content ?? null;
      toolCalls = scripted.tool_calls?.map((t, i) => ({ id: t.id ?? `call_test_${++seq}_${i}`, type: 'function' as const, function: { name: t.name, arguments: t.arguments } }));
      finish = scripted.finish_reason ?? (toolCalls ? 'tool_calls' : 'stop');
    } else if (model === 'tool-call') {
      const tools = Array.isArray(body.tools) ? (body.tools as Array<{ function?: { name?: string } }>) : [];
      const name = tools[0]?.function?.name ?? 'tool';
      content = null;
      toolCalls = [{ id: `call_test_${++seq}`, type: 'function', function: { name, arguments: JSON.stringify({ text: lastUserOrTool(messages) }) } }];
      finish = 'tool_calls';
    } else if (model === 'echo-all') {
      content = messages.map(textOf).filter(Boolean).join('\n\n');
    } else if (model === 'alter') {
      content = alter(lastUserOrTool(messages));
    } else {
      content = lastUserOrTool(messages);
    }
    const noUsage = scripted?.noUsage === true || model === 'no-usage';
    if (!stream) {
      send(res, 200, completion(model, content, toolCalls, finish, messages, noUsage, scripted?.usage));
      return;
    }
    const includeUsage = !noUsage && (body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
    await streamAnswer(res, model, content ?? '', finish, messages, includeUsage, scripted?.usage);
  }

  function completion(model: string, content: string | null, toolCalls: unknown[] | undefined, finish: string, messages: Msg[], noUsage: boolean, usage?: ScriptedAnswer['usage']) {
    const prompt = usage?.prompt_tokens ?? tokens(messages.map(textOf).join('').length);
    const out = usage?.completion_tokens ?? tokens((content ?? '').length + JSON.stringify(toolCalls ?? []).length * (toolCalls ? 1 : 0));
    return {
      id: `chatcmpl-test-${++seq}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [{ index: 0, message: { role: 'assistant', content, refusal: null, ...(toolCalls ? { tool_calls: toolCalls } : {}) }, logprobs: null, finish_reason: finish }],
      ...(noUsage ? {} : { usage: { prompt_tokens: prompt, completion_tokens: out, total_tokens: prompt + out } }),
    };
  }

  async function streamAnswer(res: http.ServerResponse, model: string, content: string, finish: string, messages: Msg[], includeUsage: boolean, usage?: ScriptedAnswer['usage']): Promise<void> {
    const id = `chatcmpl-test-${++seq}`;
    const created = Math.floor(Date.now() / 1000);
    const base = { id, object: 'chat.completion.chunk', created, model };
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const write = async (data: unknown) => {
      if (res.destroyed) return;
      res.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
      if (opts.chunkDelayMs) await new Promise((r) => setTimeout(r, opts.chunkDelayMs));
      else await new Promise((r) => setImmediate(r));
    };
    await write({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }] });
    for (const piece of streamPieces(content)) await write({ ...base, choices: [{ index: 0, delta: { content: piece }, logprobs: null, finish_reason: null }] });
    await write({ ...base, choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: finish }] });
    if (includeUsage) {
      const prompt = usage?.prompt_tokens ?? tokens(messages.map(textOf).join('').length);
      const out = usage?.completion_tokens ?? tokens(content.length);
      await write({ ...base, choices: [], usage: { prompt_tokens: prompt, completion_tokens: out, total_tokens: prompt + out } });
    }
    await write('[DONE]');
    if (!res.destroyed) res.end();
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = opts.host && opts.host !== '0.0.0.0' ? opts.host : '127.0.0.1';
  return {
    baseUrl: `http://${host}:${port}/v1`,
    port,
    requests,
    enqueue: (...a) => void queue.push(...a),
    reset: () => {
      requests.splice(0);
      queue = [];
    },
    waitForAborted: (n = 1, timeoutMs = 10_000) =>
      new Promise<void>((resolve, reject) => {
        if (requests.filter((r) => r.aborted).length >= n) return resolve();
        const t = setTimeout(() => reject(new Error(`timed out waiting for ${n} aborted upstream request(s)`)), timeoutMs);
        abortWaiters.push({
          n,
          resolve: () => {
            clearTimeout(t);
            resolve();
          },
        });
      }),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  if (res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function sleepUnlessClosed(ms: number, res: http.ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      res.off('close', done);
      resolve();
    }
    res.on('close', done);
  });
}
