import { AppError } from '../errors';

/**
 * Input screening at the door, for every endpoint: values that no field of this API can use and that break things
 * further in are refused with 400 `invalid_request` before any core sees them.
 *
 *  - NUL characters (U+0000): PostgreSQL text cannot hold them (a NUL in a case_ref or an e-mail address was a 500);
 *  - lone surrogates (`\ud800` without its pair): not valid Unicode, PostgreSQL refuses them as well;
 *  - nesting deeper than MAX_INPUT_DEPTH objects/arrays: recursive code (JSON.stringify, zod, the chat gateway's
 *    prompt measurement) would overflow the stack on a 5,000-level tool schema.
 *
 * Applied to every parsed JSON body (`parseJson`), to form bodies, query-string and path parameters (`formToInput`),
 * to the UI's tRPC input and to the FHIR Bundle; keys are checked like values. The walk is iterative, so the check
 * itself cannot overflow. Upload bodies (raw files) are not screened.
 */
export const MAX_INPUT_DEPTH = 64;

/** A path segment that is a schema field name or an index; anything else (a caller's record key) is not echoed. */
const FIELD = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

type Seg = string | number;
/** One value to look at; its path is kept as a link to the parent frame and built only for an error message. */
interface Frame {
  value: unknown;
  depth: number;
  parent: Frame | null;
  key: Seg | null;
}

function pathOf(f: Frame): Seg[] {
  const out: Seg[] = [];
  for (let x: Frame | null = f; x && x.key !== null; x = x.parent) out.push(x.key);
  return out.reverse();
}

function where(frame: Frame, root: string): string {
  const path = pathOf(frame);
  const shown: string[] = [];
  for (const p of path) {
    if (typeof p === 'number' || FIELD.test(p)) shown.push(String(p));
    else break; // caller data (a record key): stop before it
  }
  return shown.length ? shown.join('.') : root;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a string is refused, or null. */
export function badString(s: string): string | null {
  if (s.includes('\u0000')) return 'contains a NUL character (U+0000), which is not accepted';
  if (LONE_SURROGATE.test(s)) return 'contains an unpaired surrogate (invalid Unicode), which is not accepted';
  return null;
}

export class InputRejectedError extends AppError {
  constructor(message: string) {
    super('invalid_request', message);
  }
}

/**
 * Throws InputRejectedError (400 invalid_request, naming the field) when `value` holds a NUL, a lone surrogate, or is
 * nested deeper than MAX_INPUT_DEPTH. `root` names the whole value in messages (body, query, input).
 */
export function screenInput(value: unknown, root = 'body'): void {
  const stack: Frame[] = [{ value, depth: 0, parent: null, key: null }];
  while (stack.length) {
    const frame = stack.pop()!;
    const { value: v, depth } = frame;
    if (typeof v === 'string') {
      const why = badString(v);
      if (why) throw new InputRejectedError(`${where(frame, root)}: ${why}.`);
      continue;
    }
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= MAX_INPUT_DEPTH) {
      throw new InputRejectedError(`${where(frame, root)}: nested more than ${MAX_INPUT_DEPTH} levels deep; the limit is ${MAX_INPUT_DEPTH}.`);
    }
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], depth: depth + 1, parent: frame, key: i });
      continue;
    }
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      const why = badString(k);
      if (why) throw new InputRejectedError(`${where(frame, root)}: a key ${why}.`);
      stack.push({ value: x, depth: depth + 1, parent: frame, key: k });
    }
  }
}
