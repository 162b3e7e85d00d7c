/**
 * Entity types as the page shows them, and highlight spans computed in the browser from the response's entity
 * offsets (UTF-16 code units = JavaScript string indices, so they index the textarea's string directly).
 */
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '@/server/api/root';

export const ENTITY_LABELS: Record<string, string> = {
  PERSON: 'Name',
  MY_IC: 'MyKad / IC',
  MRN: 'Medical record no.',
  PASSPORT: 'Passport',
  PHONE: 'Phone',
  EMAIL: 'E-mail',
  CARD_NUMBER: 'Card number',
  BANK_ACCOUNT: 'Bank account',
};

export const ENTITY_ORDER = Object.keys(ENTITY_LABELS);

/** An entity as the redact procedure returns it (offsets into the input, type, placeholder, score, recognizer). */
export type EntityOffset = inferRouterOutputs<AppRouter>['redact']['redact']['entities'][number];

export interface HighlightSpan {
  start: number;
  end: number;
  type: string;
  placeholder: string;
}

/** Spans in the ORIGINAL text: the entity offsets themselves, sorted, overlaps dropped (the engine never overlaps). */
export function originalSpans(entities: readonly EntityOffset[], textLength: number): HighlightSpan[] {
  const out: HighlightSpan[] = [];
  let last = 0;
  for (const e of [...entities].sort((a, b) => a.start - b.start)) {
    if (e.start < last || e.end > textLength || e.end <= e.start) continue;
    out.push({ start: e.start, end: e.end, type: e.type, placeholder: e.placeholder });
    last = e.end;
  }
  return out;
}

/**
 * Spans in the REDACTED text: each original value [start, end) became its placeholder, so every later position
 * shifts by (placeholder length - original length). Checked against the redacted text; a span that does not hold its
 * placeholder is skipped rather than drawn in the wrong place.
 */
export function redactedSpans(entities: readonly EntityOffset[], redactedText: string): HighlightSpan[] {
  const out: HighlightSpan[] = [];
  let shift = 0;
  let last = 0;
  for (const e of [...entities].sort((a, b) => a.start - b.start)) {
    if (e.start < last) continue;
    const start = e.start + shift;
    const end = start + e.placeholder.length;
    if (redactedText.slice(start, end) === e.placeholder) out.push({ start, end, type: e.type, placeholder: e.placeholder });
    shift += e.placeholder.length - (e.end - e.start);
    last = e.end;
  }
  return out;
}

/** Placeholder rows for the mapping table, in order of first appearance, with how often each occurs. */
export function mappingRows(
  mapping: Record<string, string>,
  entities: readonly EntityOffset[],
): Array<{ placeholder: string; type: string; original: string; count: number; refersTo?: string }> {
  const counts = new Map<string, number>();
  const refers = new Map<string, string>();
  for (const e of entities) {
    counts.set(e.placeholder, (counts.get(e.placeholder) ?? 0) + 1);
    if (e.refers_to) refers.set(e.placeholder, e.refers_to);
  }
  const order = [...new Set(entities.map((e) => e.placeholder))];
  for (const p of Object.keys(mapping)) if (!order.includes(p)) order.push(p);
  return order
    .filter((p) => p in mapping)
    .map((p) => ({
      placeholder: p,
      type: /^\[([A-Z_]+)_\d+\]$/.exec(p)?.[1] ?? '',
      original: mapping[p]!,
      count: counts.get(p) ?? 0,
      refersTo: refers.get(p),
    }));
}
