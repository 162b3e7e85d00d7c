import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestOrg, startBackend, type TestBackend } from '../helpers/backend';
import { charge, setSpendCap, spendStatus, SpendCapError } from '@/server/billing/ledger';

let be: TestBackend;
beforeAll(async () => {
  be = await startBackend();
});
afterAll(async () => {
  await be?.close();
});

describe(`billing on ${process.env.TEST_DB ?? 'postgres'}`, () => {
  it('never overspends the cap under 60 concurrent charges', async () => {
    const org = await createTestOrg(be.db);
    await setSpendCap(be.db, org.orgId, 10_000); // room for exactly 10 charges of 1,000
    const results = await Promise.allSettled(
      Array.from({ length: 60 }, (_, i) =>
        charge(be.db, { orgId: org.orgId, sandbox: false, serviceType: 'test', costMicros: 1000, idempotencyRef: `conc:${org.orgId}:${i}` }),
      ),
    );
    const charged = results.filter((r) => r.status === 'fulfilled').length;
    const refused = results.filter((r) => r.status === 'rejected' && r.reason instanceof SpendCapError).length;
    expect(charged).toBe(10);
    expect(refused).toBe(50);
    const rows = await be.db.query<{ n: number; total: string }>('SELECT count(*)::int AS n, sum(cost_micros)::text AS total FROM ledger WHERE org_id = $1', [
      org.orgId,
    ]);
    expect(rows[0]!.n).toBe(10);
    expect(Number(rows[0]!.total)).toBe(10_000);
    const s = await spendStatus(be.db, org.orgId, false);
    expect(s.spent_micros).toBe(10_000);
    expect(s.at_cap).toBe(true);
  });

  it('writes a charge exactly once per idempotency reference, even concurrently', async () => {
    const org = await createTestOrg(be.db);
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () =>
        charge(be.db, { orgId: org.orgId, sandbox: false, serviceType: 'test', costMicros: 500, idempotencyRef: `once:${org.orgId}` }),
      ),
    );
    expect(outcomes.filter((o) => o === 'charged')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'duplicate')).toHaveLength(19);
    const s = await spendStatus(be.db, org.orgId, false);
    expect(s.spent_micros).toBe(500);
  });

  it('sandbox usage is metered, never invoiced, and its allowance never blocks production', async () => {
    const org = await createTestOrg(be.db);
    await be.db.query('UPDATE organizations SET sandbox_allowance_micros = 2000 WHERE id = $1', [org.orgId]);
    await setSpendCap(be.db, org.orgId, 1_000_000);
    await charge(be.db, { orgId: org.orgId, sandbox: true, serviceType: 'test', costMicros: 2000, idempotencyRef: `sb:${org.orgId}:1` });
    await expect(
      charge(be.db, { orgId: org.orgId, sandbox: true, serviceType: 'test', costMicros: 1, idempotencyRef: `sb:${org.orgId}:2` }),
    ).rejects.toBeInstanceOf(SpendCapError);
    expect(await charge(be.db, { orgId: org.orgId, sandbox: false, serviceType: 'test', costMicros: 5000, idempotencyRef: `prod:${org.orgId}:1` })).toBe(
      'charged',
    );
    const rows = await be.db.query<{ sandbox: boolean; invoiced: boolean }>('SELECT sandbox, invoiced FROM ledger WHERE org_id = $1 ORDER BY id', [org.orgId]);
    expect(rows).toEqual([
      { sandbox: true, invoiced: false },
      { sandbox: false, invoiced: true },
    ]);
  });

  it('a refused charge leaves no ledger row', async () => {
    const org = await createTestOrg(be.db);
    await setSpendCap(be.db, org.orgId, 100);
    await expect(
      charge(be.db, { orgId: org.orgId, sandbox: false, serviceType: 'test', costMicros: 101, idempotencyRef: `big:${org.orgId}` }),
    ).rejects.toBeInstanceOf(SpendCapError);
    const rows = await be.db.query('SELECT 1 FROM ledger WHERE org_id = $1', [org.orgId]);
    expect(rows).toHaveLength(0);
  });
});
