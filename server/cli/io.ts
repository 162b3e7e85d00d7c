import { AsyncLocalStorage } from 'node:async_hooks';
import { Readable } from 'node:stream';

/**
 * Where a CLI command reads and writes. Normally the process's own streams; when the embedded database is owned by
 * the running server, the command runs inside the server and its I/O travels over the local CLI socket.
 * Commands that touch the database must use `cliIO()` instead of `process.stdout` directly.
 */
export interface CliIO {
  stdin: Readable;
  out(text: string): void;
  err(text: string): void;
}

const storage = new AsyncLocalStorage<CliIO>();

const processIO: CliIO = {
  stdin: process.stdin,
  out: (t) => void process.stdout.write(t),
  err: (t) => void process.stderr.write(t),
};

export function cliIO(): CliIO {
  return storage.getStore() ?? processIO;
}

export function runWithIO<T>(io: CliIO, fn: () => Promise<T>): Promise<T> {
  return storage.run(io, fn);
}

/** Read all of stdin as text (for --password-stdin and similar). */
export async function readAllStdin(io = cliIO()): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of io.stdin) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(String(c)));
  return Buffer.concat(chunks).toString('utf8');
}

/** Minimal flag parser: `--name value`, `--flag`, positional arguments. */
export function parseArgs(argv: string[], booleans: string[] = []): { positional: string[]; flags: Record<string, string | true> } {
  const positional: string[] = [];
  const flags: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      if (eq > 0) flags[a.slice(2, eq)] = a.slice(eq + 1);
      else if (booleans.includes(a.slice(2)) || i + 1 >= argv.length || argv[i + 1]!.startsWith('--')) flags[a.slice(2)] = true;
      else flags[a.slice(2)] = argv[++i]!;
    } else positional.push(a);
  }
  return { positional, flags };
}

export class UsageError extends Error {}
