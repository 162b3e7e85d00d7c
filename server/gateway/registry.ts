/**
 * The model registry: the name a caller uses → an OpenAI-compatible upstream (OpenAI, Azure OpenAI, vLLM, Ollama,
 * llama.cpp server, OpenRouter), its model name, the environment variable that holds its key, the family, PHI
 * approval, prices and the time budget.
 *
 * Scope: `org_id NULL` rows are deployment-wide (the operator adds them with the CLI); rows with an organisation
 * belong to it (its admins manage them on the Models page, the operator with `--org`). A caller sees both; its own
 * organisation's model shadows a deployment-wide one of the same name.
 *
 * Keys never live in the database. Which variables a model may name is restricted, because the gateway sends the
 * variable's value to the model's base URL: see `checkKeyEnv`.
 */
import { randomUUID } from 'node:crypto';
import { records, type Queryable, type RecordsSource } from '../db';
import { Prisma, type LlmModel } from '../generated/prisma/client';
import { AppError, badRequest, conflict, notFound } from '../errors';

export const MODEL_FAMILIES = ['standard', 'reasoning'] as const;
export type ModelFamily = (typeof MODEL_FAMILIES)[number];

export const DEFAULT_TIMEOUT_MS = 60_000;
export const MIN_TIMEOUT_MS = 100;
/** Node's fetch gives up waiting for response headers after 300 s, so no budget may be longer. */
export const MAX_TIMEOUT_MS = 300_000;

export interface ModelRecord {
  id: string;
  orgId: string | null;
  name: string;
  baseUrl: string;
  upstreamModel: string;
  apiKeyEnv: string | null;
  family: ModelFamily;
  approvedForPhi: boolean;
  /** micro-USD per 1,000 tokens */
  priceInputMicrosPer1k: number;
  priceOutputMicrosPer1k: number;
  timeoutMs: number;
  createdBy: string | null;
  createdAt: string;
}

/** What the admin page and the CLI show. Never a key value: only whether the named variable is set. */
export interface ModelView {
  id: string;
  name: string;
  scope: 'deployment' | 'organization';
  base_url: string;
  upstream_model: string;
  api_key_env: string | null;
  api_key_configured: boolean;
  family: ModelFamily;
  approved_for_phi: boolean;
  price_input_per_1k_usd: number;
  price_output_per_1k_usd: number;
  timeout_ms: number;
  created_by: string | null;
  created_at: string;
}

export interface ModelInput {
  name: string;
  base_url: string;
  upstream_model: string;
  api_key_env?: string | null;
  family?: ModelFamily;
  approved_for_phi?: boolean;
  price_input_per_1k_usd?: number;
  price_output_per_1k_usd?: number;
  timeout_ms?: number;
}

const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,99}$/;
const ENV_NAME_RE = /^[A-Z][A-Z0-9_]{0,63}$/;
/** Variables of this service that must never be sent anywhere, whatever their name looks like. */
const FORBIDDEN_ENV =
  /^(JWT_SECRET|REDACTION_HMAC_SECRET|UPLOAD_SIGNING_SECRET|NEXTAUTH_SECRET|DATABASE_URL|DEMO_ADMIN_PASSWORD|AWS_.*|S3_.*|PG.*|TEST_PG_.*)$/;
/** Cloud metadata endpoints: a model must never point there. */
const FORBIDDEN_HOSTS = new Set(['169.254.169.254', 'metadata.google.internal', 'metadata', '[fd00:ec2::254]', '100.100.100.200']);

/** Prefix an organisation's own models must use for their key variable, e.g. `LLM_ORG_1A2B3C4D_`. */
export function orgKeyEnvPrefix(orgId: string): string {
  return `LLM_ORG_${orgId.replace(/-/g, '').slice(0, 8).toUpperCase()}_`;
}

/**
 * Which environment variables a model may name. Deployment-wide models (operator): `LLM_*` or `*_API_KEY`, never one
 * of this service's own secrets. An organisation's models: only `LLM_ORG_<its id prefix>_*`, so an organisation admin
 * cannot point the operator's key (or another organisation's) at a server of their choosing.
 */
export function checkKeyEnv(name: string, orgId: string | null): void {
  if (!ENV_NAME_RE.test(name)) throw badRequest('api_key_env must be an environment variable name (A-Z, 0-9, _; starting with a letter).', 'invalid_model');
  if (FORBIDDEN_ENV.test(name)) throw badRequest(`api_key_env may not name the service's own configuration (${name}).`, 'invalid_model');
  if (orgId) {
    const prefix = orgKeyEnvPrefix(orgId);
    if (!name.startsWith(prefix) || name.length === prefix.length) {
      throw badRequest(`An organisation's model may only use key variables named ${prefix}<NAME> (set by the operator).`, 'invalid_model');
    }
    return;
  }
  if (!name.startsWith('LLM_') && !name.endsWith('_API_KEY')) {
    throw badRequest('api_key_env must start with LLM_ or end with _API_KEY (for example OPENAI_API_KEY).', 'invalid_model');
  }
}

