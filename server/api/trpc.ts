import { initTRPC, TRPCError } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { ZodError } from 'zod';
import type { Database } from '../db';
import { AppError, describeZodIssues, ERROR_TYPES, isDatabaseUnavailable, type ErrorStatus, type ErrorType } from '../errors';
import { authorize, credentialsFromHeaders, type EndpointAuth, type Principal } from '../auth/principal';
import type { Scope } from '../auth/scopes';
import { screenInput } from '../http/screen';

/**
 * tRPC: one context, one error shape, procedures with auth + scope middleware.
 * The same procedures serve the UI (tRPC over /api/trpc with the next-auth session) and REST callers
 * (trpc-to-openapi at /api/v1/...).
 */
export interface RequestContext {
  requestId: string;
  /** `rest` = /api/v1 (keys, JWT); `trpc` = the UI's /api/trpc (session cookie, JWT). */
  door: 'rest' | 'trpc';
  headers: Headers;
  url: URL;
  db: Database;
  /** From the next-auth session cookie; only read on the trpc door (CSRF: REST never trusts cookies). */
  sessionUserId?: string;
  /** Response status/headers a procedure wants (e.g. 201 Created). */
  response: { status?: number; headers: Headers };
}

/** REST-only details the HTTP door needs: query parameters merged into a POST body, form bodies, markdown output. */
export interface RestMeta {
  /** Query-string parameters accepted on a POST and merged into the input (the body wins on conflict). */
  query?: string[];
  /** Accept application/x-www-form-urlencoded and multipart/form-data bodies. */
  forms?: boolean;
  /** Render the JSON output as text/markdown when the input asks for `response_format=llm`. */
  markdown?: (output: unknown) => string;
}

/**
 * Who may call a procedure, required on every one of them (`authed(rule)`): signed-in users only (`userOnly`,
 * optionally admins), or credentials (API keys; `jwt` says whether access tokens from /login/ are accepted too) with
 * an optional scope (none = any key). There is no default: a procedure without a rule does not type-check.
 */
export type AuthRule =
  | { readonly userOnly: true; readonly role?: 'admin'; readonly scope?: never; readonly jwt?: never }
  | { readonly userOnly?: never; readonly role?: never; readonly scope?: Scope; readonly jwt: boolean };

export interface Meta extends OpenApiMeta {
  auth?: EndpointAuth;
  rest?: RestMeta;
}

export interface ErrorData {
  status: ErrorStatus;
  error: string;
  message: string;
  extra?: Record<string, unknown>;
}

const TRPC_ERROR_TYPE: Partial<Record<TRPCError['code'], ErrorType>> = {
  PARSE_ERROR: 'invalid_json',
  BAD_REQUEST: 'invalid_request',
  UNAUTHORIZED: 'unauthorized',
  FORBIDDEN: 'forbidden',
  NOT_FOUND: 'not_found',
  METHOD_NOT_SUPPORTED: 'method_not_allowed',
  CONFLICT: 'conflict',
  PAYLOAD_TOO_LARGE: 'payload_too_large',
  UNSUPPORTED_MEDIA_TYPE: 'unsupported_media_type',
  TOO_MANY_REQUESTS: 'too_many_requests',
  SERVICE_UNAVAILABLE: 'service_unavailable',
  GATEWAY_TIMEOUT: 'gateway_timeout',
};

const wire = (type: ErrorType, message: string): ErrorData => ({ status: ERROR_TYPES[type], error: type, message });

/** Map anything thrown inside a procedure to our error data. */
export function toErrorData(error: TRPCError): ErrorData {
  const cause = error.cause;
  if (cause instanceof AppError) return { status: cause.status, error: cause.type, message: cause.message, extra: cause.extra };
  if (cause instanceof ZodError) {
    if (error.code === 'BAD_REQUEST') return wire('invalid_request', describeZodIssues(cause.issues));
    return wire('internal_error', 'An internal error occurred.'); // output validation
  }
  if (isDatabaseUnavailable(cause)) return wire('database_unavailable', 'The database is unreachable right now. Try again shortly.');
  if (error.code === 'INTERNAL_SERVER_ERROR') return wire('internal_error', 'An internal error occurred.');
  const mapped = TRPC_ERROR_TYPE[error.code];
  if (mapped) {
    const message = error.code === 'PARSE_ERROR' ? 'The request body is not valid JSON.' : error.message;
    return wire(mapped, message);
  }
  return wire('internal_error', 'An internal error occurred.');
}

const t = initTRPC
  .context<RequestContext>()
  .meta<Meta>()
  .create({
    errorFormatter({ shape, error }) {
      const data = toErrorData(error);
      return { ...shape, message: data.message, data: { ...shape.data, httpStatus: data.status, stack: undefined, app: data } };
    },
  });

/**
 * NUL characters, lone surrogates and over-deep nesting are refused for every procedure, whichever door called it
 * (the REST door has already screened bodies, forms and query strings; this covers the UI's /api/trpc).
 */
const screenMiddleware = t.middleware(async ({ getRawInput, next }) => {
  screenInput(await getRawInput(), 'input');
  return next();
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

const authMiddleware = t.middleware(async ({ ctx, meta, next }) => {
  const rule = meta?.auth;
  if (!rule) throw new AppError('internal_error', 'procedure without an auth rule'); // unreachable through authed()
  const creds = credentialsFromHeaders(ctx.headers);
  if (ctx.door === 'trpc' && !creds.apiKey && !creds.bearer) creds.sessionUserId = ctx.sessionUserId;
  const principal = await authorize(ctx.db, creds, rule);
  return next({ ctx: { ...ctx, principal } });
});

const authedBase = t.procedure.use(screenMiddleware).use(authMiddleware);

/**
 * The only way to make a procedure: behind its auth rule (required, see `AuthRule`). With `openapi` it is also a
 * REST endpoint (path relative to /api/v1) whose description states the rule; `rest` adds form bodies, query
 * parameters on a POST or a markdown rendering.
 */
export function authed(auth: AuthRule, openapi?: RestOpenApi, rest?: RestMeta) {
  return authedBase.meta(openapi ? restMeta(openapi, auth, rest) : { auth });
}

export type AuthedContext = RequestContext & { principal: Principal };

/** REST paths in meta are relative to this prefix (the OpenAPI server URL). */
export const REST_PREFIX = '/api/v1';

/** OpenAPI meta for a REST endpoint (path relative to /api/v1), with its auth rule written into the description. */
type RestOpenApi = Omit<NonNullable<OpenApiMeta['openapi']>, 'protect'> & { description?: string };

function restMeta(openapi: RestOpenApi, auth: EndpointAuth, rest?: RestMeta): Meta {
  const how = auth.userOnly
    ? 'Signed-in users only.'
    : `Scope: \`${auth.scope ?? 'any'}\`. Credentials: \`X-API-Key\` or \`Authorization: Bearer <key>\`${auth.jwt ? ', or a Bearer access token from `POST /login/`' : ' (access tokens from /login/ are refused with 401)'}.`;
  return {
    openapi: {
      ...openapi,
      protect: true,
      description: [openapi.description, how].filter(Boolean).join('\n\n'),
    },
    auth,
    rest,
  };
}
