'use client';
import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSession } from 'next-auth/react';
import { useTRPC } from '@/components/trpc';
import { ErrorBox, PageHeader, formatDate, usd, EmptyRow } from '@/components/ui';

function Meter({ spent, cap, label }: { spent: number; cap: number | null; label: string }) {
  const pct = cap ? Math.min(100, (spent / cap) * 100) : 0;
  return (
    <div className="meter-block">
      <div className="meter-label">
        <span>{label}</span>
        <span data-testid={`meter-${label.toLowerCase().replace(/\s+/g, '-')}`}>
          {usd(spent)} {cap === null ? '(no cap)' : `of ${usd(cap)}`}
        </span>
      </div>
      <div className="meter" role="progressbar" aria-valuenow={Math.round(pct)} aria-valuemin={0} aria-valuemax={100}>
        <div className={pct >= 100 ? 'meter-fill meter-full' : 'meter-fill'} style={{ width: `${pct}%` }} />
      </div>
    </div>
  );
}

export default function UsagePage() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const { data: session } = useSession();
  const isAdmin = (session as unknown as { role?: string } | null)?.role === 'admin';
  const usage = useQuery(trpc.account.usage.queryOptions());
  const [cap, setCap] = useState('');
  const setSpendCap = useMutation(
    trpc.account.setSpendCap.mutationOptions({ onSuccess: () => void qc.invalidateQueries({ queryKey: trpc.account.usage.queryKey() }) }),
  );
  const u = usage.data;
  return (
    <>
      <PageHeader title="Usage">Spend this billing period (calendar month, UTC) against your caps.</PageHeader>
      <ErrorBox error={usage.error ?? setSpendCap.error} />
      {u ? (
        <>
          <section className="card">
            <h2>Period {u.period}</h2>
            <Meter label="Production" spent={u.production.spent_micros} cap={u.production.cap_micros} />
            <Meter label="Sandbox allowance" spent={u.sandbox.spent_micros} cap={u.sandbox.cap_micros} />
            {isAdmin ? (
              <form
                className="inline-form"
                onSubmit={(e) => {
                  e.preventDefault();
                  setSpendCap.mutate({ cap_usd: cap.trim() === '' ? null : Number(cap) });
                }}
              >
                <label>
                  Monthly cap (USD, empty = none)
                  <input value={cap} onChange={(e) => setCap(e.target.value)} inputMode="decimal" placeholder="e.g. 500" />
                </label>
                <button className="btn" type="submit">
                  Set cap
                </button>
              </form>
            ) : null}
          </section>
          <section className="card">
            <h2>By service</h2>
            <table className="table">
              <thead>
                <tr>
                  <th>Service</th>
                  <th>Pool</th>
                  <th>Requests</th>
                  <th>Units</th>
                  <th>Cost</th>
                </tr>
              </thead>
              <tbody>
                {u.by_service.map((s) => (
                  <tr key={`${s.service_type}-${s.sandbox}`}>
                    <td>{s.service_type}</td>
                    <td>{s.sandbox ? 'sandbox (not invoiced)' : 'production'}</td>
                    <td>{s.requests}</td>
                    <td>{s.units}</td>
                    <td>{usd(s.cost_micros)}</td>
                  </tr>
                ))}
                {!u.by_service.length ? <EmptyRow cols={5}>No billable usage this period.</EmptyRow> : null}
              </tbody>
            </table>
          </section>
          <section className="card">
            <h2>Recent ledger entries</h2>
            <table className="table">
              <thead>
                <tr>
                  <th>When</th>
                  <th>Service</th>
                  <th>Units</th>
                  <th>Cost</th>
                  <th>Invoiced</th>
                </tr>
              </thead>
              <tbody>
                {u.recent.map((r) => (
                  <tr key={r.id}>
                    <td>{formatDate(r.created_at)}</td>
                    <td>{r.service_type}</td>
                    <td>{r.units}</td>
                    <td>{usd(r.cost_micros)}</td>
                    <td>{r.invoiced ? 'yes' : 'no (sandbox)'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        </>
      ) : null}
    </>
  );
}
