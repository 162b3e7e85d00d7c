'use client';
import type { ReactNode } from 'react';

export type MarkKind = 'principal' | 'secondary' | 'procedure' | 'excluded';

export interface EvidenceMark {
  start: number;
  end: number;
  kind: MarkKind;
  /** Tooltip: the code and title, or why the words were not coded. */
  label: string;
  code?: string;
}

/** Sorted, non-overlapping marks: on overlap the earlier (then the coded) mark wins. */
export function normaliseMarks(marks: EvidenceMark[], length: number): EvidenceMark[] {
  const rank: Record<MarkKind, number> = { principal: 0, procedure: 1, secondary: 2, excluded: 3 };
  const sorted = marks
    .filter((m) => m.start >= 0 && m.end > m.start && m.end <= length)
    .sort((a, b) => a.start - b.start || rank[a.kind] - rank[b.kind] || b.end - a.end);
  const out: EvidenceMark[] = [];
  for (const m of sorted) {
    const last = out[out.length - 1];
    if (last && m.start < last.end) continue;
    out.push(m);
  }
  return out;
}

/** The note with the words behind each code highlighted, and the words deliberately not coded struck through. */
export function EvidenceText({ text, marks }: { text: string; marks: EvidenceMark[] }) {
  const parts: ReactNode[] = [];
  let last = 0;
  normaliseMarks(marks, text.length).forEach((m, i) => {
    if (m.start > last) parts.push(text.slice(last, m.start));
    parts.push(
      <mark key={i} className={`agent-mark agent-mark-${m.kind}`} title={m.label} data-kind={m.kind} data-code={m.code}>
        {text.slice(m.start, m.end)}
      </mark>,
    );
    last = m.end;
  });
  if (last < text.length) parts.push(text.slice(last));
  return (
    <pre className="agent-note" data-testid="agent-evidence">
      {parts}
    </pre>
  );
}

export function EvidenceLegend() {
  return (
    <ul className="agent-legend" aria-label="Highlight legend">
      <li>
        <span className="agent-swatch agent-mark-principal" /> principal diagnosis
      </li>
      <li>
        <span className="agent-swatch agent-mark-secondary" /> secondary diagnosis
      </li>
      <li>
        <span className="agent-swatch agent-mark-procedure" /> procedure
      </li>
      <li>
        <span className="agent-swatch agent-mark-excluded" /> not coded (negated, ruled out, history, family, planned…)
      </li>
    </ul>
  );
}
