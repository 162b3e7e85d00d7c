import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { log } from '../log';
import { runWithIO, type CliIO } from './io';

/**
 * The CLI socket. With the embedded database, only the server process may open PGlite; so while the server runs, a
 * CLI command that needs the database is executed inside the server: the CLI sends argv and stdin over a Unix socket
 * in the state folder (mode 0600, so only the same OS user can use it) and receives stdout, stderr and the exit code.
 *
 * Frames are JSON lines. Client → server: {"argv": [...]}, then {"in": base64}…, then {"end": true}.
 * Server → client: {"out": text} / {"err": text} …, then {"exit": code}.
 */
export function socketPath(stateDir: string): string {
  return path.join(stateDir, 'cli.sock');
}

export type CommandRunner = (argv: string[]) => Promise<number>;

export function startCliSocket(stateDir: string, run: CommandRunner): () => void {
  const p = socketPath(stateDir);
  fs.rmSync(p, { force: true });
  const server = net.createServer((conn) => {
    const stdin = new PassThrough();
    let buffer = '';
    let started = false;
    const send = (frame: object) => {
      if (!conn.destroyed) conn.write(JSON.stringify(frame) + '\n');
    };
    conn.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        let frame: { argv?: string[]; in?: string; end?: boolean };
        try {
          frame = JSON.parse(line) as typeof frame;
        } catch {
          conn.destroy();
          return;
        }
        if (frame.argv && !started) {
          started = true;
          const io: CliIO = { stdin, out: (t) => send({ out: t }), err: (t) => send({ err: t }) };
          runWithIO(io, () => run(frame.argv!))
            .catch((err: unknown) => {
              send({ err: `error: ${err instanceof Error ? err.message : String(err)}\n` });
              return 1;
            })
            .then((code) => {
              send({ exit: code });
              conn.end();
            });
        } else if (frame.in) stdin.write(Buffer.from(frame.in, 'base64'));
        else if (frame.end) stdin.end();
      }
    });
    conn.on('error', () => stdin.end());
  });
  server.listen(p, () => {
    try {
      fs.chmodSync(p, 0o600);
    } catch {
      /* best effort */
    }
  });
  server.on('error', (err) => log.warn('cli socket unavailable', { err: err.message }));
  return () => {
    server.close();
    fs.rmSync(p, { force: true });
  };
}

/** Forward a command to the running server. Resolves with the exit code. */
export function runRemote(stateDir: string, argv: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const conn = net.createConnection(socketPath(stateDir));
    let buffer = '';
    let exit: number | undefined;
    conn.on('connect', () => {
      conn.write(JSON.stringify({ argv }) + '\n');
      if (process.stdin.isTTY) {
        conn.write(JSON.stringify({ end: true }) + '\n');
        return;
      }
      process.stdin.on('data', (c: Buffer) => conn.write(JSON.stringify({ in: c.toString('base64') }) + '\n'));
      process.stdin.on('end', () => conn.write(JSON.stringify({ end: true }) + '\n'));
    });
    conn.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const frame = JSON.parse(buffer.slice(0, nl)) as { out?: string; err?: string; exit?: number };
        buffer = buffer.slice(nl + 1);
        if (frame.out !== undefined) process.stdout.write(frame.out);
        if (frame.err !== undefined) process.stderr.write(frame.err);
        if (frame.exit !== undefined) exit = frame.exit;
      }
    });
    conn.on('error', reject);
    conn.on('close', () => {
      process.stdin.pause();
      resolve(exit ?? 1);
    });
  });
}
