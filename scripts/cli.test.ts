/**
 * The CLI launcher (`npm run cli` = `node scripts/cli.mjs`): `drg` runs from a bundle in the cache folder, rebuilt
 * when its sources change, and gives what the TypeScript path gives; every other command goes through the loader.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot, sharedDir } from '../server/config/paths';
import { runProcess, type ProcessResult } from '../tests/helpers/run-process';

const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-launcher-'));
afterAll(() => fs.rmSync(cache, { recursive: true, force: true }));

function cli(args: string[], stdin: string, env: Record<string, string> = {}): Promise<ProcessResult> {
  return runProcess(process.execPath, ['scripts/cli.mjs', ...args], {
    cwd: projectRoot,
    env: { ...process.env, CODING_CACHE_DIR: cache, LOG_LEVEL: 'warn', ...env },
    stdin,
  });
}

const oracle = path.join(sharedDir(), 'oracle', 'dev_cases_v43.jsonl');
const cases = fs.existsSync(oracle)
  ? fs
      .readFileSync(oracle, 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .slice(0, 400)
  : [];
const bundle = path.join(cache, 'cli', 'standalone.mjs');
const stamp = path.join(cache, 'cli', 'standalone.stamp.json');

describe.skipIf(cases.length === 0)('npm run cli: the launcher', () => {
  it('builds the drg bundle once, and its answers equal the TypeScript path and the oracle', async () => {
    const input = cases.join('\n') + '\n';
    const fast = await cli(['drg', 'group', '--version', 'v43'], input);
    expect(fast.code).toBe(0);
    expect(fs.existsSync(bundle)).toBe(true);
    const kept = JSON.parse(fs.readFileSync(stamp, 'utf8')) as { files: Record<string, string> };
    // the stamp lists the grouper's own sources, so a change there rebuilds
    expect(Object.keys(kept.files)).toEqual(
      expect.arrayContaining(['server/cli/standalone.ts', 'server/drg/cli.ts', 'server/drg/engine.ts', 'server/mce/engine.ts']),
    );
    const slow = await cli(['drg', 'group', '--version', 'v43'], input, { CODING_CLI_BUNDLE: '0' });
    expect(slow.code).toBe(0);
    expect(fast.stdout).toBe(slow.stdout);
    const out = fast.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { drg: string; return_code: string });
    expect(out).toHaveLength(cases.length);
    const expected = cases.map((l) => (JSON.parse(l) as { expected: { drg: number } }).expected.drg);
    expect(out.map((o) => Number(o.drg))).toEqual(expected);
  });

  it('rebuilds when a source changed since the build, and keeps the bundle when nothing did', async () => {
    const before = fs.statSync(bundle).mtimeMs;
    await new Promise((r) => setTimeout(r, 20));
    expect((await cli(['drg', 'group'], '{"dx":["I10"]}\n')).code).toBe(0);
    expect(fs.statSync(bundle).mtimeMs).toBe(before);
    // a source file whose size or time differs from the stamp's
    const kept = JSON.parse(fs.readFileSync(stamp, 'utf8')) as { files: Record<string, string> };
    kept.files['server/drg/engine.ts'] = '0:0';
    fs.writeFileSync(stamp, JSON.stringify(kept));
    const r = await cli(['drg', 'edit'], '{"dx":["O80"],"age":70,"sex":"F","discharge_date":"2026-04-18"}\n');
    expect(r.code).toBe(0);
    expect(fs.statSync(bundle).mtimeMs).toBeGreaterThan(before);
    expect(JSON.parse(r.stdout) as unknown).toMatchObject({ edit_type: 'PREPAYMENT', edits: [{ name: 'AGE_CONFLICT', codes: ['O80'] }] });
  });

  it('a long input spreads over worker threads and gives, line for line, what one thread gives', async () => {
    // 12,000 lines (workers start after 8,192), with a bad line, a blank line and other versions inside the threaded part
    const lines: string[] = [];
    for (let i = 0; i < 12_000; i++) lines.push(cases[i % cases.length]!);
    lines.splice(
      9_001,
      0,
      'not json',
      '',
      '{"id":"v37-line","dx":["I214"],"sex":"M","alive":true,"version":"v37"}',
      '{"id":"bad-version","dx":["I10"],"version":"v99"}',
    );
    const input = lines.join('\n') + '\n';
    const many = await cli(['drg', 'group', '--version', 'v43', '--threads', '2'], input);
    const one = await cli(['drg', 'group', '--version', 'v43', '--threads', '1'], input);
    expect(many.code).toBe(0);
    expect(one.code).toBe(0);
    expect(many.stdout).toBe(one.stdout);
    const out = many.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: unknown; version?: string; error?: string });
    expect(out).toHaveLength(12_003); // one line per non-blank input line, in order
    expect(out.find((o) => o.id === 'v37-line')).toMatchObject({ version: 'v37' });
    expect(out.find((o) => o.id === 'bad-version')?.error).toContain('v99');
    expect(out.filter((o) => o.error).length).toBe(2);
    const bad = await cli(['drg', 'group', '--threads', '0'], '');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--threads must be a whole number from 1 to 16');
  });

  it('reports errors with the same exit codes on both paths', async () => {
    for (const env of [{}, { CODING_CLI_BUNDLE: '0' }] as Array<Record<string, string>>) {
      const bad = await cli(['drg', 'group', '--version', 'v99'], '{}\n', env);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('unknown MS-DRG version "v99"');
      const opt = await cli(['drg', 'group', '--nonsense'], '', env);
      expect(opt.code).toBe(2);
      expect(opt.stderr).toContain('unknown option --nonsense');
      const line = await cli(['drg', 'group'], 'not json\n', env);
      expect(line.code).toBe(0);
      expect(JSON.parse(line.stdout) as unknown).toMatchObject({ id: null, error: expect.any(String) });
    }
  });

  it('sends other commands through the TypeScript loader', async () => {
    const help = await cli(['--help'], '');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('drg group [--version v43]');
    const unknown = await cli(['bogus'], '');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command: bogus');
  });
});
