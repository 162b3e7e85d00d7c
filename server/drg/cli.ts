/**
 * `npm run --silent cli -- drg group [--version v43] [--codes strict|lenient] [--detail] [--edits] [--score]`
 * `npm run --silent cli -- drg edit [--score]`
 *
 * JSON Lines in, one JSON line per input line out, in input order, streaming (constant memory; waits for stdout to
 * drain). A line that cannot be handled gives `{id, error}` and the run goes on.
 *
 * group – the MS-DRG of each case. Field names: the oracle's (`id, dx, pr, sex, alive, dischargeStatus, poa,
 *   hospitalStatus, version`) or the API's (`dx_codes, pr_codes, gender, is_alive, discharge_status,
 *   hospital_status`). A line's `version` overrides --version. Codes are read as the CMS grouper reads them
 *   (upper-cased, otherwise exact: "I21.4" is invalid) unless --codes lenient. `--edits` adds the Medicare Code
 *   Editor's edits (`discharge_date`, `age`, `los` / `length_of_stay`, `admit_dx` are read when present).
 * edit – the Medicare Code Editor alone, with the CMS MCE's own inputs and output: `discharge_date` (YYYY-MM-DD or
 *   YYYYMMDD), `age`, `sex` (M/F/U; anything else is invalid), `discharge_status`, `los`, `dx`, `pr`, `admit_dx`,
 *   `icd_version` (10, or 9 for ICD-9 claims); out `{id, version, edit_type, edits: [{name, type, count, codes,
 *   positions}], admit_dx_edits}` – the shape of `expected` in the MCE oracle files.
 * --score – for input lines that carry an `expected` answer (the oracle files): print one JSON summary of the
 *   agreement instead of the results.
 */
import type { Readable, Writable } from 'node:stream';
import type { MessagePort, Worker } from 'node:worker_threads';
import { editClaim, mceAvailable, mceSex, type MceClaim, type MceResult } from '../mce';
import { getGrouper, normalizeVersion, type Grouper } from './index';
import { editsForCase } from './mce';
import type { GroupInput } from './types';

export interface CliIo {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
}

