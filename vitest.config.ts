import { defineConfig } from 'vitest/config';
import path from 'node:path';

const alias = { '@': path.resolve(import.meta.dirname) };
const shared = { environment: 'node' as const, testTimeout: 60_000, hookTimeout: 180_000, pool: 'forks' as const };

/**
 * Three projects: `unit` (cores, no database), and the API/integration suite twice, on real PostgreSQL
 * (`api-postgres`) and on embedded PGlite (`api-pglite`). Select with `vitest run --project <name>`.
 */
export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      { resolve: { alias }, test: { ...shared, name: 'unit', include: ['server/**/*.test.ts', 'scripts/**/*.test.ts', 'eval/**/*.test.ts'] } },
      { resolve: { alias }, test: { ...shared, name: 'api-postgres', include: ['tests/api/**/*.test.ts'], env: { TEST_DB: 'postgres' } } },
      // the fuzz suite (tests/fuzz) runs once, on PGlite: bounded by its body count, not duplicated per backend
      {
        resolve: { alias },
        test: { ...shared, name: 'api-pglite', include: ['tests/api/**/*.test.ts', 'tests/fuzz/**/*.test.ts'], env: { TEST_DB: 'pglite' } },
      },
    ],
  },
});
