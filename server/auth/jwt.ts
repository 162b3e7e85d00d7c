import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { loadEnv } from '../env';
import { getSecret } from '../secrets';
import { unauthorized } from '../errors';
import type { Role } from './scopes';

/** Our short-lived HS256 access tokens, issued by POST /login/. */
const ISSUER = 'coding-gateway';
const AUDIENCE = 'coding-gateway-api';

function key(): Uint8Array {
  return new TextEncoder().encode(loadEnv().JWT_SECRET ?? getSecret('JWT_SECRET'));
}

export interface AccessClaims {
  sub: string;
  org: string;
  role: Role;
}

export async function issueAccessToken(claims: AccessClaims): Promise<{ access_token: string; token_type: 'Bearer'; expires_in: number }> {
  const ttl = loadEnv().JWT_TTL_SECONDS;
  const token = await new SignJWT({ org: claims.org, role: claims.role })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.sub)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${ttl}s`)
    .sign(key());
  return { access_token: token, token_type: 'Bearer', expires_in: ttl };
}

export async function verifyAccessToken(token: string): Promise<AccessClaims> {
  try {
    const { payload } = await jwtVerify(token, key(), { issuer: ISSUER, audience: AUDIENCE, algorithms: ['HS256'] });
    if (typeof payload.sub !== 'string' || typeof payload.org !== 'string' || (payload.role !== 'admin' && payload.role !== 'coder')) {
      throw unauthorized('The access token is not valid.', 'invalid_token');
    }
    return { sub: payload.sub, org: payload.org, role: payload.role };
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired) throw unauthorized('The access token has expired. Sign in again at /login/.', 'token_expired');
    if (err instanceof Error && err.name === 'AppError') throw err;
    throw unauthorized('The access token is not valid.', 'invalid_token');
  }
}

export function looksLikeJwt(s: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(s);
}
