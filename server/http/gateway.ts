/**
 * The OpenAI-compatible doors of the chat gateway (custom routes: SSE and OpenAI-style paths):
 *   POST /api/v1/llm/chat/completions   chat.completion, or an SSE stream of chat.completion.chunk
 *   GET  /api/v1/llm/models             the models this caller may name (OpenAI list shape)
 *   GET  /api/v1/llm/models/{model}     one of them
 * Errors keep the platform shape {"error","message"} (the openai client surfaces it as APIError with
 * `.status` and `.error === '<type>'`). The core (core.ts) does the work; nothing here touches text.
 */
import { z } from 'zod';
import type { CustomRoute, CustomRouteContext } from './route';
import { mediaType, parseJson, readBodyLimited } from './body';
import type { Principal } from '../auth/principal';
import { AppError, errorResponse, jsonResponse, notFound } from '../errors';
import { faultInjectionFromHeaders } from '../redact';
import { log } from '../log';
import { chatCompletion, ClientClosedError, openChatStream } from '../gateway/core';
import { listModels, type ModelRecord } from '../gateway/registry';
import { ChatRequestSchema, REFUSAL_TYPES } from '../gateway/schema';
import { sseFrame } from '../gateway/sse';

const AUTH = { scope: 'llm:chat', jwt: true } as const;

/** Errors a retry cannot fix: tell the openai client not to retry them (it retries 429 and 5xx by default). */
const NO_RETRY = new Set(['redaction_failed', 'spend_cap_reached', 'model_timeout', 'upstream_not_configured']);

/** "Client closed request": the caller disconnected; nobody reads this response (no body). */
export const CLIENT_CLOSED_STATUS = 499;

function gatewayError(err: unknown, requestId: string): Response {
  if (err instanceof ClientClosedError) {
    // not a failure of ours: the caller went away and the upstream request was aborted
    log.info('chat client disconnected', { request_id: requestId, model: err.model });
    return new Response(null, { status: CLIENT_CLOSED_STATUS });
  }
  if (err instanceof AppError) {
    const headers: Record<string, string> = {};
    if (NO_RETRY.has(err.type) || err.status < 500) headers['x-should-retry'] = 'false';
    if (err.status === 401) headers['www-authenticate'] = 'Bearer';
    return errorResponse(err, requestId, headers);
  }
  throw err; // the HTTP door logs it and answers 500 / 503 database_unavailable
}

async function readJson(ctx: CustomRouteContext): Promise<unknown> {
  const type = mediaType(ctx.req);
  if (type !== '' && type !== 'application/json' && !type.endsWith('+json')) {
    throw new AppError('unsupported_media_type', `Content-Type '${type.slice(0, 60)}' is not accepted; send application/json.`);
  }
  const bytes = await readBodyLimited(ctx.req, ctx.bodyLimit);
  const body = parseJson(bytes);
  if (body === undefined) throw new AppError('invalid_request', 'The request body is empty; send a JSON chat request.');
  return body;
}

async function completions(ctx: CustomRouteContext): Promise<Response> {
  let principal: Principal;
  try {
    principal = await ctx.authorize();
    const body = await readJson(ctx);
    const opts = { requestId: ctx.requestId, faultInjection: faultInjectionFromHeaders(ctx.req.headers), source: 'chat' as const, signal: ctx.req.signal };
    const streamed = typeof body === 'object' && body !== null && (body as { stream?: unknown }).stream === true;
    if (!streamed) {
      const r = await chatCompletion(ctx.db, principal, body, opts);
      return jsonResponse(r.completion, 200, { 'cache-control': 'no-store' });
    }
    const s = await openChatStream(ctx.db, principal, body, opts);
    return sseResponse(s.chunks, () => s.cancel(), ctx.requestId, s.model.name);
  } catch (err) {
    return gatewayError(err, ctx.requestId);
  }
}

