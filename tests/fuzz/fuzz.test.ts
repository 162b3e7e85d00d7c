import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestOrg, startBackend, type TestBackend, type TestOrg } from '../helpers/backend';
import { getIndex, importVocabulary } from '@/server/search/index-cache';
import { addModel } from '@/server/gateway/registry';
import { startTestUpstream, type TestUpstream } from '@/tests/fixtures/test-upstream';
import { seededRandom } from '@/server/config/random';
import { writeAthenaFiles } from '../fixtures/athena';

/**
 * Seeded fuzzing of every endpoint over real HTTP on PGlite (issue 12 item 8; project `api-pglite` only, so it runs
 * once per `npm test`). Each endpoint gets FUZZ_BODIES bodies (default 200; a quarter for the agent and login, whose
 * valid requests cost hundreds of milliseconds of CPU or a password hash, half for batch submission) made from a valid request by a
 * deterministic generator: fields of the wrong type, hostile strings (NUL, lone surrogates, bidi, 10,000 characters,
 * SQL and JSON fragments), out-of-range and non-finite-looking numbers, deep nesting, unknown and prototype keys,
 * missing fields, non-object bodies, broken JSON, wrong content types, forms, hostile query strings and path ids.
 * Asserted for every response: never a 500 (no 5xx at all), and every 4xx is JSON `{"error": string, "message":
 * string}` (FHIR: an OperationOutcome with diagnostics). The seed is printed on failure; FUZZ_SEED reproduces a run.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261126);
const BODIES = Number(process.env.FUZZ_BODIES ?? 200);

let be: TestBackend;
let org: TestOrg;
let up: TestUpstream;
let fixture: string;

// deterministic: the same sequence for the same seed in every process
const rng = seededRandom;

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const HOSTILE_STRINGS = [
  '',
  ' ',
  'A\u0000B',
  '\u0000',
  '\ud800',
  'x\udfffy',
  '\u202eevil\u202c',
  '😀🏥',
  'x'.repeat(10_000),
  "'; DROP TABLE ledger; --",
  '%00%ff%',
  '{"a":1}',
  '[PERSON_1]',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  'Ahmad bin Ali 850101-14-5673',
  'null',
  'true',
  '-1',
  '1e309',
  'I21.4',
  'v99',
  'english',
  '\t\n\r',
];
const HOSTILE_NUMBERS = [0, -1, 1, 1.5, -0, 1e308, -1e308, 2 ** 53 + 1, 32_001, 100_001, 1001, 999999999999];
const HOSTILE_KEYS = ['__proto__', 'constructor', 'prototype', 'a\u0000', '\ud800', 'x'.repeat(300), 'extra_field', ''];

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)]!;
}

function randomValue(r: () => number, depth = 0): Json {
  const k = Math.floor(r() * 9);
  switch (k) {
    case 0:
      return null;
    case 1:
      return r() < 0.5;
    case 2:
      return pick(r, HOSTILE_NUMBERS);
    case 3:
    case 4:
      return pick(r, HOSTILE_STRINGS);
    case 5:
      return depth > 3 ? [] : Array.from({ length: Math.floor(r() * 4) }, () => randomValue(r, depth + 1));
    case 6:
      return depth > 3 ? {} : Object.fromEntries(Array.from({ length: Math.floor(r() * 3) }, () => [pick(r, HOSTILE_KEYS), randomValue(r, depth + 1)]));
    case 7:
      return Array.from({ length: 1001 }, () => 'I214');
    default:
      return nested(pick(r, [10, 63, 64, 65, 200]));
  }
}

function nested(n: number): Json {
  let v: Json = 'leaf';
  for (let i = 0; i < n; i++) v = { x: v };
  return v;
}

/** One mutation of a valid body. */
function mutate(r: () => number, valid: Record<string, Json>): { body?: Json; raw?: string; type?: string } {
  const body: Record<string, Json> = structuredClone(valid);
  const keys = Object.keys(body);
  if (r() < 0.1) return { body }; // the valid request itself, now and then
  const choice = Math.floor(r() * 12);
  switch (choice) {
    case 0: // one field replaced by anything
    case 1:
    case 2: {
      const k = pick(r, keys);
      body[k] = randomValue(r);
      return { body };
    }
    case 3: // every field replaced
      for (const k of keys) body[k] = randomValue(r);
      return { body };
    case 4: // a field removed, maybe another added
      delete body[pick(r, keys)];
      if (r() < 0.5) body[pick(r, HOSTILE_KEYS)] = randomValue(r);
      return { body };
    case 5: // inside arrays and objects of the valid body
      for (const k of keys) {
        const v = body[k];
        if (Array.isArray(v) && v.length) v[Math.floor(r() * v.length)] = randomValue(r);
        else if (v && typeof v === 'object' && !Array.isArray(v)) {
          const inner = Object.keys(v);
          if (inner.length) (v as Record<string, Json>)[pick(r, inner)] = randomValue(r);
        }
      }
      return { body };
    case 6: // not an object at all
      return { body: pick(r, [[], [body], 'text', 42, null, true] as Json[]) };
    case 7: // broken or odd JSON text
      return {
        raw: pick(r, [
          '{',
          '{"a":',
          '[1,2',
          '{"a":1}}',
          '\u0000',
          '{"a":NaN}',
          '{"a":Infinity}',
          '{"a":1,"a":2}',
          '"\\ud800"',
          JSON.stringify(body).slice(0, Math.floor(r() * 40)),
          '{"x":' + '['.repeat(5000) + ']'.repeat(5000) + '}',
        ]),
        type: 'application/json',
      };
    case 8: // wrong content types
      return {
        raw: JSON.stringify(body),
        type: pick(r, [
          'text/plain',
          'application/xml',
          'multipart/form-data; boundary=x',
          'application/x-www-form-urlencoded',
          '',
          'application/json; charset=latin1',
          'application/fhir+json',
        ]),
      };
    case 9: // a form body made from the fields (hostile values)
      return {
        raw: new URLSearchParams(keys.map((k) => [r() < 0.8 ? k : pick(r, HOSTILE_KEYS), String(randomValue(r))])).toString(),
        type: 'application/x-www-form-urlencoded',
      };
    case 10: // the whole body nested too deep, or huge
      return r() < 0.5 ? { body: { ...body, extra: nested(100) } } : { body: { ...body, [pick(r, keys)]: 'y'.repeat(200_000) } };
    default: // valid, with hostile strings in every string field
      for (const k of keys) if (typeof body[k] === 'string') body[k] = `${body[k] as string}${pick(r, HOSTILE_STRINGS)}`;
      return { body };
  }
}

