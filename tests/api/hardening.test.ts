import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestOrg, sessionCookie, startBackend, userIdOf, type TestBackend, type TestOrg } from '../helpers/backend';
import { MAX_INPUT_DEPTH } from '@/server/http/screen';
import { addModel } from '@/server/gateway/registry';
import { startTestUpstream, type TestUpstream } from '@/tests/fixtures/test-upstream';
import { setLogSink } from '@/server/log';
import { SignJWT } from 'jose';
import { getSecret } from '@/server/secrets';
import { loadEnv } from '@/server/env';

/**
 * Hostile input and protocol abuse at the HTTP door (issue 12 items 3, 5, 6, 7): unsupported methods, oversized
 * bodies from clients that send everything before reading, NUL characters / lone surrogates / deep nesting in every
 * kind of input, and unknown API paths. Real HTTP (raw sockets where a fetch client would hide the behaviour).
 */
let be: TestBackend;
let org: TestOrg;
let up: TestUpstream;
let port: number;
const logLines: string[] = [];
let restoreLog: (() => void) | undefined;

beforeAll(async () => {
  be = await startBackend();
  port = Number(new URL(be.baseUrl).port);
  org = await createTestOrg(be.db);
  up = await startTestUpstream();
  await addModel(be.db, { name: 'hard-echo', base_url: up.baseUrl, upstream_model: 'echo', approved_for_phi: true }, { orgId: org.orgId, actor: 'test' });
  restoreLog = setLogSink((l) => logLines.push(l));
});
afterAll(async () => {
  restoreLog?.();
  await up?.close();
  await be?.close();
});

interface RawResult {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The server closed the connection (FIN) after answering. */
  closed: boolean;
  /** Every byte of the request was accepted by the server before anything was read. */
  sentAll: boolean;
  error?: string;
}

/**
 * A client like python-requests: writes the request head and the whole body, waits until the last byte is written,
 * and only then reads the response. Resolves when the server closes the connection or `timeoutMs` passes.
 */
function rawRequest(head: string, body: Buffer | null, opts: { timeoutMs?: number; chunked?: boolean } = {}): Promise<RawResult> {
  return new Promise((resolve) => {
    const sock = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let sentAll = false;
    let closed = false;
    let error: string | undefined;
    sock.pause(); // read nothing until the body is out
    const finish = () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('latin1');
      const [rawHead = '', ...rest] = text.split('\r\n\r\n');
      const lines = rawHead.split('\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(lines[0] ?? '')?.[1] ?? 0);
      const headers: Record<string, string> = {};
      for (const l of lines.slice(1)) {
        const i = l.indexOf(':');
        if (i > 0) headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
      }
      let b = rest.join('\r\n\r\n');
      if (headers['transfer-encoding'] === 'chunked') b = b.replace(/^[0-9a-f]+\r\n/i, '').replace(/\r\n0\r\n\r\n$/, '');
      resolve({ status, headers, body: b, closed, sentAll, error });
      sock.destroy();
    };
    const timer = setTimeout(finish, opts.timeoutMs ?? 15_000);
    sock.on('data', (d: Buffer) => chunks.push(d));
    sock.on('end', () => {
      closed = true;
      finish();
    });
    sock.on('error', (e) => {
      error = (e as NodeJS.ErrnoException).code ?? e.message;
      finish();
    });
    sock.write(head);
    const done = () => {
      sentAll = true;
      sock.resume();
    };
    if (!body) return done();
    if (opts.chunked) {
      const size = 256 * 1024;
      let off = 0;
      const next = (): void => {
        if (off >= body.length) return void sock.write('0\r\n\r\n', done);
        const part = body.subarray(off, off + size);
        off += size;
        sock.write(`${part.length.toString(16)}\r\n`);
        sock.write(part);
        sock.write('\r\n', next);
      };
      next();
    } else sock.write(body, done);
  });
}

const jsonOf = (r: RawResult) => JSON.parse(r.body) as { error: string; message: string };

