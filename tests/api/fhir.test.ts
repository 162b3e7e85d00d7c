import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestOrg, startBackend, type TestBackend, type TestOrg } from '../helpers/backend';
import { setLogSink } from '@/server/log';
import { resetEnvCache } from '@/server/env';
import { groupCase } from '@/server/drg';
import { checkOperationOutcome, checkParameters } from '@/tests/fixtures/fhir/structure';
import { bundle, param, params, parts, PHI } from '@/tests/fixtures/fhir/bundles';

/** POST /api/v1/fhir/drg/$classify over real HTTP (SPEC §4.8, §2.9): Parameters out, OperationOutcome errors, no PHI kept. */
let be: TestBackend;
let org: TestOrg;
let searchOnly: TestOrg;
const logLines: string[] = [];
let restoreSink: () => void = () => undefined;
let prevLevel: string | undefined;

beforeAll(async () => {
  // Log everything during this suite, so the PHI check below sees every line the server writes.
  prevLevel = process.env.LOG_LEVEL;
  process.env.LOG_LEVEL = 'debug';
  resetEnvCache();
  restoreSink = setLogSink((l) => logLines.push(l));
  be = await startBackend();
  org = await createTestOrg(be.db);
  searchOnly = await createTestOrg(be.db, { scopes: ['search'] });
});
afterAll(async () => {
  restoreSink();
  await be?.close();
  if (prevLevel === undefined) delete process.env.LOG_LEVEL;
  else process.env.LOG_LEVEL = prevLevel;
  resetEnvCache();
});

const PATH = '/api/v1/fhir/drg/$classify';

