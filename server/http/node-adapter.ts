import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { handleApiRequest } from './handler';
import { log } from '../log';

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
    body: hasBody ? (Readable.toWeb(req) as unknown as ReadableStream<Uint8Array>) : undefined,
    duplex: hasBody ? 'half' : undefined,
    signal: controller.signal,
  } as RequestInit);
}

export async function writeFetchResponse(res: ServerResponse, response: Response): Promise<void> {
  res.statusCode = response.status;
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
  const origin = `http://${req.headers.host ?? fallbackHost}`;
  handleApiRequest(toFetchRequest(req, origin, res), { clientAddress: req.socket.remoteAddress ?? 'unknown' })
    .then((r) => writeFetchResponse(res, r))
    .catch((err: unknown) => {
      log.error('response failed', { err: err instanceof Error ? err.message : String(err) });
      if (!res.headersSent) res.statusCode = 500;
      res.end();
    });
}

/** An http server that serves only the API (tests, benchmarks). */
export function createApiServer(): http.Server {
  return http.createServer((req, res) => serveApi(req, res));
}
