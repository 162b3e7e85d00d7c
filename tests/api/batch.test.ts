import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestOrg, startBackend, type TestBackend, type TestOrg } from '../helpers/backend';
import { startWorkers } from '@/server/queue';
import { getGrouper } from '@/server/drg';
import { toGroupInput, type BatchCase } from '@/server/api/schemas/drg';
import { chargeManyIn, setSpendCap, SpendCapError } from '@/server/billing/ledger';
import { sampleCases } from '../fixtures/sample-cases';
import { processChunk } from '@/server/batch/process';
import { sweepBatches } from '@/server/batch/sweep';
import { getBoss, queueStatus, stopQueue } from '@/server/queue';
import { headerParams, initialParams } from '@/components/api-reference';
import '@/server/batch/queues';

/**
 * DRG batch jobs over real HTTP with in-process pg-boss workers, on PostgreSQL and PGlite. The worker-crash test
 * (a separate `npm run worker` process killed with SIGKILL) is in batch-crash.test.ts.
 */
process.env.DRG_BATCH_RESUME_CHECK_SECONDS = '1';
process.env.QUEUE_MONITOR_SECONDS = '2';
process.env.DRG_BATCH_SWEEP_SECONDS = '3600'; // the sweep runs once at worker start; the sweep tests call it themselves
const PRICE = 1000; // default DRG_BATCH_PRICE_MICROS

let be: TestBackend;
let a: TestOrg;
let b: TestOrg;

beforeAll(async () => {
  delete process.env.DRG_BATCH_PRICE_MICROS;
  delete process.env.DRG_BATCH_CHUNK_SIZE;
  be = await startBackend();
  a = await createTestOrg(be.db, { scopes: ['drg:classify'] });
  b = await createTestOrg(be.db);
  await startWorkers(be.db);
});
afterAll(async () => {
  await be?.close();
});

const key = () => `test-${randomUUID()}`;

function submit(org: TestOrg, body: unknown, idem: string | null = key()) {
  return api(be.baseUrl, 'POST', '/api/v1/drg/batch/', { key: org.key, body, headers: idem === null ? {} : { 'idempotency-key': idem } });
}

