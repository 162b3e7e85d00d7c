import { defineConfig } from 'prisma/config';

// Only `prisma generate` is used; migrations run through our own offline runner (server/db/migrate.ts).
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
});
