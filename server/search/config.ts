/**
 * Search settings from the environment (read directly: they are optional and only the search domain uses them).
 *  - SEARCH_FTS_LANGUAGES: full-text configurations indexed at import time (comma-separated, default `english`).
 *    Other existing configurations still work in requests, computed on the fly (slower).
 *  - SEARCH_MODEL_DIR: folder with an ONNX sentence-embedding model (`encoder/`) and/or cross-encoder (`reranker/`)
 *    for transformers.js; nothing is ever downloaded. Unset → the built-in encoder and reranker.
 *  - SEARCH_AUTO_IMPORT: `false` stops `npm start` from building and importing the starter vocabulary.
 *  - SEARCH_LEXICON_DIR: another folder for the clinical lexicon (default server/search/lexicon/; an empty folder
 *    turns it off). Read by lexicon.ts when the index is compiled.
 *  - SEARCH_INDEX_WAIT_MS: how long an HTTP search waits for an index still being built before answering 503
 *    vocabulary_unavailable (default 3000).
 */
export function ftsLanguages(): string[] {
  const raw = process.env.SEARCH_FTS_LANGUAGES ?? 'english';
  const list = raw
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter((s) => /^[a-z_]{2,40}$/.test(s));
  return [...new Set(['english', ...list])];
}

export function searchModelDir(): string | undefined {
  const v = process.env.SEARCH_MODEL_DIR?.trim();
  return v ? v : undefined;
}

export function autoImportEnabled(): boolean {
  return !/^(false|0|no)$/i.test(process.env.SEARCH_AUTO_IMPORT ?? 'true');
}

export function indexWaitMs(): number {
  const v = Number(process.env.SEARCH_INDEX_WAIT_MS ?? 3000);
  return Number.isFinite(v) && v >= 0 ? v : 3000;
}