const USAGE = `usage: drg group [--version v43] [--codes strict|lenient] [--detail] [--edits] [--score]
       drg edit [--score]
  JSON Lines on stdin; one JSON line per input line on stdout.
  group   the MS-DRG. Input fields: id, dx|dx_codes, pr|pr_codes, sex|gender, alive|is_alive,
          dischargeStatus|discharge_status, poa, hospitalStatus|hospital_status, version
    --version   default grouper version (default v40); a line's "version" overrides it
    --codes     strict (default: as the CMS grouper, upper-case only) or lenient (also drop dots/blanks)
    --detail    write the full result object (per-code details, candidates) instead of the summary
    --edits     add the Medicare Code Editor's edits (reads discharge_date, age, los, admit_dx when present)
  edit    the Medicare Code Editor (CMS MCE 2.0 tables). Input fields: id, discharge_date, age, sex (M/F/U),
          discharge_status, los, dx, pr, admit_dx, icd_version (10 default, or 9)
  --score   lines with an "expected" answer (oracle files): print one JSON summary of the agreement
  --threads worker threads for a long input (from its 8,193rd line on; default one per core, at most 4; 1 = none)
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
  for (let i = 0; i < v.length; i++) {
    if (typeof v[i] !== 'string') return v.map((x) => (x === null || x === undefined ? '' : String(x)));
  }
  return v as string[];
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

/** A number from a number or a numeric string; null when absent or not a number. */
function numberOrNull(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && /^\s*-?\d+\s*$/.test(v)) return Number(v);
  return null;
}

/** Map one input object (the MCE oracle's fields, or the API's) to an MCE claim. */
export function toMceClaim(o: Json): MceClaim {
  const icd = pick(o, 'icd_version', 'icdVersion');
  const admit = pick(o, 'admit_dx', 'admitDx', 'admitting_dx');
  const date = pick(o, 'discharge_date', 'dischargeDate');
  return {
    dischargeDate: typeof date === 'string' || typeof date === 'number' ? date : null,
    icdVersion: icd === 9 || icd === '9' ? 9 : 10,
    age: numberOrNull(pick(o, 'age')),
    sex: mceSex(pick(o, 'sex', 'gender')),
    dischargeStatus: numberOrNull(pick(o, 'discharge_status', 'dischargeStatus')),
    los: numberOrNull(pick(o, 'los', 'length_of_stay')),
    dx: codeArray(pick(o, 'dx', 'dx_codes'), 'dx'),
    pr: codeArray(pick(o, 'pr', 'pr_codes'), 'pr'),
    admitDx: admit === undefined || admit === null ? null : String(admit),
  };
}

/** `drg group --edits`: the line's MCE inputs beside the grouper's. */
function caseEdits(obj: Json, input: GroupInput, g: Grouper) {
  const c = toMceClaim(obj);
  const date = c.dischargeDate === null || c.dischargeDate === undefined ? null : String(c.dischargeDate);
  return editsForCase(
    { dx: input.dx, pr: input.pr, sex: input.sex, age: c.age, dischargeDate: date, dischargeStatus: c.dischargeStatus, los: c.los, admitDx: c.admitDx },
    g,
  );
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

const PAD3 = Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, '0'));
const PAD2 = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, '0'));
const TYPE_JSON: Record<string, string> = { SURGICAL: '"P"', MEDICAL: '"M"', NA: 'null' };
const MEDSURG: Record<string, string> = { SURGICAL: 'SURGICAL', MEDICAL: 'MEDICAL', NA: 'NONE' };

/** The MCE result in the oracle's shape (`expected` of mce_dev.jsonl). */
function mceOutput(r: MceResult): Json {
  const out: Json = {
    version: Number(r.version) || r.version,
    edit_type: r.editType,
    edits: r.edits.map((e) => ({ name: e.name, type: e.type, count: e.count, codes: e.codes, positions: e.positions })),
  };
  if (r.admitDxEdits) out.admit_dx_edits = r.admitDxEdits;
  if (r.notChecked.length) out.not_checked = r.notChecked;
  if (r.dateProblem) out.discharge_date_problem = r.dateProblem;
  return out;
}

// ---------------------------------------------------------------------------------------------
// Scoring against `expected`

const normCode = (c: string) => String(c).toUpperCase().replace(/\./g, '');

class EditScore {
  claims = 0;
  names = 0;
  codes = 0;
  disposition = 0;
  all = 0;
  counts = 0;
  positions = 0;
  admit = 0;
  mismatches: string[] = [];

  add(id: unknown, got: MceResult, expected: Json): void {
    this.claims++;
    const exp = (expected.edits as Array<{ name: string; codes: string[]; count: number; positions: string[] }>) ?? [];
    const key = (xs: Array<{ name: string }>) =>
      xs
        .map((x) => x.name)
        .sort()
        .join(',');
    const namesOk = key(got.edits) === key(exp);
    const codesOk =
      namesOk &&
      exp.every((e) => {
        const g = got.edits.find((x) => x.name === e.name);
        const a = new Set((g?.codes ?? []).map(normCode));
        const b = new Set(e.codes.map(normCode));
        return a.size === b.size && [...a].every((c) => b.has(c));
      });
    const dispOk = got.editType === expected.edit_type;
    if (namesOk) this.names++;
    if (codesOk) this.codes++;
    if (dispOk) this.disposition++;
    if (namesOk && codesOk && dispOk) this.all++;
    else if (this.mismatches.length < 20) this.mismatches.push(String(id));
    if (namesOk && exp.every((e) => got.edits.find((x) => x.name === e.name)?.count === e.count)) this.counts++;
    if (namesOk && exp.every((e) => JSON.stringify(got.edits.find((x) => x.name === e.name)?.positions) === JSON.stringify(e.positions))) this.positions++;
    if (JSON.stringify(got.admitDxEdits ?? undefined) === JSON.stringify(expected.admit_dx_edits)) this.admit++;
  }

  summary(): Json {
    const pct = (n: number) => (this.claims ? Math.round((10000 * n) / this.claims) / 100 : 0);
    return {
      scored: this.claims,
      agree: this.all,
      agree_pct: pct(this.all),
      edit_names_pct: pct(this.names),
      codes_per_edit_pct: pct(this.codes),
      disposition_pct: pct(this.disposition),
      counts_pct: pct(this.counts),
      positions_pct: pct(this.positions),
      admit_dx_edits_pct: pct(this.admit),
      mismatches: this.mismatches,
    };
  }
}

class GroupScore {
  cases = 0;
  agree = 0;
  fields: Record<string, number> = { drg: 0, mdc: 0, return_code: 0, initial_drg: 0, initial_mdc: 0, initial_return_code: 0 };
  present: Record<string, number> = { drg: 0, mdc: 0, return_code: 0, initial_drg: 0, initial_mdc: 0, initial_return_code: 0 };
  mismatches: string[] = [];

  add(id: unknown, got: { drg: number; mdc: number; grc: string; initialDrg: number; initialMdc: number; initialGrc: string }, e: Json): void {
    this.cases++;
    const checks: Array<[string, unknown, unknown]> = [
      ['drg', got.drg, e.drg],
      ['mdc', got.mdc, e.mdc],
      ['return_code', got.grc, e.grc],
      ['initial_drg', got.initialDrg, e.initialDrg],
      ['initial_mdc', got.initialMdc, e.initialMdc],
      ['initial_return_code', got.initialGrc, e.initialGrc],
    ];
    let ok = true;
    for (const [k, g, x] of checks) {
      if (x === undefined) continue;
      this.present[k]++;
      if (typeof x === 'number' ? Number(g) === x : g === x) this.fields[k]++;
      else ok = false;
    }
    if (ok) this.agree++;
    else if (this.mismatches.length < 20) this.mismatches.push(String(id));
  }

  summary(): Json {
    const pct = (n: number, d: number) => (d ? Math.round((10000 * n) / d) / 100 : null);
    return {
      scored: this.cases,
      agree: this.agree,
      agree_pct: pct(this.agree, this.cases),
      ...Object.fromEntries(Object.keys(this.fields).map((k) => [`${k}_pct`, pct(this.fields[k], this.present[k])])),
      mismatches: this.mismatches,
    };
  }
}

// ---------------------------------------------------------------------------------------------

/** A parsed command line: what to do with each input line. */
interface Session {
  cmd: 'group' | 'edit';
  score: boolean;
  /** `--threads N`, when given (else the caller's default). */
  threads: number | null;
  /** One input line → its output line ('' for a blank line, or when scoring); a promise only while a version loads. */
  line(raw: string): string | Promise<string>;
  /** The --score summary line. */
  summary(): string;
}

/** Parses the arguments and loads the default version; an exit code when they are wrong (usage written to stderr). */
async function session(argv: string[], io: Pick<CliIo, 'stdout' | 'stderr'>): Promise<Session | number> {
  const args = [...argv];
  const cmd = args.shift();
  if (!cmd || cmd === '--help' || cmd === '-h' || cmd === 'help') {
    io.stdout.write(USAGE);
    return cmd ? 0 : 2;
  }
  if (cmd !== 'group' && cmd !== 'edit') {
    io.stderr.write(`unknown drg command: ${cmd}\n${USAGE}`);
    return 2;
  }
  let defaultVersion: string | undefined;
  let lenient = false;
  let detail = false;
  let edits = cmd === 'edit';
  let score = false;
  let threads: number | null = null;
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
      if (cmd === 'group' && (a === '--version' || a.startsWith('--version=') || a === '-v')) defaultVersion = val();
      else if (cmd === 'group' && (a === '--codes' || a.startsWith('--codes='))) {
        const v = val();
        if (v !== 'strict' && v !== 'lenient') throw new Error('--codes must be strict or lenient');
        lenient = v === 'lenient';
      } else if (cmd === 'group' && a === '--lenient') lenient = true;
      else if (cmd === 'group' && a === '--detail') detail = true;
      else if (cmd === 'group' && a === '--edits') edits = true;
      else if (a === '--score') score = true;
      else if (a === '--threads' || a.startsWith('--threads=')) {
        const v = val();
        if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > 16) throw new Error('--threads must be a whole number from 1 to 16');
        threads = Number(v);
      } else if (a === '--help' || a === '-h') {
        io.stdout.write(USAGE);
        return 0;
      } else throw new Error(`unknown option ${a}`);
    } catch (e) {
      io.stderr.write(`${(e as Error).message}\n${USAGE}`);
      return 2;
    }
  }
  if (edits && !mceAvailable()) {
    io.stderr.write('the Medicare Code Editor tables are not in the data folder ($CODING_DATA_DIR/mce)\n');
    return 2;
  }
  let dflt = '';
  if (cmd === 'group') {
    try {
      dflt = normalizeVersion(defaultVersion);
      await getGrouper(dflt);
    } catch (e) {
      io.stderr.write(`${(e as Error).message}\n`);
      return 2;
    }
  }

  const groupers = new Map<string, Grouper>();
  /** The grouper of a line's version: synchronous once loaded (a load happens once per version). */
  const grouperFor = (v: unknown): Grouper | Promise<Grouper> => {
    const key = v === undefined || v === null || v === '' ? dflt : String(v);
    const g = groupers.get(key);
    if (g) return g;
    return getGrouper(normalizeVersion(key)).then((x) => {
      groupers.set(key, x);
      return x;
    });
  };
  const codes = lenient ? 'lenient' : 'strict';
  const editScore = new EditScore();
  const groupScore = new GroupScore();

  /** One input object → its output line ('' when scoring). */
  const handle = (obj: Json, g: Grouper | null): string => {
    const id = obj.id ?? null;
    const expected = score && obj.expected && typeof obj.expected === 'object' ? (obj.expected as Json) : null;
    if (cmd === 'edit' || !g) {
      const r = editClaim(toMceClaim(obj));
      if (expected) editScore.add(id, r, expected);
      return score ? '' : JSON.stringify({ id, ...mceOutput(r) });
    }
    const input = toGroupInput(obj);
    if (detail) {
      const r = g.group(input, { codes });
      if (expected)
        groupScore.add(
          id,
          {
            drg: Number(r.drg),
            mdc: Number(r.mdc),
            grc: r.return_code,
            initialDrg: Number(r.initial_drg),
            initialMdc: Number(r.initial_mdc),
            initialGrc: r.initial_return_code,
          },
          expected,
        );
      return score ? '' : JSON.stringify(edits ? { id, ...r, edits: caseEdits(obj, input, g) } : { id, ...r });
    }
    const r = g.groupCore(input, codes);
    if (expected) groupScore.add(id, r, expected);
    if (score) return '';
    // Written by hand: the whole-process path writes 100,000s of these.
    let text =
      `{"id":${JSON.stringify(id)},"version":"${g.version}","drg":"${PAD3[r.drg] ?? r.drg}","mdc":"${PAD2[r.mdc] ?? r.mdc}","type":${TYPE_JSON[r.surgical]},` +
      `"med_surg":"${MEDSURG[r.surgical]}","return_code":"${r.grc}","initial_drg":"${PAD3[r.initialDrg] ?? r.initialDrg}","initial_mdc":"${PAD2[r.initialMdc] ?? r.initialMdc}",` +
      `"initial_return_code":"${r.initialGrc}"`;
    if (r.ghostDrg) {
      const note = `${g.version} is derived and has no DRG ${PAD3[r.ghostDrg]}, which the base version's logic gives this case; it was grouped by the rows that follow (uncertain)`;
      text += `,"note":${JSON.stringify(note)}`;
    }
    if (edits) text += `,"edits":${JSON.stringify(caseEdits(obj, input, g))}`;
    return text + '}';
  };
  const errorLine = (line: string, id: unknown, e: unknown) => JSON.stringify({ id: id ?? idOf(line), error: e instanceof Error ? e.message : String(e) });

  const line = (raw: string): string | Promise<string> => {
    const l = raw.trim();
    if (!l) return '';
    let id: unknown = null;
    try {
      const o = JSON.parse(l) as unknown;
      if (!o || typeof o !== 'object' || Array.isArray(o)) throw new Error('each line must be a JSON object');
      const obj = o as Json;
      id = obj.id ?? null;
      if (cmd === 'edit') return handle(obj, null);
      const got = grouperFor(obj.version);
      if (!(got instanceof Promise)) return handle(obj, got);
      return got.then(
        (g) => {
          try {
            return handle(obj, g);
          } catch (e) {
            return errorLine(l, id, e);
          }
        },
        (e: unknown) => errorLine(l, id, e),
      );
    } catch (e) {
      return errorLine(l, id, e);
    }
  };
  return { cmd, score, threads, line, summary: () => JSON.stringify(cmd === 'edit' ? editScore.summary() : groupScore.summary()) };
}

