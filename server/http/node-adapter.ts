import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { handleApiRequest } from './handler';
import { log } from '../log';
import { ERROR_TYPES, type ErrorType } from '../errors';

/**
 * Node http ⇄ Fetch API, so the same handler serves the web server, the test server and the benchmarks.
 * The Request's signal aborts when the client disconnects before the response is complete, so long-running work
 * (an upstream model call) can stop.
 */
export function toFetchRequest(req: IncomingMessage, origin: string, res?: ServerResponse): Request {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) v.forEach((x) => headers.append(k, x));
    else headers.set(k, v);
  }
  const method = (req.method ?? 'GET').toUpperCase();
  const hasBody = method !== 'GET' && method !== 'HEAD';
  const controller = new AbortController();
  res?.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return new Request(new URL(req.url ?? '/', origin), {
    method,
    headers,
    body: hasBody ? requestBodyStream(req) : undefined,
    duplex: hasBody ? 'half' : undefined,
    signal: controller.signal,
  } as RequestInit);
}

/**
 * The request body as a web stream that reads from the socket only when the handler reads (so a body nobody reads is
 * left for Node to discard after the response, keeping the connection usable), and whose cancel() stops reading
 * without destroying the socket (a reset would throw away the 413 the handler is about to send; see `lingerAfter413`).
 */
function requestBodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let attached = false;
  let ctl: ReadableStreamDefaultController<Uint8Array>;
  const onData = (chunk: Buffer) => {
    ctl.enqueue(new Uint8Array(chunk)); // a copy: socket buffers may be slices of a shared pool
    if ((ctl.desiredSize ?? 0) <= 0) req.pause();
  };
  const onEnd = () => {
    detach();
    ctl.close();
  };
  const onError = (err: Error) => {
    detach();
    ctl.error(err);
  };
  const detach = () => {
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('error', onError);
  };
  return new ReadableStream<Uint8Array>(
    {
      start(c) {
        ctl = c;
      },
      pull() {
        if (!attached) {
          attached = true;
          req.on('data', onData);
          req.on('end', onEnd);
          req.on('error', onError);
        }
        req.resume();
      },
      cancel() {
        detach();
        req.pause();
      },
    },
    // highWaterMark 0: nothing is read from the socket before the handler asks for it
    { highWaterMark: 0, size: (chunk) => chunk.byteLength },
  );
}

/** Methods this server answers; anything else (TRACE, CONNECT, WebDAV verbs…) gets a JSON 405 before routing. */
export const SUPPORTED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
const SUPPORTED = new Set<string>(SUPPORTED_METHODS);

/**
 * Answer a request whose method the server does not support with 405 JSON (`Allow` lists the supported methods) and
 * close the connection. True when it answered. Used for every path (API and pages), before anything else looks at
 * the request: `new Request()` refuses TRACE, CONNECT and TRACK, so they must never reach the Fetch adapter.
 */
export function rejectUnsupportedMethod(req: IncomingMessage, res: ServerResponse): boolean {
  const method = (req.method ?? '').toUpperCase();
  if (SUPPORTED.has(method)) return false;
  const type: ErrorType = 'method_not_allowed';
  const body = JSON.stringify({ error: type, message: `The ${method.slice(0, 20).replace(/[^A-Z-]/g, '')} method is not supported by this server.` });
  res.writeHead(ERROR_TYPES[type], {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    allow: SUPPORTED_METHODS.join(', '),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    connection: 'close',
  });
  res.end(method === 'HEAD' ? undefined : body);
  log.info('request', { method: method.slice(0, 20), path: '(unsupported method)', status: 405 });
  return true;
}

/** How long, and how many bytes, the server keeps reading a refused oversized body so the client can read the 413. */
const LINGER_MS = 10_000;
const LINGER_BYTES = 256 * 1024 * 1024;

/**
 * After a 413 the rest of the body is still on its way. Closing the socket at once would make the kernel answer with
 * a reset, and a client that sends its whole body before reading (python-requests, curl without Expect) would see
 * ECONNRESET instead of the 413; never reading it would leave that client blocked in its send until a timeout. So:
 * `Connection: close`, the response is written, our side of the connection is ended (FIN), and the remaining body is
 * read and thrown away until the client has sent it all and closes (bounded by LINGER_MS and LINGER_BYTES).
 */
