import { describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { RedactionFailedError, RedactionSession } from '../redact';
import {
  emptyCounts,
  planRedaction,
  propagateKnownValues,
  redactPlanned,
  rehydrateArguments,
  rehydrateText,
  screenTokens,
  type RequestTexts,
} from './messages';
import { parseChatRequest, type ChatRequest } from './schema';

const NAME = 'Ahmad Faizal bin Rahman';
const IC = '850101-14-5678';

function req(body: Record<string, unknown>): ChatRequest {
  return parseChatRequest({ model: 'm', ...body });
}

function redact(r: RequestTexts, s = new RedactionSession()) {
  const plan = planRedaction(r);
  const out = redactPlanned(s, plan);
  return { ...out, session: s, fields: plan.fields.length };
}

/** A Luhn-valid number with the given prefix (one more digit). */
function luhn(prefix: string): string {
  for (let d = 0; d < 10; d++) {
    const n = prefix + d;
    let sum = 0;
    [...n].reverse().forEach((c, i) => {
      let v = Number(c);
      if (i % 2) v = v * 2 > 9 ? v * 2 - 9 : v * 2;
      sum += v;
    });
    if (sum % 10 === 0) return n;
  }
  throw new Error('unreachable');
}

describe('redactPlanned: one session for the whole request', () => {
  it('redacts every role, tool-call arguments and tool results with the same placeholders', () => {
    const r = req({
      messages: [
        { role: 'system', content: `Patient: ${NAME}` },
        { role: 'developer', content: [{ type: 'text', text: `IC ${IC}` }] },
        { role: 'user', content: `${NAME}, IC ${IC}` },
        {
          role: 'assistant',
          content: `Looking up ${NAME}`,
          refusal: null,
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: JSON.stringify({ name: NAME, ic: IC }) } }],
        },
        { role: 'tool', tool_call_id: 'c1', content: JSON.stringify({ patient: { name: NAME, ic: 850101145678 }, note: `${NAME}\nIC ${IC}` }) },
      ],
    });
    const { req: out, session: s, fields } = redact(r);
    const all = JSON.stringify(out);
    expect(all).not.toContain('Ahmad');
    expect(all).not.toContain('850101');
    expect(out.messages[0]).toEqual({ role: 'system', content: 'Patient: [PERSON_1]' });
    expect(out.messages[1]).toEqual({ role: 'developer', content: [{ type: 'text', text: 'IC [MY_IC_1]' }] });
    expect(out.messages[2]).toEqual({ role: 'user', content: '[PERSON_1], IC [MY_IC_1]' });
    const asst = out.messages[3] as { content: string; refusal: null; tool_calls: Array<{ id: string; function: { arguments: string } }> };
    expect(asst.content).toBe('Looking up [PERSON_1]');
    expect(asst.refusal).toBeNull();
    expect(asst.tool_calls[0]!.id).toBe('c1');
    expect(JSON.parse(asst.tool_calls[0]!.function.arguments)).toEqual({ name: '[PERSON_1]', ic: '[MY_IC_1]' });
    const tool = out.messages[4] as { tool_call_id: string; content: string };
    expect(tool.tool_call_id).toBe('c1');
    // a JSON number that is an IC becomes a placeholder string; the escaped newline did not hide the name
    expect(JSON.parse(tool.content)).toEqual({ patient: { name: '[PERSON_1]', ic: '[MY_IC_1]' }, note: '[PERSON_1]\nIC [MY_IC_1]' });
    expect(s.mapping['[PERSON_1]']).toBe(NAME);
    // fields: one per content string / part, arguments, tool result (not per JSON value, not per engine pass)
    expect(fields).toBe(6);
    expect(s.analysisPasses).toBe(1);
    // no orphan placeholders (every one assigned is in the output) and every entity counted once (finding 6)
    for (const ph of Object.keys(s.mapping)) expect(all).toContain(ph);
    const occurrences = (re: RegExp) => (all.match(re) ?? []).length;
    expect(s.entitiesRedacted).toEqual({ PERSON: occurrences(/\[PERSON_1\]/g), MY_IC: occurrences(/\[MY_IC_1\]/g) });
  });

  it('a label key gives its value context; JSON keeps its exact source text, non-JSON text is redacted as text', () => {
    const one = (text: string) =>
      (redact(req({ messages: [{ role: 'tool', tool_call_id: 'c', content: text }] })).req.messages[0] as { content: string }).content;
    // a bare MRN without a label is not a distinctive shape; "mrn" as the key is its label
    expect(one(JSON.stringify({ mrn: '123456' }))).toBe('{"mrn":"[MRN_1]"}');
    expect(one('{not json')).toBe('{not json');
    // formatting, number spelling and key order are kept byte for byte
    expect(one('[1, 2.50, 3e5,  -7]')).toBe('[1, 2.50, 3e5,  -7]');
    const pretty = JSON.stringify({ a: 'x', amount: 12345678901234567890 }, null, 2).replace('12345678901234567000', '12345678901234567890');
    expect(one(pretty)).toBe(pretty); // an amount: its key explains the long number, which is kept as written
    // default deny: the same long number under a key that does not explain it is redacted, as a whole JSON number
    expect(one('{"a": "x", "n": 12345678901234567890}')).toBe('{"a": "x", "n": "[MRN_1]"}');
  });

  it('JSON keys that are names or identifiers are redacted; the JSON stays valid and restores exactly (finding 2)', () => {
    const doc = `{"Ahmad_Faizal": {"visits": 3}, "patients": {"Tan Ah Kow": {"ic": "${IC}"}}, "Tan Ah Kow": "again"}`;
    const { req: out, session: s, numbers } = redact(req({ messages: [{ role: 'tool', tool_call_id: 'c', content: doc }] }));
    const sent = (out.messages[0] as { content: string }).content;
    expect(sent).not.toMatch(/Ahmad|Faizal|Tan Ah Kow|850101/);
    const parsed = JSON.parse(sent) as Record<string, unknown>;
    expect(Object.keys(parsed)).toHaveLength(3);
    // the model echoes it: keys and values come back exactly
    const c = emptyCounts();
    expect(rehydrateArguments(sent, s.mapping, c, { numbers })).toBe(doc);
    expect(c.unresolved).toBe(0);
  });

  it('JSON numbers: any size, from the literal as written (never a JS number); restored as the same number (finding 2)', () => {
    const card = luhn('411111111111111111'); // 19 digits: not a safe integer
    expect(card).toHaveLength(19);
    const doc = `{"card": ${card}, "ic": 850101145678, "amount": 12345678901234567890, "count": 42, "ratio": 1.50}`;
    const { req: out, session: s, numbers } = redact(req({ messages: [{ role: 'tool', tool_call_id: 'c', content: doc }] }));
    const sent = (out.messages[0] as { content: string }).content;
    expect(sent).not.toContain(card.slice(0, 12));
    expect(sent).not.toContain('850101');
    // a long number that is not an identifier stays exactly as written (no rounding to 12345678901234567000)
    expect(sent).toContain('"amount": 12345678901234567890');
    expect(sent).toContain('"ratio": 1.50');
    expect(JSON.parse(sent)).toMatchObject({ card: '[CARD_NUMBER_1]', ic: '[MY_IC_1]', count: 42 });
    // the model sends the placeholders back in a tool call: the numbers come back as numbers, digit for digit
    const c = emptyCounts();
    const back = rehydrateArguments(JSON.stringify({ pay_with: '[CARD_NUMBER_1]', for: '[MY_IC_1]' }), s.mapping, c, { numbers });
    expect(back).toBe(`{"pay_with":${card},"for":850101145678}`);
    // and the whole document echoed as content is the original text
    expect(rehydrateText(sent, s.mapping, emptyCounts(), { numbers })).toBe(doc);
  });

  it('stop strings, tool descriptions and every string of a parameter schema are redacted (finding 1)', () => {
    const r = req({
      messages: [{ role: 'user', content: `Summarise ${NAME}.` }],
      stop: [`${NAME}:`, 'END'],
      tools: [
        {
          type: 'function',
          function: {
            name: 'lookup',
            description: 'Look up patients of Dr Lim Wei Ming',
            parameters: {
              type: 'object',
              description: 'Nurse in charge: SN Kamala a/p Velu',
              properties: {
                who: { type: 'string', enum: ['Tan Ah Kow', 'Siti Aminah binti Hassan'], default: 'Tan Ah Kow', examples: ['012-345 6789'] },
                ic: { type: 'string', const: IC },
                mrn: { type: 'integer', minimum: 1 },
              },
              required: ['who'],
            },
          },
        },
      ],
    });
    const { req: out, fields } = redact(r);
    const all = JSON.stringify(out);
    for (const phi of [NAME, 'Lim Wei Ming', 'Kamala', 'Tan Ah Kow', 'Siti Aminah', '012-345 6789', IC]) expect(all).not.toContain(phi);
    expect(out.stop).toEqual([expect.stringMatching(/^\[PERSON_\d\]:$/), 'END']);
    const fn = out.tools![0]!.function;
    expect(fn.name).toBe('lookup');
    expect(fn.description).toMatch(/^Look up patients of Dr \[PERSON_\d\]$/);
    const who = (fn.parameters as { properties: { who: { enum: string[]; default: string; examples: string[] } } }).properties.who;
    expect(who.enum.every((v) => /^\[PERSON_\d\]$/.test(v))).toBe(true);
    expect(who.default).toBe(who.enum[0]);
    expect(who.examples).toEqual(['[PHONE_1]']);
    // the schema's structure is untouched
    expect((fn.parameters as { required: string[]; properties: { mrn: unknown } }).required).toEqual(['who']);
    expect((fn.parameters as { properties: { mrn: unknown } }).properties.mrn).toEqual({ type: 'integer', minimum: 1 });
    expect(fields).toBe(5); // message, 2 stop strings, description, parameters
  });

  it('a client placeholder in a LATER message is reserved before anything is redacted (finding 3, 14)', () => {
    const r = req({
      messages: [
        { role: 'user', content: `Patient ${NAME} was admitted.` },
        { role: 'user', content: 'His brother [PERSON_1] (already redacted by us) called.' },
      ],
    });
    const { req: out, session: s } = redact(r);
    expect((out.messages[0] as { content: string }).content).toBe('Patient [PERSON_2] was admitted.');
    expect((out.messages[1] as { content: string }).content).toBe('His brother [PERSON_1] (already redacted by us) called.');
    expect(s.mapping).toEqual({ '[PERSON_2]': NAME });
    expect([...s.reservedPlaceholders]).toEqual(['[PERSON_1]']);
    expect(s.clientPreredacted).toBe(true);
    // the model echoes both: ours restored, the client's own left as written and NOT counted as unresolved
    const c = emptyCounts();
    expect(rehydrateText('[PERSON_2] and [PERSON_1] and [person_1]', s.mapping, c, { reserved: s.reservedPlaceholders })).toBe(
      `${NAME} and [PERSON_1] and [person_1]`,
    );
    expect(c).toEqual({ replaced: 1, repaired: 0, unresolved: 0 });
    // an invented index still counts
    const c2 = emptyCounts();
    rehydrateText('[PERSON_7]', s.mapping, c2, { reserved: s.reservedPlaceholders });
    expect(c2.unresolved).toBe(1);
  });

  it('conversation_key: a value whose own placeholder is already in the request keeps it, never two placeholders (finding 15)', () => {
    const opts = { conversationKey: 'conv-15', hmacSecret: 'x'.repeat(40) };
    const first = redact(req({ messages: [{ role: 'user', content: `Patient ${NAME}.` }] }), new RedactionSession(opts));
    const ph = Object.keys(first.session.mapping)[0]!;
    // next turn: the earlier answer (placeholders, redact_only) comes back, and the name is written again
    const next = redact(
      req({
        messages: [
          { role: 'assistant', content: `Noted: ${ph} admitted.` },
          { role: 'user', content: `Discharge ${NAME} today.` },
        ],
      }),
      new RedactionSession(opts),
    );
    expect((next.req.messages[1] as { content: string }).content).toBe(`Discharge ${ph} today.`);
    expect(next.session.mapping).toEqual({ [ph]: NAME });
    expect(next.session.reservedPlaceholders.size).toBe(0);
  });

  it('many JSON values go through the engine in a few passes, not one per value (finding 5, 6)', () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => ({
      id: i,
      code: `I${i % 100}.9`,
      status: 'active',
      note: i % 1000 === 0 ? `seen by Dr Lim Wei Ming` : 'stable',
    }));
    const doc = JSON.stringify({ rows });
    const parts = [];
    for (let i = 0; i < doc.length; i += 90_000) parts.push({ type: 'text' as const, text: doc.slice(i, i + 90_000) });
    const r = req({
      messages: [
        { role: 'tool', tool_call_id: 'c', content: JSON.stringify({ rows: rows.slice(0, 1500) }) },
        { role: 'user', content: parts },
      ],
    });
    const t0 = performance.now();
    const { req: out, session: s, fields } = redact(r);
    const ms = performance.now() - t0;
    expect(fields).toBe(1 + parts.length);
    // ~100,000 keys and values in about 1.4 MB: passes of ~50,000 characters, not one engine run per value
    expect(s.analysisPasses).toBeLessThanOrEqual(Math.ceil(JSON.stringify(r).length / 50_000) + 2);
    expect(JSON.stringify(out)).not.toContain('Lim Wei Ming');
    expect(ms).toBeGreaterThan(0); // speed is measured by npm run bench:gateway, not asserted here
  });

  it('a whole-request deadline stops redaction (fail closed: time_budget_exceeded)', () => {
    const s = new RedactionSession({ deadline: performance.now() - 1 });
    expect(() => redactPlanned(s, planRedaction(req({ messages: [{ role: 'user', content: NAME }] })))).toThrow(RedactionFailedError);
    try {
      redactPlanned(new RedactionSession({ deadline: performance.now() - 1 }), planRedaction(req({ messages: [{ role: 'user', content: NAME }] })));
    } catch (e) {
      expect((e as RedactionFailedError).reason).toBe('time_budget_exceeded');
    }
  });
});

