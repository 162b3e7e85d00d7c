'use client';
import Link from 'next/link';
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/components/trpc';
import { CopyButton, ErrorBox } from '@/components/ui';

/** "Use in grouper" link for ICD-10-CM (diagnosis) and ICD-10-PCS (procedure) codes; the grouper page reads dx/pr. */
export function grouperHref(vocabularyId: string, code: string): string | null {
  if (vocabularyId === 'ICD10CM') return `/grouper?dx=${encodeURIComponent(code.replace(/\./g, ''))}`;
  if (vocabularyId === 'ICD10PCS' && code.length === 7) return `/grouper?pr=${encodeURIComponent(code)}`;
  return null;
}

type Ref = { concept_id: number; concept_code: string; concept_name: string; vocabulary_id: string };

function ConceptLink({ c, onOpen }: { c: Ref; onOpen: (id: number) => void }) {
  return (
    <button type="button" className="link-button" onClick={() => onOpen(c.concept_id)} data-testid="concept-link">
      <span className="badge">{c.vocabulary_id}</span> <code>{c.concept_code}</code> {c.concept_name}
    </button>
  );
}

/** Side drawer with a concept's synonyms, relationships and ancestors; every related concept opens in place. */
export function ConceptDrawer({ conceptId, onOpen, onClose, onBack, canGoBack }: { conceptId: number; onOpen: (id: number) => void; onClose: () => void; onBack: () => void; canGoBack: boolean }) {
  const trpc = useTRPC();
  const q = useQuery(trpc.search.concept.queryOptions({ concept_id: conceptId }));
  const c = q.data;
  const grouper = c ? grouperHref(c.vocabulary_id, c.concept_code) : null;
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
          <h2 className="search-drawer-title" data-testid="drawer-title">
            <span className="badge">{c.vocabulary_id}</span> <code>{c.concept_code}</code>
          </h2>
          <p>{c.concept_name}</p>
          <div className="search-actions">
            <CopyButton text={c.concept_code} label="Copy code" />
            {grouper ? (
              <Link className="btn btn-small" href={grouper} data-testid="use-in-grouper">
                Use in grouper
              </Link>
            ) : null}
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
            <dt>Billable</dt>
            <dd>{c.billable ? 'yes' : 'no (header)'}</dd>
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
          {c.children.length ? (
            <>
              <h3>Children ({c.children.length})</h3>
              <ul className="search-list">
                {c.children.slice(0, 40).map((p) => (
                  <li key={p.concept_id}>
                    <ConceptLink c={p} onOpen={onOpen} />
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          <h3>Relationships</h3>
          {c.relationships.length ? (
            <ul className="search-list" data-testid="drawer-relationships">
              {c.relationships.map((r) => (
                <li key={`${r.relationship_id}-${r.concept_id}`}>
                  <span className="muted small">{r.relationship_id}</span> <ConceptLink c={r} onOpen={onOpen} />
                </li>
              ))}
            </ul>
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
