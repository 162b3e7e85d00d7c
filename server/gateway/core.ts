/**
 * The PHI-safe chat gateway core (issue 7, SPEC §2.7, §4.10). HTTP-free: the REST door (`server/http/gateway.ts`), the playground
 * (tRPC) and the DRG agent call these functions in-process.
 *
 * Order of work for one request, and what each step may answer:
 *   1. parse: refusals (400, each its own type) and the schema (400 invalid_request)
 *   2. model: unknown 404 model_not_found; not approved for PHI 403 model_not_approved; reasoning family with
 *      max_tokens < 16 400 max_tokens_too_low; key variable unset 503 upstream_not_configured
 *   3. spend cap, early: 429 spend_cap_reached when the pool is at its cap or the estimate cannot fit (nothing sent)
 *   4. redaction of every text of the request (messages, stop, tool descriptions and parameter schemas) with one
 *      session, within the request's time budget; names and ids that cannot carry a placeholder are screened (400
 *      identifier_in_token); any failure 503 redaction_failed + failed_closed receipt, and nothing is sent upstream
 *   5. spend cap, binding: the worst-case cost of the request as it will be sent (its prompt at one token per UTF-8
 *      byte, plus max_tokens, at the model's prices) is reserved atomically (429 spend_cap_reached when it does not
 *      fit; nothing sent, nothing charged)
 *   6. upstream: non-streamed within what is left of the model's time budget (504 model_timeout without an upstream
 *      call when nothing is left; upstream aborted past it); streamed without
 *   7. re-hydration of content and tool-call arguments (unless redact_only), receipt, and the reservation settled to
 *      one ledger row at the real token counts (released instead when no answer was delivered), receipt record
 *
 * The mapping lives only in this request's RedactionSession; it is never stored, logged or returned.
 */
import { randomBytes } from 'node:crypto';
import type { Database } from '../db';
import { principalIds, type Principal } from '../auth/principal';
import { AppError, badRequest, forbidden, notFound } from '../errors';
import { extendReservation, releaseReservation, reserveSpend, settleReservation, spendStatus, SpendCapError, type Reservation } from '../billing/ledger';
import { getStrictSecret, SecretConfigError } from '../secrets';
import { log } from '../log';
import {
  buildReceipt,
  failedClosedReceipt,
  isRedactionFailedError,
  RedactionSession,
  type EntityCounts,
  type FaultInjection,
  type RedactionFailureReason,
  type RedactionReceipt,
} from '../redact';
import { resolveModel, upstreamKey, type ModelRecord } from './registry';
import {
  DEFAULT_MAX_TOKENS,
  parseChatRequest,
  REASONING_MIN_MAX_TOKENS,
  REFUSAL_TYPES,
  TOOL_CALL_ID_RE,
  type ChatCompletion,
  type ChatCompletionChunk,
  type ChatRequest,
  type WireToolCall,
} from './schema';
import {
  emptyCounts,
  planRedaction,
  redactPlanned,
  rehydrateArguments,
  rehydrateText,
  screenTokens,
  type RedactionPlan,
  type RestoreOptions,
} from './messages';
import { timeoutError, upstreamChat, upstreamChatStream, type UpstreamBody, type UpstreamTarget } from './upstream';
import { persistReceipt, type ReceiptSource } from './receipts';

export const SERVICE_TYPE = 'llm_chat';

/**
 * The receipt of a chat request: the core's receipt, plus how many placeholders the model altered (case, spacing) that
 * were repaired, and the id of its stored metadata-only copy (`GET /api/v1/redact/receipts/{receipt_id}`).
 */
export type ChatReceipt = RedactionReceipt & { placeholders_repaired: number; receipt_id?: string };

export interface ChatOptions {
  /** Aborts the upstream request (client gone, agent cancelled): the call then throws ClientClosedError (499). */
  signal?: AbortSignal;
  /** Test-only; honoured only when NODE_ENV=test and REDACT_FAULT_INJECTION=1 (see server/redact/fault-injection.ts). */
  faultInjection?: FaultInjection;
  requestId?: string;
  /** Recorded with the receipt. Default 'chat'. */
  source?: ReceiptSource;
}

