import { randomUUID } from 'node:crypto';
import { records, type Database, type Queryable, type RecordsSource } from '../db';
import { AppError } from '../errors';

/**
 * The billing ledger and spend caps. Money is integer micro-USD (1e-6 USD).
 *
 * Exactly once: every ledger row has a unique `idempotency_ref`; a repeated charge with the same ref is a no-op.
 * Never overspend: the running total lives in `spend_counters` and is raised with one conditional UPDATE
 * (`... WHERE spent + reserved + cost <= cap`), which PostgreSQL serialises per row, in the same transaction as the
 * ledger insert.
 * Work whose price is only known afterwards (a model answer: its token counts come back with it) first *reserves* its
 * worst case (`reserveSpend`, the same conditional UPDATE on `reserved_micros`, plus a `spend_reservations` row), and
 * is then settled to its real cost (`settleReservation`) or released (`releaseReservation`); a reservation whose
 * request died with its process expires and is released by `sweepExpiredReservations`. Spent plus reserved never
 * passes the cap, so neither does the ledger: a settlement bills at most what is left under the cap (normally its
 * real cost, which the reservation covers; see `settleReservation`).
 * `allowOverrun` records usage even past the cap (kept for callers that settle delivered work without a reservation).
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
            OR c.spent_micros + c.reserved_micros + $4::bigint <= (CASE WHEN $3 THEN o.sandbox_allowance_micros ELSE o.spend_cap_micros END))
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
  const inserted = await insertLedgerRows(tx, orgId, sandbox, period, rows);
  const total = inserted.reduce((sum, r) => sum + BigInt(r.cost), 0n);
  if (inserted.length)
    await raiseCounter(
      tx,
      orgId,
      period,
      sandbox,
      total,
      inputs.every((i) => i.allowOverrun === true),
    );
  return { charged: inserted.length, duplicate: inputs.length - inserted.length };
}

interface LedgerRow {
  api_key_id: string | null;
  user_id: string | null;
  service_type: string;
  units: number;
  cost_micros: string;
  idempotency_ref: string;
  details: Record<string, string | number | boolean | null> | null;
}

/** Insert ledger rows, skipping idempotency refs already present; returns the rows written. */
function insertLedgerRows(tx: Queryable, orgId: string, sandbox: boolean, period: string, rows: LedgerRow[]): Promise<Array<{ cost: string }>> {
  return tx.query<{ cost: string }>(
    `INSERT INTO ledger (org_id, api_key_id, user_id, service_type, units, cost_micros, sandbox, invoiced, idempotency_ref, period, details)
     SELECT $1, r.api_key_id, r.user_id, r.service_type, r.units, r.cost_micros::bigint, $2, NOT $2, r.idempotency_ref, $3, r.details
       FROM jsonb_to_recordset($4::jsonb) AS r(api_key_id uuid, user_id uuid, service_type text, units int, cost_micros text, idempotency_ref text, details jsonb)
     ON CONFLICT (idempotency_ref) DO NOTHING RETURNING cost_micros::text AS cost`,
    [orgId, sandbox, period, JSON.stringify(rows)],
  );
}

/** Charge in its own transaction. */
export async function charge(db: Database, input: ChargeInput): Promise<ChargeOutcome> {
  return db.transaction((tx) => chargeIn(tx, input));
}

export interface SpendStatus {
  period: string;
  spent_micros: number;
  /** Held by requests in flight (reservations not yet settled); spent + reserved never passes the cap. */
  reserved_micros: number;
  cap_micros: number | null;
  at_cap: boolean;
}

/**
 * Spend so far this period against the cap (production pool, or the sandbox allowance). Hand-written SQL: it runs
 * inside the batch chunk's SQL transaction (beside the atomic spend-cap update) and in worker threads (the agent).
 */
