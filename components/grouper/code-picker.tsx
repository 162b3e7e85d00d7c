'use client';
import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '@/components/trpc';
import { displayCode, normaliseCode, type Poa } from '@/components/case/case';

export { displayCode, normaliseCode };

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

const POA_LABEL: Record<Poa, string> = { Y: 'Y', N: 'N', U: 'U', W: 'W', '1': '1 (exempt)', '': '—' };
const POA_TITLE = 'Present on admission: Y yes, N no, U documentation insufficient, W clinically undetermined, 1 exempt from POA reporting, — not reported';
const POA_ORDER: Poa[] = ['', 'Y', 'N', 'U', 'W', '1'];

interface Props {
  kind: 'dx' | 'pr';
  label: string;
  version: string;
  codes: string[];
  /** Diagnoses only: one POA indicator per code. */
  poa?: Poa[];
  max: number;
  onChange: (codes: string[], poa: Poa[]) => void;
  /** Title per code, known from suggestions or a result. */
  titles: Record<string, string>;
  onTitle: (code: string, title: string) => void;
}

/**
 * A list of codes with autocomplete (tRPC drg.suggest: code prefixes, or words through the search engine).
 * Enter adds the highlighted suggestion only; typed text is added only when it is exactly a code the grouper accepts
 * in the chosen version, otherwise it is refused in place with a message. For diagnoses the first row is the principal.
 */