/** Runs a session over a block of complete lines: their output lines, each ending in a newline. */
async function block(s: Session, text: string): Promise<string> {
  let out = '';
  let start = 0;
  while (start < text.length) {
    let nl = text.indexOf('\n', start);
    if (nl < 0) nl = text.length;
    const t = s.line(text.slice(start, nl));
    const r = typeof t === 'string' ? t : await t;
    if (r) out += r + '\n';
    start = nl + 1;
  }
  return out;
}

/**
 * How `run` may spread the work over threads. A run starts on its own thread; once it has read `afterLines` lines
 * (so a small input never pays for threads) it hands blocks of lines to `threads` workers from `workerUrl` (a module
 * that calls `serveDrgWorker()` when loaded in a worker), started at a quarter of that so they are loaded by then,
 * and writes their output in input order.
 */
export interface ThreadOptions {
  workerUrl: URL;
  /** Workers when the arguments do not say (`--threads N`); 1 = none. */
  threads: number;
  afterLines?: number;
}

/** Worker side of `ThreadOptions`: answers `{seq, text}` blocks with `{seq, out}` (or `{seq, error}`). */
export async function serveDrgWorker(port: MessagePort, argv: string[]): Promise<void> {
  const sink = { write: () => true } as unknown as Writable;
  const s = await session(argv, { stdout: sink, stderr: sink });
  const p = port;
  p.on('message', (m: { seq: number; text: string }) => {
    if (typeof s === 'number') {
      p.postMessage({ seq: m.seq, error: 'the worker could not start this command' });
      return;
    }
    block(s, m.text).then(
      (out) => p.postMessage({ seq: m.seq, out }),
      (e: unknown) => p.postMessage({ seq: m.seq, error: e instanceof Error ? e.message : String(e) }),
    );
  });
}