interface Endpoint {
  name: string;
  method: 'GET' | 'POST';
  path: (r: () => number) => string;
  valid?: Record<string, Json>;
  headers?: (r: () => number) => Record<string, string>;
  /** FHIR answers errors with an OperationOutcome. */
  fhir?: boolean;
  /** Fewer bodies for endpoints whose valid requests are expensive. */
  share?: number;
  noAuth?: boolean;
}

/** encodeURIComponent, which throws on a lone surrogate: then that surrogate's (invalid) UTF-8 bytes, escaped. */
function enc(v: string): string {
  try {
    return encodeURIComponent(v);
  } catch {
    return '%ED%A0%80';
  }
}

const hostileQuery = (r: () => number, names: string[]) =>
  names
    .filter(() => r() < 0.7)
    .map(
      (n) =>
        `${r() < 0.9 ? n : enc(pick(r, HOSTILE_KEYS))}=${r() < 0.5 ? enc(String(randomValue(r))) : pick(r, ['%00', '%ZZ', '%ED%A0%80', '', 'llm', 'graph', 'explore'])}`,
    )
    .join('&');

const ENDPOINTS: Endpoint[] = [
  {
    name: 'search',
    method: 'POST',
    path: (r) => (r() < 0.5 ? '/api/v1/search/' : `/api/v1/search/?${hostileQuery(r, ['q', 'profile', 'response_format', 'search_mode'])}`),
    valid: { query: 'pneumonia', top_k: 5, vocabularies: ['ICD10CM'], search_type: 'websearch', find_relationship: true, min_relevance: null },
  },
  { name: 'vocabularies', method: 'GET', path: (r) => `/api/v1/search/vocabularies/?${hostileQuery(r, ['response_format', 'x'])}` },
  { name: 'domains', method: 'GET', path: (r) => `/api/v1/search/domains/?${hostileQuery(r, ['response_format', 'x'])}` },
  {
    name: 'classify',
    method: 'POST',
    path: () => '/api/v1/drg/classify/',
    valid: { dx_codes: ['I214', 'E1165'], pr_codes: ['02703DZ'], gender: 'M', is_alive: true, version: 'v40' },
  },
  {
    name: 'batch submit',
    method: 'POST',
    path: () => '/api/v1/drg/batch/',
    valid: { cases: [{ case_ref: 'c1', dx_codes: ['I214'], pr_codes: [], gender: 'F', is_alive: true }], source_dialect: 'icd10cm', version: 'v40' },
    headers: (r) => ({ 'idempotency-key': r() < 0.85 ? `fuzz-${Math.floor(r() * 1e9)}` : pick(r, ['short', 'x'.repeat(200), '\u00ff\u00fe-key-1234', '']) }),
    share: 0.5,
  },
  { name: 'batch get', method: 'GET', path: (r) => `/api/v1/drg/batch/${enc(String(randomValue(r))) || 'x'}/` },
  {
    name: 'agent',
    method: 'POST',
    path: () => '/api/v1/drg/agent/',
    valid: { message: 'Diagnosis: community acquired pneumonia. Comorbidities: T2DM, HPT.', deidentified: false, version: 'v40' },
    share: 0.25,
  },
  {
    name: 'fhir',
    method: 'POST',
    path: (r) => `/api/v1/fhir/drg/$classify${r() < 0.3 ? `?version=${enc(String(randomValue(r)))}` : ''}`,
    valid: fhirBundle(),
    fhir: true,
  },
  {
    name: 'redact',
    method: 'POST',
    path: () => '/api/v1/redact/',
    valid: {
      text: 'Pt Ahmad bin Ali, IC 850101-14-5673, seen by Dr Tan.',
      return_mapping: true,
      prior_mapping: { '[PERSON_1]': 'Ahmad bin Ali' },
      conversation_key: 'k1',
    },
  },
  {
    name: 'chat',
    method: 'POST',
    path: () => '/api/v1/llm/chat/completions',
    valid: {
      model: 'fuzz-echo',
      messages: [{ role: 'user', content: 'Summarise: Ahmad bin Ali, NSTEMI.' }],
      max_tokens: 64,
      temperature: 0.2,
      stop: ['END'],
      tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: { q: { type: 'string' } } } } }],
    },
  },
  { name: 'models', method: 'GET', path: (r) => (r() < 0.5 ? '/api/v1/llm/models' : `/api/v1/llm/models/${enc(String(randomValue(r))) || 'x'}`) },
  { name: 'presign', method: 'POST', path: () => '/api/v1/upload/presigned-url/', valid: { filename: 'cases.csv', content_type: 'text/csv', size_bytes: 100 } },
  { name: 'upload get', method: 'GET', path: (r) => `/api/v1/upload/${enc(String(randomValue(r))) || 'x'}/` },
  { name: 'login', method: 'POST', path: () => '/login/', valid: { email: 'nobody@example.test', password: 'wrong-password' }, noAuth: true, share: 0.25 },
  { name: 'codes', method: 'GET', path: (r) => `/api/v1/drg/codes/?${hostileQuery(r, ['q', 'limit', 'version', 'kind'])}` },
  { name: 'receipts', method: 'GET', path: (r) => `/api/v1/redact/receipts/?${hostileQuery(r, ['limit', 'before', 'source', 'status'])}` },
  {
    name: 'any path',
    method: 'GET',
    path: (r) => pick(r, ['/api/v2/', '/API/V1/health', '/api/v1/', '/api/v1/drg/', '/api/trpc/nothing', '/api/v1/%00', '/api/v1/upload/blob/x', '/login/x']),
  },
];

