/**
 * Operator CLI: `npm run --silent cli -- <command> ...` (see `COMMANDS`).
 * Database commands open the database themselves, or — when the running server owns the embedded PGlite — run inside
 * the server over its local CLI socket, so they work whether or not the server is up.
 */
import fs from 'node:fs';
import { COMMANDS, usageText } from './commands';
import { loadEnv } from '../env';
import { UsageError } from './io';
import { setLogSink } from '../log';

// stdout carries command output (often JSON Lines); logs go to stderr.
setLogSink((line) => void process.stderr.write(line + '\n'));

async function main(): Promise<number> {
  const [name, ...rest] = process.argv.slice(2);
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(usageText());
    return name ? 0 : 2;
  }
  const group = COMMANDS[name];
  if (!group) {
    process.stderr.write(`unknown command: ${name}\n\n${usageText()}`);
    return 2;
  }
  loadEnv();
  // Commands without a database (drg, redact) load nothing else (no database module, no Prisma, no domains): their
  // start-up is part of their throughput.
  if (!group.db) return (await group.load()).run(rest);
  // Database commands: generate the Prisma client on demand (as `npm start` does), then open the database.
  const { ensurePrismaClient } = await import('../../scripts/prepare');
  ensurePrismaClient();
  const [{ closeDb, dbConfigFromEnv, getDb, PgliteBusyError }, { prepareDatabase }, { stateDir }, { runRemote, socketPath }] = await Promise.all([
    import('../db'),
    import('../bootstrap'),
    import('../secrets'),
    import('./remote'),
    import('../domains'),
  ]);
  const cfg = dbConfigFromEnv();
  if (cfg.kind === 'pglite' && fs.existsSync(socketPath(stateDir()))) {
    try {
      return await runRemote(stateDir(), [name, ...rest]);
    } catch {
      /* stale socket: the server is gone; open the database ourselves */
    }
  }
  try {
    const db = await getDb();
    await prepareDatabase(db, { referenceData: false });
    return await (await group.load()).run(rest);
  } catch (err) {
    if (err instanceof PgliteBusyError) {
      process.stderr.write(`${err.message}\nThe server's CLI socket is not reachable; stop the server or use DATABASE_URL (PostgreSQL).\n`);
      return 1;
    }
    throw err;
  } finally {
    await closeDb();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    if (err instanceof UsageError) process.stderr.write(`\n${usageText()}`);
    process.exitCode = err instanceof UsageError ? 2 : 1;
  },
);
