import { appRouter } from '../api/root';
import { listProcedures } from '../api/procedures';
import type { Meta } from '../api/trpc';
import { API_VERSIONS, DEFAULT_VERSION } from '../drg';
import { DEFAULT_MAX_TOKENS } from '../gateway/schema';

/**
 * What the generated document (trpc-to-openapi, from the zod schemas) cannot say by itself, filled in from the same
 * sources the live service uses, so that the document describes what the service does (issue 12 item 14):
 *  - REST extras from each procedure's `meta.rest`: form-urlencoded and multipart bodies (`forms`), query-string
 *    parameters merged into a POST (`query`), `text/markdown` answers (`markdown`);
 *  - enums the doors check in code rather than in the schema (search profile / search_mode, gender, grouper version,
 *    source_dialect), ICD-10-PCS codes of exactly 7 characters, the defaults applied in code;
 *  - statuses set by the procedures (201 for a new batch and a presigned URL);
 *  - deprecations (`combined_score`, `conversation_key`);
 *  - the shapes of the redact/agent/chat 503 `redaction_failed` body with its receipt and of the chat 200 answer;
 *  - `security` on every authenticated custom route (the chat gateway and its model list).
 * tests/api/openapi.test.ts checks the result against a list of these facts and validates it against the OpenAPI 3.1
 * schema.
 */
type Schema = Record<string, unknown> & { properties?: Record<string, Schema>; items?: Schema; default?: unknown; enum?: unknown[] };
type Operation = Record<string, unknown> & {
  parameters?: Array<Record<string, unknown>>;
  requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> };
  responses: Record<string, { description?: string; content?: Record<string, { schema: Schema }> }>;
  security?: unknown;
};
type Doc = { paths: Record<string, Record<string, Operation>>; components: Record<string, Record<string, unknown>> };

const SECURED = [{ ApiKeyHeader: [] }, { BearerAuth: [] }];

/** Enums and defaults the doors apply in code, by field name (request bodies and query parameters). */
const ENUMS: Record<string, { enum: string[]; default?: string }> = {
  profile: { enum: ['explore', 'hybrid', 'mapping'] },
  search_mode: { enum: ['hybrid', 'graph'], default: 'hybrid' },
  response_format: { enum: ['json', 'llm'], default: 'json' },
  gender: { enum: ['F', 'M'] },
  version: { enum: [...API_VERSIONS], default: DEFAULT_VERSION },
  source_dialect: { enum: ['icd10cm'], default: 'icd10cm' },
};

/** Defaults applied in code (SPEC §2.1, §4.4, §4.5, §4.10, §8), by operation. */
const DEFAULTS: Record<string, Record<string, unknown>> = {
  'post /search': {
    top_k: 10,
    min_relevance: -2,
    search_type: 'websearch',
    language: 'english',
    use_search_rank: true,
    rank_normalization: 0,
    find_relationship: false,
    include_bridges: false,
    filter_to_input_vocab: true,
  },
  'post /drg/classify': { pr_codes: [] },
  'post /llm/chat/completions': { max_tokens: DEFAULT_MAX_TOKENS, stream: false, redact_only: false, tool_choice: 'auto' },
  'post /redact': { return_mapping: true },
  'post /drg/agent': { deidentified: false },
};

function jsonSchemaOf(op: Operation | undefined): Schema | undefined {
  return op?.requestBody?.content['application/json']?.schema;
}

/** Apply the field enums to every property of a schema (and of array items / nested objects one level down). */
function applyEnums(schema: Schema | undefined, depth = 0): void {
  if (!schema || depth > 3) return;
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    const e = ENUMS[name];
    if (e && (prop.type === 'string' || prop.enum)) {
      prop.type = 'string';
      prop.enum = e.enum;
      if (e.default !== undefined && prop.default === undefined && !(schema.required as string[] | undefined)?.includes(name)) prop.default = e.default;
    }
    if (name === 'pr_codes' && prop.items) {
      prop.items.minLength = 7;
      prop.items.maxLength = 7;
      prop.items.description = 'An ICD-10-PCS code: exactly 7 characters (SPEC §8).';
    }
    applyEnums(prop, depth + 1);
    applyEnums(prop.items, depth + 1);
  }
}