function fhirBundle(): Record<string, Json> {
  return {
    resourceType: 'Bundle',
    type: 'collection',
    entry: [
      { resource: { resourceType: 'Patient', id: 'p1', gender: 'male' } },
      { resource: { resourceType: 'Condition', id: 'c1', code: { coding: [{ system: 'http://hl7.org/fhir/sid/icd-10-cm', code: 'I21.4' }] } } },
      { resource: { resourceType: 'Encounter', id: 'e1', diagnosis: [{ condition: { reference: 'Condition/c1' }, rank: 1 }] } },
    ],
  };
}

function writeVocabulary(dir: string): void {
  const D = '19700101';
  const E = '20991231';

  const concepts: Array<[number, string, string, string, string, string, string]> = [
    [1001, 'Pneumonia, unspecified organism', 'Condition', 'ICD10CM', '4-char billing code', 'S', 'J18.9'],
    [1003, 'Pneumonia, unspecified organism', 'Condition', 'ICD10CM', '3-char nonbill code', 'S', 'J18'],
    [1004, 'Type 2 diabetes mellitus without complications', 'Condition', 'ICD10CM', '4-char billing code', 'S', 'E11.9'],
    [1005, 'Essential (primary) hypertension', 'Condition', 'ICD10CM', '3-char billing code', 'S', 'I10'],
  ];

  writeAthenaFiles(dir, {
    'CONCEPT.csv': concepts.map((c) => [...c, D, E, '']),
    'CONCEPT_RELATIONSHIP.csv': [[1001, 1003, 'Is a', D, E, '']],
    'CONCEPT_ANCESTOR.csv': [[1003, 1001, 1, 1]],
    'CONCEPT_SYNONYM.csv': [[1001, 'Community acquired pneumonia', 4180186]],
    'VOCABULARY.csv': [['ICD10CM', 'ICD10CM', 'test', 'v1', 0]],
    'DOMAIN.csv': [['Condition', 'Condition', 0]],
    'CONCEPT_CLASS.csv': [...new Set(concepts.map((c) => c[4]))].map((c) => [c, c, 0]),
    'RELATIONSHIP.csv': [['Is a', 'Is a', 1, 1, 'Subsumes', 0]],
  });
}

