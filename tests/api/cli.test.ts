import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startBackend, type TestBackend } from '../helpers/backend';
import { projectRoot } from '@/server/config/paths';
import { startCliSocket } from '@/server/cli/remote';
import { runInProcess } from '@/server/cli/commands';
import { runProcess, type ProcessResult } from '../helpers/run-process';

/**
 * The operator CLI as an operator runs it: a separate process. On PostgreSQL it opens the database itself; on PGlite
 * the test process owns the database (like the running server) and the CLI goes through the CLI socket.
 */
let be: TestBackend;
let stopSocket: () => void = () => undefined;

beforeAll(async () => {
  be = await startBackend();
  if (be.kind === 'pglite') stopSocket = startCliSocket(process.env.CODING_STATE_DIR!, runInProcess);
});
afterAll(async () => {
  stopSocket();
  await be?.close();
});

function cli(args: string[], stdin = ''): Promise<ProcessResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn' };
  if (be.kind === 'postgres') env.DATABASE_URL = be.databaseUrl;
  else {
    delete env.DATABASE_URL;
    env.PGLITE_DIR = be.pgliteDir;
  }
  return runProcess(process.execPath, ['scripts/cli.mjs', ...args], { cwd: projectRoot, env, stdin });
}

describe(`operator CLI on ${process.env.TEST_DB ?? 'postgres'}`, () => {
  const org = `CLI Org ${Date.now()}`;
  let keyId = '';
  let key = '';

  it('creates an organisation and a user (password from stdin)', async () => {
    const o = await cli(['org', 'create', org]);
    expect(o.code).toBe(0);
    expect(o.stdout).toContain(org);
    const u = await cli(['user', 'create', '--org', org, '--email', 'coder@cli.test', '--password-stdin', '--role', 'coder'], 'a-long-password\n');
    expect(u.code).toBe(0);
    expect(u.stdout).toContain('coder@cli.test');
    const login = await api(be.baseUrl, 'POST', '/login', { body: { email: 'coder@cli.test', password: 'a-long-password' } });
    expect(login.status).toBe(200);
  });

  it('issues a key once, which then works over HTTP with its scopes', async () => {
    const k = await cli(['key', 'create', '--org', org, '--scopes', 'search,redact', '--expires-in', '30d']);
    expect(k.code).toBe(0);
    key = k.stdout.trim();
    expect(key).toMatch(/^cg_live_[0-9A-Za-z]{32}$/);
    keyId = /key id ([0-9a-f-]{36})/.exec(k.stderr)![1]!;
    const who = await api(be.baseUrl, 'GET', '/api/v1/auth/whoami', { key });
    expect(who.status).toBe(200);
    expect(who.body.scopes).toEqual(['search', 'redact']);
    const list = await cli(['key', 'list', '--org', org]);
    expect(list.stdout).toContain(keyId);
    expect(list.stdout).not.toContain(key);
    expect(list.stdout).toContain(key.slice(-4));
  });

  it('sandbox keys use the test prefix; a third active key is refused', async () => {
    const s = await cli(['key', 'create', '--org', org, '--sandbox']);
    expect(s.stdout.trim()).toMatch(/^cg_test_/);
    const third = await cli(['key', 'create', '--org', org]);
    expect(third.code).toBe(1);
    expect(third.stderr).toMatch(/2 active keys/);
  });

  it('revokes a key; the very next request fails', async () => {
    const r = await cli(['key', 'revoke', keyId]);
    expect(r.code).toBe(0);
    const who = await api(be.baseUrl, 'GET', '/api/v1/auth/whoami', { key });
    expect(who.status).toBe(401);
    expect(who.body.error).toBe('key_revoked');
  });

  it('reports bad input clearly', async () => {
    const bad = await cli(['key', 'create', '--org', org, '--scopes', 'everything']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/unknown scope 'everything'/);
    const nouser = await cli(['user', 'create', '--org', org, '--email', 'x@y.z', '--role', 'admin']);
    expect(nouser.stderr).toMatch(/password-stdin/);
    const unknown = await cli(['frobnicate']);
    expect(unknown.code).toBe(2);
  });
});