function restProcedures(): Array<{ method: string; path: string; meta: Meta }> {
  return listProcedures(appRouter)
    .map((p) => p.meta)
    .filter((m): m is Meta => !!m?.openapi)
    .map((m) => ({ method: m.openapi!.method.toLowerCase(), path: m.openapi!.path.replace(/\/$/, ''), meta: m }));
}

const RECEIPT_REF = { $ref: '#/components/schemas/RedactionReceipt' };

export function completeOpenApiDocument(doc: Doc): void {
  const schemas = (doc.components.schemas ??= {}) as Record<string, unknown>;

  // REST extras from meta.rest
  for (const { method, path, meta } of restProcedures()) {
    const op = doc.paths[path]?.[method];
    if (!op) continue;
    const rest = meta.rest ?? {};
    const body = jsonSchemaOf(op);
    if (rest.forms && body && op.requestBody) {
      op.requestBody.content['application/x-www-form-urlencoded'] = { schema: body };
      op.requestBody.content['multipart/form-data'] = { schema: body };
    }
    if (rest.query?.length && body) {
      op.parameters ??= [];
      for (const name of rest.query) {
        if (op.parameters.some((p) => p.name === name && p.in === 'query')) continue;
        const prop = structuredClone(body.properties?.[name] ?? { type: 'string' });
        op.parameters.push({
          name,
          in: 'query',
          required: false,
          description: typeof prop.description === 'string' ? prop.description : undefined,
          schema: prop,
        });
      }
    }
    if (rest.markdown && op.responses['200']) {
      const ok = op.responses['200'];
      ok.content = {
        ...(ok.content ?? {}),
        'text/markdown': { schema: { type: 'string', description: 'With `response_format=llm`: the same answer as compact markdown tables.' } },
      };
    }
  }

  // enums, PCS code length and defaults
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!op || typeof op !== 'object' || !('responses' in op)) continue;
      const body = jsonSchemaOf(op);
      applyEnums(body);
      for (const p of op.parameters ?? []) {
        const e = ENUMS[p.name as string];
        if (e) p.schema = { ...(p.schema as Schema), type: 'string', enum: e.enum, ...(e.default !== undefined ? { default: e.default } : {}) };
      }
      const defaults = DEFAULTS[`${method} ${path}`];
      for (const [name, value] of Object.entries(defaults ?? {})) {
        const prop = body?.properties?.[name];
        if (prop) prop.default = value;
      }
    }
  }

  // statuses the procedures set
  const batch = doc.paths['/drg/batch']?.post;
  if (batch?.responses['200']) {
    batch.responses['201'] = {
      ...batch.responses['200'],
      description: 'Created: the first submission with this Idempotency-Key; the job id is returned at once (processing is asynchronous).',
    };
    batch.responses['200'] = {
      ...batch.responses['200'],
      description: 'A retry with the same Idempotency-Key and the same body: the same job, not processed or billed again.',
    };
  }
  const presign = doc.paths['/upload/presigned-url']?.post;
  if (presign?.responses['200']) {
    presign.responses['201'] = { ...presign.responses['200'], description: 'Created: a single-use upload URL.' };
    delete presign.responses['200'];
  }

  // deprecations
  const combined = doc.paths['/search']?.post?.responses['200']?.content?.['application/json']?.schema.properties?.results?.items?.properties?.combined_score;
  if (combined) combined.deprecated = true;
  for (const p of ['/redact', '/llm/chat/completions']) {
    const ck = jsonSchemaOf(doc.paths[p]?.post)?.properties?.conversation_key;
    if (ck) ck.deprecated = true;
  }

  // the receipt, the redaction_failed 503 and the chat 200
  const receipt = doc.paths['/redact']?.post?.responses['200']?.content?.['application/json']?.schema.properties?.redaction_receipt;
  if (receipt) {
    schemas.RedactionReceipt = receipt;
    doc.paths['/redact']!.post!.responses['200']!.content!['application/json']!.schema.properties!.redaction_receipt = RECEIPT_REF;
  }
  schemas.RedactionFailed = {
    type: 'object',
    description: 'Redaction could not complete: nothing was returned, stored or sent to a model. The receipt says so (`status: failed_closed`).',
    required: ['error', 'message', 'reason', 'redaction_receipt'],
    properties: {
      error: { type: 'string', const: 'redaction_failed' },
      message: { type: 'string' },
      reason: { type: 'string', enum: ['recognizer_error', 'time_budget_exceeded', 'invalid_input', 'configuration'] },
      redaction_receipt: { allOf: [RECEIPT_REF], description: 'With `status: failed_closed`.' },
      request_id: { type: 'string' },
    },
  };
  const failed = {
    description: 'redaction_failed (fail closed): the body carries the failed_closed receipt',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/RedactionFailed' } } },
  };
  for (const p of ['/redact', '/drg/agent']) {
    const op = doc.paths[p]?.post;
    if (op) op.responses['503'] = failed;
  }
  const chat = doc.paths['/llm/chat/completions']?.post;
  if (chat) {
    schemas.ChatCompletion = chatCompletionSchema();
    chat.responses['200'] = {
      description:
        'A chat.completion with original values restored and `redaction_receipt`; or, with stream: true, an SSE stream of chat.completion.chunk ending with a receipt chunk and [DONE].',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ChatCompletion' } }, 'text/event-stream': { schema: { type: 'string' } } },
    };
    chat.responses['503'] = {
      description: 'redaction_failed (with the failed_closed receipt; nothing sent upstream), or upstream_not_configured',
      content: { 'application/json': { schema: { oneOf: [{ $ref: '#/components/schemas/RedactionFailed' }, { $ref: '#/components/schemas/Error' }] } } },
    };
  }
  const models = {
    type: 'object',
    required: ['id', 'object'],
    properties: {
      id: { type: 'string' },
      object: { type: 'string', const: 'model' },
      created: { type: 'integer' },
      owned_by: { type: 'string' },
      family: { type: 'string', enum: ['standard', 'reasoning'] },
      approved_for_phi: { type: 'boolean' },
    },
  };
  const list = doc.paths['/llm/models']?.get;
  if (list)
    list.responses['200'] = {
      description: 'The models this caller may name (OpenAI list shape)',
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['object', 'data'],
            properties: { object: { type: 'string', const: 'list' }, data: { type: 'array', items: models } },
          },
        },
      },
    };
  const one = doc.paths['/llm/models/{model}']?.get;
  if (one) one.responses['200'] = { description: 'The model', content: { 'application/json': { schema: models } } };

  // security on every authenticated custom route (the generated operations already have it)
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const op of Object.values(item)) {
      if (!op || typeof op !== 'object' || !('responses' in op) || op.security !== undefined) continue;
      if (path === '/upload/blob/{file_id}') continue; // authorised by the URL's signature (security: [] set there)
      op.security = SECURED;
    }
  }
}

