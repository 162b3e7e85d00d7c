import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Database, Queryable } from '../db';
import { conflict, isUuid, notFound, unauthorized } from '../errors';
import { loadEnv } from '../env';
import { writeAudit } from './audit';
import type { Scope } from './scopes';

/**
 * API keys: `<prefix>_live_<random>` or `<prefix>_test_<random>` (sandbox). The random part is 32 base62
 * characters (~190 bits). Only SHA-256 of the whole key and a short lookup id (its first 10 random characters)
 * are stored; the plaintext is shown once. Validity is read from the database on every request (no cache), so a
 * revocation applies from the very next request.
 */
const RANDOM_LEN = 32;
const LOOKUP_LEN = 10;
export const MAX_ACTIVE_KEYS = 2;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function randomBase62(n: number): string {
  let out = '';
  while (out.length < n) {
    for (const b of randomBytes(n * 2)) {
      if (b < 248 && out.length < n) out += BASE62[b % 62]; // 248 = 4*62: no modulo bias
    }
  }
  return out;
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export interface ParsedKey {
  prefix: string;
  sandbox: boolean;
  lookupId: string;
}

export function parseKey(presented: string, prefix = loadEnv().API_KEY_PREFIX): ParsedKey | null {
  const m = /^([a-z][a-z0-9]{1,15})_(live|test)_([0-9A-Za-z]{32})$/.exec(presented);
  if (!m || m[1] !== prefix) return null;
  return { prefix: m[1], sandbox: m[2] === 'test', lookupId: m[3]!.slice(0, LOOKUP_LEN) };
}

/** True if the string has the shape of one of our keys (any prefix), as opposed to a JWT. */
export function looksLikeApiKey(s: string): boolean {
  return /^[a-z][a-z0-9]{1,15}_(live|test)_/.test(s);
}

export interface ApiKeyView {
  id: string;
  name: string | null;
  prefix: string;
  last4: string;
  /** Display form, e.g. `cg_live_Ab3dE…wXyz`. */
  display: string;
  scopes: Scope[];
  sandbox: boolean;
  created_at: string;
  created_by: string | null;
  last_used_at: string | null;
  expires_at: string | null;
  revoked_at: string | null;
  status: 'active' | 'revoked' | 'expired';
}

type KeyRow = {
  id: string;
  org_id: string;
  lookup_id: string;
  key_hash: string;
  prefix: string;
  last4: string;
  name: string | null;
  scopes: string[] | null;
  sandbox: boolean;
  created_at: Date;
  created_by: string | null;
  last_used_at: Date | null;
  expires_at: Date | null;
  revoked_at: Date | null;
};

function toView(r: KeyRow, now = Date.now()): ApiKeyView {
  const status = r.revoked_at ? 'revoked' : r.expires_at && new Date(r.expires_at).getTime() <= now ? 'expired' : 'active';
  return {
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    last4: r.last4,
    display: `${r.prefix}${r.lookup_id.slice(0, 4)}…${r.last4}`,
    scopes: (r.scopes ?? []) as Scope[],
    sandbox: r.sandbox,
    created_at: new Date(r.created_at).toISOString(),
    created_by: r.created_by,
    last_used_at: r.last_used_at ? new Date(r.last_used_at).toISOString() : null,
    expires_at: r.expires_at ? new Date(r.expires_at).toISOString() : null,
    revoked_at: r.revoked_at ? new Date(r.revoked_at).toISOString() : null,
    status,
  };
}

export interface CreateKeyInput {
  orgId: string;
  scopes?: Scope[];
  sandbox?: boolean;
  /** Lifetime in days; default KEY_DEFAULT_TTL_DAYS (365). `null` = never expires. */
  expiresInDays?: number | null;
  name?: string | null;
  actor: string;
}

export async function createApiKey(db: Database, input: CreateKeyInput): Promise<{ key: string; view: ApiKeyView }> {
  return db.transaction((tx) => createApiKeyIn(tx, input));
}

/** Create a key inside the caller's transaction (the organisation row is locked for the two-key check). */
export async function createApiKeyIn(tx: Queryable, input: CreateKeyInput): Promise<{ key: string; view: ApiKeyView }> {
  const env = loadEnv();
  const sandbox = input.sandbox ?? false;
  const random = randomBase62(RANDOM_LEN);
  const prefix = `${env.API_KEY_PREFIX}_${sandbox ? 'test' : 'live'}_`;
  const key = prefix + random;
  const days = input.expiresInDays === undefined ? env.KEY_DEFAULT_TTL_DAYS : input.expiresInDays;
  const expiresAt = days === null ? null : new Date(Date.now() + days * 86_400_000);
  {
    // Lock the organisation row so two concurrent creations cannot both pass the two-key check.
    const org = await tx.query<{ id: string }>('SELECT id FROM organizations WHERE id = $1 FOR UPDATE', [input.orgId]);
    if (!org.length) throw notFound('Organisation not found');
    const active = await tx.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM api_keys WHERE org_id = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())`,
      [input.orgId],
    );
    if ((active[0]?.n ?? 0) >= MAX_ACTIVE_KEYS) {
      throw conflict(
        `This organisation already has ${MAX_ACTIVE_KEYS} active keys, the most allowed at once. Revoke one before creating another.`,
        'too_many_active_keys',
      );
    }
    const inserted = await tx.query<KeyRow>(
      `INSERT INTO api_keys (id, org_id, lookup_id, key_hash, prefix, last4, name, scopes, sandbox, created_by, expires_at)
       VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING *`,
      [input.orgId, random.slice(0, LOOKUP_LEN), hashKey(key), prefix, key.slice(-4), input.name ?? null, input.scopes ?? [], sandbox, input.actor, expiresAt],
    );
    const r = inserted[0]!;
    await writeAudit(tx, {
      orgId: input.orgId,
      actor: input.actor,
      action: 'key.create',
      targetId: r.id,
      details: { display: toView(r).display, scopes: input.scopes ?? [], sandbox, expires_at: expiresAt?.toISOString() ?? null },
    });
    return { key, view: toView(r) };
  }
}

export async function revokeApiKey(db: Database, orgId: string | null, keyId: string, actor: string): Promise<ApiKeyView> {
  if (!isUuid(keyId)) throw notFound('API key not found');
  return db.transaction(async (tx) => {
    const rows = await tx.query<KeyRow>(
      `SELECT * FROM api_keys WHERE id = $1 AND ($2::uuid IS NULL OR org_id = $2::uuid) FOR UPDATE`,
      [keyId, orgId],
    );
    const r = rows[0];
    if (!r) throw notFound('API key not found');
    if (r.revoked_at) return toView(r);
    const updated = await tx.query<KeyRow>('UPDATE api_keys SET revoked_at = now(), revoked_by = $2 WHERE id = $1 RETURNING *', [keyId, actor]);
    await writeAudit(tx, { orgId: r.org_id, actor, action: 'key.revoke', targetId: keyId, details: { display: toView(r).display } });
    return toView(updated[0]!);
  });
}

export async function listApiKeys(q: Queryable, orgId: string): Promise<ApiKeyView[]> {
  const rows = await q.query<KeyRow>('SELECT * FROM api_keys WHERE org_id = $1 ORDER BY created_at DESC', [orgId]);
  return rows.map((r) => toView(r));
}

export interface KeyPrincipal {
  kind: 'api_key';
  orgId: string;
  keyId: string;
  lookupId: string;
  scopes: Scope[];
  sandbox: boolean;
}

/** Verify a presented key. Throws 401 with a specific error type; never caches. */
export async function authenticateApiKey(q: Queryable, presented: string): Promise<KeyPrincipal> {
  const parsed = parseKey(presented.trim());
  if (!parsed) throw unauthorized('The API key is malformed.', 'invalid_api_key');
  const rows = await q.query<KeyRow>('SELECT * FROM api_keys WHERE lookup_id = $1', [parsed.lookupId]);
  const r = rows[0];
  const presentedHash = Buffer.from(hashKey(presented.trim()), 'hex');
  const storedHash = Buffer.from(r?.key_hash ?? '0'.repeat(64), 'hex');
  const match = timingSafeEqual(presentedHash, storedHash) && !!r;
  if (!r || !match) throw unauthorized('The API key is not recognised.', 'invalid_api_key');
  if (r.revoked_at) throw unauthorized('The API key has been revoked.', 'key_revoked');
  if (r.expires_at && new Date(r.expires_at).getTime() <= Date.now()) {
    throw unauthorized('The API key has expired. Ask your administrator for a new key.', 'key_expired');
  }
  // last_used_at is informational; update at most once a minute to keep the hot path cheap.
  if (!r.last_used_at || Date.now() - new Date(r.last_used_at).getTime() > 60_000) {
    q.query('UPDATE api_keys SET last_used_at = now() WHERE id = $1', [r.id]).catch(() => undefined);
  }
  return { kind: 'api_key', orgId: r.org_id, keyId: r.id, lookupId: r.lookup_id, scopes: (r.scopes ?? []) as Scope[], sandbox: r.sandbox };
}
