import { getDb } from '../db';
import { listMigrations, migrate } from '../migrations';
import { cliIO } from './io';

/** `db migrate` applies pending migrations; `db status` lists them. */
export async function run(argv: string[]): Promise<number> {
  const io = cliIO();
  const db = await getDb();
  if (argv[0] === 'migrate') {
    const r = await migrate(db);
    io.out(r.applied.length ? `applied: ${r.applied.join(', ')}\n` : 'database is up to date\n');
    return 0;
  }
  if (argv[0] === 'status') {
    await migrate(db, []); // ensures the bookkeeping table exists
    const done = new Set(
      (await db.query<{ migration_name: string }>('SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL')).map(
        (r) => r.migration_name,
      ),
    );
    for (const m of listMigrations()) io.out(`${done.has(m.name) ? 'applied ' : 'pending '} ${m.name}\n`);
    io.out(`backend: ${db.describe}\n`);
    return 0;
  }
  io.err('usage: db migrate | db status\n');
  return 2;
}
