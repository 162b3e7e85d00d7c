// Worker-thread entry for the CPU pool (server/workers/pool.ts). The server's code is TypeScript, run through tsx in
// every entry point (npm start, the CLI, vitest, benchmarks); a worker thread starts with a fresh module loader, so it
// loads the task module through tsx's own API, the same transform the server uses, whatever started the process.
import { tsImport } from 'tsx/esm/api';

const tasks = await tsImport('./tasks.ts', import.meta.url);

export default function run(task) {
  return tasks.runTask(task);
}