export async function spendStatus(q: Queryable, orgId: string, sandbox: boolean, period = billingPeriod()): Promise<SpendStatus> {
  const rows = await q.query<{ spent: string | number | null; reserved: string | number | null; cap: string | number | null }>(
    `SELECT c.spent_micros::text AS spent, c.reserved_micros::text AS reserved,
            (CASE WHEN $3 THEN o.sandbox_allowance_micros ELSE o.spend_cap_micros END)::text AS cap
       FROM organizations o LEFT JOIN spend_counters c ON c.org_id = o.id AND c.period = $2 AND c.sandbox = $3
      WHERE o.id = $1`,
    [orgId, period, sandbox],
  );
  const spent = Number(rows[0]?.spent ?? 0);
  const reserved = Number(rows[0]?.reserved ?? 0);
  const cap = rows[0]?.cap == null ? null : Number(rows[0].cap);
  return { period, spent_micros: spent, reserved_micros: reserved, cap_micros: cap, at_cap: cap !== null && spent >= cap };
}

/** Throws SpendCapError when the pool is already at its cap (used before accepting paid work). */
export async function assertUnderCap(q: Queryable, orgId: string, sandbox: boolean): Promise<void> {
  const s = await spendStatus(q, orgId, sandbox);
  if (s.at_cap) throw new SpendCapError(sandbox);
}

export async function setSpendCap(src: RecordsSource, orgId: string, capMicros: number | null): Promise<void> {
  await records(src).organization.update({ where: { id: orgId }, data: { spendCapMicros: capMicros === null ? null : BigInt(capMicros) } });
}

export async function setSandboxAllowance(src: RecordsSource, orgId: string, micros: number): Promise<void> {
  await records(src).organization.update({ where: { id: orgId }, data: { sandboxAllowanceMicros: BigInt(micros) } });
}

export interface UsageSummary {
  period: string;
  production: SpendStatus;
  sandbox: SpendStatus;
  by_service: Array<{ service_type: string; sandbox: boolean; requests: number; units: number; cost_micros: number }>;
  recent: Array<{ id: string; service_type: string; units: number; cost_micros: number; sandbox: boolean; invoiced: boolean; created_at: string }>;
}

/** The usage page: both pools' spend (spendStatus, SQL) and the ledger's totals and latest rows (Prisma Client). */
export async function usageSummary(db: Pick<Database, 'prisma' | 'query'>, orgId: string, period = billingPeriod()): Promise<UsageSummary> {
  const [production, sandbox, byService, recent] = await Promise.all([
    spendStatus(db, orgId, false, period),
    spendStatus(db, orgId, true, period),
    db.prisma.ledgerEntry.groupBy({
      by: ['serviceType', 'sandbox'],
      where: { orgId, period },
      _count: { _all: true },
      _sum: { units: true, costMicros: true },
      orderBy: [{ serviceType: 'asc' }, { sandbox: 'asc' }],
    }),
    db.prisma.ledgerEntry.findMany({ where: { orgId }, orderBy: { id: 'desc' }, take: 50 }),
  ]);
  return {
    period,
    production,
    sandbox,
    by_service: byService.map((r) => ({
      service_type: r.serviceType,
      sandbox: r.sandbox,
      requests: r._count._all,
      units: r._sum.units ?? 0,
      cost_micros: Number(r._sum.costMicros ?? 0n),
    })),
    recent: recent.map((r) => ({
      id: r.id.toString(),
      service_type: r.serviceType,
      units: r.units,
      cost_micros: Number(r.costMicros),
      sandbox: r.sandbox,
      invoiced: r.invoiced,
      created_at: r.createdAt.toISOString(),
    })),
  };
}

/* ---------- reservations: work priced after the fact (chat completions) ---------- */

export interface Reservation {
  id: string;
  orgId: string;
  sandbox: boolean;
  period: string;
  amountMicros: bigint;
}

/**
 * Hold `amountMicros` of the pool for a request in flight: one conditional UPDATE (`spent + reserved + amount <= cap`,
 * serialised per counter row like every charge) and a `spend_reservations` row in one transaction. Throws
 * SpendCapError, holding nothing, when it does not fit. The reservation expires after `ttlSeconds`; a request still
 * running then should `extendReservation`, a request that died with its process is released by the sweep.
 */
