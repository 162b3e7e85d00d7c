'use client';
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '@/server/api/root';

export type AgentResult = inferRouterOutputs<AppRouter>['agent']['run'];
export type AgentCodeView = NonNullable<AgentResult['codes']['principal']>;

const ASSERTION: Record<AgentCodeView['assertion'], string> = {
  present: '',
  uncertain: 'documented as probable: coded as established (inpatient rule)',
  history: 'history / status code',
  status: 'status code',
};

function Level({ c }: { c: AgentCodeView }) {
  if (c.kind === 'pr') return c.is_or ? <span className="badge badge-or">O.R.</span> : <span className="muted">non-O.R.</span>;
  if (c.role === 'principal') return <span className="muted">—</span>;
  if (!c.cc_mcc) return <span className="muted">none</span>;
  return <span className={c.cc_mcc === 'MCC' ? 'badge badge-mcc' : 'badge badge-cc'}>{c.cc_mcc}</span>;
}

/** The coded case: one row per code with its evidence, level and the rule that produced it. */
export function CodesTable({ codes }: { codes: AgentResult['codes'] }) {
  const rows = [...(codes.principal ? [codes.principal] : []), ...codes.secondary, ...codes.procedures];
  if (!rows.length) return <p className="muted">No codes.</p>;
  return (
    <table className="table agent-codes" data-testid="agent-codes">
      <thead>
        <tr>
          <th>Role</th>
          <th>Code</th>
          <th>Title</th>
          <th>CC/MCC · O.R.</th>
          <th>Evidence</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((c) => (
          <tr key={`${c.role}-${c.code}`} data-role={c.role} data-code={c.code}>
            <td>{c.role}</td>
            <td>
              <code>{c.display}</code>
            </td>
            <td>
              {c.title}
              {c.rule ? <div className="small muted">{c.rule}</div> : null}
              {ASSERTION[c.assertion] ? <div className="small muted">{ASSERTION[c.assertion]}</div> : null}
              {(c.assumptions ?? []).map((a) => (
                <div key={a.about} className="small agent-assumption" data-testid="agent-assumption">
                  <strong>Assumed</strong> — the note does not say the {a.about}: {a.assumed}.
                  {a.alternatives.length ? (
                    <>
                      {' '}
                      If not:{' '}
                      {a.alternatives.map((x, i) => (
                        <span key={x.code}>
                          {i ? '; ' : ''}
                          {x.label} <code title={x.title}>{x.display}</code>
                        </span>
                      ))}
                      .
                    </>
                  ) : null}
                </div>
              ))}
            </td>
            <td>
              <Level c={c} />
            </td>
            <td className="agent-evidence-cell">
              {c.evidence.length ? c.evidence.slice(0, 3).map((e, i) => <q key={i}>{e.text}</q>) : <span className="muted">—</span>}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const REASON: Record<string, string> = {
  negated: 'negated / ruled out',
  uncertain: 'uncertain, outside the discharge diagnoses',
  history: 'history',
  family: 'family history',
  hypothetical: 'planned or hypothetical',
  finding: 'investigation finding',
  symptom: 'symptom (integral or not a diagnosis)',
  integral: 'covered by another code',
  unresolved: 'no code found',
};

/** Mentions deliberately not coded, grouped by reason. */
export function NotCoded({ codes }: { codes: AgentResult['codes'] }) {
  const seen = new Set<string>();
  const items = codes.excluded.filter((e) => {
    const k = `${e.text.toLowerCase()}|${e.reason}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return e.reason !== 'finding';
  });
  if (!items.length && !codes.rejected.length) return null;
  return (
    <div className="agent-not-coded" data-testid="agent-not-coded">
      {items.length ? (
        <ul>
          {items.map((e, i) => (
            <li key={i}>
              <q>{e.text}</q> — {REASON[e.reason] ?? e.reason}
              {e.cue ? <span className="muted"> (“{e.cue}”)</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
      {codes.rejected.length ? (
        <p className="small" data-testid="agent-rejected">
          Rejected by validation: {codes.rejected.map((r) => `${r.code} (${r.reason})`).join('; ')}
        </p>
      ) : null}
    </div>
  );
}
