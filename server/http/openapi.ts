import { generateOpenApiDocument } from 'trpc-to-openapi';
import { appRouter } from '../api/root';
import { REST_PREFIX } from '../api/trpc';
import { API_VERSION } from '../version';
import { docPath, routeMethods, type CustomRoute } from './route';
import { loadEnv } from '../env';
import { completeOpenApiDocument } from './openapi-complete';

/**
 * The OpenAPI 3 document: generated from the tRPC procedures (one zod schema per resource), plus the routes that
 * live outside tRPC (health, login, SSE chat, FHIR, uploads), the error shape and the auth schemes.
 */
const ErrorSchema = {
  type: 'object',
  required: ['error', 'message'],
  properties: {
    error: { type: 'string', description: 'snake_case error type, e.g. invalid_request, key_expired, insufficient_scope' },
    message: { type: 'string', description: 'Human-readable explanation; for validation errors it names the field.' },
    request_id: { type: 'string', description: 'Present on 5xx responses; the same id appears in the server log.' },
    scopes_held: { type: 'array', items: { type: 'string' }, description: 'On 403 insufficient_scope: the scopes the key holds.' },
  },
};

const DESCRIPTION = `Clinical coding service: vocabulary search, MS-DRG grouping, PHI redaction and a PHI-safe chat gateway.

**Authentication.** Send an API key as \`X-API-Key: <key>\` (every endpoint) or \`Authorization: Bearer <key>\`. Keys look like \`cg_live_…\` (production) or \`cg_test_…\` (sandbox: metered, never invoiced, with its own small allowance). Search, the vocabulary lists, the agent and the chat gateway also accept \`Authorization: Bearer <access_token>\` from \`POST /login/\`; other endpoints answer 401 \`api_key_required\` to an access token. A key may be narrowed to the scopes \`drg:classify\`, \`llm:chat\`, \`redact\`, \`search\` (none = all); a call outside them gets 403 \`insufficient_scope\` whose body lists \`scopes_held\`. Keys expire after 12 months by default (401 \`key_expired\`); a revoked key fails from the very next request (401 \`key_revoked\`).

**Errors.** Every non-2xx response is \`{"error": "<type>", "message": "<text>"}\` (FHIR endpoints answer with an OperationOutcome). Statuses: 400 invalid input (the message names the field; unknown fields are rejected where the allowed keys are listed), 401, 403, 404 (also for another organisation's resources), 405, 409, 413 (body over the limit), 415, 429 (spend cap), 500 (with \`request_id\`), 503, 504.

**Paths** work with and without a trailing slash.`;

let cached: Record<string, unknown> | undefined;

/**
 * Built once per process, from the procedures and the custom route table (`routes`). Server URLs are relative (or PUBLIC_BASE_URL), so the document never reflects a caller's
 * Host header and cannot be made to regenerate per request.
 */
export function openApiDocument(routes: readonly CustomRoute[]): Record<string, unknown> {
  if (cached) return cached;
  const base = (loadEnv().PUBLIC_BASE_URL ?? '').replace(/\/$/, '');
  const doc = generateOpenApiDocument(appRouter, {
    title: 'Coding Gateway API',
    version: API_VERSION,
    baseUrl: `${base}${REST_PREFIX}`,
    description: DESCRIPTION,
    securitySchemes: {
      ApiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      BearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key, or an access token from POST /login/ where the endpoint allows it.' },
    },
  }) as unknown as Record<string, unknown> & { paths: Record<string, Record<string, unknown>>; components?: Record<string, Record<string, unknown>> };

  doc.servers = [{ url: `${base}${REST_PREFIX}` }];
  doc.components = { ...(doc.components ?? {}), schemas: { ...(doc.components?.schemas ?? {}), Error: ErrorSchema } };
  const errorRef = { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item) as Array<{ responses?: Record<string, unknown>; security?: unknown }>) {
      if (!op?.responses) continue;
      for (const code of Object.keys(op.responses)) if (code !== 'default' && Number(code) >= 400) op.responses[code] = errorRef;
      op.security = [{ ApiKeyHeader: [] }, { BearerAuth: [] }];
    }
  }
  for (const route of routes) {
    if (!route.doc) continue;
    const path = docPath(route);
    const item = (doc.paths[path] ??= route.path.startsWith('//') ? { servers: [{ url: base || '/' }] } : {});
    for (const method of routeMethods(route)) if (method !== 'HEAD') item[method.toLowerCase()] = structuredClone(route.doc.operation);
  }
  completeOpenApiDocument(doc as unknown as Parameters<typeof completeOpenApiDocument>[0]);
  cached = doc;
  return doc;
}
