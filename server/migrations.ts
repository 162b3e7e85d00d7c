import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Database } from './db';
import { projectRoot } from './config/paths';
import { log } from './log';

/**
 * Offline migration runner. Prisma 7's migrate CLI needs a schema engine we cannot download here, so we apply the
 * SQL files in `prisma/migrations/<timestamp>_<name>/migration.sql` ourselves, in name order, each in its own
 * transaction, and record them in Prisma's own `_prisma_migrations` table (same columns, same checksum: SHA-256 of
 * the file). A changed checksum of an applied migration stops start-up rather than silently diverging.
 */
const MIGRATIONS_DIR = path.join(projectRoot, 'prisma', 'migrations');
const LOCK_KEY = 727_001; // pg_advisory_lock key: app and worker may start together

export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

export function listMigrations(dir = MIGRATIONS_DIR): MigrationFile[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(dir, d.name, 'migration.sql')))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(path.join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

export interface MigrateResult {
  applied: string[];
  alreadyApplied: number;
}

interface Runner {
  exec(sql: string): Promise<void>;
  query<T>(text: string, params?: unknown[]): Promise<T[]>;
}

/** Run fn holding the migration lock. On PostgreSQL the advisory lock, the scripts and the unlock share one connection. */
async function withMigrationLock<T>(db: Database, fn: (r: Runner) => Promise<T>): Promise<T> {
  if (db.kind !== 'postgres' || !db.pool) return fn(db);
  const client = await db.pool.connect();
  const runner: Runner = {
    exec: async (sql) => void (await client.query(sql)),
    query: async <R>(text: string, params?: unknown[]) => (await client.query(text, params as unknown[])).rows as R[],
  };
  try {
    await client.query('SELECT pg_advisory_lock($1)', [LOCK_KEY]);
    return await fn(runner);
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [LOCK_KEY]).catch(() => undefined);
    client.release();
  }
}

export async function migrate(db: Database, files = listMigrations()): Promise<MigrateResult> {
  return withMigrationLock(db, async (r) => {
    await r.exec(CREATE_TABLE);
    const rows = await r.query<{ migration_name: string; checksum: string }>(
      'SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
    );
    const done = new Map(rows.map((row) => [row.migration_name, row.checksum]));
    const applied: string[] = [];
    for (const file of files) {
      const prior = done.get(file.name);
      if (prior) {
        if (prior !== file.checksum) {
          throw new Error(`Migration ${file.name} was changed after it was applied (checksum differs). Add a new migration instead.`);
        }
        continue;
      }
      const started = Date.now();
      await applyOne(r, file);
      applied.push(file.name);
      log.info('migration applied', { migration: file.name, ms: Date.now() - started });
    }
    return { applied, alreadyApplied: done.size };
  });
}

/**
 * The script and its bookkeeping row go in one transaction, sent as one simple-protocol call (so $$-quoted plpgsql
 * bodies stay intact): a crash can never leave a migration applied but unrecorded.
 */
async function applyOne(r: Runner, file: MigrationFile): Promise<void> {
  if (!/^[\w.-]+$/.test(file.name)) throw new Error(`Migration folder name not allowed: ${file.name}`);
  const record = `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, started_at, applied_steps_count) VALUES ('${randomUUID()}', '${file.checksum}', now(), '${file.name}', now(), 1)`;
  try {
    await r.exec(`BEGIN;\n${file.sql}\n;\n${record};\nCOMMIT;`);
  } catch (err) {
    await r.exec('ROLLBACK').catch(() => undefined);
    throw new Error(`Migration ${file.name} failed: ${(err as Error).message}`);
  }
}