/** Workers answering blocks of lines; results are handed back in the order the blocks were sent. */
class LinePool {
  private readonly workers: Worker[] = [];
  private closing = false;
  private readonly waiting = new Map<number, { resolve: (out: string) => void; reject: (e: Error) => void }>();
  private sent = 0;
  private failure: Error | null = null;

  static async start(opts: ThreadOptions, argv: string[]): Promise<LinePool> {
    const { Worker: WorkerThread } = await import('node:worker_threads');
    const pool = new LinePool();
    for (let i = 0; i < opts.threads; i++) {
      const w = new WorkerThread(opts.workerUrl, { workerData: { drgWorker: true, argv }, stdout: false, stderr: false });
      w.on('message', (m: { seq: number; out?: string; error?: string }) => {
        const h = pool.waiting.get(m.seq);
        pool.waiting.delete(m.seq);
        if (m.error !== undefined) h?.reject(new Error(m.error));
        else h?.resolve(m.out ?? '');
      });
      w.on('error', (e) => pool.fail(e));
      w.on('exit', (code) => {
        if (code !== 0 && !pool.closing) pool.fail(new Error(`a worker thread exited with code ${code}`));
      });
      pool.workers.push(w);
    }
    return pool;
  }

  private fail(e: Error): void {
    this.failure ??= e;
    for (const h of this.waiting.values()) h.reject(e);
    this.waiting.clear();
  }

