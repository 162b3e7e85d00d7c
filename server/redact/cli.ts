/**
 * `npm run --silent cli -- redact [--no-mapping] [--time-budget-ms N] < notes.jsonl > out.jsonl`
 *
 * Input: JSON Lines {"id": ..., "text": "..."}. Output, one line per input line, in order:
 *   {"id", "redacted_text", "entities": [{"start","end","type"}], "mapping"}
 * Offsets are Unicode code points (Python string indices), end-exclusive, into the input text, so the output can be
 * scored directly:
 *   python3 score.py --mode spans    GOLD.jsonl out.jsonl   (span metrics; --mode is needed because lines also carry redacted_text)
 *   python3 score.py --mode redacted GOLD.jsonl out.jsonl   (leak check)
 * A malformed line yields {"id": <id or null>, "error": "..."}; redaction failures yield an error too and never the text.
 */
import readline from 'node:readline';
import { isRedactionFailedError } from './errors';
import { makeCodePointConverter, redactText } from './session';

function usage(): string {
  return 'usage: redact [--no-mapping] [--time-budget-ms N]   (JSON Lines {"id","text"} on stdin)\n';
}

export async function run(argv: string[]): Promise<number> {
  let withMapping = true;
  let timeBudgetMs: number | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--help' || a === '-h') {
      process.stdout.write(usage());
      return 0;
    } else if (a === '--no-mapping') withMapping = false;
    else if (a === '--time-budget-ms') {
      const v = Number(argv[++i]);
      if (!Number.isFinite(v) || v <= 0) {
        process.stderr.write('--time-budget-ms needs a positive number\n');
        return 2;
      }
      timeBudgetMs = v;
    } else {
      process.stderr.write(`unknown argument: ${a}\n${usage()}`);
      return 2;
    }
  }

  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  let failures = 0;
  for await (const line of rl) {
    if (!line.trim()) continue;
    const out = processLine(line, withMapping, timeBudgetMs);
    if ('error' in out) failures++;
    if (!process.stdout.write(JSON.stringify(out) + '\n')) {
      await new Promise<void>((resolve) => process.stdout.once('drain', () => resolve()));
    }
  }
  if (failures) process.stderr.write(`${failures} line(s) failed\n`);
  return 0;
}

type OutLine =
  | { id: unknown; redacted_text: string; entities: Array<{ start: number; end: number; type: string }>; mapping?: Record<string, string> }
  | { id: unknown; error: string };

export function processLine(line: string, withMapping = true, timeBudgetMs?: number): OutLine {
  let obj: unknown;
  try {
    obj = JSON.parse(line);
  } catch {
    return { id: null, error: 'invalid JSON' };
  }
  if (!obj || typeof obj !== 'object' || Array.isArray(obj)) return { id: null, error: 'line must be a JSON object' };
  const rec = obj as Record<string, unknown>;
  const id = rec.id ?? null;
  if (typeof rec.text !== 'string') return { id, error: 'missing string field "text"' };
  const text = rec.text;
  try {
    const r = redactText(text, { timeBudgetMs });
    const cp = makeCodePointConverter(text);
    const entities = r.entities.map((e) => ({ start: cp(e.start), end: cp(e.end), type: e.type }));
    return withMapping
      ? { id, redacted_text: r.redacted_text, entities, mapping: r.mapping }
      : { id, redacted_text: r.redacted_text, entities };
  } catch (e) {
    if (isRedactionFailedError(e)) return { id, error: `redaction failed (${e.reason})` };
    return { id, error: 'internal error' };
  }
}
