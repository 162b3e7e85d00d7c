'use client';
import { useEffect, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/components/trpc';
import { CopyButton, ErrorBox } from '@/components/ui';
import { AddToCase } from './add-to-case';
import { TabularNotes } from './tabular-notes';

type Ref = { concept_id: number; concept_code: string; concept_name: string; vocabulary_id: string };

function ConceptLink({ c, onOpen }: { c: Ref; onOpen: (id: number) => void }) {
  return (
    <button type="button" className="link-button" onClick={() => onOpen(c.concept_id)} data-testid="concept-link">
      <span className="badge">{c.vocabulary_id}</span> <code>{c.concept_code}</code> {c.concept_name}
    </button>
  );
}

const BILLABLE_VOCABS = new Set(['ICD10CM', 'ICD10PCS']);

function groupBy<T>(rows: T[], key: (r: T) => string): Array<[string, T[]]> {
  const m = new Map<string, T[]>();
  for (const r of rows) m.set(key(r), [...(m.get(key(r)) ?? []), r]);
  return [...m.entries()];
}

/**
 * Side panel (beside the results, never over them) with a concept's synonyms, parents, children, relationships grouped
 * by type, ancestors and, for ICD-10-CM, the tabular notes; every related concept opens in place. Focus moves into the
 * panel when it opens; Esc closes it (the page puts focus back where it was opened from).
 */
export function ConceptDrawer({
  conceptId,
  onOpen,
  onClose,
  onBack,
  canGoBack,
}: {
  conceptId: number;
  onOpen: (id: number) => void;
  onClose: () => void;
  onBack: () => void;
  canGoBack: boolean;
}) {
  const trpc = useTRPC();
  const q = useQuery(trpc.search.concept.queryOptions({ concept_id: conceptId }));
  const c = q.data;
  const title = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (c) title.current?.focus();
  }, [c]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <aside className="search-drawer" data-testid="concept-drawer" aria-label="Concept details">
      <div className="search-drawer-head">
        {canGoBack ? (
          <button type="button" className="btn btn-small btn-ghost" onClick={onBack}>
            ← Back
          </button>
        ) : null}
        <button type="button" className="btn btn-small btn-ghost" onClick={onClose} aria-label="Close">
          ✕
        </button>
      </div>
      {q.error ? <ErrorBox error={q.error} /> : null}
      {!c ? <p className="muted">Loading…</p> : null}
      {c ? (
        <>
          <h2 className="search-drawer-title" data-testid="drawer-title" tabIndex={-1} ref={title}>
            <span className="badge">{c.vocabulary_id}</span> <code>{c.concept_code}</code>
          </h2>
          <p>{c.concept_name}</p>
          <div className="search-actions">
            <CopyButton text={c.concept_code} label="Copy code" />
            <AddToCase key={c.concept_id} vocabularyId={c.vocabulary_id} code={c.concept_code} testId="drawer-add-to-case" />
          </div>
          <dl className="kv small">
            <dt>Concept id</dt>
            <dd>{c.concept_id}</dd>
            <dt>Domain</dt>
            <dd>{c.domain_id}</dd>
            <dt>Class</dt>
            <dd>{c.concept_class_id}</dd>
            <dt>Standard</dt>
            <dd>{c.standard_concept === 'S' ? 'Standard' : c.standard_concept === 'C' ? 'Classification' : 'Non-standard'}</dd>
            {BILLABLE_VOCABS.has(c.vocabulary_id) ? (
              <>
                <dt>Billable</dt>
                <dd data-testid="drawer-billable">{c.billable ? 'yes' : 'no (header)'}</dd>
              </>
            ) : null}
          </dl>
          <h3>Synonyms ({c.synonyms.length})</h3>
          {c.synonyms.length ? (
            <ul className="search-list" data-testid="drawer-synonyms">
              {c.synonyms.slice(0, 60).map((s) => (
                <li key={s}>{s}</li>
              ))}
            </ul>
          ) : (
            <p className="muted small">None.</p>
          )}
          <h3>Parents</h3>
          {c.parents.length ? (
            <ul className="search-list">
              {c.parents.map((p) => (
                <li key={p.concept_id}>
                  <ConceptLink c={p} onOpen={onOpen} />
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted small">None.</p>
          )}
          <h3>Children ({c.children.length})</h3>
          {c.children.length ? (
            <ul className="search-list" data-testid="drawer-children">
              {c.children.slice(0, 60).map((p) => (
                <li key={p.concept_id}>
                  <ConceptLink c={p} onOpen={onOpen} />
                </li>
              ))}
              {c.children.length > 60 ? <li className="muted small">… and {c.children.length - 60} more</li> : null}
            </ul>
          ) : (
            <p className="muted small">None.</p>
          )}
          {c.vocabulary_id === 'ICD10CM' ? <TabularNotes code={c.concept_code} /> : null}
          <h3>Relationships ({c.relationships.length})</h3>
          {c.relationships.length ? (
            <div data-testid="drawer-relationships">
              {groupBy(c.relationships, (r) => r.relationship_id).map(([type, rows]) => (
                <section key={type} className="rel-group" data-testid="rel-group">
                  <h4 className="small">
                    {type} <span className="muted">({rows.length})</span>
                  </h4>
                  <ul className="search-list">
                    {rows.map((r) => (
                      <li key={`${r.relationship_id}-${r.concept_id}`}>
                        <ConceptLink c={r} onOpen={onOpen} />
                      </li>
                    ))}
                  </ul>
                </section>
              ))}
            </div>
          ) : (
            <p className="muted small">None.</p>
          )}
          <h3>Ancestors</h3>
          {c.ancestors.length ? (
            <ul className="search-list">
              {c.ancestors.map((a) => (
                <li key={a.concept_id}>
                  <span className="muted small">{a.min_levels_of_separation} up</span> <ConceptLink c={a} onOpen={onOpen} />
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted small">None.</p>
          )}
        </>
      ) : null}
    </aside>
  );
}
