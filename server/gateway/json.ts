/**
 * A JSON scanner that keeps the source text: the string values, keys and number literals of a JSON document with
 * their exact spans, so a document can be changed token by token and everything else (whitespace, key order,
 * duplicate keys, number spelling such as `1.0` or a 19-digit integer) stays byte for byte as written. Used to redact
 * JSON texts (tool results, tool-call arguments, tool parameter schemas) without a parse/serialise round trip, which
 * would round large integers through JS numbers and reformat the document.
 */

export type JsonTokenKind = 'key' | 'string' | 'number';

export interface JsonToken {
  kind: JsonTokenKind;
  /** Span in the source text, quotes included for keys and strings. */
  start: number;
  end: number;
  /** The decoded string (keys, strings) or the literal as written (numbers). */
  value: string;
  /**
   * The key that labels this token: a value's own key; inside an array, the key of the array; for a key, the key of
   * the object that holds it. Undefined at the top level.
   */
  label: string | undefined;
}

interface Container {
  obj: boolean;
  /** Label of the values in this container: an object's current key, an array's own label. */
  label: string | undefined;
  expectKey: boolean;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** True when the text (after leading whitespace) starts like a JSON object or array. */
export function looksLikeJson(text: string): boolean {
  const t = text.trimStart();
  return t.startsWith('{') || t.startsWith('[');
}

/** Index just past the closing quote of the JSON string starting at `i` (which is a `"`). */
function stringEnd(text: string, i: number): number {
  let j = i + 1;
  for (;;) {
    const q = text.indexOf('"', j);
    if (q < 0) throw new Error('unterminated JSON string');
    let bs = 0;
    for (let k = q - 1; k > i && text.charCodeAt(k) === 0x5c; k--) bs++;
    if (bs % 2 === 0) return q + 1;
    j = q + 1;
  }
}

/**
 * The tokens of a JSON object or array, in source order; undefined when the text is not one (invalid JSON, or a
 * scalar such as `"x"` or `42`, which are treated as plain text).
 */
export function scanJson(text: string): JsonToken[] | undefined {
  if (!looksLikeJson(text)) return undefined;
  try {
    JSON.parse(text);
  } catch {
    return undefined;
  }
  const tokens: JsonToken[] = [];
  const stack: Container[] = [];
  const top = () => stack[stack.length - 1];
  // the label a value (or a container) gets at the current position
  const valueLabel = () => top()?.label;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    switch (c) {
      case 0x22: {
        // "
        const end = stringEnd(text, i);
        const raw = text.slice(i, end);
        const value = raw.indexOf('\\') < 0 ? raw.slice(1, -1) : (JSON.parse(raw) as string);
        const t = top();
        if (t?.obj && t.expectKey) {
          tokens.push({ kind: 'key', start: i, end, value, label: stack[stack.length - 2]?.label });
          t.expectKey = false;
          t.label = value;
        } else {
          tokens.push({ kind: 'string', start: i, end, value, label: valueLabel() });
        }
        i = end;
        break;
      }
      case 0x7b: // {
        stack.push({ obj: true, label: valueLabel(), expectKey: true });
        // the object's values are labelled by their own keys; keep the outer label for its keys until one is read
        i++;
        break;
      case 0x5b: // [
        stack.push({ obj: false, label: valueLabel(), expectKey: false });
        i++;
        break;
      case 0x7d: // }
      case 0x5d: // ]
        stack.pop();
        i++;
        break;
      case 0x2c: {
        // ,
        const t = top();
        if (t?.obj) t.expectKey = true;
        i++;
        break;
      }
      default: {
        if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
          NUMBER.lastIndex = i;
          const m = NUMBER.exec(text);
          if (!m) throw new Error('invalid JSON number');
          tokens.push({ kind: 'number', start: i, end: i + m[0].length, value: m[0], label: valueLabel() });
          i += m[0].length;
        } else i++; // whitespace, ':', true/false/null letters
      }
    }
  }
  return tokens;
}

/** The text with some tokens replaced (`replacements[k]` is the new source text of `tokens[k]`, or undefined to keep it). */
export function rebuildJson(text: string, tokens: readonly JsonToken[], replacements: ReadonlyArray<string | undefined>): string {
  let out = '';
  let last = 0;
  for (let k = 0; k < tokens.length; k++) {
    const r = replacements[k];
    if (r === undefined) continue;
    out += text.slice(last, tokens[k]!.start) + r;
    last = tokens[k]!.end;
  }
  return last === 0 ? text : out + text.slice(last);
}
