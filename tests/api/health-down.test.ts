import type http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureDb, closeDb } from '@/server/db';
import { createApiServer } from '@/server/http/node-adapter';

/** Health answers 503 (never 500 or a hang) when the database cannot be reached. */
let server: http.Server;
let base: string;
let lockDir: string | undefined;

beforeAll(async () => {
  process.env.LOG_LEVEL = 'silent';
  if (process.env.TEST_DB === 'pglite') {
    // Another live process (pid 1) holds the embedded database.
    lockDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-locked-'));
    fs.writeFileSync(`${lockDir}/db.lock`, '1');
    configureDb({ kind: 'pglite', dir: `${lockDir}/db` });
  } else {
    configureDb({ kind: 'postgres', url: 'postgres://postgres@127.0.0.1:1/nowhere' });
  }
  server = createApiServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  await closeDb().catch(() => undefined);
  if (lockDir) fs.rmSync(lockDir, { recursive: true, force: true });
});

describe(`health with the database down (${process.env.TEST_DB ?? 'postgres'})`, () => {
  it('returns 503 with database.reachable = false', async () => {
    const res = await fetch(`${base}/api/v1/health/`);
    expect(res.status).toBe(503);
    const body = (await res.json()) as { status: string; database: { reachable: boolean; error?: string } };
    expect(body.status).toBe('unavailable');
    expect(body.database.reachable).toBe(false);
    expect(body.database.error).toBeTruthy();
  });

  it('an authenticated endpoint answers 503, not 500', async () => {
    const res = await fetch(`${base}/api/v1/usage`, { headers: { 'x-api-key': 'cg_live_' + 'a'.repeat(32) } });
    expect(res.status).toBe(503);
    expect(((await res.json()) as { error: string }).error).toBe('database_unavailable');
  });
});
