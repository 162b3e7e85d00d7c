/**
 * The HTTP client for OpenAI-compatible upstreams (`POST {base_url}/chat/completions`). Receives only redacted
 * bodies. Errors never carry the upstream's body text (it may echo the request or part of a key): only its status
 * and, when it sends one, a short error type/code.
 */
import { z } from 'zod';
import { AppError } from '../errors';
import { SseParser } from './sse';

export interface UpstreamTarget {
  /** The caller-facing model name (for messages). */
  model: string;
  baseUrl: string;
  key: string | null;
}

export type UpstreamBody = Record<string, unknown>;

const UpToolCall = z.looseObject({
  id: z.string().optional(),
  type: z.string().optional(),
  function: z.looseObject({ name: z.string(), arguments: z.string().nullish() }),
});
const UpUsage = z.looseObject({ prompt_tokens: z.number().nullish(), completion_tokens: z.number().nullish() }).nullish();
const UpCompletion = z.looseObject({
  choices: z
    .array(
      z.looseObject({
        message: z.looseObject({
          content: z.string().nullish(),
          refusal: z.string().nullish(),
          tool_calls: z.array(UpToolCall).nullish(),
        }),
        finish_reason: z.string().nullish(),
      }),
    )
    .min(1),
  usage: UpUsage,
});
export type UpstreamCompletion = z.infer<typeof UpCompletion>;

