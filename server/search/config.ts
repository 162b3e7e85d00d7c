import { loadEnv } from '../env';

/**
 * Search settings, declared and documented in the configuration schema (server/env.ts) and read from it on use:
 *  - SEARCH_FTS_LANGUAGES: full-text configurations indexed at import time (comma-separated, default `english`).
 *    Other existing configurations still work in requests, computed on the fly (slower).
 *  - SEARCH_MODEL_DIR: folder with an ONNX sentence-embedding model (`encoder/`) and/or cross-encoder (`reranker/`)
 *    for transformers.js; nothing is ever downloaded. Unset → the built-in encoder and reranker.
 *  - SEARCH_AUTO_IMPORT: `false` stops `npm start` from building and importing the starter vocabulary.
 *  - SEARCH_LEXICON_DIR: another folder for the clinical lexicon (default server/search/lexicon/; an empty folder
 *    turns it off). Read by lexicon.ts when the index is compiled.
 *  - SEARCH_INDEX_WAIT_MS: how long an HTTP search may wait for the index being loaded before answering 503
 *    vocabulary_unavailable (default 0: at once; an index being built never makes a search wait).
 */
export function ftsLanguages(): string[] {
  return loadEnv().SEARCH_FTS_LANGUAGES;
}

export function searchModelDir(): string | undefined {
  return loadEnv().SEARCH_MODEL_DIR;
}

export function autoImportEnabled(): boolean {
  return loadEnv().SEARCH_AUTO_IMPORT;
}

export function indexWaitMs(): number {
  return loadEnv().SEARCH_INDEX_WAIT_MS;
}

export function lexiconDirSetting(): string | undefined {
  return loadEnv().SEARCH_LEXICON_DIR;
}
