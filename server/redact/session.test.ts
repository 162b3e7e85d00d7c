import { afterEach, describe, expect, it } from 'vitest';
import { PlaceholderAllocator, RedactionFailedError, RedactionSession, rehydrate } from './index';
import { faultInjectionFromHeaders, FAULT_HEADER } from './fault-injection';
import { getStrictSecret, SecretConfigError } from '../secrets';

const NAME = 'Ahmad Faizal bin Rahman';

describe('RedactionSession.reserveAll', () => {
  it('reserves placeholders of every text before any is redacted, so a later client placeholder never collides', () => {
    const s = new RedactionSession();
    expect(s.reserveAll(['Patient ' + NAME, 'and [PERSON_1], [PHONE_02] again', 'no placeholder'])).toBe(2);
    expect(s.clientPreredacted).toBe(true);
    expect(s.redact('Patient ' + NAME).redacted_text).toBe('Patient [PERSON_2]');
    expect(s.redact('call 012-345 6789').redacted_text).toBe('call [PHONE_3]');
    // `[PHONE_02]` reserves index 2, in its canonical spelling
    expect([...s.reservedPlaceholders].sort()).toEqual(['[PERSON_1]', '[PHONE_2]']);
  });

  it('without reserveAll (the old order) a later placeholder collides: the reason reserveAll exists', () => {
    const s = new RedactionSession();
    expect(s.redact('Patient ' + NAME).redacted_text).toBe('Patient [PERSON_1]');
    s.redact('and [PERSON_1] again');
    expect(s.reservedPlaceholders.size).toBe(0); // taken by our value: the client's meaning is lost
  });

  it('rehydrate leaves the client placeholders as written and does not count them as unresolved', () => {
    const s = new RedactionSession();
    s.reserveAll(['[PERSON_1] is the brother']);
    s.redact('Patient ' + NAME);
    const r = s.rehydrate('[PERSON_2] met [PERSON_1] and [person_1]; [PERSON_9] is invented');
    expect(r.text).toBe(`${NAME} met [PERSON_1] and [person_1]; [PERSON_9] is invented`);
    expect(r).toMatchObject({ replaced: 1, unresolved: 1, unresolved_placeholders: ['[PERSON_9]'] });
    // the streaming rehydrator too
    const st = s.createRehydrationStream();
    expect(st.push('[PERS') + st.push('ON_1] / [PERSON_2]') + st.flush()).toBe(`[PERSON_1] / ${NAME}`);
    expect(st.unresolved).toBe(0);
    // plain rehydrate with the ignore option
    expect(rehydrate('[MRN_4]', {}, { ignore: new Set(['[MRN_4]']) }).unresolved).toBe(0);
    expect(rehydrate('[MRN_4]', {}).unresolved).toBe(1);
  });
});

describe('conversation_key and reserved placeholders', () => {
  const opts = { conversationKey: 'conv', hmacSecret: 's'.repeat(40) };

  it("a value whose derived placeholder is reserved takes it (an earlier turn's placeholder sent back)", () => {
    const first = new RedactionSession(opts);
    const ph = first.redact('Patient ' + NAME).entities[0]!.placeholder;
    const s = new RedactionSession(opts);
    s.reserveAll([`${ph} was admitted`]);
    expect(s.redact('Discharge ' + NAME).redacted_text).toBe(`Discharge ${ph}`);
    expect(s.reservedPlaceholders.size).toBe(0);
    expect(s.rehydrate(`${ph} went home`).text).toBe(`${NAME} went home`);
  });

  it('a reserved placeholder is never given to a value it is not derived from', () => {
    const a = new PlaceholderAllocator(opts);
    const ph = a.assign('PERSON', NAME);
    const b = new PlaceholderAllocator(opts);
    b.reserve(ph);
    // another value: whatever its index, it is not the reserved one unless derived from it
    const other = b.assign('PERSON', 'Tan Ah Kow');
    expect(other).not.toBe(ph);
    expect(b.assign('PERSON', NAME)).toBe(ph);
  });
});

