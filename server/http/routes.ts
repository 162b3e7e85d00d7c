import type { Database } from '../db';
import { AppError } from '../errors';

/**
 * Endpoints that trpc-to-openapi cannot express (SSE streams, FHIR content types, raw uploads). Each calls the same
 * domain core as the tRPC procedures. Domains add their routes to this list.
 */
export interface CustomRouteContext {
  req: Request;
  url: URL;
  params: Record<string, string>;
  requestId: string;
  db: Database;
  bodyLimit: number;
}

/** What a route's `methodNotAllowed` hook gets: the request and the methods the path does accept. */
export interface MethodNotAllowedContext {
  req: Request;
  url: URL;
  requestId: string;
  /** Methods the path accepts (the `Allow` header). */
  allow: string[];
}

export interface CustomRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  /** Matched against the path without a trailing slash; named groups become params. */
  pattern: RegExp;
  handle(ctx: CustomRouteContext): Promise<Response>;
  /**
   * Optional: the answer to any other method on this path (e.g. a FHIR OperationOutcome). It must set the `Allow`
   * header. Without it the door answers its JSON 405 `method_not_allowed` with an `Allow` header.
   */
  methodNotAllowed?(ctx: MethodNotAllowedContext): Response | Promise<Response>;
  /** The route enforces its own body size (large uploads); the global MAX_BODY_BYTES check is skipped. */
  ownBodyLimit?: boolean;
  /** OpenAPI operation for this route; `path` is relative to /api/v1 like the tRPC paths. */
  doc?: { path: string; operation: Record<string, unknown> };
}

/** A 405 that knows which methods are allowed; the door writes them into the `Allow` header. */
export class MethodNotAllowedError extends AppError {
  readonly allow: string[];
  constructor(allow: string[]) {
    const methods = [...new Set(allow)];
    super(405, 'method_not_allowed', `Use ${methods.join(' or ')} for this endpoint.`);
    this.allow = methods;
  }
  /** Headers for the error response. */
  headers(): Record<string, string> {
    return { allow: this.allow.join(', ') };
  }
}

export type CustomRouteMatch =
  | { route: CustomRoute; params: Record<string, string> }
  | { route?: undefined; allow: string[]; methodNotAllowed?: CustomRoute['methodNotAllowed'] };

/**
 * The custom route for a method and path: the route itself, or — when the path exists but not for this method —
 * the methods it allows and the first matching route's `methodNotAllowed` hook. Null when no custom route has
 * this path.
 */
export function matchCustomRoute(method: string, path: string, routes: readonly CustomRoute[] = customRoutes): CustomRouteMatch | null {
  const matching: CustomRoute[] = [];
  for (const route of routes) {
    const m = route.pattern.exec(path);
    if (!m) continue;
    if (route.method === method) return { route, params: m.groups ?? {} };
    matching.push(route);
  }
  if (!matching.length) return null;
  return { allow: [...new Set(matching.map((r) => r.method))], methodNotAllowed: matching.find((r) => r.methodNotAllowed)?.methodNotAllowed };
}

import { uploadBlobRoute } from '../storage/routes';
import { fhirClassifyRoutes } from '../fhir/routes';
import { gatewayRoutes } from '../gateway/routes';

export const customRoutes: CustomRoute[] = [uploadBlobRoute, ...fhirClassifyRoutes, ...gatewayRoutes];