  /** Sends a block of complete lines to the next worker; resolves with its output. */
  send(text: string): Promise<string> {
    if (this.failure) return Promise.reject(this.failure);
    const seq = this.sent++;
    const w = this.workers[seq % this.workers.length]!;
    return new Promise<string>((resolve, reject) => {
      this.waiting.set(seq, { resolve, reject });
      w.postMessage({ seq, text });
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

export async function run(
  argv: string[],
  io: CliIo = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr },
  threading?: ThreadOptions,
): Promise<number> {
  const s = await session(argv, io);
  if (typeof s === 'number') return s;

  // Output is batched into ~64 KB writes; when stdout's buffer is full we wait for 'drain'.
  let buf = '';
  let failed = false;
  const out = io.stdout;
  const write = async (text: string) => {
    if (!text) return;
    if (!out.write(text)) await new Promise<void>((res) => out.once('drain', () => res()));
  };
  const flush = async () => {
    const chunk = buf;
    buf = '';
    await write(chunk);
  };
  const onError = () => {
    failed = true;
  };
  out.on('error', onError);

  // Threads: never for --score (one summary over all lines), and only once the input proves long.
  const threads = s.threads ?? threading?.threads ?? 1;
  const useThreads = threading && threads > 1 && !s.score ? { ...threading, threads } : null;
  const afterLines = useThreads?.afterLines ?? 8192;
  /** Workers are started a quarter of the way there, so they have loaded by the time they get work. */
  const warmLines = Math.floor(afterLines / 4);
  let pool: LinePool | null = null;
  let pooled = false;
  /** Blocks sent to the pool and not yet written, in input order; bounded so memory stays flat. */
  const inFlight: Array<Promise<string>> = [];
  let pending = '';
  let seen = 0;
  let poolError: Error | null = null;
  const drainOne = async () => {
    try {
      await write(await inFlight.shift()!);
    } catch (e) {
      poolError ??= e instanceof Error ? e : new Error(String(e));
    }
  };
  const dispatch = async (text: string) => {
    const sent = pool!.send(text);
    sent.catch(() => undefined); // a failure is reported once, by drainOne, not as an unhandled rejection
    inFlight.push(sent);
    while (inFlight.length > 2 * useThreads!.threads + 2 && !poolError) await drainOne();
  };

  // Lines are split from the raw chunks and handled synchronously; the loop awaits only to load a version or to let
  // stdout drain (readline's per-line events would cost more than grouping a case).
  io.stdin.setEncoding('utf8');
  let rest = '';
  try {
    outer: for await (const chunk of io.stdin as AsyncIterable<string>) {
      const text = rest ? rest + chunk : chunk;
      const lastNl = text.lastIndexOf('\n');
      if (pooled) {
        // whole lines to the workers in blocks of about 256 KB
        rest = text.slice(lastNl + 1);
        if (lastNl >= 0) pending += text.slice(0, lastNl + 1);
        if (pending.length >= 262_144) {
          await dispatch(pending);
          pending = '';
        }
        if (failed || poolError) break outer;
        continue;
      }
      let start = 0;
      for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
        const t = s.line(text.slice(start, nl));
        const r = typeof t === 'string' ? t : await t;
        if (r) buf += r + '\n';
        start = nl + 1;
        seen++;
        if (buf.length >= 65536) await flush();
        if (failed) break outer;
      }
      rest = text.slice(start);
      if (useThreads && !pool && seen >= warmLines) pool = await LinePool.start(useThreads, argv);
      if (pool && seen >= afterLines) {
        await flush();
        pooled = true;
      }
    }
    if (pooled) {
      if (rest) pending += rest;
      rest = '';
      if (pending) await dispatch(pending);
      while (inFlight.length && !poolError) await drainOne();
    }
  } finally {
    await pool?.close();
  }
  if (poolError) {
    io.stderr.write(`drg ${s.cmd}: ${(poolError as Error).message}\n`);
    out.off('error', onError);
    return 1;
  }
  if (rest && !failed) {
    const r = await block(s, rest);
    buf += r;
  }
  if (s.score) buf += s.summary() + '\n';
  await flush();
  out.off('error', onError);
  if (failed) {
    io.stderr.write(`drg ${s.cmd}: output stream closed\n`);
    return 1;
  }
  return 0;
}
