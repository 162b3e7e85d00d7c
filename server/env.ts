import { z } from 'zod';

/**
 * The one environment schema, validated at start-up (`loadEnv()` is called by every entry point:
 * the web server, the CLI and the worker). Unknown variables are ignored.
 */
const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  /** Set → real PostgreSQL through @prisma/adapter-pg. Unset → embedded PGlite in PGLITE_DIR. */
  DATABASE_URL: z.string().url().optional(),
  PGLITE_DIR: z.string().default('.data/pglite'),
  /** Folder for local state: PGlite, generated secrets, uploads. */
  CODING_STATE_DIR: z.string().default('.data'),
  CODING_DATA_DIR: z.string().optional(),
  CODING_CACHE_DIR: z.string().optional(),
  API_KEY_PREFIX: z
    .string()
    .regex(/^[a-z][a-z0-9]{1,15}$/, 'API_KEY_PREFIX must be 2-16 lower-case letters or digits, starting with a letter')
    .default('cg'),
  /** HS256 secret for our access tokens and the next-auth session. Generated and kept in CODING_STATE_DIR when unset. */
  JWT_SECRET: z.string().min(32).optional(),
  JWT_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(900),
  /** Default lifetime of pilot keys in days (SPEC §5.6: 12 months). */
  KEY_DEFAULT_TTL_DAYS: z.coerce.number().int().min(1).max(3650).default(365),
  MAX_BODY_BYTES: z.coerce.number().int().min(1024).default(4 * 1024 * 1024),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /** Run pg-boss workers inside the web process (always true with PGlite). */
  WORKERS_IN_PROCESS: z
    .enum(['true', 'false', '1', '0'])
    .default('true')
    .transform((v) => v === 'true' || v === '1'),
  /** Create the demo organisation on start when the database has none. */
  SEED_DEMO: z
    .enum(['true', 'false', '1', '0'])
    .default('true')
    .transform((v) => v === 'true' || v === '1'),
  /** Largest file accepted through a presigned upload URL. */
  UPLOAD_MAX_BYTES: z.coerce.number().int().min(1024).default(50 * 1024 * 1024),
  /** Lifetime of a presigned upload URL (SPEC: single use, typically within an hour). */
  UPLOAD_URL_TTL_SECONDS: z.coerce.number().int().min(30).max(3600).default(900),
  /** S3-compatible storage for uploads; unset → local disk under CODING_STATE_DIR/uploads. Credentials come from the usual AWS_* variables. */
  S3_BUCKET: z.string().min(3).optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ENDPOINT: z.string().url().optional(),
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false', '1', '0'])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  /** A reverse proxy in front of us sets X-Forwarded-For; use its first address as the client address. */
  TRUST_PROXY: z
    .enum(['true', 'false', '1', '0'])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  /** Public base URL of this service, when it runs behind a proxy (used in presigned URLs and as NEXTAUTH_URL's default). */
  PUBLIC_BASE_URL: z.string().url().optional(),
  /**
   * The UI's own address for next-auth (sign-in and sign-out redirects, secure cookies when https). Unset: derived at
   * start-up from PUBLIC_BASE_URL, else http://<HOST or localhost>:<PORT>, never next-auth's own default of port 3000.
   */
  NEXTAUTH_URL: z.string().url().optional(),
  /** DRG agent: registry name of the model for its LLM engine (must be approved for PHI); unset → deterministic engine. */
  AGENT_MODEL: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,99}$/, 'AGENT_MODEL must be a model name from the registry (letters, digits, . _ : / @ + -)')
    .or(z.literal(''))
    .optional(),
  /**
   * Worker threads for CPU-heavy cores (the DRG agent, large redactions): default the number of cores this process may
   * use; 0 runs them in-process.
   */
  WORKER_THREADS: z.coerce.number().int().min(0).max(64).optional(),
  DEMO_ADMIN_EMAIL: z.string().email().default('admin@demo.local'),
  DEMO_ADMIN_PASSWORD: z.string().min(8).optional(),
});

export type Env = z.infer<typeof EnvSchema>;

let cached: Env | undefined;

export class EnvError extends Error {}

export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  if (cached && source === process.env) return cached;
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new EnvError(`Invalid environment:\n${lines.join('\n')}`);
  }
  if (source === process.env) cached = parsed.data;
  return parsed.data;
}

/** Tests change the environment between suites; they call this to re-read it. */
export function resetEnvCache(): void {
  cached = undefined;
}
