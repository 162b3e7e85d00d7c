import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestOrg, startBackend, type TestBackend, type TestOrg } from '../helpers/backend';
import { importAthena } from '@/server/search/importer';
import { groupCase } from '@/server/drg';
import { FAULT_HEADER } from '@/server/api/routers/redact';
import { writeAthenaFiles } from '../fixtures/athena';

/**
 * POST /api/v1/drg/agent/, deterministic engine (no AGENT_MODEL), over real HTTP with real auth, on PostgreSQL and
 * PGlite. A small Athena-format vocabulary (the concepts this note needs) is imported so that codes are resolved by
 * the search engine; the expected DRG comes from the grouper on the hand-written expected codes.
 */
const D = '19700101';
const E = '20991231';
const CONCEPTS: Array<[number, string, string, string, string, string, string]> = [
  [1001, 'Pneumonia, unspecified organism', 'Condition', 'ICD10CM', '4-char billing code', 'S', 'J18.9'],
  [1002, 'Lobar pneumonia, unspecified organism', 'Condition', 'ICD10CM', '4-char billing code', 'S', 'J18.1'],
  [1003, 'Pneumonia, unspecified organism', 'Condition', 'ICD10CM', '3-char nonbill code', 'S', 'J18'],
  [1004, 'Type 2 diabetes mellitus without complications', 'Condition', 'ICD10CM', '4-char billing code', 'S', 'E11.9'],
  [1005, 'Essential (primary) hypertension', 'Condition', 'ICD10CM', '3-char billing code', 'S', 'I10'],
  [1006, 'Other pulmonary embolism without acute cor pulmonale', 'Condition', 'ICD10CM', '5-char billing code', 'S', 'I26.99'],
  [1007, 'Pleural effusion, not elsewhere classified', 'Condition', 'ICD10CM', '3-char billing code', 'S', 'J90'],
  [1008, 'Unspecified acute appendicitis', 'Condition', 'ICD10CM', '5-char billing code', 'S', 'K35.80'],
  [1009, 'Mucocutaneous lymph node syndrome [Kawasaki]', 'Condition', 'ICD10CM', '4-char billing code', 'S', 'M30.3'],
  [4001, 'Resection of Appendix, Percutaneous Endoscopic Approach', 'Procedure', 'ICD10PCS', 'ICD10PCS', 'S', '0DTJ4ZZ'],
  [4002, 'Resection of Appendix, Open Approach', 'Procedure', 'ICD10PCS', 'ICD10PCS', 'S', '0DTJ0ZZ'],
];
const SYN: Array<[number, string]> = [
  [1001, 'Community acquired pneumonia'],
  [1005, 'High blood pressure'],
  [1004, 'Diabetes, type 2'],
  [1009, 'Kawasaki disease'],
];

function writeFixture(dir: string): void {
  writeAthenaFiles(dir, {
    'CONCEPT.csv': CONCEPTS.map((c) => [...c, D, E, '']),
    'CONCEPT_RELATIONSHIP.csv': [
      [1001, 1003, 'Is a', D, E, ''],
      [1003, 1001, 'Subsumes', D, E, ''],
    ],
    'CONCEPT_ANCESTOR.csv': [[1003, 1001, 1, 1]],
    'CONCEPT_SYNONYM.csv': SYN.map((s) => [...s, 4180186]),
    'VOCABULARY.csv': ['ICD10CM', 'ICD10PCS'].map((v) => [v, v, 'test', 'v1', 0]),
    'DOMAIN.csv': ['Condition', 'Procedure'].map((d) => [d, d, 0]),
    'CONCEPT_CLASS.csv': [...new Set(CONCEPTS.map((c) => c[4]))].map((c) => [c, c, 0]),
    'RELATIONSHIP.csv': [
      ['Is a', 'Is a', 1, 1, 'Subsumes', 0],
      ['Subsumes', 'Subsumes', 1, 1, 'Is a', 0],
    ],
  });
}