function sseResponse(chunks: AsyncGenerator<unknown>, cancel: () => void, requestId: string, model: string): Response {
  const enc = new TextEncoder();
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await chunks.next();
        if (next.done) {
          controller.enqueue(enc.encode(sseFrame('[DONE]')));
          controller.close();
          return;
        }
        controller.enqueue(enc.encode(sseFrame(next.value)));
      } catch (err) {
        if (cancelled) return; // the client is gone; the core has aborted the upstream and billed what was generated
        // Mid-stream failure: one error event in our platform shape (the openai client raises it as APIError), then end.
        const e = err instanceof AppError ? err : new AppError('upstream_stream_interrupted', `The stream from model '${model}' ended unexpectedly.`);
        if (!(err instanceof AppError)) log.warn('chat stream failed', { request_id: requestId, model, err: err instanceof Error ? err.name : 'unknown' });
        controller.enqueue(enc.encode(sseFrame({ error: e.type, message: e.message })));
        controller.close();
      }
    },
    async cancel() {
      // the client went away: abort the upstream, let the generator bill what was generated
      cancelled = true;
      cancel();
      await chunks.return(undefined).catch(() => undefined);
    },
  });
  return new Response(stream, {
    status: 200,
    headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store, no-transform', 'x-accel-buffering': 'no' },
  });
}

function modelObject(m: ModelRecord) {
  return {
    id: m.name,
    object: 'model' as const,
    created: Math.floor(new Date(m.createdAt).getTime() / 1000),
    owned_by: m.orgId ? 'organization' : 'coding-gateway',
    family: m.family,
    approved_for_phi: m.approvedForPhi,
  };
}

async function models(ctx: CustomRouteContext): Promise<Response> {
  try {
    const p = await ctx.authorize();
    const list = await listModels(ctx.db, { orgId: p.orgId });
    return jsonResponse({ object: 'list', data: list.map(modelObject) }, 200, { 'cache-control': 'no-store' });
  } catch (err) {
    return gatewayError(err, ctx.requestId);
  }
}

async function oneModel(ctx: CustomRouteContext): Promise<Response> {
  try {
    const p = await ctx.authorize();
    let name: string;
    try {
      name = decodeURIComponent(ctx.params.model ?? '');
    } catch {
      name = '';
    }
    const m = (await listModels(ctx.db, { orgId: p.orgId })).find((x) => x.name === name);
    if (!m) throw notFound(`The model '${name.slice(0, 100)}' does not exist.`, 'model_not_found');
    return jsonResponse(modelObject(m), 200, { 'cache-control': 'no-store' });
  } catch (err) {
    return gatewayError(err, ctx.requestId);
  }
}

/** The request schema for the OpenAPI document, generated from the same zod schema that validates requests. */
function requestSchema(): Record<string, unknown> {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(ChatRequestSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return schema;
}

const errorResponses = (codes: Record<number, string>) =>
  Object.fromEntries(
    Object.entries(codes).map(([c, d]) => [c, { description: d, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } }]),
  );

