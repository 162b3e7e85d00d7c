import type { MessagePort } from 'node:worker_threads';
import type { Database, DbKind, Queryable } from '../db';
import type { SharedIndex } from '../search/index-store';

/**
 * The database across a thread boundary. The database lives in the main thread (PGlite has one owner; PostgreSQL
 * keeps one pool), so a worker thread's core gets a `Database` whose calls travel over a MessagePort:
 *   worker → main  { id, op: 'query' | 'exec' | 'begin' | 'commit' | 'rollback', sql?, params?, tx? }
 *   main → worker  { id, ok: true, rows?, tx? } | { id, ok: false, error: { name, message, code } }
 * A transaction is held open on the main side (one connection, `db.transaction`) between 'begin' and
 * 'commit'/'rollback'; if the port closes first (the task ended or the worker died) it is rolled back.
 * Rows and parameters cross by structured clone (Date, BigInt, Uint8Array survive); errors keep name, message and
 * code, so `isDatabaseUnavailable` still recognises them.
 * The database's search index travels the same way ('index': the main thread's index, loaded once, its arrays in
 * shared memory), so a worker never loads or builds a copy of its own.
 */
type Request =
  | { id: number; op: 'query'; sql: string; params?: unknown[]; tx?: number }
  | { id: number; op: 'exec'; sql: string }
  | { id: number; op: 'begin' }
  | { id: number; op: 'commit' | 'rollback'; tx: number }
  | { id: number; op: 'index'; background?: boolean };
/** A request without its id (distributes over the union). */
type Outgoing = Request extends infer R ? (R extends Request ? Omit<R, 'id'> : never) : never;
type Reply = { id: number; ok: true; rows?: unknown[]; tx?: number; index?: SharedIndex | null } | { id: number; ok: false; error: SerializedError };
export interface SerializedError {
  name: string;
  message: string;
  code?: string;
}

const ROLLBACK = Symbol('rollback');

/**
 * PGlite runs every query on the main thread, one at a time, in arrival order: a health check's `SELECT 1` waits for
 * every query queued before it. Worker threads' plain queries are therefore let into PGlite one at a time (a
 * process-wide gate), so a request from the main thread waits for at most one of them. Transactions are not gated
 * (PGlite serialises them itself). PostgreSQL runs queries elsewhere, in parallel: no gate.
 */
class Gate {
  private busy = false;
  private readonly waiting: Array<() => void> = [];
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.busy) await new Promise<void>((r) => this.waiting.push(r));
    this.busy = true;
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.busy = false;
    }
  }
}
const pgliteGate = new Gate();

export function serializeError(err: unknown): SerializedError {
  const e = err as { name?: unknown; message?: unknown; code?: unknown };
  return {
    name: typeof e?.name === 'string' ? e.name : 'Error',
    message: typeof e?.message === 'string' ? e.message : String(err),
    ...(typeof e?.code === 'string' ? { code: e.code } : {}),
  };
}

export function reviveError(s: SerializedError): Error {
  const e = new Error(s.message);
  e.name = s.name;
  if (s.code !== undefined) (e as Error & { code?: string }).code = s.code;
  return e;
}

/** The search index cache, imported once (an import() of a loaded module still costs a loader round trip). */
let indexCache: Promise<typeof import('../search/index-cache')> | undefined;

