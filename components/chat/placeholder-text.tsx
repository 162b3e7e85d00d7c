'use client';
import { Fragment } from 'react';

const PLACEHOLDER = /\[[A-Za-z][A-Za-z _-]*?[ _-]?\d{1,9}\s*\]/g;

/** Text with placeholders such as [PERSON_1] highlighted (what the model received and answered). */
export function PlaceholderText({ text, testId }: { text: string; testId?: string }) {
  const parts: Array<{ s: string; ph: boolean }> = [];
  let last = 0;
  for (const m of text.matchAll(PLACEHOLDER)) {
    if (m.index > last) parts.push({ s: text.slice(last, m.index), ph: false });
    parts.push({ s: m[0], ph: true });
    last = m.index + m[0].length;
  }
  if (last < text.length) parts.push({ s: text.slice(last), ph: false });
  return (
    <div className="chat-text" data-testid={testId}>
      {parts.map((p, i) =>
        p.ph ? (
          <mark key={i} className="chat-ph">
            {p.s}
          </mark>
        ) : (
          <Fragment key={i}>{p.s}</Fragment>
        ),
      )}
    </div>
  );
}
