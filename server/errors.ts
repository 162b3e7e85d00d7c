/**
 * Errors are data: every non-2xx response is `{"error": "<snake_case_type>", "message": "<text>"}`.
 * Cores throw AppError (or a subclass); doors turn it into the HTTP response.
 */
export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 409 | 410 | 413 | 415 | 422 | 429 | 431 | 500 | 502 | 503 | 504;

/**
 * The catalogue of error types: every `error` the API puts on the wire, with its HTTP status. Made from the codes in
 * use (they are part of the contract: SPEC §7 binds several, clients match on the others); `errors.test.ts` checks
 * the statuses SPEC names. An AppError takes its type from here and its status with it, so a type cannot be sent
 * with another status and a new type has to be added here first.
 */
export const ERROR_TYPES = {
  // 400: the request is wrong (the message names the field)
  invalid_request: 400,
  bad_request: 400, // not parseable as HTTP (answered on the socket by server/http/node-adapter.ts)
  invalid_json: 400,
  missing_query: 400,
  invalid_search_mode: 400,
  invalid_vocabulary: 400,
  invalid_domain: 400,
  invalid_profile: 400,
  invalid_language: 400,
  invalid_tsquery: 400,
  invalid_version: 400,
  invalid_model: 400,
  invalid_case_file: 400,
  invalid_upload_url: 400,
  duplicate_case_ref: 400,
  unsupported_source_dialect: 400,
  idempotency_key_required: 400,
  invalid_idempotency_key: 400,
  identifier_in_token: 400,
  // the chat gateway's refusals (SPEC §4.10 item 3, and max_tokens below 16 on the reasoning family, SPEC §7)
  stream_requires_redact_only: 400,
  tools_not_supported_with_stream: 400,
  unsupported_content_part: 400,
  tool_choice_not_supported: 400,
  functions_not_supported: 400,
  max_tokens_too_low: 400,
  // 401: credentials (SPEC §7: missing or invalid credentials, a lapsed key)
  unauthorized: 401,
  missing_credentials: 401,
  invalid_credentials: 401,
  invalid_api_key: 401,
  key_expired: 401,
  key_revoked: 401,
  invalid_token: 401,
  token_expired: 401,
  api_key_required: 401,
  session_required: 401,
  session_expired: 401,
  // 403: not allowed (SPEC §7: scope; the body names the scopes held)
  forbidden: 403,
  insufficient_scope: 403,
  admin_required: 403,
  user_required: 403,
  cross_organization: 403,
  invalid_signature: 403,
  model_not_approved: 403,
  // 404 (also for another organisation's resources)
  not_found: 404,
  job_not_found: 404,
  case_not_found: 404,
  upload_not_found: 404,
  receipt_not_found: 404,
  model_not_found: 404,
  organization_not_found: 404,
  method_not_allowed: 405,
  // 409
  conflict: 409,
  idempotency_conflict: 409,
  duplicate_batch: 409,
  too_many_active_keys: 409,
  model_exists: 409,
  organization_exists: 409,
  user_exists: 409,
  upload_url_used: 409,
  upload_incomplete: 409,
  upload_failed: 409,
  upload_url_expired: 410,
  payload_too_large: 413,
  file_too_large: 413,
  unsupported_media_type: 415,
  request_header_fields_too_large: 431, // request line and headers over 16 KB (node-adapter.ts)
  // 429 (SPEC §7: a spend-capped organisation; nothing is charged)
  spend_cap_reached: 429,
  too_many_attempts: 429,
  too_many_requests: 429,
  // 5xx
  internal_error: 500,
  upstream_error: 502,
  upstream_unreachable: 502,
  upstream_invalid_response: 502,
  upstream_stream_interrupted: 502,
  redaction_failed: 503,
  database_unavailable: 503,
  vocabulary_unavailable: 503,
  upstream_not_configured: 503,
  service_unavailable: 503,
  model_timeout: 504,
  gateway_timeout: 504,
} as const satisfies Record<string, ErrorStatus>;

export type ErrorType = keyof typeof ERROR_TYPES;

/** The error types that carry a given status (`ErrorTypeOf<404>`: not_found, job_not_found, …). */
export type ErrorTypeOf<S extends ErrorStatus> = { [K in ErrorType]: (typeof ERROR_TYPES)[K] extends S ? K : never }[ErrorType];

