import type { Database, Queryable } from '../db';
import { AppError } from '../errors';

/**
 * The billing ledger and spend caps. Money is integer micro-USD (1e-6 USD).
 *
 * Exactly once: every ledger row has a unique `idempotency_ref`; a repeated charge with the same ref is a no-op.
 * Never overspend: the running total lives in `spend_counters` and is raised with one conditional UPDATE
 * (`... WHERE spent + cost <= cap`), which PostgreSQL serialises per row, in the same transaction as the ledger
 * insert. The one exception is `allowOverrun` (settling work already delivered, such as a model answer whose real
 * token count is only known afterwards): it records the usage even past the cap, leaving the pool at its cap.
 * Production and sandbox usage have separate counters, so a spent sandbox allowance never blocks the production key. Billing periods are calendar months (UTC); a new month starts a new counter.
 */
export interface ChargeInput {
  orgId: string;
  apiKeyId?: string | null;
  userId?: string | null;
  sandbox: boolean;
  serviceType: string;
  units?: number;
  costMicros: number | bigint;
  idempotencyRef: string;
  details?: Record<string, string | number | boolean | null>;
  /**
   * Settle work that has already been delivered (a model's answer the caller has received): the row is written and
   * the counter raised even when that takes the pool past its cap, which then stays at or over its cap (`at_cap`), so
   * further paid work is refused up front. Still exactly once per `idempotencyRef`. Default false: a charge that would
   * cross the cap throws SpendCapError and writes nothing.
   */
  allowOverrun?: boolean;
}

export type ChargeOutcome = 'charged' | 'duplicate';

export class SpendCapError extends AppError {
  constructor(sandbox: boolean) {
    super(
      429,
      'spend_cap_reached',
      sandbox
        ? 'The sandbox spend allowance for this billing period is used up. Nothing was charged.'
        : 'The organisation has reached its spend cap for this billing period. Nothing was charged.',
    );
  }
}

export function billingPeriod(at = new Date()): string {
  return at.toISOString().slice(0, 7);
}

/** Charge inside an existing transaction. Throws SpendCapError (and the caller's transaction rolls back). */
export async function chargeIn(tx: Queryable, input: ChargeInput, period = billingPeriod()): Promise<ChargeOutcome> {
  const r = await chargeManyIn(tx, [input], period);
  return r.charged ? 'charged' : 'duplicate';
}

/**
 * Raise the period's counter by `total`, unless that would pass the cap (then SpendCapError). `allowOverrun` records
 * usage that was already delivered (it may take the pool past its cap, which then refuses new work).
 */
async function raiseCounter(tx: Queryable, orgId: string, period: string, sandbox: boolean, total: bigint, allowOverrun: boolean): Promise<void> {
  await tx.query(`INSERT INTO spend_counters (org_id, period, sandbox, spent_micros) VALUES ($1, $2, $3, 0) ON CONFLICT DO NOTHING`, [orgId, period, sandbox]);
  const updated = await tx.query(
    `UPDATE spend_counters c SET spent_micros = c.spent_micros + $4::bigint
      FROM organizations o
     WHERE c.org_id = $1 AND c.period = $2 AND c.sandbox = $3 AND o.id = c.org_id
       AND ($5::boolean OR $4::bigint = 0 OR (CASE WHEN $3 THEN o.sandbox_allowance_micros ELSE o.spend_cap_micros END) IS NULL
            OR c.spent_micros + $4::bigint <= (CASE WHEN $3 THEN o.sandbox_allowance_micros ELSE o.spend_cap_micros END))
     RETURNING c.spent_micros`,
    [orgId, period, sandbox, total.toString(), allowOverrun],
  );
  if (!updated.length) throw new SpendCapError(sandbox);
}

/**
 * Many charges of one organisation and pool inside an existing transaction, in three statements instead of three per
 * charge (batch jobs bill hundreds of cases per transaction). Same guarantees as `chargeIn`: each row is written at
 * most once per `idempotencyRef` (repeats are counted as duplicates and cost nothing), and the new rows' total must
 * fit under the cap as a whole, or SpendCapError is thrown and the caller's transaction rolls back.
 */
