/**
 * `npm run cli -- <command> …`: the operator CLI's launcher, plain JavaScript so that it starts with node alone.
 *
 * - `drg …` (group, edit): needs neither a database nor Prisma nor worker threads. Its TypeScript
 *   (`server/cli/standalone.ts` and what it imports) is bundled once by esbuild into one file in the cache folder
 *   (`$CODING_CACHE_DIR/cli/`, default `.cache/cli/`) and run by node directly: start-up about 0.2 s instead of about
 *   1 s through the TypeScript loader. The bundle is rebuilt when any of its source files, node or esbuild changes
 *   (their paths, sizes and modification times are kept beside it); if it cannot be built, the command runs through
 *   the TypeScript loader as every other command does.
 * - every other command: `server/cli/main.ts` through tsx's loader, in this process.
 *
 * `CODING_CLI_BUNDLE=0` turns the bundle off (then `drg` runs through the loader too).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const STANDALONE = new Set(['drg']);

function cacheFolder() {
  const v = process.env.CODING_CACHE_DIR;
  return path.join(v ? path.resolve(root, v) : path.join(root, '.cache'), 'cli');
}

/** The stamp of a build: node, esbuild, and every input file's size and modification time. */
function stampOf(inputs, esbuildVersion) {
  const files = {};
  for (const f of inputs) {
    const st = fs.statSync(path.resolve(root, f), { throwIfNoEntry: false });
    files[f] = st ? `${st.size}:${Math.round(st.mtimeMs)}` : 'missing';
  }
  return { node: process.version, esbuild: esbuildVersion, files };
}

const sameStamp = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** The bundle of `server/cli/standalone.ts`, built when missing or stale; its path. */
async function standaloneBundle() {
  const dir = cacheFolder();
  const out = path.join(dir, 'standalone.mjs');
  const stampFile = path.join(dir, 'standalone.stamp.json');
  try {
    const kept = JSON.parse(fs.readFileSync(stampFile, 'utf8'));
    if (fs.existsSync(out) && sameStamp(kept, stampOf(Object.keys(kept.files), kept.esbuild))) return out;
  } catch {
    /* no stamp yet, or unreadable: build */
  }
  const esbuild = await import('esbuild');
  fs.mkdirSync(dir, { recursive: true });
  // Build beside the final file and rename: two CLIs starting at once never run half a file.
  const tmp = path.join(dir, `standalone.${process.pid}.${Date.now()}.mjs`);
  let result;
  try {
    result = await esbuild.build({
      absWorkingDir: root,
      entryPoints: ['server/cli/standalone.ts'],
      outfile: tmp,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: `node${process.versions.node.split('.')[0]}`,
      metafile: true,
      logLevel: 'silent',
      // the bundle sits in the cache folder, away from node_modules: a CommonJS package inside it gets a `require`
      banner: { js: "import { createRequire as __cgCreateRequire } from 'node:module'; const require = __cgCreateRequire(import.meta.url);" },
    });
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
  const inputs = Object.keys(result.metafile.inputs);
  fs.renameSync(tmp, out);
  fs.writeFileSync(stampFile, JSON.stringify(stampOf(inputs, esbuild.version)));
  return out;
}

async function viaLoader() {
  const [{ register: registerEsm }, { register: registerCjs }] = await Promise.all([import('tsx/esm/api'), import('tsx/cjs/api')]);
  registerEsm();
  registerCjs();
  await import(pathToFileURL(path.join(root, 'server', 'cli', 'main.ts')).href);
}

async function launch() {
  if (STANDALONE.has(argv[0] ?? '') && process.env.CODING_CLI_BUNDLE !== '0') {
    let file = null;
    try {
      file = await standaloneBundle();
    } catch (e) {
      if (process.env.CODING_CLI_DEBUG) process.stderr.write(`cli: no bundle (${e instanceof Error ? e.message : String(e)}); using the TypeScript loader\n`);
    }
    if (file) {
      const { main } = await import(pathToFileURL(file).href);
      try {
        process.exitCode = await main(argv);
      } catch (e) {
        process.stderr.write(`error: ${e instanceof Error ? e.message : String(e)}\n`);
        process.exitCode = 1;
      }
      return;
    }
  }
  await viaLoader();
}

await launch();
