'use client';
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '@/server/api/root';

type Classified = inferRouterOutputs<AppRouter>['drg']['classify'];

/**
 * The Medicare Code Editor's edits of a grouped case, in words, each with the codes it concerns; what could not be
 * checked, and how the discharge date was chosen. Self-contained: the result card shows it below the DRG.
 */
export function EditsList({ edits, mce }: { edits: Classified['edits']; mce: Classified['mce'] }) {
  if (!mce) return null;
  return (
    <section className="drg-edits" data-testid="drg-edits" aria-label="Claim edits">
      <h3>
        Claim edits <span className="muted">(Medicare Code Editor {mce.mce_version})</span>{' '}
        <span
          className={mce.edit_type === 'NONE' ? 'badge badge-ok' : 'badge badge-failed'}
          data-testid="drg-edit-type"
          title="The claim's disposition as the MCE reports it"
        >
          {mce.edit_type === 'NONE' ? 'no payment edits' : mce.edit_type.toLowerCase().replace(/_/g, ' ')}
        </span>
      </h3>
      {edits.length ? (
        <ul className="drg-explain">
          {edits.map((e) => (
            <li key={e.edit} data-testid={`edit-${e.edit}`}>
              <strong>{e.title}</strong> <span className="badge">{e.payment}</span>
              {e.codes.length ? (
                <>
                  {' '}
                  {e.codes.map((c) => (
                    <code key={c}>{c} </code>
                  ))}
                </>
              ) : null}
              <div>{e.message}</div>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">{mce.date_in_range ? 'No edits.' : 'Not checked.'}</p>
      )}
      {mce.not_checked.length ? (
        <p className="muted" data-testid="drg-edits-not-checked">
          Not checked: {mce.not_checked.map((n) => `${n.title} (needs ${n.needs.replace(/_/g, ' ')})`).join('; ')}.
        </p>
      ) : null}
      {mce.notes.map((n, i) => (
        <p key={i} className="muted">
          {n}
        </p>
      ))}
    </section>
  );
}
