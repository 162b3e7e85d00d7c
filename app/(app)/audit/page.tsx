'use client';
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/components/trpc';
import { ErrorBox, PageHeader, formatDate } from '@/components/ui';

const ACTIONS: Record<string, string> = {
  'key.create': 'Key created',
  'key.revoke': 'Key revoked',
  'org.set_cap': 'Spend cap changed',
  'user.create': 'User created',
};

export default function AuditPage() {
  const trpc = useTRPC();
  const audit = useQuery(trpc.account.audit.queryOptions({ limit: 200 }));
  return (
    <>
      <PageHeader title="Audit log">Who did what, and when. Newest first.</PageHeader>
      <section className="card">
        <ErrorBox error={audit.error} />
        <table className="table" data-testid="audit-table">
          <thead>
            <tr>
              <th>When</th>
              <th>Who</th>
              <th>What</th>
              <th>Target</th>
              <th>Details</th>
            </tr>
          </thead>
          <tbody>
            {(audit.data ?? []).map((e) => (
              <tr key={e.id}>
                <td>{formatDate(e.created_at)}</td>
                <td>{e.actor}</td>
                <td>{ACTIONS[e.action] ?? e.action}</td>
                <td>
                  <code>{e.target_id ?? '—'}</code>
                </td>
                <td className="small">
                  {e.details
                    ? Object.entries(e.details)
                        .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(', ') || '—' : String(v)}`)
                        .join(' · ')
                    : ''}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </>
  );
}