describe('screenTokens: values that cannot carry a placeholder (finding 1)', () => {
  const refusal = (body: Record<string, unknown>) => {
    try {
      screenTokens(new RedactionSession(), req(body));
    } catch (e) {
      if (e instanceof AppError) return { type: e.type, param: e.extra?.param, message: e.message };
      throw e;
    }
    return null;
  };
  const asst = (name: string, id: string) => ({
    role: 'assistant',
    content: null,
    tool_calls: [{ id, type: 'function', function: { name, arguments: '{}' } }],
  });

  it('refuses a name or an identifier in a function name or a tool-call id', () => {
    expect(refusal({ messages: [asst('lookup_Ahmad_Faizal', 'call_1')] })).toMatchObject({
      type: 'identifier_in_token',
      param: 'messages.0.tool_calls.0.function.name',
    });
    expect(refusal({ messages: [asst('lookup', 'call_850101145678')] })).toMatchObject({ type: 'identifier_in_token', param: 'messages.0.tool_calls.0.id' });
    expect(
      refusal({
        messages: [
          { role: 'user', content: 'x' },
          { role: 'tool', tool_call_id: 'Tan_Ah_Kow', content: 'ok' },
        ],
      }),
    ).toMatchObject({ param: 'messages.1.tool_call_id' });
    expect(refusal({ messages: [{ role: 'user', content: 'x' }], tools: [{ type: 'function', function: { name: 'getPatientAhmadFaizal' } }] })).toMatchObject({
      param: 'tools.0.function.name',
    });
    expect(refusal({ messages: [{ role: 'user', content: 'x' }], reasoning: { effort: 'medium' } })).toBeNull(); // an ordinary word
    // a gazetteer name is a name in lower case too (recall first): it cannot be forwarded in a field with no placeholder
    expect(refusal({ messages: [{ role: 'user', content: 'x' }], reasoning: { effort: 'ahmad' } })).toMatchObject({ type: 'identifier_in_token' });
  });

  it('accepts ordinary tool names and random provider ids', () => {
    const ids = ['call_Yi1h9kgAzhozoAByNutcHphG', 'toolu_01A09q90qw90lq917835lq9', 'call_ee4f5781bd09a2e06c', 'uvKKz5Ow0', 'call_test_12'];
    const names = ['get_weather', 'search_concepts', 'lookup_code', 'classify_drg', 'send_email', 'book_appointment', 'getPatientRecord', 'register_patient'];
    expect(refusal({ messages: ids.map((id, i) => asst(names[i]!, id)) })).toBeNull();
  });

  it('the schema refuses free text in a resent name or id (400 naming the field)', () => {
    for (const bad of [asst('look up Ahmad', 'call_1'), asst('f', 'call 1 for Ahmad Faizal'), asst('f', 'x'.repeat(129))]) {
      expect(() => req({ messages: [bad] })).toThrow(AppError);
    }
    try {
      req({ messages: [asst('Ahmad Faizal bin Rahman', 'c1')] });
    } catch (e) {
      expect((e as AppError).type).toBe('invalid_request');
      expect((e as AppError).message).toContain('messages.0.tool_calls.0.function.name');
    }
  });
});

