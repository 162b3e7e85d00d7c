import type { Database } from './db';
import { migrate } from './migrations';
import { log } from './log';
import { loadEnv } from './env';
import { countOrganizations, createOrganization, createUser } from './auth/accounts';
import { createApiKeyIn } from './auth/keys';
import { randomBytes } from 'node:crypto';

/**
 * Start-up work shared by `npm start`, the worker and the test server: migrate, load reference data, and create
 * the demo organisation on an empty database. Reference-data loaders register themselves here.
 */
export type StartupTask = { name: string; run: (db: Database) => Promise<void> };
const tasks: StartupTask[] = [];

export function registerStartupTask(task: StartupTask): void {
  if (!tasks.some((t) => t.name === task.name)) tasks.push(task);
}

export interface DemoCredentials {
  organization: string;
  email: string;
  password: string;
  apiKey: string;
}

export async function prepareDatabase(db: Database, opts: { referenceData?: boolean } = {}): Promise<void> {
  await migrate(db);
  if (opts.referenceData !== false) {
    for (const task of tasks) {
      const t = Date.now();
      await task.run(db);
      log.info('startup task done', { task: task.name, ms: Date.now() - t });
    }
  }
}

/**
 * Creates the demo organisation, an admin and a fresh API key when the database has no organisation yet. All in one
 * transaction (under an advisory lock on PostgreSQL, so two instances starting together create it once).
 */
export async function seedDemo(db: Database): Promise<DemoCredentials | null> {
  const env = loadEnv();
  const password = env.DEMO_ADMIN_PASSWORD ?? randomBytes(9).toString('base64url');
  return db.prisma.$transaction(async (tx) => {
    if (db.kind === 'postgres') await tx.$executeRaw`SELECT pg_advisory_xact_lock(727002)`;
    if ((await countOrganizations(tx)) > 0) return null;
    const org = await createOrganization(tx, 'Demo Hospital');
    await createUser(tx, { orgId: org.id, email: env.DEMO_ADMIN_EMAIL, password, role: 'admin' });
    const { key } = await createApiKeyIn(tx, { orgId: org.id, actor: 'system:seed', name: 'demo key' });
    return { organization: org.name, email: env.DEMO_ADMIN_EMAIL, password, apiKey: key };
  });
}
