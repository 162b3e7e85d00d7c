import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { cacheDir } from '../config/paths';
import { log } from '../log';
import { searchModelDir } from './config';
import type { VocabIndex } from './vocab-index';

/**
 * Pluggable models. Without SEARCH_MODEL_DIR the engine uses its built-in encoder (random-indexing word vectors
 * compiled from the vocabulary, see vocab-index.ts) and built-in reranker (rerank.ts); no weights are needed.
 *
 * With SEARCH_MODEL_DIR, a real ONNX sentence-embedding model (`<dir>/encoder/`) and/or cross-encoder
 * (`<dir>/reranker/`) are run through transformers.js (`@huggingface/transformers`, installed separately; it uses
 * onnxruntime-node) with remote models disabled, so nothing is ever fetched. Concept embeddings are computed once per
 * vocabulary in the background and cached under .cache/search/; until they are ready the built-in encoder serves.
 * The cross-encoder rescores the top 50 candidates; its logit becomes `similarity`.
 */
export interface DenseEncoder {
  name: string;
  encodeQuery(text: string): Promise<Float32Array | null>;
  cosine(q: Float32Array, concept: number): number;
}

export interface CrossEncoder {
  name: string;
  rescore(query: string, items: Array<{ s: { logit: number }; text: string }>): Promise<void>;
}

interface Loaded {
  fingerprint: string;
  encoder?: DenseEncoder;
  reranker?: CrossEncoder;
}

let state: Loaded | null = null;
let loading: string | null = null;

type TransformersModule = {
  env: { allowRemoteModels: boolean; localModelPath: string; allowLocalModels: boolean };
  pipeline: (
    task: string,
    model: string,
    opts?: Record<string, unknown>,
  ) => Promise<(input: string | string[], opts?: Record<string, unknown>) => Promise<{ data: Float32Array; dims: number[] }>>;
  AutoTokenizer: { from_pretrained(m: string, o?: Record<string, unknown>): Promise<(a: string[], o: Record<string, unknown>) => Record<string, unknown>> };
  AutoModelForSequenceClassification: {
    from_pretrained(m: string, o?: Record<string, unknown>): Promise<(inputs: Record<string, unknown>) => Promise<{ logits: { data: Float32Array } }>>;
  };
};

async function loadTransformers(): Promise<TransformersModule | null> {
  const name = '@huggingface/transformers';
  try {
    return (await import(/* webpackIgnore: true */ name)) as TransformersModule;
  } catch {
    log.warn('SEARCH_MODEL_DIR is set but @huggingface/transformers is not installed; using the built-in encoder and reranker');
    return null;
  }
}

/** Models for this index: the ONNX ones once ready, otherwise none (the engine's built-ins apply). */
export function getModels(ix: VocabIndex): { encoder?: DenseEncoder; reranker?: CrossEncoder } {
  const dir = searchModelDir();
  if (!dir) return {};
  if (state?.fingerprint === ix.fingerprint) return state;
  if (loading !== ix.fingerprint) {
    loading = ix.fingerprint;
    loadOnnx(dir, ix)
      .then((s) => {
        state = s;
      })
      .catch((err: unknown) => log.warn('ONNX search models unavailable', { err: err instanceof Error ? err.message : String(err) }));
  }
  return {};
}

async function loadOnnx(dir: string, ix: VocabIndex): Promise<Loaded> {
  const tf = await loadTransformers();
  const out: Loaded = { fingerprint: ix.fingerprint };
  if (!tf) return out;
  tf.env.allowRemoteModels = false;
  tf.env.allowLocalModels = true;
  tf.env.localModelPath = path.resolve(dir);
  if (fs.existsSync(path.join(dir, 'reranker'))) {
    const tokenizer = await tf.AutoTokenizer.from_pretrained('reranker', { local_files_only: true });
    const model = await tf.AutoModelForSequenceClassification.from_pretrained('reranker', { local_files_only: true });
    out.reranker = {
      name: 'onnx-cross-encoder',
      async rescore(query, items) {
        if (!items.length) return;
        const inputs = tokenizer(
          items.map(() => query),
          { text_pair: items.map((i) => i.text), padding: true, truncation: true },
        );
        const { logits } = await model(inputs);
        items.forEach((it, i) => (it.s.logit = Math.max(-15, Math.min(15, logits.data[i]!))));
      },
    };
  }
  if (fs.existsSync(path.join(dir, 'encoder'))) {
    const extract = await tf.pipeline('feature-extraction', 'encoder', { local_files_only: true });
    const embed = async (texts: string[]) => extract(texts, { pooling: 'mean', normalize: true });
    const probe = await embed(['probe']);
    const dim = probe.dims[probe.dims.length - 1]!;
    const hash = createHash('sha256')
      .update(`${ix.fingerprint}:${fs.realpathSync(path.join(dir, 'encoder'))}`)
      .digest('hex')
      .slice(0, 16);
    const file = path.join(cacheDir(), 'search', `onnx-${hash}.f32`);
    let matrix: Float32Array;
    if (fs.existsSync(file) && fs.statSync(file).size === ix.n * dim * 4) {
      matrix = new Float32Array(fs.readFileSync(file).buffer.slice(0));
    } else {
      log.info('embedding the vocabulary with the ONNX encoder (once per vocabulary)', { concepts: ix.n });
      matrix = new Float32Array(ix.n * dim);
      for (let i = 0; i < ix.n; i += 256) {
        const batch = ix.name.slice(i, i + 256);
        const r = await embed(batch);
        matrix.set(r.data, i * dim);
      }
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, Buffer.from(matrix.buffer));
    }
    out.encoder = {
      name: 'onnx-encoder',
      async encodeQuery(text) {
        const r = await embed([text]);
        return r.data;
      },
      cosine(q, c) {
        let s = 0;
        const base = c * dim;
        for (let d = 0; d < dim; d++) s += q[d]! * matrix[base + d]!;
        return s;
      },
    };
  }
  log.info('ONNX search models ready', { encoder: !!out.encoder, reranker: !!out.reranker });
  return out;
}
