import fs from 'node:fs';
import path from 'node:path';
import type { PGlite as PGliteType } from '@electric-sql/pglite';
import type { Pool as PoolType, PoolClient } from 'pg';
import { PrismaClient, type Prisma } from './generated/prisma/client';
import { loadEnv } from './env';
import { projectRoot } from './config/paths';
import { log } from './log';

/**
 * The database: real PostgreSQL when DATABASE_URL is set, embedded PGlite otherwise. One code path above this
 * file: Prisma Client (`db.prisma`, through `records()`) for the record tables; `query()` for the hand-written SQL
 * that earns its place (search, the atomic spend-cap update, bulk imports, migrations); `exec()` for scripts.
 *
 * The instance lives on globalThis, because Next.js bundles route code separately from the custom server and the
 * CLI; every copy of this module must reach the same PGlite (which only one owner may open).
 */
export type DbKind = 'postgres' | 'pglite';

export interface Queryable {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
}

export interface Database extends Queryable {
  kind: DbKind;
  /** Human description without credentials, for health and logs. */
  describe: string;
  prisma: PrismaClient;
  /** Run a multi-statement SQL script (no parameters). */
  exec(sql: string): Promise<void>;
  /** Run fn inside one transaction on one connection. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * One query that the server cancels after `timeoutMs` (SQLSTATE 57014), in one round trip (PostgreSQL: a small
   * pool of its own whose sessions carry the timeout). PGlite has no timeout: it runs the query.
   */
  queryWithTimeout<T = Record<string, unknown>>(text: string, params: unknown[], timeoutMs: number): Promise<T[]>;
  pglite?: PGliteType;
  pool?: PoolType;
  close(): Promise<void>;
}

/** What record functions take: Prisma Client, or the client of an interactive transaction (`prisma.$transaction`). */
export type Records = PrismaClient | Prisma.TransactionClient;
/** A record function's database argument: the `Database` (its Prisma Client is used) or a Prisma (transaction) client. */
export type RecordsSource = Records | Pick<Database, 'prisma'>;

export function records(src: RecordsSource): Records {
  return '$queryRaw' in src ? src : src.prisma;
}

export type DbConfig = { kind: 'postgres'; url: string } | { kind: 'pglite'; dir: string };

type GlobalSlot = { db?: Promise<Database>; config?: DbConfig };
const slot: GlobalSlot = ((globalThis as { __codingGatewayDb?: GlobalSlot }).__codingGatewayDb ??= {});

export function dbConfigFromEnv(): DbConfig {
  const env = loadEnv();
  if (env.DATABASE_URL) return { kind: 'postgres', url: env.DATABASE_URL };
  return { kind: 'pglite', dir: path.resolve(projectRoot, env.PGLITE_DIR) };
}

/** Choose the database before first use (tests, CLI flags). */
export function configureDb(config: DbConfig): void {
  if (slot.db) throw new Error('configureDb() called after the database was opened');
  slot.config = config;
}

export function getDb(): Promise<Database> {
  slot.db ??= openDb(slot.config ?? dbConfigFromEnv()).catch((err) => {
    slot.db = undefined;
    throw err;
  });
  return slot.db;
}

export async function closeDb(): Promise<void> {
  const p = slot.db;
  slot.db = undefined;
  slot.config = undefined;
  if (p) await (await p).close();
}

export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://(unparseable url)';
  }
}

async function openDb(config: DbConfig): Promise<Database> {
  return config.kind === 'postgres' ? openPostgres(config.url) : openPglite(config.dir);
}

