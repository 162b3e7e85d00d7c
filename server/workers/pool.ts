/**
 * The CPU pool: worker threads for the cores that would otherwise hold the event loop for hundreds of milliseconds
 * or seconds (a 20,000-character DRG agent note: 1-2 s of search, coding and grouping; a 100 KB redaction), so that
 * health checks and every other request keep being answered while they run.
 *
 *  - `runAgentOffThread`: the whole DRG agent (redaction, coding through the search engine, grouping, the LLM engine's
 *    tool loop) in a worker; its database calls come back to the main thread (db-proxy.ts), which owns the database.
 *  - `redactTextOffThread`: texts of OFF_THREAD_REDACTION_CHARS or more are redacted in a worker; shorter ones stay
 *    in-process (a few milliseconds of work does not pay for a thread hop), as do callers that need a live
 *    RedactionSession (the chat gateway keeps its session for re-hydration).
 *
 * Sized to the machine: WORKER_THREADS threads (default: the number of cores the process may use). WORKER_THREADS=0
 * runs everything in-process (debugging). The threads load the server's TypeScript through tsx (worker-entry.mjs),
 * under `npm start`, the CLI, the worker process, vitest and the benchmarks alike.
 */
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { MessageChannel, SHARE_ENV } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { Database } from '../db';
import type { Principal } from '../auth/principal';
import { AppError, type ErrorStatus } from '../errors';
import { loadEnv } from '../env';
import { log } from '../log';
import { RedactionFailedError, redactText, type RedactionFailureReason, type RedactOptions, type RedactTextResult } from '../redact';
import { runAgent, type AgentInput, type AgentRunOptions, type AgentRunResult } from '../agent';
import { setLexicalRunner, type LexicalRunner } from '../search/channels/lexical';
import { shareIndex } from '../search/index-store';
import { reviveError, serveDatabase } from './db-proxy';
import type { Task, TaskResult } from './tasks';

/**
 * Redactions of at least this many characters run in the pool. The engine handles roughly 0.5-1 MB/s on one core of
 * this machine, so 8,192 characters is about 10-15 ms of CPU: below it the in-process call costs less than the thread
 * hop (structured clone of text and result, a message round trip), above it the event loop would stall noticeably.
 */
export const OFF_THREAD_REDACTION_CHARS = 8_192;

type Slot = { pools: Map<PoolName, { pool: Piscina; size: number }> };
const slot: Slot = ((globalThis as { __codingGatewayCpuPool?: Slot }).__codingGatewayCpuPool ??= { pools: new Map() });

/**
 * Two pools of the same threads' code: `cpu` (redactions, and the search engine's lexical walk for large indexes: no
 * database) and `agent` (the DRG agent). No thread loads a search index of its own: every one opens the main thread's,
 * whose arrays live in shared memory (index-store.ts SharedIndex), so the index costs the process its size once. On
 * PGlite the agent pool has one thread: PGlite runs every query on the main thread, so more agent threads would mostly
 * wait for the same database.
 */
type PoolName = 'cpu' | 'agent';

/** Threads in the pool: WORKER_THREADS, default the cores this process may use; 0 = no pool. */
export function workerThreadCount(): number {
  const configured = loadEnv().WORKER_THREADS;
  if (configured !== undefined) return configured;
  return Math.max(1, typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length);
}

function pool(name: PoolName, dbKind?: Database['kind']): Piscina | null {
  const cores = workerThreadCount();
  if (cores <= 0) return null;
  const existing = slot.pools.get(name);
  if (existing) return existing.pool;
  const n = name === 'agent' && dbKind === 'pglite' ? 1 : cores;
  const p = new Piscina({
    filename: fileURLToPath(new URL('./worker-entry.mjs', import.meta.url)),
    minThreads: n,
    maxThreads: n,
    idleTimeout: 60_000,
    // tests and operators change the environment at run time (fault injection, AGENT_MODEL): one shared env
    env: SHARE_ENV,
    // idle threads wait on messages, not Atomics.wait, so a task's own promises and timers always make progress
    atomics: 'disabled',
    // No lower OS priority (piscina's niceIncrement): on a machine busy with other processes a niced thread was
    // starved long enough to push a 100 KB redaction past its 2 s budget (503, fail closed).
  });
  p.on('error', (err: unknown) =>
    log.error('worker pool error', { pool: name, err: err instanceof Error ? `${err.name}: ${err.message.slice(0, 200)}` : 'error' }),
  );
  slot.pools.set(name, { pool: p, size: n });
  return p;
}

/** A task as the caller describes it; the port is added by runWithDatabase. */
type TaskWithoutPort = Task extends infer T ? (T extends Task ? Omit<T, 'port'> : never) : never;

function unwrap<T>(r: TaskResult<T>): T {
  if (r.ok) return r.value;
  const e = r.error;
  if (e.kind === 'app') throw AppError.fromWire(e.status as ErrorStatus, e.type, e.message, e.extra);
  if (e.kind === 'redaction')
    throw new RedactionFailedError(e.reason as RedactionFailureReason, e.message, e.recognizer ? { recognizer: e.recognizer } : undefined);
  throw reviveError(e);
}

/** Run a task that talks to the database: the main thread serves its database calls for as long as it runs. */
async function runWithDatabase<T>(p: Piscina, db: Database, task: TaskWithoutPort): Promise<T> {
  const { port1, port2 } = new MessageChannel();
  const stop = serveDatabase(db, port1);
  try {
    return unwrap((await p.run({ ...task, port: port2 }, { transferList: [port2] })) as TaskResult<T>);
  } finally {
    stop();
    port1.close();
  }
}

