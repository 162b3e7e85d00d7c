'use client';
import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/components/trpc';

/** `I214` → `I21.4`; PCS codes have no dot. */
export function displayCode(code: string, kind: 'dx' | 'pr'): string {
  return kind === 'dx' && code.length > 3 ? `${code.slice(0, 3)}.${code.slice(3)}` : code;
}

/** What the API would look the code up as: no dots, no blanks, upper case. */
export function normaliseCode(code: string): string {
  return code.replace(/[.\s]/g, '').toUpperCase();
}

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

interface Props {
  kind: 'dx' | 'pr';
  label: string;
  version: string;
  codes: string[];
  max: number;
  onChange: (codes: string[]) => void;
  /** Title per code, known from suggestions or a result. */
  titles: Record<string, string>;
  onTitle: (code: string, title: string) => void;
}

/**
 * A list of codes with autocomplete on code and title (GET /drg/codes over tRPC). Enter adds the highlighted
 * suggestion, or the typed code as it is when nothing is highlighted. For diagnoses the first row is the principal.
 */
export function CodePicker({ kind, label, version, codes, max, onChange, titles, onTitle }: Props) {
  const trpc = useTRPC();
  const id = useId();
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const q = useDebounced(text.trim(), 150);
  const suggestions = useQuery({
    ...trpc.drg.codes.queryOptions({ q, kind, version, limit: 8 }),
    enabled: q.length >= 2,
    placeholderData: keepPreviousData,
  });
  const items = q.length >= 2 && text.trim() ? (suggestions.data?.results ?? []) : [];
  const full = codes.length >= max;

  function add(code: string, title?: string) {
    const c = normaliseCode(code);
    if (!c || full) return;
    if (title) onTitle(c, title);
    if (!codes.includes(c)) onChange([...codes, c]);
    setText('');
    setActive(-1);
    setOpen(false);
  }

  function onKey(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setOpen(true);
      setActive((a) => Math.min(items.length - 1, a + 1));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((a) => Math.max(-1, a - 1));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      const pick = active >= 0 ? items[active] : undefined;
      if (pick) add(pick.code, pick.title);
      else if (text.trim()) add(text);
    } else if (e.key === 'Escape') {
      setOpen(false);
      setActive(-1);
    }
  }

  const move = (i: number, to: number) => {
    const next = [...codes];
    const [c] = next.splice(i, 1);
    next.splice(to, 0, c!);
    onChange(next);
  };

  return (
    <div className="code-picker" data-testid={`picker-${kind}`}>
      <label htmlFor={id}>
        {label} <span className="muted small">({codes.length}/{max})</span>
      </label>
      <div className="code-picker-box">
        <input
          id={id}
          role="combobox"
          aria-expanded={open && items.length > 0}
          aria-controls={`${id}-list`}
          aria-autocomplete="list"
          autoComplete="off"
          placeholder={full ? `At most ${max} codes` : kind === 'dx' ? 'Code or words, e.g. I21.4 or heart failure' : 'Code or words, e.g. 02703DZ or stent'}
          value={text}
          disabled={full}
          onChange={(e) => {
            setText(e.target.value);
            setOpen(true);
            setActive(-1);
          }}
          onKeyDown={onKey}
          onBlur={() => setTimeout(() => setOpen(false), 150)}
          onFocus={() => setOpen(true)}
        />
        {open && items.length > 0 ? (
          <ul className="code-suggest" id={`${id}-list`} role="listbox">
            {items.map((s, i) => (
              <li
                key={`${s.kind}-${s.code}`}
                role="option"
                aria-selected={i === active}
                className={i === active ? 'active' : undefined}
                onMouseDown={(e) => {
                  e.preventDefault();
                  add(s.code, s.title);
                }}
              >
                <code>{s.display}</code> <span>{s.title}</span>
                {!s.valid ? <span className="badge">not valid in {version}</span> : null}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      {codes.length ? (
        <ol className="code-list" data-testid={`codes-${kind}`}>
          {codes.map((c, i) => (
            <li key={c}>
              <code>{displayCode(c, kind)}</code>
              {kind === 'dx' ? <span className={i === 0 ? 'badge badge-ok' : 'badge'}>{i === 0 ? 'principal' : 'secondary'}</span> : null}
              <span className="code-title">{titles[c] ?? ''}</span>
              <span className="code-actions">
                {kind === 'dx' && i > 0 ? (
                  <button type="button" className="btn btn-small btn-ghost" onClick={() => move(i, 0)} aria-label={`Make ${c} principal`}>
                    Make principal
                  </button>
                ) : null}
                <button type="button" className="btn btn-small btn-ghost" onClick={() => onChange(codes.filter((x) => x !== c))} aria-label={`Remove ${c}`}>
                  Remove
                </button>
              </span>
            </li>
          ))}
        </ol>
      ) : (
        <p className="muted small">{kind === 'dx' ? 'Add the principal diagnosis first.' : 'No procedures.'}</p>
      )}
    </div>
  );
}
