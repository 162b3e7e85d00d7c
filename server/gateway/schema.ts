/**
 * The chat request (SPEC §4.10) and the OpenAI wire objects the gateway returns (`chat.completion`,
 * `chat.completion.chunk`). One zod schema is the source of truth for validation, types and the OpenAPI document.
 *
 * Refusals come before schema validation, each with its own error type, so a client learns exactly why a request that
 * another gateway would silently trim is refused here (SPEC §4.10 item 3).
 */
import { z } from 'zod';
import { AppError, badRequest, describeZodIssues } from '../errors';
import { MAX_TEXT_LENGTH, type RedactionReceipt } from '../redact';

export const MAX_TOKENS_LIMIT = 32_000;
export const DEFAULT_MAX_TOKENS = 1024;
/** The reasoning family refuses max_tokens below this before any upstream call (SPEC §4.10, §8). */
export const REASONING_MIN_MAX_TOKENS = 16;

/** Error types of the refusals (SPEC §4.10 item 3 and the reasoning floor), all 400. */
export const REFUSAL_TYPES = {
  streamWithoutRedactOnly: 'stream_requires_redact_only',
  toolsWithStream: 'tools_not_supported_with_stream',
  nonTextContent: 'unsupported_content_part',
  forcedTool: 'tool_choice_not_supported',
  deprecatedFunctions: 'functions_not_supported',
  maxTokensTooLow: 'max_tokens_too_low',
} as const;

const Text = z.string().max(MAX_TEXT_LENGTH, `at most ${MAX_TEXT_LENGTH} characters`);
const TextPart = z.strictObject({ type: z.literal('text'), text: Text });
const Content = z.union([Text, z.array(TextPart).max(100)]);

/**
 * Function names and tool-call ids go to the model as written (they cannot carry a placeholder), so their shape is
 * restricted (no spaces, no free text) and the core also screens them with the engine (400 identifier_in_token).
 */
export const FUNCTION_NAME_RE = /^[A-Za-z0-9_-]{1,64}$/;
export const TOOL_CALL_ID_RE = /^[A-Za-z0-9_.:-]{1,128}$/;
const FunctionName = z.string().regex(FUNCTION_NAME_RE, 'a function name: 1-64 letters, digits, _ or - (names are sent to the model as written)');
const ToolCallId = z.string().regex(TOOL_CALL_ID_RE, 'a tool-call id: 1-128 letters, digits, _ . : or - (ids are sent to the model as written)');

const ToolCall = z.strictObject({
  id: ToolCallId,
  type: z.literal('function'),
  function: z.strictObject({ name: FunctionName, arguments: Text }),
});

const Message = z.discriminatedUnion('role', [
  z.strictObject({ role: z.literal('system'), content: Content }),
  z.strictObject({ role: z.literal('developer'), content: Content }),
  z.strictObject({ role: z.literal('user'), content: Content }),
  z.strictObject({
    role: z.literal('assistant'),
    content: Content.nullable().optional(),
    tool_calls: z.array(ToolCall).max(128).optional(),
    refusal: Text.nullable().optional(),
  }),
  z.strictObject({ role: z.literal('tool'), content: Content, tool_call_id: ToolCallId }),
]);

const Tool = z.strictObject({
  type: z.literal('function'),
  function: z.strictObject({
    name: FunctionName,
    description: z.string().max(10_000).optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
    strict: z.boolean().nullable().optional(),
  }),
});

const MaxTokens = z.number().int().min(1).max(MAX_TOKENS_LIMIT);

export const ChatRequestSchema = z
  .strictObject({
    model: z.string().min(1).max(200),
    messages: z.array(Message).min(1).max(1000),
    max_tokens: MaxTokens.optional(),
    /** Accepted as an alias of max_tokens (newer OpenAI clients send it for reasoning models). */
    max_completion_tokens: MaxTokens.optional(),
    temperature: z.number().min(0).max(2).optional(),
    top_p: z.number().min(0).max(1).optional(),
    stop: z.union([z.string().min(1).max(200), z.array(z.string().min(1).max(200)).min(1).max(4)]).optional(),
    stream: z.boolean().default(false),
    stream_options: z.strictObject({ include_usage: z.boolean().optional() }).optional(),
    /** Only effort and summary are forwarded, and only to the reasoning family; other keys are ignored. */
    reasoning: z
      .looseObject({
        effort: z
          .string()
          .regex(/^[a-z]{1,20}$/, 'a lower-case effort level such as low, medium, high')
          .optional(),
        summary: z
          .string()
          .regex(/^[a-z]{1,20}$/, 'a lower-case summary mode such as auto, concise, detailed')
          .optional(),
      })
      .optional(),
    redact_only: z.boolean().default(false),
    tools: z.array(Tool).min(1).max(128).optional(),
    tool_choice: z.enum(['auto', 'none']).optional(),
    conversation_key: z.string().min(1).max(200).optional(),
  })
  .refine((r) => r.max_tokens === undefined || r.max_completion_tokens === undefined || r.max_tokens === r.max_completion_tokens, {
    message: 'max_tokens and max_completion_tokens differ; send one of them',
    path: ['max_completion_tokens'],
  });