export interface ChatUsage {
  input_tokens: number;
  output_tokens: number;
  /** true when the upstream reported no usage and the counts are estimates (characters / 4). */
  estimated: boolean;
}

export interface UpstreamAnswer {
  content: string | null;
  refusal: string | null;
  tool_calls?: WireToolCall[];
}

export interface ChatResult {
  /** What the caller receives: a chat.completion with original values restored and the receipt attached. */
  completion: ChatCompletion;
  receipt: ChatReceipt;
  receipt_id: string | null;
  usage: ChatUsage;
  cost_micros: number;
  model: ModelRecord;
  /** The redacted request exactly as sent upstream (placeholders, no PHI). */
  upstream_request: UpstreamBody;
  /** The model's answer before re-hydration (placeholders, no PHI). */
  upstream_answer: UpstreamAnswer;
}

/** 503 + failed_closed receipt: redaction could not complete, nothing was sent upstream. */
export class RedactionFailedClosedError extends AppError {
  constructor(reason: string, receipt: ChatReceipt, detail?: string) {
    super(
      'redaction_failed',
      `Redaction could not complete (${reason}${detail ? `: ${detail}` : ''}); nothing was sent to the model. ${reason === 'configuration' ? 'This is a server configuration error; tell the operator.' : 'Retrying will not help unless the input changes.'}`,
      { reason, redaction_receipt: receipt },
    );
  }
}

/**
 * The caller went away (the request's signal aborted) before the answer was ready; the upstream request was aborted.
 * Not an AppError: nobody is left to read a body. The REST door answers it with a bare 499 ("client closed request")
 * and logs it at info. Nothing is billed (no answer was delivered).
 */
export class ClientClosedError extends Error {
  constructor(readonly model: string) {
    super(`the client closed the request before model '${model}' answered; the upstream request was aborted`);
    this.name = 'ClientClosedError';
  }
}

interface Prepared {
  req: ChatRequest;
  model: ModelRecord;
  target: UpstreamTarget;
  session: RedactionSession;
  /** Values found in one message and replaced verbatim elsewhere in the request (counted in the receipt). */
  propagated: EntityCounts;
  /** Free-text fields that went through the engine (receipt). */
  fields: number;
  /** How to restore the answer: the client's own placeholders, placeholders that replaced JSON numbers. */
  restore: RestoreOptions;
  /** Characters of the request's texts (stored with the receipt). */
  inputChars: number;
  /** Characters of the prompt as JSON (messages, tools, stop): the token estimate (characters / 4), computed once. */
  promptChars: number;
  body: UpstreamBody;
  /** The request's worst-case cost, held until it is settled (answer delivered) or released. */
  reservation: Reservation;
  id: string;
  created: number;
  started: number;
  /** The request's time budget ends here (performance.now() ms): redaction and, non-streamed, the upstream call. */
  deadline: number;
}

const FINISH = new Set(['stop', 'length', 'tool_calls', 'content_filter']);
type Finish = ChatCompletion['choices'][number]['finish_reason'];

export function estimateTokens(chars: number): number {
  return Math.ceil(chars / 4);
}

export function costMicros(model: ModelRecord, inputTokens: number, outputTokens: number): number {
  return Math.ceil((inputTokens * model.priceInputMicrosPer1k + outputTokens * model.priceOutputMicrosPer1k) / 1000);
}

/** The prompt as the upstream will count it, in characters: messages, tool definitions and stop strings as JSON. */
function promptLength(req: ChatRequest): number {
  return JSON.stringify(req.messages).length + (req.tools ? JSON.stringify(req.tools).length : 0) + (req.stop ? JSON.stringify(req.stop).length : 0);
}

