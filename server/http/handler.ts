import { randomUUID } from 'node:crypto';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { TRPCError } from '@trpc/server';
import type { z } from 'zod';
import { appRouter } from '../api/root';
import { listProcedures } from '../api/procedures';
import { createCallerFactory, REST_PREFIX, toErrorData, type Meta, type RequestContext } from '../api/trpc';
import { getDb } from '../db';
import { loadEnv } from '../env';
import { AppError, databaseUnavailable, errorResponse, isDatabaseUnavailable } from '../errors';
import { log } from '../log';
import { sessionUserId } from '../auth/session';
import { authorize, credentialsFromHeaders } from '../auth/principal';
import { mediaType, parseJson, readBodyLimited } from './body';
import { formToInput, queryToInput } from './forms';
import { MethodNotAllowedError } from './route';
import { matchCustomRoute } from './routes';
import { applyApiSecurityHeaders } from './security-headers';

/**
 * The one HTTP door for the API. Next.js route handlers and the test server both call `handleApiRequest`.
 * It assigns a request id, enforces the body limit, dispatches to health/login/custom routes, the UI's tRPC
 * endpoint or the REST (trpc-to-openapi) handler, and turns every error into `{"error","message"}`.
 */
export async function handleApiRequest(req: Request, opts: { clientAddress?: string } = {}): Promise<Response> {
  const started = performance.now();
  const requestId = sanitizeRequestId(req.headers.get('x-request-id')) ?? randomUUID();
  const url = new URL(req.url);
  const path = normalizePath(url.pathname);
  let res: Response;
  try {
    res = await dispatch(req, url, path, requestId, opts.clientAddress ?? 'unknown');
  } catch (err) {
    res = handleError(err, requestId, path);
  }
  res.headers.set('x-request-id', requestId);
  applyApiSecurityHeaders(res.headers);
  log.info('request', { request_id: requestId, method: req.method, path, status: res.status, ms: Math.round((performance.now() - started) * 10) / 10 });
  return res;
}

function handleError(err: unknown, requestId: string, path: string): Response {
  if (err instanceof MethodNotAllowedError) return errorResponse(err, requestId, err.headers());
  if (err instanceof AppError) return errorResponse(err, requestId);
  if (isDatabaseUnavailable(err)) {
    log.warn('database unavailable', { request_id: requestId, path, err: describeError(err) });
    return errorResponse(databaseUnavailable(), requestId);
  }
  log.error('unhandled error', { request_id: requestId, path, err: describeError(err) });
  return errorResponse(new AppError('internal_error', 'An internal error occurred.'), requestId);
}

