/**
 * Fault injection for fail-closed tests.
 *
 * Honoured ONLY when both environment variables are set: NODE_ENV=test AND REDACT_FAULT_INJECTION=1, and the caller
 * passes a `faultInjection` option. Production never runs with NODE_ENV=test, so a stray option (or a request field
 * that some door might forward by mistake) cannot disable redaction or make it throw.
 */
import { loadEnv } from '../env';

export interface FaultInjection {
  /** Throw inside this recognizer ('*' = the first recognizer that runs). */
  throwIn?: string;
  /** Busy-wait this long inside the engine, to exceed the time budget. */
  delayMs?: number;
}

export function faultInjectionEnabled(): boolean {
  const env = loadEnv();
  return env.NODE_ENV === 'test' && env.REDACT_FAULT_INJECTION === '1';
}

/** The test-only request header of every door that runs the engine (redact, chat gateway, agent). */
export const FAULT_HEADER = 'x-redact-fault-injection';

/**
 * The fault a request asks for in `X-Redact-Fault-Injection: throw:<recognizer>|throw:*|delay:<ms>` (delay at most
 * 10 s). The header is not even read unless fault injection is enabled (NODE_ENV=test and REDACT_FAULT_INJECTION=1);
 * the engine checks the same switch again.
 */
export function faultInjectionFromHeaders(headers: Headers): FaultInjection | undefined {
  if (!faultInjectionEnabled()) return undefined;
  const m = /^(throw|delay):([\w*.-]{1,64})$/.exec(headers.get(FAULT_HEADER)?.trim() ?? '');
  if (!m) return undefined;
  return m[1] === 'throw' ? { throwIn: m[2] } : { delayMs: Math.min(Number(m[2]) || 0, 10_000) };
}

export function activeFaults(opt: FaultInjection | undefined): FaultInjection | undefined {
  return opt && faultInjectionEnabled() ? opt : undefined;
}

export function busyWait(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    /* spin: simulates a slow recognizer */
  }
}