const UpChunk = z.looseObject({
  choices: z
    .array(
      z.looseObject({
        index: z.number().optional(),
        delta: z.looseObject({ content: z.string().nullish(), refusal: z.string().nullish(), role: z.string().nullish() }).nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .nullish(),
  usage: UpUsage,
});
export type UpstreamChunk = z.infer<typeof UpChunk>;

/** `{base}/chat/completions`, keeping a query string such as Azure's `?api-version=…`. */
export function chatCompletionsUrl(baseUrl: string): string {
  const u = new URL(baseUrl);
  u.pathname = `${u.pathname.replace(/\/+$/, '')}/chat/completions`;
  return u.toString();
}

function headersFor(t: UpstreamTarget, stream: boolean): Record<string, string> {
  const h: Record<string, string> = { 'content-type': 'application/json', accept: stream ? 'text/event-stream' : 'application/json' };
  if (t.key) {
    h.authorization = `Bearer ${t.key}`;
    // Azure OpenAI takes API keys in `api-key`
    if (/\.(openai\.)?azure\.com$/i.test(new URL(t.baseUrl).hostname)) h['api-key'] = t.key;
  }
  return h;
}

const SAFE_CODE = /^[A-Za-z0-9_.:-]{1,60}$/;

/** A short, safe description of an upstream error response: its status and error type/code, never its text. */
async function upstreamFailure(t: UpstreamTarget, res: Response): Promise<AppError> {
  let code: string | undefined;
  try {
    const body = (await res.json()) as { error?: { type?: unknown; code?: unknown } | unknown };
    const e = body && typeof body === 'object' ? (body as { error?: unknown }).error : undefined;
    if (e && typeof e === 'object') {
      const c = (e as { code?: unknown; type?: unknown }).code ?? (e as { type?: unknown }).type;
      if (typeof c === 'string' && SAFE_CODE.test(c)) code = c;
    } else if (typeof e === 'string' && SAFE_CODE.test(e)) code = e;
  } catch {
    /* not JSON */
  }
  return new AppError('upstream_error', `The upstream of model '${t.model}' answered ${res.status}${code ? ` (${code})` : ''}.`, {
    upstream_status: res.status,
    ...(code ? { upstream_error: code } : {}),
  });
}

function unreachable(t: UpstreamTarget, err: unknown): AppError {
  const code = (err as { cause?: { code?: unknown } })?.cause?.code;
  return new AppError(
    'upstream_unreachable',
    `Could not reach the upstream of model '${t.model}'${typeof code === 'string' && SAFE_CODE.test(code) ? ` (${code})` : ''}.`,
  );
}

function invalid(t: UpstreamTarget, what: string): AppError {
  return new AppError('upstream_invalid_response', `The upstream of model '${t.model}' sent ${what}.`);
}

/** 504 model_timeout. `sent: false`: the budget was used up before the upstream was called (nothing was sent). */
export function timeoutError(model: string, budgetMs: number, sent = true): AppError {
  const what = sent ? 'the upstream request was aborted' : 'redaction used it up, so nothing was sent to the model';
  return new AppError(
    'model_timeout',
    `Model '${model}' did not answer within its time budget of ${budgetMs} ms; ${what}. Use stream: true with redact_only: true for long generations.`,
    {
      model,
      time_budget_ms: budgetMs,
    },
  );
}

function isAbort(err: unknown): boolean {
  return !!err && typeof err === 'object' && ((err as { name?: string }).name === 'AbortError' || (err as { name?: string }).name === 'TimeoutError');
}

/**
 * A non-streamed completion within the model's budget (headers and body). Past the budget the upstream request is aborted and
 * 504 `model_timeout` is thrown. A caller's `signal` aborts too (rethrown as the AbortError).
 */
export async function upstreamChat(
  t: UpstreamTarget,
  body: UpstreamBody,
  opts: { budgetMs: number; /** what is left of the budget (default: all of it) */ remainingMs?: number; signal?: AbortSignal },
): Promise<UpstreamCompletion> {
  const ctl = new AbortController();
  let timedOut = false;
  const timer = setTimeout(
    () => {
      timedOut = true;
      ctl.abort();
    },
    Math.max(1, opts.remainingMs ?? opts.budgetMs),
  );
  const onAbort = () => ctl.abort();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const res = await fetch(chatCompletionsUrl(t.baseUrl), { method: 'POST', headers: headersFor(t, false), body: JSON.stringify(body), signal: ctl.signal });
    if (!res.ok) throw await upstreamFailure(t, res);
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw invalid(t, 'a body that is not JSON');
    }
    const parsed = UpCompletion.safeParse(json);
    if (!parsed.success) throw invalid(t, 'a body that is not a chat.completion');
    return parsed.data;
  } catch (err) {
    if (timedOut) throw timeoutError(t.model, opts.budgetMs);
    if (err instanceof AppError) throw err;
    if (isAbort(err)) throw err;
    throw unreachable(t, err);
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * A streamed completion: resolves once the upstream answered 2xx, then yields its parsed `chat.completion.chunk`
 * objects until `[DONE]` or the end of the body. No time budget (SPEC §4.10 item 4). `signal` aborts the upstream.
 */
export async function upstreamChatStream(t: UpstreamTarget, body: UpstreamBody, opts: { signal: AbortSignal }): Promise<AsyncGenerator<UpstreamChunk>> {
  let res: Response;
  try {
    res = await fetch(chatCompletionsUrl(t.baseUrl), { method: 'POST', headers: headersFor(t, true), body: JSON.stringify(body), signal: opts.signal });
  } catch (err) {
    if (isAbort(err)) throw err;
    throw unreachable(t, err);
  }
  if (!res.ok) throw await upstreamFailure(t, res);
  if (!res.body) throw invalid(t, 'an empty stream');
  const reader = res.body.getReader();
  return (async function* chunks() {
    const decoder = new TextDecoder();
    const parser = new SseParser();
    try {
      for (;;) {
        let r: ReadableStreamReadResult<Uint8Array>;
        try {
          r = await reader.read();
        } catch (err) {
          if (isAbort(err) || opts.signal.aborted) throw err;
          throw new AppError('upstream_stream_interrupted', `The stream from model '${t.model}' was interrupted.`);
        }
        const events = r.done ? parser.push(decoder.decode()).concat(parser.end()) : parser.push(decoder.decode(r.value, { stream: true }));
        for (const ev of events) {
          if (ev.data.trim() === '[DONE]') return;
          let json: unknown;
          try {
            json = JSON.parse(ev.data);
          } catch {
            throw invalid(t, 'a stream event that is not JSON');
          }
          if (json && typeof json === 'object' && 'error' in json && (json as { error: unknown }).error) {
            throw new AppError('upstream_error', `The upstream of model '${t.model}' reported an error mid-stream.`);
          }
          const parsed = UpChunk.safeParse(json);
          if (!parsed.success) throw invalid(t, 'a stream event that is not a chat.completion.chunk');
          yield parsed.data;
        }
        if (r.done) return;
      }
    } finally {
      await reader.cancel().catch(() => undefined);
    }
  })();
}