describe(`HTTP door hardening on ${process.env.TEST_DB ?? 'postgres'}`, () => {
  it('unsupported methods (TRACE, PROPFIND, MKCOL) get a JSON 405 with Allow, and no stack trace in the log', async () => {
    logLines.length = 0;
    for (const method of ['TRACE', 'PROPFIND', 'MKCOL']) {
      for (const path of ['/api/v1/health/', '/api/v1/drg/classify/', '/api/trpc/account.whoami', '/signin']) {
        const r = await rawRequest(`${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`, null, { timeoutMs: 5000 });
        expect(r.status, `${method} ${path}`).toBe(405);
        expect(r.headers['content-type']).toMatch(/^application\/json/);
        expect(jsonOf(r)).toEqual({ error: 'method_not_allowed', message: `The ${method} method is not supported by this server.` });
        expect(r.headers.allow).toBe('GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS');
        expect(r.closed, 'the connection is closed, not left open').toBe(true);
      }
    }
    // the server is still up, and nothing like a stack trace was logged
    expect((await api(be.baseUrl, 'GET', '/api/v1/health/')).status).toBe(200);
    expect(logLines.join('\n')).not.toMatch(/TypeError|\n\s+at |unsupported\./);
  });

  it('413: a client that sends its whole oversized body before reading gets the 413, then the connection closes', async () => {
    const big = Buffer.alloc(6 * 1024 * 1024, 'a'); // over the 4 MiB MAX_BODY_BYTES
    for (const path of ['/api/v1/redact/', '/api/v1/llm/chat/completions', '/login/', '/api/v1/fhir/drg/$classify']) {
      const r = await rawRequest(
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${org.key}\r\nContent-Type: application/json\r\nContent-Length: ${big.length}\r\n\r\n`,
        big,
      );
      expect(r.error, path).toBeUndefined();
      expect(r.sentAll, `${path}: the server read the body`).toBe(true);
      expect(r.status, path).toBe(413);
      expect(r.headers.connection).toBe('close');
      expect(r.closed, `${path}: the server closed the connection`).toBe(true);
    }
    // without a declared length (chunked): refused once the limit is passed, the rest is read and discarded
    const r = await rawRequest(
      `POST /api/v1/redact/ HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${org.key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
      big,
      { chunked: true },
    );
    expect(r.error).toBeUndefined();
    expect(r.sentAll).toBe(true);
    expect(r.status).toBe(413);
    expect(jsonOf(r).error).toBe('payload_too_large');
    expect(r.closed).toBe(true);
    // a body under the limit on a kept-alive connection still works normally
    expect((await api(be.baseUrl, 'POST', '/api/v1/redact/', { key: org.key, body: { text: 'Pt Ahmad bin Ali, IC 850101-14-5673.' } })).status).toBe(200);
  });

  it('NUL characters, lone surrogates and deep nesting get 400 invalid_request at every door', async () => {
    const NUL = 'A\u0000B';
    const LONE = 'A\ud800B';
    // JSON.stringify itself overflows on 5,000 levels: the body is written as text
    const deepTool = `{"model":"hard-echo","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"f","parameters":${'{"type":"object","properties":{"x":'.repeat(5000)}{}${'}}'.repeat(5000)}}}]}`;
    const batchCase = (ref: string, dx = 'I214') => ({ cases: [{ case_ref: ref, dx_codes: [dx], gender: 'M', is_alive: true }] });
    const cases: Array<[string, string, unknown, Record<string, string>?]> = [
      ['/api/v1/drg/batch/', 'case_ref NUL', batchCase(NUL), { 'idempotency-key': 'hardening-nul-1' }],
      ['/api/v1/drg/batch/', 'dx_codes lone surrogate', batchCase('c1', LONE), { 'idempotency-key': 'hardening-lone-1' }],
      ['/api/v1/drg/batch/', 'case_ref lone low surrogate', batchCase('x\udc00'), { 'idempotency-key': 'hardening-lone-2' }],
      ['/api/v1/drg/classify/', 'dx_codes NUL', { dx_codes: [`I21${'\u0000'}4`], gender: 'M', is_alive: true }],
      ['/api/v1/llm/chat/completions', 'model NUL', { model: `hard${'\u0000'}echo`, messages: [{ role: 'user', content: 'hi' }] }],
      ['/api/v1/redact/', 'text lone surrogate', { text: LONE }],
      ['/api/v1/drg/agent/', 'message NUL', { message: NUL }],
      ['/api/v1/upload/presigned-url/', 'filename NUL', { filename: `a${'\u0000'}.csv` }],
      ['/api/v1/redact/', 'key NUL', { text: 'x', ['a\u0000']: 1 }],
    ];
    for (const [path, what, body, headers] of cases) {
      const r = await api(be.baseUrl, 'POST', path, { key: org.key, body, headers });
      expect(r.status, `${path} ${what}`).toBe(400);
      expect(r.body.error, `${path} ${what}`).toBe('invalid_request');
      expect(r.body.message, `${path} ${what}`).toMatch(/NUL character|unpaired surrogate/);
    }
    const d = await api(be.baseUrl, 'POST', '/api/v1/llm/chat/completions', { key: org.key, raw: deepTool, headers: { 'content-type': 'application/json' } });
    expect([d.status, d.body.error]).toEqual([400, 'invalid_request']);
    expect(d.body.message).toMatch(/^tools\.0\.function\.parameters\.properties\.x\..*nested more than \d+ levels deep/);
    expect(up.requests).toHaveLength(0); // nothing reached the model
    // login e-mail (no credentials needed to reach it)
    for (const email of [`a${'\u0000'}@x.test`, 'a\udfff@x.test']) {
      const r = await api(be.baseUrl, 'POST', '/login/', { body: { email, password: 'whatever-1' } });
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('invalid_request');
    }
    // exactly at the limit is fine for the door (the schema then decides); one level more is refused
    const nest = (n: number): unknown => (n === 0 ? 'v' : { k: nest(n - 1) });
    const atLimit = await api(be.baseUrl, 'POST', '/api/v1/redact/', { key: org.key, body: { text: 'x', prior_mapping: nest(MAX_INPUT_DEPTH - 1) } });
    expect(atLimit.status).toBe(400);
    expect(atLimit.body.message).not.toMatch(/nested more than/);
    const over = await api(be.baseUrl, 'POST', '/api/v1/redact/', { key: org.key, body: { text: 'x', prior_mapping: nest(MAX_INPUT_DEPTH) } });
    expect(over.body.message).toMatch(new RegExp(`prior_mapping.*nested more than ${MAX_INPUT_DEPTH} levels`));
    // query string, path parameter, form body
    const q = await api(be.baseUrl, 'GET', '/api/v1/drg/codes/?q=I2%00', { key: org.key });
    expect([q.status, q.body.error]).toEqual([400, 'invalid_request']);
    const p = await api(be.baseUrl, 'GET', '/api/v1/drg/batch/ab%00cd/', { key: org.key });
    expect([p.status, p.body.error]).toEqual([400, 'invalid_request']);
    const form = await api(be.baseUrl, 'POST', '/api/v1/drg/agent/', {
      key: org.key,
      raw: 'message=pneumonia%00x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect([form.status, form.body.error]).toEqual([400, 'invalid_request']);
    // FHIR: the same screening, answered as an OperationOutcome
    const fhir = await api(be.baseUrl, 'POST', '/api/v1/fhir/drg/$classify', {
      key: org.key,
      body: { resourceType: 'Bundle', type: 'collection', entry: [{ resource: { resourceType: 'Patient', gender: 'ma\u0000le' } }] },
      headers: { 'content-type': 'application/fhir+json' },
    });
    expect(fhir.status).toBe(400);
    expect(fhir.body.resourceType).toBe('OperationOutcome');
    expect(fhir.body.issue[0].diagnostics).toMatch(/NUL character/);
    // the UI's tRPC door
    const cookie = await sessionCookie(await userIdOf(be.db, org.email));
    const t = await fetch(`${be.baseUrl}/api/trpc/redact.redact`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ text: LONE }),
    });
    expect(t.status).toBe(400);
    const tj = (await t.json()) as { error: { data: { app: { error: string; message: string } } } };
    expect(tj.error.data.app.error).toBe('invalid_request');
    expect(tj.error.data.app.message).toMatch(/unpaired surrogate/);
    // nothing was written: no batch, no upload
    const batches = await be.db.query<{ n: number }>(
      'SELECT (SELECT count(*) FROM drg_batches WHERE org_id = $1)::int + (SELECT count(*) FROM uploads WHERE org_id = $1)::int AS n',
      [org.orgId],
    );
    expect(batches[0]!.n).toBe(0);
  });

  it('requests the HTTP parser refuses (headers over 16 KB, a broken request line) get JSON errors too', async () => {
    const big = await rawRequest(`GET /api/v1/search/?q=${'x'.repeat(20_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`, null, { timeoutMs: 5000 });
    expect(big.status).toBe(431);
    expect(jsonOf(big)).toMatchObject({ error: 'request_header_fields_too_large' });
    const broken = await rawRequest('GET /api/v1/health/ HTTP/1.1\r\nHost 127.0.0.1\r\n\r\n', null, { timeoutMs: 5000 });
    expect(broken.status).toBe(400);
    expect(typeof jsonOf(broken).message).toBe('string');
    expect(broken.closed).toBe(true);
  });

  it('unknown API paths, other API versions and other letter cases answer JSON 404', async () => {
    for (const path of ['/api/v2/drg/classify/', '/API/V1/health/', '/Api/v1/drg/classify', '/api/nothing', '/api', '/api/v1/no-such-thing']) {
      const r = await api(be.baseUrl, 'GET', path, { key: org.key });
      expect(r.status, path).toBe(404);
      expect(r.headers.get('content-type'), path).toMatch(/^application\/json/);
      expect(r.body, path).toMatchObject({ error: 'not_found' });
      expect(typeof r.body.message).toBe('string');
    }
  });

  it('every API response carries the security headers, and no-store wherever it can carry PHI or a mapping', async () => {
    const calls: Array<[string, string, unknown?]> = [
      ['POST', '/api/v1/redact/', { text: 'Pt Ahmad bin Ali, IC 850101-14-5673.' }],
      ['POST', '/api/v1/drg/agent/', { message: 'Discharge diagnosis: community acquired pneumonia.' }],
      ['POST', '/api/v1/drg/classify/', { dx_codes: ['I214'], gender: 'M', is_alive: true }],
      ['POST', '/api/v1/llm/chat/completions', { model: 'hard-echo', messages: [{ role: 'user', content: 'Ahmad bin Ali' }] }],
      ['GET', '/api/v1/redact/receipts/'],
      ['GET', '/api/v1/usage/'],
      ['GET', '/api/v1/health/'],
      ['POST', '/api/v1/redact/', { nope: 1 }], // errors too
      ['GET', '/api/v1/nothing/'],
    ];
    for (const [method, path, body] of calls) {
      const r = await api(be.baseUrl, method, path, { key: org.key, body });
      expect(r.status, path).toBeLessThan(500);
      expect(r.headers.get('cache-control'), path).toBe('no-store');
      expect(r.headers.get('content-security-policy'), path).toContain("frame-ancestors 'none'");
      expect(r.headers.get('content-security-policy'), path).toContain("default-src 'none'");
      expect(r.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(r.headers.get('x-frame-options'), path).toBe('DENY');
      expect(r.headers.get('referrer-policy'), path).toBe('no-referrer');
    }
    // the streamed chat too
    const sse = await fetch(`${be.baseUrl}/api/v1/llm/chat/completions`, {
      method: 'POST',
      headers: { 'x-api-key': org.key, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'hard-echo', stream: true, redact_only: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    await sse.text();
    expect(sse.headers.get('cache-control')).toMatch(/^no-store/);
    expect(sse.headers.get('x-content-type-options')).toBe('nosniff');
    // the OpenAPI document holds no caller data: it may be revalidated, still never framed or sniffed
    const doc = await api(be.baseUrl, 'GET', '/api/v1/openapi.json');
    expect(doc.headers.get('cache-control')).toBe('no-cache');
    expect(doc.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('access tokens without exp, or with a lifetime over the configured maximum, are refused', async () => {
    const secret = new TextEncoder().encode(loadEnv().JWT_SECRET ?? getSecret('JWT_SECRET'));
    const sub = await userIdOf(be.db, org.email);
    const max = loadEnv().JWT_TTL_SECONDS;
    const now = Math.floor(Date.now() / 1000);
    const sign = (claims: { iat?: number; exp?: number }) => {
      const j = new SignJWT({ org: org.orgId, role: 'admin' })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(sub)
        .setIssuer('coding-gateway')
        .setAudience('coding-gateway-api');
      if (claims.iat !== undefined) j.setIssuedAt(claims.iat);
      if (claims.exp !== undefined) j.setExpirationTime(claims.exp);
      return j.sign(secret);
    };
    const whoami = async (token: string) => api(be.baseUrl, 'GET', '/api/v1/auth/whoami', { bearer: token });
    // control: a token as /login/ issues it works
    expect((await whoami(await sign({ iat: now, exp: now + max }))).status).toBe(200);
    for (const [what, claims] of [
      ['no exp', { iat: now }],
      ['no iat', { exp: now + 60 }],
      ['a year long', { iat: now, exp: now + 365 * 86_400 }],
      ['one second over the maximum', { iat: now, exp: now + max + 1 }],
      ['issued in the future to stretch its life', { iat: now + 3600, exp: now + 3600 + max }],
    ] as const) {
      const r = await whoami(await sign(claims));
      expect(r.status, what).toBe(401);
      expect(r.body.error, what).toBe('invalid_token');
    }
  });
});
