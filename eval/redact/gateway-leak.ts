/**
 * The gateway leak measurement: every note of a gold corpus goes through the chat gateway (with the official `openai`
 * client) as a user message AND as a JSON tool result; for every third note its first name and identifier also go
 * into a `stop` string and a tool's description and parameter schema. Whatever the test upstream received is checked
 * with score.py's redacted-text leak rules (a gold string, or the digits-only form of an identifier, present beyond
 * its occurrences outside gold PHI spans), and the answers must come back with every original restored.
 * Used by tests/api/gateway-leak.test.ts (dev corpus, in CI) and scripts/eval-gateway-leak.ts (any corpus).
 */
import type OpenAI from 'openai';
import type { TestUpstream } from '@/tests/fixtures/test-upstream';
import { scoreCorpus, type GoldNote, type Prediction } from './evaluation';

export const LEAK_SYSTEM = 'You are a clinical coding assistant. Summarise the note for coding.';

function messagesFor(note: GoldNote): OpenAI.ChatCompletionMessageParam[] {
  const callId = `call_${note.id}`;
  return [
    { role: 'system', content: LEAK_SYSTEM },
    { role: 'user', content: note.text },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: callId, type: 'function', function: { name: 'fetch_note', arguments: JSON.stringify({ note_id: note.id }) } }],
    },
    { role: 'tool', tool_call_id: callId, content: JSON.stringify({ note: note.text, source: 'EHR' }) },
  ];
}

const TOOLS: OpenAI.ChatCompletionTool[] = [
  { type: 'function', function: { name: 'code_note', parameters: { type: 'object', properties: { text: { type: 'string' } } } } },
];

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

export interface GatewayLeakResult {
  notes: number;
  requests: number;
  withExtras: number;
  stringsChecked: number;
  /** Gold PHI strings (or digits-only forms) found in what the upstream received, score.py's rules. */
  leaks: number;
  leakExamples: string[];
  /** The same on the raw JSON bytes of each request. */
  rawHits: number;
  /** Which gold strings those were (note id, type, string): raw-byte hits include substrings of other words. */
  rawHitExamples: string[];
  /** Answers whose placeholders did not all come back, or that did not restore the original exactly. */
  incomplete: number;
  mismatches: string[];
  seconds: number;
}

/**
 * Send `gold` through the gateway. `echoModel` answers with every message joined by a blank line, `toolModel` with a
 * tool call that carries the tool result (the test upstream's `echo-all` and `tool-call`).
 */
export async function runGatewayLeak(
  client: OpenAI,
  up: TestUpstream,
  gold: GoldNote[],
  opts: { echoModel: string; toolModel: string; batch?: number },
): Promise<GatewayLeakResult> {
  const batch = opts.batch ?? 12;
  const byCall = new Map(gold.map((g) => [`call_${g.id}`, g]));
  const t0 = performance.now();
  up.reset();
  let incomplete = 0;
  let withExtras = 0;
  const mismatches: string[] = [];
  for (let i = 0; i < gold.length; i += batch) {
    await Promise.all(
      gold.slice(i, i + batch).map(async (note, k) => {
        const extras = extrasFor(note, i + k);
        if (extras.stop) withExtras++;
        const a = await client.chat.completions.create({ model: opts.echoModel, messages: messagesFor(note), ...extras });
        const expected = [LEAK_SYSTEM, note.text, JSON.stringify({ note: note.text, source: 'EHR' })].join('\n\n');
        const ra = (a as unknown as { redaction_receipt: { rehydration_complete: boolean } }).redaction_receipt;
        if (!ra.rehydration_complete) incomplete++;
        const got = a.choices[0]!.message.content ?? '';
        if (got !== expected) {
          let d = 0;
          while (d < got.length && got[d] === expected[d]) d++;
          mismatches.push(
            `${note.id}: echo not restored at ${d}: ${JSON.stringify(expected.slice(Math.max(0, d - 30), d + 30))} came back as ${JSON.stringify(got.slice(Math.max(0, d - 30), d + 30))}`,
          );
        }
        const b = await client.chat.completions.create({
          model: opts.toolModel,
          messages: messagesFor(note),
          tools: extras.tools ?? TOOLS,
          ...(extras.stop ? { stop: extras.stop } : {}),
        });
        const call = b.choices[0]!.message.tool_calls![0] as { function: { arguments: string } };
        const args = JSON.parse(call.function.arguments) as { text: string };
        if (JSON.stringify(JSON.parse(args.text)) !== JSON.stringify({ note: note.text, source: 'EHR' }))
          mismatches.push(`${note.id}: tool arguments not restored`);
      }),
    );
  }
  const seconds = (performance.now() - t0) / 1000;
  const checkGold: GoldNote[] = [];
  const preds: Prediction[] = [];
  let rawHits = 0;
  const rawHitExamples: string[] = [];
  for (const r of up.requests) {
    const body = r.body as { messages: Array<{ tool_call_id?: string }> };
    const note = byCall.get(body.messages.find((m) => m.tool_call_id)?.tool_call_id ?? '');
    if (!note) throw new Error('a recorded request maps to no note');
    strings(body).forEach((s, k) => {
      const id = `${note.id}#${checkGold.length}#${k}`;
      checkGold.push({ ...note, id });
      preds.push({ id, redacted_text: s, entities: [] });
    });
    const masked = maskedText(note);
    for (const e of note.entities) {
      const esc = JSON.stringify(e.text).slice(1, -1);
      if (occurrences(r.raw, esc) > 2 * occurrences(JSON.stringify(masked), esc)) {
        rawHits++;
        if (rawHitExamples.length < 20) rawHitExamples.push(`${note.id}: ${e.type} ${JSON.stringify(e.text)}`);
      }
    }
  }
  const s = scoreCorpus(checkGold, preds);
  return {
    notes: gold.length,
    requests: up.requests.length,
    withExtras,
    stringsChecked: preds.length,
    leaks: s.leaks,
    leakExamples: s.leakExamples,
    rawHits,
    rawHitExamples,
    incomplete,
    mismatches,
    seconds,
  };
}