/** Main thread: answer a worker's database calls on `port` with `db`. Returns a function that stops serving. */
export function serveDatabase(db: Database, port: MessagePort): () => void {
  const txs = new Map<number, { tx: Queryable; finish: (commit: boolean) => void; done: Promise<unknown> }>();
  let nextTx = 1;
  let open = true;
  const reply = (r: Reply) => {
    if (open) port.postMessage(r);
  };
  const fail = (id: number, err: unknown) => reply({ id, ok: false, error: serializeError(err) });

  port.on('message', (m: Request) => {
    switch (m.op) {
      case 'query': {
        const target: Queryable | undefined = m.tx === undefined ? db : txs.get(m.tx)?.tx;
        if (!target) return fail(m.id, new Error('no such transaction'));
        const run = () => target.query(m.sql, m.params);
        (m.tx === undefined && db.kind === 'pglite' ? pgliteGate.run(run) : run()).then(
          (rows) => reply({ id: m.id, ok: true, rows }),
          (err: unknown) => fail(m.id, err),
        );
        return;
      }
      case 'index':
        (indexCache ??= import('../search/index-cache'))
          .then(({ indexForWorker }) => indexForWorker(db, { background: m.background }))
          .then(
            (index) => reply({ id: m.id, ok: true, index }),
            (err: unknown) => fail(m.id, err),
          );
        return;
      case 'exec':
        db.exec(m.sql).then(
          () => reply({ id: m.id, ok: true }),
          (err: unknown) => fail(m.id, err),
        );
        return;
      case 'begin': {
        const txId = nextTx++;
        let began = false;
        const entry = { tx: db as Queryable, finish: (_commit: boolean) => undefined as void, done: Promise.resolve<unknown>(null) };
        entry.done = db
          .transaction(async (tx) => {
            const commit = await new Promise<boolean>((resolve) => {
              entry.tx = tx;
              entry.finish = resolve;
              txs.set(txId, entry);
              began = true;
              reply({ id: m.id, ok: true, tx: txId });
            });
            if (!commit) throw ROLLBACK;
          })
          .then(
            () => null,
            (err: unknown) => (err === ROLLBACK ? null : err),
          )
          .finally(() => txs.delete(txId));
        // BEGIN itself failed (no connection): the worker is still waiting for its answer
        void entry.done.then((err) => {
          if (!began) fail(m.id, err ?? new Error('transaction did not start'));
        });
        return;
      }
      case 'commit':
      case 'rollback': {
        const t = txs.get(m.tx);
        if (!t) return fail(m.id, new Error('no such transaction'));
        t.finish(m.op === 'commit');
        t.done.then((err) => (err ? fail(m.id, err) : reply({ id: m.id, ok: true })));
        return;
      }
    }
  });
  port.on('close', () => stop());
  port.start();
  const stop = () => {
    open = false;
    for (const t of txs.values()) t.finish(false); // an abandoned transaction is rolled back
  };
  return stop;
}

/**
 * Worker thread: a `Database` that sends every call to the main thread over the current task's port. One instance
 * per worker (caches keyed by the database object, such as the search index, survive between tasks); the port is set
 * by each task (`useTaskPort`) and cleared after it.
 */
export function createProxyDatabase(): {
  db: Database;
  useTaskPort(port: MessagePort | null, kind?: DbKind): void;
  /** The main thread's search index of this database (index-cache.ts getIndex, same options), in shared memory. */
  index(opts: { background?: boolean }): Promise<SharedIndex | null>;
} {
  let port: MessagePort | null = null;
  let nextId = 1;
  const pending = new Map<number, { resolve: (r: Reply & { ok: true }) => void; reject: (e: Error) => void }>();
  const onMessage = (r: Reply) => {
    const p = pending.get(r.id);
    if (!p) return;
    pending.delete(r.id);
    if (r.ok) p.resolve(r);
    else p.reject(reviveError(r.error));
  };
  const call = (req: Outgoing): Promise<Reply & { ok: true }> =>
    new Promise((resolve, reject) => {
      if (!port) {
        const e = new Error('the database is not reachable from this worker outside a task') as Error & { code?: string };
        e.code = '08003'; // connection_does_not_exist: reported as database_unavailable, never a 500
        return reject(e);
      }
      const id = nextId++;
      pending.set(id, { resolve, reject });
      port.postMessage({ ...req, id });
    });
  const query = async <T>(sql: string, params?: unknown[], tx?: number): Promise<T[]> => (await call({ op: 'query', sql, params, tx })).rows as T[];

  const db: Database = {
    kind: 'postgres',
    describe: 'database (main thread, via worker port)',
    get prisma(): never {
      throw new Error('Prisma is not available in worker threads; use query()');
    },
    query: (sql, params) => query(sql, params),
    // the main thread runs it as a plain query (the agent's searches are few; its own time limit bounds the task)
    queryWithTimeout: (sql, params) => query(sql, params),
    async exec(sql) {
      await call({ op: 'exec', sql });
    },
    async transaction(fn) {
      const began = await call({ op: 'begin' });
      const tx = began.tx!;
      let result;
      try {
        result = await fn({ query: (sql, params) => query(sql, params, tx) });
      } catch (err) {
        await call({ op: 'rollback', tx }).catch(() => undefined);
        throw err;
      }
      await call({ op: 'commit', tx });
      return result;
    },
    async close() {
      /* the main thread owns the database */
    },
  };
  return {
    db,
    index: async (opts) => (await call({ op: 'index', background: opts.background })).index ?? null,
    useTaskPort(next, kind) {
      if (port) {
        port.off('message', onMessage);
        for (const [id, p] of pending) {
          pending.delete(id);
          p.reject(new Error('the task ended before the database answered'));
        }
      }
      port = next;
      if (kind) (db as { kind: DbKind }).kind = kind;
      if (port) {
        port.on('message', onMessage);
        port.start();
      }
    },
  };
}
