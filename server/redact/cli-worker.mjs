// Worker thread of the `redact` CLI (server/redact/cli.ts): redacts batches of JSON lines. The code is TypeScript,
// loaded through tsx's API as the CPU pool's threads do (server/workers/worker-entry.mjs).
import { parentPort, workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

const { processBatch } = await tsImport('./cli.ts', import.meta.url);
(await tsImport('./index.ts', import.meta.url)).warmRedaction();
const { withMapping, timeBudgetMs } = workerData;
parentPort.on('message', ({ seq, lines }) => {
  const { out, failures } = processBatch(lines, withMapping, timeBudgetMs);
  parentPort.postMessage({ seq, out, failures });
});
