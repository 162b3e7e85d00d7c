/**
 * Agreement with the official CMS MCE 2.0 (v43.1) on `../shared/oracle/mce_dev.jsonl` (3,000 claims covering every
 * edit type that can fire for FY2025–26): per claim the set of edit names, the codes per edit (case-insensitive, dots
 * ignored) and the claim's edit type – and the extra detail the oracle carries (counts, positions, the admit
 * diagnosis's own edits). Through the core and through the CLI (`drg edit`, the held-out path).
 */
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { sharedDir } from '../config/paths';
import { run, toMceClaim } from '../drg/cli';
import { editClaim, mceAvailable } from './index';

interface OracleClaim {
  id: string;
  tag: string;
  expected: {
    version: number;
    edit_type: string;
    edits: Array<{ name: string; type: string; count: number; codes: string[]; positions: string[] }>;
    admit_dx_edits?: string[];
  };
  [k: string]: unknown;
}

const file = path.join(sharedDir(), 'oracle', 'mce_dev.jsonl');
const present = fs.existsSync(file) && mceAvailable();
const claims = (): OracleClaim[] =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as OracleClaim);
const codeSet = (codes: string[]) => [...new Set(codes.map((c) => c.toUpperCase().replace(/\./g, '')))].sort();

function compare(
  c: OracleClaim,
  got: { edit_type: string; edits: Array<{ name: string; codes: string[]; count: number; positions: string[] }>; admit_dx_edits?: string[] },
) {
  const e = c.expected;
  const names = (xs: Array<{ name: string }>) => xs.map((x) => x.name).sort();
  return {
    names: JSON.stringify(names(got.edits)) === JSON.stringify(names(e.edits)),
    codes: e.edits.every((x) => JSON.stringify(codeSet(got.edits.find((g) => g.name === x.name)?.codes ?? [])) === JSON.stringify(codeSet(x.codes))),
    disposition: got.edit_type === e.edit_type,
    counts: e.edits.every((x) => got.edits.find((g) => g.name === x.name)?.count === x.count),
    positions: e.edits.every((x) => JSON.stringify(got.edits.find((g) => g.name === x.name)?.positions) === JSON.stringify(x.positions)),
    admit: JSON.stringify(got.admit_dx_edits) === JSON.stringify(e.admit_dx_edits),
  };
}

describe.skipIf(!present)('MCE oracle mce_dev.jsonl (CMS MCE 2.0, v43.1)', () => {
  it('agrees 100%: edit names, codes per edit, disposition (and counts, positions, admit-dx edits)', () => {
    const all = claims();
    expect(all.length).toBe(3000);
    const miss: Record<string, string[]> = { names: [], codes: [], disposition: [], counts: [], positions: [], admit: [] };
    const seen = new Set<string>();
    for (const c of all) {
      const r = editClaim(toMceClaim(c));
      for (const x of r.edits) seen.add(x.name);
      const got = { edit_type: r.editType, edits: r.edits, ...(r.admitDxEdits ? { admit_dx_edits: r.admitDxEdits } : {}) };
      for (const [k, ok] of Object.entries(compare(c, got))) if (!ok) miss[k].push(`${c.id} (${c.tag})`);
    }
    console.info(
      `[mce oracle] ${all.length} claims, ${seen.size} edit types raised: ` +
        Object.entries(miss)
          .map(([k, v]) => `${k} ${(100 * (1 - v.length / all.length)).toFixed(2)}%`)
          .join(', '),
    );
    // every edit the README lists as reachable in FY2025–26 is exercised
    expect(seen.size).toBe(18);
    for (const v of Object.values(miss)) expect(v).toEqual([]);
  });

  it('gives each claim the same answer in any order (the per-day code memo and date tables carry no state between claims)', () => {
    const all = claims().map(toMceClaim);
    const inOrder = all.map((c) => JSON.stringify(editClaim(c)));
    // a seeded shuffle, twice over, so claims of different dates and ICD versions interleave
    let seed = 12345;
    const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    const order = [...all.keys(), ...all.keys()].sort(() => rnd() - 0.5);
    const dates = new Set(all.map((c) => String(c.dischargeDate)));
    expect(dates.size).toBeGreaterThan(10);
    const differ = order.filter((i) => JSON.stringify(editClaim(all[i]!)) !== inOrder[i]);
    expect(differ).toEqual([]);
  });

  it('agrees 100% through the CLI (`drg edit`), and `drg edit --score` reports it', async () => {
    const runCli = async (args: string[]) => {
      const stdin = new PassThrough();
      let out = '';
      const stdout = new Writable({
        write(chunk, _e, cb) {
          out += String(chunk);
          cb();
        },
      });
      const p = run(args, { stdin, stdout, stderr: new PassThrough() });
      stdin.end(fs.readFileSync(file));
      expect(await p).toBe(0);
      return out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    };
    const got = await runCli(['edit']);
    const all = claims();
    expect(got.length).toBe(all.length);
    const bad = all.filter((c, i) => {
      const g = got[i] as {
        id: string;
        version: number;
        edit_type: string;
        edits: Array<{ name: string; codes: string[]; count: number; positions: string[] }>;
        admit_dx_edits?: string[];
      };
      const r = compare(c, g);
      return g.id !== c.id || g.version !== c.expected.version || !Object.values(r).every(Boolean);
    });
    expect(bad.map((c) => c.id)).toEqual([]);
    const [summary] = await runCli(['edit', '--score']);
    expect(summary).toMatchObject({ scored: 3000, agree: 3000, agree_pct: 100, mismatches: [] });
  });
});
