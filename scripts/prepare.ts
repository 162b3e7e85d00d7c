import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../server/config/paths';

/**
 * Generates the Prisma client when the schema changed (no postinstall hooks: npm blocks them).
 * Prisma 7 needs PRISMA_SCHEMA_ENGINE_BINARY to point at any existing file for `generate` offline.
 */
export function ensurePrismaClient(): void {
  const schema = path.join(projectRoot, 'prisma', 'schema.prisma');
  const outDir = path.join(projectRoot, 'server', 'generated', 'prisma');
  const stamp = path.join(outDir, '.schema-hash');
  const hash = createHash('sha256').update(fs.readFileSync(schema)).digest('hex');
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === hash && fs.existsSync(path.join(outDir, 'client.ts'))) return;
  process.stdout.write('Generating the Prisma client…\n');
  execFileSync(process.execPath, [path.join(projectRoot, 'node_modules', 'prisma', 'build', 'index.js'), 'generate'], {
    cwd: projectRoot,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath, PRISMA_HIDE_UPDATE_MESSAGE: '1' },
  });
  fs.writeFileSync(stamp, hash);
}

const BUILD_INPUTS = ['app', 'components', 'server', 'public', 'next.config.ts', 'tsconfig.json', 'package-lock.json'];

function hashTree(target: string, h: ReturnType<typeof createHash>): void {
  if (!fs.existsSync(target)) return;
  const st = fs.statSync(target);
  if (st.isFile()) {
    h.update(path.relative(projectRoot, target));
    h.update(fs.readFileSync(target));
    return;
  }
  for (const name of fs.readdirSync(target).sort()) {
    if (name === 'generated' || name === 'node_modules' || name.endsWith('.test.ts')) continue;
    hashTree(path.join(target, name), h);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Builds the Next.js app when its sources changed since the last build. Concurrent callers wait for one build. */
export function ensureNextBuild(): void {
  const h = createHash('sha256');
  for (const p of BUILD_INPUTS) hashTree(path.join(projectRoot, p), h);
  const hash = h.digest('hex');
  const stamp = path.join(projectRoot, '.next', 'cg-build-hash');
  const upToDate = () => fs.existsSync(path.join(projectRoot, '.next', 'BUILD_ID')) && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === hash;
  if (upToDate()) return;
  const lock = path.join(projectRoot, '.next-build.lock');
  for (;;) {
    try {
      fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
      break;
    } catch {
      const holder = Number(fs.readFileSync(lock, 'utf8'));
      if (!holder || !isAlive(holder)) {
        fs.rmSync(lock, { force: true });
        continue;
      }
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000); // another build is running: wait for it
    }
  }
  try {
    if (upToDate()) return;
    process.stdout.write('Building the web app (first start or changed sources; this takes a minute or two)…\n');
    execFileSync(process.execPath, [path.join(projectRoot, 'node_modules', 'next', 'dist', 'bin', 'next'), 'build'], {
      cwd: projectRoot,
      stdio: 'inherit',
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
    });
    fs.writeFileSync(stamp, hash);
  } finally {
    fs.rmSync(lock, { force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(projectRoot, 'scripts', 'prepare.ts')) {
  ensurePrismaClient();
  if (process.argv.includes('--build')) ensureNextBuild();
}
