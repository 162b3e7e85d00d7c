/**
 * Leak test: every note of ../shared/eval/phi/dev.jsonl goes through the gateway (with the official openai client)
 * as a user message AND as a JSON tool result; for every third note its first name and identifier also go into a
 * `stop` string and a tool's description and parameter schema. Whatever the test upstream received must contain no
 * gold PHI string and none of its digits-only forms (score.py's redacted-text leak rules, via scoreCorpus), and the
 * answers must come back with every original restored.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { createTestOrg, startBackend, type TestBackend, type TestOrg } from '../helpers/backend';
import { startTestUpstream, type TestUpstream } from '@/server/gateway/testUpstream';
import { addModel } from '@/server/gateway/registry';
import { sharedDir } from '@/server/config/paths';
import { loadGold, scoreCorpus, type GoldNote, type Prediction } from '@/eval/redact/evaluation';

const DEV = path.join(sharedDir(), 'eval', 'phi', 'dev.jsonl');
const SYSTEM = 'You are a clinical coding assistant. Summarise the note for coding.';
const BATCH = 12;

let be: TestBackend;
let up: TestUpstream;
let org: TestOrg;
let client: OpenAI;

beforeAll(async () => {
  be = await startBackend();
  up = await startTestUpstream({ maxRecorded: 100_000 });
  org = await createTestOrg(be.db, { scopes: ['llm:chat'] });
  for (const [name, upstream] of [
    ['leak-echo-all', 'echo-all'],
    ['leak-tool-call', 'tool-call'],
  ] as const) {
    await addModel(be.db, { name, base_url: up.baseUrl, upstream_model: upstream, approved_for_phi: true, timeout_ms: 60_000 }, { orgId: org.orgId, actor: 'test' });
  }
  client = new OpenAI({ baseURL: `${be.baseUrl}/api/v1/llm`, apiKey: org.key, maxRetries: 0, timeout: 120_000 });
});

afterAll(async () => {
  await up?.close();
  await be?.close();
});

function messagesFor(note: GoldNote): OpenAI.ChatCompletionMessageParam[] {
  const callId = `call_${note.id}`;
  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: note.text },
    { role: 'assistant', content: null, tool_calls: [{ id: callId, type: 'function', function: { name: 'fetch_note', arguments: JSON.stringify({ note_id: note.id }) } }] },
    { role: 'tool', tool_call_id: callId, content: JSON.stringify({ note: note.text, source: 'EHR' }) },
  ];
}

const TOOLS: OpenAI.ChatCompletionTool[] = [{ type: 'function', function: { name: 'code_note', parameters: { type: 'object', properties: { text: { type: 'string' } } } } }];

/** For every third note: PHI in `stop`, in the tool's description and in its parameter schema. */
function extrasFor(note: GoldNote, index: number): { stop?: string[]; tools?: OpenAI.ChatCompletionTool[] } {
  if (index % 3 !== 0) return {};
  const person = note.entities.find((e) => e.type === 'PERSON')?.text;
  const id = note.entities.find((e) => e.type !== 'PERSON')?.text;
  if (!person && !id) return {};
  const who = [person, id].filter(Boolean).join(', ');
  return {
    stop: [`${person ?? id}:`, 'END'],
    tools: [
      {
        type: 'function',
        function: {
          name: 'code_note',
          description: `Codes the discharge summary of ${who}.`,
          parameters: { type: 'object', properties: { text: { type: 'string', description: `The note of ${who}`, examples: [who] } } },
        },
      },
    ],
  };
}

/** Every string inside a JSON value; strings that are themselves JSON (tool results, arguments) are opened too. */
function strings(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') {
    out.push(v);
    const t = v.trimStart();
    if (t.startsWith('{') || t.startsWith('[')) {
      try {
        strings(JSON.parse(v), out);
      } catch {
        /* not JSON */
      }
    }
  } else if (Array.isArray(v)) for (const x of v) strings(x, out);
  else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      out.push(k);
      strings(x, out);
    }
  }
  return out;
}

function maskedText(note: GoldNote): string {
  const chars = Array.from(note.text);
  for (const e of note.entities) for (let k = e.start; k < e.end; k++) chars[k] = '\u0000';
  return chars.join('');
}

