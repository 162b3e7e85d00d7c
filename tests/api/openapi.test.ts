import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { api, startBackend, type TestBackend } from '../helpers/backend';

/**
 * The OpenAPI document served at /api/v1/openapi.json describes what the live service does (issue 12 item 14): a
 * list of facts checked one by one, and the whole document validated against the OpenAPI 3.1 schema.
 */
let be: TestBackend;
let doc: any;
beforeAll(async () => {
  be = await startBackend();
  const r = await api(be.baseUrl, 'GET', '/api/v1/openapi.json');
  expect(r.status).toBe(200);
  doc = r.body;
});
afterAll(async () => {
  await be?.close();
});

/** Follow a local $ref (and one allOf of a single $ref) to the schema it names. */
function deref(s: any): any {
  if (s?.$ref)
    return deref(
      s.$ref
        .replace(/^#\//, '')
        .split('/')
        .reduce((n: any, k: string) => n?.[k], doc),
    );
  if (Array.isArray(s?.allOf) && s.allOf.length === 1 && s.allOf[0].$ref) return deref(s.allOf[0]);
  return s;
}
const body = (path: string, type = 'application/json') => deref(doc.paths[path].post.requestBody.content[type]?.schema);
const param = (path: string, method: string, name: string) => (doc.paths[path][method].parameters ?? []).find((p: any) => p.name === name && p.in === 'query');

describe(`OpenAPI document (${process.env.TEST_DB ?? 'postgres'})`, () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const v = new Validator();
    const res = await v.validate(structuredClone(doc));
    expect(res.errors ?? [], JSON.stringify(res.errors ?? []).slice(0, 2000)).toEqual([]);
    expect(res.valid).toBe(true);
    expect(doc.openapi).toMatch(/^3\.1\./);
  });

  it('search: the query parameters q, profile, response_format and search_mode with their enums', () => {
    expect(param('/search', 'post', 'q')?.schema.type).toBe('string');
    expect(param('/search', 'post', 'profile')?.schema.enum).toEqual(['explore', 'hybrid', 'mapping']);
    expect(param('/search', 'post', 'response_format')?.schema.enum).toEqual(['json', 'llm']);
    expect([...param('/search', 'post', 'search_mode')!.schema.enum].sort()).toEqual(['graph', 'hybrid']);
    expect(body('/search').properties.profile.enum).toEqual(['explore', 'hybrid', 'mapping']);
  });

  it('search and agent accept form-urlencoded and multipart bodies', () => {
    for (const p of ['/search', '/drg/agent']) {
      for (const t of ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'])
        expect(doc.paths[p].post.requestBody.content[t], `${p} ${t}`).toBeDefined();
      expect(body(p, 'multipart/form-data')).toEqual(body(p));
    }
  });

  it('search, vocabularies and domains answer text/markdown too', () => {
    expect(doc.paths['/search'].post.responses['200'].content['text/markdown'].schema.type).toBe('string');
    expect(doc.paths['/search/vocabularies'].get.responses['200'].content['text/markdown'].schema.type).toBe('string');
    expect(doc.paths['/search/domains'].get.responses['200'].content['text/markdown'].schema.type).toBe('string');
  });

  it('enums for gender, version and source_dialect; pr_codes items of exactly 7 characters', () => {
    const classify = body('/drg/classify');
    const batchCase = body('/drg/batch').properties.cases.items;
    for (const s of [classify, batchCase]) {
      expect(s.properties.gender.enum).toEqual(['F', 'M']);
      expect(s.properties.pr_codes.items).toMatchObject({ minLength: 7, maxLength: 7 });
    }
    for (const s of [classify, body('/drg/batch'), body('/drg/agent')])
      expect(s.properties.version.enum).toEqual(expect.arrayContaining(['v36', 'v37', 'v38', 'v39', 'v40', 'v43']));
    expect(body('/drg/batch').properties.source_dialect.enum).toEqual(['icd10cm']);
  });

  it('batch submit and presigned-url declare their 201', () => {
    expect(Object.keys(doc.paths['/drg/batch'].post.responses)).toEqual(expect.arrayContaining(['200', '201']));
    expect(doc.paths['/drg/batch'].post.responses['201'].content['application/json'].schema).toBeDefined();
    expect(Object.keys(doc.paths['/upload/presigned-url'].post.responses)).toContain('201');
    expect(doc.paths['/upload/presigned-url'].post.responses['200']).toBeUndefined();
  });

  it('defaults: top_k 10, min_relevance -2, max_tokens 1024, version v40, search_type websearch, language english', () => {
    const s = body('/search').properties;
    expect([
      s.top_k.default,
      s.min_relevance.default,
      s.search_type.default,
      s.language.default,
      s.rank_normalization.default,
      s.use_search_rank.default,
    ]).toEqual([10, -2, 'websearch', 'english', 0, true]);
    expect(body('/llm/chat/completions').properties.max_tokens.default).toBe(1024);
    expect(body('/drg/classify').properties.version.default).toBe('v40');
    expect(body('/drg/batch').properties.source_dialect.default).toBe('icd10cm');
    expect(body('/redact').properties.return_mapping.default).toBe(true);
  });

  it('deprecated: combined_score and conversation_key', () => {
    const results = deref(doc.paths['/search'].post.responses['200'].content['application/json'].schema).properties.results.items;
    expect(results.properties.combined_score.deprecated).toBe(true);
    expect(body('/redact').properties.conversation_key.deprecated).toBe(true);
    expect(body('/llm/chat/completions').properties.conversation_key.deprecated).toBe(true);
  });

  it('the redact 503 body carries its failed_closed receipt', () => {
    for (const p of ['/redact', '/drg/agent']) {
      const s = deref(doc.paths[p].post.responses['503'].content['application/json'].schema);
      expect(s.required).toEqual(expect.arrayContaining(['error', 'message', 'reason', 'redaction_receipt']));
      const receipt = deref(s.properties.redaction_receipt);
      expect(receipt.properties.status.enum).toEqual(['ok', 'failed_closed']);
      expect(receipt.required).toEqual(expect.arrayContaining(['status', 'entities_redacted', 'rehydration_complete']));
    }
  });

  it('the chat 200 schema, and security on the chat gateway and model endpoints', () => {
    const ok = deref(doc.paths['/llm/chat/completions'].post.responses['200'].content['application/json'].schema);
    expect(ok.required).toEqual(expect.arrayContaining(['id', 'object', 'choices', 'usage', 'redaction_receipt']));
    expect(ok.properties.choices.items.properties.message.properties.content.type).toEqual(['string', 'null']);
    expect(deref(ok.properties.redaction_receipt).properties.unresolved_placeholder_count).toBeDefined();
    for (const [p, m] of [
      ['/llm/chat/completions', 'post'],
      ['/llm/models', 'get'],
      ['/llm/models/{model}', 'get'],
    ] as const) {
      expect(doc.paths[p][m].security, p).toEqual([{ ApiKeyHeader: [] }, { BearerAuth: [] }]);
    }
    expect(doc.paths['/health'].get.security).toEqual([]);
  });
});
