import { describe, expect, it } from 'vitest';
import { RedactionFailedError, RedactionSession, redactText } from './index';

describe('placeholders', () => {
  it('numbers per type from 1 in order of first appearance', () => {
    const r = redactText('Dr. Lim Wei Ming called 012-345 6789. Wife Tan Mei Ling (IC 700101-14-5672), tel 013-222 3333.');
    expect(r.redacted_text).toBe('Dr. [PERSON_1] called [PHONE_1]. Wife [PERSON_2] (IC [MY_IC_1]), tel [PHONE_2].');
    expect(r.mapping).toEqual({
      '[PERSON_1]': 'Lim Wei Ming',
      '[PHONE_1]': '012-345 6789',
      '[PERSON_2]': 'Tan Mei Ling',
      '[MY_IC_1]': '700101-14-5672',
      '[PHONE_2]': '013-222 3333',
    });
    expect(r.entities_redacted).toEqual({ PERSON: 2, PHONE: 2, MY_IC: 1 });
    expect(r.entities.map((e) => e.placeholder)).toEqual(['[PERSON_1]', '[PHONE_1]', '[PERSON_2]', '[MY_IC_1]', '[PHONE_2]']);
  });

  it('gives the same placeholder to the same value after normalisation', () => {
    const r = redactText(
      'IC 700101-14-5672 / NRIC 700101145672 / KP 700101 14 5672. Tel 012-345 6789, +60123456789. ' +
        'Pt Aiman b. Shukri; AIMAN BIN SHUKRI agreed. mail Siti@Moh.gov.my or siti@moh.gov.my',
    );
    expect(r.redacted_text).toBe(
      'IC [MY_IC_1] / NRIC [MY_IC_1] / KP [MY_IC_1]. Tel [PHONE_1], [PHONE_1]. Pt [PERSON_1]; [PERSON_1] agreed. mail [EMAIL_1] or [EMAIL_1]',
    );
    expect(r.entities_redacted).toEqual({ MY_IC: 3, PHONE: 2, PERSON: 2, EMAIL: 2 });
  });

  it('keeps partial name mentions as their own placeholder, linked to the full name', () => {
    const r = redactText('Name: Kelvin Seah Chee Beng\nKelvin is a 75-yr-old man. Kelvin agreed.');
    expect(r.redacted_text).toBe('Name: [PERSON_1]\n[PERSON_2] is a 75-yr-old man. [PERSON_2] agreed.');
    expect(r.mapping['[PERSON_2]']).toBe('Kelvin');
    expect(r.entities[1].refers_to).toBe('[PERSON_1]');
  });

  it('prior_mapping: known values keep their placeholder, new values get the next free index', () => {
    const first = redactText('Pt Tan Ah Kow, tel 012-345 6789');
    expect(first.redacted_text).toBe('Pt [PERSON_1], tel [PHONE_1]');
    const second = redactText('Wife Lim Siew Peng called from 0123456789 about Tan Ah Kow.', { priorMapping: first.mapping });
    expect(second.redacted_text).toBe('Wife [PERSON_2] called from [PHONE_1] about [PERSON_1].');
    expect(second.mapping).toEqual({ '[PERSON_2]': 'Lim Siew Peng', '[PHONE_1]': '012-345 6789', '[PERSON_1]': 'Tan Ah Kow' });
  });

  it('prior_mapping takes precedence over conversation_key', () => {
    const r = redactText('Pt Tan Ah Kow', { priorMapping: { '[PERSON_7]': 'Tan Ah Kow' }, conversationKey: 'abc', hmacSecret: 's3cret' });
    expect(r.redacted_text).toBe('Pt [PERSON_7]');
  });

  it('conversation_key: the same value keeps the same placeholder across calls; keys and secrets separate conversations', () => {
    const opts = { conversationKey: 'conv-1', hmacSecret: 'test-secret' };
    const a = redactText('Pt Tan Ah Kow, tel 012-345 6789', opts);
    const b = redactText('Earlier: 0123456789. Son Tan Wei Jie visited Tan Ah Kow.', opts);
    const ph = (r: typeof a, v: string) => Object.entries(r.mapping).find(([, o]) => o === v)![0];
    const pa = ph(a, 'Tan Ah Kow');
    expect(ph(b, 'Tan Ah Kow')).toBe(pa);
    expect(b.entities.find((e) => e.type === 'PHONE')!.placeholder).toBe(a.entities.find((e) => e.type === 'PHONE')!.placeholder);
    const other = redactText('Pt Tan Ah Kow', { conversationKey: 'conv-2', hmacSecret: 'test-secret' });
    expect(ph(other, 'Tan Ah Kow')).not.toBe(pa);
    expect(pa).toMatch(/^\[PERSON_\d+\]$/);
  });

  it('conversation_key without a secret fails closed (configuration)', () => {
    expect(() => redactText('Pt Tan Ah Kow', { conversationKey: 'k' })).toThrow(RedactionFailedError);
  });

  it('detects client pre-redacted placeholders, leaves them intact and never reuses their index', () => {
    const r = redactText('[PERSON_1] was seen with his wife Lim Siew Peng, tel [PHONE_2] or 012-345 6789.');
    expect(r.client_preredacted).toBe(true);
    expect(r.redacted_text).toBe('[PERSON_1] was seen with his wife [PERSON_2], tel [PHONE_2] or [PHONE_3].');
    expect(r.entities_redacted).toEqual({ PERSON: 1, PHONE: 1 });
    expect(redactText('no placeholders here').client_preredacted).toBe(false);
  });

  it('a session keeps one mapping across many fields', () => {
    const s = new RedactionSession();
    const [a, b] = s.redactFields(['Pt Tan Ah Kow, 012-345 6789', 'Reply to Tan Ah Kow at 0123456789; wife Lim Siew Peng']);
    expect(a.redacted_text).toBe('Pt [PERSON_1], [PHONE_1]');
    expect(b.redacted_text).toBe('Reply to [PERSON_1] at [PHONE_1]; wife [PERSON_2]');
    expect(s.freeTextFields).toBe(2);
    expect(s.entitiesRedacted).toEqual({ PERSON: 3, PHONE: 2 });
    expect(s.mapping).toEqual({ '[PERSON_1]': 'Tan Ah Kow', '[PHONE_1]': '012-345 6789', '[PERSON_2]': 'Lim Siew Peng' });
  });

  it('rejects over-long text and non-strings (fail closed, no text)', () => {
    expect(() => redactText('x'.repeat(100_001))).toThrow(RedactionFailedError);
    expect(() => redactText(42 as unknown as string)).toThrow(RedactionFailedError);
  });
});
