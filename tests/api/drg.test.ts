import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestOrg, startBackend, type TestBackend, type TestOrg } from '../helpers/backend';
import { groupCase } from '@/server/drg';

/** POST /drg/classify, GET /drg/versions, GET /drg/codes over real HTTP with real keys (SPEC §2.4, §4.4, §8). */
let be: TestBackend;
let org: TestOrg;
let scoped: TestOrg;
let searchOnly: TestOrg;

beforeAll(async () => {
  be = await startBackend();
  org = await createTestOrg(be.db);
  scoped = await createTestOrg(be.db, { scopes: ['drg:classify'] });
  searchOnly = await createTestOrg(be.db, { scopes: ['search'] });
});
afterAll(async () => {
  await be?.close();
});

const classify = (body: unknown, key = org.key) => api(be.baseUrl, 'POST', '/api/v1/drg/classify/', { key, body });
const base = { dx_codes: ['I214', 'E1165'], pr_codes: ['02703DZ'], gender: 'M', is_alive: true };

async function login(o: TestOrg): Promise<string> {
  const r = await api(be.baseUrl, 'POST', '/login/', { body: { email: o.email, password: o.password } });
  expect(r.status).toBe(200);
  return r.body.access_token as string;
}

describe(`drg classify on ${process.env.TEST_DB ?? 'postgres'}`, () => {
  it('returns every §2.4 field, equal to the grouper core', async () => {
    const r = await classify(base);
    expect(r.status).toBe(200);
    const core = await groupCase('v40', { dx: ['I214', 'E1165'], pr: ['02703DZ'], sex: 'M', alive: true });
    expect(r.body).toMatchObject({
      primary_drg: core.drg,
      description: core.description,
      mdc: core.mdc,
      mdc_description: core.mdc_description,
      type: core.type,
      all_candidates: core.all_candidates,
      version: 'v40',
      fiscal_year: 'FY2023',
      fidelity: 'exact',
      return_code: 'OK',
      return_code_number: 0,
      input: { dx_codes: ['I214', 'E1165'], pr_codes: ['02703DZ'], gender: 'M', is_alive: true },
    });
    expect(r.body.primary_drg).toBe('249'); // verified with the core: stent without MCC, E11.65 is no CC in v40
    expect(r.body.primary_drg).toMatch(/^\d{3}$/);
    expect(r.body.mdc).toMatch(/^\d{2}$/);
    expect(r.body.all_candidates[0]).toBe(r.body.primary_drg);
    expect(Number.isInteger(r.body.response_time_ms)).toBe(true);
    expect(r.body.response_time_ms).toBeGreaterThanOrEqual(0);
    expect(r.body.initial).toEqual({ drg: '249', mdc: '05', type: 'P', return_code: 'OK', severity: 'NON_CC' });
    expect(r.body.diagnoses.map((d: { code: string; role: string }) => [d.code, d.role])).toEqual([
      ['I214', 'principal'],
      ['E1165', 'secondary'],
    ]);
    expect(r.body.diagnoses[0].display).toBe('I21.4');
    expect(r.body.diagnoses[0].title).toMatch(/myocardial infarction/i);
    expect(r.body.diagnoses[1]).toMatchObject({ cc_mcc: null, counted: false, not_counted_reason: 'not_cc' });
    expect(r.body.procedures[0]).toMatchObject({ code: '02703DZ', valid: true, is_or: true, affects: 'BOTH' });
    expect(r.body.explanation.join('\n')).toMatch(/MDC 05/);
  });

  it('accepts codes with dots and in any case, and echoes them normalised', async () => {
    const r = await classify({ dx_codes: ['i21.4', ' e11.65 '], pr_codes: ['02703dz'], gender: 'm', is_alive: true });
    expect(r.status).toBe(200);
    expect(r.body.primary_drg).toBe('249');
    expect(r.body.input).toEqual({ dx_codes: ['I214', 'E1165'], pr_codes: ['02703DZ'], gender: 'M', is_alive: true });
    expect(r.body.warnings).toEqual([]);
  });

  it('explains which CC/MCC counted and why others did not', async () => {
    const mcc = await classify({ ...base, dx_codes: ['I214', 'I5021'] });
    expect(mcc.body.primary_drg).toBe('248');
    expect(mcc.body.severity).toBe('MCC');
    expect(mcc.body.severity_driver).toBe('I5021');
    expect(mcc.body.diagnoses[1]).toMatchObject({ cc_mcc: 'MCC', counted: true, not_counted_reason: null });

    const pdx = await classify({ dx_codes: ['I5021', 'I5023'], gender: 'F', is_alive: true });
    expect(pdx.body.primary_drg).toBe('293');
    expect(pdx.body.diagnoses[1]).toMatchObject({ cc_mcc: 'MCC', counted: false, excluded_by_pdx: true, not_counted_reason: 'pdx_cc_exclusion' });
    expect(pdx.body.diagnoses[1].note).toMatch(/principal diagnosis I50\.21 excludes it/);

    const died = await classify({ dx_codes: ['I214', 'R092'], gender: 'M', is_alive: false });
    expect(died.body.primary_drg).toBe('285');
    expect(died.body.discharge_status_used).toBe(20);
    expect(died.body.diagnoses[1]).toMatchObject({ excluded_died: true, not_counted_reason: 'mcc_only_if_alive' });
    const alive = await classify({ dx_codes: ['I214', 'R092'], gender: 'M', is_alive: true });
    expect(alive.body.primary_drg).toBe('280');

    const hac = await classify({ dx_codes: ['I214', 'S72001A'], gender: 'M', is_alive: true, poa: ['Y', 'N'] });
    expect(hac.body.primary_drg).toBe('282');
    expect(hac.body.initial.drg).toBe('280');
    expect(hac.body.hac_status).toBe('FINAL_DRG_CHANGES');
    expect(hac.body.diagnoses[1]).toMatchObject({ hac_met: true, not_counted_reason: 'hac' });
  });

  it('an invalid principal diagnosis is DRG 999 with a return code, not a 400', async () => {
    const r = await classify({ dx_codes: ['ZZZ99'], gender: 'F', is_alive: true });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      primary_drg: '999',
      mdc: '00',
      type: 'M',
      med_surg: 'NONE',
      return_code: 'INVALID_PDX',
      return_code_number: 7,
      all_candidates: ['999'],
    });
    expect(r.body.warnings.join(' ')).toMatch(/ZZZ99/);
    expect(r.body.diagnoses[0]).toMatchObject({ valid: false });
  });

  it('shape errors are 400 invalid_request naming the field', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ ...base, dx_codes: [] }, /^dx_codes: at least one/],
      [{ ...base, dx_codes: Array.from({ length: 11 }, () => 'I10') }, /^dx_codes: at most 10/],
      [{ ...base, pr_codes: ['02703D'] }, /^pr_codes\.0: .*7 characters/],
      [{ ...base, pr_codes: Array.from({ length: 11 }, () => '02703DZ') }, /^pr_codes: at most 10/],
      [{ ...base, gender: 'X' }, /^gender: /],
      [{ dx_codes: ['I214'], gender: 'M' }, /^is_alive: /],
      [{ dx_codes: ['I214'], is_alive: true }, /^gender: /],
      [{ ...base, weight_kg: 60 }, /unknown field 'weight_kg'/], // age is a field since the Medicare Code Editor
      [{ ...base, dx_codes: 'I214' }, /^dx_codes: /],
      [{ ...base, discharge_status: 1, is_alive: false }, /^discharge_status: .*contradicts/],
      [{ ...base, discharge_status: 20 }, /^discharge_status: .*contradicts/],
      [{ ...base, poa: ['Y'] }, /^poa: /],
    ];
    for (const [body, message] of cases) {
      const r = await classify(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error).toBe('invalid_request');
      expect(r.body.message).toMatch(message);
    }
    // A diagnosis code that is no ICD-10-CM code (too long) is graded invalid, as the official grouper does (the
    // oracle's "invalid_dx_format" cases); only text that cannot be a code at all is a 400.
    for (const [codes, status, drg] of [
      [['S72.001A'], 200, null],
      [['A00000000'], 200, '999'],
      [['S72.001AB'], 200, '999'],
      [['I21.4', 'A00000000'], 200, null],
      [['X'.repeat(17)], 400, null],
    ] as const) {
      const r = await classify({ ...base, dx_codes: codes });
      expect(r.status, codes.join()).toBe(status);
      if (status === 400) expect(r.body.message).toMatch(/^dx_codes\.0: a code has at most 16 characters/);
      else if (drg) expect(r.body.primary_drg).toBe(drg);
      else expect(r.body.primary_drg).not.toBe('999');
      if (codes.length === 2) expect(r.body.diagnoses[1]).toMatchObject({ code: 'A00000000', valid: false });
    }
    const bad = await api(be.baseUrl, 'POST', '/api/v1/drg/classify/', {
      key: org.key,
      raw: '{"dx_codes": [',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('invalid_json');
  });

  it('an unknown version is 400 invalid_version listing the accepted versions, on every endpoint that takes one', async () => {
    const list = await api(be.baseUrl, 'GET', '/api/v1/drg/versions/', { key: org.key });
    const accepted = list.body.versions.map((v: { version: string }) => v.version);
    const expected = `version: 'v35' is not available on this server; accepted versions: ${accepted.join(', ')}.`;
    const responses = [
      await classify({ ...base, version: 'v35' }),
      await api(be.baseUrl, 'GET', '/api/v1/drg/codes/?q=I21&version=v35', { key: org.key }),
      await api(be.baseUrl, 'POST', '/api/v1/drg/batch/', {
        key: org.key,
        body: { cases: [{ case_ref: 'a', dx_codes: ['I214'], gender: 'M', is_alive: true }], version: 'v35' },
        headers: { 'idempotency-key': 'version-check-1' },
      }),
    ];
    for (const r of responses) {
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error: 'invalid_version', message: expected, accepted_versions: accepted });
    }
    // Spellings of a served version are read the same everywhere.
    for (const v of ['V43', ' v43 ', '43', 'v43.0']) expect((await classify({ ...base, version: v })).body.version).toBe('v43');
    expect((await classify({ ...base, version: 'v39.1' })).body.version).toBe('v39');
  });

  it('versions: default v40, derived versions, v43', async () => {
    const v36 = await classify({ ...base, version: 'v36' });
    expect(v36.status).toBe(200);
    expect(v36.body).toMatchObject({ version: 'v36', fiscal_year: 'FY2019', fidelity: 'derived' });
    const v43 = await classify({ ...base, version: 'V43' });
    expect(v43.body).toMatchObject({ version: 'v43', fiscal_year: 'FY2026', fidelity: 'exact' });
    expect(v43.body.primary_drg).toBe((await groupCase('v43', { dx: ['I214', 'E1165'], pr: ['02703DZ'], sex: 'M', alive: true })).drg);

    const list = await api(be.baseUrl, 'GET', '/api/v1/drg/versions/', { key: org.key });
    expect(list.status).toBe(200);
    expect(list.body.default).toBe('v40');
    const byName = Object.fromEntries(list.body.versions.map((v: { version: string }) => [v.version, v]));
    expect(byName.v40).toMatchObject({ fiscal_year: 'FY2023', fidelity: 'exact', default: true });
    expect(byName.v36).toMatchObject({ fiscal_year: 'FY2019', fidelity: 'derived', default: false });
    expect(byName.v36.label).toMatch(/derived/);
    expect(byName.v43).toMatchObject({ fiscal_year: 'FY2026', extension: false });
    expect(byName.v40.extension).toBe(false);
    for (const v of ['v40.1', 'v41', 'v42']) if (byName[v]) expect(byName[v].extension, v).toBe(true);
  });

  it('codes: autocomplete on code and on title', async () => {
    const byCode = await api(be.baseUrl, 'GET', '/api/v1/drg/codes/?q=i21.4&kind=dx', { key: org.key });
    expect(byCode.status).toBe(200);
    expect(byCode.body.results[0]).toMatchObject({ code: 'I214', display: 'I21.4', kind: 'dx', valid: true, billable: true });
    const header = await api(be.baseUrl, 'GET', '/api/v1/drg/codes/?q=I21&kind=dx&limit=3', { key: org.key });
    expect(header.body.results).toHaveLength(3);
    expect(header.body.results[0]).toMatchObject({ code: 'I21', valid: false });
    const byTitle = await api(be.baseUrl, 'GET', '/api/v1/drg/codes/?q=drug-eluting%20coronary&kind=pr&version=v43', { key: org.key });
    expect(byTitle.status).toBe(200);
    expect(byTitle.body.version).toBe('v43');
    expect(byTitle.body.results.length).toBeGreaterThan(0);
    for (const c of byTitle.body.results) {
      expect(c.kind).toBe('pr');
      expect(c.title.toLowerCase()).toContain('drug-eluting');
    }
    expect((await api(be.baseUrl, 'GET', '/api/v1/drg/codes/?q=', { key: org.key })).status).toBe(400);
    expect((await api(be.baseUrl, 'GET', '/api/v1/drg/codes/?q=I21&limit=500', { key: org.key })).status).toBe(400);
    const badVersion = await api(be.baseUrl, 'GET', '/api/v1/drg/codes/?q=I21&version=v12', { key: org.key });
    expect(badVersion.status).toBe(400);
    expect(badVersion.body.error).toBe('invalid_version');
    expect(badVersion.body.message).toMatch(/^version: 'v12' is not available/);
  });

  it('auth: drg:classify keys only; JWT 401, other scopes 403 naming the scopes held', async () => {
    expect((await classify(base, scoped.key)).status).toBe(200);
    const none = await api(be.baseUrl, 'POST', '/api/v1/drg/classify/', { body: base });
    expect(none.status).toBe(401);
    const wrong = await classify(base, searchOnly.key);
    expect(wrong.status).toBe(403);
    expect(wrong.body).toMatchObject({ error: 'insufficient_scope', scopes_held: ['search'] });
    const token = await login(org);
    for (const [m, p] of [
      ['POST', '/api/v1/drg/classify/'],
      ['GET', '/api/v1/drg/versions/'],
      ['GET', '/api/v1/drg/codes/?q=I21'],
    ] as const) {
      const r = await api(be.baseUrl, m, p, { bearer: token, body: m === 'POST' ? base : undefined });
      expect(r.status, p).toBe(401);
      expect(r.body.error).toBe('api_key_required');
    }
    expect((await api(be.baseUrl, 'GET', '/api/v1/drg/versions/', { key: searchOnly.key })).status).toBe(403);
    const bearerKey = await api(be.baseUrl, 'POST', '/api/v1/drg/classify/', { bearer: org.key, body: base });
    expect(bearerKey.status).toBe(200);
  });

  it('classification is free: no ledger row', async () => {
    const count = async () => Number((await be.db.query<{ n: number }>('SELECT count(*)::int AS n FROM ledger WHERE org_id = $1', [org.orgId]))[0]!.n);
    const before = await count();
    for (let i = 0; i < 3; i++) expect((await classify(base)).status).toBe(200);
    expect(await count()).toBe(before);
    expect(before).toBe(0);
  });

  it('the OpenAPI document describes the endpoints, the agreement numbers and the no-ledger choice', async () => {
    const doc = await api(be.baseUrl, 'GET', '/api/v1/openapi.json');
    expect(doc.status).toBe(200);
    const op = doc.body.paths['/drg/classify'].post;
    expect(op.description).toMatch(/99\.83% \(2995\/3000/);
    expect(op.description).toMatch(/no ledger row/);
    expect(op.description).toMatch(/Scope: `drg:classify`/);
    expect(doc.body.paths['/drg/versions'].get).toBeTruthy();
    expect(doc.body.paths['/drg/codes'].get.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['q', 'version', 'kind', 'limit']));
    const fhir = doc.body.paths['/fhir/drg/$classify'].post;
    expect(fhir.description).toMatch(/fhir_identifiers_dropped/);
    expect(fhir.description).toMatch(/`exp`→20/);
    // v41/v42 (and the .1 updates) are served as an extension beyond SPEC §2.4, and the documents say so.
    expect(op.description).toMatch(
      /SPEC §2\.4 versions: v36-v40 and v43; v40\.1, v41, v41\.1, v42, v42\.1 and v43\.1 are served as an extension beyond SPEC §2\.4/,
    );
    expect(op.requestBody.content['application/json'].schema.properties.version.description).toMatch(/extension beyond SPEC §2\.4/);
    expect(doc.body.paths['/drg/versions'].get.description).toMatch(/extension beyond it/);
    expect(fhir.parameters.find((p: { name: string }) => p.name === 'version').description).toMatch(/extension beyond SPEC §2\.4/);
    expect(doc.body.paths['/drg/batch'].post.description).toMatch(/invalid_version/);
  });

  it('reports the Medicare Code Editor edits beside the DRG, in words, with their codes', async () => {
    // O80 (maternity, ages 9-64) with age 70; W01.0XXA (external cause) as a secondary raises nothing.
    const r = await classify({
      dx_codes: ['O80', 'W010XXA'],
      gender: 'F',
      is_alive: true,
      version: 'v43',
      age: 70,
      discharge_date: '2026-03-02',
      discharge_status: 1,
      length_of_stay: 2,
    });
    expect(r.status).toBe(200);
    expect(r.body.edits).toEqual([
      expect.objectContaining({ edit: 'AGE_CONFLICT', title: 'Age conflict', payment: 'prepayment', count: 1, codes: ['O80'], positions: ['dx[0]'] }),
    ]);
    expect(r.body.edits[0].message).toMatch(/O80 is a maternity \(ages 9-64\) diagnosis; the patient is 70 years old/);
    expect(r.body.mce).toMatchObject({
      mce_version: '43.1',
      discharge_date: '2026-03-02',
      discharge_date_source: 'given',
      date_in_range: true,
      edit_type: 'PREPAYMENT',
      not_checked: [],
    });
    expect(r.body.input).toMatchObject({ age: 70, discharge_date: '2026-03-02', length_of_stay: 2, discharge_status: 1 });
    expect(r.body.explanation.join('\n')).toMatch(/Medicare Code Editor: 1 edit \(1 prepayment\): age conflict/);

    // An external-cause principal diagnosis: DRG 999 from the grouper, E_CODE_AS_PDX from the MCE.
    const e = await classify({
      dx_codes: ['W01.0XXA', 'S72.001A'],
      gender: 'M',
      is_alive: true,
      version: 'v43',
      age: 80,
      discharge_date: '2026-01-15',
      discharge_status: 1,
    });
    expect(e.body.primary_drg).toBe('999');
    expect(e.body.edits.map((x: { edit: string }) => x.edit)).toContain('E_CODE_AS_PDX');
    expect(e.body.edits.find((x: { edit: string }) => x.edit === 'E_CODE_AS_PDX').codes).toEqual(['W010XXA']);
  });

  it('without discharge_date, age or discharge_status the answer says which edits could not be checked', async () => {
    const r = await classify({ dx_codes: ['O80'], gender: 'F', is_alive: true, version: 'v43' });
    expect(r.status).toBe(200);
    expect(r.body.mce.discharge_date_source).toBe('assumed');
    expect(r.body.mce.discharge_date).toBe('2026-09-30'); // the last day of FY2026 (v43)
    expect(r.body.mce.notes.join(' ')).toMatch(/No discharge_date was given/);
    const notChecked = r.body.mce.not_checked.map((n: { edit: string; needs: string }) => `${n.edit}:${n.needs}`);
    expect(notChecked).toEqual(expect.arrayContaining(['INVALID_AGE:age', 'AGE_CONFLICT:age', 'INVALID_DISCHARGE_STATUS:discharge_status']));
    expect(r.body.edits.map((x: { edit: string }) => x.edit)).not.toContain('AGE_CONFLICT');
    // v40 (FY2023): codes checked for 2023-09-30
    expect((await classify({ dx_codes: ['I10'], gender: 'M', is_alive: true })).body.mce.discharge_date).toBe('2023-09-30');
  });

  it('says when the discharge date is outside the MCE data, and refuses dates that do not exist', async () => {
    const late = await classify({ ...base, discharge_date: '2027-01-10', age: 60 });
    expect(late.status).toBe(200);
    expect(late.body.primary_drg).toBe('249'); // the DRG is still given
    expect(late.body.edits).toEqual([]);
    expect(late.body.mce).toMatchObject({ date_in_range: false, edit_type: 'INVALID_DISCHARGE_DATE' });
    expect(late.body.mce.notes[0]).toMatch(/2027-01-10 is after 2026-09-30, the last date the MCE data \(version 43\.1\) covers/);
    for (const bad of [
      { discharge_date: '2026-02-30' },
      { discharge_date: '01/02/2026' },
      { age: -1 },
      { age: 1.5 },
      { length_of_stay: -2 },
      { admit_dx: '' },
    ]) {
      const r = await classify({ ...base, ...bad });
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(r.body.error).toBe('invalid_request');
      expect(r.body.message).toContain(Object.keys(bad)[0]);
    }
  });

  it('the OpenAPI description says which edits are prepayment and which postpayment', async () => {
    const doc = await api(be.baseUrl, 'GET', '/api/v1/openapi.json');
    const op = doc.body.paths['/drg/classify'].post;
    expect(op.description).toMatch(/\*\*Prepayment\*\* edits[^]*`AGE_CONFLICT`[^]*\*\*Postpayment\*\* edits[^]*`BILATERAL`/);
    const props = op.requestBody.content['application/json'].schema.properties;
    expect(Object.keys(props)).toEqual(expect.arrayContaining(['discharge_date', 'age', 'length_of_stay', 'admit_dx']));
    expect(doc.body.paths['/fhir/drg/$classify'].post.description).toMatch(/severity `warning`/);
  });
});
