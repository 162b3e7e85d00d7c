import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, configureDb, getDb, type Database } from '@/server/db';
import { migrate } from '@/server/migrations';
import { projectRoot } from '@/server/config/paths';
import { backendKind, createScratchPostgres } from '../helpers/backend';
import { compareSchema, introspect, parseSchema, type DbShape } from '../helpers/schema-agreement';

/**
 * `prisma/schema.prisma` is the source of truth: a fresh database migrated from `prisma/migrations/` must have exactly
 * the tables, columns, types, nullability, defaults, keys, indexes and foreign keys it declares. Runs on PostgreSQL and
 * on PGlite (the two backends apply the same migrations).
 */
const schemaText = fs.readFileSync(path.join(projectRoot, 'prisma', 'schema.prisma'), 'utf8');
let db: Database;
let shape: DbShape;
let drop: () => Promise<void> = async () => undefined;

beforeAll(async () => {
  if (backendKind() === 'postgres') {
    const scratch = await createScratchPostgres();
    drop = scratch.drop;
    configureDb({ kind: 'postgres', url: scratch.url });
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-schema-'));
    configureDb({ kind: 'pglite', dir });
    drop = async () => fs.rmSync(dir, { recursive: true, force: true });
  }
  db = await getDb();
  await migrate(db);
  shape = await introspect(db);
});
afterAll(async () => {
  await closeDb();
  await drop();
});

describe(`schema.prisma and the migrations agree (${backendKind()})`, () => {
  it('reads every model of the schema and every table of the database', () => {
    const models = parseSchema(schemaText);
    expect(models.length).toBeGreaterThanOrEqual(20);
    expect(models.find((m) => m.name === 'ApiKey')?.fields.find((f) => f.name === 'scopes')).toMatchObject({ column: 'scopes', list: true, type: 'String' });
    expect(shape.tables).toEqual(expect.arrayContaining(['organizations', 'api_keys', 'drg_batches', 'llm_models']));
    expect(shape.columns.length).toBeGreaterThan(150);
  });

  it('have no differences', () => {
    expect(compareSchema(parseSchema(schemaText), shape)).toEqual([]);
  });

  it('a deliberate mismatch is reported (the check can fail)', () => {
    const mutations: Array<[string, string, RegExp]> = [
      ['  last4       String\n', '  last4       String?\n', /api_keys\.last4: NOT NULL in the migrations, optional/],
      ['  units          Int      @default(1)\n', '  units          BigInt   @default(1)\n', /ledger\.units: type integer in the migrations, bigint/],
      [
        '  sandbox     Boolean   @default(false)\n  createdAt   DateTime  @default(now()) @map("created_at") @db.Timestamptz(3)\n  createdBy',
        '  sandbox     Boolean\n  createdAt   DateTime  @default(now()) @map("created_at") @db.Timestamptz(3)\n  createdBy',
        /api_keys\.sandbox: default false in the migrations, none/,
      ],
      ['  email        String    @unique\n', '  email        String\n', /users: unique \(email\) in the migrations, not in schema/],
      ['  @@index([expiresAt])\n', '', /spend_reservations: index \(expires_at\) in the migrations/],
      ['  word String @id\n', '  word String @id\n  extra Int?\n', /search_lexicon\.extra: in schema\.prisma, not in the migrations/],
      ['  @@map("vocab_import")', '  @@map("vocab_imports")', /vocab_imports .*not in the migrations/],
      [
        '@relation(fields: [orgId], references: [id], onDelete: Cascade)\n\n  @@index([orgId])\n  @@map("users")',
        '@relation(fields: [orgId], references: [id])\n\n  @@index([orgId])\n  @@map("users")',
        /users: foreign key \(org_id\) -> organizations\(id\) on delete Restrict in schema/,
      ],
    ];
    for (const [from, to, expected] of mutations) {
      expect(schemaText.includes(from), `mutation source not found: ${from}`).toBe(true);
      const problems = compareSchema(parseSchema(schemaText.replace(from, to)), shape);
      expect(problems.join('\n')).toMatch(expected);
    }
  });
});