async function post(body: unknown, opts: { key?: string; bearer?: string; type?: string; query?: string; raw?: string } = {}) {
  const headers: Record<string, string> = { 'content-type': opts.type ?? 'application/fhir+json' };
  if (opts.key !== undefined) headers['x-api-key'] = opts.key;
  if (opts.bearer) headers.authorization = `Bearer ${opts.bearer}`;
  const res = await fetch(`${be.baseUrl}${PATH}${opts.query ?? ''}`, { method: 'POST', headers, body: opts.raw ?? JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type') ?? '', body: JSON.parse(text) as Record<string, unknown>, text };
}

function expectOutcome(r: Awaited<ReturnType<typeof post>>, status: number) {
  expect(r.status, r.text.slice(0, 300)).toBe(status);
  expect(r.type).toMatch(/^application\/fhir\+json/);
  expect(r.body.resourceType).toBe('OperationOutcome');
  expect(checkOperationOutcome(r.body)).toEqual([]);
  return r.body as {
    issue: Array<{
      severity: string;
      code: string;
      expression?: string[];
      location?: string[];
      diagnostics: string;
      details: { coding: Array<{ code: string }> };
    }>;
  };
}

describe(`FHIR $classify on ${process.env.TEST_DB ?? 'postgres'}`, () => {
  it('classifies a realistic Bundle: Parameters with the DRG, version and the identifier attestation', async () => {
    const b = bundle({ conditions: ['E11.65', 'I21.4', 'I50.21'], principalIndex: 1, procedures: ['02703DZ'], disposition: 'home' });
    const r = await post(b, { key: org.key });
    expect(r.status, r.text.slice(0, 400)).toBe(200);
    expect(r.type).toMatch(/^application\/fhir\+json/);
    expect(checkParameters(r.body)).toEqual([]);
    const core = await groupCase('v40', { dx: ['I214', 'I5021', 'E1165'], pr: ['02703DZ'], sex: 'M', alive: true });
    expect(param(r.body, 'drg')).toBe(core.drg);
    expect(param(r.body, 'drg')).toBe('248');
    expect(param(r.body, 'drg_description')).toBe(core.description);
    expect(param(r.body, 'mdc')).toBe('05');
    expect(param(r.body, 'drg_type')).toBe('P');
    expect(param(r.body, 'grouper_version')).toBe('v40');
    expect(param(r.body, 'fiscal_year')).toBe('FY2023');
    expect(param(r.body, 'fidelity')).toBe('exact');
    expect(param(r.body, 'return_code')).toBe('OK');
    expect(parts(params(r.body, 'diagnosis')[0]!)).toMatchObject({ code: 'I214', role: 'principal' });
    const att = parts(params(r.body, 'fhir_identifiers_dropped')[0]!);
    expect(att.element).toEqual(expect.arrayContaining(['Patient.name', 'Patient.identifier', 'Patient.address', 'Patient.telecom', 'Encounter.identifier']));
    for (const v of Object.values(PHI)) expect(r.text).not.toContain(v);
  });

  it('accepts application/json, a charset, the version query and the Parameters form', async () => {
    const json = await post(bundle(), { key: org.key, type: 'application/json; charset=utf-8', query: '?version=v43' });
    expect(json.status).toBe(200);
    expect(param(json.body, 'grouper_version')).toBe('v43');
    const wrapped = await post(
      {
        resourceType: 'Parameters',
        parameter: [
          { name: 'bundle', resource: bundle() },
          { name: 'version', valueString: 'v39' },
        ],
      },
      { key: org.key },
    );
    expect(wrapped.status).toBe(200);
    expect(param(wrapped.body, 'grouper_version')).toBe('v39');
    expect(param(wrapped.body, 'fiscal_year')).toBe('FY2022');
  });

  it('reports the Medicare Code Editor edits as warning issues of an OperationOutcome inside the Parameters', async () => {
    const b = bundle({ conditions: ['O80', 'W01.0XXA'], principalIndex: 0, procedures: [], gender: 'female', disposition: 'home' });
    const body = {
      resourceType: 'Parameters',
      parameter: [
        { name: 'bundle', resource: b },
        { name: 'version', valueString: 'v43' },
        { name: 'discharge_date', valueDate: '2026-03-02' },
        { name: 'age', valueInteger: 70 },
      ],
    };
    const r = await post(body, { key: org.key });
    expect(r.status, r.text.slice(0, 300)).toBe(200);
    expect(checkParameters(r.body)).toEqual([]);
    expect(param(r.body, 'edit_type')).toBe('PREPAYMENT');
    const oo = params(r.body, 'edits')[0]!.resource as {
      resourceType: string;
      issue: Array<{ severity: string; code: string; details: { coding: Array<{ code: string; display: string }>; text: string }; expression?: string[] }>;
    };
    expect(oo.resourceType).toBe('OperationOutcome');
    expect(checkOperationOutcome(oo)).toEqual([]);
    const warnings = oo.issue.filter((i) => i.severity === 'warning');
    expect(warnings.map((i) => i.details.coding[0]!.code)).toEqual(['AGE_CONFLICT']);
    expect(warnings[0]).toMatchObject({ code: 'business-rule', details: { coding: [{ display: 'Age conflict' }] } });
    expect(warnings[0]!.details.text).toMatch(/O80 is a maternity \(ages 9-64\) diagnosis; the patient is 70 years old/);
    expect(warnings[0]!.expression?.[0]).toMatch(/^Parameters\.parameter\[0\]\.resource\.entry\[\d+\]\.resource\.code\.coding\[\d+\]\.code$/);
    for (const v of Object.values(PHI)) expect(r.text).not.toContain(v);
    // A plain Bundle: the discharge date is assumed and the age edits are not checked, as information issues.
    const plain = await post(bundle({ conditions: ['W01.0XXA', 'S72.001A'] }), { key: org.key, query: '?version=v43' });
    const oo2 = params(plain.body, 'edits')[0]!.resource as { issue: Array<{ severity: string; details: { coding?: Array<{ code: string }>; text: string } }> };
    expect(oo2.issue.some((i) => i.severity === 'warning' && i.details.coding?.[0]?.code === 'E_CODE_AS_PDX')).toBe(true);
    expect(oo2.issue.some((i) => i.severity === 'information' && /Invalid age was not checked: send age/.test(i.details.text))).toBe(true);
  });

  it('expired (exp) gives the AMI expired DRG', async () => {
    const r = await post(bundle({ conditions: ['I21.4', 'R09.2'], procedures: [], disposition: 'exp' }), { key: org.key });
    expect(param(r.body, 'drg')).toBe('285');
    expect(param(r.body, 'discharge_status')).toBe('20');
  });

  it('malformed or unclassifiable input is an OperationOutcome with a 4xx pointing at the element', async () => {
    let o = expectOutcome(await post(null, { key: org.key, raw: `{"resourceType": "Bundle", "entry": [{"resource": {"name": ${PHI.family}}}]}` }), 400);
    expect(o.issue[0]!.code).toBe('structure');
    expect(JSON.stringify(o)).not.toContain(PHI.family);

    o = expectOutcome(await post({ resourceType: 'Patient', gender: 'male' }, { key: org.key }), 400);
    expect(o.issue[0]!.details.coding[0]!.code).toBe('not_a_bundle');

    o = expectOutcome(await post(bundle({ conditions: [] }), { key: org.key }), 422);
    expect(o.issue[0]).toMatchObject({ code: 'required', expression: ['Bundle.entry'] });

    const who = bundle({ conditions: ['I21.4'], procedures: [] });
    const entries = who.entry as Array<{ resource: Record<string, unknown> }>;
    const i = entries.findIndex((e) => e.resource.resourceType === 'Condition');
    entries[i]!.resource.code = { coding: [{ system: 'http://hl7.org/fhir/sid/icd-10', code: 'I21.4' }] };
    o = expectOutcome(await post(who, { key: org.key }), 422);
    expect(o.issue[0]!.expression).toEqual([`Bundle.entry[${i}].resource.code`]);
    expect(o.issue[0]!.diagnostics).toMatch(/WHO ICD-10 is not ICD-10-CM/);

    o = expectOutcome(await post(bundle(), { key: org.key, query: '?version=v99' }), 400);
    expect(o.issue[0]!.location).toEqual(['http.version']);
    expect(o.issue[0]!.details.coding[0]!.code).toBe('invalid_version'); // the API's one version error
    expect(o.issue[0]!.diagnostics).toMatch(/^version: 'v99' is not available on this server; accepted versions: v36, .*v43/);
    const rest = await api(be.baseUrl, 'POST', '/api/v1/drg/classify/', {
      key: org.key,
      body: { dx_codes: ['I214'], gender: 'M', is_alive: true, version: 'v99' },
    });
    expect(rest.body).toMatchObject({ error: 'invalid_version', message: o.issue[0]!.diagnostics });

    o = expectOutcome(await post(bundle(), { key: org.key, type: 'text/plain' }), 415);
    expect(o.issue[0]).toMatchObject({ code: 'not-supported', location: ['http.Content-Type'] });
    o = expectOutcome(await post(bundle(), { key: org.key, type: 'application/fhir+xml' }), 415);

    const big = await post(null, { key: org.key, raw: JSON.stringify({ resourceType: 'Bundle', pad: 'x'.repeat(4 * 1024 * 1024 + 10) }) });
    expectOutcome(big, 413);
  });

  it('every method but POST gets an OperationOutcome 405 with Allow: POST', async () => {
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
      const r = await fetch(`${be.baseUrl}${PATH}`, { method, headers: { 'x-api-key': org.key } });
      expect(r.status, method).toBe(405);
      expect(r.headers.get('allow'), method).toBe('POST');
      expect(r.headers.get('content-type'), method).toMatch(/^application\/fhir\+json/);
      const o = (await r.json()) as { resourceType: string; issue: Array<{ code: string; diagnostics: string; details: { coding: Array<{ code: string }> } }> };
      expect(checkOperationOutcome(o), method).toEqual([]);
      expect(o.issue[0]).toMatchObject({ code: 'not-supported', details: { coding: [{ code: 'method_not_allowed' }] } });
      expect(o.issue[0]!.diagnostics).toBe(`${method} is not supported here; use POST for $classify.`);
    }
    const head = await fetch(`${be.baseUrl}${PATH}`, { method: 'HEAD' });
    expect(head.status).toBe(405);
    expect(head.headers.get('allow')).toBe('POST');
  });

  it('other 405s carry an Allow header naming the accepted methods', async () => {
    const r = await api(be.baseUrl, 'DELETE', '/api/v1/drg/classify/', { key: org.key });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('POST');
    expect(r.body.error).toBe('method_not_allowed');
    const batch = await api(be.baseUrl, 'PATCH', '/api/v1/drg/batch/', { key: org.key });
    expect(batch.status).toBe(405);
    expect(batch.headers.get('allow')).toBe('POST, GET');
  });

  it('auth errors are OperationOutcomes too: 401 without or with a bad key or a JWT, 403 out of scope', async () => {
    let o = expectOutcome(await post(bundle()), 401);
    expect(o.issue[0]!.code).toBe('login');
    o = expectOutcome(await post(bundle(), { key: 'cg_live_' + 'A'.repeat(32) }), 401);
    expect(o.issue[0]!.details.coding[0]!.code).toBe('invalid_api_key');
    const login = await api(be.baseUrl, 'POST', '/login/', { body: { email: org.email, password: org.password } });
    o = expectOutcome(await post(bundle(), { bearer: login.body.access_token as string }), 401);
    expect(o.issue[0]!.details.coding[0]!.code).toBe('api_key_required');
    o = expectOutcome(await post(bundle(), { key: searchOnly.key }), 403);
    expect(o.issue[0]!.code).toBe('forbidden');
    expect(o.issue[0]!.diagnostics).toMatch(/drg:classify.*holds: search/);
    expect((await post(bundle(), { bearer: org.key })).status).toBe(200);
  });

  it('the UI path (tRPC drg.fhirClassify) runs the same core', async () => {
    const b = bundle({ conditions: ['I21.4', 'I50.21'], procedures: [] });
    const res = await fetch(`${be.baseUrl}/api/trpc/drg.fhirClassify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': org.key },
      body: JSON.stringify({ bundle: JSON.stringify(b), version: 'v43' }),
    });
    expect(res.status).toBe(200);
    const data = ((await res.json()) as { result: { data: { status: number; resource: Record<string, unknown> } } }).result.data;
    expect(data.status).toBe(200);
    const rest = await post(b, { key: org.key, query: '?version=v43' });
    expect(data.resource).toEqual(rest.body);
    const bad = await fetch(`${be.baseUrl}/api/trpc/drg.fhirClassify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': org.key },
      body: JSON.stringify({ bundle: '{"resourceType":"Bundle"' }),
    });
    const badData = ((await bad.json()) as { result: { data: { status: number; resource: Record<string, unknown> } } }).result.data;
    expect(badData.status).toBe(400);
    expect(checkOperationOutcome(badData.resource)).toEqual([]);
  });

  it('PHI from the Bundles never reaches the logs or the database', async () => {
    // Every request above sent the fixture PHI (names, MRN, SSN, address, phone, e-mail, notes). Send a few more,
    // including failures, then look everywhere the server writes.
    await post(bundle({ disposition: 'moon' }), { key: org.key });
    await post(bundle({ gender: 'unknown' }), { key: org.key });
    await post(bundle(), { key: searchOnly.key });
    expect(logLines.some((l) => l.includes('/fhir/drg/$classify'))).toBe(true); // the sink does see the requests
    const logs = logLines.join('\n');
    for (const v of Object.values(PHI)) expect(logs).not.toContain(v);

    const tables = await be.db.query<{ s: string; t: string }>(
      `SELECT table_schema AS s, table_name AS t FROM information_schema.tables WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
    );
    expect(tables.length).toBeGreaterThan(5);
    let dump = '';
    for (const { s, t } of tables) {
      const rows = await be.db.query<{ r: string }>(`SELECT x::text AS r FROM "${s}"."${t}" x LIMIT 100000`);
      dump += rows.map((r) => r.r).join('\n');
    }
    expect(dump).toContain(org.orgId); // the dump does contain what the server stored
    for (const v of Object.values(PHI)) expect(dump).not.toContain(v);
  });
});