const CHAT_DESCRIPTION = `OpenAI-compatible chat completions with PHI redaction (SPEC §4.10). Use the official \`openai\` client with \`baseURL: <base>/api/v1/llm\` and your key as \`apiKey\`. Scope \`llm:chat\`; a key as \`Authorization: Bearer\` or \`X-API-Key\`, or a Bearer access token from \`POST /login/\`.

**What is sent to the model.** Every free text of the request is redacted with one mapping for the whole request, so a value has the same placeholder (\`[PERSON_1]\`, \`[MY_IC_1]\`…) everywhere: message content of every role (string or text parts), assistant \`refusal\`, the \`arguments\` of resent \`tool_calls\`, \`tool\` results, every \`stop\` string, each tool's \`description\`, and every key and string of each tool's \`parameters\` schema (\`description\`, \`enum\`, \`default\`, \`examples\`…). JSON texts are redacted token by token on the text as written: every string, every key, and every integer of 6 or more digits (an identifier sent as a JSON number, at any size; it becomes a placeholder string); the rest of the JSON is forwarded byte for byte. Values that cannot carry a placeholder are forwarded as written but restricted and screened: function names (\`^[A-Za-z0-9_-]{1,64}$\`), tool-call ids and \`tool_call_id\` (\`^[A-Za-z0-9_.:-]{1,128}$\`; otherwise 400 \`invalid_request\` naming the field) and \`reasoning.effort\`/\`summary\`; when the engine finds a name or identifier in one of them the request is refused with 400 \`identifier_in_token\` (\`param\` names the field). Everything else is structural (\`model\` is replaced by the registry's upstream model, roles, numbers, booleans, \`tool_choice\`). The mapping exists only in the request's memory; only the receipt's metadata is stored (\`redaction_receipt.receipt_id\`).

**What comes back.** The answer's \`content\` and the \`arguments\` of returned \`tool_calls\` with the original values restored (unless \`redact_only\`); JSON is restored token by token (valid JSON stays valid; a placeholder that replaced a JSON number comes back as that number). Placeholders the model altered are repaired when unambiguous (\`[person_1]\`, \`[ PERSON_1 ]\`; counted in \`placeholders_repaired\`); an invented index is left as is and counted in \`unresolved_placeholder_count\` (then \`rehydration_complete\` is false). Placeholders of our form that the client sent itself (pre-redacted text) are reserved before anything is redacted, never reused for another value, left as written in the answer and not counted as unresolved. \`conversation_key\` (deprecated, at most 200 characters) keeps a value's placeholder stable across requests; a value whose placeholder is already in the request (an earlier answer sent back) keeps it. The response is a \`chat.completion\` plus \`redaction_receipt\` (\`free_text_fields\` counts the texts above, a JSON text as one).

**Fields.** \`model\`, \`messages\` (content: a string or text parts), \`max_tokens\` 1-32000 (default 1024; \`max_completion_tokens\` is accepted as an alias), \`temperature\`, \`top_p\`, \`stop\`, \`stream\`, \`stream_options.include_usage\`, \`reasoning\` (only \`effort\` → \`reasoning_effort\` and \`summary\` are forwarded, and only to the reasoning family), \`redact_only\`, \`tools\` (function tools), \`tool_choice\` (\`auto\`/\`none\`), \`conversation_key\`. Any other field is refused with 400 \`invalid_request\` naming it.

**Refusals (400, checked before anything is sent):** \`${REFUSAL_TYPES.streamWithoutRedactOnly}\` (stream without redact_only: true), \`${REFUSAL_TYPES.toolsWithStream}\`, \`${REFUSAL_TYPES.nonTextContent}\` (image, audio, file parts), \`${REFUSAL_TYPES.forcedTool}\` (\`required\` or a named function), \`${REFUSAL_TYPES.deprecatedFunctions}\` (functions/function_call), \`${REFUSAL_TYPES.maxTokensTooLow}\` (below 16 for the reasoning family), \`identifier_in_token\` (above). Each body has \`param\`.

**Errors.** Bodies keep the platform shape \`{"error": "<type>", "message": "…", …}\` (SPEC §7), not OpenAI's nested \`{"error": {"type", "message"}}\`: the openai client raises them as \`APIError\` with \`.status\` and \`.error === '<type>'\` (so "error.type \`model_timeout\`" of SPEC §4.10 is \`error: "model_timeout"\` here). 404 \`model_not_found\`; 403 \`model_not_approved\` (not approved for PHI: nothing is sent); 429 \`spend_cap_reached\` (at the cap, or when the request's worst-case cost — its prompt as sent at one token per UTF-8 byte plus max_tokens, at the model's prices — does not fit beside what is spent and held by requests in flight; nothing is sent or charged); 503 \`redaction_failed\` with a \`redaction_receipt\` whose status is \`failed_closed\` and a \`reason\` (\`recognizer_error\`, \`time_budget_exceeded\`: redaction ran out of the request's time budget, which is the model's \`timeout_ms\` from the start of the request; \`configuration\`: e.g. a \`REDACTION_HMAC_SECRET\` shorter than 32 characters with \`conversation_key\`) — nothing was sent upstream; 503 \`upstream_not_configured\` (the model's key variable is not set); 502 \`upstream_error\` / \`upstream_unreachable\` / \`upstream_invalid_response\`; 504 \`model_timeout\` naming the model when a non-streamed request passes the model's time budget (the upstream request is aborted; when redaction used up the budget, the upstream is not called at all). Deterministic errors carry \`x-should-retry: false\`. A client that disconnects before a non-streamed answer aborts the upstream request (logged as status 499, not billed).

**Streaming** (\`stream: true\` requires \`redact_only: true\`; no time budget for the generation): \`text/event-stream\` of \`data: <chat.completion.chunk>\` events. Placeholders stay in the text and are never split across chunks. The last chunk before \`data: [DONE]\` always has \`choices: []\` and \`redaction_receipt\` (an extension), and \`usage\` only when \`stream_options.include_usage\` is true (as OpenAI). A failure after the stream started is one event \`data: {"error": "<type>", "message": "…"}\`.

**Billing.** One ledger row per answer (\`service_type\` \`llm_chat\`, units = tokens, cost from the model's prices per 1K input/output tokens; a stopped stream is billed for what was generated), exactly once per completion id. Before anything is sent the request's worst case is reserved atomically against the spend cap; the answer settles the reservation to the real token counts (an upstream reporting more than the worst case is billed only up to the cap), no answer releases it. The ledger never passes the cap, however many requests run at once. Sandbox keys bill the sandbox allowance.`;

