import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestOrg, startBackend, type TestBackend, type TestOrg } from '../helpers/backend';
import { setLogSink } from '@/server/log';

let be: TestBackend;
let org: TestOrg;
const lines: string[] = [];
beforeAll(async () => {
  be = await startBackend();
  org = await createTestOrg(be.db);
  setLogSink((l) => lines.push(l));
});
afterAll(async () => {
  await be?.close();
});

describe(`internal errors on ${process.env.TEST_DB ?? 'postgres'}`, () => {
  it('a 500 carries a request_id that is in the structured log, and no stack trace', async () => {
    await be.db.exec('ALTER TABLE spend_counters RENAME TO spend_counters_gone');
    try {
      const r = await api(be.baseUrl, 'GET', '/api/v1/usage', { key: org.key });
      expect(r.status).toBe(500);
      expect(r.body.error).toBe('internal_error');
      expect(typeof r.body.request_id).toBe('string');
      expect(r.headers.get('x-request-id')).toBe(r.body.request_id);
      expect(r.text).not.toMatch(/\bat [\w.<>]+ \(|\.ts:\d+|spend_counters/);
      const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.request_id === r.body.request_id);
      expect(logged.some((l) => l.level === 'error')).toBe(true);
    } finally {
      await be.db.exec('ALTER TABLE spend_counters_gone RENAME TO spend_counters');
    }
  });
});