describe('RedactionSession.redactSegments', () => {
  it('redacts many texts in one pass, with a context label, and cuts entities at each text edge', () => {
    const s = new RedactionSession();
    const out = s.redactSegments([
      { text: '123456', context: 'mrn: ' },
      { text: '' },
      { text: 'Ahmad_Faizal', view: 'Ahmad Faizal' },
      { text: `seen by Dr ${NAME}` },
      { text: 'stable' },
    ]);
    expect(out).toEqual(['[MRN_1]', '', '[PERSON_1]', 'seen by Dr [PERSON_2]', 'stable']);
    expect(s.mapping).toEqual({ '[MRN_1]': '123456', '[PERSON_1]': 'Ahmad_Faizal', '[PERSON_2]': NAME });
    expect(s.analysisPasses).toBe(1);
    expect(s.freeTextFields).toBe(0); // the caller counts fields
    expect(s.entitiesRedacted).toEqual({ MRN: 1, PERSON: 2 });
  });

  it('splits into passes of about passChars characters; a long text gets its own pass', () => {
    const s = new RedactionSession();
    const texts = Array.from({ length: 30 }, (_, i) => ({ text: `row ${i} stable` }));
    s.redactSegments([...texts, { text: 'x'.repeat(500) }, ...texts], { passChars: 200 });
    expect(s.analysisPasses).toBeGreaterThan(3);
    expect(s.analysisPasses).toBeLessThan(12);
  });

  it('stops at the session deadline (fail closed) and refuses a view of another length', () => {
    const late = new RedactionSession({ deadline: performance.now() - 1 });
    expect(() => late.redactSegments([{ text: NAME }])).toThrow(RedactionFailedError);
    expect(() => new RedactionSession().redactSegments([{ text: 'abc', view: 'ab' }])).toThrow(RedactionFailedError);
  });

  it('detectSegments finds entities without assigning placeholders', () => {
    const s = new RedactionSession();
    const found = s.detectSegments(['get patient', 'lookup Tan Ah Kow', 'call 850101145678']);
    expect(found[0]).toEqual([]);
    expect(found[1]![0]).toMatchObject({ type: 'PERSON', start: 7, end: 17 });
    expect(found[2]![0]!.type).toBe('MY_IC');
    expect(s.mapping).toEqual({});
    expect(s.entitiesRedacted).toEqual({});
  });
});

describe('one fault-injection parser for every door', () => {
  // NODE_ENV is typed read-only by @types/node; this test switches it on purpose
  const env = process.env as Record<string, string | undefined>;
  const saved = { node: env.NODE_ENV, flag: env.REDACT_FAULT_INJECTION };
  afterEach(() => {
    env.NODE_ENV = saved.node;
    env.REDACT_FAULT_INJECTION = saved.flag;
  });
  it('reads the header only when enabled', () => {
    const h = new Headers({ [FAULT_HEADER]: 'throw:*' });
    env.NODE_ENV = 'test';
    env.REDACT_FAULT_INJECTION = '1';
    expect(faultInjectionFromHeaders(h)).toEqual({ throwIn: '*' });
    expect(faultInjectionFromHeaders(new Headers({ [FAULT_HEADER]: 'delay:99999' }))).toEqual({ delayMs: 10_000 });
    expect(faultInjectionFromHeaders(new Headers({ [FAULT_HEADER]: 'nonsense' }))).toBeUndefined();
    env.REDACT_FAULT_INJECTION = '0';
    expect(faultInjectionFromHeaders(h)).toBeUndefined();
    env.REDACT_FAULT_INJECTION = '1';
    env.NODE_ENV = 'production';
    expect(faultInjectionFromHeaders(h)).toBeUndefined();
  });
});

describe('getStrictSecret', () => {
  const saved = process.env.REDACTION_HMAC_SECRET;
  afterEach(() => {
    if (saved === undefined) delete process.env.REDACTION_HMAC_SECRET;
    else process.env.REDACTION_HMAC_SECRET = saved;
  });
  it('refuses a set value shorter than 32 characters (getSecret would silently replace it); accepts a long one', () => {
    process.env.REDACTION_HMAC_SECRET = 'xq7-weak';
    expect(() => getStrictSecret('REDACTION_HMAC_SECRET')).toThrow(SecretConfigError);
    try {
      getStrictSecret('REDACTION_HMAC_SECRET');
    } catch (e) {
      expect((e as Error).message).toContain('REDACTION_HMAC_SECRET');
      expect((e as Error).message).not.toContain('xq7-weak');
    }
    process.env.REDACTION_HMAC_SECRET = 'k'.repeat(32);
    expect(getStrictSecret('REDACTION_HMAC_SECRET')).toBe('k'.repeat(32));
  });
});
