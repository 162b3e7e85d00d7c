/**
 * The core's time-budget branch that HTTP tests cannot reach deterministically: redaction finished inside the
 * request's budget but left nothing of it, so the upstream must not be called (504 model_timeout). The database,
 * the registry and the upstream client are replaced by stubs; the clock is advanced while redaction runs.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Database } from '../db';
import type { Principal } from '../auth/principal';
import type { ModelRecord } from './registry';

let clockOffset = 0;

vi.mock('./registry', () => ({
  resolveModel: vi.fn(async (): Promise<ModelRecord> => ({
    id: 'm1',
    orgId: 'org',
    name: 'budgeted',
    baseUrl: 'http://127.0.0.1:9/v1',
    upstreamModel: 'echo',
    apiKeyEnv: null,
    family: 'standard',
    approvedForPhi: true,
    priceInputMicrosPer1k: 0,
    priceOutputMicrosPer1k: 0,
    timeoutMs: 1000,
    createdBy: null,
    createdAt: new Date(0).toISOString(),
  })),
  upstreamKey: vi.fn(() => null),
}));
vi.mock('../billing/ledger', async (orig) => ({
  ...(await orig<typeof import('../billing/ledger')>()),
  spendStatus: vi.fn(async () => ({ period: '2026-11', spent_micros: 0, reserved_micros: 0, cap_micros: null, at_cap: false })),
  reserveSpend: vi.fn(async () => ({ id: 'r1', orgId: 'org', sandbox: false, period: '2026-11', amountMicros: 0n })),
  releaseReservation: vi.fn(async () => undefined),
  settleReservation: vi.fn(async () => ({ outcome: 'charged', billedMicros: 0, unbilledMicros: 0 })),
}));
vi.mock('./receipts', () => ({ persistReceipt: vi.fn(async () => null) }));
vi.mock('./upstream', async (orig) => ({
  ...(await orig<typeof import('./upstream')>()),
  upstreamChat: vi.fn(async () => {
    throw new Error('the upstream must not be called');
  }),
}));
vi.mock('./messages', async (orig) => {
  const real = await orig<typeof import('./messages')>();
  return {
    ...real,
    // redaction that ends after the request's whole budget (simulated by moving the clock while it runs)
    redactPlanned: vi.fn((...args: Parameters<typeof real.redactPlanned>) => {
      const r = real.redactPlanned(...args);
      clockOffset += 5_000;
      return r;
    }),
  };
});

const { chatCompletion } = await import('./core');
const { upstreamChat } = await import('./upstream');
const { releaseReservation, settleReservation } = await import('../billing/ledger');

const principal: Principal = { kind: 'api_key', orgId: 'org', keyId: 'k', lookupId: 'abcd', scopes: [], sandbox: false };

describe('chatCompletion: the request time budget', () => {
  beforeEach(() => {
    clockOffset = 0;
    const real = performance.now.bind(performance);
    vi.spyOn(performance, 'now').mockImplementation(() => real() + clockOffset);
  });
  afterEach(() => vi.restoreAllMocks());

  it('answers 504 model_timeout without calling the upstream when redaction left nothing of the budget (finding 5)', async () => {
    const err = await chatCompletion({} as Database, principal, {
      model: 'budgeted',
      messages: [{ role: 'user', content: 'Patient Ahmad Faizal bin Rahman' }],
    }).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 504, type: 'model_timeout' });
    expect((err as Error).message).toContain('nothing was sent to the model');
    expect(upstreamChat).not.toHaveBeenCalled();
    // nothing delivered: the request's reservation is given back, never settled
    expect(releaseReservation).toHaveBeenCalledTimes(1);
    expect(settleReservation).not.toHaveBeenCalled();
  });
});