export function CodePicker({ kind, label, version, codes, poa = [], max, onChange, titles, onTitle }: Props) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const id = useId();
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [message, setMessage] = useState<string | null>(null);
  const q = useDebounced(text.trim(), 200);
  const suggestions = useQuery({
    ...trpc.drg.suggest.queryOptions({ q, kind, version, limit: 30 }),
    enabled: q.length >= 2,
    placeholderData: keepPreviousData,
  });
  const settled = q === text.trim() && !suggestions.isFetching;
  const items = q.length >= 2 && text.trim() ? (suggestions.data?.results ?? []) : [];
  const full = codes.length >= max;
  const what = kind === 'dx' ? 'ICD-10-CM diagnosis' : 'ICD-10-PCS procedure';

  function add(code: string, title?: string) {
    const c = normaliseCode(code);
    if (!c || full) return;
    if (title) onTitle(c, title);
    if (!codes.includes(c)) onChange([...codes, c], [...poa, '']);
    setText('');
    setActive(-1);
    setOpen(false);
    setMessage(null);
  }

  async function addTyped() {
    const t = text.trim();
    if (!/^[A-Za-z0-9]{1,3}\.?[A-Za-z0-9]{0,5}$/.test(t) || !/\d/.test(t)) {
      setMessage(`“${t}” is not a code. Choose a suggestion with ↓ and Enter, or type a ${what} code.`);
      return;
    }
    const r = await qc.fetchQuery(trpc.drg.check.queryOptions({ code: t, kind, version })).catch(() => null);
    if (!r) return setMessage('Could not check the code. Try again.');
    if (!r.valid) {
      setMessage(
        r.known
          ? `${r.display} (${r.title}) is not a code the grouper accepts in ${r.version}${kind === 'dx' ? ': it is a header; pick a more specific code' : ''}.`
          : `${displayCode(normaliseCode(t), kind)} is not a valid ${what} code in ${r.version}.`,
      );
      return;
    }
    add(r.code, r.title ?? undefined);
  }

  function pick(s: { code: string; title: string; valid: boolean; display: string }) {
    if (!s.valid) {
      setMessage(`${s.display} is not a code the grouper accepts in ${version} (a header or not in this year): pick a more specific code.`);
      return;
    }
    add(s.code, s.title);
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
      const chosen = active >= 0 && open ? items[active] : undefined;
      if (chosen) pick(chosen);
      else if (text.trim()) void addTyped();
    } else if (e.key === 'Escape') {
      setOpen(false);
      setActive(-1);
    }
  }

  const move = (i: number, to: number) => {
    const next = [...codes];
    const nextPoa = [...poa];
    const [c] = next.splice(i, 1);
    const [p] = nextPoa.splice(i, 1);
    next.splice(to, 0, c!);
    nextPoa.splice(to, 0, p ?? '');
    onChange(next, nextPoa);
  };
  const remove = (i: number) =>
    onChange(
      codes.filter((_, j) => j !== i),
      poa.filter((_, j) => j !== i),
    );
  const showList = open && q.length >= 2 && text.trim().length >= 2 && (items.length > 0 || settled);

  return (
    <div className="code-picker" data-testid={`picker-${kind}`}>
      <label htmlFor={id}>
        {label}{' '}
        <span className="muted small">
          ({codes.length}/{max})
        </span>
      </label>
      <div className="code-picker-box">
        <input
          id={id}
          role="combobox"
          aria-expanded={showList}
          aria-controls={`${id}-list`}
          aria-activedescendant={active >= 0 && showList ? `${id}-opt-${active}` : undefined}
          aria-autocomplete="list"
          aria-invalid={message ? true : undefined}
          aria-describedby={message ? `${id}-msg` : undefined}
          autoComplete="off"
          placeholder={
            full ? `At most ${max} codes` : kind === 'dx' ? 'Code or words, e.g. I21.4 or heart failure' : 'Code or words, e.g. 02703DZ or coronary stent'
          }
          value={text}
          disabled={full}
          onChange={(e) => {
            setText(e.target.value);
            setOpen(true);
            setActive(-1);
            setMessage(null);
          }}
          onKeyDown={onKey}
          onBlur={() => setTimeout(() => setOpen(false), 150)}
          onFocus={() => setOpen(true)}
        />
        {showList ? (
          <ul
            className="code-suggest"
            id={`${id}-list`}
            role="listbox"
            aria-label={`Suggestions: ${kind === 'dx' ? 'diagnoses' : 'procedures'}`}
            aria-busy={!settled}
            data-testid={`suggest-${kind}`}
          >
            {items.length === 0 ? (
              <li className="muted code-suggest-empty" role="presentation" data-testid="no-matches">
                No matches for “{text.trim()}” in {version}.
              </li>
            ) : null}
            {items.map((s, i) => (
              <li
                key={`${s.kind}-${s.code}`}
                id={`${id}-opt-${i}`}
                role="option"
                aria-selected={i === active}
                aria-disabled={!s.valid || undefined}
                className={[i === active ? 'active' : '', s.valid ? '' : 'invalid'].join(' ').trim() || undefined}
                ref={i === active ? (el) => el?.scrollIntoView({ block: 'nearest' }) : undefined}
                onMouseDown={(e) => {
                  e.preventDefault();
                  pick(s);
                }}
              >
                <code>{s.display}</code> <span>{s.title}</span>
                {!s.valid ? <span className="badge">not valid in {version}</span> : null}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      {message ? (
        <p className="field-error" id={`${id}-msg`} role="alert" data-testid={`picker-msg-${kind}`}>
          {message}
        </p>
      ) : null}
      {codes.length ? (
        <ol className="code-list" data-testid={`codes-${kind}`}>
          {codes.map((c, i) => (
            <li key={c}>
              <code>{displayCode(c, kind)}</code>
              {kind === 'dx' ? <span className={i === 0 ? 'badge badge-ok' : 'badge'}>{i === 0 ? 'principal' : 'secondary'}</span> : null}
              <span className="code-title">{titles[c] ?? ''}</span>
              <span className="code-actions">
                {kind === 'dx' ? (
                  <select
                    className="poa-select"
                    aria-label={`Present on admission for ${displayCode(c, kind)}`}
                    title={POA_TITLE}
                    value={poa[i] ?? ''}
                    onChange={(e) =>
                      onChange(
                        codes,
                        codes.map((_, j) => (j === i ? (e.target.value as Poa) : (poa[j] ?? ''))),
                      )
                    }
                  >
                    {POA_ORDER.map((p) => (
                      <option key={p} value={p}>
                        POA {POA_LABEL[p]}
                      </option>
                    ))}
                  </select>
                ) : null}
                {kind === 'dx' && i > 0 ? (
                  <button type="button" className="btn btn-small btn-ghost" onClick={() => move(i, 0)} aria-label={`Make ${displayCode(c, kind)} principal`}>
                    Make principal
                  </button>
                ) : null}
                <button type="button" className="btn btn-small btn-ghost" onClick={() => remove(i)} aria-label={`Remove ${displayCode(c, kind)}`}>
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
