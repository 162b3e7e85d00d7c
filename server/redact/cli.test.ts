import { describe, expect, it } from 'vitest';
import { processLine } from './cli';

describe('cli processLine', () => {
  it('returns code-point offsets (Python indices) even after astral characters', () => {
    const text = '\u{1F600}\u{1F600} Pt Tan Ah Kow tel 012-345 6789';
    const out = processLine(JSON.stringify({ id: 'a', text })) as { entities: Array<{ start: number; end: number; type: string }>; redacted_text: string };
    const cps = Array.from(text);
    const spans = out.entities.map((e) => [cps.slice(e.start, e.end).join(''), e.type]);
    expect(spans).toEqual([
      ['Tan Ah Kow', 'PERSON'],
      ['012-345 6789', 'PHONE'],
    ]);
    expect(out.redacted_text).toBe('\u{1F600}\u{1F600} Pt [PERSON_1] tel [PHONE_1]');
  });
  it('reports malformed lines without crashing', () => {
    expect(processLine('{not json')).toEqual({ id: null, error: 'invalid JSON' });
    expect(processLine('[1,2]')).toEqual({ id: null, error: 'line must be a JSON object' });
    expect(processLine('{"id":"x"}')).toEqual({ id: 'x', error: 'missing string field "text"' });
  });
  it('can omit the mapping', () => {
    const out = processLine(JSON.stringify({ id: 1, text: 'Dr. Lim Wei Ming' }), false);
    expect(out).toEqual({ id: 1, redacted_text: 'Dr. [PERSON_1]', entities: [{ start: 4, end: 16, type: 'PERSON' }] });
  });
});

describe('redact CLI process', () => {
  // the whole command as a user runs it: lines spread over worker threads come back complete and in input order,
  // identical to the in-thread answers
  it('redacts on several threads and keeps the input order (and the bad lines) exactly as one thread would', async () => {
    const { spawn } = await import('node:child_process');
    const path = await import('node:path');
    const { projectRoot } = await import('../config/paths');
    const names = ['Tan Ah Kow', 'Siti Aminah binti Yusof', 'Rajesh a/l Muthu', 'Peter anak Entalai'];
    const lines: string[] = [];
    for (let i = 0; i < 90; i++) {
      if (i % 29 === 7) lines.push('{broken');
      lines.push(
        JSON.stringify({
          id: `n${i}`,
          text:
            `Pt ${names[i % 4]} IC 8${i % 10}0101-14-${String(1000 + i)}, tel 012-345 ${6000 + i}. Hb ${10 + (i % 5)}.${i % 10} g/dL` +
            ' Plan: review.'.repeat(i % 7),
        }),
      );
    }
    const input = lines.join('\n') + '\n';
    const runCli = (threads: number) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(
          process.execPath,
          [path.join(projectRoot, 'node_modules/tsx/dist/cli.mjs'), 'server/cli/main.ts', 'redact', '--threads', String(threads)],
          { cwd: projectRoot },
        );
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        child.stdin.end(input);
        child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
      });
    const threaded = await runCli(3);
    expect(threaded.code).toBe(0);
    const expected = lines.map((l) => JSON.stringify(processLine(l)) + '\n').join('');
    expect(threaded.stdout).toBe(expected);
    expect(threaded.stderr).toContain(`${lines.filter((l) => l === '{broken').length} line(s) failed`);
    const redacted = threaded.stdout
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { redacted_text?: string }).redacted_text ?? '');
    expect(redacted.filter((t) => t.includes('[PERSON_1]') && t.includes('[MY_IC_1]') && t.includes('[PHONE_1]'))).toHaveLength(90);
    expect(redacted.join('\n')).not.toMatch(/Entalai|Muthu|-14-10/);
  }, 120_000);
});
