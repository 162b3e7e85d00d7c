import type { Database } from '../db';
import { AppError } from '../errors';
import { REST_PREFIX, type AuthRule } from '../api/trpc';
import type { Principal } from '../auth/principal';

/**
 * What an endpoint outside tRPC looks like (SSE streams, FHIR content types, raw uploads, health, login, the
 * OpenAPI document). The route table (`routes.ts`) lists them; each handler calls its domain core. Handlers import
 * this file, never the table, so the table → handler imports have no way back.
 */
export interface RouteContext {
  req: Request;
  url: URL;
  params: Record<string, string>;
  requestId: string;
  bodyLimit: number;
  /** The caller's address as the socket saw it (`unknown` when not known); TRUST_PROXY decides whether headers may override it. */
  clientAddress: string;
}

/** The context of a route that uses the database: the door opens it before the handler runs. */
export interface CustomRouteContext extends RouteContext {
  db: Database;
  /**
   * Applies the route's own `auth` rule to the request's credentials: the caller, or an AppError (401/403) that the
   * handler answers in its own format (FHIR: an OperationOutcome). A route whose `auth` is 'none' gets a 500 here.
   */
  authorize(): Promise<Principal>;
}

/** What a route's `methodNotAllowed` hook gets: the request and the methods the path does accept. */
export interface MethodNotAllowedContext {
  req: Request;
  url: URL;
  requestId: string;
  /** Methods the path accepts (the `Allow` header). */
  allow: string[];
}

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

interface RouteBase {
  method: HttpMethod | readonly HttpMethod[];
  /**
   * Who may call (required, like a procedure's rule): an `AuthRule` that the handler applies with `ctx.authorize()`,
   * so the rule is declared here in the table; or 'none' (health, login, the OpenAPI document, and the upload target,
   * whose signed URL is the credential).
   */
  auth: AuthRule | 'none';
  /**
   * The path, declared once: the door matches it (without a trailing slash) and the OpenAPI document lists it.
   * Relative to /api/v1 unless it starts with `//` (absolute, e.g. `//login`). `{name}` is one path segment,
   * `{name+}` the rest of the path (slashes included); both become `params`. A `$` also matches `%24`.
   */
  path: string;
  /** Match the path in any letter case (FHIR operation names). */
  ignoreCase?: boolean;
  /**
   * Optional: the answer to any other method on this path (e.g. a FHIR OperationOutcome). It must set the `Allow`
   * header. Without it the door answers its JSON 405 `method_not_allowed` with an `Allow` header.
   */
  methodNotAllowed?(ctx: MethodNotAllowedContext): Response | Promise<Response>;
  /** The route enforces its own body size (large uploads); the global MAX_BODY_BYTES check is skipped. */
  ownBodyLimit?: boolean;
  /** OpenAPI operation for this route, listed under its path (an absolute path gets its own `servers` entry). */
  doc?: { operation: Record<string, unknown> };
}

/**
 * A route: by default the door opens the database first (`ctx.db`); `database: false` routes (health, login, the
 * OpenAPI document) get no database and open it themselves if they need it (health time-boxes that).
 */
export type CustomRoute = RouteBase &
  (
    | { database?: true; handle(ctx: CustomRouteContext): Promise<Response> | Response }
    | { database: false; handle(ctx: RouteContext): Promise<Response> | Response }
  );

/** The route's full path template (`/api/v1/...`, or the absolute path). */
export function fullPath(route: Pick<CustomRoute, 'path'>): string {
  return route.path.startsWith('//') ? route.path.slice(1) : `${REST_PREFIX}${route.path}`;
}

/** The route's path as the OpenAPI document lists it: relative to /api/v1 (absolute paths as they are), `{name+}` → `{name}`. */
export function docPath(route: Pick<CustomRoute, 'path'>): string {
  const p = route.path.startsWith('//') ? route.path.slice(1) : route.path;
  return p.replace(/\{(\w+)\+\}/g, '{$1}');
}

const patterns = new WeakMap<object, RegExp>();

/** The regular expression a route's path template compiles to (cached per route). */
export function routePattern(route: Pick<CustomRoute, 'path' | 'ignoreCase'>): RegExp {
  let re = patterns.get(route);
  if (!re) {
    const source = fullPath(route)
      .split(/(\{\w+\+?\})/)
      .map((part) => {
        const param = /^\{(\w+)(\+?)\}$/.exec(part);
        if (param) return param[2] ? `(?<${param[1]}>.+)` : `(?<${param[1]}>[^/]+)`;
        return part.replace(/[.*+?^()|[\]\\{}]/g, '\\$&').replace(/\$/g, '(?:\\$|%24)');
      })
      .join('');
    re = new RegExp(`^${source}$`, route.ignoreCase ? 'i' : '');
    patterns.set(route, re);
  }
  return re;
}

export function routeMethods(route: Pick<CustomRoute, 'method'>): readonly HttpMethod[] {
  return typeof route.method === 'string' ? [route.method] : route.method;
}

/** A 405 that knows which methods are allowed; the door writes them into the `Allow` header. */
export class MethodNotAllowedError extends AppError {
  readonly allow: string[];
  constructor(allow: string[]) {
    const methods = [...new Set(allow)];
    super('method_not_allowed', `Use ${methods.join(' or ')} for this endpoint.`);
    this.allow = methods;
  }
  /** Headers for the error response. */
  headers(): Record<string, string> {
    return { allow: this.allow.join(', ') };
  }
}

export type CustomRouteMatch =
  { route: CustomRoute; params: Record<string, string> } | { route?: undefined; allow: string[]; methodNotAllowed?: CustomRoute['methodNotAllowed'] };

/**
 * The custom route for a method and path: the route itself, or — when the path exists but not for this method —
 * the methods it allows and the first matching route's `methodNotAllowed` hook. Null when no route has this path.
 */
export function matchRoute(routes: readonly CustomRoute[], method: string, path: string): CustomRouteMatch | null {
  const matching: CustomRoute[] = [];
  for (const route of routes) {
    const m = routePattern(route).exec(path);
    if (!m) continue;
    if (routeMethods(route).includes(method as HttpMethod)) return { route, params: m.groups ?? {} };
    matching.push(route);
  }
  if (!matching.length) return null;
  return { allow: [...new Set(matching.flatMap((r) => routeMethods(r)))], methodNotAllowed: matching.find((r) => r.methodNotAllowed)?.methodNotAllowed };
}
