import { AppError } from '../errors';
import { screenInput } from './screen';

/** Read a request body with a size limit: 413 before anything is parsed. */
export async function readBodyLimited(req: Request, limit: number): Promise<Uint8Array> {
  const declared = Number(req.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  if (!req.body) return new Uint8Array();
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let off = 0;
  for (const c of chunks) {
    out.set(c, off);
    off += c.byteLength;
  }
  return out;
}

function tooLarge(limit: number): AppError {
  return new AppError('payload_too_large', `The request body is larger than the ${Math.round(limit / 1024)} KiB limit.`);
}

export function mediaType(req: Request | Headers): string {
  const h = req instanceof Headers ? req : req.headers;
  return (h.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}

/**
 * Parse a JSON body; 400 invalid_json with the parser's position on failure, and 400 invalid_request for a NUL, a
 * lone surrogate or nesting past MAX_INPUT_DEPTH anywhere in it (`screenInput`).
 */
export function parseJson(bytes: Uint8Array): unknown {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  if (!text.trim()) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    // V8's message can quote the body (which may hold PHI): report only the position.
    const pos = /position (\d+)/.exec((err as Error).message)?.[1];
    throw new AppError('invalid_json', `The request body is not valid JSON${pos ? ` (error at character ${pos})` : ''}.`);
  }
  screenInput(value, 'body');
  return value;
}
