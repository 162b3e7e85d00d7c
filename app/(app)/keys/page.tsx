'use client';
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '@/components/trpc';
import { CopyButton, ErrorBox, PageHeader, formatDate, EmptyRow } from '@/components/ui';

const SCOPES = ['drg:classify', 'llm:chat', 'redact', 'search'] as const;

export default function KeysPage() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const keys = useQuery(trpc.account.listKeys.queryOptions());
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>([]);
  const [sandbox, setSandbox] = useState(false);
  const [days, setDays] = useState('365');
  const [created, setCreated] = useState<{ key: string; display: string } | null>(null);

  const invalidate = () => qc.invalidateQueries({ queryKey: trpc.account.listKeys.queryKey() });
  const create = useMutation(
    trpc.account.createKey.mutationOptions({
      onSuccess: (res) => {
        setCreated({ key: res.key, display: res.view.display });
        setName('');
        void invalidate();
      },
    }),
  );
  const revoke = useMutation(trpc.account.revokeKey.mutationOptions({ onSuccess: () => void invalidate() }));

  function onCreate(e: FormEvent) {
    e.preventDefault();
    setCreated(null);
    create.mutate({
      name: name || undefined,
      scopes: scopes as (typeof SCOPES)[number][],
      sandbox,
      expires_in_days: days === 'never' ? null : Number(days),
    });
  }

  return (
    <>
      <PageHeader title="API keys">At most two keys can be active at once, so you can rotate without downtime. The full key is shown once.</PageHeader>

      {created ? (
        <div className="alert alert-success" data-testid="new-key">
          <strong>Copy this key now. It will not be shown again.</strong>
          <div className="key-reveal">
            <code data-testid="new-key-value">{created.key}</code>
            <CopyButton text={created.key} />
          </div>
          <button type="button" className="btn btn-small btn-ghost" onClick={() => setCreated(null)}>
            I have stored it
          </button>
        </div>
      ) : null}

      <form className="card form-grid" onSubmit={onCreate} aria-label="Create key">
        <h2>Create a key</h2>
        <label>
          Name
          <input name="name" value={name} onChange={(e) => setName(e.target.value)} placeholder="e.g. billing system" maxLength={100} />
        </label>
        <fieldset>
          <legend>Scopes (none = all)</legend>
          {SCOPES.map((s) => (
            <label key={s} className="inline">
              <input
                type="checkbox"
                checked={scopes.includes(s)}
                onChange={(e) => setScopes(e.target.checked ? [...scopes, s] : scopes.filter((x) => x !== s))}
              />
              {s}
            </label>
          ))}
        </fieldset>
        <label className="inline">
          <input type="checkbox" checked={sandbox} onChange={(e) => setSandbox(e.target.checked)} /> Sandbox key (synthetic data; metered, never invoiced)
        </label>
        <label>
          Expires
          <select value={days} onChange={(e) => setDays(e.target.value)}>
            <option value="30">in 30 days</option>
            <option value="90">in 90 days</option>
            <option value="365">in 12 months (default)</option>
            <option value="never">never</option>
          </select>
        </label>
        <ErrorBox error={create.error} />
        <div>
          <button className="btn btn-primary" type="submit" disabled={create.isPending}>
            Create key
          </button>
        </div>
      </form>

      <section className="card">
        <h2>Keys</h2>
        <ErrorBox error={keys.error ?? revoke.error} />
        <table className="table" data-testid="keys-table">
          <thead>
            <tr>
              <th>Key</th>
              <th>Name</th>
              <th>Scopes</th>
              <th>Created</th>
              <th>Last used</th>
              <th>Expires</th>
              <th>Status</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {(keys.data ?? []).map((k) => (
              <tr key={k.id} data-key-id={k.id}>
                <td>
                  <code>{k.display}</code> {k.sandbox ? <span className="badge">sandbox</span> : null}
                </td>
                <td>{k.name ?? '—'}</td>
                <td>{k.scopes.length ? k.scopes.join(', ') : 'all'}</td>
                <td>{formatDate(k.created_at)}</td>
                <td>{formatDate(k.last_used_at)}</td>
                <td>{k.expires_at ? formatDate(k.expires_at) : 'never'}</td>
                <td>
                  <span className={`badge badge-${k.status}`}>{k.status}</span>
                </td>
                <td>
                  {k.status === 'active' ? (
                    <button
                      type="button"
                      className="btn btn-small btn-danger"
                      disabled={revoke.isPending}
                      onClick={() => {
                        if (window.confirm(`Revoke ${k.display}? Calls with it fail from the next request.`)) revoke.mutate({ id: k.id });
                      }}
                    >
                      Revoke
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
            {keys.data && !keys.data.length ? <EmptyRow cols={8}>No keys yet.</EmptyRow> : null}
          </tbody>
        </table>
      </section>
    </>
  );
}
