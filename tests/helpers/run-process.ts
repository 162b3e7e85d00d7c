import { spawn } from 'node:child_process';

export interface ProcessResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end with `stdin` written and closed; exit code (1 when killed), stdout and stderr. */
export function runProcess(command: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv; stdin?: string }): Promise<ProcessResult> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: opts.cwd, env: opts.env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.end(opts.stdin ?? '');
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}