function lingerAfter413(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('connection', 'close');
  const socket = req.socket;
  // Node ends a `Connection: close` response with socket.destroySoon(), which destroys the socket (a reset while
  // the body is still arriving); end the write side only, and destroy when the client is done or the time is up.
  socket.destroySoon = function lingeringClose(this: typeof socket) {
    this.end();
    const timer = setTimeout(() => this.destroy(), LINGER_MS);
    timer.unref();
    this.once('close', () => clearTimeout(timer));
  };
  let drained = 0;
  req.removeAllListeners('data'); // the body stream's reader, if the handler had started reading
  req.on('data', (chunk: Buffer) => {
    drained += chunk.byteLength;
    if (drained > LINGER_BYTES) socket.destroy();
  });
  req.resume();
}

export async function writeFetchResponse(res: ServerResponse, response: Response, req?: IncomingMessage): Promise<void> {
  res.statusCode = response.status;
  if (response.status === 413 && req && !req.complete) lingerAfter413(req, res);
  response.headers.forEach((value, key) => {
    if (key === 'set-cookie') return;
    res.setHeader(key, value);
  });
  const cookies = response.headers.getSetCookie?.() ?? [];
  if (cookies.length) res.setHeader('set-cookie', cookies);
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  // Once the client is gone nothing more is written and the stream is cancelled (its producer can stop).
  const gone = () => res.destroyed || res.closed;
  res.once('close', () => {
    reader.cancel().catch(() => undefined);
  });
  try {
    while (!gone()) {
      const { done, value } = await reader.read();
      if (done || gone()) break;
      if (!res.write(value)) await drainOrClose(res);
    }
  } finally {
    if (gone()) reader.cancel().catch(() => undefined);
    res.end();
  }
}

/**
 * Waits until the socket takes more data ('drain') or goes away ('close'): after a disconnect 'drain' never
 * fires, and waiting for it alone would hang the response (and hold its stream) for ever.
 */
export function drainOrClose(res: ServerResponse): Promise<void> {
  if (res.destroyed || res.closed) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });
}

/** Serve one API request from a node http server through `handleApiRequest`. */
export function serveApi(req: IncomingMessage, res: ServerResponse, fallbackHost = '127.0.0.1'): void {
  if (rejectUnsupportedMethod(req, res)) return;
  let request: Request;
  try {
    request = toFetchRequest(req, `http://${req.headers.host ?? fallbackHost}`, res);
  } catch {
    // an unparseable Host header or URL: nothing to route
    request = toFetchRequest(req, `http://${fallbackHost}`, res);
  }
  handleApiRequest(request, { clientAddress: req.socket.remoteAddress ?? 'unknown' })
    .then((r) => writeFetchResponse(res, r, req))
    .catch((err: unknown) => {
      log.error('response failed', { err: err instanceof Error ? err.message : String(err) });
      if (!res.headersSent) res.statusCode = 500;
      res.end();
    });
}

/**
 * Requests Node's HTTP parser refuses before any handler runs (headers over 16 KB, a malformed request line or header)
 * get a JSON error too, then the connection closes, instead of Node's bare `400 Bad Request`/`431` with no body.
 */
export function answerClientError(err: NodeJS.ErrnoException & { code?: string }, socket: import('node:stream').Duplex): void {
  if (!socket.writable || (socket as { _httpMessage?: unknown })._httpMessage) {
    socket.destroy();
    return;
  }
  const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
  const type: ErrorType = tooLarge ? 'request_header_fields_too_large' : 'bad_request';
  const status = ERROR_TYPES[type];
  const body = JSON.stringify({
    error: type,
    message: tooLarge
      ? 'The request line and headers are larger than this server accepts (16 KB); send long values in the body.'
      : 'The request could not be parsed as HTTP.',
  });
  socket.end(
    `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\ncache-control: no-store\r\nx-content-type-options: nosniff\r\nconnection: close\r\n\r\n${body}`,
  );
}

/** An http server that serves only the API (tests, benchmarks). */
export function createApiServer(): http.Server {
  const server = http.createServer((req, res) => serveApi(req, res));
  server.on('clientError', answerClientError);
  return server;
}
