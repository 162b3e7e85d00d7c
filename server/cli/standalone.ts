/**
 * The CLI's commands that need no database (`drg group`, `drg edit`), as one entry that `scripts/cli.mjs` bundles
 * into a single JavaScript file and runs with plain node: their start-up is part of their throughput (100,000 cases
 * in about two seconds), and the TypeScript loader alone would take half a second of it. The same file is the
 * worker-thread entry of a long run (one worker per core once the input passes 8,192 lines).
 *
 * What `server/cli/main.ts` does for these commands, and nothing else: logs to stderr, the environment checked,
 * the command run with the arguments after its name.
 */
import os from 'node:os';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { run as runDrg, serveDrgWorker } from '../drg/cli';
import { loadEnv } from '../env';
import { setLogSink } from '../log';

// Loaded as a worker thread of `drg group`/`drg edit` (see ThreadOptions in server/drg/cli.ts): serve blocks of lines.
const job = workerData as { drgWorker?: boolean; argv?: string[] } | null;
if (!isMainThread && parentPort && job?.drgWorker) void serveDrgWorker(parentPort, job.argv ?? []);

/** Worker threads by default: one per core, at most 4 (`--threads N` overrides; 1 = none). */
const DEFAULT_THREADS = Math.max(1, Math.min(4, os.availableParallelism()));

/** Runs `drg …`; `scripts/cli.mjs` sends every other command through `server/cli/main.ts`. */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name !== 'drg') throw new Error(`not a standalone command: ${name ?? '(none)'}`);
  setLogSink((line) => void process.stderr.write(line + '\n'));
  loadEnv();
  // Workers start only once an input has proved long (8,192 lines), so a short run never pays for them.
  return runDrg(rest, undefined, { workerUrl: new URL(import.meta.url), threads: DEFAULT_THREADS });
}