beforeAll(async () => {
  be = await startBackend({ kind: 'pglite' });
  org = await createTestOrg(be.db); // every scope
  up = await startTestUpstream();
  await addModel(be.db, { name: 'fuzz-echo', base_url: up.baseUrl, upstream_model: 'echo', approved_for_phi: true }, { orgId: org.orgId, actor: 'test' });
  fixture = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-fuzz-athena-'));
  writeVocabulary(fixture);
  await importVocabulary(be.db, fixture);
  await getIndex(be.db); // loaded, as a server does at start (searches before that answer 503 at once)
});
afterAll(async () => {
  await up?.close();
  await be?.close();
  if (fixture) fs.rmSync(fixture, { recursive: true, force: true });
});

interface Finding {
  endpoint: string;
  status: number;
  request: string;
  response: string;
}

/** Check one response; returns what is wrong with it, or null. */
function judge(ep: Endpoint, p: string, status: number, contentType: string, text: string): string | null {
  if (status >= 500) return `status ${status}`;
  if (status < 400) return null;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `a ${status} whose body is not JSON`;
  }
  if (ep.fhir && ep.method === 'POST' && status !== 404) {
    const o = body as { resourceType?: unknown; issue?: Array<{ diagnostics?: unknown }> };
    return o.resourceType === 'OperationOutcome' && typeof o.issue?.[0]?.diagnostics === 'string' ? null : `a ${status} that is not an OperationOutcome`;
  }
  if (!/json/.test(contentType)) return `a ${status} with content type ${contentType}`;
  if (p.startsWith('/api/trpc')) {
    // the UI's tRPC protocol: tRPC's error envelope, with our {error, message} in data.app
    const app = (body as { error?: { data?: { app?: { error?: unknown; message?: unknown } } } }).error?.data?.app;
    return typeof app?.error === 'string' && typeof app.message === 'string' ? null : `a tRPC ${status} without data.app {error, message}`;
  }
  const e = body as { error?: unknown; message?: unknown };
  return typeof e.error === 'string' && e.error && typeof e.message === 'string' && e.message ? null : `a ${status} without {error, message}`;
}