function describeError(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message.slice(0, 300)}${err.stack ? ` | ${err.stack.split('\n').slice(1, 4).join(' | ')}` : ''}`;
  return String(err).slice(0, 300);
}

function sanitizeRequestId(v: string | null): string | null {
  return v && /^[A-Za-z0-9._:-]{8,100}$/.test(v) ? v : null;
}

function normalizePath(p: string): string {
  return p.length > 1 && p.endsWith('/') ? p.replace(/\/+$/, '') : p;
}

async function dispatch(req: Request, url: URL, path: string, requestId: string, clientAddress: string): Promise<Response> {
  const method = req.method.toUpperCase();
  const limit = loadEnv().MAX_BODY_BYTES;
  const custom = matchCustomRoute(method, path);
  if (custom && !custom.route) {
    // The path is a custom route's, the method is not: the route's own 405 (FHIR: an OperationOutcome), else ours.
    if (custom.methodNotAllowed) return custom.methodNotAllowed({ req, url, requestId, allow: custom.allow });
    throw methodNotAllowed(...custom.allow);
  }
  const declared = Number(req.headers.get('content-length') ?? NaN);
  if (!custom?.route.ownBodyLimit && Number.isFinite(declared) && declared > limit) {
    throw new AppError('payload_too_large', `The request body is larger than the ${Math.round(limit / 1024)} KiB limit.`);
  }

  if (custom?.route) {
    const ctx = { req, url, params: custom.params, requestId, bodyLimit: limit, clientAddress };
    const { route } = custom;
    if (route.database === false) return route.handle(ctx);
    const db = await getDb();
    const rule = route.auth;
    const authorizeCaller = () =>
      rule === 'none'
        ? Promise.reject(new AppError('internal_error', 'this route has no auth rule to apply'))
        : authorize(db, credentialsFromHeaders(req.headers), rule);
    return route.handle({ ...ctx, db, authorize: authorizeCaller });
  }

  if (path.startsWith('/api/trpc')) {
    const body = method === 'GET' ? undefined : await readBodyLimited(req, limit);
    const db = await getDb();
    const inner = new Request(req.url, { method, headers: req.headers, body: body?.byteLength ? (body as BodyInit) : undefined });
    const sid = await sessionUserId(req.headers);
    return fetchRequestHandler({
      endpoint: '/api/trpc',
      req: inner,
      router: appRouter,
      createContext: (): RequestContext => ({
        requestId,
        door: 'trpc',
        headers: req.headers,
        url,
        db,
        sessionUserId: sid,
        response: { headers: new Headers() },
      }),
      // AppErrors carry their own status (404 for another organisation's key, 409, 429…), not tRPC's 500.
      responseMeta: ({ errors }) => (errors.length ? { status: Math.max(...errors.map((e) => toErrorData(e).status)) } : {}),
      onError: ({ error, path: p }) => {
        if (toErrorData(error).status >= 500)
          log.error('trpc error', { request_id: requestId, procedure: p ?? null, err: describeError(error.cause ?? error) });
      },
    });
  }

  if (path.startsWith('/api/v1/')) return restDispatch(req, url, path, method, requestId, limit);
  throw new AppError('not_found', `No endpoint at ${path}.`);
}

/** 405 with the accepted methods in its message and in the response's `Allow` header. */
function methodNotAllowed(...allowed: string[]): MethodNotAllowedError {
  return new MethodNotAllowedError(allowed);
}

/* ---------- REST through trpc-to-openapi ---------- */

interface RestRoute {
  method: string;
  regex: RegExp;
  meta: Meta;
  /** Dotted tRPC path of the procedure, e.g. `drg.classify`. */
  procedure: string;
  shape?: Record<string, z.ZodType>;
}

let restRoutes: RestRoute[] | undefined;

function getRestRoutes(): RestRoute[] {
  if (restRoutes) return restRoutes;
  restRoutes = [];
  for (const { path: procedure, meta, inputShape } of listProcedures(appRouter)) {
    if (!meta?.openapi) continue;
    const pattern = normalizePath(meta.openapi.path)
      .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
      .replace(/\{(\w+)\}/g, '(?<$1>[^/]+)');
    restRoutes.push({ method: meta.openapi.method, regex: new RegExp(`^${REST_PREFIX}${pattern}$`, 'i'), meta, procedure, shape: inputShape });
  }
  return restRoutes;
}

async function restDispatch(req: Request, url: URL, path: string, method: string, requestId: string, limit: number): Promise<Response> {
  const routes = getRestRoutes();
  const route = routes.find((r) => r.method === method && r.regex.test(path));
  if (!route) {
    const others = routes.filter((r) => r.regex.test(path)).map((r) => r.method);
    if (others.length) throw methodNotAllowed(...others);
    throw new AppError('not_found', `No endpoint at ${path}.`);
  }
  const db = await getDb();
  const rest = route.meta.rest ?? {};
  let input: Record<string, unknown> | undefined;
  const pathParams = Object.entries(route.regex.exec(path)?.groups ?? {}).map(([k, v]) => {
    try {
      return [k, decodeURIComponent(v)] as [string, string];
    } catch {
      throw new AppError('invalid_request', `${k}: malformed percent-encoding in the path`);
    }
  });
  if (method === 'GET' || method === 'DELETE') {
    input = formToInput([...url.searchParams.entries(), ...pathParams], route.shape);
  } else {
    const bytes = await readBodyLimited(req, limit);
    const type = mediaType(req);
    if (!bytes.byteLength) input = {};
    else if (type === 'application/json' || type.endsWith('+json') || (type === '' && !rest.forms)) {
      const parsed = parseJson(bytes);
      if (parsed !== undefined && (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))) {
        throw new AppError('invalid_request', 'The request body must be a JSON object.');
      }
      input = (parsed as Record<string, unknown> | undefined) ?? {};
    } else if (rest.forms && type === 'application/x-www-form-urlencoded') {
      input = formToInput(new URLSearchParams(new TextDecoder().decode(bytes)), route.shape);
    } else if (rest.forms && type === 'multipart/form-data') {
      const form = await new Request('http://x/', { method: 'POST', headers: { 'content-type': req.headers.get('content-type')! }, body: bytes as BodyInit })
        .formData()
        .catch(() => {
          throw new AppError('invalid_request', 'The multipart body could not be parsed.');
        });
      const entries: [string, string][] = [];
      for (const [k, v] of form.entries()) if (typeof v === 'string') entries.push([k, v]);
      input = formToInput(entries, route.shape);
    } else {
      throw new AppError(
        'unsupported_media_type',
        `Content-Type '${type || '(none)'}' is not accepted here; send application/json${rest.forms ? ', application/x-www-form-urlencoded or multipart/form-data' : ''}.`,
      );
    }
    if (rest.query?.length) input = { ...queryToInput(url.searchParams, rest.query, route.shape), ...input };
    if (pathParams.length) input = { ...input, ...formToInput(pathParams, route.shape) };
  }
  const response = { headers: new Headers() } as RequestContext['response'];
  const ctx: RequestContext = { requestId, door: 'rest', headers: req.headers, url, db, response };
  const res = await callProcedure(route, input, ctx);
  if (res.status >= 400) return res;
  const wantsMarkdown = (url.searchParams.get('response_format') ?? input?.response_format) === 'llm';
  if (rest.markdown && wantsMarkdown && res.status === 200) {
    const data = (await res.json()) as unknown;
    return new Response(rest.markdown(data), { status: 200, headers: { 'content-type': 'text/markdown; charset=utf-8' } });
  }
  return res;
}

/*
 * REST calls go straight to the procedure through a tRPC caller: same middleware (auth, scope), same zod input and
 * output schemas as the UI's tRPC calls. trpc-to-openapi provides the route metadata and the OpenAPI document; we do
 * not use its request adapter because it rewrites every input schema to coerce values (JSON `"is_alive": "false"`
 * would become `true`) and rebuilds its handler per request. Query and path parameters are typed from the schema in
 * `formToInput`, JSON bodies are taken as sent.
 */
const createCaller = createCallerFactory(appRouter);

async function callProcedure(route: RestRoute, input: Record<string, unknown> | undefined, ctx: RequestContext): Promise<Response> {
  const caller = createCaller(ctx) as unknown as Record<string, unknown>;
  const fn = route.procedure.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], caller) as (i: unknown) => Promise<unknown>;
  try {
    const data = await fn(input);
    const headers = new Headers(ctx.response.headers);
    headers.set('content-type', 'application/json; charset=utf-8');
    return new Response(JSON.stringify(data ?? null), { status: ctx.response.status ?? 200, headers });
  } catch (err) {
    const trpcError = err instanceof TRPCError ? err : new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: err });
    const data = toErrorData(trpcError);
    if (data.status >= 500) {
      // Deliberate 5xx AppErrors (503 database or vocabulary unavailable, 504 timeouts) are warnings; the rest are bugs.
      const level = trpcError.cause instanceof AppError ? 'warn' : 'error';
      log[level]('procedure error', { request_id: ctx.requestId, path: ctx.url.pathname, err: describeError(trpcError.cause ?? trpcError) });
    }
    return errorResponse(AppError.fromWire(data.status, data.error, data.message, data.extra), ctx.requestId);
  }
}