export function isErrorType(s: string): s is ErrorType {
  return Object.hasOwn(ERROR_TYPES, s);
}

export class AppError extends Error {
  readonly status: ErrorStatus;
  readonly type: string;
  /** Extra fields merged into the error body (never PHI or secrets). */
  readonly extra?: Record<string, unknown>;

  /** An error of a catalogue type; its status comes from the catalogue. */
  constructor(type: ErrorType, message: string, extra?: Record<string, unknown>) {
    super(message);
    this.name = 'AppError';
    this.status = ERROR_TYPES[type];
    this.type = type;
    this.extra = extra;
  }

  /**
   * An error as it arrives from elsewhere with its status and type already decided (a worker thread's error, a
   * procedure's error data): kept as it is, so it leaves the door exactly as it was raised.
   */
  static fromWire(status: ErrorStatus, type: string, message: string, extra?: Record<string, unknown>): AppError {
    const e = new AppError('internal_error', message, extra);
    (e as { status: ErrorStatus }).status = status;
    (e as { type: string }).type = type;
    return e;
  }

  toBody(): Record<string, unknown> {
    return { error: this.type, message: this.message, ...this.extra };
  }
}

export const badRequest = (message: string, type: ErrorTypeOf<400> = 'invalid_request', extra?: Record<string, unknown>) => new AppError(type, message, extra);
export const unauthorized = (message: string, type: ErrorTypeOf<401> = 'unauthorized') => new AppError(type, message);
export const forbidden = (message: string, type: ErrorTypeOf<403> = 'forbidden', extra?: Record<string, unknown>) => new AppError(type, message, extra);
export const notFound = (message = 'Not found', type: ErrorTypeOf<404> = 'not_found') => new AppError(type, message);
export const conflict = (message: string, type: ErrorTypeOf<409> = 'conflict') => new AppError(type, message);

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
/** Prisma's error codes for a database it cannot reach or use right now (P1001 can't reach, P1002 timed out, P1008 operation timed out, P1017 connection closed, P2024 pool timeout). */
const PRISMA_UNAVAILABLE = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
/** Driver adapter error kinds of the same conditions. */
const ADAPTER_UNAVAILABLE = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections', 'TransactionAlreadyClosed']);

export function isDatabaseUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { name?: string; code?: string; cause?: unknown };
  if (e.name === 'PgliteBusyError') return true;
  if (err instanceof Error && /^Connection terminated|timeout exceeded when trying to connect/i.test(err.message)) return true;
  if (
    typeof e.code === 'string' &&
    (['ECONNREFUSED', 'ENOTFOUND', 'ETIMEDOUT', 'ECONNRESET', 'EHOSTUNREACH', '57P01', '57P02', '57P03', '53300'].includes(e.code) || e.code.startsWith('08'))
  ) {
    return true;
  }
  // Prisma Client: "can't reach", timed out, server closed the connection, pool exhausted; or the driver adapter's
  // own error kind (its postgres errors carry the SQLSTATE, read like the driver's)
  if (typeof e.code === 'string' && PRISMA_UNAVAILABLE.has(e.code)) return true;
  if (e.name === 'PrismaClientInitializationError') return true;
  const adapter = (err as { meta?: { driverAdapterError?: { cause?: { kind?: string; code?: string; originalCode?: string } } } }).meta?.driverAdapterError
    ?.cause;
  if (adapter) {
    if (adapter.kind && ADAPTER_UNAVAILABLE.has(adapter.kind)) return true;
    if (adapter.kind === 'postgres' && isDatabaseUnavailable({ code: adapter.code ?? adapter.originalCode })) return true;
  }
  if (err instanceof AggregateError) return err.errors.some(isDatabaseUnavailable);
  return e.cause !== undefined && e.cause !== err && isDatabaseUnavailable(e.cause);
}

export const databaseUnavailable = () => new AppError('database_unavailable', 'The database is unreachable right now. Try again shortly.');

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A canonical UUID (what PostgreSQL's uuid type accepts), for ids that arrive in paths and bodies. */
export function isUuid(s: string): boolean {
  return UUID_RE.test(s);
}
