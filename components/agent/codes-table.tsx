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

export type AgentAlternative = NonNullable<AgentCodeView['assumptions']>[number]['alternatives'][number];
/** The coder's choice of an alternative, by row (`role:code` of the agent's code). */
export type Swaps = Record<string, AgentAlternative & { about: string }>;

export const rowKey = (c: Pick<AgentCodeView, 'role' | 'code'>) => `${c.role}:${c.code}`;

/** The agent's codes with the coder's swaps applied (what "Add codes to case" and the case link use). */
export function applySwaps(codes: AgentResult['codes'], swaps: Swaps): AgentResult['codes'] {
  const one = (c: AgentCodeView): AgentCodeView => {
    const s = swaps[rowKey(c)];
    return s ? { ...c, code: s.code, display: s.display, title: s.title, cc_mcc: null, is_or: null } : c;
  };
  return { ...codes, principal: codes.principal ? one(codes.principal) : null, secondary: codes.secondary.map(one), procedures: codes.procedures.map(one) };
}

/**
 * The coded case: one row per code with its evidence, level and the rule that produced it. Where the note was silent
 * on something that decides a code, the row says what was assumed; each alternative can be swapped in (and undone).
 */
export function CodesTable({
  codes,
  swaps = {},
  onSwap,
}: {
  codes: AgentResult['codes'];
  swaps?: Swaps;
  onSwap?: (row: string, choice: (AgentAlternative & { about: string }) | null) => void;
}) {
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
        {rows.map((orig) => {
          const key = rowKey(orig);
          const swap = swaps[key];
          const c = swap ? { ...orig, code: swap.code, display: swap.display, title: swap.title } : orig;
          return (
            <tr key={key} data-role={c.role} data-code={c.code} data-agent-code={orig.code} className={swap ? 'agent-swapped' : undefined}>
              <td>{c.role}</td>
              <td>
                <code>{c.display}</code>
              </td>
              <td>
                {c.title}
                {c.rule ? <div className="small muted">{c.rule}</div> : null}
                {ASSERTION[c.assertion] ? <div className="small muted">{ASSERTION[c.assertion]}</div> : null}
                {swap ? (
                  <div className="small agent-assumption" data-testid="agent-swap-note">
                    <strong>Swapped</strong> — {swap.about}: {swap.label}, instead of the agent&apos;s <code>{orig.display}</code> ({orig.title}).{' '}
                    {onSwap ? (
                      <button
                        type="button"
                        className="btn btn-small"
                        data-testid="agent-swap-undo"
                        onClick={() => onSwap(key, null)}
                        aria-label={`Undo: back to ${orig.display}`}
                      >
                        Undo
                      </button>
                    ) : null}
                  </div>
                ) : (
                  (c.assumptions ?? []).map((a) => (
                    <div key={a.about} className="small agent-assumption" data-testid="agent-assumption" data-about={a.about}>
                      <strong>Assumed</strong> — the note does not say the {a.about}: {a.assumed}.
                      {a.alternatives.length ? (
                        <>
                          {' '}
                          If not:{' '}
                          {a.alternatives.map((x, i) => (
                            <span key={x.code}>
                              {i ? '; ' : ''}
                              {x.label} <code title={x.title}>{x.display}</code>
                              {onSwap ? (
                                <>
                                  {' '}
                                  <button
                                    type="button"
                                    className="btn btn-small"
                                    data-testid="agent-swap"
                                    data-code={x.code}
                                    aria-label={`Use ${x.display} (${x.label}) instead of ${c.display}`}
                                    onClick={() => onSwap(key, { ...x, about: a.about })}
                                  >
                                    Use
                                  </button>
                                </>
                              ) : null}
                            </span>
                          ))}
                          .
                        </>
                      ) : null}
                    </div>
                  ))
                )}
              </td>
              <td>{swap ? <span className="muted">regroup</span> : <Level c={c} />}</td>
              <td className="agent-evidence-cell">
                {c.evidence.length ? c.evidence.slice(0, 3).map((e, i) => <q key={i}>{e.text}</q>) : <span className="muted">—</span>}
              </td>
            </tr>
          );
        })}
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
