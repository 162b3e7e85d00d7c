import { PgBoss, fromPglite } from 'pg-boss';
import type { Database } from './db';
import { log } from './log';
import { loadEnv } from './env';

/**
 * pg-boss on the same database: with PGlite it runs in-process through pg-boss's PGlite adapter; with PostgreSQL
 * it opens its own small pool. Domains register their queues and workers with `defineQueue()`, and periodic
 * maintenance (sweeps) with `definePeriodic()`; both run wherever workers run (the web process or `npm run worker`).
 */
type PeriodicState = { timer?: ReturnType<typeof setInterval>; running?: Promise<void>; lastRunAt?: string; lastError?: string | null };
type Slot = { boss?: Promise<PgBoss>; workersStarted: Set<string>; periodic?: Map<string, PeriodicState> };
const slot: Slot = ((globalThis as { __codingGatewayQueue?: Slot }).__codingGatewayQueue ??= { workersStarted: new Set() });
slot.periodic ??= new Map();

/** Retry and expiry of a queue's jobs (pg-boss options). */
export interface QueueOptions {
  retryLimit?: number;
  retryDelay?: number;
  retryBackoff?: boolean;
  retryDelayMax?: number;
  expireInSeconds?: number;
}

export interface QueueDefinition<T extends object> {
  name: string;
  /**
   * Retry and expiry for a job of this queue: the ONE definition, used when the queue is created or updated and
   * written into every job inserted through `jobOptions()`. A function is evaluated on each use (settings read from
   * the environment).
   */
  options?: QueueOptions | (() => QueueOptions);
  /** Handles one job; throwing makes pg-boss retry it. */
  handler: (data: T, meta: { jobId: string; retryCount?: number }) => Promise<void>;
  /** Jobs a worker takes at once. */
  concurrency?: number;
}

/** Platform defaults under every queue's own options. */
const DEFAULT_OPTIONS: Required<Pick<QueueOptions, 'retryLimit' | 'retryDelay' | 'expireInSeconds'>> = { retryLimit: 5, retryDelay: 1, expireInSeconds: 300 };

const definitions = new Map<string, QueueDefinition<object>>();

export function defineQueue<T extends object>(def: QueueDefinition<T>): QueueDefinition<T> {
  definitions.set(def.name, def as unknown as QueueDefinition<object>);
  return def;
}

/**
 * The options of a defined queue (platform defaults + the definition's own). Used for createQueue/updateQueue and
 * for every job inserted into the queue, so the queue's settings and its jobs' settings cannot disagree, whichever
 * of them was written first.
 */
export function queueOptions(name: string): QueueOptions {
  const def = definitions.get(name);
  if (!def) throw new Error(`queue '${name}' is not defined (import server/domains.ts, which registers every queue)`);
  const own = typeof def.options === 'function' ? def.options() : (def.options ?? {});
  return { ...DEFAULT_OPTIONS, ...own };
}

/** A periodic task (e.g. a sweep that repairs what a lost job left behind). Runs where workers run. */
export interface PeriodicTask {
  name: string;
  /** Seconds between runs; read each time the task is started. */
  everySeconds: () => number;
  run: (db: Database) => Promise<unknown>;
}

const periodicTasks = new Map<string, PeriodicTask>();

export function definePeriodic(task: PeriodicTask): PeriodicTask {
  periodicTasks.set(task.name, task);
  return task;
}

export function getBoss(db: Database): Promise<PgBoss> {
  slot.boss ??= (async () => {
    const boss =
      db.kind === 'pglite'
        ? new PgBoss({ db: fromPglite(db.pglite!), backend: 'pglite', schema: 'pgboss', supervise: true, schedule: false, ...monitorInterval() })
        : new PgBoss({
            connectionString: connectionStringOf(db),
            schema: 'pgboss',
            max: 4,
            application_name: 'coding-gateway-queue',
            schedule: false,
            ...monitorInterval(),
          });
    boss.on('error', (err: Error) => log.error('queue error', { err: err.message }));
    await boss.start();
    for (const def of definitions.values()) await ensureQueueOn(boss, def.name);
    return boss;
  })().catch((err) => {
    slot.boss = undefined;
    throw err;
  });
  return slot.boss;
}

/**
 * QUEUE_MONITOR_SECONDS (optional, whole seconds >= 1): how often pg-boss's monitor pass runs, which is what fails
 * or retries jobs whose `expireInSeconds` ran out (e.g. their worker process died). Unset keeps pg-boss's default
 * (60 s). Tests of worker crashes set it low so a dead worker's job is retried within seconds.
 */
function monitorInterval(): { superviseIntervalSeconds?: number; monitorIntervalSeconds?: number } {
  const s = loadEnv().QUEUE_MONITOR_SECONDS;
  return s !== undefined ? { superviseIntervalSeconds: s, monitorIntervalSeconds: s } : {};
}

function connectionStringOf(db: Database): string {
  const opts = (db.pool as unknown as { options?: { connectionString?: string } }).options;
  if (!opts?.connectionString) throw new Error('postgres pool without a connection string');
  return opts.connectionString;
}

const OPTION_KEYS = ['retryLimit', 'retryDelay', 'retryBackoff', 'retryDelayMax', 'expireInSeconds'] as const;

