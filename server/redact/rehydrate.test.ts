import { describe, expect, it } from 'vitest';
import { PlaceholderSafeChunker, RedactionSession, StreamingRehydrator, rehydrate } from './index';

const MAP = { '[PERSON_1]': 'Tan Ah Kow', '[PHONE_1]': '012-345 6789', '[MY_IC_1]': '700101-14-5672' };

describe('rehydrate', () => {
  it('restores exact placeholders', () => {
    const r = rehydrate('Call [PERSON_1] at [PHONE_1].', MAP);
    expect(r).toMatchObject({ text: 'Call Tan Ah Kow at 012-345 6789.', replaced: 2, repaired: 0, unresolved: 0 });
  });
  it('repairs changed case and spacing, and counts repairs', () => {
    const r = rehydrate('[person_1], [ PERSON_1 ], [PERSON 1], [Phone-1], [my ic_1], [MYIC_1]', MAP);
    expect(r.text).toBe('Tan Ah Kow, Tan Ah Kow, Tan Ah Kow, 012-345 6789, 700101-14-5672, 700101-14-5672');
    expect(r.repaired).toBe(6);
    expect(r.replaced).toBe(0);
  });
  it('counts invented indexes as unresolved and leaves them in place', () => {
    const r = rehydrate('[PERSON_1] and [PERSON_9] and [phone 4]', MAP);
    expect(r.text).toBe('Tan Ah Kow and [PERSON_9] and [phone 4]');
    expect(r.unresolved).toBe(2);
    expect(r.unresolved_placeholders).toEqual(['[PERSON_9]', '[phone 4]']);
  });
  it('leaves brackets that are not our placeholders alone', () => {
    const r = rehydrate('See [1], [Note 2] and [ref].', MAP);
    expect(r).toMatchObject({ text: 'See [1], [Note 2] and [ref].', replaced: 0, repaired: 0, unresolved: 0 });
  });
  it('session.rehydrate round-trips its own redaction', () => {
    const s = new RedactionSession();
    const text = 'Pt Tan Ah Kow (IC 700101-14-5672) wife Lim Siew Peng 012-345 6789.';
    const red = s.redact(text);
    expect(s.rehydrate(red.redacted_text).text).toBe(text);
  });
});

describe('streaming', () => {
  const placeholderSafe = (emitted: string[]) => {
    for (const e of emitted) {
      // no emitted piece may end inside a placeholder: an unmatched '[' that could still grow is never emitted
      const i = e.lastIndexOf('[');
      if (i >= 0 && !e.slice(i).includes(']')) expect(/^\[\s*[A-Za-z _-]*\d*\s*$/.test(e.slice(i))).toBe(false);
    }
  };

  it('never emits a partial placeholder, for every split of the input', () => {
    const text = 'Dear [PERSON_1], call [PHONE_12] or [ person_1 ] today [x] [1].';
    for (let cut = 1; cut < text.length; cut++) {
      for (const size of [1, 2, 3, 5, 8]) {
        const c = new PlaceholderSafeChunker();
        const out: string[] = [];
        let pos = 0;
        out.push(c.push(text.slice(0, cut)));
        pos = cut;
        while (pos < text.length) {
          out.push(c.push(text.slice(pos, pos + size)));
          pos += size;
        }
        out.push(c.flush());
        expect(out.join('')).toBe(text);
        placeholderSafe(out.slice(0, -1));
      }
    }
  });

  it('rehydrates a stream chunk by chunk', () => {
    const r = new StreamingRehydrator({ '[PERSON_1]': 'Tan Ah Kow', '[PHONE_12]': '012-345 6789' });
    const chunks = ['Dear [PER', 'SON_1], call [PHONE_', '12] or [per', 'son_1] [PERSON_2] end'];
    const out = chunks.map((c) => r.push(c)).join('') + r.flush();
    expect(out).toBe('Dear Tan Ah Kow, call 012-345 6789 or Tan Ah Kow [PERSON_2] end');
    expect(r.replaced).toBe(2);
    expect(r.repaired).toBe(1);
    expect(r.unresolved).toBe(1);
  });

  it('releases a bracket that clearly is not a placeholder', () => {
    const c = new PlaceholderSafeChunker();
    expect(c.push('a [')).toBe('a ');
    expect(c.push('see note')).toBe('');
    expect(c.push('] b')).toBe('[see note] b');
    expect(c.push(' [x, y]')).toBe(' [x, y]');
  });
});

describe('one value written two ways (documented in README: Placeholders and mapping)', () => {
  it('shares one placeholder (the model sees one IC); rehydration restores each occurrence as written', () => {
    const session = new RedactionSession();
    const r = session.redact('IC 850101-14-5673 on the form, 850101145673 on the card.');
    expect(r.redacted_text).toBe('IC [MY_IC_1] on the form, [MY_IC_1] on the card.');
    expect(r.mapping).toEqual({ '[MY_IC_1]': '850101-14-5673' });
    // the session restores an answer that quotes the input in the input's forms, occurrence by occurrence
    expect(session.rehydrate(r.redacted_text).text).toBe('IC 850101-14-5673 on the form, 850101145673 on the card.');
    expect(session.rehydrate('Card: [MY_IC_1] on the card, checked.').text).toBe('Card: 850101145673 on the card, checked.');
    // an answer in other words gets the first form; so does a caller that has only the mapping (SPEC: one string each)
    expect(session.rehydrate('The IC is [MY_IC_1].').text).toBe('The IC is 850101-14-5673.');
    expect(rehydrate(r.redacted_text, r.mapping).text).toBe('IC 850101-14-5673 on the form, 850101-14-5673 on the card.');
  });
});

describe('restoring inside a JSON document quoted in the answer', () => {
  it('a value with a line break comes back escaped inside a JSON string literal and raw in prose', () => {
    const s = new RedactionSession({});
    const note = 'No. K/P baru: 330527-05-\n4005\nNama: Tan Ah Kow';
    const t = s.redact(note).redacted_text;
    const back = s.rehydrate(`${t}\n\n${JSON.stringify({ note: t })}`).text;
    const cut = back.indexOf('\n\n{');
    expect(back.slice(0, cut)).toBe(note);
    expect(JSON.parse(back.slice(cut + 2))).toEqual({ note });
  });
  it("a name written in two cases keeps each occurrence's case inside the JSON string as in prose", () => {
    const s = new RedactionSession({});
    const note = 'Best regards,\nRADZI B. HARUN\nClinical Specialist\n\nNursing: seen by Radzi b. Harun at 10am';
    const t = s.redact(note).redacted_text;
    expect(t).not.toMatch(/radzi/i);
    const back = s.rehydrate(`${t}\n\n${JSON.stringify({ note: t })}`).text;
    const cut = back.lastIndexOf('\n\n{');
    expect(back.slice(0, cut)).toBe(note);
    expect(JSON.parse(back.slice(cut + 2)).note).toBe(note);
  });
});