function chatCompletionSchema(): Record<string, unknown> {
  const toolCall = {
    type: 'object',
    required: ['id', 'type', 'function'],
    properties: {
      id: { type: 'string' },
      type: { type: 'string', const: 'function' },
      function: { type: 'object', required: ['name', 'arguments'], properties: { name: { type: 'string' }, arguments: { type: 'string' } } },
    },
  };
  return {
    type: 'object',
    description: 'OpenAI chat.completion, plus `redaction_receipt` (SPEC §2.7).',
    required: ['id', 'object', 'created', 'model', 'choices', 'usage', 'redaction_receipt'],
    properties: {
      id: { type: 'string' },
      object: { type: 'string', const: 'chat.completion' },
      created: { type: 'integer' },
      model: { type: 'string', description: 'The model name the caller sent.' },
      choices: {
        type: 'array',
        items: {
          type: 'object',
          required: ['index', 'message', 'finish_reason'],
          properties: {
            index: { type: 'integer' },
            message: {
              type: 'object',
              required: ['role', 'content'],
              properties: {
                role: { type: 'string', const: 'assistant' },
                content: { type: ['string', 'null'], description: 'Original values restored (unless redact_only).' },
                refusal: { type: ['string', 'null'] },
                tool_calls: { type: 'array', items: toolCall },
              },
            },
            logprobs: { type: 'null' },
            finish_reason: { type: 'string', enum: ['stop', 'length', 'tool_calls', 'content_filter'] },
          },
        },
      },
      usage: {
        type: 'object',
        required: ['prompt_tokens', 'completion_tokens', 'total_tokens'],
        properties: { prompt_tokens: { type: 'integer' }, completion_tokens: { type: 'integer' }, total_tokens: { type: 'integer' } },
      },
      redaction_receipt: {
        allOf: [RECEIPT_REF],
        description: 'The receipt of the request; also `placeholders_repaired` (placeholders the model altered in case or spacing, repaired) and `receipt_id`.',
      },
    },
  };
}
