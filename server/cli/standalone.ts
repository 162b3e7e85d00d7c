/**
 * The CLI's commands that need neither a database nor worker threads (`drg group`, `drg edit`), as one entry that
 * `scripts/cli.mjs` bundles into a single JavaScript file and runs with plain node: their start-up is part of their
 * throughput (100,000 cases in about two seconds), and the TypeScript loader alone would take half a second of it.
 *
 * What `server/cli/main.ts` does for these commands, and nothing else: logs to stderr, the environment checked,
 * the command run with the arguments after its name.
 */
import { run as runDrg } from '../drg/cli';
import { loadEnv } from '../env';
import { setLogSink } from '../log';

/** Runs `drg …`; `scripts/cli.mjs` sends every other command through `server/cli/main.ts`. */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name !== 'drg') throw new Error(`not a standalone command: ${name ?? '(none)'}`);
  setLogSink((line) => void process.stderr.write(line + '\n'));
  loadEnv();
  return runDrg(rest);
}
