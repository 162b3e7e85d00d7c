import type { Queryable } from '../db';

export interface AuditEvent {
  orgId: string;
  /** Who acted: `user:<email>`, `key:<lookup id>` or `cli`. Never a secret. */
  actor: string;
  action: string;
  targetId?: string | null;
  details?: Record<string, string | number | boolean | null | string[]>;
}

export async function writeAudit(q: Queryable, e: AuditEvent): Promise<void> {
  await q.query('INSERT INTO audit_log (org_id, actor, action, target_id, details) VALUES ($1, $2, $3, $4, $5)', [
    e.orgId,
    e.actor,
    e.action,
    e.targetId ?? null,
    e.details ? JSON.stringify(e.details) : null,
  ]);
}

export interface AuditEntry {
  id: string;
  actor: string;
  action: string;
  target_id: string | null;
  details: Record<string, unknown> | null;
  created_at: string;
}

export async function listAudit(q: Queryable, orgId: string, limit = 100, beforeId?: string): Promise<AuditEntry[]> {
  const rows = await q.query<{ id: string | number | bigint; actor: string; action: string; target_id: string | null; details: unknown; created_at: Date }>(
    `SELECT id, actor, action, target_id, details, created_at FROM audit_log
      WHERE org_id = $1 AND ($2::bigint IS NULL OR id < $2::bigint)
      ORDER BY id DESC LIMIT $3`,
    [orgId, beforeId ?? null, limit],
  );
  return rows.map((r) => ({
    id: String(r.id),
    actor: r.actor,
    action: r.action,
    target_id: r.target_id,
    details: (typeof r.details === 'string' ? JSON.parse(r.details) : r.details) as Record<string, unknown> | null,
    created_at: new Date(r.created_at).toISOString(),
  }));
}