/**
 * The most prompt tokens the upstream can count for this body: its messages, tools and stop strings as JSON, in UTF-8
 * bytes. Byte-level tokenizers (every OpenAI-compatible model family we know) never make more than one token of a
 * byte, and the JSON's keys, quotes and brackets outnumber the few special tokens a chat template adds per message.
 */
export function worstCasePromptTokens(body: UpstreamBody): number {
  return Buffer.byteLength(JSON.stringify({ messages: body.messages, tools: body.tools ?? null, stop: body.stop ?? null }), 'utf8');
}

/** How long a reservation lives without being settled: past it, the sweep takes the request for dead. */
function reservationTtlSeconds(model: ModelRecord, streamed: boolean): number {
  return streamed ? STREAM_RESERVATION_TTL_S : Math.ceil(model.timeoutMs / 1000) + 120;
}
/** Streams have no time budget: their reservation lives this long and is extended while chunks flow. */
export const STREAM_RESERVATION_TTL_S = 600;
const STREAM_EXTEND_EVERY_MS = 60_000;

function billingIdentity(p: Principal): { orgId: string; apiKeyId: string | null; userId: string | null; sandbox: boolean } {
  return { orgId: p.orgId, ...principalIds(p), sandbox: p.kind === 'api_key' ? p.sandbox : false };
}

/**
 * Refuse up front when the pool is at its cap, or when this request's likely cost (the prompt with its tool
 * definitions at characters / 4, plus max_tokens of output) would take it over. An answer that is delivered is always
 * billed afterwards (a settlement that may pass the cap, see `bill`), so this check is what keeps overruns rare: an
 * overrun needs concurrent requests that all passed it, or an upstream that counts more prompt tokens than
 * characters / 4, and it is bounded by the cost of those requests.
 */
async function assertAffordable(
  db: Database,
  p: Principal,
  model: ModelRecord,
  promptChars: number,
  maxTokens: number,
  status: Awaited<ReturnType<typeof spendStatus>>,
): Promise<void> {
  const sandbox = billingIdentity(p).sandbox;
  if (status.at_cap) throw new SpendCapError(sandbox);
  if (status.cap_micros === null) return;
  const likely = costMicros(model, estimateTokens(promptChars), maxTokens);
  if (status.spent_micros + status.reserved_micros + likely > status.cap_micros) throw tooCostly(likely, maxTokens, sandbox);
}

function tooCostly(micros: number, maxTokens: number, sandbox: boolean): AppError {
  return new AppError(
    'spend_cap_reached',
    `This request could cost up to $${(micros / 1e6).toFixed(6)} with max_tokens ${maxTokens}, more than is left under the ${sandbox ? 'sandbox allowance' : 'spend cap'} for this billing period (requests in flight hold their share until they finish). Nothing was sent or charged; lower max_tokens, send a shorter prompt, or raise the cap.`,
  );
}

/**
 * The binding check: reserve the worst case of the request exactly as it will be sent. One conditional UPDATE per
 * reservation, serialised per counter row, so concurrent requests can never together hold more than the cap.
 */
async function reserve(db: Database, p: Principal, model: ModelRecord, body: UpstreamBody, maxTokens: number, streamed: boolean): Promise<Reservation> {
  const who = billingIdentity(p);
  const worst = costMicros(model, worstCasePromptTokens(body), maxTokens);
  try {
    return await reserveSpend(db, {
      orgId: who.orgId,
      sandbox: who.sandbox,
      amountMicros: worst,
      serviceType: SERVICE_TYPE,
      ttlSeconds: reservationTtlSeconds(model, streamed),
    });
  } catch (err) {
    if (err instanceof SpendCapError) throw tooCostly(worst, maxTokens, who.sandbox);
    throw err;
  }
}

/** Give a reservation back when no answer was delivered; never masks the error that got us here. */
async function release(db: Database, r: Reservation, requestId: string | undefined): Promise<void> {
  await releaseReservation(db, r).catch((err: unknown) =>
    log.warn('spend reservation not released (the sweep will)', { request_id: requestId, err: err instanceof Error ? err.name : 'error' }),
  );
}

