import type { RecordsSource } from '../db';
import { forbidden, unauthorized } from '../errors';
import { authenticateApiKey, looksLikeApiKey, type KeyPrincipal } from './keys';
import { looksLikeJwt, verifyAccessToken } from './jwt';
import { getUser } from './accounts';
import { SCOPES, type Role, type Scope } from './scopes';

/** Who is calling. Keys belong to an organisation; users sign in with a JWT (API) or a next-auth session (UI). */
export interface UserPrincipal {
  kind: 'user';
  via: 'jwt' | 'session';
  orgId: string;
  userId: string;
  email: string;
  role: Role;
}
export type Principal = KeyPrincipal | UserPrincipal;

/** What an endpoint accepts. `jwt`: Bearer access tokens from /login/ are allowed (SPEC §5.3). */
export interface EndpointAuth {
  scope?: Scope;
  jwt?: boolean;
  /** Only signed-in users (UI pages, admin functions); keys are refused. */
  userOnly?: boolean;
  role?: Role;
}

export interface Credentials {
  apiKey?: string;
  bearer?: string;
  sessionUserId?: string;
}

export function credentialsFromHeaders(h: Headers): Credentials {
  const apiKey = h.get('x-api-key')?.trim() || undefined;
  const auth = h.get('authorization')?.trim();
  let bearer: string | undefined;
  if (auth) {
    const m = /^Bearer\s+(.+)$/i.exec(auth);
    bearer = m ? m[1]!.trim() : `\u0000invalid-scheme`;
  }
  return { apiKey, bearer };
}

/** Who to record on a ledger row or a receipt: the key, or the signed-in user. */
export function principalIds(p: Principal): { apiKeyId: string | null; userId: string | null } {
  return p.kind === 'api_key' ? { apiKeyId: p.keyId, userId: null } : { apiKeyId: null, userId: p.userId };
}

export function actorOf(p: Principal): string {
  return p.kind === 'api_key' ? `key:${p.lookupId.slice(0, 4)}` : `user:${p.email}`;
}

/**
 * Resolve and check credentials for one endpoint. Throws 401 (no or bad credentials, JWT where a key is needed)
 * or 403 (scope or role). Nothing is cached: a revoked key fails on the very next request.
 */
export async function authorize(q: RecordsSource, creds: Credentials, rule: EndpointAuth): Promise<Principal> {
  const principal = await resolve(q, creds, rule);
  if (principal.kind === 'api_key') {
    if (rule.userOnly) throw forbidden('This function is for signed-in users, not API keys.', 'user_required');
    if (rule.scope && principal.scopes.length > 0 && !principal.scopes.includes(rule.scope)) {
      throw forbidden(`This key lacks the '${rule.scope}' scope. It holds: ${principal.scopes.join(', ')}.`, 'insufficient_scope', {
        required_scope: rule.scope,
        scopes_held: principal.scopes,
      });
    }
  } else if (rule.role === 'admin' && principal.role !== 'admin') {
    throw forbidden('Only organisation admins may do this.', 'admin_required');
  }
  return principal;
}

async function resolve(q: RecordsSource, creds: Credentials, rule: EndpointAuth): Promise<Principal> {
  if (creds.apiKey) return authenticateApiKey(q, creds.apiKey);
  if (creds.bearer) {
    if (creds.bearer.startsWith('\u0000')) throw unauthorized('Authorization must use the Bearer scheme.', 'invalid_credentials');
    if (looksLikeApiKey(creds.bearer)) return authenticateApiKey(q, creds.bearer);
    if (looksLikeJwt(creds.bearer)) {
      if (rule.userOnly) {
        // Account administration (keys, caps, audit) needs the UI session; a leaked access token must not mint keys.
        throw unauthorized('This function needs a signed-in session in the web app; access tokens from /login/ cannot use it.', 'session_required');
      }
      if (!rule.jwt) {
        throw unauthorized(
          'This endpoint needs an API key (X-API-Key or Authorization: Bearer <key>). Access tokens from /login/ are accepted on search, the vocabulary lists, the agent and the chat gateway only.',
          'api_key_required',
        );
      }
      const claims = await verifyAccessToken(creds.bearer);
      const user = await getUser(q, claims.sub);
      if (!user || user.org_id !== claims.org) throw unauthorized('The access token no longer matches a user.', 'invalid_token');
      return { kind: 'user', via: 'jwt', orgId: user.org_id, userId: user.id, email: user.email, role: user.role };
    }
    throw unauthorized('The bearer credential is neither an API key nor an access token.', 'invalid_credentials');
  }
  if (creds.sessionUserId) {
    const user = await getUser(q, creds.sessionUserId);
    if (!user) throw unauthorized('Your session has ended. Sign in again.', 'session_expired');
    return { kind: 'user', via: 'session', orgId: user.org_id, userId: user.id, email: user.email, role: user.role };
  }
  throw unauthorized('Authentication required: send an API key in X-API-Key or Authorization: Bearer.', 'missing_credentials');
}

export function scopesHeld(p: Principal): Scope[] {
  return p.kind === 'api_key' ? (p.scopes.length ? p.scopes : [...SCOPES]) : [...SCOPES];
}
