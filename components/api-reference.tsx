'use client';
import { useEffect, useMemo, useState } from 'react';
import { Markdown } from './markdown';

/**
 * Interactive API reference built from /api/v1/openapi.json: operations by tag, their parameters and schemas, and a
 * "Try it" panel that sends a real request with your key. Nothing is fetched from outside this server.
 */
type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  description?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  anyOf?: Schema[];
  oneOf?: Schema[];
  nullable?: boolean;
  $ref?: string;
  additionalProperties?: boolean | Schema;
};
type Param = { name: string; in: string; required?: boolean; schema?: Schema; description?: string };
type Operation = {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Param[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: Schema }> }>;
  security?: unknown[];
  deprecated?: boolean;
};
type Doc = {
  info: { title: string; version: string; description?: string };
  servers?: Array<{ url: string }>;
  paths: Record<string, Record<string, Operation | unknown>>;
};

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/**
 * "Try it" bodies that work as they are (synthetic, no PHI): a request the schema alone cannot fill in sensibly.
 * Operations not listed here start from their schema's required fields.
 */
export const EXAMPLE_BODIES: Record<string, unknown> = {
  'post /drg/classify': { dx_codes: ['I21.4', 'I50.21', 'E11.65'], pr_codes: ['02703DZ'], gender: 'M', is_alive: true, version: 'v40' },
  'post /search': { query: 'heart attack', vocabularies: ['ICD10CM'], top_k: 5 },
  'post /redact': { text: 'Pt John Tan, NRIC S1234567D, seen 3 Jan 2024 at Klinik Kesihatan for chest pain.' },
  'post /drg/agent': {
    message:
      'Diagnosis: NSTEMI. Comorbidities: acute systolic heart failure, type 2 diabetes with hyperglycaemia. Procedure: PCI with one drug-eluting stent to the LAD.',
    deidentified: true,
  },
  'post /drg/batch': {
    version: 'v40',
    source_dialect: 'icd10cm',
    cases: [
      { case_ref: 'enc-1', dx_codes: ['I21.4', 'I50.21'], pr_codes: ['02703DZ'], gender: 'M', is_alive: true },
      { case_ref: 'enc-2', dx_codes: ['J44.1'], pr_codes: [], gender: 'F', is_alive: true },
    ],
  },
};

function exampleBody(method: string, path: string, schema: Schema | undefined): string {
  const key = `${method} ${path.replace(/^\/api\/v1/, '').replace(/\/$/, '')}`;
  const known = EXAMPLE_BODIES[key];
  return JSON.stringify(known ?? exampleFor(schema), null, 2);
}

function exampleFor(s: Schema | undefined, depth = 0): unknown {
  if (!s || depth > 5) return null;
  if (s.default !== undefined) return s.default;
  if (s.enum?.length) return s.enum[0];
  const alt = s.anyOf ?? s.oneOf;
  if (alt?.length) return exampleFor(alt.find((a) => a.type !== 'null') ?? alt[0], depth + 1);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(s.properties ?? {})) if (s.required?.includes(k)) out[k] = exampleFor(v, depth + 1);
      return out;
    }
    case 'array':
      return s.minItems ? [exampleFor(s.items, depth + 1)] : [];
    case 'integer':
    case 'number':
      return s.minimum ?? 0;
    case 'boolean':
      return false;
    case 'string':
      return '';
    default:
      return null;
  }
}