export type ChatRequest = z.output<typeof ChatRequestSchema>;
export type ChatMessage = ChatRequest['messages'][number];
export type ChatContent = z.output<typeof Content>;
export type ChatTool = z.output<typeof Tool>;

function refusal(type: (typeof REFUSAL_TYPES)[keyof typeof REFUSAL_TYPES], message: string, param: string): AppError {
  return badRequest(message, type, { param });
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The refusals that need no model (SPEC §4.10 item 3), checked on the raw body so that each gets its own error type
 * rather than a generic "unknown field". Malformed shapes are left to the schema.
 */
export function checkRefusals(body: Record<string, unknown>): void {
  if ('functions' in body || 'function_call' in body) {
    throw refusal(
      REFUSAL_TYPES.deprecatedFunctions,
      'The deprecated functions/function_call form is not supported. Send tools (type "function") and tool_choice "auto" or "none".',
      'functions' in body ? 'functions' : 'function_call',
    );
  }
  if (body.stream === true && body.redact_only !== true) {
    throw refusal(
      REFUSAL_TYPES.streamWithoutRedactOnly,
      'Streaming requires redact_only: true (placeholders are left in a streamed answer; re-hydrate it yourself, or send stream: false to get original values restored).',
      'stream',
    );
  }
  if (body.stream === true && body.tools !== undefined) {
    throw refusal(
      REFUSAL_TYPES.toolsWithStream,
      'tools cannot be combined with stream: true (returned tool-call arguments must be re-hydrated whole). Send stream: false.',
      'tools',
    );
  }
  const tc = body.tool_choice;
  if (tc !== undefined && tc !== 'auto' && tc !== 'none') {
    throw refusal(
      REFUSAL_TYPES.forcedTool,
      `tool_choice must be "auto" or "none"; forcing a tool ("required" or a named function) is not supported.`,
      'tool_choice',
    );
  }
  if (Array.isArray(body.messages)) {
    body.messages.forEach((m, i) => {
      if (!isObj(m) || !Array.isArray(m.content)) return;
      m.content.forEach((p, j) => {
        if (isObj(p) && p.type !== 'text') {
          const kind = typeof p.type === 'string' ? p.type.slice(0, 40) : 'untyped';
          throw refusal(
            REFUSAL_TYPES.nonTextContent,
            `messages.${i}.content.${j}: only text content parts are accepted (got '${kind}'). Images, audio and files are refused, never dropped.`,
            `messages.${i}.content.${j}`,
          );
        }
      });
    });
  }
}

/** Parse a request body: refusals first, then the schema. Throws 400 with the field named. */
export function parseChatRequest(body: unknown): ChatRequest {
  if (!isObj(body)) throw badRequest('The request body must be a JSON object.');
  checkRefusals(body);
  const r = ChatRequestSchema.safeParse(body);
  if (!r.success) throw badRequest(describeZodIssues(r.error.issues));
  return r.data;
}

/* ---------- what the gateway returns (the OpenAI wire format plus redaction_receipt) ---------- */

export interface WireToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface WireUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export interface ChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: Array<{
    index: number;
    message: { role: 'assistant'; content: string | null; refusal: string | null; tool_calls?: WireToolCall[] };
    logprobs: null;
    finish_reason: 'stop' | 'length' | 'tool_calls' | 'content_filter';
  }>;
  usage: WireUsage;
  redaction_receipt: RedactionReceipt;
}

export interface ChatCompletionChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: Array<{
    index: number;
    delta: { role?: 'assistant'; content?: string; refusal?: string };
    logprobs: null;
    finish_reason: ChatCompletion['choices'][number]['finish_reason'] | null;
  }>;
  /** On the final chunk only (which has no choices), and only with `stream_options.include_usage: true`. */
  usage?: WireUsage | null;
  /** On the final chunk only: the receipt of the whole request. */
  redaction_receipt?: RedactionReceipt;
}
