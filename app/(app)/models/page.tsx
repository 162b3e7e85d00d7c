'use client';
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '@/components/trpc';
import { ErrorBox, PageHeader, formatDate, EmptyRow } from '@/components/ui';

const EMPTY = {
  name: '',
  base_url: '',
  upstream_model: '',
  api_key_env: '',
  family: 'standard' as 'standard' | 'reasoning',
  approved: false,
  price_in: '0',
  price_out: '0',
  timeout_ms: '60000',
};

/**
 * The chat gateway's model registry (admins). Deployment-wide models come from the operator (CLI) and are read only
 * here; the organisation's own models are added and removed here. Keys are never entered: a model names the
 * environment variable that holds its key.
 */
export default function ModelsPage() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const list = useQuery(trpc.gateway.models.queryOptions());
  const [f, setF] = useState(EMPTY);
  const invalidate = () => qc.invalidateQueries({ queryKey: trpc.gateway.models.queryKey() });
  const add = useMutation(
    trpc.gateway.addModel.mutationOptions({
      onSuccess: () => {
        setF(EMPTY);
        void invalidate();
      },
    }),
  );
  const remove = useMutation(trpc.gateway.removeModel.mutationOptions({ onSuccess: () => void invalidate() }));
  const prefix = list.data?.key_env_prefix ?? 'LLM_ORG_…_';

  function onAdd(e: FormEvent) {
    e.preventDefault();
    add.mutate({
      name: f.name,
      base_url: f.base_url,
      upstream_model: f.upstream_model,
      api_key_env: f.api_key_env.trim() || null,
      family: f.family,
      approved_for_phi: f.approved,
      price_input_per_1k_usd: Number(f.price_in) || 0,
      price_output_per_1k_usd: Number(f.price_out) || 0,
      timeout_ms: Number(f.timeout_ms) || 60_000,
    });
  }
  const set = (k: keyof typeof EMPTY) => (e: { target: { value: string } }) => setF({ ...f, [k]: e.target.value });

  return (
    <>
      <PageHeader title="Models">
        The models the chat gateway can send redacted requests to: any OpenAI-compatible server (OpenAI, Azure OpenAI, vLLM, Ollama, llama.cpp, OpenRouter). A
        model that is not approved for PHI is refused with 403 before anything is sent.
      </PageHeader>

      <section className="card">
        <h2>Registered models</h2>
        <ErrorBox error={list.error ?? remove.error} />
        <table className="table" data-testid="models-table">
          <thead>
            <tr>
              <th>Name</th>
              <th>Scope</th>
              <th>Family</th>
              <th>PHI</th>
              <th>Upstream</th>
              <th>Key variable</th>
              <th>Price / 1K in · out</th>
              <th>Budget</th>
              <th>Added</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {(list.data?.models ?? []).map((m) => (
              <tr key={m.id} data-model={m.name}>
                <td>
                  <code>{m.name}</code>
                </td>
                <td>
                  <span className="badge">{m.scope === 'deployment' ? 'deployment' : 'organisation'}</span>
                </td>
                <td>{m.family}</td>
                <td>
                  <span className={`badge ${m.approved_for_phi ? 'badge-ok' : 'badge-failed'}`}>{m.approved_for_phi ? 'approved' : 'not approved'}</span>
                </td>
                <td className="small">
                  <code>{m.base_url}</code>
                  <br />
                  {m.upstream_model}
                </td>
                <td className="small">
                  {m.api_key_env ? (
                    <>
                      <code>{m.api_key_env}</code>{' '}
                      {m.api_key_configured ? <span className="badge badge-ok">set</span> : <span className="badge badge-failed">not set</span>}
                    </>
                  ) : (
                    <span className="muted">none</span>
                  )}
                </td>
                <td className="small">
                  ${m.price_input_per_1k_usd} · ${m.price_output_per_1k_usd}
                </td>
                <td className="small">{(m.timeout_ms / 1000).toFixed(m.timeout_ms % 1000 ? 1 : 0)} s</td>
                <td className="small">{formatDate(m.created_at)}</td>
                <td>
                  {m.scope === 'organization' ? (
                    <button
                      type="button"
                      className="btn btn-small btn-danger"
                      disabled={remove.isPending}
                      onClick={() => {
                        if (window.confirm(`Remove ${m.name}? Requests naming it will get 404 model_not_found.`)) remove.mutate({ id: m.id });
                      }}
                    >
                      Remove
                    </button>
                  ) : (
                    <span className="muted small">operator (CLI)</span>
                  )}
                </td>
              </tr>
            ))}
            {list.data && !list.data.models.length ? <EmptyRow cols={10}>No models yet.</EmptyRow> : null}
          </tbody>
        </table>
      </section>

      <form className="card form-grid" onSubmit={onAdd} aria-label="Add a model">
        <h2>Add a model for this organisation</h2>
        <label>
          <span>
            Name (what callers send as <code>model</code>)
          </span>
          <input value={f.name} onChange={set('name')} placeholder="e.g. gpt-4o-mini or local-llama" maxLength={100} required />
        </label>
        <label>
          Base URL
          <input value={f.base_url} onChange={set('base_url')} placeholder="https://api.openai.com/v1 or http://127.0.0.1:11434/v1" required />
        </label>
        <label>
          Upstream model
          <input value={f.upstream_model} onChange={set('upstream_model')} placeholder="the model name the upstream expects" required />
        </label>
        <div>
          <label>
            Key variable (optional)
            <input value={f.api_key_env} onChange={set('api_key_env')} placeholder={`${prefix}OPENAI`} />
          </label>
          <p className="muted small">
            The name of a server environment variable that holds the key, never the key itself. Your organisation&apos;s models may use variables named{' '}
            <code>{prefix}…</code>, set by the operator.
          </p>
        </div>
        <label>
          Family
          <select value={f.family} onChange={(e) => setF({ ...f, family: e.target.value as 'standard' | 'reasoning' })}>
            <option value="standard">standard</option>
            <option value="reasoning">reasoning (max_tokens at least 16)</option>
          </select>
        </label>
        <label className="inline">
          <input type="checkbox" checked={f.approved} onChange={(e) => setF({ ...f, approved: e.target.checked })} /> Approved for PHI traffic
        </label>
        <div className="grid-2">
          <label>
            Input price (USD per 1K tokens)
            <input type="number" min="0" step="any" value={f.price_in} onChange={set('price_in')} />
          </label>
          <label>
            Output price (USD per 1K tokens)
            <input type="number" min="0" step="any" value={f.price_out} onChange={set('price_out')} />
          </label>
        </div>
        <label>
          Time budget (ms, non-streamed requests)
          <input type="number" min="100" max="300000" value={f.timeout_ms} onChange={set('timeout_ms')} />
        </label>
        <ErrorBox error={add.error} />
        <div>
          <button className="btn btn-primary" type="submit" disabled={add.isPending}>
            Add model
          </button>
        </div>
      </form>
    </>
  );
}
