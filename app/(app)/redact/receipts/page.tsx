'use client';
import { Suspense, useState } from 'react';
import { useRouter, useSearchParams } from 'next/navigation';
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/components/trpc';
import { ErrorBox, PageHeader, formatDate, EmptyRow } from '@/components/ui';
import { ENTITY_LABELS } from '@/components/redact/entities';
import { ReceiptView } from '@/components/redact/receipt-view';

const SOURCES = { redact: 'Redact', chat: 'Chat gateway', agent: 'Agent' } as const;

/** The receipt inspector: the organisation's redaction receipts, metadata only (counts, status, engine, caller, time). */
export default function ReceiptsPage() {
  return (
    <Suspense fallback={null}>
      <Receipts />
    </Suspense>
  );
}

function Receipts() {
  const trpc = useTRPC();
  const router = useRouter();
  const params = useSearchParams();
  const selected = params.get('id');
  const [cursors, setCursors] = useState<string[]>([]); // stack of `before` cursors; empty = newest page
  const [source, setSource] = useState<'' | keyof typeof SOURCES>('');
  const [status, setStatus] = useState<'' | 'ok' | 'failed_closed'>('');
  const before = cursors[cursors.length - 1];
  const list = useQuery(trpc.redact.receipts.queryOptions({ limit: 25, before, source: source || undefined, status: status || undefined }));
  const detail = useQuery({ ...trpc.redact.receipt.queryOptions({ receipt_id: selected ?? '' }), enabled: !!selected });
  const select = (id: string | null) => router.replace(id ? `/redact/receipts?id=${id}` : '/redact/receipts', { scroll: false });

  return (
    <>
      <PageHeader title="Redaction receipts">
        Every redaction by this organisation — from this page, the API, the chat gateway and the agent — leaves a receipt: what was caught, never the values.
        Newest first.
      </PageHeader>

      <div className={selected ? 'redact-inspector with-detail' : 'redact-inspector'}>
        <section className="card">
          <div className="redact-filters">
            <label className="inline">
              Source
              <select
                value={source}
                onChange={(e) => {
                  setSource(e.target.value as typeof source);
                  setCursors([]);
                }}
              >
                <option value="">all</option>
                {Object.entries(SOURCES).map(([k, v]) => (
                  <option key={k} value={k}>
                    {v}
                  </option>
                ))}
              </select>
            </label>
            <label className="inline">
              Status
              <select
                value={status}
                onChange={(e) => {
                  setStatus(e.target.value as typeof status);
                  setCursors([]);
                }}
              >
                <option value="">all</option>
                <option value="ok">ok</option>
                <option value="failed_closed">failed_closed</option>
              </select>
            </label>
            <button type="button" className="btn btn-small" onClick={() => void list.refetch()}>
              Refresh
            </button>
          </div>
          <ErrorBox error={list.error} />
          <table className="table redact-receipts" data-testid="receipts-table">
            <thead>
              <tr>
                <th>When</th>
                <th>Source</th>
                <th>Status</th>
                <th>Entities</th>
                <th>Caller</th>
                <th>Size</th>
                <th>Duration</th>
              </tr>
            </thead>
            <tbody>
              {(list.data?.receipts ?? []).map((r) => (
                <tr
                  key={r.receipt_id}
                  data-receipt-id={r.receipt_id}
                  className={r.receipt_id === selected ? 'selected' : undefined}
                  onClick={() => select(r.receipt_id)}
                  tabIndex={0}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter') select(r.receipt_id);
                  }}
                >
                  <td>{formatDate(r.created_at)}</td>
                  <td>{SOURCES[r.source]}</td>
                  <td>
                    <span className={`badge ${r.receipt.status === 'ok' ? 'badge-ok' : 'badge-failed'}`}>{r.receipt.status}</span>
                  </td>
                  <td className="small">
                    {r.entities_total
                      ? Object.entries(r.receipt.entities_redacted)
                          .map(([t, n]) => `${ENTITY_LABELS[t] ?? t} ${n}`)
                          .join(' · ')
                      : r.receipt.status === 'ok'
                        ? 'none'
                        : (r.failure_reason ?? '—')}
                  </td>
                  <td className="small">
                    {r.api_key_id ? (
                      <>
                        key <code>{r.api_key_id.slice(0, 8)}</code>
                      </>
                    ) : r.user_id ? (
                      'signed-in user'
                    ) : (
                      '—'
                    )}
                  </td>
                  <td className="small">{r.input_chars === null ? '—' : `${r.input_chars.toLocaleString('en')} chars`}</td>
                  <td className="small">{r.duration_ms === null ? '—' : `${r.duration_ms} ms`}</td>
                </tr>
              ))}
              {list.data && !list.data.receipts.length ? <EmptyRow cols={7}>No receipts yet.</EmptyRow> : null}
            </tbody>
          </table>
          <div className="redact-pager">
            <button type="button" className="btn btn-small" disabled={!cursors.length} onClick={() => setCursors((c) => c.slice(0, -1))}>
              Newer
            </button>
            <button
              type="button"
              className="btn btn-small"
              disabled={!list.data?.next_before}
              onClick={() => setCursors((c) => [...c, list.data!.next_before!])}
            >
              Older
            </button>
          </div>
        </section>

        {selected ? (
          <section className="card" aria-label="Receipt detail" data-testid="receipt-detail">
            <div className="redact-result-head">
              <h2>Receipt</h2>
              <button type="button" className="btn btn-small btn-ghost" onClick={() => select(null)}>
                Close
              </button>
            </div>
            <ErrorBox error={detail.error} />
            {detail.data ? (
              <>
                <dl className="kv redact-meta">
                  <dt>When</dt>
                  <dd>{formatDate(detail.data.created_at)}</dd>
                  <dt>Source</dt>
                  <dd>{SOURCES[detail.data.source]}</dd>
                  <dt>Caller</dt>
                  <dd>
                    {detail.data.api_key_id ? (
                      <>
                        API key <code>{detail.data.api_key_id}</code>
                      </>
                    ) : detail.data.user_id ? (
                      <>
                        user <code>{detail.data.user_id}</code>
                      </>
                    ) : (
                      '—'
                    )}
                  </dd>
                  <dt>Request id</dt>
                  <dd>
                    <code>{detail.data.request_id ?? '—'}</code>
                  </dd>
                  {detail.data.failure_reason ? (
                    <>
                      <dt>Failure</dt>
                      <dd>{detail.data.failure_reason}</dd>
                    </>
                  ) : null}
                  <dt>Input size</dt>
                  <dd>{detail.data.input_chars === null ? '—' : `${detail.data.input_chars.toLocaleString('en')} characters`}</dd>
                  <dt>Duration</dt>
                  <dd>{detail.data.duration_ms === null ? '—' : `${detail.data.duration_ms} ms`}</dd>
                </dl>
                <h3>Receipt fields</h3>
                <ReceiptView receipt={{ ...detail.data.receipt, receipt_id: detail.data.receipt_id }} testId="inspected-receipt" />
              </>
            ) : null}
          </section>
        ) : null}
      </div>
    </>
  );
}