export const NAME = 'Ahmad Faizal bin Rahman';
export const IC = '850101-14-5678';
export const NOTE = `DISCHARGE SUMMARY - Hospital Kuala Lumpur
Name: ${NAME}   IC: ${IC}   Tel 012-345 6789
Diagnosis:
1. Community acquired pneumonia
Comorbidities: type 2 diabetes mellitus, hypertension

58 year old man with fever and productive cough for 4 days. No evidence of pleural effusion.
Rule out PE - CTPA negative. Treated with IV antibiotics and discharged well on day 5.`;

const APPX = `Diagnosis: Acute appendicitis
Operation: Laparoscopic appendicectomy on 15/8/2024
21 year old male student. No perforation, no abscess. Discharged on day 2.`;

let be: TestBackend;
let org: TestOrg;
let searchOnly: TestOrg;
let fixture: string;
const env = process.env as Record<string, string | undefined>;
const saved = { model: env.AGENT_MODEL, node: env.NODE_ENV, flag: env.REDACT_FAULT_INJECTION };

beforeAll(async () => {
  delete env.AGENT_MODEL;
  be = await startBackend();
  org = await createTestOrg(be.db, { scopes: ['drg:classify'] });
  searchOnly = await createTestOrg(be.db, { scopes: ['search'] });
  fixture = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-agent-athena-'));
  writeFixture(fixture);
  await importAthena(be.db, fixture);
});
afterAll(async () => {
  env.AGENT_MODEL = saved.model;
  await be?.close();
  if (fixture) fs.rmSync(fixture, { recursive: true, force: true });
});

const post = (body: unknown, key = org.key) => api(be.baseUrl, 'POST', '/api/v1/drg/agent/', { key, body });