/** Normalise an upstream base URL (`…/v1`), refusing credentials, fragments and cloud metadata hosts. */
export function normalizeBaseUrl(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    throw badRequest('base_url must be an absolute http(s) URL, e.g. https://api.openai.com/v1.', 'invalid_model');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw badRequest('base_url must use http or https.', 'invalid_model');
  if (u.username || u.password) throw badRequest('base_url must not contain credentials; name the key variable in api_key_env.', 'invalid_model');
  if (u.hash) throw badRequest('base_url must not have a fragment.', 'invalid_model');
  if (FORBIDDEN_HOSTS.has(u.hostname.toLowerCase())) throw badRequest('base_url points at a cloud metadata service.', 'invalid_model');
  // a query string is kept (Azure OpenAI's ?api-version=…); the path gets /chat/completions before it
  return `${u.origin}${u.pathname.replace(/\/+$/, '')}${u.search}`;
}

function usdToMicros(v: number | undefined, field: string): number {
  if (v === undefined) return 0;
  if (!Number.isFinite(v) || v < 0 || v > 1000) throw badRequest(`${field} must be a number of USD between 0 and 1000.`, 'invalid_model');
  return Math.round(v * 1e6);
}

interface NormalizedInput {
  name: string;
  baseUrl: string;
  upstreamModel: string;
  apiKeyEnv: string | null;
  family: ModelFamily;
  approvedForPhi: boolean;
  priceIn: number;
  priceOut: number;
  timeoutMs: number;
}

export function normalizeModelInput(input: ModelInput, orgId: string | null): NormalizedInput {
  const name = (input.name ?? '').trim();
  if (!NAME_RE.test(name))
    throw badRequest('name must be 1-100 characters: letters, digits and . _ : / @ + -, starting with a letter or digit.', 'invalid_model');
  const upstreamModel = (input.upstream_model ?? '').trim();
  if (!upstreamModel || upstreamModel.length > 200 || /[\u0000-\u001f]/.test(upstreamModel))
    throw badRequest('upstream_model must be 1-200 printable characters.', 'invalid_model');
  const apiKeyEnv = input.api_key_env?.trim() || null;
  if (apiKeyEnv) checkKeyEnv(apiKeyEnv, orgId);
  const family = input.family ?? 'standard';
  if (!MODEL_FAMILIES.includes(family)) throw badRequest(`family must be one of ${MODEL_FAMILIES.join(', ')}.`, 'invalid_model');
  const timeoutMs = input.timeout_ms ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs < MIN_TIMEOUT_MS || timeoutMs > MAX_TIMEOUT_MS) {
    throw badRequest(`timeout_ms must be an integer from ${MIN_TIMEOUT_MS} to ${MAX_TIMEOUT_MS}.`, 'invalid_model');
  }
  return {
    name,
    baseUrl: normalizeBaseUrl(input.base_url ?? ''),
    upstreamModel,
    apiKeyEnv,
    family,
    approvedForPhi: input.approved_for_phi === true,
    priceIn: usdToMicros(input.price_input_per_1k_usd, 'price_input_per_1k_usd'),
    priceOut: usdToMicros(input.price_output_per_1k_usd, 'price_output_per_1k_usd'),
    timeoutMs,
  };
}

interface ModelRow {
  id: string;
  org_id: string | null;
  name: string;
  base_url: string;
  upstream_model: string;
  api_key_env: string | null;
  family: ModelFamily;
  approved_for_phi: boolean;
  price_in: string | number;
  price_out: string | number;
  timeout_ms: number;
  created_by: string | null;
  created_at: Date | string;
}

const COLUMNS = `id, org_id, name, base_url, upstream_model, api_key_env, family, approved_for_phi,
  price_input_micros_per_1k::text AS price_in, price_output_micros_per_1k::text AS price_out, timeout_ms, created_by, created_at`;

const familyOf = (f: string): ModelFamily => MODEL_FAMILIES.find((x) => x === f) ?? 'standard';

function fromModel(m: LlmModel): ModelRecord {
  return {
    id: m.id,
    orgId: m.orgId,
    name: m.name,
    baseUrl: m.baseUrl,
    upstreamModel: m.upstreamModel,
    apiKeyEnv: m.apiKeyEnv,
    family: familyOf(m.family),
    approvedForPhi: m.approvedForPhi,
    priceInputMicrosPer1k: Number(m.priceInputMicrosPer1k),
    priceOutputMicrosPer1k: Number(m.priceOutputMicrosPer1k),
    timeoutMs: m.timeoutMs,
    createdBy: m.createdBy,
    createdAt: m.createdAt.toISOString(),
  };
}

function fromRow(r: ModelRow): ModelRecord {
  return {
    id: r.id,
    orgId: r.org_id,
    name: r.name,
    baseUrl: r.base_url,
    upstreamModel: r.upstream_model,
    apiKeyEnv: r.api_key_env,
    family: r.family,
    approvedForPhi: r.approved_for_phi,
    priceInputMicrosPer1k: Number(r.price_in),
    priceOutputMicrosPer1k: Number(r.price_out),
    timeoutMs: r.timeout_ms,
    createdBy: r.created_by,
    createdAt: new Date(r.created_at).toISOString(),
  };
}

