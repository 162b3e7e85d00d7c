/**
 * Validation errors never echo caller text (finding: a reversed prior_mapping printed the name in the message).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeZodIssues } from '../errors';

const Schema = z.strictObject({
  prior_mapping: z
    .record(z.string().regex(/^\[[A-Z_]+_[1-9]\d*\]$/, 'keys must be placeholders of the form [TYPE_n] (e.g. [PERSON_1])'), z.string().min(1))
    .optional(),
  items: z.array(z.object({ n: z.number() })).optional(),
  meta: z.record(z.string(), z.number()).optional(),
  plain_keys: z.record(z.string().regex(/^[a-z]+$/), z.string()).optional(),
});

function message(input: unknown): string {
  const r = Schema.safeParse(input);
  if (r.success) throw new Error('expected a validation error');
  return describeZodIssues(r.error.issues);
}

describe('describeZodIssues', () => {
  it('a reversed prior_mapping names the field, not the key', () => {
    const m = message({ prior_mapping: { 'Ronny Anak Sumpit': '[PERSON_1]' } });
    expect(m).toBe('prior_mapping: keys must be placeholders of the form [TYPE_n] (e.g. [PERSON_1])');
    expect(m).not.toContain('Ronny');
  });
  it('a bad value under a record key does not print the key', () => {
    expect(message({ meta: { 'Tan Ah Kow 700101-14-5671': 'x' } })).toMatch(/^meta: /);
    expect(message({ meta: { 'Tan Ah Kow 700101-14-5671': 'x' } })).not.toMatch(/Tan|700101/);
    // even a key that looks like a field name is a key from the input: it is shown only when it is a plain word
    expect(message({ prior_mapping: { '[PERSON_1]': 5 } })).toMatch(/^prior_mapping: /);
    expect(message({ prior_mapping: { '[PERSON_1]': 5 } })).not.toContain('[PERSON_1]:');
  });
  it('an invalid key of a record without its own message', () => {
    const m = message({ plain_keys: { 'Siti Aminah': 'x' } });
    expect(m).toMatch(/^plain_keys: invalid key/);
    expect(m).not.toContain('Siti');
  });
  it('keeps array indexes and nested field names', () => {
    expect(message({ items: [{ n: 1 }, { n: 'x' }] })).toMatch(/^items\.1\.n: /);
  });
  it('names unknown fields only when they look like field names', () => {
    expect(message({ mode: 'fast' })).toBe("body: unknown field 'mode'");
    const m = message({ 'Ahmad bin Ali': 1 });
    expect(m).toBe('body: unknown field');
    expect(m).not.toContain('Ahmad');
  });
});
