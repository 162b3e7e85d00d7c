/**
 * What runs inside a worker thread (loaded by worker-entry.mjs through tsx, as the server loads its own TypeScript).
 * CPU-bound cores only; their database calls go to the main thread over the task's port (db-proxy.ts).
 */
import type { MessagePort } from 'node:worker_threads';
import type { DbKind } from '../db';
import type { Principal } from '../auth/principal';
import type { AgentInput, AgentRunOptions, AgentRunResult } from '../agent';
import type { RedactOptions, RedactTextResult } from '../redact';
import type { LexicalSplit } from '../search/channels/lexical';
import type { SharedIndex } from '../search/index-store';
import type { AnalyzedQuery } from '../search/query';
import { createProxyDatabase, serializeError, type SerializedError } from './db-proxy';

// The database of this thread is the main thread's, reached through the task's port: installed in the slot
// server/db.ts reads, so nothing in a worker ever opens a database of its own (PGlite has one owner).
const proxy = createProxyDatabase();
const slot = ((globalThis as { __codingGatewayDb?: { db?: Promise<unknown> } }).__codingGatewayDb ??= {});
slot.db = Promise.resolve(proxy.db);
// and so is its search index: opened over the main thread's memory, never loaded or built here (registered before
// the first task that searches)
const openIndexFromMain = once(() => import('../search/index-cache').then(({ indexFromMainThread }) => indexFromMainThread(proxy.db, proxy.index)));

export type Task =
  | { name: 'redact'; text: string; options: RedactOptions }
  | {
      name: 'agent';
      principal: Principal;
      input: AgentInput;
      opts: Pick<AgentRunOptions, 'requestId' | 'faultInjection' | 'searchDisabled'>;
      dbKind: DbKind;
      port: MessagePort;
    }
  | { name: 'lexical'; index: SharedIndex; q: AnalyzedQuery; splits: Array<Omit<LexicalSplit, 'out'>> }
  | { name: 'open-index'; index: SharedIndex }
  | { name: 'warm'; modules: Array<'redact' | 'agent' | 'index'>; dbKind?: DbKind; port?: MessagePort };

export type TaskError =
  | { kind: 'app'; status: number; type: string; message: string; extra?: Record<string, unknown> }
  | { kind: 'redaction'; reason: string; message: string; recognizer?: string }
  | ({ kind: 'error' } & SerializedError);

export type TaskResult<T> = { ok: true; value: T } | { ok: false; error: TaskError };

async function describeError(err: unknown): Promise<TaskError> {
  const { AppError } = await import('../errors');
  const { RedactionFailedError } = await import('../redact/errors');
  if (err instanceof AppError) return { kind: 'app', status: err.status, type: err.type, message: err.message, ...(err.extra ? { extra: err.extra } : {}) };
  if (err instanceof RedactionFailedError)
    return { kind: 'redaction', reason: err.reason, message: err.message, ...(err.recognizer ? { recognizer: err.recognizer } : {}) };
  return { kind: 'error', ...serializeError(err) };
}

/**
 * A module imported once per thread: a dynamic import() of a loaded module still goes through the TypeScript loader's
 * resolve hook, a round trip to the loader's own thread (about 1 ms): a lexical walk task runs many times a second.
 */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | undefined;
  return () => (p ??= load());
}
const envModule = once(() => import('../env'));
const redactModule = once(() => import('../redact'));
const lexicalModules = once(() => Promise.all([import('../search/index-store'), import('../search/channels/lexical')]));

export async function runTask(task: Task): Promise<TaskResult<unknown>> {
  // the environment is shared with the main thread (SHARE_ENV); re-read it, as tests and operators may change it
  (await envModule()).resetEnvCache();
  try {
    switch (task.name) {
      case 'redact': {
        const { redactText } = await redactModule();
        const value: RedactTextResult = redactText(task.text, task.options);
        return { ok: true, value };
      }
      case 'lexical': {
        // the search engine's word walk over the main thread's index memory (channels/lexical.ts lexicalSearch)
        const [{ openSharedIndex }, { lexicalAnswers }] = await lexicalModules();
        const value = lexicalAnswers(await openSharedIndex(task.index), task.q, task.splits);
        return { ok: true, value };
      }
      case 'open-index': {
        await (await lexicalModules())[0].openSharedIndex(task.index);
        return { ok: true, value: null };
      }
      case 'agent': {
        proxy.useTaskPort(task.port, task.dbKind);
        try {
          await openIndexFromMain();
          const { runAgent } = await import('../agent');
          const value: AgentRunResult = await runAgent(proxy.db, task.principal, task.input, task.opts);
          return { ok: true, value };
        } finally {
          proxy.useTaskPort(null);
          task.port.close();
        }
      }
      case 'warm': {
        if (task.modules.includes('redact')) (await import('../redact')).warmRedaction();
        if (task.modules.includes('agent')) await import('../agent');
        if (task.modules.includes('index') && task.port) {
          // the agent's search index: the main thread's, opened over its memory (loaded there first if need be)
          proxy.useTaskPort(task.port, task.dbKind);
          try {
            await openIndexFromMain();
            // as the main thread warms its own: on PostgreSQL a missing index is built by a builder process, not here
            await (await import('../search/engine')).getIndex(proxy.db, { background: true });
          } finally {
            proxy.useTaskPort(null);
            task.port.close();
          }
        }
        return { ok: true, value: null };
      }
    }
  } catch (err) {
    return { ok: false, error: await describeError(err) };
  }
}
