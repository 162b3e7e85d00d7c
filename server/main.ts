import http from 'node:http';
import { parse } from 'node:url';
import next from 'next';
import { loadEnv } from './env';
import { getDb, closeDb } from './db';
import { prepareDatabase, seedDemo, type DemoCredentials } from './bootstrap';
import { startWorkers, stopQueue } from './queue';
import { answerClientError, rejectUnsupportedMethod, serveApi } from './http/node-adapter';
import { isApiPath } from './http/paths';
import { stopWorkerPool, warmWorkerPool } from './workers/pool';
import { nextAuthUrl } from './auth/base-url';
import { projectRoot } from './config/paths';
import { log } from './log';
import { warmRedaction } from './redact';
import './domains';
import { startCliSocket } from './cli/remote';
import { runInProcess } from './cli/commands';
import { stateDir } from './secrets';

/**
 * The web server. One process owns the database (PGlite allows only one), runs the pg-boss workers, serves the API
 * directly through our handler (/api/v1, /api/trpc, /login) and hands everything else (pages, next-auth) to Next.js.
 */
export interface StartOptions {
  dev?: boolean;
  port?: number;
  host?: string;
}

export async function startServer(
  opts: StartOptions = {},
): Promise<{ server: http.Server; url: string; demo: DemoCredentials | null; stop: () => Promise<void> }> {
  const env = loadEnv();
  const port = opts.port ?? env.PORT;
  const host = opts.host ?? env.HOST;
  const db = await getDb();
  log.info('database open', { backend: db.describe });
  if (db.kind === 'postgres') {
    const missing = (['JWT_SECRET', 'UPLOAD_SIGNING_SECRET', 'REDACTION_HMAC_SECRET'] as const).filter((n) => !env[n]);
    if (missing.length) {
      log.warn('secrets generated locally; set them in the environment when several instances share this database', { missing });
    }
  }
  await prepareDatabase(db);
  const demo = env.SEED_DEMO ? await seedDemo(db) : null;
  if (db.kind === 'pglite' || env.WORKERS_IN_PROCESS) await startWorkers(db);
  // CPU pool threads: started and loaded (the agent threads' search index included) before the server listens, so
  // the first agent call does not compile an index, and on PGlite no request waits behind those index queries
  await warmWorkerPool(db);
  // the main thread redacts small texts itself (the chat gateway, short redactions): its word data loads now too
  warmRedaction();

  // next-auth builds its redirects from NEXTAUTH_URL and falls back to http://localhost:3000: derive it from where we
  // listen (or PUBLIC_BASE_URL) unless the operator set it
  process.env.NEXTAUTH_URL ??= nextAuthUrl(env.PUBLIC_BASE_URL, host, port);
  const app = next({ dev: opts.dev ?? false, dir: projectRoot, hostname: host, port });
  await app.prepare();
  const handle = app.getRequestHandler();

  const server = http.createServer((req, res) => {
    if (rejectUnsupportedMethod(req, res)) return;
    const url = parse(req.url ?? '/', true);
    if (isApiPath(url.pathname ?? '/')) {
      serveApi(req, res, `localhost:${port}`);
      return;
    }
    handle(req, res, url).catch((err: unknown) => {
      log.error('page failed', { err: err instanceof Error ? err.message : String(err) });
      res.statusCode = 500;
      res.end('Internal error');
    });
  });
  server.on('clientError', answerClientError);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const url = `http://${host === '0.0.0.0' ? 'localhost' : host}:${port}`;
  // With PGlite this process owns the database; CLI commands run here, over a local socket.
  const stopCliSocket = db.kind === 'pglite' ? startCliSocket(stateDir(), runInProcess) : () => undefined;
  const stop = async () => {
    stopCliSocket();
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
    await stopQueue();
    await stopWorkerPool();
    await closeDb();
  };
  return { server, url, demo, stop };
}

export { printBanner } from './banner';