function SchemaView({ schema, depth = 0 }: { schema?: Schema; depth?: number }) {
  if (!schema) return <span className="muted">—</span>;
  if (depth > 4) return <span className="muted">…</span>;
  const alt = schema.anyOf ?? schema.oneOf;
  if (alt)
    return (
      <span>
        {alt.map((a, i) => (
          <span key={i}>
            {i ? ' | ' : ''}
            <SchemaView schema={a} depth={depth + 1} />
          </span>
        ))}
      </span>
    );
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : schema.type;
  if (type === 'object' && schema.properties) {
    return (
      <table className="table schema-table">
        <tbody>
          {Object.entries(schema.properties).map(([k, v]) => (
            <tr key={k}>
              <td>
                <code>{k}</code>
                {schema.required?.includes(k) ? <span className="req">*</span> : null}
              </td>
              <td>
                <SchemaView schema={v} depth={depth + 1} />
                {v.description ? <div className="muted small">{v.description}</div> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    );
  }
  if (type === 'array')
    return (
      <span>
        array of <SchemaView schema={schema.items} depth={depth + 1} />
      </span>
    );
  const limits = [
    schema.enum ? `one of ${schema.enum.map((e) => JSON.stringify(e)).join(', ')}` : '',
    schema.minimum !== undefined ? `≥ ${schema.minimum}` : '',
    schema.maximum !== undefined ? `≤ ${schema.maximum}` : '',
    schema.minLength !== undefined ? `min length ${schema.minLength}` : '',
    schema.maxLength !== undefined ? `max length ${schema.maxLength}` : '',
    schema.default !== undefined ? `default ${JSON.stringify(schema.default)}` : '',
  ].filter(Boolean);
  return (
    <span>
      <code>{type ?? 'any'}</code>
      {limits.length ? <span className="muted small"> ({limits.join('; ')})</span> : null}
    </span>
  );
}

function newUuid(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `docs-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

/** Starting values of the "Try it" fields: a fresh Idempotency-Key for operations that take one. */
export function initialParams(op: Pick<Operation, 'parameters'>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of op.parameters ?? []) if (p.in === 'header' && p.name.toLowerCase() === 'idempotency-key') out[p.name] = newUuid();
  return out;
}

/** The request headers from the operation's `in: header` parameters that have a value. */
export function headerParams(op: Pick<Operation, 'parameters'>, values: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of op.parameters ?? []) {
    const v = values[p.name];
    if (p.in === 'header' && v) out[p.name] = v;
  }
  return out;
}

function TryIt({ method, path, op, base }: { method: string; path: string; op: Operation; base: string }) {
  const bodySchema = op.requestBody?.content?.['application/json']?.schema;
  const [apiKey, setApiKey] = useState(() => (typeof window === 'undefined' ? '' : (sessionStorage.getItem('cg-docs-key') ?? '')));
  // An Idempotency-Key header gets a fresh value to start with, so a POST sent from here works as it is.
  const [params, setParams] = useState<Record<string, string>>(() => initialParams(op));
  const [body, setBody] = useState(() => (bodySchema ? exampleBody(method, path, bodySchema) : ''));
  const [result, setResult] = useState<{ status: number; text: string; ms: number } | null>(null);
  const [busy, setBusy] = useState(false);

  async function send() {
    setBusy(true);
    sessionStorage.setItem('cg-docs-key', apiKey);
    let url = path;
    const query = new URLSearchParams();
    for (const p of op.parameters ?? []) {
      const v = params[p.name];
      if (!v) continue;
      if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(v));
      else if (p.in === 'query') query.set(p.name, v);
    }
    const headers: Record<string, string> = headerParams(op, params);
    if (apiKey) headers['x-api-key'] = apiKey;
    if (body && method !== 'get') headers['content-type'] = 'application/json';
    const t = performance.now();
    try {
      const res = await fetch(`${base}${url}${query.size ? `?${query}` : ''}`, {
        method: method.toUpperCase(),
        headers,
        body: method !== 'get' && body ? body : undefined,
      });
      const text = await res.text();
      let pretty = text;
      try {
        pretty = JSON.stringify(JSON.parse(text), null, 2);
      } catch {
        /* not JSON */
      }
      setResult({ status: res.status, text: pretty, ms: Math.round(performance.now() - t) });
    } catch (err) {
      setResult({ status: 0, text: String(err), ms: 0 });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="tryit">
      <label>
        API key
        <input type="password" value={apiKey} onChange={(e) => setApiKey(e.target.value)} placeholder="cg_live_…" autoComplete="off" />
      </label>
      {(op.parameters ?? []).map((p) => (
        <label key={`${p.in}-${p.name}`}>
          {p.name}{' '}
          <span className="muted small">
            ({p.in}
            {p.required ? ', required' : ''})
          </span>
          <input value={params[p.name] ?? ''} onChange={(e) => setParams({ ...params, [p.name]: e.target.value })} />
        </label>
      ))}
      {method !== 'get' && bodySchema ? (
        <label>
          Body (JSON)
          <textarea rows={8} value={body} onChange={(e) => setBody(e.target.value)} spellCheck={false} className="mono" />
        </label>
      ) : null}
      <button type="button" className="btn btn-primary" onClick={() => void send()} disabled={busy}>
        {busy ? 'Sending…' : 'Send request'}
      </button>
      {result ? (
        <div className="tryit-result">
          <div>
            Status <strong>{result.status}</strong> · {result.ms} ms
          </div>
          <pre>{result.text}</pre>
        </div>
      ) : null}
    </div>
  );
}

export function ApiReference() {
  const [doc, setDoc] = useState<Doc | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  useEffect(() => {
    fetch('/api/v1/openapi.json')
      .then((r) => r.json() as Promise<Doc>)
      .then(setDoc)
      .catch((e: unknown) => setError(String(e)));
  }, []);
  const groups = useMemo(() => {
    const out = new Map<string, Array<{ method: string; path: string; op: Operation; base: string }>>();
    if (!doc) return out;
    const defaultBase = new URL(doc.servers?.[0]?.url ?? '/api/v1', window.location.origin).pathname.replace(/\/$/, '');
    for (const [path, item] of Object.entries(doc.paths)) {
      const itemServers = (item as { servers?: Array<{ url: string }> }).servers;
      const base = itemServers?.length ? new URL(itemServers[0]!.url, window.location.origin).pathname.replace(/\/$/, '') : defaultBase;
      for (const m of METHODS) {
        const op = (item as Record<string, Operation>)[m];
        if (!op) continue;
        const tag = op.tags?.[0] ?? 'other';
        out.set(tag, [...(out.get(tag) ?? []), { method: m, path, op, base }]);
      }
    }
    return out;
  }, [doc]);

  if (error) return <div className="alert alert-error">Could not load the OpenAPI document: {error}</div>;
  if (!doc) return <p className="muted">Loading the API description…</p>;
  return (
    <div className="api-ref">
      <p>
        <a href="/api/v1/openapi.json">openapi.json</a> · version {doc.info.version}
      </p>
      {doc.info.description ? <Markdown text={doc.info.description} className="api-intro markdown" /> : null}
      {[...groups.entries()].map(([tag, ops]) => (
        <section key={tag} className="card">
          <h2>{tag}</h2>
          {ops.map(({ method, path, op, base }) => {
            const id = `${method} ${path}`;
            return (
              <div key={id} className="op">
                <button type="button" className="op-head" onClick={() => setOpen(open === id ? null : id)} aria-expanded={open === id}>
                  <span className={`method method-${method}`}>{method.toUpperCase()}</span>
                  <code>
                    {base}
                    {path}
                  </code>
                  <span className="op-summary">{op.summary}</span>
                </button>
                {open === id ? (
                  <div className="op-body">
                    {op.description ? <Markdown text={op.description} /> : null}
                    {op.parameters?.length ? (
                      <>
                        <h3>Parameters</h3>
                        <table className="table schema-table">
                          <tbody>
                            {op.parameters.map((p) => (
                              <tr key={`${p.in}-${p.name}`}>
                                <td>
                                  <code>{p.name}</code> <span className="muted small">{p.in}</span>
                                  {p.required ? <span className="req">*</span> : null}
                                </td>
                                <td>
                                  <SchemaView schema={p.schema} />
                                  {p.description ? <div className="muted small">{p.description}</div> : null}
                                </td>
                              </tr>
                            ))}
                          </tbody>
                        </table>
                      </>
                    ) : null}
                    {op.requestBody?.content ? (
                      <>
                        <h3>Request body</h3>
                        <SchemaView schema={Object.values(op.requestBody.content)[0]?.schema} />
                      </>
                    ) : null}
                    <h3>Responses</h3>
                    <ul>
                      {Object.entries(op.responses ?? {}).map(([code, r]) => (
                        <li key={code}>
                          <strong>{code}</strong> {r.description}
                        </li>
                      ))}
                    </ul>
                    <h3>Try it</h3>
                    <TryIt method={method} path={path} op={op} base={base} />
                  </div>
                ) : null}
              </div>
            );
          })}
        </section>
      ))}
    </div>
  );
}
