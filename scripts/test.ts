import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ensureNextBuild, ensurePrismaClient } from './prepare';
import { projectRoot } from '../server/config/paths';

/**
 * `npm test`: type check, lint, unit tests, API/integration tests on PostgreSQL and on PGlite, then the Playwright
 * e2e suite in Chromium against a freshly built app. Stops at the first failing stage.
 */
const bin = (name: string) => path.join(projectRoot, 'node_modules', '.bin', name);
const stages: Array<{ name: string; run: () => number }> = [
  { name: 'prisma client', run: () => (ensurePrismaClient(), 0) },
  { name: 'typecheck', run: () => sh(bin('tsc'), ['--noEmit', '-p', '.']) },
  { name: 'lint', run: () => sh(bin('eslint'), ['.', '--max-warnings=0']) },
  { name: 'format', run: () => sh(bin('prettier'), ['--check', '.', '--log-level=warn']) },
  { name: 'unit + API tests (PostgreSQL and PGlite)', run: () => sh(bin('vitest'), ['run']) },
  { name: 'build web app', run: () => (ensureNextBuild(), 0) },
  { name: 'e2e (Chromium)', run: () => sh(bin('playwright'), ['test']) },
];

function sh(cmd: string, args: string[]): number {
  const r = spawnSync(cmd, args, { cwd: projectRoot, stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
  return r.status ?? 1;
}

const only = process.argv.slice(2);
const started = Date.now();
for (const stage of stages) {
  if (only.length && !only.some((o) => stage.name.includes(o))) continue;
  const t = Date.now();
  process.stdout.write(`\n=== ${stage.name} ===\n`);
  let code: number;
  try {
    code = stage.run();
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    code = 1;
  }
  process.stdout.write(`=== ${stage.name}: ${code === 0 ? 'ok' : 'FAILED'} (${((Date.now() - t) / 1000).toFixed(1)} s)\n`);
  if (code !== 0) process.exit(code);
}
process.stdout.write(`\nAll stages passed in ${((Date.now() - started) / 1000).toFixed(0)} s.\n`);
