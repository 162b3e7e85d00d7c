import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RedactionFailedError, RedactionSession, buildReceipt, failedClosedReceipt, faultInjectionEnabled, redactText } from './index';

// NODE_ENV is typed read-only by @types/node; tests switch it on purpose.
const env = process.env as Record<string, string | undefined>;

const TEXT = 'Pt Tan Ah Kow, IC 700101-14-5672, tel 012-345 6789.';

describe('fail closed', () => {
  const saved = { node: process.env.NODE_ENV, flag: process.env.REDACT_FAULT_INJECTION };
  beforeEach(() => {
    env.NODE_ENV = 'test';
    process.env.REDACT_FAULT_INJECTION = '1';
  });
  afterEach(() => {
    env.NODE_ENV = saved.node;
    if (saved.flag === undefined) delete process.env.REDACT_FAULT_INJECTION;
    else process.env.REDACT_FAULT_INJECTION = saved.flag;
  });

  it('a recognizer that throws makes the whole call throw RedactionFailedError, with no text', () => {
    for (const name of ['phone', 'person', 'my_ic', 'clinical_allow_list', 'tokenizer']) {
      let err: unknown;
      try {
        redactText(TEXT, { faultInjection: { throwIn: name } });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(RedactionFailedError);
      expect((err as RedactionFailedError).reason).toBe('recognizer_error');
      expect((err as RedactionFailedError).recognizer).toBe(name);
      expect(String((err as Error).message)).not.toContain('Tan Ah Kow');
    }
  });

  it('an exhausted time budget throws RedactionFailedError', () => {
    expect(() => redactText(TEXT, { timeBudgetMs: 5, faultInjection: { delayMs: 10 } })).toThrow(
      expect.objectContaining({ name: 'RedactionFailedError', reason: 'time_budget_exceeded' }),
    );
  });

  it('a session fails closed too', () => {
    const s = new RedactionSession({ faultInjection: { throwIn: '*' } });
    expect(() => s.redact(TEXT)).toThrow(RedactionFailedError);
  });

  it('the failed_closed receipt carries no counts and status failed_closed', () => {
    expect(failedClosedReceipt({ freeTextFields: 2 })).toEqual({
      receipt_version: 1,
      engine: 'coding-gateway-redact',
      engine_version: expect.any(String),
      rehydration_complete: null,
      unresolved_placeholder_count: 0,
      client_preredacted: false,
      entities_redacted: {},
      free_text_fields: 2,
      client_asserted_deidentified: false,
      redacted_anyway: false,
      status: 'failed_closed',
      retention: 'metadata_only',
    });
  });
});

describe('fault injection cannot be enabled by accident', () => {
  const saved = { node: process.env.NODE_ENV, flag: process.env.REDACT_FAULT_INJECTION };
  afterEach(() => {
    env.NODE_ENV = saved.node;
    if (saved.flag === undefined) delete process.env.REDACT_FAULT_INJECTION;
    else process.env.REDACT_FAULT_INJECTION = saved.flag;
  });
  it('is ignored outside NODE_ENV=test', () => {
    env.NODE_ENV = 'production';
    process.env.REDACT_FAULT_INJECTION = '1';
    expect(faultInjectionEnabled()).toBe(false);
    expect(redactText(TEXT, { faultInjection: { throwIn: '*' } }).redacted_text).toBe('Pt [PERSON_1], IC [MY_IC_1], tel [PHONE_1].');
  });
  it('is ignored without REDACT_FAULT_INJECTION=1', () => {
    env.NODE_ENV = 'test';
    delete process.env.REDACT_FAULT_INJECTION;
    expect(faultInjectionEnabled()).toBe(false);
    expect(() => redactText(TEXT, { faultInjection: { throwIn: '*' } })).not.toThrow();
  });
});

describe('receipt', () => {
  it('redact-only receipt', () => {
    const r = redactText(TEXT);
    expect(buildReceipt({ entitiesRedacted: r.entities_redacted, clientPreredacted: r.client_preredacted, freeTextFields: 1 })).toEqual({
      receipt_version: 1,
      engine: 'coding-gateway-redact',
      engine_version: expect.any(String),
      rehydration_complete: null,
      unresolved_placeholder_count: 0,
      client_preredacted: false,
      entities_redacted: { PERSON: 1, MY_IC: 1, PHONE: 1 },
      free_text_fields: 1,
      client_asserted_deidentified: false,
      redacted_anyway: false,
      status: 'ok',
      retention: 'metadata_only',
    });
  });
  it('chat receipt with rehydration and a client de-identification assertion', () => {
    const s = new RedactionSession();
    s.redactFields([TEXT, 'and [PERSON_1] again']);
    const answer = s.rehydrate('Hello [PERSON_1], your number [PHONE_1] and [PERSON_5].');
    const rc = buildReceipt({
      entitiesRedacted: s.entitiesRedacted,
      clientPreredacted: s.clientPreredacted,
      freeTextFields: s.freeTextFields,
      clientAssertedDeidentified: true,
      rehydration: { unresolved: answer.unresolved },
    });
    expect(rc).toMatchObject({
      rehydration_complete: false,
      unresolved_placeholder_count: 1,
      client_preredacted: true,
      free_text_fields: 2,
      client_asserted_deidentified: true,
      redacted_anyway: true,
      status: 'ok',
    });
  });
});
