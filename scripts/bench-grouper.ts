/**
 * Grouper benchmark: `npm run bench:grouper [-- --versions v40,v43] [--seconds 3] [--all]`
 *
 * For each version: cold load (compile from the TSV tables into an empty cache folder), cached load
 * (from the compiled file), heap used by the loaded version, then throughput of the in-process fast
 * path (`groupCore`) and of the detailed path (`group`) on the oracle dev cases after a warm-up.
 * Single thread. Versions without their own oracle file use the nearest one (codes that version
 * does not know simply group as invalid).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { sharedDir } from '../server/config/paths';
import { getGrouper, grouperLoadStats, listVersions, resetGroupers, type GroupInput } from '../server/drg/index';

v8.setFlagsFromString('--expose-gc');
const gcNow = vm.runInNewContext('gc') as () => void;
/** Full collection, across a few ticks so that dropped promise chains are released too. */
async function gc(): Promise<void> {
  for (let i = 0; i < 4; i++) {
    gcNow();
    await new Promise((r) => setTimeout(r, 5));
  }
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const seconds = Number(arg('--seconds') ?? 3);
const all = process.argv.includes('--all');
const available = listVersions().filter((v) => v.fidelity === 'exact').map((v) => v.version);
const versions = (arg('--versions')?.split(',') ?? (all ? available : ['v39', 'v40', 'v43'].filter((v) => available.includes(v)))).map((v) => v.trim());

function casesFor(version: string): GroupInput[] {
  const major = Number(/^v(\d+)/.exec(version)?.[1] ?? 40);
  const files = [39, 40, 43].map((m) => ({ m, f: path.join(sharedDir(), 'oracle', `dev_cases_v${m}.jsonl`) })).filter((x) => fs.existsSync(x.f));
  if (files.length === 0) throw new Error('no oracle case files found');
  const best = files.reduce((a, b) => (Math.abs(b.m - major) < Math.abs(a.m - major) ? b : a));
  return fs
    .readFileSync(best.f, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => {
      const c = JSON.parse(l) as Record<string, unknown>;
      return {
        dx: c.dx as string[],
        pr: c.pr as string[],
        sex: c.sex as string,
        alive: c.alive as boolean,
        dischargeStatus: c.dischargeStatus as string | undefined,
        poa: c.poa as string[] | undefined,
        hospitalStatus: c.hospitalStatus as string | undefined,
      };
    });
}

function rate(fn: () => void, n: number): number {
  const t0 = performance.now();
  let done = 0;
  while (performance.now() - t0 < seconds * 1000) {
    fn();
    done += n;
  }
  return (done / (performance.now() - t0)) * 1000;
}

async function main() {
  const rows: string[][] = [];
  const realCache = process.env.CODING_CACHE_DIR;
  for (const v of versions) {
    // Cold: compile into an empty, temporary cache folder.
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'drg-bench-'));
    process.env.CODING_CACHE_DIR = tmp;
    resetGroupers();
    await gc();
    const t0 = performance.now();
    await getGrouper(v);
    const cold = performance.now() - t0;
    // Cached: reload from the compiled file just written.
    resetGroupers();
    await gc();
    const h0 = process.memoryUsage().heapUsed;
    const x0 = process.memoryUsage().arrayBuffers;
    const t1 = performance.now();
    const g = await getGrouper(v);
    const cached = performance.now() - t1;
    const fromCache = grouperLoadStats(v)?.fromCache;
    await gc();
    const heap = (process.memoryUsage().heapUsed - h0) / 1e6;
    const ext = (process.memoryUsage().arrayBuffers - x0) / 1e6;
    fs.rmSync(tmp, { recursive: true, force: true });
    if (realCache === undefined) delete process.env.CODING_CACHE_DIR;
    else process.env.CODING_CACHE_DIR = realCache;

    const cases = casesFor(v);
    const core = () => {
      for (const c of cases) g.groupCore(c);
    };
    const detail = () => {
      for (const c of cases) g.group(c, { codes: 'strict' });
    };
    for (let i = 0; i < 5; i++) core();
    for (let i = 0; i < 2; i++) detail();
    const coreRate = rate(core, cases.length);
    const detailRate = rate(detail, cases.length);
    rows.push([
      v,
      cold.toFixed(0),
      `${cached.toFixed(0)}${fromCache ? '' : ' (!)'}`,
      heap.toFixed(1),
      ext.toFixed(1),
      Math.round(coreRate).toLocaleString('en-US'),
      Math.round(detailRate).toLocaleString('en-US'),
      String(cases.length),
    ]);
  }
  const head = ['version', 'cold load ms', 'cached load ms', 'heap MB', 'buffers MB', 'cases/s (core)', 'cases/s (detail)', 'cases'];
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const fmt = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(w[i]) : c.padStart(w[i]))).join('  ');
  process.stdout.write(`MS-DRG grouper benchmark (node ${process.version}, ${os.cpus()[0]?.model ?? 'cpu'}, single thread, ${seconds}s per measurement)\n`);
  process.stdout.write(fmt(head) + '\n' + rows.map(fmt).join('\n') + '\n');
  process.stdout.write(`heap MB: JS heap used by one loaded version (after GC); buffers MB: its typed arrays (outside the heap). core = groupCore (CLI/batch path), detail = group() with per-code details.\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`bench-grouper failed: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exitCode = 1;
});
