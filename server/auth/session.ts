import { decode } from 'next-auth/jwt';
import { getSecret } from '../secrets';
import { loadEnv } from '../env';

/**
 * The UI's next-auth session (JWT strategy). We read the session cookie ourselves, so the same code works in Next
 * route handlers and in our own HTTP server, and never from the Authorization header (that belongs to API callers).
 */
export function nextAuthSecret(): string {
  return `${loadEnv().JWT_SECRET ?? getSecret('JWT_SECRET')}:next-auth-session`;
}

const COOKIE_NAMES = ['__Secure-next-auth.session-token', 'next-auth.session-token'];

function parseCookies(header: string | null): Map<string, string> {
  const out = new Map<string, string>();
  if (!header) return out;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i <= 0) continue;
    const k = part.slice(0, i).trim();
    try {
      out.set(k, decodeURIComponent(part.slice(i + 1).trim()));
    } catch {
      /* ignore malformed cookie */
    }
  }
  return out;
}

function sessionCookie(cookies: Map<string, string>): string | undefined {
  for (const name of COOKIE_NAMES) {
    const whole = cookies.get(name);
    if (whole) return whole;
    // next-auth splits large cookies into name.0, name.1, ...
    const chunks: string[] = [];
    for (let i = 0; cookies.has(`${name}.${i}`); i++) chunks.push(cookies.get(`${name}.${i}`)!);
    if (chunks.length) return chunks.join('');
  }
  return undefined;
}

/** The signed-in user's id from the session cookie, or undefined. */
export async function sessionUserId(headers: Headers): Promise<string | undefined> {
  const token = sessionCookie(parseCookies(headers.get('cookie')));
  if (!token) return undefined;
  try {
    const payload = await decode({ token, secret: nextAuthSecret() });
    return typeof payload?.sub === 'string' ? payload.sub : undefined;
  } catch {
    return undefined;
  }
}
