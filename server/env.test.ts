import { afterEach, describe, expect, it } from 'vitest';
import { EnvError, loadEnv } from './env';
import { batchConfig } from './batch/config';
import { autoImportEnabled, ftsLanguages, indexWaitMs } from './search/config';

/** The one configuration module (server/env.ts): typed values, validation naming the variable, live re-reads. */
const saved = { ...process.env };
afterEach(() => {
  for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
  Object.assign(process.env, saved);
});

describe('configuration', () => {
  it('gives typed defaults for every domain’s settings', () => {
    const env = loadEnv({});
    expect(env.DRG_BATCH_CHUNK_SIZE).toBe(125);
    expect(env.DRG_BATCH_PRICE_MICROS).toBe(1000);
    expect(env.SEARCH_FTS_LANGUAGES).toEqual(['english']);
    expect(env.SEARCH_AUTO_IMPORT).toBe(true);
    expect(env.SEARCH_INDEX_WAIT_MS).toBe(0);
    expect(env.QUEUE_MONITOR_SECONDS).toBeUndefined();
    expect(env.SEED_DEMO).toBe(true);
  });

  it('parses the values as the domains used to (lenient where they were lenient, blank = unset)', () => {
    const env = loadEnv({
      SEARCH_FTS_LANGUAGES: ' Simple, english ,bad-name',
      SEARCH_AUTO_IMPORT: 'No',
      SEARCH_INDEX_WAIT_MS: 'soon',
      SEARCH_MODEL_DIR: '  ',
      QUEUE_MONITOR_SECONDS: '1.5',
      DRG_BATCH_CHUNK_SIZE: '',
    });
    expect(env.SEARCH_FTS_LANGUAGES).toEqual(['english', 'simple']);
    expect(env.SEARCH_AUTO_IMPORT).toBe(false);
    expect(env.SEARCH_INDEX_WAIT_MS).toBe(0);
    expect(env.SEARCH_MODEL_DIR).toBeUndefined();
    expect(env.QUEUE_MONITOR_SECONDS).toBeUndefined();
    expect(env.DRG_BATCH_CHUNK_SIZE).toBe(125);
    expect(loadEnv({ QUEUE_MONITOR_SECONDS: '2' }).QUEUE_MONITOR_SECONDS).toBe(2);
  });

  it('refuses a bad value with an EnvError naming the variable', () => {
    for (const [name, value] of [
      ['DRG_BATCH_CHUNK_SIZE', '0'],
      ['DRG_BATCH_PRICE_MICROS', '-1'],
      ['PORT', 'abc'],
      ['AGENT_MODEL', 'no spaces please'],
    ] as const) {
      let err: unknown;
      try {
        loadEnv({ [name]: value });
      } catch (e) {
        err = e;
      }
      expect(err, name).toBeInstanceOf(EnvError);
      expect((err as Error).name).toBe('EnvError'); // what `npm start` looks for to print the message without a stack
      expect((err as Error).message).toContain(name);
    }
  });

  it('re-reads the environment when one of its variables changed, and reuses the parse otherwise', () => {
    const first = loadEnv();
    expect(loadEnv()).toBe(first);
    process.env.DRG_BATCH_CHUNK_SIZE = '7';
    process.env.SEARCH_INDEX_WAIT_MS = '10';
    process.env.SEARCH_FTS_LANGUAGES = 'simple';
    process.env.SEARCH_AUTO_IMPORT = 'false';
    expect(batchConfig().chunkSize).toBe(7);
    expect(indexWaitMs()).toBe(10);
    expect(ftsLanguages()).toEqual(['english', 'simple']);
    expect(autoImportEnabled()).toBe(false);
    delete process.env.DRG_BATCH_CHUNK_SIZE;
    expect(batchConfig().chunkSize).toBe(125);
    process.env.SOME_UNRELATED_VARIABLE = 'x';
    expect(loadEnv()).toBe(loadEnv());
  });
});