async function prepare(db: Database, principal: Principal, input: unknown, opts: ChatOptions): Promise<Prepared> {
  const started = performance.now();
  const req = parseChatRequest(input);
  const [model, status] = await Promise.all([
    resolveModel(db, principal.orgId, req.model),
    spendStatus(db, principal.orgId, billingIdentity(principal).sandbox),
  ]);
  if (!model) throw notFound(`The model '${req.model.slice(0, 100)}' does not exist. GET /api/v1/llm/models lists the models you can use.`, 'model_not_found');
  if (!model.approvedForPhi) {
    throw forbidden(`The model '${model.name}' is not approved for PHI traffic, so the gateway does not send anything to it.`, 'model_not_approved', {
      model: model.name,
    });
  }
  const maxTokens = req.max_tokens ?? req.max_completion_tokens ?? DEFAULT_MAX_TOKENS;
  if (model.family === 'reasoning' && maxTokens < REASONING_MIN_MAX_TOKENS) {
    throw badRequest(
      `max_tokens must be at least ${REASONING_MIN_MAX_TOKENS} for the reasoning-model family ('${model.name}'): reasoning uses part of the budget before any answer.`,
      REFUSAL_TYPES.maxTokensTooLow,
      { param: req.max_tokens !== undefined ? 'max_tokens' : 'max_completion_tokens' },
    );
  }
  const key = upstreamKey(model);
  const promptChars = promptLength(req);
  await assertAffordable(db, principal, model, promptChars, maxTokens, status);

  // Redaction, fail closed: everything from the secret to the last token is inside this try, within the request's
  // time budget (the model's timeout_ms from the start of the request).
  const deadline = started + model.timeoutMs;
  let plan: RedactionPlan | undefined;
  let session: RedactionSession;
  let redacted: ReturnType<typeof redactPlanned>;
  try {
    plan = planRedaction(req);
    session = new RedactionSession({
      conversationKey: req.conversation_key,
      // a set but too short REDACTION_HMAC_SECRET is a configuration error, never silently replaced
      hmacSecret: req.conversation_key ? getStrictSecret('REDACTION_HMAC_SECRET') : undefined,
      faultInjection: opts.faultInjection,
      deadline,
    });
    screenTokens(session, req);
    redacted = redactPlanned(session, plan);
  } catch (err) {
    if (err instanceof AppError) throw err; // a refusal (identifier_in_token): nothing was sent
    // Fail closed on anything: never a partial redaction, never the input, nothing upstream.
    const reason: RedactionFailureReason = isRedactionFailedError(err) ? err.reason : err instanceof SecretConfigError ? 'configuration' : 'recognizer_error';
    const detail = err instanceof SecretConfigError ? err.message : undefined;
    (reason === 'configuration' ? log.error : log.warn)('chat redaction failed closed', {
      request_id: opts.requestId,
      model: model.name,
      reason,
      err: err instanceof Error ? err.name : 'unknown',
      ...(detail ? { detail } : {}),
    });
    const receipt: ChatReceipt = { ...failedClosedReceipt({ freeTextFields: plan?.fields.length ?? 0 }), placeholders_repaired: 0 };
    const receiptId = await persistReceipt(db, principal, opts.source ?? 'chat', receipt, {
      requestId: opts.requestId,
      failureReason: reason,
      inputChars: plan?.chars,
      durationMs: performance.now() - started,
    });
    throw new RedactionFailedClosedError(reason, receiptId ? { ...receipt, receipt_id: receiptId } : receipt, detail);
  }

  const body: UpstreamBody = { model: model.upstreamModel, messages: redacted.req.messages };
  if (model.family === 'reasoning') body.max_completion_tokens = maxTokens;
  else body.max_tokens = maxTokens;
  if (req.temperature !== undefined) body.temperature = req.temperature;
  if (req.top_p !== undefined) body.top_p = req.top_p;
  if (redacted.req.stop !== undefined) body.stop = redacted.req.stop;
  if (redacted.req.tools) {
    body.tools = redacted.req.tools;
    if (req.tool_choice) body.tool_choice = req.tool_choice;
  }
  if (model.family === 'reasoning' && req.reasoning) {
    const { effort, summary } = req.reasoning;
    if (effort) body.reasoning_effort = effort;
    if (summary) body.reasoning = { ...(effort ? { effort } : {}), summary };
  }
  if (req.stream) {
    body.stream = true;
    // always asked upstream (billing needs the real counts); the client gets usage only if it asked (see the stream)
    body.stream_options = { include_usage: true };
  }
  const reservation = await reserve(db, principal, model, body, maxTokens, req.stream);
  return {
    req,
    model,
    target: { model: model.name, baseUrl: model.baseUrl, key },
    session,
    propagated: redacted.propagated,
    fields: plan.fields.length,
    restore: { reserved: session.reservedPlaceholders, numbers: redacted.numbers, surfaces: session.surfaces },
    inputChars: plan.chars,
    promptChars,
    body,
    reservation,
    id: `chatcmpl-${randomToken(24)}`,
    created: Math.floor(Date.now() / 1000),
    started,
    deadline,
  };
}

