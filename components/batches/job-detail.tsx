'use client';
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTRPC, useTRPCClient } from '@/components/trpc';
import { ErrorBox, formatDate, usd, EmptyRow } from '@/components/ui';
import Link from 'next/link';
import { downloadText, resultsToCsv, type InputRow, type ResultRow } from './csv';
import { ResultCard } from '@/components/grouper/result-card';
import { caseHref, EMPTY_CASE, normaliseCode, type Poa } from '@/components/case/case';
import { jobPollInterval } from './polling';

/**
 * One job: a live progress bar while it runs (polling: 1 s while running, 30 s while parked, stopped on an error),
 * its counts, and its per-case results with a failed-only filter.
 */
const PAGE = 50;

export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge badge-${status}`}>{status}</span>;
}

export function JobDetail({ jobId }: { jobId: string }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const [failedOnly, setFailedOnly] = useState(false);
  const [offset, setOffset] = useState(0);
  const [downloading, setDownloading] = useState(false);
  const [downloadError, setDownloadError] = useState<unknown>(null);
  const job = useQuery({
    ...trpc.batch.get.queryOptions({ job_id: jobId, offset, limit: PAGE, status: failedOnly ? 'failed' : undefined }),
    refetchInterval: (q) => jobPollInterval(q.state.data?.status, q.state.status === 'error'),
    placeholderData: (prev) => prev,
  });
  const j = job.data;
  const [explainIdx, setExplainIdx] = useState<number | null>(null);
  // The submitted codes of the rows on screen (one range query covers a filtered page too).
  const idx = j?.results.map((r) => r.index) ?? [];
  const lo = idx.length ? Math.min(...idx) : 0;
  const inputs = useQuery({
    ...trpc.batch.inputs.queryOptions({ job_id: jobId, offset: lo, limit: Math.min(1000, idx.length ? Math.max(...idx) - lo + 1 : 1) }),
    enabled: idx.length > 0,
  });
  const inputOf = new Map((inputs.data ?? []).map((i) => [i.index, i]));
  const pct = j ? Math.round(((j.counts.done + j.counts.failed) / j.counts.total) * 100) : 0;

  async function download() {
    setDownloading(true);
    setDownloadError(null);
    try {
      const rows: ResultRow[] = [];
      const ins: InputRow[] = [];
      let next: number | null = 0;
      while (next !== null) {
        const page = await client.batch.get.query({ job_id: jobId, offset: next, limit: 1000 });
        rows.push(...page.results);
        ins.push(...(await client.batch.inputs.query({ job_id: jobId, offset: next, limit: 1000 })));
        next = page.page.next_offset;
      }
      downloadText(`drg-batch-${jobId}.csv`, resultsToCsv(rows, ins));
    } catch (err) {
      setDownloadError(err);
    } finally {
      setDownloading(false);
    }
  }

  return (
    <section className="card" data-testid="batch-job" aria-label="Batch job">
      <ErrorBox error={job.error ?? downloadError} />
      {job.isError ? (
        <p>
          <span className="muted small">Updates stopped. </span>
          <button type="button" className="btn btn-small" onClick={() => void job.refetch()}>
            Try again
          </button>
        </p>
      ) : null}
      {j ? (
        <>
          <div className="batch-job-head">
            <h2>
              Job <code>{j.job_id}</code>
            </h2>
            <span data-testid="job-status">
              <StatusBadge status={j.status} />
            </span>
          </div>
          <div className="meter-block">
            <div className="meter-label">
              <span data-testid="job-progress-text">
                {j.counts.done + j.counts.failed} of {j.counts.total} cases finished
              </span>
              <span>{pct}%</span>
            </div>
            <div className="meter" role="progressbar" aria-label="Batch progress" aria-valuenow={pct} aria-valuemin={0} aria-valuemax={100}>
              <div className={j.status === 'parked' ? 'meter-fill batch-meter-parked' : 'meter-fill'} style={{ width: `${pct}%` }} />
            </div>
          </div>
          {j.status === 'parked' ? (
            <div className="alert alert-warn" role="status">
              Parked at the spend cap: {j.counts.pending} case{j.counts.pending === 1 ? '' : 's'} wait. The job resumes by itself when the cap is raised (Usage
              page) or the next billing month begins.
            </div>
          ) : null}
          <dl className="kv batch-kv">
            <dt>Done</dt>
            <dd data-testid="count-done">{j.counts.done}</dd>
            <dt>Failed</dt>
            <dd data-testid="count-failed">{j.counts.failed}</dd>
            <dt>Pending</dt>
            <dd data-testid="count-pending">{j.counts.pending}</dd>
            <dt>Version</dt>
            <dd>{j.version}</dd>
            <dt>Billed</dt>
            <dd>
              {usd(Math.round(j.billing.billed_usd * 1e6))} ({j.billing.billed_cases} × {usd(Math.round(j.billing.price_per_case_usd * 1e6))}, {j.billing.pool})
            </dd>
            <dt>Submitted</dt>
            <dd>{formatDate(j.created_at)}</dd>
            <dt>Finished</dt>
            <dd>{formatDate(j.finished_at)}</dd>
          </dl>

          <div className="batch-results-bar">
            <label className="inline">
              <input
                type="checkbox"
                checked={failedOnly}
                onChange={(e) => {
                  setFailedOnly(e.target.checked);
                  setOffset(0);
                }}
              />
              Failed only
            </label>
            <button type="button" className="btn btn-small" onClick={() => void download()} disabled={downloading}>
              {downloading ? 'Preparing…' : 'Download CSV'}
            </button>
          </div>
          <table className="table batch-table" data-testid="batch-results">
            <thead>
              <tr>
                <th title="Row of the submitted batch; the CSV export's row column">Row</th>
                <th>case_ref</th>
                <th>Codes</th>
                <th>Status</th>
                <th>DRG</th>
                <th>Description / error</th>
                <th>MDC</th>
                <th>
                  <span className="sr-only">Explanation</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {j.results.map((r) => (
                <tr key={r.index} data-status={r.status} data-index={r.index} className={explainIdx === r.index ? 'row-selected' : undefined}>
                  <td className="muted">{r.index + 1}</td>
                  <td>
                    <code>{r.case_ref}</code>
                  </td>
                  <td className="small" data-testid="case-codes">
                    {inputOf.get(r.index) ? (
                      <>
                        <code>{inputOf.get(r.index)!.dx_codes.join(' ')}</code>
                        {inputOf.get(r.index)!.pr_codes.length ? (
                          <>
                            {' · '}
                            <code>{inputOf.get(r.index)!.pr_codes.join(' ')}</code>
                          </>
                        ) : null}
                      </>
                    ) : (
                      '…'
                    )}
                  </td>
                  <td>
                    <StatusBadge status={r.status} />
                  </td>
                  <td>{r.result ? <strong>{r.result.primary_drg}</strong> : '—'}</td>
                  <td>{r.result ? r.result.description : <span className="batch-error">{r.error ?? 'waiting'}</span>}</td>
                  <td>{r.result?.mdc ?? '—'}</td>
                  <td>
                    {r.status !== 'pending' ? (
                      <button
                        type="button"
                        className="btn btn-small"
                        onClick={() => setExplainIdx(explainIdx === r.index ? null : r.index)}
                        aria-expanded={explainIdx === r.index}
                        aria-label={`Explain row ${r.index + 1}`}
                      >
                        {explainIdx === r.index ? 'Hide' : 'Explain'}
                      </button>
                    ) : null}
                  </td>
                </tr>
              ))}
              {!j.results.length ? <EmptyRow cols={8}>{failedOnly ? 'No failed cases.' : 'No cases.'}</EmptyRow> : null}
            </tbody>
          </table>
          {explainIdx !== null ? <CaseExplanation jobId={jobId} index={explainIdx} onClose={() => setExplainIdx(null)} /> : null}
          <div className="batch-pager">
            <button type="button" className="btn btn-small" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
              Previous
            </button>
            <span className="muted small">{j.page.total ? `${j.page.offset + 1}–${j.page.offset + j.page.returned} of ${j.page.total}` : '0 of 0'}</span>
            <button type="button" className="btn btn-small" disabled={j.page.next_offset === null} onClick={() => setOffset(j.page.next_offset ?? offset)}>
              Next
            </button>
          </div>
        </>
      ) : job.isLoading ? (
        <p className="muted">Loading…</p>
      ) : null}
    </section>
  );
}

/** One case of the job, explained in full by the same grouper version (tRPC batch.explain), with a link to adjust it. */
function CaseExplanation({ jobId, index, onClose }: { jobId: string; index: number; onClose: () => void }) {
  const trpc = useTRPC();
  const q = useQuery(trpc.batch.explain.queryOptions({ job_id: jobId, index }));
  const d = q.data;
  const r = d?.result;
  const href = r
    ? caseHref({
        ...EMPTY_CASE,
        dx: r.input.dx_codes.map(normaliseCode),
        poa: r.input.dx_codes.map((_, i) => (r.input.poa?.[i] ?? '') as Poa),
        pr: (r.input.pr_codes ?? []).map(normaliseCode),
        sex: r.input.gender ?? '',
        status: r.input.discharge_status ?? (r.input.is_alive ? 1 : 20),
        version: r.version,
      })
    : null;
  return (
    <section className="batch-explain" data-testid="batch-explain" aria-label={`Row ${index + 1} explained`}>
      <div className="batch-explain-head">
        <h3>
          Row {index + 1}
          {d ? (
            <>
              {' · '}
              <code>{d.case_ref}</code>
            </>
          ) : null}
        </h3>
        {href ? (
          <Link className="btn btn-small" href={href} data-testid="batch-open-case">
            Open in Group a case
          </Link>
        ) : null}
        <button type="button" className="btn btn-small btn-ghost" onClick={onClose}>
          Close
        </button>
      </div>
      <ErrorBox error={q.error} />
      {r ? <ResultCard result={r} /> : q.isLoading ? <p className="muted">Loading…</p> : null}
    </section>
  );
}