describe('propagateKnownValues: request-wide consistency', () => {
  it('a value caught in one text is replaced wherever it occurs verbatim in another, and counted', () => {
    const r = req({
      messages: [
        { role: 'user', content: 'Patient Tan Ah Kow, IC 850101-14-5673.' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{"q":"Tan Ah Kow"}' } }] },
        { role: 'tool', tool_call_id: 'c', content: 'Summarise Tan Ah Kow.' },
      ],
    });
    const { req: out, propagated } = redact(r);
    expect(JSON.stringify(out)).not.toContain('Tan Ah Kow');
    expect((out.messages[2] as { content: string }).content).toBe('Summarise [PERSON_1].');
    expect(JSON.parse((out.messages[1] as { tool_calls: Array<{ function: { arguments: string } }> }).tool_calls[0]!.function.arguments)).toEqual({
      q: '[PERSON_1]',
    });
    // found by the engine in its pass, or propagated afterwards: never left in place
    expect(propagated.PERSON ?? 0).toBeGreaterThanOrEqual(0);
    // whole words, exact surface form only
    const texts = ["Ali, Alias, ALI and Ali's"];
    const added = propagateKnownValues(texts, { '[PERSON_3]': 'Ali' });
    expect(texts[0]).toBe("[PERSON_3], Alias, ALI and [PERSON_3]'s");
    expect(added).toEqual({ PERSON: 2 });
    // nothing known, nothing changed
    const same = ['x'];
    expect(propagateKnownValues(same, {})).toEqual({});
  });
});

describe('re-hydration of answers', () => {
  const mapping = { '[PERSON_1]': 'Siti "Ina" binti Ali', '[MY_IC_1]': IC };

  it('text: exact, repaired (case/spacing) and unresolved (invented index) are counted', () => {
    const c = emptyCounts();
    expect(rehydrateText('[PERSON_1] / [person_1] / [ MY_IC_1 ] / [PERSON_7] / [1]', mapping, c)).toBe(
      `Siti "Ina" binti Ali / Siti "Ina" binti Ali / ${IC} / [PERSON_7] / [1]`,
    );
    expect(c).toEqual({ replaced: 1, repaired: 2, unresolved: 1 });
  });

  it('tool-call arguments: restored values that need escaping keep the JSON valid', () => {
    const c = emptyCounts();
    const out = rehydrateArguments(JSON.stringify({ who: '[PERSON_1]', ids: ['[my_ic_1]'] }), mapping, c);
    expect(JSON.parse(out)).toEqual({ who: 'Siti "Ina" binti Ali', ids: [IC] });
    expect(c).toEqual({ replaced: 1, repaired: 1, unresolved: 0 });
    // invalid JSON (truncated by the model): values inserted JSON-escaped
    const c2 = emptyCounts();
    expect(rehydrateArguments('{"who": "[PERSON_1]"', mapping, c2)).toBe('{"who": "Siti \\"Ina\\" binti Ali"');
    expect(c2.replaced).toBe(1);
  });
});
