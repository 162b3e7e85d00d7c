import { records, type RecordsSource } from '../db';
import type { Prisma } from '../generated/prisma/client';

export interface AuditEvent {
  orgId: string;
  /** Who acted: `user:<email>`, `key:<lookup id>` or `cli`. Never a secret. */
  actor: string;
  action: string;
  targetId?: string | null;
  details?: Record<string, string | number | boolean | null | string[]>;
}

export async function writeAudit(src: RecordsSource, e: AuditEvent): Promise<void> {
  await records(src).auditLog.create({
    data: { orgId: e.orgId, actor: e.actor, action: e.action, targetId: e.targetId ?? null, details: e.details ?? undefined },
  });
}

export interface AuditEntry {
  id: string;
  actor: string;
  action: string;
  target_id: string | null;
  details: Record<string, unknown> | null;
  created_at: string;
}

function detailsObject(v: Prisma.JsonValue | null): Record<string, unknown> | null {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? v : null;
}

export async function listAudit(src: RecordsSource, orgId: string, limit = 100, beforeId?: string): Promise<AuditEntry[]> {
  const rows = await records(src).auditLog.findMany({
    where: { orgId, ...(beforeId !== undefined ? { id: { lt: BigInt(beforeId) } } : {}) },
    orderBy: { id: 'desc' },
    take: limit,
  });
  return rows.map((r) => ({
    id: r.id.toString(),
    actor: r.actor,
    action: r.action,
    target_id: r.targetId,
    details: detailsObject(r.details),
    created_at: r.createdAt.toISOString(),
  }));
}
