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
 *
 * `--threads N` spreads the lines over N worker threads (batches of lines; the output keeps the input's order). The
 * default is 1, this thread: each worker loads its own word data and warms its own code (about 0.6 s of CPU and a
 * slower first few hundred notes), so on 2 cores 800 KB of notes took 6.4 s on two threads against 3.6 s on one.
 * Threads pay on machines with 4+ cores and inputs of several megabytes.
 */
import readline from 'node:readline';
import { Worker } from 'node:worker_threads';
import { isRedactionFailedError } from './errors';
import { makeCodePointConverter, redactText } from './session';

function usage(): string {
  return 'usage: redact [--no-mapping] [--time-budget-ms N] [--threads N]   (JSON Lines {"id","text"} on stdin)\n';
}

export async function run(argv: string[]): Promise<number> {
  let withMapping = true;
  let timeBudgetMs: number | undefined;
  let threads = 1;
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
    } else if (a === '--threads') {
      const v = Number(argv[++i]);
      if (!Number.isInteger(v) || v < 1 || v > 64) {
        process.stderr.write('--threads needs a whole number from 1 to 64\n');
        return 2;
      }
      threads = v;
    } else {
      process.stderr.write(`unknown argument: ${a}\n${usage()}`);
      return 2;
    }
  }

  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  const write = async (out: string) => {
    if (!process.stdout.write(out)) await new Promise<void>((resolve) => process.stdout.once('drain', () => resolve()));
  };
  const failures = threads > 1 ? await runThreaded(rl, threads, withMapping, timeBudgetMs, write) : await runInline(rl, withMapping, timeBudgetMs, write);
  if (failures) process.stderr.write(`${failures} line(s) failed\n`);
  return 0;
}

async function runInline(
  lines: AsyncIterable<string>,
  withMapping: boolean,
  timeBudgetMs: number | undefined,
  write: (s: string) => Promise<void>,
): Promise<number> {
  let failures = 0;
  for await (const line of lines) {
    if (!line.trim()) continue;
    const out = processLine(line, withMapping, timeBudgetMs);
    if ('error' in out) failures++;
    await write(JSON.stringify(out) + '\n');
  }
  return failures;
}

/** Lines per message to a thread: enough to amortise the message, few enough to keep every thread busy to the end. */
const BATCH_LINES = 16;
const BATCH_CHARS = 64_000;

export interface BatchResult {
  seq: number;
  out: string;
  failures: number;
}

/** A batch of lines as one block of output lines (the worker's unit of work). */
export function processBatch(lines: string[], withMapping: boolean, timeBudgetMs: number | undefined): { out: string; failures: number } {
  let out = '';
  let failures = 0;
  for (const line of lines) {
    const r = processLine(line, withMapping, timeBudgetMs);
    if ('error' in r) failures++;
    out += JSON.stringify(r) + '\n';
  }
  return { out, failures };
}

/**
 * Batches of lines go to `threads` worker threads (at most two batches queued per thread, so memory stays bounded
 * however long the input); finished batches are written in input order.
 */
async function runThreaded(
  lines: AsyncIterable<string>,
  threads: number,
  withMapping: boolean,
  timeBudgetMs: number | undefined,
  write: (s: string) => Promise<void>,
): Promise<number> {
  const workers = Array.from(
    { length: threads },
    () => new Worker(new URL('./cli-worker.mjs', import.meta.url), { workerData: { withMapping, timeBudgetMs } }),
  );
  const pending = new Map<number, BatchResult>();
  let next = 0; // next sequence number to write
  let sent = 0;
  let failures = 0;
  let failed: Error | null = null;
  let wake: (() => void) | null = null;
  const inFlight = new Map<Worker, number>(workers.map((w) => [w, 0]));
  for (const w of workers) {
    w.on('message', (m: BatchResult) => {
      pending.set(m.seq, m);
      inFlight.set(w, inFlight.get(w)! - 1);
      wake?.();
    });
    w.on('error', (err) => {
      failed ??= err;
      wake?.();
    });
  }
  const waitForProgress = () => new Promise<void>((resolve) => (wake = resolve));
  const flush = async () => {
    for (let r = pending.get(next); r; r = pending.get(next)) {
      pending.delete(next++);
      failures += r.failures;
      await write(r.out);
    }
  };
  const dispatch = async (batch: string[]) => {
    for (;;) {
      if (failed) throw failed;
      await flush();
      // the least busy thread, if it has room
      let best: Worker | null = null;
      for (const w of workers) if (inFlight.get(w)! < 2 && (!best || inFlight.get(w)! < inFlight.get(best)!)) best = w;
      if (best) {
        inFlight.set(best, inFlight.get(best)! + 1);
        best.postMessage({ seq: sent++, lines: batch });
        return;
      }
      await waitForProgress();
    }
  };
  try {
    let batch: string[] = [];
    let chars = 0;
    for await (const line of lines) {
      if (!line.trim()) continue;
      batch.push(line);
      chars += line.length;
      if (batch.length >= BATCH_LINES || chars >= BATCH_CHARS) {
        await dispatch(batch);
        batch = [];
        chars = 0;
      }
    }
    if (batch.length) await dispatch(batch);
    while (next < sent) {
      if (failed) throw failed;
      await flush();
      if (next < sent) await waitForProgress();
    }
    return failures;
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
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
    return withMapping ? { id, redacted_text: r.redacted_text, entities, mapping: r.mapping } : { id, redacted_text: r.redacted_text, entities };
  } catch (e) {
    if (isRedactionFailedError(e)) return { id, error: `redaction failed (${e.reason})` };
    return { id, error: 'internal error' };
  }
}