export async function chargeManyIn(tx: Queryable, inputs: ChargeInput[], period = billingPeriod()): Promise<{ charged: number; duplicate: number }> {
  if (!inputs.length) return { charged: 0, duplicate: 0 };
  const { orgId, sandbox } = inputs[0]!;
  if (inputs.some((i) => i.orgId !== orgId || i.sandbox !== sandbox)) throw new Error('chargeManyIn: one organisation and pool per call');
  if (inputs.some((i) => BigInt(i.costMicros) < 0n)) throw new Error('negative charge');
  const rows = inputs.map((i) => ({
    api_key_id: i.apiKeyId ?? null,
    user_id: i.userId ?? null,
    service_type: i.serviceType,
    units: i.units ?? 1,
    cost_micros: BigInt(i.costMicros).toString(),
    idempotency_ref: i.idempotencyRef,
    details: i.details ?? null,
  }));
  const inserted = await tx.query<{ cost: string }>(
    `INSERT INTO ledger (org_id, api_key_id, user_id, service_type, units, cost_micros, sandbox, invoiced, idempotency_ref, period, details)
     SELECT $1, r.api_key_id, r.user_id, r.service_type, r.units, r.cost_micros::bigint, $2, NOT $2, r.idempotency_ref, $3, r.details
       FROM jsonb_to_recordset($4::jsonb) AS r(api_key_id uuid, user_id uuid, service_type text, units int, cost_micros text, idempotency_ref text, details jsonb)
     ON CONFLICT (idempotency_ref) DO NOTHING RETURNING cost_micros::text AS cost`,
    [orgId, sandbox, period, JSON.stringify(rows)],
  );
  const total = inserted.reduce((sum, r) => sum + BigInt(r.cost), 0n);
  if (inserted.length) await raiseCounter(tx, orgId, period, sandbox, total, inputs.every((i) => i.allowOverrun === true));
  return { charged: inserted.length, duplicate: inputs.length - inserted.length };
}

/** Charge in its own transaction. */
export async function charge(db: Database, input: ChargeInput): Promise<ChargeOutcome> {
  return db.transaction((tx) => chargeIn(tx, input));
}

export interface SpendStatus {
  period: string;
  spent_micros: number;
  cap_micros: number | null;
  at_cap: boolean;
}

/** Spend so far this period against the cap (production pool, or the sandbox allowance). */
export async function spendStatus(q: Queryable, orgId: string, sandbox: boolean, period = billingPeriod()): Promise<SpendStatus> {
  const rows = await q.query<{ spent: string | number | null; cap: string | number | null }>(
    `SELECT (SELECT spent_micros FROM spend_counters WHERE org_id = $1 AND period = $2 AND sandbox = $3)::text AS spent,
            (CASE WHEN $3 THEN o.sandbox_allowance_micros ELSE o.spend_cap_micros END)::text AS cap
       FROM organizations o WHERE o.id = $1`,
    [orgId, period, sandbox],
  );
  const spent = Number(rows[0]?.spent ?? 0);
  const cap = rows[0]?.cap == null ? null : Number(rows[0].cap);
  return { period, spent_micros: spent, cap_micros: cap, at_cap: cap !== null && spent >= cap };
}

/** Throws SpendCapError when the pool is already at its cap (used before accepting paid work). */
export async function assertUnderCap(q: Queryable, orgId: string, sandbox: boolean): Promise<void> {
  const s = await spendStatus(q, orgId, sandbox);
  if (s.at_cap) throw new SpendCapError(sandbox);
}

export async function setSpendCap(q: Queryable, orgId: string, capMicros: number | null): Promise<void> {
  await q.query('UPDATE organizations SET spend_cap_micros = $2 WHERE id = $1', [orgId, capMicros]);
}

export async function setSandboxAllowance(q: Queryable, orgId: string, micros: number): Promise<void> {
  await q.query('UPDATE organizations SET sandbox_allowance_micros = $2 WHERE id = $1', [orgId, micros]);
}

export interface UsageSummary {
  period: string;
  production: SpendStatus;
  sandbox: SpendStatus;
  by_service: Array<{ service_type: string; sandbox: boolean; requests: number; units: number; cost_micros: number }>;
  recent: Array<{ id: string; service_type: string; units: number; cost_micros: number; sandbox: boolean; invoiced: boolean; created_at: string }>;
}

export async function usageSummary(q: Queryable, orgId: string, period = billingPeriod()): Promise<UsageSummary> {
  const [production, sandbox, byService, recent] = await Promise.all([
    spendStatus(q, orgId, false, period),
    spendStatus(q, orgId, true, period),
    q.query<{ service_type: string; sandbox: boolean; requests: number; units: string; cost: string }>(
      `SELECT service_type, sandbox, count(*)::int AS requests, sum(units)::text AS units, sum(cost_micros)::text AS cost
         FROM ledger WHERE org_id = $1 AND period = $2 GROUP BY service_type, sandbox ORDER BY service_type, sandbox`,
      [orgId, period],
    ),
    q.query<{ id: unknown; service_type: string; units: number; cost: string; sandbox: boolean; invoiced: boolean; created_at: Date }>(
      `SELECT id, service_type, units, cost_micros::text AS cost, sandbox, invoiced, created_at
         FROM ledger WHERE org_id = $1 ORDER BY id DESC LIMIT 50`,
      [orgId],
    ),
  ]);
  return {
    period,
    production,
    sandbox,
    by_service: byService.map((r) => ({ service_type: r.service_type, sandbox: r.sandbox, requests: r.requests, units: Number(r.units), cost_micros: Number(r.cost) })),
    recent: recent.map((r) => ({
      id: String(r.id),
      service_type: r.service_type,
      units: r.units,
      cost_micros: Number(r.cost),
      sandbox: r.sandbox,
      invoiced: r.invoiced,
      created_at: new Date(r.created_at).toISOString(),
    })),
  };
}
