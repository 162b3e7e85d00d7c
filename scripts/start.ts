import { ensureNextBuild, ensurePrismaClient } from './prepare';

/**
 * `npm start`: generate the Prisma client and build the web app if needed, then start the server, which migrates
 * the database, loads reference data, creates the demo organisation on first start and serves UI + API on PORT.
 */
process.env.NEXT_TELEMETRY_DISABLED = '1';
const dev = process.argv.includes('--dev');
ensurePrismaClient();
if (!dev) {
  (process.env as Record<string, string>).NODE_ENV = 'production';
  ensureNextBuild();
}

const { startServer, printBanner } = await import('../server/main');
try {
  const { url, demo, stop } = await startServer({ dev });
  printBanner(url, demo);
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\n${signal}: shutting down…\n`);
    stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
} catch (err) {
  const { PgliteBusyError } = await import('../server/db');
  if (err instanceof PgliteBusyError) {
    process.stderr.write(`${err.message}\nStop that process first, or point DATABASE_URL at PostgreSQL to run several processes.\n`);
  } else if (err instanceof Error && err.name === 'EnvError') {
    process.stderr.write(`${err.message}\n`);
  } else if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
    process.stderr.write(`Port ${process.env.PORT ?? 3000} is in use. Set PORT to another port.\n`);
  } else {
    process.stderr.write(`Start-up failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  }
  process.exit(1);
}
