'use client';
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/components/trpc';
import { ErrorBox, formatDate, EmptyRow } from '@/components/ui';
import { StatusBadge } from './job-detail';
import { listPollInterval } from './polling';

/** The organisation's past jobs, newest first; refreshes while any of them is still open (rarely if only parked ones are). */
export function JobList({ selected, onSelect }: { selected: string | null; onSelect: (jobId: string) => void }) {
  const trpc = useTRPC();
  const jobs = useQuery({
    ...trpc.batch.list.queryOptions({ limit: 50 }),
    refetchInterval: (q) =>
      listPollInterval(
        q.state.data?.jobs.map((j) => j.status),
        q.state.status === 'error',
      ),
  });
  return (
    <section className="card">
      <h2>Jobs</h2>
      <ErrorBox error={jobs.error} />
      {jobs.isError ? (
        <p>
          <button type="button" className="btn btn-small" onClick={() => void jobs.refetch()}>
            Try again
          </button>
        </p>
      ) : null}
      <table className="table" data-testid="batch-jobs">
        <thead>
          <tr>
            <th>Submitted</th>
            <th>Job</th>
            <th>Status</th>
            <th>Cases</th>
            <th>Done</th>
            <th>Failed</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {(jobs.data?.jobs ?? []).map((j) => (
            <tr key={j.job_id} data-job-id={j.job_id} className={j.job_id === selected ? 'batch-row-selected' : undefined}>
              <td>{formatDate(j.created_at)}</td>
              <td>
                <code>{j.job_id.slice(0, 8)}</code>
              </td>
              <td>
                <StatusBadge status={j.status} />
              </td>
              <td>{j.total_cases}</td>
              <td>{j.counts.done}</td>
              <td>{j.counts.failed}</td>
              <td>
                <button type="button" className="btn btn-small" onClick={() => onSelect(j.job_id)}>
                  Open
                </button>
              </td>
            </tr>
          ))}
          {jobs.data && !jobs.data.jobs.length ? <EmptyRow cols={7}>No batches yet.</EmptyRow> : null}
        </tbody>
      </table>
    </section>
  );
}
