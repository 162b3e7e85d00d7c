import { describe, expect, it } from 'vitest';
import { jobPollInterval, listPollInterval, PARKED_POLL_MS } from '@/components/batches/polling';

/** The Batches page's polling (components/batches/polling.ts). */
describe('batches page polling', () => {
  it('polls a running job every second, a parked one every 30 s, and stops when finished or failing', () => {
    expect(jobPollInterval(undefined, false)).toBe(1000);
    expect(jobPollInterval('queued', false)).toBe(1000);
    expect(jobPollInterval('running', false)).toBe(1000);
    expect(jobPollInterval('parked', false)).toBe(PARKED_POLL_MS);
    expect(PARKED_POLL_MS).toBeGreaterThanOrEqual(30_000);
    expect(jobPollInterval('done', false)).toBe(false);
    expect(jobPollInterval('failed', false)).toBe(false);
    for (const s of [undefined, 'queued', 'running', 'parked']) expect(jobPollInterval(s, true)).toBe(false);
  });

  it('polls the list while a job runs, rarely when only parked jobs are open, never on error', () => {
    expect(listPollInterval(['done', 'running'], false)).toBe(2000);
    expect(listPollInterval(['done', 'parked'], false)).toBe(PARKED_POLL_MS);
    expect(listPollInterval(['done', 'failed'], false)).toBe(false);
    expect(listPollInterval(undefined, false)).toBe(false);
    expect(listPollInterval(['running'], true)).toBe(false);
  });
});
