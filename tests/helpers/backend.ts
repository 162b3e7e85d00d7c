import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { closeDb, configureDb, getDb, type Database } from '@/server/db';
import { prepareDatabase } from '@/server/bootstrap';
import { createApiServer } from '@/server/http/node-adapter';
import '@/server/domains'; // start-up tasks, queues and health probes, as in the server
import { createOrganization, createUser } from '@/server/auth/accounts';
import { createApiKey } from '@/server/auth/keys';
import type { Scope } from '@/server/auth/scopes';
import { stopQueue } from '@/server/queue';
import { stopWorkerPool } from '@/server/workers/pool';
import { warmRedaction } from '@/server/redact';

/**
 * A real backend for API tests: a throwaway PostgreSQL database (TEST_DB=postgres, the default in CI runs both) or
 * a fresh PGlite folder, migrated, behind a real HTTP server that calls the production request handler.
 */
export const ADMIN_PG_URL = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export type BackendKind = 'postgres' | 'pglite';

export function backendKind(): BackendKind {
  return process.env.TEST_DB === 'pglite' ? 'pglite' : 'postgres';
}

export interface TestBackend {
  kind: BackendKind;
  db: Database;
  baseUrl: string;
  /** Raw database URL (postgres only), for spawning worker processes. */
  databaseUrl?: string;
  pgliteDir?: string;
  close(): Promise<void>;
}

export async function createScratchPostgres(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `cg_test_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = ADMIN_PG_URL.replace(/\/[^/]*$/, `/${name}`);
  return {
    url,
    drop: async () => {
      const c = new pg.Client({ connectionString: ADMIN_PG_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
      await c.end();
    },
  };
}

export async function startBackend(opts: { kind?: BackendKind; referenceData?: boolean } = {}): Promise<TestBackend> {
  const kind = opts.kind ?? backendKind();
  process.env.LOG_LEVEL ??= 'warn';
  process.env.CODING_STATE_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'cg-state-'));
  let drop: () => Promise<void> = async () => undefined;
  let databaseUrl: string | undefined;
  let pgliteDir: string | undefined;
  if (kind === 'postgres') {
    const scratch = await createScratchPostgres();
    databaseUrl = scratch.url;
    drop = scratch.drop;
    configureDb({ kind: 'postgres', url: scratch.url });
  } else {
    pgliteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-pglite-'));
    configureDb({ kind: 'pglite', dir: pgliteDir });
    drop = async () => fs.rmSync(pgliteDir!, { recursive: true, force: true });
  }
  const db = await getDb();
  await prepareDatabase(db, { referenceData: opts.referenceData ?? false });
  // as the real server does before it listens: the first request's time budget is not spent loading word data
  warmRedaction();
  const server = createApiServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    kind,
    db,
    baseUrl: `http://127.0.0.1:${port}`,
    databaseUrl,
    pgliteDir,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await stopQueue();
      await stopWorkerPool();
      await closeDb();
      await drop();
    },
  };
}

export interface TestOrg {
  orgId: string;
  name: string;
  key: string;
  keyId: string;
  email: string;
  password: string;
}

let orgCounter = 0;

/** A fresh organisation with an admin user and one key (optionally scoped / sandbox). */
export async function createTestOrg(db: Database, opts: { scopes?: Scope[]; sandbox?: boolean; role?: 'admin' | 'coder' } = {}): Promise<TestOrg> {
  const name = `Test Org ${Date.now().toString(36)}-${++orgCounter}-${randomBytes(2).toString('hex')}`;
  const org = await createOrganization(db, name);
  const email = `admin-${orgCounter}-${randomBytes(3).toString('hex')}@example.test`;
  const password = `pw-${randomBytes(8).toString('hex')}`;
  await createUser(db, { orgId: org.id, email, password, role: opts.role ?? 'admin' });
  const { key, view } = await createApiKey(db, { orgId: org.id, scopes: opts.scopes ?? [], sandbox: opts.sandbox, actor: 'test' });
  return { orgId: org.id, name, key, keyId: view.id, email, password };
}

export async function api(
  base: string,
  method: string,
  path: string,
  opts: { key?: string; bearer?: string; body?: unknown; headers?: Record<string, string>; raw?: BodyInit } = {},
): Promise<{ status: number; body: any; headers: Headers; text: string }> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.key) headers['x-api-key'] = opts.key;
  if (opts.bearer) headers.authorization = `Bearer ${opts.bearer}`;
  let body: BodyInit | undefined = opts.raw;
  if (opts.body !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(opts.body);
  }
  const res = await fetch(base + path, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed, headers: res.headers, text };
}

/** A real next-auth session cookie for a user (the UI's credential on /api/trpc). */
export async function sessionCookie(userId: string): Promise<string> {
  const { encode } = await import('next-auth/jwt');
  const { nextAuthSecret } = await import('@/server/auth/session');
  const token = await encode({ token: { sub: userId }, secret: nextAuthSecret() });
  return `next-auth.session-token=${token}`;
}

export async function userIdOf(db: Database, email: string): Promise<string> {
  const rows = await db.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [email]);
  return rows[0]!.id;
}
