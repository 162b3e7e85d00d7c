import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackend, type TestBackend } from '../helpers/backend';
import { listMigrations, migrate, type MigrationFile } from '@/server/migrations';

/** The offline migration runner, on both backends: atomic per migration, recorded in _prisma_migrations, strict checksums. */
let be: TestBackend;
beforeAll(async () => {
  be = await startBackend();
});
afterAll(async () => {
  await be?.close();
});

const file = (name: string, sql: string): MigrationFile => ({ name, sql, checksum: createHash('sha256').update(sql).digest('hex') });

describe(`migrations on ${process.env.TEST_DB ?? 'postgres'}`, () => {
  it('every shipped migration is recorded with its checksum; a second run applies nothing', async () => {
    const shipped = listMigrations();
    const rows = await be.db.query<{ migration_name: string; checksum: string }>(
      'SELECT migration_name, checksum FROM "_prisma_migrations" ORDER BY migration_name',
    );
    expect(rows.map((r) => r.migration_name)).toEqual(shipped.map((m) => m.name));
    expect(rows.map((r) => r.checksum)).toEqual(shipped.map((m) => m.checksum));
    expect((await migrate(be.db)).applied).toEqual([]);
  });

  it('a failing migration leaves no trace: no table, no bookkeeping row', async () => {
    const bad = file('29991231000000_broken', 'CREATE TABLE t_partial (id int);\nSELECT no_such_function();');
    await expect(migrate(be.db, [...listMigrations(), bad])).rejects.toThrow(/29991231000000_broken failed/);
    const tables = await be.db.query(`SELECT 1 FROM information_schema.tables WHERE table_name = 't_partial'`);
    expect(tables).toHaveLength(0);
    const rec = await be.db.query(`SELECT 1 FROM "_prisma_migrations" WHERE migration_name = $1`, [bad.name]);
    expect(rec).toHaveLength(0);
  });

  it('applies a plpgsql body intact, and refuses a changed applied migration', async () => {
    const fn = file('29991231000001_fn', `CREATE FUNCTION cg_test_fn() RETURNS int LANGUAGE plpgsql AS $$ BEGIN RETURN 41 + 1; END; $$;`);
    expect((await migrate(be.db, [...listMigrations(), fn])).applied).toEqual([fn.name]);
    expect(await be.db.query<{ v: number }>('SELECT cg_test_fn() AS v')).toEqual([{ v: 42 }]);
    const changed = file(fn.name, fn.sql + '\n-- edited');
    await expect(migrate(be.db, [...listMigrations(), changed])).rejects.toThrow(/changed after it was applied/);
  });
});