describe(`DRG agent, deterministic engine, on ${process.env.TEST_DB ?? 'postgres'}`, () => {
  it('codes a discharge summary: §2.8 fields, codes with evidence, the grouper DRG, the receipt; free', async () => {
    const expected = await groupCase('v40', { dx: ['J189', 'E119', 'I10'], sex: 'M', alive: true });
    const ledgerBefore = await be.db.query<{ n: number }>('SELECT count(*)::int AS n FROM ledger WHERE org_id = $1', [org.orgId]);
    const r = await post({ message: NOTE });
    expect(r.status).toBe(200);
    const b = r.body;
    // §2.8
    expect(typeof b.response).toBe('string');
    expect(b.token_usage).toEqual({ input_tokens: 0, output_tokens: 0 });
    expect(Number.isInteger(b.response_time_ms)).toBe(true);
    // extension: the same structure both engines return
    expect(b.engine).toBe('deterministic');
    expect(b.engine_note).toBeNull();
    expect(b.codes.principal).toMatchObject({ code: 'J189', display: 'J18.9', role: 'principal', title: 'Pneumonia, unspecified organism' });
    const ev = b.codes.principal.evidence[0];
    expect(NOTE.slice(ev.start, ev.end)).toBe('Community acquired pneumonia');
    expect(b.codes.secondary.map((c: { code: string }) => c.code).sort()).toEqual(['E119', 'I10']);
    expect(b.codes.excluded.map((e: { concept: string; reason: string }) => `${e.concept}:${e.reason}`)).toEqual(
      expect.arrayContaining(['pleural_effusion:negated', 'pulmonary_embolism:negated']),
    );
    expect(b.codes.patient).toMatchObject({ sex: 'M', alive: true, discharge_status: 1 });
    expect(b.resolution).toContain('search');
    // the DRG is the grouper's, with the /drg/classify explanation
    expect(b.drg).toMatchObject({ primary_drg: expected.drg, mdc: expected.mdc, type: 'M', version: 'v40', fiscal_year: expected.fiscal_year });
    expect(b.drg.explanation.join(' ')).toContain('Principal diagnosis J18.9');
    expect(b.drg.input).toMatchObject({ dx_codes: ['J189', 'E119', 'I10'], gender: 'M', is_alive: true });
    expect(b.response).toContain(`MS-DRG ${expected.drg}`);
    expect(b.response).toContain('Principal diagnosis: J18.9');
    expect(b.grouper_link).toBe('/grouper?dx=J18.9&dx=E11.9&dx=I10');
    // redaction ran and was recorded (counts only)
    expect(b.redaction_receipt).toMatchObject({
      status: 'ok',
      retention: 'metadata_only',
      rehydration_complete: null,
      client_asserted_deidentified: false,
      redacted_anyway: false,
    });
    expect(b.redaction_receipt.entities_redacted.PERSON).toBeGreaterThanOrEqual(1);
    expect(b.redaction_receipt.entities_redacted.MY_IC).toBe(1);
    const stored = await be.db.query<{ source: string; status: string }>('SELECT source, status FROM redaction_receipts WHERE id = $1::uuid AND org_id = $2', [
      b.redaction_receipt.receipt_id,
      org.orgId,
    ]);
    expect(stored).toEqual([{ source: 'agent', status: 'ok' }]);
    // free: no ledger row
    const ledgerAfter = await be.db.query<{ n: number }>('SELECT count(*)::int AS n FROM ledger WHERE org_id = $1', [org.orgId]);
    expect(Number(ledgerAfter[0]!.n)).toBe(Number(ledgerBefore[0]!.n));
    // the response never leaks beyond what was sent: the stored receipt row holds no text
    const raw = await be.db.query<Record<string, unknown>>('SELECT * FROM redaction_receipts WHERE id = $1::uuid', [b.redaction_receipt.receipt_id]);
    expect(JSON.stringify(raw)).not.toContain(NAME);
  });

  it('codes a surgical case with its procedure, and groups it as procedural', async () => {
    const expected = await groupCase('v43', { dx: ['K3580'], pr: ['0DTJ4ZZ'], sex: 'M', alive: true });
    const r = await post({ message: APPX, version: 'v43' });
    expect(r.status).toBe(200);
    expect(r.body.codes.principal.code).toBe('K3580');
    expect(r.body.codes.procedures.map((p: { code: string }) => p.code)).toEqual(['0DTJ4ZZ']);
    expect(r.body.codes.procedures[0].is_or).toBe(true);
    expect(r.body.drg).toMatchObject({ primary_drg: expected.drg, type: 'P', version: 'v43' });
    expect(r.body.version).toBe('v43');
    expect(r.body.grouper_link).toBe('/grouper?dx=K35.80&pr=0DTJ4ZZ');
  });

  it('accepts form-urlencoded and multipart bodies; deidentified is recorded and redaction runs anyway', async () => {
    const form = await api(be.baseUrl, 'POST', '/api/v1/drg/agent/', {
      key: org.key,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      raw: new URLSearchParams({ message: NOTE, deidentified: 'true', version: 'v40' }).toString(),
    });
    expect(form.status).toBe(200);
    expect(form.body.codes.principal.code).toBe('J189');
    expect(form.body.redaction_receipt).toMatchObject({ client_asserted_deidentified: true, redacted_anyway: true, status: 'ok' });
    expect(form.body.redaction_receipt.entities_redacted.MY_IC).toBe(1);

    const fd = new FormData();
    fd.set('message', APPX);
    fd.set('deidentified', 'false');
    const multi = await api(be.baseUrl, 'POST', '/api/v1/drg/agent/', { key: org.key, raw: fd });
    expect(multi.status).toBe(200);
    expect(multi.body.codes.principal.code).toBe('K3580');
    expect(multi.body.redaction_receipt.client_asserted_deidentified).toBe(false);
  });

  it('a JSON string "false" is not read as true', async () => {
    const r = await post({ message: APPX, deidentified: 'false' });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('invalid_request');
  });

  it('validates the body: message 1-20000 characters, known fields, known versions', async () => {
    const empty = await post({ message: '' });
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ error: 'invalid_request' });
    expect(empty.body.message).toContain('message');
    const long = await post({ message: 'x'.repeat(20_001) });
    expect(long.status).toBe(400);
    expect(long.body.message).toContain('20000');
    expect((await post({ message: '😀'.repeat(20_000) })).status).toBe(200);
    const unknown = await post({ message: 'pneumonia', engine: 'llm' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain("'engine'");
    const version = await post({ message: 'pneumonia', version: 'v99' });
    expect(version.status).toBe(400);
    expect(version.body.message).toContain('version');
    expect((await post({})).status).toBe(400);
  });

  it('a diagnosis the lexicon does not know is resolved by the search engine (synonym); an uncodable first diagnosis promotes nothing', async () => {
    const r = await post({ message: 'Diagnosis:\n1. Kawasaki disease\nComorbidities: hypertension\n4 year old boy with 6 days of fever.' });
    expect(r.status).toBe(200);
    expect(r.body.codes.principal).toMatchObject({ code: 'M303', concept: null });
    expect(r.body.codes.principal.evidence[0].text).toBe('Kawasaki disease');
    expect(r.body.resolution).toContain('search');
    const unknown = await post({ message: 'Diagnosis:\n1. Zyxwv syndrome of the qwerty\nComorbidities: hypertension' });
    expect(unknown.status).toBe(200);
    expect(unknown.body.codes.principal).toBeNull();
    expect(unknown.body.codes.secondary.map((c: { code: string }) => c.code)).toEqual(['I10']);
    expect(unknown.body.drg).toBeNull();
    expect(unknown.body.codes.rationale[0]).toContain('could not be resolved');
  });

  it('answers a text with nothing codable without a DRG', async () => {
    const r = await post({ message: 'Denies fever. No cough. Well.' });
    expect(r.status).toBe(200);
    expect(r.body.codes.principal).toBeNull();
    expect(r.body.drg).toBeNull();
    expect(r.body.response).toContain('No codable diagnosis');
  });

  it('auth: scope drg:classify, JWT allowed, no credentials refused', async () => {
    expect((await api(be.baseUrl, 'POST', '/api/v1/drg/agent/', { body: { message: NOTE } })).status).toBe(401);
    const wrong = await post({ message: NOTE }, searchOnly.key);
    expect(wrong.status).toBe(403);
    expect(wrong.body.error).toBe('insufficient_scope');
    expect(wrong.body.message).toContain('search');
    const login = await api(be.baseUrl, 'POST', '/login/', { body: { email: org.email, password: org.password } });
    expect(login.status).toBe(200);
    const jwt = await api(be.baseUrl, 'POST', '/api/v1/drg/agent/', { bearer: login.body.access_token as string, body: { message: NOTE } });
    expect(jwt.status).toBe(200);
    expect(jwt.body.codes.principal.code).toBe('J189');
    const stored = await be.db.query<{ user_id: string | null; api_key_id: string | null }>(
      'SELECT user_id::text AS user_id, api_key_id::text AS api_key_id FROM redaction_receipts WHERE id = $1::uuid',
      [jwt.body.redaction_receipt.receipt_id],
    );
    expect(stored[0]!.user_id).not.toBeNull();
    expect(stored[0]!.api_key_id).toBeNull();
  });

  it('fails closed when redaction cannot complete: 503, failed_closed receipt, no codes, no text', async () => {
    env.NODE_ENV = 'test';
    env.REDACT_FAULT_INJECTION = '1';
    try {
      const r = await api(be.baseUrl, 'POST', '/api/v1/drg/agent/', { key: org.key, body: { message: NOTE }, headers: { [FAULT_HEADER]: 'throw:*' } });
      expect(r.status).toBe(503);
      expect(r.body.error).toBe('redaction_failed');
      expect(r.body.redaction_receipt).toMatchObject({ status: 'failed_closed', entities_redacted: {} });
      expect(r.text).not.toContain(NAME);
      expect(r.text).not.toContain('pneumonia');
      expect(r.body.codes).toBeUndefined();
      const stored = await be.db.query<{ status: string; source: string; failure_reason: string }>(
        'SELECT status, source, failure_reason FROM redaction_receipts WHERE id = $1::uuid',
        [r.body.redaction_receipt.receipt_id],
      );
      expect(stored).toEqual([{ status: 'failed_closed', source: 'agent', failure_reason: 'recognizer_error' }]);
    } finally {
      env.NODE_ENV = saved.node;
      env.REDACT_FAULT_INJECTION = saved.flag;
    }
  });

  it('documents itself in the OpenAPI document', async () => {
    const doc = await api(be.baseUrl, 'GET', '/api/v1/openapi.json');
    expect(doc.status).toBe(200);
    const op = doc.body.paths['/drg/agent']?.post ?? doc.body.paths['/drg/agent/']?.post;
    expect(op).toBeDefined();
    expect(op.description).toContain('drg:classify');
    expect(JSON.stringify(op.requestBody)).toContain('deidentified');
  });
});
