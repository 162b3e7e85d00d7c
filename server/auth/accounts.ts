import type { Queryable } from '../db';
import { badRequest, conflict, isUuid, notFound } from '../errors';
import { dummyPasswordHash, hashPassword, PASSWORD_MIN_LENGTH, verifyPassword } from './passwords';
import type { Role } from './scopes';

/** Organisations and their users (e-mail + scrypt password hash + role). */
export interface OrgRecord {
  id: string;
  name: string;
  spend_cap_micros: string | null;
  sandbox_allowance_micros: string;
  created_at: string;
}

export interface UserRecord {
  id: string;
  org_id: string;
  email: string;
  role: Role;
  created_at: string;
}

const ORG_NAME = /^[\p{L}\p{N}][\p{L}\p{N} ._&'-]{0,99}$/u;

export async function createOrganization(q: Queryable, name: string): Promise<OrgRecord> {
  const clean = name.trim();
  if (!ORG_NAME.test(clean)) throw badRequest('Organisation name must be 1-100 letters, digits, spaces or ._&\'-', 'invalid_request');
  // The unique index is on lower(name): "Acme" and "acme" are the same organisation, also under concurrent creation.
  const rows = await q.query<OrgRecord>(
    `INSERT INTO organizations (id, name) VALUES (gen_random_uuid(), $1) ON CONFLICT (lower(name)) DO NOTHING
     RETURNING id, name, spend_cap_micros::text, sandbox_allowance_micros::text, created_at`,
    [clean],
  );
  if (!rows.length) throw conflict(`An organisation named '${clean}' already exists.`, 'organization_exists');
  return rows[0]!;
}

/** Find an organisation by id or by (case-insensitive) name. */
export async function findOrganization(q: Queryable, idOrName: string): Promise<OrgRecord | null> {
  const rows = await q.query<OrgRecord>(
    `SELECT id, name, spend_cap_micros::text, sandbox_allowance_micros::text, created_at FROM organizations
      WHERE ${isUuid(idOrName) ? 'id = $1::uuid' : 'lower(name) = lower($1)'}`,
    [idOrName],
  );
  return rows[0] ?? null;
}

export async function requireOrganization(q: Queryable, idOrName: string): Promise<OrgRecord> {
  const org = await findOrganization(q, idOrName);
  if (!org) throw notFound(`Organisation '${idOrName}' not found`, 'organization_not_found');
  return org;
}

export async function countOrganizations(q: Queryable): Promise<number> {
  const rows = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM organizations');
  return rows[0]?.n ?? 0;
}

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;

export async function createUser(
  q: Queryable,
  input: { orgId: string; email: string; password: string; role: Role },
): Promise<UserRecord> {
  const email = input.email.trim().toLowerCase();
  if (!EMAIL.test(email)) throw badRequest('email: not a valid e-mail address');
  if (input.password.length < PASSWORD_MIN_LENGTH) throw badRequest(`password: must be at least ${PASSWORD_MIN_LENGTH} characters`);
  if (input.password.length > 1024) throw badRequest('password: too long');
  const hash = await hashPassword(input.password);
  const rows = await q.query<UserRecord>(
    `INSERT INTO users (id, org_id, email, password_hash, role) VALUES (gen_random_uuid(), $1, $2, $3, $4)
     ON CONFLICT (email) DO NOTHING RETURNING id, org_id, email, role, created_at`,
    [input.orgId, email, hash, input.role],
  );
  if (!rows.length) throw conflict(`A user with e-mail ${email} already exists.`, 'user_exists');
  return rows[0]!;
}

/** Check an e-mail and password. Returns the user, or null (same timing for unknown e-mail and wrong password). */
export async function authenticateUser(q: Queryable, email: string, password: string): Promise<UserRecord | null> {
  const rows = await q.query<UserRecord & { password_hash: string }>(
    'SELECT id, org_id, email, role, created_at, password_hash FROM users WHERE email = $1',
    [email.trim().toLowerCase()],
  );
  const row = rows[0];
  const ok = await verifyPassword(password, row?.password_hash ?? (await dummyPasswordHash()));
  if (!row || !ok) return null;
  q.query('UPDATE users SET last_login_at = now() WHERE id = $1', [row.id]).catch(() => undefined);
  const { password_hash: _omit, ...user } = row;
  void _omit;
  return user;
}

export async function getUser(q: Queryable, userId: string): Promise<UserRecord | null> {
  if (!isUuid(userId)) return null;
  const rows = await q.query<UserRecord>('SELECT id, org_id, email, role, created_at FROM users WHERE id = $1', [userId]);
  return rows[0] ?? null;
}
