/**
 * `npm run --silent cli -- drg group [--version v43] [--codes strict|lenient] [--detail]`
 *
 * Reads JSON Lines cases on stdin, writes one JSON line per case on stdout, in input order,
 * streaming (constant memory; waits for stdout to drain). Field names: the oracle's
 * (`id, dx, pr, sex, alive, dischargeStatus, poa, hospitalStatus, version`) or the API's
 * (`dx_codes, pr_codes, gender, is_alive, discharge_status, hospital_status`). A line's `version`
 * overrides --version. Output: `{id, drg, mdc, type, return_code, initial_drg, ...}`; a line that
 * cannot be grouped gives `{id, error}` and the run goes on.
 *
 * Codes are read as the CMS grouper reads them (upper-cased, otherwise exact: "I21.4" is invalid)
 * unless --codes lenient is given.
 */
import readline from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { getGrouper, normalizeVersion, type Grouper } from './index';
import type { GroupInput } from './types';

export interface CliIo {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
}

const USAGE = `usage: drg group [--version v43] [--codes strict|lenient] [--detail]
  Groups JSON Lines cases from stdin; one JSON line per case on stdout.
  Input fields: id, dx|dx_codes, pr|pr_codes, sex|gender, alive|is_alive,
                dischargeStatus|discharge_status, poa, hospitalStatus|hospital_status, version
  --version   default grouper version (default v40); a line's "version" overrides it
  --codes     strict (default: as the CMS grouper, upper-case only) or lenient (also drop dots/blanks)
  --detail    write the full result object (per-code details, candidates) instead of the summary
`;

type Json = Record<string, unknown>;

function pick(o: Json, ...keys: string[]): unknown {
  for (const k of keys) if (o[k] !== undefined) return o[k];
  return undefined;
}

function codeArray(v: unknown, field: string): string[] {
  if (v === undefined || v === null) return [];
  if (typeof v === 'string') return v.split(/[\s,;]+/).filter(Boolean);
  if (!Array.isArray(v)) throw new Error(`${field} must be an array of codes`);
  return v.map((x) => (x === null || x === undefined ? '' : String(x)));
}

/** Map one input object (either naming) to a GroupInput. */
export function toGroupInput(o: Json): GroupInput {
  const dx = codeArray(pick(o, 'dx', 'dx_codes', 'diagnoses'), 'dx');
  const pr = codeArray(pick(o, 'pr', 'pr_codes', 'procedures'), 'pr');
  const sex = pick(o, 'sex', 'gender');
  const alive = pick(o, 'alive', 'is_alive');
  const ds = pick(o, 'dischargeStatus', 'discharge_status');
  const poa = pick(o, 'poa', 'poa_flags');
  const hs = pick(o, 'hospitalStatus', 'hospital_status');
  if (poa !== undefined && poa !== null && !Array.isArray(poa)) throw new Error('poa must be an array');
  return {
    dx,
    pr,
    sex: sex === undefined || sex === null ? '' : String(sex),
    alive: alive === undefined || alive === null ? undefined : alive === true || alive === 'true' || alive === 1 || alive === 'Y',
    dischargeStatus: ds === undefined ? undefined : (ds as string | number | null),
    poa: Array.isArray(poa) ? poa.map((p) => (p === null || p === undefined ? null : String(p))) : undefined,
    hospitalStatus: hs === undefined || hs === null ? undefined : String(hs),
  };
}

