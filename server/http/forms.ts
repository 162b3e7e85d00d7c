import type { z } from 'zod';
import { screenInput } from './screen';

/**
 * Form bodies (urlencoded or multipart) turned into the JSON input a procedure expects. Field types come from
 * the procedure's zod schema: numbers, booleans, arrays (repeated fields or comma-separated), nullable values
 * (`null` or empty), and JSON objects.
 */
type Kind = 'number' | 'boolean' | 'array' | 'object' | 'string' | 'unknown';

function unwrap(schema: z.ZodType | undefined): { kind: Kind; nullable: boolean } {
  let s = schema as unknown as { def?: { type?: string; innerType?: unknown; in?: unknown } } | undefined;
  let nullable = false;
  for (let i = 0; i < 10 && s?.def; i++) {
    const t = s.def.type;
    if (t === 'optional' || t === 'default' || t === 'prefault' || t === 'catch' || t === 'readonly') s = s.def.innerType as typeof s;
    else if (t === 'nullable') {
      nullable = true;
      s = s.def.innerType as typeof s;
    } else if (t === 'pipe') s = s.def.in as typeof s;
    else break;
  }
  const t = s?.def?.type;
  const kind: Kind =
    t === 'number' || t === 'int' || t === 'bigint'
      ? 'number'
      : t === 'boolean'
        ? 'boolean'
        : t === 'array'
          ? 'array'
          : t === 'object' || t === 'record'
            ? 'object'
            : t === 'string' || t === 'enum' || t === 'literal'
              ? 'string'
              : 'unknown';
  return { kind, nullable };
}

function convert(values: string[], kind: Kind, nullable: boolean): unknown {
  const last = values[values.length - 1] ?? '';
  if (nullable && (last === 'null' || last === '')) return null;
  switch (kind) {
    case 'number':
      return last.trim() !== '' && Number.isFinite(Number(last)) ? Number(last) : last;
    case 'boolean':
      return /^(true|1|on|yes)$/i.test(last) ? true : /^(false|0|off|no)$/i.test(last) ? false : last;
    case 'array':
      return values.flatMap((v) =>
        v.trim().startsWith('[')
          ? safeJson(v)
          : v
              .split(',')
              .map((x) => x.trim())
              .filter(Boolean),
      ) as unknown[];
    case 'object':
      return safeJson(last);
    default:
      return last;
  }
}

function safeJson(v: string): unknown {
  try {
    return JSON.parse(v);
  } catch {
    return v; // let the schema report the field
  }
}

export function formToInput(entries: Iterable<[string, string]>, shape: Record<string, z.ZodType> | undefined): Record<string, unknown> {
  const grouped = new Map<string, string[]>();
  for (const [k, v] of entries) {
    const key = k.endsWith('[]') ? k.slice(0, -2) : k;
    grouped.set(key, [...(grouped.get(key) ?? []), v]);
  }
  const out: Record<string, unknown> = {};
  for (const [k, values] of grouped) {
    const { kind, nullable } = unwrap(shape?.[k]);
    out[k] = convert(values, kind, nullable);
  }
  screenInput(out, 'input'); // NUL, lone surrogates, JSON nested in a field too deep: 400
  return out;
}

/** Query-string values for the named parameters, typed by the schema. */
export function queryToInput(params: URLSearchParams, names: string[], shape: Record<string, z.ZodType> | undefined): Record<string, unknown> {
  const entries: [string, string][] = [];
  for (const n of names) for (const v of params.getAll(n)) entries.push([n, v]);
  return formToInput(entries, shape);
}
