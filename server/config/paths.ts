import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadEnv } from '../env';

/**
 * Project root: the nearest folder upwards holding our package.json. Found from this module's location, and from
 * the working directory as a fallback (inside a Next.js bundle the module's URL points into .next/).
 */
function findRoot(): string {
  let configured: string | undefined;
  try {
    configured = loadEnv().CODING_PROJECT_ROOT;
  } catch {
    /* an invalid environment is reported by the entry point's loadEnv(), with its message; find the root anyway */
  }
  if (configured) return path.resolve(configured);
  const starts: string[] = [];
  try {
    starts.push(path.dirname(fileURLToPath(import.meta.url)));
  } catch {
    /* not a file: URL */
  }
  starts.push(process.cwd());
  for (const start of starts) {
    let dir = start;
    for (let i = 0; i < 12; i++) {
      const pkg = path.join(dir, 'package.json');
      if (fs.existsSync(pkg)) {
        try {
          if ((JSON.parse(fs.readFileSync(pkg, 'utf8')) as { name?: string }).name === 'coding-gateway') return dir;
        } catch {
          /* unreadable package.json: keep walking */
        }
      }
      const up = path.dirname(dir);
      if (up === dir) break;
      dir = up;
    }
  }
  return process.cwd();
}

export const projectRoot = findRoot();

/** Reference data directory (read-only). `CODING_DATA_DIR`, default `../shared/data` from the project root. */
export function dataDir(): string {
  const v = loadEnv().CODING_DATA_DIR;
  return v ? path.resolve(projectRoot, v) : path.resolve(projectRoot, '..', 'shared', 'data');
}

/** Git-ignored folder for compiled or generated artefacts. `CODING_CACHE_DIR`, default `.cache`. */
export function cacheDir(): string {
  const v = loadEnv().CODING_CACHE_DIR;
  return v ? path.resolve(projectRoot, v) : path.resolve(projectRoot, '.cache');
}

/** Oracle and eval corpora live beside the data directory in ../shared. */
export function sharedDir(): string {
  return path.resolve(dataDir(), '..');
}
