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
  // One clock reading for both claims: read separately, a second boundary between them made the lifetime ttl + 1,
  // and verifyAccessToken refuses a lifetime over the maximum.
  const iat = Math.floor(Date.now() / 1000);
  const token = await new SignJWT({ org: claims.org, role: claims.role })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.sub)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ttl)
    .sign(key());
  return { access_token: token, token_type: 'Bearer', expires_in: ttl };
}

/** Clock skew allowed between servers when checking how long a token still has to live. */
const SKEW_SECONDS = 60;

/**
 * Verify one of our access tokens. Besides the signature, issuer, audience and expiry: a token must carry `exp` and
 * `iat` (a token without an expiry would never lapse), and its lifetime (`exp - iat`) and its remaining life may not
 * exceed JWT_TTL_SECONDS, the lifetime this server issues, which is therefore also the maximum it accepts (a token
 * signed for a year, or issued before the lifetime was lowered, is refused).
 */
export async function verifyAccessToken(token: string): Promise<AccessClaims> {
  try {
    const { payload } = await jwtVerify(token, key(), { issuer: ISSUER, audience: AUDIENCE, algorithms: ['HS256'], requiredClaims: ['exp', 'iat', 'sub'] });
    const max = loadEnv().JWT_TTL_SECONDS;
    const now = Math.floor(Date.now() / 1000);
    if (typeof payload.exp !== 'number' || typeof payload.iat !== 'number' || payload.exp - payload.iat > max || payload.exp - now > max + SKEW_SECONDS) {
      throw unauthorized(`The access token is not valid: its lifetime exceeds the ${max}-second maximum. Sign in again at /login/.`, 'invalid_token');
    }
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