function idOf(line: string): unknown {
  const m = line.match(/"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?)/);
  if (!m) return null;
  try {
    return JSON.parse(m[1]);
  } catch {
    return null;
  }
}

const pad3 = (n: number) => String(n).padStart(3, '0');
const pad2 = (n: number) => String(n).padStart(2, '0');
const TYPE: Record<string, 'M' | 'P' | null> = { SURGICAL: 'P', MEDICAL: 'M', NA: null };
const MEDSURG: Record<string, string> = { SURGICAL: 'SURGICAL', MEDICAL: 'MEDICAL', NA: 'NONE' };

export async function run(argv: string[], io: CliIo = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  const args = [...argv];
  const cmd = args.shift();
  if (!cmd || cmd === '--help' || cmd === '-h' || cmd === 'help') {
    io.stdout.write(USAGE);
    return cmd ? 0 : 2;
  }
  if (cmd !== 'group') {
    io.stderr.write(`unknown drg command: ${cmd}\n${USAGE}`);
    return 2;
  }
  let defaultVersion: string | undefined;
  let lenient = false;
  let detail = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const val = () => {
      const eq = a.indexOf('=');
      if (eq >= 0) return a.slice(eq + 1);
      const v = args[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    try {
      if (a === '--version' || a.startsWith('--version=') || a === '-v') defaultVersion = val();
      else if (a === '--codes' || a.startsWith('--codes=')) {
        const v = val();
        if (v !== 'strict' && v !== 'lenient') throw new Error('--codes must be strict or lenient');
        lenient = v === 'lenient';
      } else if (a === '--lenient') lenient = true;
      else if (a === '--detail') detail = true;
      else if (a === '--help' || a === '-h') {
        io.stdout.write(USAGE);
        return 0;
      } else throw new Error(`unknown option ${a}`);
    } catch (e) {
      io.stderr.write(`${(e as Error).message}\n${USAGE}`);
      return 2;
    }
  }
  let dflt: string;
  try {
    dflt = normalizeVersion(defaultVersion);
    await getGrouper(dflt);
  } catch (e) {
    io.stderr.write(`${(e as Error).message}\n`);
    return 2;
  }

  const groupers = new Map<string, Grouper>();
  const grouperFor = async (v: unknown): Promise<Grouper> => {
    const key = v === undefined || v === null || v === '' ? dflt : String(v);
    let g = groupers.get(key);
    if (!g) {
      g = await getGrouper(normalizeVersion(key));
      groupers.set(key, g);
    }
    return g;
  };

  // Output is batched into ~64 KB writes; when stdout's buffer is full we wait for 'drain'.
  let buf = '';
  let failed = false;
  const out = io.stdout;
  const flush = async () => {
    if (!buf) return;
    const chunk = buf;
    buf = '';
    if (!out.write(chunk)) await new Promise<void>((res) => out.once('drain', () => res()));
  };
  const onError = () => {
    failed = true;
  };
  out.on('error', onError);

  const rl = readline.createInterface({ input: io.stdin, crlfDelay: Infinity });
  for await (const raw of rl) {
    const line = raw.trim();
    if (!line) continue;
    let res: Json;
    let id: unknown = null;
    try {
      const o = JSON.parse(line) as unknown;
      if (!o || typeof o !== 'object' || Array.isArray(o)) throw new Error('each line must be a JSON object');
      const obj = o as Json;
      id = obj.id ?? null;
      const g = await grouperFor(obj.version);
      const input = toGroupInput(obj);
      if (detail) {
        res = { id, ...g.group(input, { codes: lenient ? 'lenient' : 'strict' }) };
      } else {
        const r = g.groupCore(input, lenient ? 'lenient' : 'strict');
        res = {
          id,
          version: g.version,
          drg: pad3(r.drg),
          mdc: pad2(r.mdc),
          type: TYPE[r.surgical],
          med_surg: MEDSURG[r.surgical],
          return_code: r.grc,
          initial_drg: pad3(r.initialDrg),
          initial_mdc: pad2(r.initialMdc),
          initial_return_code: r.initialGrc,
        };
      }
    } catch (e) {
      if (id === null) id = idOf(line);
      res = { id, error: e instanceof Error ? e.message : String(e) };
    }
    buf += JSON.stringify(res) + '\n';
    if (buf.length >= 65536) await flush();
    if (failed) break;
  }
  await flush();
  out.off('error', onError);
  if (failed) {
    io.stderr.write('drg group: output stream closed\n');
    return 1;
  }
  return 0;
}
