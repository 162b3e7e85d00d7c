import { afterEach, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { issueAccessToken, verifyAccessToken } from './jwt';
import { loadEnv } from '../env';

const RealDate = globalThis.Date;
afterEach(() => {
  globalThis.Date = RealDate;
});

/** A clock that moves on `stepMs` each time anyone reads it, so that any two readings straddle a second boundary. */
function tickingClock(startMs: number, stepMs: number): void {
  let t = startMs;
  const next = () => (t += stepMs) - stepMs;
  class Ticking extends RealDate {
    constructor(...args: unknown[]) {
      if (args.length === 0) super(next());
      else super(...(args as [number]));
    }
    static override now(): number {
      return next();
    }
  }
  globalThis.Date = Ticking as DateConstructor;
}

describe('access tokens', () => {
  it('carry a lifetime of exactly JWT_TTL_SECONDS however the clock moves while one is signed, and verify', async () => {
    process.env.JWT_SECRET ??= 'x'.repeat(48);
    const ttl = loadEnv().JWT_TTL_SECONDS;
    for (let i = 0; i < 20; i++) {
      // start just before a second boundary and move 700 ms per reading
      tickingClock(1_800_000_000_000 + 999 - i * 37, 700);
      const { access_token } = await issueAccessToken({ sub: '00000000-0000-4000-8000-000000000001', org: 'org', role: 'coder' });
      const { iat, exp } = decodeJwt(access_token);
      expect(exp! - iat!).toBe(ttl);
      globalThis.Date = RealDate;
      tickingClock(iat! * 1000 + 500, 1);
      await expect(verifyAccessToken(access_token)).resolves.toMatchObject({ org: 'org', role: 'coder' });
      globalThis.Date = RealDate;
    }
  });
});