/** The DRG agent (`runAgent`) in a worker thread; in-process when the pool is off. Same result, same errors. */
export async function runAgentOffThread(
  db: Database,
  principal: Principal,
  input: AgentInput,
  opts: Pick<AgentRunOptions, 'requestId' | 'faultInjection' | 'searchDisabled'> = {},
): Promise<AgentRunResult> {
  const p = pool('agent', db.kind);
  if (!p) return runAgent(db, principal, input, opts);
  return runWithDatabase<AgentRunResult>(p, db, {
    name: 'agent',
    principal,
    input,
    opts: { requestId: opts.requestId, faultInjection: opts.faultInjection, searchDisabled: opts.searchDisabled },
    dbKind: db.kind,
  });
}

/**
 * `redactText`, in a worker thread when the text has OFF_THREAD_REDACTION_CHARS characters or more (and the pool is
 * on). Same result, same RedactionFailedError. A `deadline` (performance.now() of this thread) keeps the call
 * in-process: clocks are per thread.
 */
export async function redactTextOffThread(text: string, options: RedactOptions = {}): Promise<RedactTextResult> {
  const p = text.length >= OFF_THREAD_REDACTION_CHARS && options.deadline === undefined ? pool('cpu') : null;
  if (!p) return redactText(text, options);
  return unwrap((await p.run({ name: 'redact', text, options } satisfies Task)) as TaskResult<RedactTextResult>);
}

/**
 * The search engine's lexical walk (channels/lexical.ts) in the CPU pool, for large indexes: the threads open the
 * main thread's index memory (index-store.ts SharedIndex) once per loaded index (meta.json only: a second or two at
 * 5M concepts), so a walk costs one message each way. Walks wait for that opening rather than run here: a walk run
 * here would give this thread working arrays of its own (about 50 MB at 5M concepts) for good. If the threads
 * cannot open the index, or a task fails, the walk runs here.
 */
let opened: { key: string; ready: Promise<boolean> } | null = null;
const lexicalStats = { offThread: 0, inProcess: 0 };
/** Walks the CPU pool ran, and those it left in-process (an index the threads could not open, a failed task). */
export const lexicalWalks = (): Readonly<typeof lexicalStats> => ({ ...lexicalStats });
export const lexicalOffThread: LexicalRunner = async (ix, q, splits) => {
  const r = await lexicalInPool(ix, q, splits);
  lexicalStats[r ? 'offThread' : 'inProcess']++;
  return r;
};
const lexicalInPool: LexicalRunner = async (ix, q, splits) => {
  const p = pool('cpu');
  const index = p ? shareIndex(ix) : null;
  if (!p || !index) return null;
  if (opened?.key !== index.key) {
    const threads = slot.pools.get('cpu')?.size ?? 1;
    const ready = Promise.all(
      Array.from({ length: threads }, () => p.run({ name: 'open-index', index } satisfies Task).then((r: TaskResult<unknown>) => unwrap(r))),
    ).then(
      () => true,
      (err: unknown) => {
        log.error('search index: worker threads could not open it; lexical walks run in-process', {
          err: err instanceof Error ? err.message.slice(0, 200) : 'error',
        });
        return false;
      },
    );
    opened = { key: index.key, ready };
  }
  if (!(await opened.ready)) return null;
  try {
    return unwrap((await p.run({ name: 'lexical', index, q, splits } satisfies Task)) as TaskResult<Awaited<ReturnType<LexicalRunner>>>);
  } catch (err) {
    log.warn('lexical search: worker thread failed, searching in-process', { err: err instanceof Error ? err.message.slice(0, 200) : 'error' });
    return null;
  }
};

/**
 * Start every thread and load its modules (the agent threads, given the database, also open its search index: the
 * main thread's, loaded there if need be; on PostgreSQL a missing one is built by a builder process, not here)
 * before traffic needs them, so the first large request does not pay for it. Resolves when all threads are ready;
 * errors are logged.
 */
export async function warmWorkerPool(db?: Database): Promise<void> {
  const cpu = pool('cpu');
  const agent = db ? pool('agent', db.kind) : null;
  if (!cpu) return;
  setLexicalRunner(lexicalOffThread);
  const started = performance.now();
  const size = (name: PoolName) => slot.pools.get(name)?.size ?? 0;
  try {
    await Promise.all([
      ...Array.from({ length: size('cpu') }, () => cpu.run({ name: 'warm', modules: ['redact'] } satisfies Task).then((r: TaskResult<unknown>) => unwrap(r))),
      ...(agent && db
        ? Array.from({ length: size('agent') }, () => runWithDatabase(agent, db, { name: 'warm', modules: ['redact', 'agent', 'index'], dbKind: db.kind }))
        : []),
    ]);
    log.info('worker pool ready', { cpu_threads: size('cpu'), agent_threads: size('agent'), ms: Math.round(performance.now() - started) });
  } catch (err) {
    log.error('worker pool warm-up failed', { err: err instanceof Error ? `${err.name}: ${err.message.slice(0, 200)}` : 'error' });
  }
}

/** Stop the threads (server shutdown, end of a test file). */
export async function stopWorkerPool(): Promise<void> {
  const all = [...slot.pools.values()];
  slot.pools.clear();
  setLexicalRunner(null);
  opened = null;
  await Promise.all(all.map((x) => x.pool.destroy()));
}