export const gatewayRoutes: CustomRoute[] = [
  {
    method: 'POST',
    path: '/llm/chat/completions',
    auth: AUTH,
    handle: completions,
    doc: {
      operation: {
        tags: ['chat'],
        summary: 'PHI-safe chat completions (OpenAI-compatible)',
        description: CHAT_DESCRIPTION,
        requestBody: { required: true, content: { 'application/json': { schema: requestSchema() } } },
        responses: {
          200: {
            description:
              'A chat.completion with redaction_receipt, or (stream: true) an SSE stream of chat.completion.chunk ending with a receipt chunk and [DONE]',
            content: { 'application/json': { schema: { type: 'object' } }, 'text/event-stream': { schema: { type: 'string' } } },
          },
          ...errorResponses({
            400: 'Invalid request, a refused combination, or an identifier in a function name / tool-call id',
            401: 'Missing or invalid credentials',
            403: 'Scope, or model not approved for PHI',
            404: 'Unknown model',
            429: 'Spend cap',
            502: 'Upstream error',
            503: 'Redaction failed closed (receipt attached) or upstream not configured',
            504: 'Model time budget exceeded (model_timeout)',
          }),
        },
      },
    },
  },
  {
    method: 'GET',
    path: '/llm/models',
    auth: AUTH,
    handle: models,
    doc: {
      operation: {
        tags: ['chat'],
        summary: 'Models you can name in chat completions (OpenAI list shape)',
        description:
          'Scope `llm:chat`. Each entry: `id` (the model name), `object: "model"`, `created`, `owned_by` (`coding-gateway` for deployment-wide models, `organization` for your own), `family` (`standard`/`reasoning`) and `approved_for_phi`. Upstream URLs and key variables are never shown here.',
        responses: { 200: { description: 'List of models' }, ...errorResponses({ 401: 'Missing or invalid credentials', 403: 'Scope' }) },
      },
    },
  },
  {
    method: 'GET',
    path: '/llm/models/{model+}',
    auth: AUTH,
    handle: oneModel,
    doc: {
      operation: {
        tags: ['chat'],
        summary: 'One model',
        parameters: [{ name: 'model', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { 200: { description: 'The model' }, ...errorResponses({ 401: 'Missing or invalid credentials', 403: 'Scope', 404: 'model_not_found' }) },
      },
    },
  },
];
