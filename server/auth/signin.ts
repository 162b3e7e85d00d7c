import type { RecordsSource } from '../db';
import { AppError } from '../errors';
import { authenticateUser, type UserRecord } from './accounts';

/**
 * Password sign-in with throttling, shared by `POST /login/` and the UI's next-auth sign-in so that neither path
 * allows unlimited guessing. Failures count per e-mail (10 per 15 minutes) and, when the client address is known,
 * per address (50 per 15 minutes: high enough that users behind one proxy do not lock each other out).
 */
const WINDOW_MS = 15 * 60_000;
const MAX_PER_EMAIL = 10;
const MAX_PER_ADDRESS = 50;

const failures = new Map<string, number[]>();
let calls = 0;

function sweep(now: number): void {
  for (const [k, list] of failures) {
    const fresh = list.filter((t) => now - t < WINDOW_MS);
    if (fresh.length) failures.set(k, fresh);
    else failures.delete(k);
  }
}

function recent(key: string, now: number): number {
  return (failures.get(key) ?? []).filter((t) => now - t < WINDOW_MS).length;
}

export async function signIn(q: RecordsSource, email: string, password: string, clientAddress?: string): Promise<UserRecord> {
  const now = Date.now();
  if (++calls % 500 === 0 || failures.size > 50_000) sweep(now);
  const buckets: Array<[string, number]> = [[`e:${email.trim().toLowerCase()}`, MAX_PER_EMAIL]];
  if (clientAddress) buckets.push([`a:${clientAddress}`, MAX_PER_ADDRESS]);
  if (buckets.some(([k, max]) => recent(k, now) >= max)) {
    throw new AppError('too_many_attempts', 'Too many failed sign-in attempts. Wait 15 minutes and try again.');
  }
  const user = await authenticateUser(q, email, password);
  if (!user) {
    for (const [k] of buckets) failures.set(k, [...(failures.get(k) ?? []).filter((t) => now - t < WINDOW_MS), now]);
    throw new AppError('invalid_credentials', 'E-mail or password is wrong.');
  }
  return user;
}

/** The client address, from X-Forwarded-For only when TRUST_PROXY says a proxy in front of us sets it. */
export function clientAddressFrom(headers: Headers, socketAddress: string | undefined, trustProxy: boolean): string | undefined {
  if (trustProxy) {
    const fwd = headers.get('x-forwarded-for')?.split(',')[0]?.trim();
    if (fwd) return fwd;
  }
  return socketAddress && socketAddress !== 'unknown' ? socketAddress : undefined;
}

/** Tests reset the throttle between cases. */
export function resetSignInThrottle(): void {
  failures.clear();
}
