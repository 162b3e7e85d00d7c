'use client';
import type { ReactNode } from 'react';
import { ENTITY_LABELS, type HighlightSpan } from './entities';

/** Text with coloured entity highlights. Spans must be sorted and non-overlapping (see entities.ts). */
export function HighlightedText({
  text,
  spans,
  testId,
  showPlaceholderTitle = true,
}: {
  text: string;
  spans: HighlightSpan[];
  testId?: string;
  showPlaceholderTitle?: boolean;
}) {
  const parts: ReactNode[] = [];
  let last = 0;
  spans.forEach((s, i) => {
    if (s.start > last) parts.push(text.slice(last, s.start));
    parts.push(
      <mark
        key={i}
        className={`redact-mark redact-type-${s.type}`}
        data-entity-type={s.type}
        data-placeholder={s.placeholder}
        title={showPlaceholderTitle ? `${ENTITY_LABELS[s.type] ?? s.type} → ${s.placeholder}` : (ENTITY_LABELS[s.type] ?? s.type)}
      >
        {text.slice(s.start, s.end)}
      </mark>,
    );
    last = s.end;
  });
  if (last < text.length) parts.push(text.slice(last));
  return (
    <pre className="redact-text" data-testid={testId}>
      {parts}
    </pre>
  );
}

export function EntityLegend({ counts }: { counts: Record<string, number | undefined> }) {
  const types = Object.keys(ENTITY_LABELS).filter((t) => (counts[t] ?? 0) > 0);
  if (!types.length) return <p className="muted small">No PHI found.</p>;
  return (
    <ul className="redact-legend" aria-label="Entities redacted">
      {types.map((t) => (
        <li key={t}>
          <span className={`redact-swatch redact-type-${t}`} /> {ENTITY_LABELS[t]} <code>{t}</code> × {counts[t]}
        </li>
      ))}
    </ul>
  );
}
