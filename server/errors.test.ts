import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppError, ERROR_TYPES, badRequest, forbidden, isErrorType, notFound, type ErrorStatus } from './errors';
import { sharedDir } from './config/paths';
import { REFUSAL_TYPES } from './gateway/schema';

/**
 * The error catalogue (server/errors.ts) against the interface contract. SPEC §7 binds statuses to conditions; the
 * codes below are the ones this server uses for those conditions (and the one SPEC names, `model_timeout`). The
 * statuses are read from SPEC.md itself, so a change on either side fails here.
 */
const SPEC_CONDITIONS: Record<string, { status: number; condition: RegExp }> = {
  missing_query: { status: 400, condition: /missing query/ },
  invalid_search_mode: { status: 400, condition: /invalid search_mode/ },
  invalid_vocabulary: { status: 400, condition: /invalid vocabularies/ },
  invalid_domain: { status: 400, condition: /invalid domain/ },
  invalid_request: { status: 400, condition: /top_k out of range/ },
  max_tokens_too_low: { status: 400, condition: /max_tokens below 16/ },
  missing_credentials: { status: 401, condition: /Missing or invalid credentials/ },
  invalid_api_key: { status: 401, condition: /Missing or invalid credentials/ },
  key_expired: { status: 401, condition: /a lapsed key/ },
  insufficient_scope: { status: 403, condition: /scope does not cover/ },
  spend_cap_reached: { status: 429, condition: /spend-capped organization/ },
  internal_error: { status: 500, condition: /Internal error/ },
  redaction_failed: { status: 503, condition: /Redaction could not complete/ },
  model_timeout: { status: 504, condition: /`model_timeout`/ },
};

function specErrorTable(): Map<number, string> {
  const spec = fs.readFileSync(path.join(sharedDir(), 'docs', 'SPEC.md'), 'utf8');
  const section = spec.slice(spec.indexOf('## 7. Errors'), spec.indexOf('## 8.'));
  const rows = new Map<number, string>();
  for (const m of section.matchAll(/^\| (\d{3}) \| (.+) \|$/gm)) rows.set(Number(m[1]), m[2]!);
  return rows;
}

describe('error catalogue', () => {
  it('maps every code SPEC §7 binds to the status SPEC gives it', () => {
    const table = specErrorTable();
    expect([...table.keys()].sort()).toEqual([400, 401, 403, 429, 500, 503, 504]);
    for (const [type, { status, condition }] of Object.entries(SPEC_CONDITIONS)) {
      expect(table.get(status), `SPEC §7 row ${status} for ${type}`).toMatch(condition);
      expect(isErrorType(type), type).toBe(true);
      expect(ERROR_TYPES[type as keyof typeof ERROR_TYPES], type).toBe(status);
    }
    // every status of the SPEC table has at least one catalogue type
    for (const status of table.keys()) expect(Object.values(ERROR_TYPES), String(status)).toContain(status);
  });

  it('gives the chat refusals of SPEC §4.10 item 3 a 400 each', () => {
    for (const t of Object.values(REFUSAL_TYPES)) expect(ERROR_TYPES[t], t).toBe(400);
  });

  it('has snake_case types and only statuses the API documents', () => {
    const documented: ErrorStatus[] = [400, 401, 403, 404, 405, 409, 410, 413, 415, 422, 429, 431, 500, 502, 503, 504];
    for (const [type, status] of Object.entries(ERROR_TYPES)) {
      expect(type).toMatch(/^[a-z]+(_[a-z0-9]+)*$/);
      expect(documented, type).toContain(status);
    }
  });

  it('an AppError takes its status from the catalogue and keeps the wire shape', () => {
    const e = new AppError('idempotency_conflict', 'Same key, different request.', { job_id: 'j1' });
    expect(e.status).toBe(409);
    expect(e.toBody()).toEqual({ error: 'idempotency_conflict', message: 'Same key, different request.', job_id: 'j1' });
    expect(badRequest('x').status).toBe(400);
    expect(forbidden('no', 'insufficient_scope', { scopes_held: ['search'] }).toBody()).toEqual({
      error: 'insufficient_scope',
      message: 'no',
      scopes_held: ['search'],
    });
    expect(notFound().toBody()).toEqual({ error: 'not_found', message: 'Not found' });
    const w = AppError.fromWire(503, 'redaction_failed', 'from a worker', { reason: 'recognizer_error' });
    expect([w.status, w.type, w.toBody()]).toEqual([
      503,
      'redaction_failed',
      { error: 'redaction_failed', message: 'from a worker', reason: 'recognizer_error' },
    ]);
    expect(isErrorType('no_such_error')).toBe(false);
  });

  it('is enforced by the types: a status or a type outside the catalogue does not compile (checked by tsc)', () => {
    const attempts = [
      // @ts-expect-error the status comes from the catalogue, it is not an argument
      () => new AppError(400, 'invalid_request', 'x'),
      // @ts-expect-error not a catalogue type
      () => new AppError('something_new', 'x'),
      // @ts-expect-error not_found is a 404, not a 400
      () => badRequest('x', 'not_found'),
    ];
    expect(attempts).toHaveLength(3);
  });
});

describe('database unavailable', () => {
  it('recognises an unreachable database through the driver, Prisma Client and the driver adapter, and nothing else', async () => {
    const { isDatabaseUnavailable } = await import('./errors');
    const prismaDown = Object.assign(new Error('Invalid `prisma.organization.findFirst()` invocation'), {
      name: 'PrismaClientKnownRequestError',
      code: 'P1001',
      meta: {
        modelName: 'Organization',
        driverAdapterError: { name: 'DriverAdapterError', cause: { kind: 'DatabaseNotReachable', host: '127.0.0.1', port: 1 } },
      },
    });
    expect(isDatabaseUnavailable(prismaDown)).toBe(true);
    expect(isDatabaseUnavailable({ name: 'X', meta: { driverAdapterError: { cause: { kind: 'postgres', code: '57P01' } } } })).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBe(true);
    // a constraint violation or a missing row is the caller's problem, not an outage
    expect(
      isDatabaseUnavailable({
        name: 'PrismaClientKnownRequestError',
        code: 'P2002',
        meta: { driverAdapterError: { cause: { kind: 'UniqueConstraintViolation' } } },
      }),
    ).toBe(false);
    expect(isDatabaseUnavailable({ name: 'X', meta: { driverAdapterError: { cause: { kind: 'postgres', code: '23505' } } } })).toBe(false);
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
  });
});
