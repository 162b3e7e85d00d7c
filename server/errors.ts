/**
 * Errors are data: every non-2xx response is `{"error": "<snake_case_type>", "message": "<text>"}`.
 * Cores throw AppError (or a subclass); doors turn it into the HTTP response.
 */
export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 409 | 410 | 413 | 415 | 422 | 429 | 500 | 502 | 503 | 504;

export class AppError extends Error {
  readonly status: ErrorStatus;
  readonly type: string;
  /** Extra fields merged into the error body (never PHI or secrets). */
  readonly extra?: Record<string, unknown>;

  constructor(status: ErrorStatus, type: string, message: string, extra?: Record<string, unknown>) {
    super(message);
    this.name = 'AppError';
    this.status = status;
    this.type = type;
    this.extra = extra;
  }

  toBody(): Record<string, unknown> {
    return { error: this.type, message: this.message, ...this.extra };
  }
}

export const badRequest = (message: string, type = 'invalid_request', extra?: Record<string, unknown>) =>
  new AppError(400, type, message, extra);
export const unauthorized = (message: string, type = 'unauthorized') => new AppError(401, type, message);
export const forbidden = (message: string, type = 'forbidden', extra?: Record<string, unknown>) =>
  new AppError(403, type, message, extra);
export const notFound = (message = 'Not found', type = 'not_found') => new AppError(404, type, message);
export const conflict = (message: string, type = 'conflict') => new AppError(409, type, message);

export function errorResponse(err: AppError, requestId?: string, headers?: HeadersInit): Response {
  const body = err.toBody();
  if (requestId && err.status >= 500) body.request_id = requestId;
  return jsonResponse(body, err.status, headers);
}

export function jsonResponse(body: unknown, status = 200, headers?: HeadersInit): Response {
  const h = new Headers(headers);
  if (!h.has('content-type')) h.set('content-type', 'application/json; charset=utf-8');
  return new Response(JSON.stringify(body), { status, headers: h });
}

/** A path segment that is a schema field name (or an array index), not a key taken from the caller's data. */
const FIELD_NAME_RE = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/**
 * Message for a zod error that names the offending fields. It never echoes caller data: record keys (which may be
 * PHI, e.g. a reversed prior_mapping) are cut from the path, and an invalid record key is reported by the record's
 * field name only ("prior_mapping: keys must be placeholders ...").
 */
export function describeZodIssues(
  issues: ReadonlyArray<{ path: PropertyKey[]; message: string; code?: string; keys?: string[]; issues?: ReadonlyArray<{ message?: string }> }>,
): string {
  return issues
    .slice(0, 5)
    .map((i) => {
      // an invalid record key: its path ends with the key itself, which is caller text
      const path = i.code === 'invalid_key' ? i.path.slice(0, -1) : i.path;
      const shown: string[] = [];
      for (const p of path) {
        if (typeof p === 'number' || (typeof p === 'string' && FIELD_NAME_RE.test(p) && !/^\d+$/.test(p))) shown.push(String(p));
        else break; // a record key or anything else taken from the input: stop before it
      }
      const where = shown.length ? shown.join('.') : 'body';
      if (i.code === 'invalid_key') {
        // the key schema's own message (written by us, or zod's, which never quotes the input)
        const inner = i.issues?.find((x) => typeof x.message === 'string')?.message;
        if (inner?.startsWith('keys ')) return `${where}: ${inner}`;
        return `${where}: invalid key${inner ? ` (${inner})` : ''}`;
      }
      if (i.code === 'unrecognized_keys' && i.keys?.length) {
        const named = i.keys.filter((k) => FIELD_NAME_RE.test(k));
        const list = named.length === i.keys.length ? ` ${named.map((k) => `'${k}'`).join(', ')}` : '';
        return `${where}: unknown field${i.keys.length > 1 ? 's' : ''}${list}`;
      }
      return `${where}: ${i.message}`;
    })
    .join('; ');
}

/** Errors that mean "the database cannot be reached right now" (answer 503, not 500). */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { name?: string; code?: string; cause?: unknown };
  if (e.name === 'PgliteBusyError') return true;
  if (err instanceof Error && /^Connection terminated|timeout exceeded when trying to connect/i.test(err.message)) return true;
  if (typeof e.code === 'string' && (['ECONNREFUSED', 'ENOTFOUND', 'ETIMEDOUT', 'ECONNRESET', 'EHOSTUNREACH', '57P01', '57P02', '57P03', '53300'].includes(e.code) || e.code.startsWith('08'))) {
    return true;
  }
  if (err instanceof AggregateError) return err.errors.some(isDatabaseUnavailable);
  return e.cause !== undefined && e.cause !== err && isDatabaseUnavailable(e.cause);
}

export const databaseUnavailable = () => new AppError(503, 'database_unavailable', 'The database is unreachable right now. Try again shortly.');

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A canonical UUID (what PostgreSQL's uuid type accepts), for ids that arrive in paths and bodies. */
export function isUuid(s: string): boolean {
  return UUID_RE.test(s);
}
