import { loadEnv } from './env';

type Level = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<Level | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

/** Fields a log line may carry. Never put PHI, redaction mappings, API keys or passwords here. */
export type LogFields = Record<string, string | number | boolean | null | undefined | string[]>;

let sink: (line: string) => void = (line) => process.stdout.write(line + '\n');

/** Tests capture log output with this. */
export function setLogSink(fn: (line: string) => void): () => void {
  const prev = sink;
  sink = fn;
  return () => {
    sink = prev;
  };
}

function emit(level: Level, msg: string, fields?: LogFields): void {
  let threshold: Level | 'silent' = 'info';
  try {
    threshold = loadEnv().LOG_LEVEL;
  } catch {
    /* env not valid yet: log at info */
  }
  if (ORDER[level] < ORDER[threshold]) return;
  sink(JSON.stringify({ ts: new Date().toISOString(), level, msg, ...fields }));
}

export const log = {
  debug: (msg: string, fields?: LogFields) => emit('debug', msg, fields),
  info: (msg: string, fields?: LogFields) => emit('info', msg, fields),
  warn: (msg: string, fields?: LogFields) => emit('warn', msg, fields),
  error: (msg: string, fields?: LogFields) => emit('error', msg, fields),
};
