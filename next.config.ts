import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // Both /api/v1/search/ and /api/v1/search must work; never redirect between them.
  skipTrailingSlashRedirect: true,
  // Native/WASM and database packages stay outside the bundle (PGlite must be one instance per process).
  serverExternalPackages: ['@electric-sql/pglite', '@electric-sql/pglite-pgvector', 'pglite-prisma-adapter', 'pg-boss', 'pg', '@prisma/client', '@prisma/adapter-pg', '@prisma/client-runtime-utils'],
  poweredByHeader: false,
  reactStrictMode: true,
  // Type checking runs once in `npm test` (tsc --noEmit); skipping it here halves the build time.
  typescript: { ignoreBuildErrors: true },
  outputFileTracingExcludes: { '*': ['.data/**', '.cache/**'] },
};

export default nextConfig;
