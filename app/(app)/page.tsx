'use client';
import Link from 'next/link';
import { useQuery } from '@tanstack/react-query';
import { PageHeader } from '@/components/ui';
import { NAV_ITEMS } from '@/components/nav-items';

interface Health {
  status: string;
  version: string;
  database: { reachable: boolean; backend?: string };
  queue: { started: boolean };
  data_sets: Array<{ name: string; loaded: boolean; detail?: Record<string, unknown> }>;
}

export default function HomePage() {
  const health = useQuery({
    queryKey: ['health'],
    queryFn: async () => (await fetch('/api/v1/health/')).json() as Promise<Health>,
  });
  return (
    <>
      <PageHeader title="Welcome">Clinical coding tools for your organisation.</PageHeader>
      <section className="grid-cards">
        {NAV_ITEMS.filter((i) => i.section !== 'Organisation').map((i) => (
          <Link key={i.href} href={i.href} className="card card-link">
            <div className="card-kicker">{i.section}</div>
            <div className="card-title">{i.label}</div>
          </Link>
        ))}
      </section>
      <section className="card">
        <h2>Service status</h2>
        {health.data ? (
          <dl className="kv">
            <dt>Status</dt>
            <dd data-testid="health-status">{health.data.status}</dd>
            <dt>Version</dt>
            <dd>{health.data.version}</dd>
            <dt>Database</dt>
            <dd>
              {health.data.database.reachable ? 'reachable' : 'unreachable'} ({health.data.database.backend ?? '—'})
            </dd>
            <dt>Queue</dt>
            <dd>{health.data.queue.started ? 'running' : 'not started'}</dd>
            {health.data.data_sets.map((d) => (
              <div key={d.name} className="kv-row">
                <dt>{d.name}</dt>
                <dd>{d.loaded ? 'loaded' : 'not loaded'}</dd>
              </div>
            ))}
          </dl>
        ) : (
          <p className="muted">Loading…</p>
        )}
      </section>
    </>
  );
}
