/**
 * `npm run worker`: pg-boss workers in their own process (PostgreSQL only; with PGlite the web server runs them).
 * Several workers may run at once; pg-boss hands each job to one of them, and a job whose worker died is retried.
 */
import { loadEnv } from './env';
import { closeDb, getDb } from './db';
import { migrate } from './migrations';
import { startWorkers, stopQueue } from './queue';
import { log } from './log';
import './domains';

async function main(): Promise<void> {
  const env = loadEnv();
  if (!env.DATABASE_URL) {
    process.stderr.write('npm run worker needs DATABASE_URL (PostgreSQL). With the embedded database, `npm start` runs the workers in-process.\n');
    process.exit(2);
  }
  const db = await getDb();
  await migrate(db);
  await startWorkers(db);
  log.info('worker started', { pid: process.pid, backend: db.describe });
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info('worker stopping', { signal });
    await stopQueue();
    await closeDb();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err: unknown) => {
  process.stderr.write(`worker failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