describe('fuzzing every endpoint (PGlite)', () => {
  it(`${BODIES} seeded bodies per endpoint: never a 5xx, and every 4xx is JSON {error, message}`, { timeout: 600_000 }, async () => {
    const findings: Finding[] = [];
    const tally: Record<string, { n: number; statuses: Record<number, number> }> = {};
    let total = 0;
    for (const [i, ep] of ENDPOINTS.entries()) {
      const r = rng(SEED + i * 7919);
      const n = Math.max(20, Math.round(BODIES * (ep.share ?? 1)));
      const t = (tally[ep.name] = { n: 0, statuses: {} as Record<number, number> });
      const t0 = performance.now();
      // a few at a time: concurrency is part of the probe, and it bounds the run time
      for (let k = 0; k < n; k += 4) {
        await Promise.all(
          Array.from({ length: Math.min(4, n - k) }, async () => {
            const headers: Record<string, string> = { ...(ep.headers?.(r) ?? {}) };
            if (!ep.noAuth && r() < 0.97) headers['x-api-key'] = org.key;
            let body: string | undefined;
            if (ep.method === 'POST') {
              const m = ep.valid ? mutate(r, ep.valid) : { body: randomValue(r) };
              body = m.raw ?? JSON.stringify(m.body);
              headers['content-type'] = m.type ?? (ep.fhir ? 'application/fhir+json' : 'application/json');
              if (headers['content-type'] === '') delete headers['content-type'];
            }
            const p = ep.path(r);
            let status = 0;
            let text = '';
            let type = '';
            try {
              const res = await fetch(be.baseUrl + p, { method: ep.method, headers, body });
              status = res.status;
              type = res.headers.get('content-type') ?? '';
              text = await res.text();
            } catch (err) {
              findings.push({ endpoint: ep.name, status: -1, request: `${ep.method} ${p} ${(body ?? '').slice(0, 200)}`, response: String(err).slice(0, 200) });
              return;
            }
            total++;
            t.n++;
            t.statuses[status] = (t.statuses[status] ?? 0) + 1;
            const wrong = judge(ep, p, status, type, text);
            if (wrong)
              findings.push({
                endpoint: ep.name,
                status,
                request: `${ep.method} ${p} ${(body ?? '').slice(0, 300)}`,
                response: `${wrong}: ${text.slice(0, 300)}`,
              });
          }),
        );
      }
      if (process.env.FUZZ_TIMING) process.stdout.write(`FUZZTIME ${ep.name} ${t.n} ${Math.round(performance.now() - t0)} ms ${JSON.stringify(t.statuses)}\n`);
    }
    const kinds = [...new Map(findings.map((f) => [`${f.endpoint} ${f.response.split(':')[0]}`, f])).values()];
    expect(kinds, `seed ${SEED}, ${findings.length} findings: ${JSON.stringify(kinds.slice(0, 12), null, 1)}`).toEqual([]);
    // every endpoint was really exercised: valid requests got through too, not only refusals
    for (const ep of ENDPOINTS) expect(tally[ep.name]!.n, ep.name).toBeGreaterThanOrEqual(20);
    const okSomewhere = ENDPOINTS.filter((ep) => Object.keys(tally[ep.name]!.statuses).some((s) => Number(s) < 300)).map((ep) => ep.name);
    expect(okSomewhere).toEqual(
      expect.arrayContaining([
        'search',
        'classify',
        'batch submit',
        'agent',
        'fhir',
        'redact',
        'chat',
        'presign',
        'codes',
        'receipts',
        'vocabularies',
        'domains',
        'models',
      ]),
    );
    expect(total).toBeGreaterThanOrEqual(ENDPOINTS.length * 20);
  });
});
