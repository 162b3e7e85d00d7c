import type { ReactNode } from 'react';

/**
 * A small, safe Markdown subset for the API reference (no HTML is ever injected): paragraphs, bullet and numbered
 * lists, `code`, **bold**, *italic* and [links](url) to this site or http(s).
 */
function inline(text: string, key: string): ReactNode[] {
  const out: ReactNode[] = [];
  const re = /(`[^`]+`)|(\*\*[^*]+\*\*)|(\[[^\]]+\]\([^)\s]+\))|(\*[^*\s][^*]*\*)/g;
  let last = 0;
  let m: RegExpExecArray | null;
  let n = 0;
  while ((m = re.exec(text))) {
    if (m.index > last) out.push(text.slice(last, m.index));
    const k = `${key}-${n++}`;
    const t = m[0];
    if (m[1]) out.push(<code key={k}>{t.slice(1, -1)}</code>);
    else if (m[2]) out.push(<strong key={k}>{inline(t.slice(2, -2), k)}</strong>);
    else if (m[3]) {
      const [, label, href] = /^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(t)!;
      const safe = /^(https?:\/\/|\/|#)/.test(href!) ? href : undefined;
      out.push(
        safe ? (
          <a key={k} href={safe}>
            {label}
          </a>
        ) : (
          label
        ),
      );
    } else out.push(<em key={k}>{inline(t.slice(1, -1), k)}</em>);
    last = m.index + t.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

export function Markdown({ text, className }: { text: string; className?: string }) {
  const blocks = text.replace(/\r\n/g, '\n').split(/\n\s*\n/);
  return (
    <div className={className ?? 'markdown'}>
      {blocks.map((b, i) => {
        const lines = b.split('\n').filter((l) => l.trim());
        if (lines.length && lines.every((l) => /^\s*[*-]\s+/.test(l)))
          return (
            <ul key={i}>
              {lines.map((l, j) => (
                <li key={j}>{inline(l.replace(/^\s*[*-]\s+/, ''), `${i}-${j}`)}</li>
              ))}
            </ul>
          );
        if (lines.length && lines.every((l) => /^\s*\d+[.)]\s+/.test(l)))
          return (
            <ol key={i}>
              {lines.map((l, j) => (
                <li key={j}>{inline(l.replace(/^\s*\d+[.)]\s+/, ''), `${i}-${j}`)}</li>
              ))}
            </ol>
          );
        const h = /^(#{1,4})\s+(.*)$/.exec(lines[0] ?? '');
        if (h && lines.length === 1) return <h4 key={i}>{inline(h[2]!, `${i}`)}</h4>;
        return <p key={i}>{inline(lines.join(' '), `${i}`)}</p>;
      })}
    </div>
  );
}
