import { records, type RecordsSource } from '../db';
import { Prisma } from '../generated/prisma/client';
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

type OrgRow = { id: string; name: string; spendCapMicros: bigint | null; sandboxAllowanceMicros: bigint; createdAt: Date };

function orgRecord(r: OrgRow): OrgRecord {
  return {
    id: r.id,
    name: r.name,
    spend_cap_micros: r.spendCapMicros === null ? null : r.spendCapMicros.toString(),
    sandbox_allowance_micros: r.sandboxAllowanceMicros.toString(),
    created_at: r.createdAt.toISOString(),
  };
}

/** A unique index was violated (Prisma's P2002, from either driver adapter). */
export function isUniqueViolation(err: unknown): boolean {
  return err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002';
}

export async function createOrganization(src: RecordsSource, name: string): Promise<OrgRecord> {
  const clean = name.trim();
  if (!ORG_NAME.test(clean)) throw badRequest("Organisation name must be 1-100 letters, digits, spaces or ._&'-", 'invalid_request');
  // The unique index is on lower(name): "Acme" and "acme" are the same organisation, also under concurrent creation.
  try {
    return orgRecord(await records(src).organization.create({ data: { name: clean } }));
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(`An organisation named '${clean}' already exists.`, 'organization_exists');
    throw err;
  }
}

/** `mode: 'insensitive'` is ILIKE: escape its wildcards so a name matches only itself. */
function likeLiteral(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Find an organisation by id or by (case-insensitive) name. */
export async function findOrganization(src: RecordsSource, idOrName: string): Promise<OrgRecord | null> {
  const where: Prisma.OrganizationWhereInput = isUuid(idOrName) ? { id: idOrName } : { name: { equals: likeLiteral(idOrName), mode: 'insensitive' } };
  const row = await records(src).organization.findFirst({ where });
  return row ? orgRecord(row) : null;
}

export async function requireOrganization(src: RecordsSource, idOrName: string): Promise<OrgRecord> {
  const org = await findOrganization(src, idOrName);
  if (!org) throw notFound(`Organisation '${idOrName}' not found`, 'organization_not_found');
  return org;
}

export async function listOrganizations(src: RecordsSource): Promise<OrgRecord[]> {
  return (await records(src).organization.findMany({ orderBy: { createdAt: 'asc' } })).map(orgRecord);
}

export async function countOrganizations(src: RecordsSource): Promise<number> {
  return records(src).organization.count();
}

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;

const USER_FIELDS = { id: true, orgId: true, email: true, role: true, createdAt: true } as const;

function userRecord(r: { id: string; orgId: string; email: string; role: string; createdAt: Date }): UserRecord {
  return { id: r.id, org_id: r.orgId, email: r.email, role: asRole(r.role), created_at: r.createdAt.toISOString() };
}

/** The column is text; only these two values are ever written (CHECK in the platform migration). */
function asRole(role: string): Role {
  if (role === 'admin' || role === 'coder') return role;
  throw new Error(`unexpected role in users table: ${role}`);
}

export async function createUser(src: RecordsSource, input: { orgId: string; email: string; password: string; role: Role }): Promise<UserRecord> {
  const email = input.email.trim().toLowerCase();
  if (!EMAIL.test(email)) throw badRequest('email: not a valid e-mail address');
  if (input.password.length < PASSWORD_MIN_LENGTH) throw badRequest(`password: must be at least ${PASSWORD_MIN_LENGTH} characters`);
  if (input.password.length > 1024) throw badRequest('password: too long');
  const hash = await hashPassword(input.password);
  try {
    const row = await records(src).user.create({ data: { orgId: input.orgId, email, passwordHash: hash, role: input.role }, select: USER_FIELDS });
    return userRecord(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(`A user with e-mail ${email} already exists.`, 'user_exists');
    throw err;
  }
}

/** Check an e-mail and password. Returns the user, or null (same timing for unknown e-mail and wrong password). */
export async function authenticateUser(src: RecordsSource, email: string, password: string): Promise<UserRecord | null> {
  const r = records(src);
  const row = await r.user.findUnique({ where: { email: email.trim().toLowerCase() }, select: { ...USER_FIELDS, passwordHash: true } });
  const ok = await verifyPassword(password, row?.passwordHash ?? (await dummyPasswordHash()));
  if (!row || !ok) return null;
  r.user.update({ where: { id: row.id }, data: { lastLoginAt: new Date() } }).catch(() => undefined);
  return userRecord(row);
}

export async function getUser(src: RecordsSource, userId: string): Promise<UserRecord | null> {
  if (!isUuid(userId)) return null;
  const row = await records(src).user.findUnique({ where: { id: userId }, select: USER_FIELDS });
  return row ? userRecord(row) : null;
}

export async function listUsers(src: RecordsSource, orgId: string): Promise<UserRecord[]> {
  return (await records(src).user.findMany({ where: { orgId }, orderBy: { createdAt: 'asc' }, select: USER_FIELDS })).map(userRecord);
}