async function openPostgres(url: string): Promise<Database> {
  const pg = (await import('pg')).default;
  const { PrismaPg } = await import('@prisma/adapter-pg');
  // BIGINT and NUMERIC come back as strings from node-postgres; callers convert explicitly.
  const pool: PoolType = new pg.Pool({
    connectionString: url,
    max: 10,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 5_000,
    application_name: 'coding-gateway',
  });
  pool.on('error', (err) => log.error('postgres pool error', { err: err.message }));
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  const query = async <T>(text: string, params?: unknown[]): Promise<T[]> => (await pool.query(text, params as unknown[])).rows as T[];
  const timedPools = new Map<number, PoolType>();
  const timedPool = (ms: number): PoolType => {
    let p = timedPools.get(ms);
    if (!p) {
      p = new pg.Pool({
        connectionString: url,
        max: 4,
        idleTimeoutMillis: 30_000,
        connectionTimeoutMillis: 5_000,
        application_name: 'coding-gateway',
        statement_timeout: ms,
      });
      p.on('error', (err) => log.error('postgres pool error', { err: err.message }));
      timedPools.set(ms, p);
    }
    return p;
  };
  return {
    kind: 'postgres',
    describe: `postgres ${redactUrl(url)}`,
    prisma,
    pool,
    query,
    async exec(sql) {
      await pool.query(sql);
    },
    async transaction(fn) {
      const client: PoolClient = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn({ query: async (t, p) => (await client.query(t, p as unknown[])).rows });
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
    async queryWithTimeout<T>(text: string, params: unknown[], timeoutMs: number): Promise<T[]> {
      return (await timedPool(Math.max(1, Math.round(timeoutMs))).query(text, params)).rows as T[];
    },
    async close() {
      for (const p of [pool, ...timedPools.values()]) {
        p.removeAllListeners('error');
        p.on('error', () => undefined); // connections terminated during shutdown are expected
      }
      await prisma.$disconnect().catch(() => undefined);
      await Promise.all([pool, ...timedPools.values()].map((p) => p.end().catch(() => undefined)));
    },
  };
}

/** A lock file beside the PGlite folder: PGlite must never be opened by two processes at once. */
function acquirePgliteLock(dir: string): () => void {
  const lockFile = `${dir}.lock`;
  fs.mkdirSync(path.dirname(lockFile), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
      return () => {
        try {
          if (fs.readFileSync(lockFile, 'utf8') === String(process.pid)) fs.unlinkSync(lockFile);
        } catch {
          /* already gone */
        }
      };
    } catch {
      const pid = Number(fs.readFileSync(lockFile, 'utf8'));
      if (pid && pid !== process.pid && isAlive(pid)) {
        throw new PgliteBusyError(dir, pid);
      }
      fs.rmSync(lockFile, { force: true }); // stale lock from a process that died
    }
  }
  throw new Error(`could not lock ${dir}`);
}

export class PgliteBusyError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(`The embedded database ${path.relative(projectRoot, dir) || dir} is open in process ${pid} (the running server?).`);
    this.name = 'PgliteBusyError';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function openPglite(dir: string): Promise<Database> {
  const release = acquirePgliteLock(dir);
  try {
    const { PGlite } = await import('@electric-sql/pglite');
    const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
    const { unaccent } = await import('@electric-sql/pglite/contrib/unaccent');
    const { fuzzystrmatch } = await import('@electric-sql/pglite/contrib/fuzzystrmatch');
    const { PrismaPGlite } = await import('pglite-prisma-adapter');
    fs.mkdirSync(dir, { recursive: true });
    const pglite = await PGlite.create(dir, { extensions: { pg_trgm, unaccent, fuzzystrmatch } });
    const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
    const query = async <T>(text: string, params?: unknown[]): Promise<T[]> => (await pglite.query<T>(text, params)).rows;
    return {
      kind: 'pglite',
      describe: `pglite ${path.relative(projectRoot, dir) || dir}`,
      prisma,
      pglite,
      query,
      async exec(sql) {
        await pglite.exec(sql);
      },
      async transaction(fn) {
        return pglite.transaction((tx) => fn({ query: async (t, p) => (await tx.query(t, p)).rows as never }));
      },
      async queryWithTimeout<T>(text: string, params: unknown[]): Promise<T[]> {
        return (await pglite.query(text, params)).rows as T[];
      },
      async close() {
        await prisma.$disconnect().catch(() => undefined);
        await pglite.close().catch(() => undefined);
        release();
      },
    };
  } catch (err) {
    release();
    throw err;
  }
}
