/** Input fields several resources share, so their limits, messages and OpenAPI wording stay the same. */
import { z } from 'zod';

/** Unicode code points in `s`, what the spec's character limits count (a surrogate pair is one character). */
export function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** Free text of 1 to `max` code points; `what` opens its description in the OpenAPI document. */
export function boundedText(max: number, what: string) {
  const range = `1 to ${max} characters`;
  return (
    z
      .string()
      .min(1, `must not be empty (${range})`)
      .refine((t) => codePoints(t) <= max, { message: `must be at most ${max} characters` })
      // JSON Schema's maxLength counts code points too, so the documented limit is exact
      .meta({ description: `${what}, ${range} (Unicode code points).`, maxLength: max })
  );
}

/**
 * A boolean that stays strict: `"false"` is a 400, never `true`. trpc-to-openapi marks every plain z.boolean() of an
 * input object for coercion; a pipe is left alone, so the OpenAPI document and any adapter see a strict boolean.
 */
export const strictBoolean = () => z.boolean().pipe(z.boolean());
