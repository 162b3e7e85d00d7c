import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { run, toGroupInput } from './cli';

async function runCli(argv: string[], lines: string[], slow = false): Promise<{ code: number; out: string[]; err: string }> {
  const stdin = new PassThrough();
  const chunks: string[] = [];
  let err = '';
  // A consumer with a tiny buffer that acknowledges writes asynchronously (exercises backpressure).
  const stdout = new Writable({
    highWaterMark: slow ? 16 : 16384,
    write(chunk, _enc, cb) {
      chunks.push(String(chunk));
      if (slow) setTimeout(cb, 1);
      else cb();
    },
  });
  const stderr = new Writable({
    write(chunk, _enc, cb) {
      err += String(chunk);
      cb();
    },
  });
  const p = run(argv, { stdin, stdout, stderr });
  for (const l of lines) stdin.write(l + '\n');
  stdin.end();
  const code = await p;
  return { code, out: chunks.join('').split('\n').filter(Boolean), err };
}

describe('drg CLI', () => {
  it('maps both field namings', () => {
    expect(toGroupInput({ dx_codes: ['A'], pr_codes: 'B C', gender: 'F', is_alive: false, discharge_status: '20' })).toMatchObject({
      dx: ['A'],
      pr: ['B', 'C'],
      sex: 'F',
      alive: false,
      dischargeStatus: '20',
    });
  });

  it('streams one line per case, in order, and survives malformed lines', async () => {
    const lines = [
      JSON.stringify({ id: 'a', dx: ['I214', 'I5021'], pr: [], sex: 'M', alive: true }),
      '{not json, "id": "b"}',
      JSON.stringify({ id: 'c', dx_codes: ['I21.4'], gender: 'M', is_alive: true }),
      JSON.stringify({ id: 'd', dx: ['I214'], sex: 'M', version: 'v99' }),
      JSON.stringify({ id: 'e', dx: 'I214', sex: 'M', version: 'v43.1' }),
      '[1,2,3]',
      JSON.stringify({ id: 7, dx: ['I214'], pr: 'x', sex: 'M', poa: 'Y' }),
    ];
    const { code, out } = await runCli(['group', '--version', 'v43'], lines);
    expect(code).toBe(0);
    const res = out.map((l) => JSON.parse(l));
    expect(res.map((r) => r.id)).toEqual(['a', 'b', 'c', 'd', 'e', null, 7]);
    expect(res[0]).toMatchObject({ drg: '280', mdc: '05', type: 'M', return_code: 'OK', initial_drg: '280' });
    expect(res[1].error).toBeTruthy();
    expect(res[2]).toMatchObject({ drg: '999', return_code: 'INVALID_PDX' }); // strict codes by default
    expect(res[3].error).toMatch(/unknown MS-DRG version/);
    expect(res[4]).toMatchObject({ version: 'v43.1', drg: '282' });
    expect(res[5].error).toBeTruthy();
    expect(res[6].error).toMatch(/poa/);
  });

  it('reads codes leniently on request and writes full detail with --detail', async () => {
    const line = JSON.stringify({ id: 1, dx: ['i21.4', 'I50.21'], sex: 'M' });
    const { out } = await runCli(['group', '--version', 'v43', '--codes', 'lenient', '--detail'], [line]);
    const r = JSON.parse(out[0]);
    expect(r).toMatchObject({ id: 1, drg: '280', version: 'v43', fiscal_year: 'FY2026' });
    expect(r.dx[0].code).toBe('I214');
  });

  it('handles backpressure from a slow consumer without losing or reordering lines', async () => {
    const lines = Array.from({ length: 3000 }, (_, i) => JSON.stringify({ id: i, dx: ['I214'], sex: 'M' }));
    const { out } = await runCli(['group', '--version', 'v40'], lines, true);
    expect(out.length).toBe(3000);
    expect(out.every((l, i) => JSON.parse(l).id === i)).toBe(true);
  });

  it('rejects bad arguments with exit code 2', async () => {
    expect((await runCli(['group', '--version', 'v12'], [])).code).toBe(2);
    expect((await runCli(['group', '--bogus'], [])).code).toBe(2);
    expect((await runCli(['frobnicate'], [])).code).toBe(2);
  });
});
