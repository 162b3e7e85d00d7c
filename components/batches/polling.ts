/**
 * How often the Batches page polls. A running job is watched closely; a parked job waits for its spend cap (which
 * may take until the next billing month), so it is checked rarely; a failing request stops polling (the error is
 * shown with a retry button) instead of hammering the server for ever.
 */
export const RUNNING_POLL_MS = 1000;
export const LIST_POLL_MS = 2000;
export const PARKED_POLL_MS = 30_000;

type Status = 'queued' | 'running' | 'parked' | 'done' | 'failed' | string;

/** refetchInterval of one job: 1 s while queued/running, 30 s while parked, off when finished or on error. */
export function jobPollInterval(status: Status | undefined, failed: boolean): number | false {
  if (failed) return false;
  if (status === undefined || status === 'queued' || status === 'running') return RUNNING_POLL_MS;
  if (status === 'parked') return PARKED_POLL_MS;
  return false;
}

/** refetchInterval of the job list: 2 s while any job is queued/running, 30 s if the only open jobs are parked. */
export function listPollInterval(statuses: readonly Status[] | undefined, failed: boolean): number | false {
  if (failed || !statuses) return false;
  if (statuses.some((s) => s === 'queued' || s === 'running')) return LIST_POLL_MS;
  if (statuses.includes('parked')) return PARKED_POLL_MS;
  return false;
}