export async function reserveSpend(
  db: Database,
  input: { orgId: string; sandbox: boolean; amountMicros: number | bigint; serviceType: string; ttlSeconds: number },
  period = billingPeriod(),
): Promise<Reservation> {
  const amount = BigInt(input.amountMicros);
  if (amount < 0n) throw new Error('negative reservation');
  const id = randomUUID();
  await db.transaction(async (tx) => {
    await tx.query(`INSERT INTO spend_counters (org_id, period, sandbox, spent_micros) VALUES ($1, $2, $3, 0) ON CONFLICT DO NOTHING`, [
      input.orgId,
      period,
      input.sandbox,
    ]);
    const held = await tx.query(
      `UPDATE spend_counters c SET reserved_micros = c.reserved_micros + $4::bigint
         FROM organizations o
        WHERE c.org_id = $1 AND c.period = $2 AND c.sandbox = $3 AND o.id = c.org_id
          AND ((CASE WHEN $3 THEN o.sandbox_allowance_micros ELSE o.spend_cap_micros END) IS NULL
               OR c.spent_micros + c.reserved_micros + $4::bigint <= (CASE WHEN $3 THEN o.sandbox_allowance_micros ELSE o.spend_cap_micros END))
       RETURNING c.reserved_micros`,
      [input.orgId, period, input.sandbox, amount.toString()],
    );
    if (!held.length) throw new SpendCapError(input.sandbox);
    await tx.query(
      `INSERT INTO spend_reservations (id, org_id, period, sandbox, amount_micros, service_type, expires_at)
       VALUES ($1, $2, $3, $4, $5::bigint, $6, now() + $7::int * interval '1 second')`,
      [id, input.orgId, period, input.sandbox, amount.toString(), input.serviceType, Math.max(1, Math.ceil(input.ttlSeconds))],
    );
  });
  return { id, orgId: input.orgId, sandbox: input.sandbox, period, amountMicros: amount };
}

/** Push a live reservation's expiry out (a long stream); false when it is gone (already swept or settled). */
export async function extendReservation(q: Queryable, r: Reservation, ttlSeconds: number): Promise<boolean> {
  const rows = await q.query(`UPDATE spend_reservations SET expires_at = now() + $2::int * interval '1 second' WHERE id = $1 RETURNING id`, [
    r.id,
    Math.max(1, Math.ceil(ttlSeconds)),
  ]);
  return rows.length > 0;
}

/** Remove the reservation row and give its amount back to the pool; returns the amount (0 when it was gone). */
async function takeReservation(tx: Queryable, r: Reservation): Promise<bigint> {
  const gone = await tx.query<{ amount: string }>(`DELETE FROM spend_reservations WHERE id = $1 RETURNING amount_micros::text AS amount`, [r.id]);
  return gone.length ? BigInt(gone[0]!.amount) : 0n;
}

/** The request ended without a billable result (an error, a refusal, a client gone before the answer): hold nothing. */
export async function releaseReservation(db: Database, r: Reservation): Promise<void> {
  await db.transaction(async (tx) => {
    const held = await takeReservation(tx, r);
    if (held > 0n) {
      await tx.query(
        `UPDATE spend_counters SET reserved_micros = GREATEST(0, reserved_micros - $4::bigint) WHERE org_id = $1 AND period = $2 AND sandbox = $3`,
        [r.orgId, r.period, r.sandbox, held.toString()],
      );
    }
  });
}

export interface Settlement {
  outcome: ChargeOutcome;
  /** What the ledger row holds: the real cost, or what was left under the cap when the real cost would pass it. */
  billedMicros: number;
  /** Real cost not billed because it would have passed the cap (0 unless the work cost more than its reservation). */
  unbilledMicros: number;
}

/**
 * Turn a reservation into one ledger row at the real cost, in one transaction: the reservation is released and the
 * row written (exactly once per `idempotencyRef`) with the counter raised by the billed amount. The counter row is
 * locked, so this is serialised with every other charge and reservation of the pool. The reservation covered the
 * worst case, so the real cost normally fits; when it does not (an upstream that counted more tokens than any prompt
 * of that size can have, or more output than max_tokens), only what is left under the cap is billed and the rest is
 * recorded as `unbilled_micros` in the row's details: the ledger never passes the cap. A reservation that was already
 * swept is settled the same way against what is left.
 */