async function waitFor(org: TestOrg, jobId: string, until: (job: any) => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<any> {
  const started = Date.now();
  for (;;) {
    const r = await api(be.baseUrl, 'GET', `/api/v1/drg/batch/${jobId}/?limit=1`, { key: org.key });
    expect(r.status).toBe(200);
    if (await until(r.body)) return r.body;
    if (Date.now() - started > timeoutMs) throw new Error(`job ${jobId} stuck in ${r.body.status} (${JSON.stringify(r.body.counts)})`);
    await new Promise((res) => setTimeout(res, 100));
  }
}
const finished = (j: any) => j.status === 'done' || j.status === 'failed';

async function allResults(org: TestOrg, jobId: string, status?: string): Promise<any[]> {
  const out: any[] = [];
  let offset: number | null = 0;
  while (offset !== null) {
    const r = await api(be.baseUrl, 'GET', `/api/v1/drg/batch/${jobId}/?offset=${offset}&limit=400${status ? `&status=${status}` : ''}`, { key: org.key });
    expect(r.status).toBe(200);
    out.push(...r.body.results);
    offset = r.body.page.next_offset;
  }
  return out;
}

async function ledgerRows(jobId: string): Promise<Array<{ ref: string; cost: number; sandbox: boolean; invoiced: boolean }>> {
  const rows = await be.db.query<{ idempotency_ref: string; cost: string; sandbox: boolean; invoiced: boolean }>(
    `SELECT idempotency_ref, cost_micros::text AS cost, sandbox, invoiced FROM ledger WHERE service_type = 'drg_batch' AND idempotency_ref LIKE $1 ORDER BY id`,
    [`drg_batch:${jobId}:%`],
  );
  return rows.map((r) => ({ ref: r.idempotency_ref, cost: Number(r.cost), sandbox: r.sandbox, invoiced: r.invoiced }));
}

async function batchCount(org: TestOrg): Promise<number> {
  const rows = await be.db.query<{ n: number }>('SELECT count(*)::int AS n FROM drg_batches WHERE org_id = $1', [org.orgId]);
  return rows[0]!.n;
}

/** Cases the grouper classifies (no DRG 999), for tests that need every case billed. */
async function groupableCases(n: number, prefix: string): Promise<BatchCase[]> {
  const g = await getGrouper('v40');
  return sampleCases(n * 2, { prefix, offset: 1000 })
    .filter((c) => g.group(toGroupInput(c)).drg !== '999')
    .slice(0, n);
}

describe(`DRG batches on ${process.env.TEST_DB ?? 'postgres'}`, () => {
  it('runs a 1000-case batch to done; every result equals the grouper; one ledger row per classified case; a retry is free', async () => {
    const cases = sampleCases(1000, { prefix: 'big' });
    const idem = key();
    const t0 = Date.now();
    const r = await submit(a, { cases, source_dialect: 'icd10cm' }, idem);
    expect(r.status).toBe(201);
    expect(Date.now() - t0).toBeLessThan(5000); // nothing processed inline
    expect(r.body).toMatchObject({ status: 'queued', total_cases: 1000, version: 'v40', counts: { total: 1000, done: 0, failed: 0, pending: 1000 } });
    expect(r.headers.get('location')).toBe(`/api/v1/drg/batch/${r.body.job_id}/`);
    const jobId = r.body.job_id as string;

    const job = await waitFor(a, jobId, finished, 45_000);
    expect(job.status).toBe('done');
    expect(job.counts.done + job.counts.failed).toBe(1000);
    expect(job.counts.pending).toBe(0);
    expect(job.started_at).not.toBeNull();
    expect(job.finished_at).not.toBeNull();

    const g = await getGrouper('v40');
    const results = await allResults(a, jobId);
    expect(results.map((x) => x.index)).toEqual(cases.map((_, i) => i));
    expect(results.map((x) => x.case_ref)).toEqual(cases.map((c) => c.case_ref));
    let done = 0;
    for (let i = 0; i < cases.length; i++) {
      const want = g.group(toGroupInput(cases[i]!));
      const got = results[i];
      if (want.drg === '999') {
        expect(got).toMatchObject({ status: 'failed', result: null, error_code: want.return_code });
        expect(got.error).toMatch(/DRG 999/);
      } else {
        done++;
        expect(got.status).toBe('done');
        expect(got.error).toBeNull();
        expect(got.result).toMatchObject({
          primary_drg: want.drg,
          mdc: want.mdc,
          description: want.description,
          type: want.type,
          return_code: want.return_code,
          severity: want.severity,
          all_candidates: want.all_candidates,
          version: want.version,
          fiscal_year: want.fiscal_year,
        });
      }
    }
    expect(job.counts.done).toBe(done);
    expect(done).toBeGreaterThan(900);

    const ledger = await ledgerRows(jobId);
    expect(ledger).toHaveLength(done);
    expect(new Set(ledger.map((l) => l.ref)).size).toBe(done);
    expect(ledger.every((l) => l.cost === PRICE && !l.sandbox && l.invoiced)).toBe(true);
    const doneIdx = results
      .filter((x) => x.status === 'done')
      .map((x) => `drg_batch:${jobId}:${x.index}`)
      .sort();
    expect(ledger.map((l) => l.ref).sort()).toEqual(doneIdx);
    expect(job.billing).toEqual({ pool: 'production', price_per_case_usd: PRICE / 1e6, billed_cases: done, billed_usd: (done * PRICE) / 1e6 });

    // Retry with the same key: 200, same job, nothing new.
    const again = await submit(a, { cases, source_dialect: 'icd10cm' }, idem);
    expect(again.status).toBe(200);
    expect(again.body.job_id).toBe(jobId);
    expect(again.body.status).toBe('done');
    await new Promise((res) => setTimeout(res, 300));
    expect(await ledgerRows(jobId)).toHaveLength(done);
    const jobs = await be.db.query<{ n: number }>('SELECT count(*)::int AS n FROM drg_batches WHERE org_id = $1 AND idempotency_key = $2', [a.orgId, idem]);
    expect(jobs[0]!.n).toBe(1);

    // Same key, different body: 409.
    const conflict = await submit(a, { cases: cases.slice(1), source_dialect: 'icd10cm' }, idem);
    expect(conflict.status).toBe(409);
    expect(conflict.body).toMatchObject({ error: 'idempotency_conflict', job_id: jobId });

    // Paging and the failed-only filter.
    const page = await api(be.baseUrl, 'GET', `/api/v1/drg/batch/${jobId}?offset=990&limit=50`, { key: a.key });
    expect(page.body.page).toMatchObject({ offset: 990, limit: 50, returned: 10, total: 1000, next_offset: null });
    const failedOnly = await allResults(a, jobId, 'failed');
    expect(failedOnly).toHaveLength(job.counts.failed);
    expect(failedOnly.every((x) => x.status === 'failed')).toBe(true);
  });

  it('validates the Idempotency-Key header, the body and the dialect up front, and creates nothing', async () => {
    const cases = sampleCases(2, { prefix: 'v' });
    const before = await batchCount(a);
    const missing = await submit(a, { cases }, null);
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('idempotency_key_required');
    for (const bad of ['short-7', 'x'.repeat(129), 'bad\tkey-with-tab']) {
      const r = await submit(a, { cases }, bad);
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('invalid_idempotency_key');
    }
    expect((await submit(a, { cases }, '12345678')).status).toBe(201); // 8 characters is enough
    // the same cases again under a new key: allow_duplicate, or the re-submit guard refuses them once the first is done
    expect((await submit(a, { cases, allow_duplicate: true }, 'k'.repeat(128))).status).toBe(201);

    for (const dialect of ['icd10', 'icd11', 'ICD-10-WHO', 'snomed']) {
      const r = await submit(a, { cases: [{ case_ref: 'x' }], source_dialect: dialect }); // refused before the cases are read
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('unsupported_source_dialect');
      expect(r.body.message).toContain(dialect);
    }
    const upper = await submit(a, { cases: sampleCases(1, { prefix: 'u' }), source_dialect: 'ICD10CM' });
    expect(upper.status).toBe(201);
    expect(upper.body.source_dialect).toBe('icd10cm');

    const dup = await submit(a, { cases: [...sampleCases(3, { prefix: 'd' }), ...sampleCases(2, { prefix: 'd' })] });
    expect(dup.status).toBe(400);
    expect(dup.body.error).toBe('duplicate_case_ref');
    expect(dup.body.message).toContain('d-0001');
    expect(dup.body.message).toContain('d-0002');
    expect(dup.body.duplicate_case_refs).toEqual(['d-0001', 'd-0002']);

    const empty = await submit(a, { cases: [] });
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ error: 'invalid_request' });
    expect(empty.body.message).toMatch(/cases/);
    const tooMany = await submit(a, { cases: sampleCases(1001, { prefix: 'm' }) });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toMatch(/1 to 1000/);
    const badCase = await submit(a, { cases: [{ case_ref: 'c1', dx_codes: [], gender: 'M', is_alive: true }] });
    expect(badCase.status).toBe(400);
    expect(badCase.body.message).toMatch(/cases\.0\.dx_codes/);
    // JSON values arrive as sent (the REST door does not coerce): a string is refused, never read as truthy.
    for (const alive of ['false', 'no', 0, null]) {
      const r = await submit(a, { cases: [{ case_ref: 'c1', dx_codes: ['I214'], gender: 'M', is_alive: alive }] });
      expect(r.status).toBe(400);
      expect(r.body.message).toMatch(/cases\.0\.is_alive/);
    }
    const noAlive = await submit(a, { cases: [{ case_ref: 'c1', dx_codes: ['I214'], gender: 'M' }] });
    expect(noAlive.status).toBe(400);
    const badGender = await submit(a, { cases: [{ case_ref: 'c1', dx_codes: ['I214'], gender: 'X', is_alive: true }] });
    expect(badGender.status).toBe(400);
    expect(badGender.body.message).toMatch(/gender/);
    const unknownField = await submit(a, { cases, priority: 'high' });
    expect(unknownField.status).toBe(400);
    const bodyKey = await submit(a, { cases, idempotency_key: 'abcdefghijk' });
    expect(bodyKey.status).toBe(400);
    const badVersion = await submit(a, { cases, version: 'v35' });
    expect(badVersion.status).toBe(400);
    expect(badVersion.body.error).toBe('invalid_version');
    expect(badVersion.body.message).toMatch(/^version: 'v35' is not available on this server; accepted versions: v36, .*v40.*v43/);
    expect(badVersion.body.accepted_versions).toEqual(expect.arrayContaining(['v36', 'v40', 'v43']));
    const spelled = await submit(a, { cases: sampleCases(1, { prefix: 'ver' }), version: ' V43 ' });
    expect(spelled.status).toBe(201);
    expect(spelled.body.version).toBe('v43');
    expect(await batchCount(a)).toBe(before + 4);
  });

  it('needs an API key with drg:classify; access tokens are refused', async () => {
    const searchOnly = await createTestOrg(be.db, { scopes: ['search'] });
    const r = await submit(searchOnly, { cases: sampleCases(1) });
    expect(r.status).toBe(403);
    expect(r.body.error).toBe('insufficient_scope');
    const login = await api(be.baseUrl, 'POST', '/login/', { body: { email: a.email, password: a.password } });
    const jwt = await api(be.baseUrl, 'POST', '/api/v1/drg/batch/', {
      bearer: login.body.access_token,
      body: { cases: sampleCases(1) },
      headers: { 'idempotency-key': key() },
    });
    expect(jwt.status).toBe(401);
    expect(jwt.body.error).toBe('api_key_required');
    const anon = await api(be.baseUrl, 'GET', '/api/v1/drg/batch/');
    expect(anon.status).toBe(401);
  });

  it('a job whose every case fails ends failed, with error strings and no charge; a mixed job ends done', async () => {
    const bad = [
      { case_ref: 'bad-1', dx_codes: ['ZZZ999'], gender: 'M', is_alive: true },
      { case_ref: 'bad-2', dx_codes: ['Q999999'], pr_codes: [], gender: 'F', is_alive: false },
      { case_ref: 'bad-3', dx_codes: ['R69X'], gender: 'F', is_alive: true },
    ];
    const r = await submit(a, { cases: bad });
    expect(r.status).toBe(201);
    const job = await waitFor(a, r.body.job_id, finished);
    expect(job.status).toBe('failed');
    expect(job.counts).toEqual({ total: 3, done: 0, failed: 3, pending: 0 });
    const results = await allResults(a, r.body.job_id);
    for (const x of results) {
      expect(x.status).toBe('failed');
      expect(x.result).toBeNull();
      expect(typeof x.error).toBe('string');
      expect(x.error.length).toBeGreaterThan(10);
      expect(x.error_code).toMatch(/^[A-Z_]+$/);
    }
    expect(results[0].error_code).toBe('INVALID_PDX');
    expect(await ledgerRows(r.body.job_id)).toHaveLength(0);
    expect(job.billing.billed_usd).toBe(0);

    const good = await groupableCases(2, 'good');
    const mixed = await submit(a, { cases: [...bad, ...good] });
    const mj = await waitFor(a, mixed.body.job_id, finished);
    expect(mj.status).toBe('done');
    expect(mj.counts).toEqual({ total: 5, done: 2, failed: 3, pending: 0 });
    expect(await ledgerRows(mixed.body.job_id)).toHaveLength(2);
  });

  it('refuses a submission at the spend cap with 429 and charges nothing', async () => {
    const org = await createTestOrg(be.db);
    await setSpendCap(be.db, org.orgId, 0);
    const r = await submit(org, { cases: sampleCases(5, { prefix: 'cap' }) });
    expect(r.status).toBe(429);
    expect(r.body.error).toBe('spend_cap_reached');
    expect(await batchCount(org)).toBe(0);
    const ledger = await be.db.query('SELECT 1 FROM ledger WHERE org_id = $1', [org.orgId]);
    expect(ledger).toHaveLength(0);
  });

  it('refuses an identical re-submission of a finished batch with 409 duplicate_batch (nothing created or billed) unless allow_duplicate', async () => {
    const org = await createTestOrg(be.db);
    const cases = await groupableCases(3, 'resubmit');
    const first = await submit(org, { cases, version: 'v40' });
    expect(first.status).toBe(201);
    const firstId = first.body.job_id as string;
    expect((await waitFor(org, firstId, finished)).status).toBe('done');
    const billedBefore = await be.db.query<{ n: number }>('SELECT count(*)::int AS n FROM ledger WHERE org_id = $1', [org.orgId]);
    expect(billedBefore[0]!.n).toBe(3);
    const casesBefore = await be.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM drg_batch_cases c JOIN drg_batches b ON b.id = c.batch_id WHERE b.org_id = $1',
      [org.orgId],
    );

    // the same cases under a new key, with the codes spelled with dots and in lower case: the same normalised input
    const respelled = cases.map((c) => ({ ...c, dx_codes: c.dx_codes.map((d) => (d.length > 3 ? `${d.slice(0, 3)}.${d.slice(3)}` : d).toLowerCase()) }));
    const dup = await submit(org, { cases: respelled, version: 'v40' });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ error: 'duplicate_batch', job_id: firstId, window_hours: 24 });
    expect(dup.body.message).toContain(firstId);
    expect(dup.body.message).toContain('allow_duplicate');
    expect(Date.parse(dup.body.finished_at)).not.toBeNaN();
    expect(JSON.stringify(dup.body)).not.toContain(cases[0]!.case_ref); // names the job, not the cases
    // nothing new: no job, no cases, no charge
    expect(await batchCount(org)).toBe(1);
    const casesAfter = await be.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM drg_batch_cases c JOIN drg_batches b ON b.id = c.batch_id WHERE b.org_id = $1',
      [org.orgId],
    );
    expect(casesAfter[0]!.n).toBe(casesBefore[0]!.n);
    const billedAfter = await be.db.query<{ n: number }>('SELECT count(*)::int AS n FROM ledger WHERE org_id = $1', [org.orgId]);
    expect(billedAfter[0]!.n).toBe(3);

    // the same input as an uploaded file is the same input
    const jsonl = cases.map((c) => JSON.stringify(c)).join('\n');
    const p = await api(be.baseUrl, 'POST', '/api/v1/upload/presigned-url/', { key: org.key, body: { filename: 'again.jsonl' } });
    expect(p.status).toBe(201);
    expect((await fetch(p.body.upload_url, { method: 'PUT', headers: p.body.headers, body: jsonl })).status).toBe(200);
    const fromFile = await submit(org, { file_id: p.body.file_id });
    expect(fromFile.status).toBe(409);
    expect(fromFile.body).toMatchObject({ error: 'duplicate_batch', job_id: firstId });

    // what differs is not a duplicate: another version, one case fewer, another organisation
    const otherVersion = await submit(org, { cases, version: 'v43' });
    expect(otherVersion.status).toBe(201);
    const fewer = await submit(org, { cases: cases.slice(1) });
    expect(fewer.status).toBe(201);
    const other = await createTestOrg(be.db, { scopes: ['drg:classify'] });
    expect((await submit(other, { cases })).status).toBe(201);
    // a batch that is not finished yet does not block (only a finished one asks)
    expect(await batchCount(org)).toBe(3);

    // a bad flag is a 400, not a new job
    const badFlag = await submit(org, { cases, allow_duplicate: 'yes' });
    expect(badFlag.status).toBe(400);
    expect(badFlag.body.message).toMatch(/allow_duplicate/);

    // the retry of the refused request with the same key and allow_duplicate creates a new, billed job
    const idem = key();
    expect((await submit(org, { cases }, idem)).status).toBe(409);
    const forced = await submit(org, { cases, allow_duplicate: true }, idem);
    expect(forced.status).toBe(201);
    expect(forced.body.job_id).not.toBe(firstId);
    expect((await waitFor(org, forced.body.job_id, finished)).status).toBe('done');
    expect(await ledgerRows(forced.body.job_id)).toHaveLength(3);
    // a retry of that request (same key) is the same job, not a duplicate
    const retry = await submit(org, { cases, allow_duplicate: true }, idem);
    expect(retry.status).toBe(200);
    expect(retry.body.job_id).toBe(forced.body.job_id);
    // ... and now the newest finished job is the one named
    const third = await submit(org, { cases });
    expect(third.status).toBe(409);
    expect(third.body.job_id).toBe(forced.body.job_id);

    // the window: 0 turns the guard off; a finished job older than the window does not block
    process.env.DRG_BATCH_DUPLICATE_WINDOW_HOURS = '0';
    try {
      const off = await submit(org, { cases: cases.slice(0, 1) });
      expect(off.status).toBe(201);
      expect((await waitFor(org, off.body.job_id, finished)).status).toBe('done');
    } finally {
      delete process.env.DRG_BATCH_DUPLICATE_WINDOW_HOURS;
    }
    expect((await submit(org, { cases: cases.slice(0, 1) })).status).toBe(409);
    await be.db.query(`UPDATE drg_batches SET finished_at = now() - interval '25 hours' WHERE org_id = $1`, [org.orgId]);
    expect((await submit(org, { cases: cases.slice(0, 1) })).status).toBe(201);
  });

  it('parks a job at the spend cap mid-job, and resumes it when the cap is raised', async () => {
    const org = await createTestOrg(be.db);
    await setSpendCap(be.db, org.orgId, 30 * PRICE); // room for 30 cases
    process.env.DRG_BATCH_CHUNK_SIZE = '20'; // 5 chunks, worked concurrently
    let jobId: string;
    const idem = key();
    const cases = await groupableCases(100, 'park');
    try {
      const r = await submit(org, { cases }, idem);
      expect(r.status).toBe(201);
      jobId = r.body.job_id;
    } finally {
      delete process.env.DRG_BATCH_CHUNK_SIZE;
    }
    const parked = await waitFor(org, jobId, (j) => j.status === 'parked');
    // Let the other chunks run into the cap too, then check nothing beyond the cap was done or billed.
    await new Promise((res) => setTimeout(res, 800));
    const still = await waitFor(org, jobId, () => true);
    expect(still.status).toBe('parked');
    expect(still.counts).toEqual({ total: 100, done: 30, failed: 0, pending: 70 });
    expect(still.parked_at).not.toBeNull();
    expect(parked.park_count).toBe(1);
    expect(await ledgerRows(jobId)).toHaveLength(30);
    const pending = await allResults(org, jobId, 'pending');
    expect(pending).toHaveLength(70);

    // At the cap now: a retry of this submission is answered (200, same job), a new batch is refused (429).
    const retry = await submit(org, { cases }, idem);
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ job_id: jobId, status: 'parked' });
    const fresh = await submit(org, { cases: sampleCases(2, { prefix: 'capped' }) });
    expect(fresh.status).toBe(429);
    const counter = await be.db.query<{ spent: string }>('SELECT spent_micros::text AS spent FROM spend_counters WHERE org_id = $1 AND sandbox = false', [
      org.orgId,
    ]);
    expect(Number(counter[0]!.spent)).toBe(30 * PRICE);

    await setSpendCap(be.db, org.orgId, 1_000_000);
    const done = await waitFor(org, jobId, finished, 20_000);
    expect(done.status).toBe('done');
    expect(done.counts).toEqual({ total: 100, done: 100, failed: 0, pending: 0 });
    expect(done.resumed_at).not.toBeNull();
    const ledger = await ledgerRows(jobId);
    expect(ledger).toHaveLength(100);
    expect(new Set(ledger.map((l) => l.ref)).size).toBe(100);
  });

  it('a parked job resumes when a new billing period begins', async () => {
    const org = await createTestOrg(be.db);
    await setSpendCap(be.db, org.orgId, 10 * PRICE);
    const r = await submit(org, { cases: await groupableCases(25, 'period') });
    const jobId = r.body.job_id as string;
    const parked = await waitFor(org, jobId, (j) => j.status === 'parked');
    expect(parked.counts.done).toBe(10);
    // The month turns: this period's spend becomes last period's (the counter is per calendar month).
    await be.db.query(`UPDATE spend_counters SET period = '2000-01' WHERE org_id = $1`, [org.orgId]);
    const after = await waitFor(org, jobId, (j) => j.counts.done === 20 && j.status === 'parked', 20_000);
    expect(after.park_count).toBe(2);
    expect(await ledgerRows(jobId)).toHaveLength(20);
  });

  it('duplicate deliveries of a chunk (a retry after a commit whose completion was lost) classify and bill each case once', async () => {
    const org = await createTestOrg(be.db);
    const r = await submit(org, { cases: sampleCases(120, { prefix: 'dup' }) });
    expect(r.status).toBe(201);
    const jobId = r.body.job_id as string;
    // The workers get the chunk too; these four deliveries race them.
    await Promise.all(Array.from({ length: 4 }, () => processChunk(be.db, { batch_id: jobId, chunk: 0 })));
    const job = await waitFor(org, jobId, finished);
    await processChunk(be.db, { batch_id: jobId, chunk: 0 }); // after the end: a no-op
    const ledger = await ledgerRows(jobId);
    expect(ledger).toHaveLength(job.counts.done);
    expect(new Set(ledger.map((l) => l.ref)).size).toBe(job.counts.done);
    expect(job.counts.done + job.counts.failed).toBe(120);
    const spent = await be.db.query<{ spent: string }>('SELECT spent_micros::text AS spent FROM spend_counters WHERE org_id = $1', [org.orgId]);
    expect(Number(spent[0]!.spent)).toBe(job.counts.done * PRICE);
    const again = await waitFor(org, jobId, () => true);
    expect(again.counts).toEqual(job.counts);
  });

  it('chargeManyIn writes each ref once and refuses a set that does not fit the cap as a whole', async () => {
    const org = await createTestOrg(be.db);
    await setSpendCap(be.db, org.orgId, 5000);
    const input = (i: number) => ({ orgId: org.orgId, sandbox: false, serviceType: 'drg_batch', costMicros: 1000, idempotencyRef: `many:${org.orgId}:${i}` });
    expect(await be.db.transaction((tx) => chargeManyIn(tx, [0, 1, 2].map(input)))).toEqual({ charged: 3, duplicate: 0 });
    expect(await be.db.transaction((tx) => chargeManyIn(tx, [1, 2, 3].map(input)))).toEqual({ charged: 1, duplicate: 2 });
    await expect(be.db.transaction((tx) => chargeManyIn(tx, [4, 5].map(input)))).rejects.toBeInstanceOf(SpendCapError);
    const rows = await be.db.query<{ n: number; spent: string }>(
      `SELECT (SELECT count(*)::int FROM ledger WHERE org_id = $1) AS n, (SELECT spent_micros::text FROM spend_counters WHERE org_id = $1) AS spent`,
      [org.orgId],
    );
    expect(rows[0]).toEqual({ n: 4, spent: '4000' });
  });

  it("keeps jobs per organisation: another organisation's job is 404, lists are separate", async () => {
    const r = await submit(a, { cases: sampleCases(3, { prefix: 'iso' }) });
    const jobId = r.body.job_id as string;
    const other = await api(be.baseUrl, 'GET', `/api/v1/drg/batch/${jobId}/`, { key: b.key });
    expect(other.status).toBe(404);
    expect(other.body.error).toBe('job_not_found');
    expect((await api(be.baseUrl, 'GET', '/api/v1/drg/batch/not-a-uuid/', { key: a.key })).status).toBe(404);
    expect((await api(be.baseUrl, 'GET', `/api/v1/drg/batch/${randomUUID()}/`, { key: a.key })).status).toBe(404);
    const listA = await api(be.baseUrl, 'GET', '/api/v1/drg/batch/?limit=100', { key: a.key });
    expect(listA.status).toBe(200);
    expect(listA.body.jobs.map((j: any) => j.job_id)).toContain(jobId);
    const listB = await api(be.baseUrl, 'GET', '/api/v1/drg/batch/', { key: b.key });
    expect(listB.body.jobs.map((j: any) => j.job_id)).not.toContain(jobId);
    // The same key in another organisation is a different job.
    const idem = key();
    const ja = await submit(a, { cases: sampleCases(1) }, idem);
    const jb = await submit(b, { cases: sampleCases(1) }, idem);
    expect(ja.status).toBe(201);
    expect(jb.status).toBe(201);
    expect(jb.body.job_id).not.toBe(ja.body.job_id);
  });

  it('bills a sandbox key to the sandbox pool, never invoiced', async () => {
    const sb = await createTestOrg(be.db, { sandbox: true });
    const r = await submit(sb, { cases: await groupableCases(4, 'sb') });
    const job = await waitFor(sb, r.body.job_id, finished);
    expect(job.billing.pool).toBe('sandbox');
    const ledger = await ledgerRows(r.body.job_id);
    expect(ledger).toHaveLength(4);
    expect(ledger.every((l) => l.sandbox && !l.invoiced)).toBe(true);
  });

  it('accepts an uploaded CSV or JSONL case file by file_id, with errors that name lines', async () => {
    async function upload(org: TestOrg, filename: string, content: string): Promise<string> {
      const p = await api(be.baseUrl, 'POST', '/api/v1/upload/presigned-url/', { key: org.key, body: { filename } });
      expect(p.status).toBe(201);
      const put = await fetch(p.body.upload_url, { method: 'PUT', headers: p.body.headers, body: content });
      expect(put.status).toBe(200);
      return p.body.file_id as string;
    }
    const csv = 'case_ref,dx_codes,pr_codes,gender,is_alive\nc1,I21.4;I50.21,027034Z,M,true\nc2,"J44.9 J96.01",,F,no\n';
    const fileId = await upload(a, 'cases.csv', csv);
    const r = await submit(a, { file_id: fileId, version: 'v40' });
    expect(r.status).toBe(201);
    expect(r.body.file_id).toBe(fileId);
    const job = await waitFor(a, r.body.job_id, finished);
    expect(job.status).toBe('done');
    const results = await allResults(a, r.body.job_id);
    expect(results.map((x) => x.case_ref)).toEqual(['c1', 'c2']);
    const g = await getGrouper('v40');
    expect(results[0].result.primary_drg).toBe(g.group({ dx: ['I214', 'I5021'], pr: ['027034Z'], sex: 'M', alive: true }).drg);

    const jsonl =
      '{"case_ref":"j1","dx_codes":["I214"],"gender":"M","is_alive":true}\n\n{"case_ref":"j2","dx_codes":"K35.80","pr_codes":["0DTJ4ZZ"],"gender":"F","is_alive":true}\n';
    const j = await submit(a, { file_id: await upload(a, 'cases.jsonl', jsonl) });
    expect(j.status).toBe(201);
    expect(j.body.total_cases).toBe(2);

    const broken = 'case_ref,dx_codes,gender,is_alive\nok1,I214,M,true\nbad1,,M,true\nbad2,I214,Q,true\nbad3,I214,M,maybe\n';
    const e = await submit(a, { file_id: await upload(a, 'broken.csv', broken) });
    expect(e.status).toBe(400);
    expect(e.body.error).toBe('invalid_case_file');
    expect(e.body.message).toMatch(/line 3: dx_codes/);
    expect(e.body.message).toMatch(/line 4: gender/);
    expect(e.body.message).toMatch(/line 5: is_alive/);
    expect(e.body.errors.map((x: any) => x.line)).toEqual([3, 4, 5]);

    const badJsonl = await submit(a, { file_id: await upload(a, 'x.jsonl', '{"case_ref":"a","dx_codes":["I214"],"gender":"M","is_alive":true}\n{oops\n') });
    expect(badJsonl.status).toBe(400);
    expect(badJsonl.body.message).toMatch(/line 2: not valid JSON/);

    const foreign = await submit(b, { file_id: fileId });
    expect(foreign.status).toBe(404);
    const both = await submit(a, { file_id: fileId, cases: sampleCases(1) });
    expect(both.status).toBe(400);
  });

  it('every finished case carries its Medicare Code Editor edits (done and failed), from JSON cases and CSV columns', async () => {
    const cases = [
      // done: an age conflict (maternity code at 70)
      { case_ref: 'age', dx_codes: ['O80'], gender: 'F', is_alive: true, age: 70, discharge_date: '2026-03-02', discharge_status: 1 },
      // failed (DRG 999 DX_CANNOT_BE_PDX): an external-cause principal diagnosis
      { case_ref: 'ecode', dx_codes: ['W01.0XXA', 'S72.001A'], gender: 'M', is_alive: true, age: 80, discharge_date: '2026-03-02' },
      // no MCE inputs: the age edits are reported as not checked
      { case_ref: 'plain', dx_codes: ['I214'], gender: 'M', is_alive: true },
    ];
    const r = await submit(a, { cases, version: 'v43' });
    expect(r.status).toBe(201);
    await waitFor(a, r.body.job_id, finished);
    const results = await allResults(a, r.body.job_id);
    const by = Object.fromEntries(results.map((x) => [x.case_ref, x]));
    expect(by.age.status).toBe('done');
    expect(by.age.edits).toEqual([expect.objectContaining({ edit: 'AGE_CONFLICT', codes: ['O80'], payment: 'prepayment' })]);
    expect(by.age.mce).toMatchObject({ discharge_date: '2026-03-02', edit_type: 'PREPAYMENT' });
    expect(by.age.result.primary_drg).toMatch(/^\d{3}$/);
    expect(by.ecode).toMatchObject({ status: 'failed', result: null, error_code: 'DX_CANNOT_BE_PDX' });
    expect(by.ecode.edits.map((e: { edit: string }) => e.edit)).toContain('E_CODE_AS_PDX');
    expect(by.plain.mce.not_checked.map((n: { edit: string }) => n.edit)).toContain('INVALID_AGE');
    expect(by.plain.mce.discharge_date_source).toBe('assumed');

    const p = await api(be.baseUrl, 'POST', '/api/v1/upload/presigned-url/', { key: a.key, body: { filename: 'edits.csv' } });
    const csv = 'case_ref,dx_codes,gender,is_alive,age,discharge_date,length_of_stay\nc1,O80,F,true,70,2026-03-02,3\n';
    expect((await fetch(p.body.upload_url, { method: 'PUT', headers: p.body.headers, body: csv })).status).toBe(200);
    const f = await submit(a, { file_id: p.body.file_id, version: 'v43' });
    expect(f.status).toBe(201);
    await waitFor(a, f.body.job_id, finished);
    const [c1] = await allResults(a, f.body.job_id);
    expect(c1.edits.map((e: { edit: string }) => e.edit)).toEqual(['AGE_CONFLICT']);
    expect(c1.mce.discharge_date).toBe('2026-03-02');
  });

  it('refuses a case file with more than 1000 cases at case 1001, and an oversized one before reading it', async () => {
    async function upload(filename: string, content: string | Buffer): Promise<string> {
      const p = await api(be.baseUrl, 'POST', '/api/v1/upload/presigned-url/', { key: a.key, body: { filename } });
      const put = await fetch(p.body.upload_url, { method: 'PUT', headers: p.body.headers, body: content as BodyInit });
      expect(put.status).toBe(200);
      return p.body.file_id as string;
    }
    const header = 'case_ref,dx_codes,pr_codes,gender,is_alive';
    const rows = (n: number) => Array.from({ length: n }, (_, i) => `r${i},I21.4,,M,true`);
    const before = await batchCount(a);

    const exactly = await submit(a, { file_id: await upload('1000.csv', [header, ...rows(1000)].join('\n')) });
    expect(exactly.status).toBe(201);
    expect(exactly.body.total_cases).toBe(1000);

    // 1001 rows, then junk that would produce errors if it were read: only "more than 1000 cases" is reported.
    const tooMany = await submit(a, { file_id: await upload('1001.csv', [header, ...rows(1001), ',,,', '"unterminated'].join('\n')) });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error).toBe('invalid_case_file');
    expect(tooMany.body.message).toMatch(/has more than 1000 cases; a batch has 1 to 1000/);
    expect(tooMany.body.errors).toEqual([{ line: 1002, message: expect.stringMatching(/more than 1000 cases/) }]);
    const jsonl = rows(1001)
      .map((r) => JSON.stringify({ case_ref: r.split(',')[0], dx_codes: ['I214'], gender: 'M', is_alive: true }))
      .join('\n');
    const tooManyJsonl = await submit(a, { file_id: await upload('1001.jsonl', jsonl) });
    expect(tooManyJsonl.status).toBe(400);
    expect(tooManyJsonl.body.message).toMatch(/JSONL file upload-[0-9a-f]{16}\.jsonl has more than 1000 cases/);

    // 5 MiB: refused from its size alone (never decoded: it is not even UTF-8).
    const big = Buffer.alloc(5 * 1024 * 1024, 0xff);
    const t0 = Date.now();
    const huge = await submit(a, { file_id: await upload('huge.csv', big) });
    expect(huge.status).toBe(400);
    expect(huge.body.error).toBe('invalid_case_file');
    expect(huge.body.message).toMatch(/is 5242880 bytes; a case file holds at most 1000 cases and 4 MiB/);
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(await batchCount(a)).toBe(before + 1);
  });

  it('the /docs "Try it" request for POST /drg/batch sends the Idempotency-Key header the OpenAPI document declares', async () => {
    const doc = await api(be.baseUrl, 'GET', '/api/v1/openapi.json');
    const op = doc.body.paths['/drg/batch'].post;
    expect(op.parameters).toEqual([expect.objectContaining({ in: 'header', name: 'Idempotency-Key', required: true })]);
    const headers = headerParams(op, initialParams(op)); // what the docs page sends, as the page builds it
    expect(Object.keys(headers)).toEqual(['Idempotency-Key']);
    expect(headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
    const r = await api(be.baseUrl, 'POST', '/api/v1/drg/batch/', { key: a.key, body: { cases: sampleCases(1, { prefix: 'docs' }) }, headers });
    expect(r.status).toBe(201);
    expect(headerParams(op, {})).toEqual({}); // an emptied field sends no header (and the API answers 400)
  });

  it('the sweep re-queues the chunks of a running batch whose pg-boss jobs were lost; the job completes, each case billed once', async () => {
    const org = await createTestOrg(be.db);
    process.env.DRG_BATCH_CHUNK_SIZE = '10'; // 20 chunks; the workers hold at most 4 at a time
    let jobId: string;
    try {
      const r = await submit(org, { cases: sampleCases(200, { prefix: 'sweep' }) });
      expect(r.status).toBe(201);
      jobId = r.body.job_id;
    } finally {
      delete process.env.DRG_BATCH_CHUNK_SIZE;
    }
    // Lose the queued chunk jobs: some deleted, some failed for good (as when their retries ran out while the
    // database was down). Chunks the workers already hold finish normally.
    const boss = await getBoss(be.db);
    const queued = (await boss.findJobs<{ batch_id: string; chunk: number }>('drg-batch-chunk', { data: { batch_id: jobId }, queued: true })).map((j) => j.id);
    expect(queued.length).toBeGreaterThan(10);
    const half = Math.floor(queued.length / 2);
    await boss.deleteJob('drg-batch-chunk', queued.slice(0, half));
    await be.db.query(
      `UPDATE pgboss.job SET state = 'failed', completed_on = now() WHERE name = 'drg-batch-chunk' AND id = ANY($1::uuid[]) AND state < 'active'`,
      [queued.slice(half)],
    );

    // Stuck: the live chunks finish, then nothing moves.
    const stuck = await waitFor(
      org,
      jobId,
      async () => {
        const live = await boss.findJobs('drg-batch-chunk', { data: { batch_id: jobId } });
        return !live.some((j) => ['created', 'retry', 'active'].includes(j.state));
      },
      30_000,
    );
    await new Promise((res) => setTimeout(res, 500));
    const before = await waitFor(org, jobId, () => true);
    expect(before.status).not.toBe('done');
    expect(before.counts.pending).toBeGreaterThan(0);
    expect(stuck.counts.pending).toBe(before.counts.pending);

    // Two sweeps at once (two worker processes): the lost chunks are queued once.
    const [s1, s2] = await Promise.all([sweepBatches(be.db), sweepBatches(be.db)]);
    const requeued = [...s1.requeued, ...s2.requeued].filter((x) => x.batch_id === jobId);
    expect(requeued).toHaveLength(1);
    expect(requeued[0]!.chunks.length).toBeGreaterThanOrEqual(Math.ceil(before.counts.pending / 10));

    const job = await waitFor(org, jobId, finished, 30_000);
    expect(job.status).toBe('done');
    expect(job.counts.done + job.counts.failed).toBe(200);
    const ledger = await ledgerRows(jobId);
    expect(ledger).toHaveLength(job.counts.done);
    expect(new Set(ledger.map((l) => l.ref)).size).toBe(job.counts.done);
    const spent = await be.db.query<{ spent: string }>('SELECT spent_micros::text AS spent FROM spend_counters WHERE org_id = $1', [org.orgId]);
    expect(Number(spent[0]!.spent)).toBe(job.counts.done * PRICE);
    const g = await getGrouper('v40');
    const results = await allResults(org, jobId);
    const cases = sampleCases(200, { prefix: 'sweep' });
    results.forEach((x, i) => expect(x.status).toBe(g.group(toGroupInput(cases[i]!)).drg === '999' ? 'failed' : 'done'));

    // Idempotent: nothing left to repair for this job.
    const again = await sweepBatches(be.db);
    expect(again.requeued.filter((x) => x.batch_id === jobId)).toEqual([]);
  });

  it('the sweep gives a parked batch whose resume check was lost a new one, and it resumes', async () => {
    const org = await createTestOrg(be.db);
    await setSpendCap(be.db, org.orgId, 5 * PRICE);
    const r = await submit(org, { cases: await groupableCases(12, 'sweep-park') });
    const jobId = r.body.job_id as string;
    await waitFor(org, jobId, (j) => j.status === 'parked');
    const boss = await getBoss(be.db);
    // The cap stays, so each resume check re-queues the next: delete the whole chain.
    const dropChecks = async () => {
      const checks = await boss.findJobs('drg-batch-resume', { data: { batch_id: jobId } });
      const waiting = checks.filter((j) => ['created', 'retry'].includes(j.state)).map((j) => j.id);
      if (waiting.length) await boss.deleteJob('drg-batch-resume', waiting);
      return (await boss.findJobs('drg-batch-resume', { data: { batch_id: jobId } })).filter((j) => ['created', 'retry', 'active'].includes(j.state));
    };
    for (let i = 0; i < 100 && (await dropChecks()).length; i++) await new Promise((res) => setTimeout(res, 50));
    expect(await dropChecks()).toEqual([]);
    await setSpendCap(be.db, org.orgId, 1_000_000);
    await new Promise((res) => setTimeout(res, 1500)); // longer than DRG_BATCH_RESUME_CHECK_SECONDS: nothing happens
    expect((await waitFor(org, jobId, () => true)).status).toBe('parked');

    const s = await sweepBatches(be.db);
    expect(s.resume_checks).toContain(jobId);
    const done = await waitFor(org, jobId, finished, 20_000);
    expect(done.counts).toEqual({ total: 12, done: 12, failed: 0, pending: 0 });
    expect(await ledgerRows(jobId)).toHaveLength(12);
  });

  it('queue options have one definition: the queue, every job, and a queue created earlier with other options agree with it', async () => {
    const want = { retryLimit: 10, retryDelay: 1, retryBackoff: true, retryDelayMax: 60, expireInSeconds: 60 };
    let boss = await getBoss(be.db);
    expect(await boss.getQueue('drg-batch-chunk')).toMatchObject(want);
    expect(await boss.getQueue('drg-batch-resume')).toMatchObject({ retryLimit: 10, retryBackoff: true, expireInSeconds: 60 });
    const r = await submit(a, { cases: sampleCases(1, { prefix: 'opts' }) });
    const jobs = await boss.findJobs('drg-batch-chunk', { data: { batch_id: r.body.job_id } });
    expect(jobs[0]).toMatchObject(want);
    await waitFor(a, r.body.job_id, finished);

    // A queue left with other options (by an older version, or by whichever code path created it first before):
    // the next start brings it back to the definition.
    await boss.updateQueue('drg-batch-chunk', { retryLimit: 2, retryBackoff: false, expireInSeconds: 900 });
    expect(await boss.getQueue('drg-batch-chunk')).toMatchObject({ retryLimit: 2, retryBackoff: false });
    await stopQueue();
    boss = await getBoss(be.db);
    expect(await boss.getQueue('drg-batch-chunk')).toMatchObject(want);
    await startWorkers(be.db);
    const status = await queueStatus();
    expect(status.periodic).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'drg-batch-sweep', every_seconds: 3600, last_error: null })]));
    const again = await submit(a, { cases: sampleCases(1, { prefix: 'opts2' }) });
    expect((await waitFor(a, again.body.job_id, finished)).counts.pending).toBe(0);
  });
});
