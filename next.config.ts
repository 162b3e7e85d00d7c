import type { NextConfig } from 'next';

/**
 * Security headers for every page (the API sets its own stricter ones in server/http/security-headers.ts). Next.js
 * inlines its bootstrap scripts and styles, so scripts and styles allow 'unsafe-inline' but load only from this origin;
 * nothing may frame a page (clickjacking of the admin UI), and responses are never MIME-sniffed. Development mode
 * also needs eval and the HMR socket.
 */
const dev = process.env.NODE_ENV !== 'production';
const PAGE_CSP = [
  "default-src 'self'",
  `script-src 'self' 'unsafe-inline'${dev ? " 'unsafe-eval'" : ''}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  `connect-src 'self'${dev ? ' ws: wss:' : ''}`,
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');
const PAGE_SECURITY_HEADERS = [
  { key: 'Content-Security-Policy', value: PAGE_CSP },
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'Referrer-Policy', value: 'same-origin' },
];

const nextConfig: NextConfig = {
  // Both /api/v1/search/ and /api/v1/search must work; never redirect between them.
  skipTrailingSlashRedirect: true,
  // Native/WASM and database packages stay outside the bundle (PGlite must be one instance per process).
  serverExternalPackages: [
    '@electric-sql/pglite',
    '@electric-sql/pglite-pgvector',
    'pglite-prisma-adapter',
    'pg-boss',
    'pg',
    '@prisma/client',
    '@prisma/adapter-pg',
    '@prisma/client-runtime-utils',
  ],
  poweredByHeader: false,
  reactStrictMode: true,
  // Type checking runs once in `npm test` (tsc --noEmit); skipping it here halves the build time.
  typescript: { ignoreBuildErrors: true },
  outputFileTracingExcludes: { '*': ['.data/**', '.cache/**'] },
  async headers() {
    return [{ source: '/:path*', headers: PAGE_SECURITY_HEADERS }];
  },
};

export default nextConfig;
