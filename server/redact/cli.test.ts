import { describe, expect, it } from 'vitest';
import { processLine } from './cli';

describe('cli processLine', () => {
  it('returns code-point offsets (Python indices) even after astral characters', () => {
    const text = '\u{1F600}\u{1F600} Pt Tan Ah Kow tel 012-345 6789';
    const out = processLine(JSON.stringify({ id: 'a', text })) as { entities: Array<{ start: number; end: number; type: string }>; redacted_text: string };
    const cps = Array.from(text);
    const spans = out.entities.map((e) => [cps.slice(e.start, e.end).join(''), e.type]);
    expect(spans).toEqual([
      ['Tan Ah Kow', 'PERSON'],
      ['012-345 6789', 'PHONE'],
    ]);
    expect(out.redacted_text).toBe('\u{1F600}\u{1F600} Pt [PERSON_1] tel [PHONE_1]');
  });
  it('reports malformed lines without crashing', () => {
    expect(processLine('{not json')).toEqual({ id: null, error: 'invalid JSON' });
    expect(processLine('[1,2]')).toEqual({ id: null, error: 'line must be a JSON object' });
    expect(processLine('{"id":"x"}')).toEqual({ id: 'x', error: 'missing string field "text"' });
  });
  it('can omit the mapping', () => {
    const out = processLine(JSON.stringify({ id: 1, text: 'Dr. Lim Wei Ming' }), false);
    expect(out).toEqual({ id: 1, redacted_text: 'Dr. [PERSON_1]', entities: [{ start: 4, end: 16, type: 'PERSON' }] });
  });
});
