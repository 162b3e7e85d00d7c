import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { records, type Records, type RecordsSource } from '../db';
import type { ApiKey, PrismaClient } from '../generated/prisma/client';
import { conflict, isUuid, notFound, unauthorized } from '../errors';
import { loadEnv } from '../env';
import { writeAudit } from './audit';
import { isScope, type Scope } from './scopes';

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

/** Stored scopes were validated against SCOPES when the key was created; anything else is dropped. */
function scopesOf(stored: string[]): Scope[] {
  return stored.filter(isScope);
}

function toView(r: ApiKey, now = Date.now()): ApiKeyView {
  const status = r.revokedAt ? 'revoked' : r.expiresAt && r.expiresAt.getTime() <= now ? 'expired' : 'active';
  return {
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    last4: r.last4,
    display: `${r.prefix}${r.lookupId.slice(0, 4)}…${r.last4}`,
    scopes: scopesOf(r.scopes),
    sandbox: r.sandbox,
    created_at: r.createdAt.toISOString(),
    created_by: r.createdBy,
    last_used_at: r.lastUsedAt?.toISOString() ?? null,
    expires_at: r.expiresAt?.toISOString() ?? null,
    revoked_at: r.revokedAt?.toISOString() ?? null,
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

/** A source that can open a transaction: the `Database` or Prisma Client itself (not a transaction's client). */
type TransactionSource = { prisma: PrismaClient } | PrismaClient;
const clientOf = (src: TransactionSource): PrismaClient => ('$transaction' in src ? src : src.prisma);

export async function createApiKey(src: TransactionSource, input: CreateKeyInput): Promise<{ key: string; view: ApiKeyView }> {
  return clientOf(src).$transaction((tx) => createApiKeyIn(tx, input));
}

/** Create a key inside the caller's transaction (the organisation row is locked for the two-key check). */
export async function createApiKeyIn(tx: Records, input: CreateKeyInput): Promise<{ key: string; view: ApiKeyView }> {
  const env = loadEnv();
  const sandbox = input.sandbox ?? false;
  const random = randomBase62(RANDOM_LEN);
  const prefix = `${env.API_KEY_PREFIX}_${sandbox ? 'test' : 'live'}_`;
  const key = prefix + random;
  const days = input.expiresInDays === undefined ? env.KEY_DEFAULT_TTL_DAYS : input.expiresInDays;
  const expiresAt = days === null ? null : new Date(Date.now() + days * 86_400_000);
  {
    // Lock the organisation row so two concurrent creations cannot both pass the two-key check.
    // (Prisma Client has no row locks: this one statement is hand-written, with a declared row type.)
    const org = await tx.$queryRaw<Array<{ id: string }>>`SELECT id::text FROM organizations WHERE id = ${input.orgId}::uuid FOR UPDATE`;
    if (!org.length) throw notFound('Organisation not found');
    const active = await tx.apiKey.count({
      where: { orgId: input.orgId, revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }] },
    });
    if (active >= MAX_ACTIVE_KEYS) {
      throw conflict(
        `This organisation already has ${MAX_ACTIVE_KEYS} active keys, the most allowed at once. Revoke one before creating another.`,
        'too_many_active_keys',
      );
    }
    const r = await tx.apiKey.create({
      data: {
        orgId: input.orgId,
        lookupId: random.slice(0, LOOKUP_LEN),
        keyHash: hashKey(key),
        prefix,
        last4: key.slice(-4),
        name: input.name ?? null,
        scopes: input.scopes ?? [],
        sandbox,
        createdBy: input.actor,
        expiresAt,
      },
    });
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

export async function revokeApiKey(src: TransactionSource, orgId: string | null, keyId: string, actor: string): Promise<ApiKeyView> {
  if (!isUuid(keyId)) throw notFound('API key not found');
  return clientOf(src).$transaction(async (tx) => {
    // Revoke only a key not yet revoked: of two concurrent revocations one updates, the other reads the result.
    const scope = { id: keyId, ...(orgId !== null ? { orgId } : {}) };
    const updated = await tx.apiKey.updateManyAndReturn({ where: { ...scope, revokedAt: null }, data: { revokedAt: new Date(), revokedBy: actor } });
    const r = updated[0];
    if (!r) {
      const existing = await tx.apiKey.findFirst({ where: scope });
      if (!existing) throw notFound('API key not found');
      return toView(existing);
    }
    await writeAudit(tx, { orgId: r.orgId, actor, action: 'key.revoke', targetId: keyId, details: { display: toView(r).display } });
    return toView(r);
  });
}

export async function listApiKeys(src: RecordsSource, orgId: string): Promise<ApiKeyView[]> {
  const rows = await records(src).apiKey.findMany({ where: { orgId }, orderBy: { createdAt: 'desc' } });
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
export async function authenticateApiKey(src: RecordsSource, presented: string): Promise<KeyPrincipal> {
  const parsed = parseKey(presented.trim());
  if (!parsed) throw unauthorized('The API key is malformed.', 'invalid_api_key');
  const q = records(src);
  const r = await q.apiKey.findUnique({ where: { lookupId: parsed.lookupId } });
  const presentedHash = Buffer.from(hashKey(presented.trim()), 'hex');
  const storedHash = Buffer.from(r?.keyHash ?? '0'.repeat(64), 'hex');
  const match = timingSafeEqual(presentedHash, storedHash) && !!r;
  if (!r || !match) throw unauthorized('The API key is not recognised.', 'invalid_api_key');
  if (r.revokedAt) throw unauthorized('The API key has been revoked.', 'key_revoked');
  if (r.expiresAt && r.expiresAt.getTime() <= Date.now()) {
    throw unauthorized('The API key has expired. Ask your administrator for a new key.', 'key_expired');
  }
  // last_used_at is informational; update at most once a minute to keep the hot path cheap.
  if (!r.lastUsedAt || Date.now() - r.lastUsedAt.getTime() > 60_000) {
    q.apiKey.update({ where: { id: r.id }, data: { lastUsedAt: new Date() } }).catch(() => undefined);
  }
  return { kind: 'api_key', orgId: r.orgId, keyId: r.id, lookupId: r.lookupId, scopes: scopesOf(r.scopes), sandbox: r.sandbox };
}