function occurrences(hay: string, needle: string): number {
  let n = 0;
  for (let i = hay.indexOf(needle); i >= 0; i = hay.indexOf(needle, i + 1)) n++;
  return n;
}

describe.skipIf(!fs.existsSync(DEV))(`gateway PHI leak test on ${process.env.TEST_DB ?? 'postgres'}`, () => {
  it('no gold PHI string (or digits-only form) reaches the upstream; every original comes back', { timeout: 600_000 }, async () => {
    const gold = loadGold(DEV);
    expect(gold.length).toBe(300);
    const byCall = new Map(gold.map((g) => [`call_${g.id}`, g]));
    const t0 = performance.now();
    let incomplete = 0;
    let withExtras = 0;
    for (let i = 0; i < gold.length; i += BATCH) {
      await Promise.all(
        gold.slice(i, i + BATCH).map(async (note, k) => {
          const extras = extrasFor(note, i + k);
          if (extras.stop) withExtras++;
          // 1) echo of every message: content re-hydration
          const a = await client.chat.completions.create({ model: 'leak-echo-all', messages: messagesFor(note), ...extras });
          const expected = [SYSTEM, note.text, JSON.stringify({ note: note.text, source: 'EHR' })].join('\n\n');
          expect(a.choices[0]!.message.content, note.id).toBe(expected);
          const ra = (a as unknown as { redaction_receipt: { rehydration_complete: boolean; unresolved_placeholder_count: number; status: string } }).redaction_receipt;
          if (!ra.rehydration_complete) incomplete++;
          expect(ra.status).toBe('ok');
          // 2) a tool call whose arguments carry the (redacted) tool result: argument re-hydration
          const b = await client.chat.completions.create({ model: 'leak-tool-call', messages: messagesFor(note), tools: extras.tools ?? TOOLS, ...(extras.stop ? { stop: extras.stop } : {}) });
          const call = b.choices[0]!.message.tool_calls![0] as { function: { arguments: string } };
          const args = JSON.parse(call.function.arguments) as { text: string };
          expect(JSON.parse(args.text), note.id).toEqual({ note: note.text, source: 'EHR' });
        }),
      );
    }
    const seconds = (performance.now() - t0) / 1000;
    expect(incomplete).toBe(0);
    expect(withExtras).toBeGreaterThanOrEqual(90);
    expect(up.requests).toHaveLength(gold.length * 2);

    // Leak check, per string the upstream received, with score.py's rules (a string counts as leaked only beyond its
    // occurrences outside gold PHI spans in the original note; digits-only forms of entities with >= 6 digits).
    const checkGold: GoldNote[] = [];
    const preds: Prediction[] = [];
    let rawHits = 0;
    for (const r of up.requests) {
      const body = r.body as { messages: Array<{ tool_calls?: Array<{ id: string }>; tool_call_id?: string }> };
      const callId = body.messages.find((m) => m.tool_call_id)?.tool_call_id ?? '';
      const note = byCall.get(callId);
      expect(note, 'every recorded request maps to a note').toBeDefined();
      strings(body).forEach((s, k) => {
        const id = `${note!.id}#${checkGold.length}#${k}`;
        checkGold.push({ ...note!, id });
        preds.push({ id, redacted_text: s, entities: [] });
      });
      // and the raw bytes as sent (JSON-escaped): a gold string may occur only as often as it occurs outside gold PHI
      // spans in the note's two copies (user message and tool result)
      const masked = maskedText(note!);
      for (const e of note!.entities) {
        const esc = JSON.stringify(e.text).slice(1, -1);
        if (occurrences(r.raw, esc) > 2 * occurrences(JSON.stringify(masked), esc)) rawHits++;
      }
    }
    const s = scoreCorpus(checkGold, preds);
    expect(s.leaks, s.leakExamples.join('\n')).toBe(0);
    expect(rawHits).toBe(0);
    console.log(`leak test: ${gold.length} notes x 2 requests (user + tool; ${withExtras} notes also in stop + tool schema), ${preds.length} upstream strings checked, leaks ${s.leaks}, ${seconds.toFixed(1)} s`);
  });
});
