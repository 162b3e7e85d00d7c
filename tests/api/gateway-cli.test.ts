/**
 * `npm run --silent cli -- model add|list|remove` as an operator runs it (a separate process; on PGlite through the
 * CLI socket of the process that owns the database), then the registered model used over HTTP.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestOrg, startBackend, type TestBackend, type TestOrg } from '../helpers/backend';
import { projectRoot } from '@/server/config/paths';
import { startCliSocket } from '@/server/cli/remote';
import { runInProcess } from '@/server/cli/commands';
import { startTestUpstream, type TestUpstream } from '@/tests/fixtures/test-upstream';
import { orgKeyEnvPrefix } from '@/server/gateway/registry';

let be: TestBackend;
let up: TestUpstream;
let org: TestOrg;
let stopSocket: () => void = () => undefined;

beforeAll(async () => {
  be = await startBackend();
  up = await startTestUpstream();
  org = await createTestOrg(be.db, { scopes: ['llm:chat'] });
  if (be.kind === 'pglite') stopSocket = startCliSocket(process.env.CODING_STATE_DIR!, runInProcess);
});
afterAll(async () => {
  stopSocket();
  await up?.close();
  await be?.close();
});

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn' };
    if (be.kind === 'postgres') env.DATABASE_URL = be.databaseUrl;
    else {
      delete env.DATABASE_URL;
      env.PGLITE_DIR = be.pgliteDir;
    }
    const child = spawn(process.execPath, [path.join(projectRoot, 'node_modules/tsx/dist/cli.mjs'), 'server/cli/main.ts', ...args], { cwd: projectRoot, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.end();
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

const chat = (model: string) =>
  api(be.baseUrl, 'POST', '/api/v1/llm/chat/completions', { bearer: org.key, body: { model, messages: [{ role: 'user', content: 'Dr Lim Wei Ming' }] } });

describe(`model CLI on ${process.env.TEST_DB ?? 'postgres'}`, () => {
  it('adds a deployment-wide model usable by every organisation, lists it, removes it', async () => {
    const add = await cli([
      'model',
      'add',
      'cli-echo',
      '--base-url',
      `${up.baseUrl}/`,
      '--upstream-model',
      'echo',
      '--approved-for-phi',
      '--price-in',
      '0.5',
      '--price-out',
      '1.5',
      '--timeout-ms',
      '5000',
    ]);
    expect(add.code, add.stderr).toBe(0);
    expect(add.stdout).toMatch(/^[0-9a-f-]{36}\tcli-echo\n$/);
    expect(add.stderr).toMatch(/deployment-wide; standard; approved for PHI; no key; budget 5000 ms/);
    const r = await chat('cli-echo');
    expect(r.status).toBe(200);
    expect(r.body.choices[0].message.content).toBe('Dr Lim Wei Ming');
    const list = await cli(['model', 'list', '--json']);
    const row = (JSON.parse(list.stdout) as Array<Record<string, unknown>>).find((m) => m.name === 'cli-echo')!;
    expect(row).toMatchObject({
      scope: 'deployment',
      base_url: up.baseUrl,
      upstream_model: 'echo',
      approved_for_phi: true,
      price_input_per_1k_usd: 0.5,
      price_output_per_1k_usd: 1.5,
      timeout_ms: 5000,
    });
    const dup = await cli(['model', 'add', 'cli-echo', '--base-url', up.baseUrl, '--upstream-model', 'echo']);
    expect(dup.code).toBe(1);
    expect(dup.stderr).toMatch(/already exists/);
    const rm = await cli(['model', 'remove', 'cli-echo']);
    expect(rm.code).toBe(0);
    expect((await chat('cli-echo')).body.error).toBe('model_not_found');
  });

  it('an organisation model (--org), unapproved by default; key variables are checked; never a key value', async () => {
    const bad = await cli(['model', 'add', 'cli-org', '--org', org.orgId, '--base-url', up.baseUrl, '--upstream-model', 'echo', '--key-env', 'OPENAI_API_KEY']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(orgKeyEnvPrefix(org.orgId));
    const secret = await cli(['model', 'add', 'cli-secret', '--base-url', up.baseUrl, '--upstream-model', 'echo', '--key-env', 'JWT_SECRET']);
    expect(secret.code).toBe(1);
    const ok = await cli([
      'model',
      'add',
      'cli-org',
      '--org',
      org.orgId,
      '--base-url',
      up.baseUrl,
      '--upstream-model',
      'echo',
      '--key-env',
      `${orgKeyEnvPrefix(org.orgId)}X`,
    ]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stderr).toMatch(/NOT approved for PHI/);
    const r = await chat('cli-org');
    expect(r.status).toBe(403);
    expect(r.body.error).toBe('model_not_approved');
    const list = await cli(['model', 'list', '--org', org.orgId]);
    expect(list.stdout).toContain('cli-org');
    expect(list.stdout).toContain(`${orgKeyEnvPrefix(org.orgId)}X`);
    // removing it as deployment-wide finds nothing: scopes are separate
    expect((await cli(['model', 'remove', 'cli-org'])).code).toBe(3);
    expect((await cli(['model', 'remove', 'cli-org', '--org', org.orgId])).code).toBe(0);
    const usage = await cli(['model', 'frobnicate']);
    expect(usage.code).not.toBe(0);
    expect(usage.stderr).toMatch(/unknown command: model frobnicate/);
  });
});