/** Letters and digits only: an id made of it never reads as a number or a name to the screening (no all-digit words). */
function randomToken(n: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let out = '';
  for (const b of randomBytes(n)) out += alphabet[b % alphabet.length];
  return out;
}

function isAbortFrom(err: unknown, signal: AbortSignal | undefined): boolean {
  return (
    !!signal?.aborted &&
    !!err &&
    typeof err === 'object' &&
    ((err as { name?: string }).name === 'AbortError' || (err as { name?: string }).name === 'TimeoutError')
  );
}

function receiptOf(p: Prepared, rehydration: { unresolved: number; repaired: number } | null): ChatReceipt {
  const { session, propagated } = p;
  const entities: EntityCounts = session.entitiesRedacted;
  for (const [t, n] of Object.entries(propagated) as Array<[keyof EntityCounts, number]>) entities[t] = (entities[t] ?? 0) + n;
  return {
    ...buildReceipt({
      entitiesRedacted: entities,
      clientPreredacted: session.clientPreredacted,
      freeTextFields: p.fields,
      rehydration: rehydration ? { unresolved: rehydration.unresolved } : null,
    }),
    placeholders_repaired: rehydration?.repaired ?? 0,
  };
}

/**
 * Settle a request whose answer exists (the upstream answered; it is delivered or being delivered): its reservation
 * becomes one ledger row at the real token counts, exactly once (idempotency ref `llm_chat:<completion id>`). The
 * reservation covered the worst case, so the real cost fits under the cap; an upstream that reports more than that
 * (more output than max_tokens) is billed up to the cap and the rest is recorded as `unbilled_micros` (and logged):
 * the ledger never passes the cap. Returns the micro-USD billed.
 */
async function bill(
  db: Database,
  principal: Principal,
  p: Prepared,
  usage: ChatUsage,
  extra: Record<string, string | number | boolean | null>,
): Promise<number> {
  const cost = costMicros(p.model, usage.input_tokens, usage.output_tokens);
  const { apiKeyId, userId } = billingIdentity(principal);
  const s = await settleReservation(db, p.reservation, {
    apiKeyId,
    userId,
    serviceType: SERVICE_TYPE,
    units: usage.input_tokens + usage.output_tokens,
    costMicros: cost,
    idempotencyRef: `${SERVICE_TYPE}:${p.id}`,
    // counts and the caller-facing model name only: never text
    details: {
      model: p.model.name,
      input_tokens: usage.input_tokens,
      output_tokens: usage.output_tokens,
      usage_estimated: usage.estimated,
      reserved_micros: Number(p.reservation.amountMicros),
      ...extra,
    },
  });
  if (s.unbilledMicros > 0) {
    log.warn('chat usage above its worst-case reservation; billed up to the cap', {
      model: p.model.name,
      reserved_micros: Number(p.reservation.amountMicros),
      cost_micros: cost,
      unbilled_micros: s.unbilledMicros,
    });
  }
  return s.billedMicros;
}

