import { z } from 'zod';

/**
 * The one configuration module: every setting the server reads from the environment, in one zod schema, validated
 * at start-up (`loadEnv()` is called by every entry point: the web server, the CLI and the worker; a bad value stops
 * the process with a message naming the variable) and read through `loadEnv()` everywhere else, typed. Domain code
 * does not read `process.env` (the exception: a model's upstream key variable, whose name is data in the model
 * registry). Unknown variables are ignored.
 *
 * `loadEnv()` re-parses when a variable of the schema changed since the last call (tests and operators' scripts
 * change settings such as DRG_BATCH_CHUNK_SIZE between runs without a restart), so settings read "per use" keep that
 * behaviour; otherwise the parsed values are reused.
 */

/** An empty value counts as unset (DRG_BATCH_CHUNK_SIZE= in a .env file). */
const blankAsUnset = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema);
const flag = (fallback: 'true' | 'false') =>
  z
    .enum(['true', 'false', '1', '0'])
    .default(fallback)
    .transform((v) => v === 'true' || v === '1');

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
  MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(4 * 1024 * 1024),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /** Run pg-boss workers inside the web process (always true with PGlite). */
  WORKERS_IN_PROCESS: flag('true'),
  /** Create the demo organisation on start when the database has none. */
  SEED_DEMO: flag('true'),
  /** Largest file accepted through a presigned upload URL. */
  UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(50 * 1024 * 1024),
  /** Lifetime of a presigned upload URL (SPEC: single use, typically within an hour). */
  UPLOAD_URL_TTL_SECONDS: z.coerce.number().int().min(30).max(3600).default(900),
  /** S3-compatible storage for uploads; unset → local disk under CODING_STATE_DIR/uploads. Credentials come from the usual AWS_* variables. */
  S3_BUCKET: z.string().min(3).optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ENDPOINT: z.string().url().optional(),
  S3_FORCE_PATH_STYLE: flag('false'),
  /** A reverse proxy in front of us sets X-Forwarded-For; use its first address as the client address. */
  TRUST_PROXY: flag('false'),
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
  /** The project root (default: found from the code's location); tests and packaged installs set it. */
  CODING_PROJECT_ROOT: z.string().optional(),

  /* ---- secrets (server/secrets.ts): set → used, unset → generated once into CODING_STATE_DIR/secrets.json ---- */
  /** HMAC key of local presigned upload URLs. Shorter than 32 characters: ignored (a generated one is used). */
  UPLOAD_SIGNING_SECRET: z.string().optional(),
  /** HMAC key of conversation_key placeholders. Set but shorter than 32 characters: redactions that need it fail closed (503, naming the variable). */
  REDACTION_HMAC_SECRET: z.string().optional(),

  /* ---- DRG batch jobs (server/batch/config.ts) ---- */
  /** Price of one successfully classified case, micro-USD; locked into the job at submission. */
  DRG_BATCH_PRICE_MICROS: blankAsUnset(z.coerce.number().int().min(0).max(100_000_000).default(1000)),
  /** Cases per pg-boss job (125: 8 chunks for a full batch). */
  DRG_BATCH_CHUNK_SIZE: blankAsUnset(z.coerce.number().int().min(1).max(1000).default(125)),
  /** Chunk jobs one process works at once. */
  DRG_BATCH_WORKER_CONCURRENCY: blankAsUnset(z.coerce.number().int().min(1).max(64).default(4)),
  /** How long a chunk may stay active before pg-boss presumes its worker dead and retries it. */
  DRG_BATCH_CHUNK_EXPIRE_SECONDS: blankAsUnset(z.coerce.number().int().min(1).max(3600).default(60)),
  /** Attempts per chunk before its remaining cases fail as processing_failed. */
  DRG_BATCH_MAX_ATTEMPTS: blankAsUnset(z.coerce.number().int().min(1).max(50).default(5)),
  /** How often a parked job checks whether its spend cap has cleared. */
  DRG_BATCH_RESUME_CHECK_SECONDS: blankAsUnset(z.coerce.number().int().min(1).max(3600).default(30)),
  /** How often the sweep looks for batches whose pg-boss jobs were lost and queues them again. */
  DRG_BATCH_SWEEP_SECONDS: blankAsUnset(z.coerce.number().int().min(1).max(86_400).default(60)),

  /** How long a finished batch blocks an identical one (409 duplicate_batch unless allow_duplicate), in hours; 0 turns the guard off. */
  DRG_BATCH_DUPLICATE_WINDOW_HOURS: blankAsUnset(z.coerce.number().min(0).max(8760).default(24)),

  /* ---- queue (server/queue.ts) ---- */
  /** How often pg-boss's monitor pass runs (whole seconds >= 1); anything else keeps pg-boss's default (60 s). */
  QUEUE_MONITOR_SECONDS: z
    .string()
    .optional()
    .transform((v) => {
      const n = Number(v);
      return v !== undefined && Number.isInteger(n) && n >= 1 ? n : undefined;
    }),

  /* ---- search (server/search/config.ts) ---- */
  /** Full-text configurations indexed at import time (comma-separated; `english` always). */
  SEARCH_FTS_LANGUAGES: z
    .string()
    .default('english')
    .transform((raw) => [
      ...new Set([
        'english',
        ...raw
          .split(',')
          .map((s) => s.trim().toLowerCase())
          .filter((s) => /^[a-z_]{2,40}$/.test(s)),
      ]),
    ]),
  /** Folder with ONNX models (`encoder/`, `reranker/`); unset → the built-in ones. */
  SEARCH_MODEL_DIR: z
    .string()
    .optional()
    .transform((v) => v?.trim() || undefined),
  /** `false`, `0` or `no` stops `npm start` from building and importing the starter vocabulary. */
  SEARCH_AUTO_IMPORT: z
    .string()
    .default('true')
    .transform((v) => !/^(false|0|no)$/i.test(v)),
  /** Another folder for the search lexicon (an empty folder turns it off). */
  SEARCH_LEXICON_DIR: blankAsUnset(z.string().optional()),
  /** How long an HTTP search may wait for the index being loaded before answering 503 (ms; default and not a number → 0, at once). */
  SEARCH_INDEX_WAIT_MS: z
    .string()
    .optional()
    .transform((v) => {
      const n = Number(v ?? 0);
      return Number.isFinite(n) && n >= 0 ? n : 0;
    }),

  /* ---- redaction (server/redact) ---- */
  /** Another folder for the redaction gazetteers (name lists). */
  REDACT_GAZETTEER_DIR: blankAsUnset(z.string().optional()),
  /** Test-only fault switch; honoured only together with NODE_ENV=test. */
  REDACT_FAULT_INJECTION: z.string().optional(),
});

