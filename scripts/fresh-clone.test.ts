import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build, type Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataDir, projectRoot } from '../server/config/paths';
import { runProcess, type ProcessResult } from '../tests/helpers/run-process';

/**
 * A newcomer's first minutes: a fresh clone of HEAD with `node_modules` installed (hard-linked from this checkout,
 * which is what `npm install` leaves) and no generated Prisma client (`server/generated/` is git-ignored, so a clone
 * has none). Each documented CLI command runs through `npm run --silent cli -- …` as the README writes it.
 *
 * - `drg group`, `drg edit` and `redact` need neither database nor Prisma: they must work while the client is still
 *   absent, and must not create it.
 * - Database commands generate the client on demand (as `npm start` does), then migrate the embedded database.
 */
let clone = '';
let stateDir = '';
let pgliteDir = '';

function npmCli(args: string[], stdin = ''): Promise<ProcessResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, CODING_DATA_DIR: dataDir(), CODING_STATE_DIR: stateDir, PGLITE_DIR: pgliteDir, LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  delete env.CODING_PROJECT_ROOT;
  delete env.CODING_CACHE_DIR;
  return runProcess('npm', ['run', '--silent', 'cli', '--', ...args], { cwd: clone, env, stdin });
}

const jsonLines = (text: string): Array<Record<string, unknown>> =>
  text
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

const generatedClient = () => path.join(clone, 'server', 'generated', 'prisma', 'client.ts');

beforeAll(() => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-fresh-clone-'));
  clone = path.join(tmp, 'repo');
  stateDir = path.join(tmp, 'state');
  pgliteDir = path.join(tmp, 'pglite');
  const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: projectRoot, encoding: 'utf8' }).trim();
  execFileSync('git', ['clone', '--quiet', '--no-checkout', projectRoot, clone]);
  execFileSync('git', ['checkout', '--quiet', '--detach', head], { cwd: clone });
  // what `npm install` leaves: the packages, nothing generated from our own schema
  execFileSync('cp', ['-al', path.join(projectRoot, 'node_modules'), path.join(clone, 'node_modules')]);
});

afterAll(() => {
  if (clone) fs.rmSync(path.dirname(clone), { recursive: true, force: true });
});