export function toModelView(m: ModelRecord, env: NodeJS.ProcessEnv = process.env): ModelView {
  return {
    id: m.id,
    name: m.name,
    scope: m.orgId ? 'organization' : 'deployment',
    base_url: m.baseUrl,
    upstream_model: m.upstreamModel,
    api_key_env: m.apiKeyEnv,
    api_key_configured: m.apiKeyEnv ? !!env[m.apiKeyEnv] : true,
    family: m.family,
    approved_for_phi: m.approvedForPhi,
    price_input_per_1k_usd: m.priceInputMicrosPer1k / 1e6,
    price_output_per_1k_usd: m.priceOutputMicrosPer1k / 1e6,
    timeout_ms: m.timeoutMs,
    created_by: m.createdBy,
    created_at: m.createdAt,
  };
}

/** Add a model: deployment-wide (`orgId` null) or an organisation's own. 409 `model_exists` on a duplicate name. */
export async function addModel(src: RecordsSource, input: ModelInput, opts: { orgId: string | null; actor: string }): Promise<ModelRecord> {
  const n = normalizeModelInput(input, opts.orgId);
  try {
    const m = await records(src).llmModel.create({
      data: {
        id: randomUUID(),
        orgId: opts.orgId,
        name: n.name,
        baseUrl: n.baseUrl,
        upstreamModel: n.upstreamModel,
        apiKeyEnv: n.apiKeyEnv,
        family: n.family,
        approvedForPhi: n.approvedForPhi,
        priceInputMicrosPer1k: BigInt(n.priceIn),
        priceOutputMicrosPer1k: BigInt(n.priceOut),
        timeoutMs: n.timeoutMs,
        createdBy: opts.actor,
      },
    });
    return fromModel(m);
  } catch (err) {
    // the unique index on (COALESCE(org_id, zero uuid), name)
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002') {
      throw conflict(`A model named '${n.name}' already exists ${opts.orgId ? 'in this organisation' : 'deployment-wide'}.`, 'model_exists');
    }
    throw err;
  }
}

/**
 * Models visible to an organisation (its own and the deployment-wide ones, own first), or, with `orgId` null, the
 * deployment-wide ones only; `all` lists every row (operator CLI).
 */
export async function listModels(src: RecordsSource, scope: { orgId: string | null } | 'all'): Promise<ModelRecord[]> {
  const q = records(src);
  if (scope === 'all') return (await q.llmModel.findMany({ orderBy: [{ orgId: { sort: 'asc', nulls: 'first' } }, { name: 'asc' }] })).map(fromModel);
  const rows = await q.llmModel.findMany({
    where: { OR: [{ orgId: null }, ...(scope.orgId ? [{ orgId: scope.orgId }] : [])] },
    orderBy: [{ orgId: { sort: 'asc', nulls: 'last' } }, { name: 'asc' }], // own first
  });
  // an organisation's own model shadows a deployment-wide one of the same name
  const seen = new Set<string>();
  return rows.map(fromModel).filter((m) => (seen.has(m.name) ? false : (seen.add(m.name), true)));
}

/**
 * The model a caller of this organisation means by `name` (own first, then deployment-wide), or null. Hand-written
 * SQL, not Prisma Client: the agent resolves models in worker threads, whose database proxy carries SQL only.
 */
export async function resolveModel(q: Queryable, orgId: string, name: string): Promise<ModelRecord | null> {
  const rows = await q.query<ModelRow>(
    `SELECT ${COLUMNS} FROM llm_models WHERE name = $2 AND (org_id = $1 OR org_id IS NULL) ORDER BY (org_id IS NULL) LIMIT 1`,
    [orgId, name],
  );
  return rows[0] ? fromRow(rows[0]) : null;
}

/**
 * Remove a model by id or name within one scope: an organisation's own models (`orgId`), or deployment-wide ones
 * (`orgId` null). Another scope's model is a 404, never removed.
 */
export async function removeModel(src: RecordsSource, ref: string, opts: { orgId: string | null }): Promise<ModelRecord> {
  const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(ref);
  const q = records(src);
  const where: Prisma.LlmModelWhereInput = { ...(isUuid ? { id: ref } : { name: ref }), orgId: opts.orgId };
  const found = await q.llmModel.findFirst({ where });
  const gone = found ? await q.llmModel.deleteMany({ where: { id: found.id, orgId: opts.orgId } }) : { count: 0 };
  if (!found || !gone.count) throw notFound(`No ${opts.orgId ? 'model of this organisation' : 'deployment-wide model'} named '${ref}'.`, 'model_not_found');
  return fromModel(found);
}

/** The upstream key for a model, read at request time. Throws 503 when the named variable is not set. */
export function upstreamKey(m: ModelRecord, env: NodeJS.ProcessEnv = process.env): string | null {
  if (!m.apiKeyEnv) return null;
  const v = env[m.apiKeyEnv];
  if (!v) {
    throw new AppError(
      'upstream_not_configured',
      `Model '${m.name}' is not usable right now: its upstream key variable ${m.apiKeyEnv} is not set on the server.`,
    );
  }
  return v;
}