function finishOf(raw: string | null | undefined, hasToolCalls: boolean): Finish {
  if (raw && FINISH.has(raw)) return raw as Finish;
  return hasToolCalls ? 'tool_calls' : 'stop';
}

/** What is left of the request's time budget for the upstream call, in ms (<= 0: answer 504 without calling it). */
export function upstreamBudgetLeft(deadline: number, now = performance.now()): number {
  return deadline - now;
}

/**
 * A non-streamed chat completion (stream must be false). Returns the re-hydrated completion with its receipt, plus
 * what was sent upstream and what came back (redacted), for the playground and the agent.
 */
export async function chatCompletion(db: Database, principal: Principal, input: unknown, opts: ChatOptions = {}): Promise<ChatResult> {
  const p = await prepare(db, principal, input, opts);
  let up: Awaited<ReturnType<typeof upstreamChat>>;
  try {
    if (p.req.stream)
      throw badRequest('stream: true is served by openChatStream; chatCompletion returns one completion.', 'invalid_request', { param: 'stream' });
    const remainingMs = upstreamBudgetLeft(p.deadline);
    if (remainingMs <= 0) throw timeoutError(p.model.name, p.model.timeoutMs, false);
    up = await upstreamChat(p.target, p.body, { budgetMs: p.model.timeoutMs, remainingMs, signal: opts.signal });
  } catch (err) {
    // no answer: nothing is billed, the reservation goes back to the pool
    await release(db, p.reservation, opts.requestId);
    if (isAbortFrom(err, opts.signal)) throw new ClientClosedError(p.model.name);
    throw err;
  }

  const choice = up.choices[0]!;
  const redactOnly = p.req.redact_only;
  const mapping = p.session.mapping;
  const counts = emptyCounts();
  const upCalls: WireToolCall[] | undefined = choice.message.tool_calls?.length
    ? choice.message.tool_calls.map((c) => ({
        // an id the client could not send back (missing, or not a token) is replaced by one of ours
        id: c.id && TOOL_CALL_ID_RE.test(c.id) ? c.id : `call_${randomToken(24)}`,
        type: 'function' as const,
        function: { name: c.function.name, arguments: c.function.arguments ?? '' },
      }))
    : undefined;
  const upstreamAnswer: UpstreamAnswer = {
    content: choice.message.content ?? null,
    refusal: choice.message.refusal ?? null,
    ...(upCalls ? { tool_calls: upCalls } : {}),
  };
  const restore = (s: string | null) => (s === null || redactOnly ? s : rehydrateText(s, mapping, counts, p.restore));
  const message: ChatCompletion['choices'][number]['message'] = {
    role: 'assistant',
    content: restore(upstreamAnswer.content),
    refusal: restore(upstreamAnswer.refusal),
  };
  if (upCalls) {
    message.tool_calls = upCalls.map((c) => ({
      ...c,
      function: { name: c.function.name, arguments: redactOnly ? c.function.arguments : rehydrateArguments(c.function.arguments, mapping, counts, p.restore) },
    }));
  }
  let receipt = receiptOf(p, redactOnly ? null : counts);

  const reported = up.usage;
  const usage: ChatUsage =
    typeof reported?.prompt_tokens === 'number' && typeof reported?.completion_tokens === 'number'
      ? { input_tokens: reported.prompt_tokens, output_tokens: reported.completion_tokens, estimated: false }
      : {
          input_tokens: estimateTokens(p.promptChars),
          output_tokens: estimateTokens((upstreamAnswer.content ?? '').length + (upCalls ?? []).reduce((n, c) => n + c.function.arguments.length, 0)),
          estimated: true,
        };
  // the ledger row and the stored receipt are independent writes: one round trip of latency, not two
  const [cost, receiptId] = await Promise.all([
    bill(db, principal, p, usage, { stream: false, redact_only: redactOnly }),
    persistReceipt(db, principal, opts.source ?? 'chat', receipt, {
      requestId: opts.requestId,
      inputChars: p.inputChars,
      durationMs: performance.now() - p.started,
    }),
  ]);
  if (receiptId) receipt = { ...receipt, receipt_id: receiptId };
  log.info('chat completion', {
    request_id: opts.requestId,
    model: p.model.name,
    input_tokens: usage.input_tokens,
    output_tokens: usage.output_tokens,
    unresolved: receipt.unresolved_placeholder_count,
    ms: Math.round(performance.now() - p.started),
  });

  return {
    completion: {
      id: p.id,
      object: 'chat.completion',
      created: p.created,
      model: p.model.name,
      choices: [{ index: 0, message, logprobs: null, finish_reason: finishOf(choice.finish_reason, !!upCalls) }],
      usage: { prompt_tokens: usage.input_tokens, completion_tokens: usage.output_tokens, total_tokens: usage.input_tokens + usage.output_tokens },
      redaction_receipt: receipt,
    },
    receipt,
    receipt_id: receiptId,
    usage,
    cost_micros: cost,
    model: p.model,
    upstream_request: p.body,
    upstream_answer: upstreamAnswer,
  };
}