export async function settleReservation(db: Database, r: Reservation, charge: Omit<ChargeInput, 'orgId' | 'sandbox' | 'allowOverrun'>): Promise<Settlement> {
  const cost = BigInt(charge.costMicros);
  if (cost < 0n) throw new Error('negative charge');
  return db.transaction(async (tx) => {
    const held = await takeReservation(tx, r);
    await tx.query(`INSERT INTO spend_counters (org_id, period, sandbox, spent_micros) VALUES ($1, $2, $3, 0) ON CONFLICT DO NOTHING`, [
      r.orgId,
      r.period,
      r.sandbox,
    ]);
    const counter = await tx.query<{ spent: string; reserved: string; cap: string | null }>(
      `SELECT c.spent_micros::text AS spent, c.reserved_micros::text AS reserved,
              (CASE WHEN $3 THEN o.sandbox_allowance_micros ELSE o.spend_cap_micros END)::text AS cap
         FROM spend_counters c JOIN organizations o ON o.id = c.org_id
        WHERE c.org_id = $1 AND c.period = $2 AND c.sandbox = $3
        FOR UPDATE OF c`,
      [r.orgId, r.period, r.sandbox],
    );
    const spent = BigInt(counter[0]!.spent);
    const othersReserved = BigInt(counter[0]!.reserved) - held;
    const cap = counter[0]!.cap === null ? null : BigInt(counter[0]!.cap);
    let billed = cost;
    if (cap !== null) {
      const room = cap - spent - (othersReserved > 0n ? othersReserved : 0n);
      if (billed > room) billed = room > 0n ? room : 0n;
    }
    const unbilled = cost - billed;
    const details = { ...(charge.details ?? {}), ...(unbilled > 0n ? { unbilled_micros: Number(unbilled) } : {}) };
    const inserted = await insertLedgerRows(tx, r.orgId, r.sandbox, r.period, [
      {
        api_key_id: charge.apiKeyId ?? null,
        user_id: charge.userId ?? null,
        service_type: charge.serviceType,
        units: charge.units ?? 1,
        cost_micros: billed.toString(),
        idempotency_ref: charge.idempotencyRef,
        details,
      },
    ]);
    const add = inserted.length ? billed : 0n;
    await tx.query(
      `UPDATE spend_counters SET spent_micros = spent_micros + $4::bigint, reserved_micros = GREATEST(0, reserved_micros - $5::bigint)
        WHERE org_id = $1 AND period = $2 AND sandbox = $3`,
      [r.orgId, r.period, r.sandbox, add.toString(), held.toString()],
    );
    return { outcome: inserted.length ? 'charged' : 'duplicate', billedMicros: Number(add), unbilledMicros: inserted.length ? Number(unbilled) : 0 };
  });
}

/**
 * Release every reservation past its expiry (its request died with its process, or never settled): the rows go and
 * their amounts leave `reserved_micros`, in one statement. Returns how many were released. Run periodically
 * (server/billing/sweep.ts).
 */
export async function sweepExpiredReservations(q: Queryable): Promise<number> {
  const rows = await q.query<{ n: number }>(
    `WITH gone AS (
       DELETE FROM spend_reservations WHERE expires_at < now() RETURNING org_id, period, sandbox, amount_micros
     ), totals AS (
       SELECT org_id, period, sandbox, sum(amount_micros) AS amount, count(*) AS n FROM gone GROUP BY org_id, period, sandbox
     ), released AS (
       UPDATE spend_counters c SET reserved_micros = GREATEST(0, c.reserved_micros - t.amount)
         FROM totals t WHERE c.org_id = t.org_id AND c.period = t.period AND c.sandbox = t.sandbox
       RETURNING t.n
     )
     SELECT COALESCE(sum(n), 0)::int AS n FROM released`,
  );
  return rows[0]?.n ?? 0;
}
