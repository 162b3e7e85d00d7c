import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';

// The adapter only; the API handler (and everything behind it) is not needed here.
vi.mock('./handler', () => ({ handleApiRequest: vi.fn() }));
const { writeFetchResponse } = await import('./node-adapter');

let server: http.Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

/** A server whose one response is an endless stream; resolves with what happened to it. */
async function streamingServer() {
  let cancelled = false;
  let pulled = 0;
  let finished: Promise<void> | undefined;
  const chunk = new Uint8Array(256 * 1024).fill(120);
  server = http.createServer((_req, res) => {
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        pulled++;
        c.enqueue(chunk);
      },
      cancel() {
        cancelled = true;
      },
    });
    finished = writeFetchResponse(res, new Response(body, { headers: { 'content-type': 'application/octet-stream' } }));
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
  return {
    port: (server.address() as AddressInfo).port,
    state: () => ({ cancelled, pulled, finished }),
  };
}

describe('writeFetchResponse', () => {
  it('stops writing and cancels the stream when a slow client disconnects while the socket is full', async () => {
    const s = await streamingServer();
    const req = http.get({ host: '127.0.0.1', port: s.port, path: '/' });
    const res = await new Promise<http.IncomingMessage>((r) => req.once('response', r));
    res.pause(); // a slow client: reads nothing, so the server's socket buffer fills and write() returns false
    const t0 = Date.now();
    while (s.state().pulled < 8 && Date.now() - t0 < 5000) await new Promise((r) => setTimeout(r, 20));
    const pulledBefore = s.state().pulled;
    await new Promise((r) => setTimeout(r, 200));
    expect(s.state().pulled).toBeLessThan(pulledBefore + 3); // back-pressure: the writer waits for 'drain'
    req.destroy(); // the client goes away while the server waits for 'drain'
    const outcome = await Promise.race([s.state().finished!.then(() => 'finished'), new Promise((r) => setTimeout(() => r('hung'), 3000))]);
    expect(outcome).toBe('finished');
    expect(s.state().cancelled).toBe(true);
  });

  it('streams a finite body to the end', async () => {
    server = http.createServer((_req, res) => {
      const parts = ['a', 'b', 'c'].map((x) => new TextEncoder().encode(x.repeat(100_000)));
      void writeFetchResponse(
        res,
        new Response(new ReadableStream({ pull: (c) => (parts.length ? c.enqueue(parts.shift()!) : c.close()) }), { status: 201, headers: { 'x-test': '1' } }),
      );
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
    const r = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    expect(r.status).toBe(201);
    expect(r.headers.get('x-test')).toBe('1');
    expect((await r.text()).length).toBe(300_000);
  });
});