/** Create the queue with its defined options, or bring an existing queue's options up to date (idempotent). */
async function ensureQueueOn(boss: PgBoss, name: string): Promise<void> {
  const want = queueOptions(name);
  const existing = (await boss.getQueue(name)) as (Record<string, unknown> & { name: string }) | null;
  if (!existing) {
    await boss.createQueue(name, want).catch(async (err: unknown) => {
      if (!(await boss.getQueue(name))) throw err; // another process created it first: updated below on its next start
    });
    return;
  }
  const differs = OPTION_KEYS.some((k) => want[k] !== undefined && existing[k] !== want[k]);
  if (differs) await boss.updateQueue(name, want);
}

const ensured = new WeakMap<PgBoss, Map<string, Promise<void>>>();

/** Make sure a defined queue exists with its defined options (once per process and queue). */
export async function ensureQueue(db: Database, name: string): Promise<PgBoss> {
  const boss = await getBoss(db);
  let m = ensured.get(boss);
  if (!m) ensured.set(boss, (m = new Map()));
  let p = m.get(name);
  if (!p) {
    p = ensureQueueOn(boss, name);
    p.catch(() => m.delete(name));
    m.set(name, p);
  }
  await p;
  return boss;
}

/** Start workers for every defined queue and the periodic tasks (idempotent). */
export async function startWorkers(db: Database): Promise<void> {
  const boss = await getBoss(db);
  for (const def of definitions.values()) {
    if (slot.workersStarted.has(def.name)) continue;
    await ensureQueue(db, def.name);
    await boss.work<object>(def.name, { batchSize: 1, pollingIntervalSeconds: 0.5, localConcurrency: def.concurrency ?? 1 }, async (jobs) => {
      for (const job of jobs) await def.handler(job.data, { jobId: job.id });
    });
    slot.workersStarted.add(def.name);
  }
  for (const task of periodicTasks.values()) startPeriodic(db, task);
}

function startPeriodic(db: Database, task: PeriodicTask): void {
  const states = slot.periodic!;
  if (states.get(task.name)?.timer) return;
  const state: PeriodicState = states.get(task.name) ?? {};
  states.set(task.name, state);
  const tick = () => {
    if (state.running) return; // the previous run is still going
    state.running = (async () => {
      try {
        await task.run(db);
        state.lastError = null;
      } catch (err) {
        // Logged and retried on the next tick: a database outage must not stop the task for good.
        state.lastError = err instanceof Error ? err.message.slice(0, 200) : String(err);
        log.warn('periodic task failed', { task: task.name, err: state.lastError });
      } finally {
        state.lastRunAt = new Date().toISOString();
        state.running = undefined;
      }
    })();
  };
  state.timer = setInterval(tick, Math.max(1, task.everySeconds()) * 1000);
  state.timer.unref?.();
  tick(); // once at start-up, then every interval
}

/** Run a periodic task now, as its timer would (tests, CLI). Resolves when that run is over. */
export async function runPeriodicNow(db: Database, name: string): Promise<unknown> {
  const task = periodicTasks.get(name);
  if (!task) throw new Error(`periodic task '${name}' is not defined`);
  return task.run(db);
}

export async function enqueue<T extends object>(db: Database, queue: string, data: T, options?: { singletonKey?: string }): Promise<string | null> {
  const boss = await ensureQueue(db, queue);
  return boss.send(queue, data, { ...queueOptions(queue), ...options });
}

export interface QueueStatus {
  started: boolean;
  workers: string[];
  queues: Array<{ name: string; queued: number; active: number }>;
  periodic?: Array<{ name: string; every_seconds: number; last_run_at: string | null; last_error: string | null }>;
}

function periodicStatus(): NonNullable<QueueStatus['periodic']> {
  return [...slot.periodic!.entries()]
    .filter(([, s]) => s.timer)
    .map(([name, s]) => ({
      name,
      every_seconds: periodicTasks.get(name)?.everySeconds() ?? 0,
      last_run_at: s.lastRunAt ?? null,
      last_error: s.lastError ?? null,
    }));
}

export async function queueStatus(): Promise<QueueStatus> {
  if (!slot.boss) return { started: false, workers: [], queues: [], periodic: periodicStatus() };
  try {
    const boss = await slot.boss;
    const queues = await boss.getQueues([...definitions.keys()]);
    return {
      started: true,
      workers: [...slot.workersStarted],
      queues: queues.map((q) => ({ name: q.name, queued: q.queuedCount ?? 0, active: q.activeCount ?? 0 })),
      periodic: periodicStatus(),
    };
  } catch {
    return { started: false, workers: [...slot.workersStarted], queues: [], periodic: periodicStatus() };
  }
}

export async function stopQueue(): Promise<void> {
  const running: Array<Promise<void>> = [];
  for (const s of slot.periodic!.values()) {
    if (s.timer) clearInterval(s.timer);
    s.timer = undefined;
    if (s.running) running.push(s.running);
  }
  await Promise.all(running); // a run in progress finishes before the queue and the database close
  const p = slot.boss;
  slot.boss = undefined;
  slot.workersStarted.clear();
  if (p) await (await p).stop({ graceful: true, timeout: 5000 }).catch(() => undefined);
}
