import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { loadEnv } from './env';
import { projectRoot } from './config/paths';

/**
 * Server secrets. Each comes from its environment variable when set; otherwise it is generated once and kept
 * in `<CODING_STATE_DIR>/secrets.json` (mode 0600, git-ignored) so that tokens survive restarts on a dev machine.
 * Several instances on different hosts (PostgreSQL deployments) must set the variables, or they reject each other's
 * tokens, sessions and upload URLs; `npm start` warns when a PostgreSQL deployment runs on generated secrets.
 */
export type SecretName = 'JWT_SECRET' | 'REDACTION_HMAC_SECRET' | 'UPLOAD_SIGNING_SECRET';

let cache: Partial<Record<SecretName, string>> | undefined;

export function stateDir(): string {
  return path.resolve(projectRoot, loadEnv().CODING_STATE_DIR);
}

function secretsFile(): string {
  return path.join(stateDir(), 'secrets.json');
}

function readFileSecrets(): Partial<Record<SecretName, string>> {
  try {
    return JSON.parse(fs.readFileSync(secretsFile(), 'utf8')) as Partial<Record<SecretName, string>>;
  } catch {
    return {};
  }
}

/** Shortest environment value `getSecret` accepts; a shorter one is ignored there (and refused by getStrictSecret). */
export const MIN_SECRET_LENGTH = 32;

/** A secret's environment variable is set to an unusable value. The message names the variable, never its value. */
export class SecretConfigError extends Error {
  constructor(readonly secret: SecretName) {
    super(`${secret} is set but shorter than ${MIN_SECRET_LENGTH} characters; set a longer value or unset it`);
    this.name = 'SecretConfigError';
  }
}

/**
 * Like getSecret, but an environment value that is set and shorter than MIN_SECRET_LENGTH is a configuration error
 * (SecretConfigError) instead of being silently replaced by the generated secret. For secrets whose value must agree
 * between servers (REDACTION_HMAC_SECRET: conversation_key placeholders), where a silent fallback gives each server
 * different placeholders.
 */
export function getStrictSecret(name: SecretName): string {
  const fromEnv = loadEnv()[name];
  if (fromEnv && fromEnv.length < MIN_SECRET_LENGTH) throw new SecretConfigError(name);
  return getSecret(name);
}

export function getSecret(name: SecretName): string {
  const fromEnv = loadEnv()[name];
  if (fromEnv && fromEnv.length >= MIN_SECRET_LENGTH) return fromEnv;
  cache ??= readFileSecrets();
  const existing = cache[name];
  if (existing) return existing;
  // Re-read under the assumption another process (worker, CLI) may have written it meanwhile.
  const onDisk = readFileSecrets();
  if (onDisk[name]) {
    cache = onDisk;
    return onDisk[name]!;
  }
  const value = randomBytes(48).toString('base64url');
  fs.mkdirSync(stateDir(), { recursive: true });
  // Two processes starting together must agree: write only if no one else has, then read back what is on disk.
  const lock = `${secretsFile()}.lock`;
  try {
    fs.writeFileSync(lock, String(process.pid), { flag: 'wx', mode: 0o600 });
    try {
      const current = readFileSecrets();
      if (!current[name]) {
        const tmp = `${secretsFile()}.${process.pid}.tmp`;
        fs.writeFileSync(tmp, JSON.stringify({ ...current, [name]: value }, null, 2), { mode: 0o600 });
        fs.renameSync(tmp, secretsFile());
      }
    } finally {
      fs.rmSync(lock, { force: true });
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    // Another process is writing right now: wait briefly for its file.
    for (let i = 0; i < 50 && fs.existsSync(lock); i++) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
  }
  cache = readFileSecrets();
  const stored = cache[name];
  if (!stored) throw new Error(`could not persist the generated ${name} in ${secretsFile()}`);
  return stored;
}

export function resetSecretsCache(): void {
  cache = undefined;
}