export type Env = z.infer<typeof EnvSchema>;

const KEYS = Object.keys(EnvSchema.shape) as Array<keyof typeof EnvSchema.shape>;

let cached: { fingerprint: string; env: Env } | undefined;

export class EnvError extends Error {
  override name = 'EnvError';
}

/** The raw values of the schema's variables, as one string (cheap to compare). */
function fingerprint(source: Record<string, string | undefined>): string {
  let f = '';
  for (const k of KEYS) {
    const v = source[k];
    f += v === undefined ? '\u0000' : `${v.length}:${v}`;
  }
  return f;
}

export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  const live = source === process.env;
  const fp = live ? fingerprint(source) : '';
  if (live && cached?.fingerprint === fp) return cached.env;
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new EnvError(`Invalid environment:\n${lines.join('\n')}`);
  }
  if (live) cached = { fingerprint: fp, env: parsed.data };
  return parsed.data;
}

/** Forget the parsed values (loadEnv re-parses anyway when a variable changed; kept for tests that want a fresh parse). */
export function resetEnvCache(): void {
  cached = undefined;
}

/** The environment of a child process of ours: this one's, with `overrides` (a builder told which database to use). */
export function childProcessEnv(overrides: Record<string, string>): NodeJS.ProcessEnv {
  return { ...process.env, ...overrides };
}
