import { loadEnv } from '../env';
import { jsonResponse } from '../errors';
import { clientAddressFrom } from '../auth/signin';
import { mediaType, readBodyLimited } from './body';
import { fhirClassifyRoutes } from './fhir';
import { gatewayRoutes } from './gateway';
import { healthResponse } from './health';
import { loginResponse } from './login';
import { openApiDocument } from './openapi';
import { matchRoute, type CustomRoute, type CustomRouteMatch } from './route';
import { uploadBlobRoute } from './upload';

/**
 * The route table of the endpoints outside tRPC, each path declared once (`path`; the door matches it and the
 * OpenAPI document lists it). The table imports the handlers; handlers import only `route.ts`, never this file.
 * tRPC procedures declare their REST paths in their own `meta.openapi` (server/api/routers).
 */
const healthRoute: CustomRoute = {
  method: ['GET', 'HEAD'],
  path: '/health',
  auth: 'none',
  database: false, // the health check opens the database itself, time-boxed
  handle: () => healthResponse(),
  doc: {
    operation: {
      tags: ['platform'],
      summary: 'Health check (no authentication)',
      description: 'Status, version, database reachability, queue state and loaded data sets. 503 when the database is unreachable.',
      security: [],
      responses: {
        200: { description: 'Healthy', content: { 'application/json': { schema: { type: 'object' } } } },
        503: { description: 'Database unreachable', content: { 'application/json': { schema: { type: 'object' } } } },
      },
    },
  },
};

const openApiRoute: CustomRoute = {
  method: 'GET',
  path: '/openapi.json',
  auth: 'none',
  database: false,
  handle: () => jsonResponse(openApiDocument(customRoutes), 200, { 'cache-control': 'no-cache' }),
  doc: { operation: { tags: ['platform'], summary: 'This OpenAPI document', security: [], responses: { 200: { description: 'OpenAPI 3 document' } } } },
};

const errorRef = { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };

const loginRoute: CustomRoute = {
  method: 'POST',
  path: '//login',
  auth: 'none', // the credentials are the body
  database: false,
  handle: async ({ req, clientAddress }) =>
    loginResponse(await readBodyLimited(req, 16 * 1024), mediaType(req), clientAddressFrom(req.headers, clientAddress, loadEnv().TRUST_PROXY)),
  doc: {
    operation: {
      tags: ['auth'],
      summary: 'Sign in for an access token',
      description:
        'Exchange e-mail and password for a short-lived HS256 access token. Use it as `Authorization: Bearer <token>` on search, vocabulary lists, the agent and the chat gateway. Failed attempts are throttled (429 after 10 in 15 minutes).',
      security: [],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              additionalProperties: false,
              required: ['email', 'password'],
              properties: { email: { type: 'string' }, password: { type: 'string' } },
            },
          },
        },
      },
      responses: {
        200: {
          description: 'Access token',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['access_token', 'token_type', 'expires_in'],
                properties: { access_token: { type: 'string' }, token_type: { type: 'string', enum: ['Bearer'] }, expires_in: { type: 'integer' } },
              },
            },
          },
        },
        400: errorRef,
        401: errorRef,
        429: errorRef,
      },
    },
  },
};

export const customRoutes: readonly CustomRoute[] = [healthRoute, openApiRoute, loginRoute, uploadBlobRoute, ...fhirClassifyRoutes, ...gatewayRoutes];

/** The custom route for a method and path (see `matchRoute`); null when no custom route has this path. */
export function matchCustomRoute(method: string, path: string): CustomRouteMatch | null {
  return matchRoute(customRoutes, method, path);
}
