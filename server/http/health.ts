import { getDb } from '../db';
import { jsonResponse } from '../errors';
import { queueStatus } from '../queue';
import { dataSetStatuses } from '../status';
import { API_VERSION, APP_VERSION } from '../version';
import { log } from '../log';

/**
 * GET /api/v1/health/: no auth. 200 when the database answers, 503 when it does not (or not within 2 s).
 * Every probe is time-boxed, so the check itself never hangs; error details go to the log, not to the caller.
 */
export async function healthResponse(): Promise<Response> {
  const started = Date.now();
  let database: { reachable: boolean; backend?: string; latency_ms?: number; error?: string };
  try {
    const db = await withTimeout(getDb(), 3000);
    await withTimeout(db.query('SELECT 1'), 2000);
    database = { reachable: true, backend: db.kind, latency_ms: Date.now() - started };
  } catch (err) {
    const timedOut = err instanceof Error && err.message.startsWith('timed out');
    log.warn('health: database unreachable', { err: err instanceof Error ? err.message.split('\n')[0]!.slice(0, 200) : 'unknown' });
    database = { reachable: false, error: timedOut ? 'the database did not answer within 2 s' : 'the database cannot be reached' };
  }
  const ok = database.reachable;
  const [queue, data_sets] = ok
    ? await Promise.all([
        withTimeout(queueStatus(), 1500).catch(() => ({ started: false, workers: [], queues: [], error: 'timed out' })),
        withTimeout(dataSetStatuses(), 1500).catch(() => [{ name: 'data sets', loaded: false, detail: { error: 'timed out' } }]),
      ])
    : [{ started: false, workers: [], queues: [] }, []];
  return jsonResponse(
    { status: ok ? 'ok' : 'unavailable', version: APP_VERSION, api_version: API_VERSION, time: new Date().toISOString(), database, queue, data_sets },
    ok ? 200 : 503,
    { 'cache-control': 'no-store' },
  );
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e) => {
        clearTimeout(t);
        reject(e);
      },
    );
  });
}