describe('CLI on a fresh clone (no generated Prisma client)', () => {
  it('has no generated client to begin with', () => {
    expect(fs.existsSync(path.join(clone, 'server', 'generated'))).toBe(false);
    expect(fs.existsSync(path.join(clone, 'package.json'))).toBe(true);
  });

  it('help lists the commands', async () => {
    const r = await npmCli(['--help']);
    expect(r.code).toBe(0);
    for (const c of ['drg group', 'drg edit', 'redact', 'org create', 'key create', 'model add', 'vocab import', 'db migrate']) expect(r.stdout).toContain(c);
  });

  it('drg group (with --edits) works without database or Prisma', async () => {
    const input = [
      { id: 'ami', dx: ['I214', 'E1122'], pr: [], sex: 1, alive: 1, dischargeStatus: 1 },
      { id: 'api', dx_codes: ['J189'], pr_codes: [], gender: 'F', is_alive: true, discharge_status: 1, age: 70, discharge_date: '2023-05-01' },
      { id: 'bad', dx: 'not an array of codes', sex: 'x' },
    ];
    const r = await npmCli(['drg', 'group', '--edits'], input.map((l) => JSON.stringify(l)).join('\n') + '\n');
    expect(r.stderr).not.toMatch(/Cannot find module|generated\/prisma/);
    expect(r.code).toBe(0);
    const out = jsonLines(r.stdout);
    expect(out.map((o) => o.id)).toEqual(['ami', 'api', 'bad']);
    expect(out[0]).toMatchObject({ version: 'v40', mdc: '05', return_code: 'OK' });
    expect(String(out[0]!.drg)).toMatch(/^\d{3}$/);
    expect(out[1]).toMatchObject({ mdc: '04', return_code: 'OK' });
    expect(out[1]!.edits).toMatchObject({ edit_type: expect.any(String), edits: expect.any(Array) });
    expect(out[2]!.drg ?? out[2]!.error).toBeDefined();
    expect(fs.existsSync(generatedClient())).toBe(false);
  });

  it('drg edit runs the Medicare Code Editor without database or Prisma', async () => {
    const claim = { id: 'c1', discharge_date: '2025-01-15', age: 40, sex: 'M', discharge_status: '01', los: 3, dx: ['I214', 'ZZZ99'], pr: [] };
    const r = await npmCli(['drg', 'edit'], JSON.stringify(claim) + '\n');
    expect(r.code).toBe(0);
    const [out] = jsonLines(r.stdout);
    expect(out).toMatchObject({ id: 'c1', edit_type: expect.any(String) });
    expect(out!.edit_type).toBe('PREPAYMENT');
    expect(out!.edits).toEqual([expect.objectContaining({ name: 'INVALID_CODE', codes: ['ZZZ99'], positions: ['dx[1]'] })]);
    expect(fs.existsSync(generatedClient())).toBe(false);
  });

  it('redact works without database or Prisma', async () => {
    const note = { id: 'n1', text: 'Patient John Smith, MRN 12345678, phone 555-123-4567.' };
    const r = await npmCli(['redact'], JSON.stringify(note) + '\n');
    expect(r.code).toBe(0);
    const [out] = jsonLines(r.stdout);
    expect(out!.id).toBe('n1');
    expect(out!.redacted_text).not.toContain('John Smith');
    expect(out!.redacted_text).not.toContain('12345678');
    expect(Object.values(out!.mapping as Record<string, string>)).toContain('John Smith');
    const noMap = await npmCli(['redact', '--no-mapping'], JSON.stringify(note) + '\n');
    expect(jsonLines(noMap.stdout)[0]!.mapping).toBeUndefined();
    expect(fs.existsSync(generatedClient())).toBe(false);
  });

  it('database commands generate the client on demand, then work on the embedded database', async () => {
    const status = await npmCli(['db', 'status']);
    expect(status.code).toBe(0);
    expect(fs.existsSync(generatedClient())).toBe(true);
    expect(status.stdout).toMatch(/^applied +\d{14}_platform$/m);
    expect(status.stdout).not.toMatch(/^pending/m);
    expect(status.stdout).toMatch(/backend: pglite/);

    const org = await npmCli(['org', 'create', 'Fresh Clone Hospital']);
    expect(org.code).toBe(0);
    expect(org.stdout).toMatch(/^[0-9a-f-]{36}\tFresh Clone Hospital$/m);
    const user = await npmCli(
      ['user', 'create', '--org', 'Fresh Clone Hospital', '--email', 'coder@fresh.test', '--password-stdin', '--role', 'coder'],
      'a-long-enough-password\n',
    );
    expect(user.code).toBe(0);
    expect(user.stdout).toContain('coder@fresh.test');
    const key = await npmCli(['key', 'create', '--org', 'Fresh Clone Hospital', '--scopes', 'search,redact', '--expires-in', '30d']);
    expect(key.code).toBe(0);
    expect(key.stdout.trim()).toMatch(/^cg_live_[0-9A-Za-z]{32}$/);
    const keyId = /key id ([0-9a-f-]{36})/.exec(key.stderr)?.[1];
    expect(keyId).toBeDefined();
    const list = await npmCli(['key', 'list', '--org', 'Fresh Clone Hospital']);
    expect(list.stdout).toContain(keyId);
    expect(list.stdout).not.toContain(key.stdout.trim());
    const model = await npmCli([
      'model',
      'add',
      'fresh-local',
      '--base-url',
      'http://127.0.0.1:11434/v1',
      '--upstream-model',
      'llama3.1',
      '--approved-for-phi',
    ]);
    expect(model.code).toBe(0);
    expect(model.stdout + model.stderr).toContain('fresh-local');
    const vocab = await npmCli(['vocab', 'status']);
    expect(vocab.code).toBe(0);
    expect(JSON.parse(vocab.stdout)).toMatchObject({ counts: { concept: 0 } });
  }, 180_000); // eight processes, each opening PGlite: ~35 s on a quiet machine, far more on a busy one
});

/** The static import graph (dynamic `import()` excluded) of a module, from esbuild's metafile. */
function staticGraph(meta: Metafile, entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const stack = [entry];
  while (stack.length) {
    const f = stack.pop()!;
    if (files.has(f)) continue;
    files.add(f);
    for (const imp of meta.inputs[f]?.imports ?? []) {
      if (imp.kind === 'dynamic-import') continue;
      if (imp.external) packages.add(imp.path);
      else stack.push(imp.path);
    }
  }
  return { files, packages };
}

describe('commands without a database import neither server/db.ts nor Prisma', () => {
  it.each(['server/cli/main.ts', 'server/cli/standalone.ts', 'server/drg/cli.ts', 'server/redact/cli.ts'])('%s', async (entry) => {
    const r = await build({
      entryPoints: [path.join(projectRoot, entry)],
      absWorkingDir: projectRoot,
      bundle: true,
      write: false,
      metafile: true,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      logLevel: 'silent',
      outdir: path.join(os.tmpdir(), 'cg-import-graph'), // required by the loaders below; nothing is written
      loader: { '.wasm': 'file', '.node': 'file' },
    });
    const graph = staticGraph(r.metafile, entry);
    expect(graph.files.size).toBeGreaterThan(entry === 'server/cli/main.ts' ? 3 : 10); // the graph was really walked
    const files = [...graph.files];
    expect(files.filter((f) => f === 'server/db.ts' || f.startsWith('server/generated/') || f === 'server/bootstrap.ts' || f === 'server/domains.ts')).toEqual(
      [],
    );
    expect([...graph.packages].filter((p) => /^(@prisma\/|prisma$|pg$|pg-|@electric-sql\/pglite|pglite-prisma-adapter)/.test(p))).toEqual([]);
    // and what must not be reached statically really is imported only dynamically, for database commands
    if (entry === 'server/cli/main.ts') {
      const dynamic = Object.values(r.metafile.inputs).flatMap((i) => i.imports.filter((x) => x.kind === 'dynamic-import').map((x) => x.path));
      expect(dynamic).toContain('server/db.ts');
    }
  });
});