export interface ChatStream {
  id: string;
  model: ModelRecord;
  /** The redacted request as sent upstream. */
  upstream_request: UpstreamBody;
  /**
   * chat.completion.chunk objects; the last has no choices and carries `redaction_receipt`, and `usage` when the
   * request had `stream_options.include_usage: true`.
   */
  chunks: AsyncGenerator<ChatCompletionChunk>;
  /** Stop: aborts the upstream request (the partial answer is billed on estimated tokens). */
  cancel(): void;
}

/**
 * A streamed completion (stream: true, which requires redact_only: true). Resolves once the upstream has accepted the
 * request, so refusals, model, cap, redaction and upstream errors surface before the first byte. Placeholders are
 * never cut in half: each chunk's text goes through a PlaceholderSafeChunker. No time budget.
 */
export async function openChatStream(db: Database, principal: Principal, input: unknown, opts: ChatOptions = {}): Promise<ChatStream> {
  const p = await prepare(db, principal, input, opts);
  const ctl = new AbortController();
  const onAbort = () => ctl.abort();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  let up: Awaited<ReturnType<typeof upstreamChatStream>>;
  try {
    if (!p.req.stream) throw badRequest('openChatStream needs stream: true.', 'invalid_request', { param: 'stream' });
    up = await upstreamChatStream(p.target, p.body, { signal: ctl.signal });
  } catch (err) {
    opts.signal?.removeEventListener('abort', onAbort);
    await release(db, p.reservation, opts.requestId);
    if (isAbortFrom(err, opts.signal)) throw new ClientClosedError(p.model.name);
    throw err;
  }
  const includeUsage = p.req.stream_options?.include_usage === true;
  const base = { id: p.id, object: 'chat.completion.chunk' as const, created: p.created, model: p.model.name };
  const chunk = (delta: ChatCompletionChunk['choices'][number]['delta'], finish: Finish | null): ChatCompletionChunk => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  });

  let started = false;
  let settled = false;
  async function* run(): AsyncGenerator<ChatCompletionChunk> {
    started = true;
    // redact_only: placeholders stay, but a placeholder split across upstream chunks is held until it is whole
    const text = p.session.createRehydrationStream({ rehydrate: false });
    const refusal = p.session.createRehydrationStream({ rehydrate: false });
    let roleSent = false;
    let finish: Finish | null = null;
    let outChars = 0;
    let usage: { prompt_tokens?: number | null; completion_tokens?: number | null } | null | undefined;
    let completed = false;
    let failed = false;
    let extendedAt = performance.now();
    try {
      for await (const c of up) {
        if (c.usage) usage = c.usage;
        if (performance.now() - extendedAt > STREAM_EXTEND_EVERY_MS) {
          // a long generation: keep its reservation from being taken for a dead request's
          extendedAt = performance.now();
          await extendReservation(db, p.reservation, STREAM_RESERVATION_TTL_S).catch(() => false);
        }
        const ch = c.choices?.find((x) => (x.index ?? 0) === 0);
        if (!ch || finish) continue;
        let content = ch.delta?.content ? text.push(ch.delta.content) : '';
        let ref = ch.delta?.refusal ? refusal.push(ch.delta.refusal) : '';
        if (ch.finish_reason) {
          content += text.flush();
          ref += refusal.flush();
          finish = finishOf(ch.finish_reason, false);
        }
        const delta: ChatCompletionChunk['choices'][number]['delta'] = {};
        if (!roleSent) {
          delta.role = 'assistant';
          roleSent = true;
        }
        if (content) delta.content = content;
        if (ref) delta.refusal = ref;
        outChars += content.length + ref.length;
        if (delta.role || delta.content || delta.refusal || finish) yield chunk(delta, finish);
      }
      if (!finish) {
        const content = text.flush();
        const ref = refusal.flush();
        outChars += content.length + ref.length;
        yield chunk({ ...(roleSent ? {} : { role: 'assistant' as const }), ...(content ? { content } : {}), ...(ref ? { refusal: ref } : {}) }, 'stop');
      }
      completed = true;
      const u: ChatUsage =
        typeof usage?.prompt_tokens === 'number' && typeof usage?.completion_tokens === 'number'
          ? { input_tokens: usage.prompt_tokens, output_tokens: usage.completion_tokens, estimated: false }
          : { input_tokens: estimateTokens(p.promptChars), output_tokens: estimateTokens(outChars), estimated: true };
      let receipt = receiptOf(p, null);
      // the answer has been delivered: settle its reservation to the real counts (exactly once by the completion id)
      settled = true;
      const [, receiptId] = await Promise.all([
        bill(db, principal, p, u, { stream: true, redact_only: true }).catch((err: unknown) =>
          log.error('chat stream charge failed', {
            request_id: opts.requestId,
            model: p.model.name,
            err: err instanceof AppError ? err.type : err instanceof Error ? err.name : 'error',
          }),
        ),
        persistReceipt(db, principal, opts.source ?? 'chat', receipt, {
          requestId: opts.requestId,
          inputChars: p.inputChars,
          durationMs: performance.now() - p.started,
        }),
      ]);
      if (receiptId) receipt = { ...receipt, receipt_id: receiptId };
      // the receipt chunk is always sent (our extension); usage in it only when the client asked for it, as OpenAI does
      const usageField = includeUsage
        ? { usage: { prompt_tokens: u.input_tokens, completion_tokens: u.output_tokens, total_tokens: u.input_tokens + u.output_tokens } }
        : {};
      yield { ...base, choices: [], ...usageField, redaction_receipt: receipt };
    } catch (err) {
      failed = true;
      throw err;
    } finally {
      opts.signal?.removeEventListener('abort', onAbort);
      if (!completed) {
        const cancelled = ctl.signal.aborted;
        ctl.abort();
        settled = true;
        // A stream the client stopped is billed for what was generated (estimated); an upstream failure is not.
        if (!failed || cancelled) {
          const u: ChatUsage = { input_tokens: estimateTokens(p.promptChars), output_tokens: estimateTokens(outChars), estimated: true };
          await bill(db, principal, p, u, { stream: true, redact_only: true, completed: false }).catch((e: unknown) =>
            log.warn('chat stream partial charge failed', { request_id: opts.requestId, err: e instanceof AppError ? e.type : 'error' }),
          );
        } else {
          await release(db, p.reservation, opts.requestId);
        }
      }
    }
  }

  return {
    id: p.id,
    model: p.model,
    upstream_request: p.body,
    chunks: run(),
    cancel: () => {
      ctl.abort();
      // the stream was dropped before it was ever read: nothing was delivered, nothing is billed
      if (!started && !settled) {
        settled = true;
        void release(db, p.reservation, opts.requestId);
      }
    },
  };
}
