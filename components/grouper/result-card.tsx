'use client';
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '@/server/api/root';
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/components/trpc';
import { CopyButton } from '@/components/ui';
import { EditsList } from './edits-list';

export type ClassifyResult = inferRouterOutputs<AppRouter>['drg']['classify'];

const REASON: Record<string, string> = {
  pdx_cc_exclusion: 'excluded by the principal diagnosis (CC exclusion)',
  mcc_only_if_alive: 'MCC only if discharged alive',
  drg_severity_suppression: 'ignored by this DRG family',
  hac: 'hospital-acquired (not present on admission)',
  invalid: 'invalid code, ignored',
  not_cc: '—',
  principal: '—',
};

function SeverityBadge({ level }: { level: 'MCC' | 'CC' | null }) {
  if (!level) return <span className="muted">none</span>;
  return <span className={level === 'MCC' ? 'badge badge-mcc' : 'badge badge-cc'}>{level}</span>;
}

const SEVERITY_WORDS: Record<ClassifyResult['severity'], string> = { MCC: 'MCC', CC: 'CC', NON_CC: 'none (no CC or MCC)', NONE: 'none (not used by this DRG)' };

/**
 * The grouping result: DRG, MDC, type, return code, candidates with titles, the explanation and per-code tables.
 * `stale`: the case changed since it was grouped; the card says so and dims until the coder groups again.
 */
export function ResultCard({ result, stale = false }: { result: ClassifyResult; stale?: boolean }) {
  const r = result;
  const ok = r.return_code === 'OK';
  const trpc = useTRPC();
  const titles = useQuery(trpc.drg.drgTitles.queryOptions({ version: r.version, drgs: r.all_candidates.slice(0, 50) }));
  return (
    <section
      className={stale ? 'card drg-result stale' : 'card drg-result'}
      data-testid="drg-result"
      data-stale={stale ? 'true' : 'false'}
      aria-label="Grouping result"
    >
      {stale ? (
        <div className="alert alert-warn stale-banner" role="status" data-testid="drg-stale">
          <strong>Out of date:</strong> the case changed since this result (codes, POA, sex, discharge status or version). Press <em>Group</em> again.
        </div>
      ) : null}
      <div className="drg-head">
        <div className="drg-number" data-testid="drg-number">
          <span className="drg-label">MS-DRG</span>
          {r.primary_drg}
        </div>
        <div className="drg-title">
          <div className="drg-description" data-testid="drg-description">
            {r.description}
          </div>
          <div className="drg-meta">
            <span data-testid="drg-mdc">
              MDC {r.mdc} · {r.mdc_description}
            </span>
            <span className="badge" data-testid="drg-type" title={r.med_surg}>
              {r.type === 'P' ? 'P · surgical' : r.med_surg === 'NONE' ? 'M · no type (998/999)' : 'M · medical'}
            </span>
            <span className={ok ? 'badge badge-ok' : 'badge badge-failed'} data-testid="drg-return-code">
              {r.return_code}
            </span>
            <span className={r.fidelity === 'derived' ? 'badge badge-parked' : 'badge'}>
              {r.version} · {r.fiscal_year}
              {r.fidelity === 'derived' ? ' · derived' : ''}
            </span>
          </div>
        </div>
        <div className="drg-copy">
          <CopyButton text={JSON.stringify(r, null, 2)} label="Copy JSON" />
        </div>
      </div>

      <dl className="kv drg-kv">
        <dt>Severity</dt>
        <dd data-testid="drg-severity">
          {SEVERITY_WORDS[r.severity]}
          {r.severity_driver ? ` (from ${r.diagnoses.find((d) => d.code === r.severity_driver)?.display ?? r.severity_driver})` : ''}
        </dd>
        <dt>Candidates</dt>
        <dd data-testid="drg-candidates">
          <ol className="drg-candidates">
            {r.all_candidates.map((c, i) => (
              <li key={c}>
                <span className={i === 0 ? 'badge badge-ok' : 'badge'}>{c}</span> {titles.data?.[c] ?? ''}
                {i === 0 ? <span className="muted small"> (assigned)</span> : null}
              </li>
            ))}
          </ol>
        </dd>
        {r.initial.drg !== r.primary_drg || r.hac_status !== 'NOT_APPLICABLE' ? (
          <>
            <dt>Before HAC</dt>
            <dd data-testid="drg-initial">
              DRG {r.initial.drg} ({r.hac_status})
            </dd>
          </>
        ) : null}
        <dt>Discharge status</dt>
        <dd>{r.discharge_status_used < 0 ? 'invalid' : String(r.discharge_status_used).padStart(2, '0')}</dd>
      </dl>

      <h3>Why this DRG</h3>
      <ul className="drg-explain" data-testid="drg-explanation">
        {r.explanation.map((line, i) => (
          <li key={i}>{line}</li>
        ))}
      </ul>

      <EditsList edits={r.edits} mce={r.mce} />

      {r.warnings.length ? (
        <div className="alert alert-warn" data-testid="drg-warnings">
          {r.warnings.map((w, i) => (
            <div key={i}>{w}</div>
          ))}
        </div>
      ) : null}

      <h3>Diagnoses</h3>
      <table className="table" data-testid="drg-diagnoses">
        <thead>
          <tr>
            <th>Code</th>
            <th>Title</th>
            <th>Role</th>
            <th>CC/MCC</th>
            <th>Counted</th>
            <th>Why not</th>
          </tr>
        </thead>
        <tbody>
          {r.diagnoses.map((d, i) => (
            <tr key={`${d.code}-${i}`} className={d.valid ? undefined : 'row-invalid'}>
              <td>
                <code>{d.display}</code>
              </td>
              <td>{d.title ?? <span className="muted">unknown code</span>}</td>
              <td>{d.role}</td>
              <td title={d.role === 'principal' && d.cc_mcc ? `${d.cc_mcc} when coded as a secondary diagnosis` : undefined}>
                {d.role === 'principal' ? <span className="muted">—</span> : <SeverityBadge level={d.cc_mcc} />}
              </td>
              <td>{d.role === 'principal' ? '—' : d.counted ? 'yes' : 'no'}</td>
              <td>{d.not_counted_reason ? REASON[d.not_counted_reason] : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>

      {r.procedures.length ? (
        <>
          <h3>Procedures</h3>
          <table className="table" data-testid="drg-procedures">
            <thead>
              <tr>
                <th>Code</th>
                <th>Title</th>
                <th>O.R.</th>
                <th>Used by the DRG</th>
              </tr>
            </thead>
            <tbody>
              {r.procedures.map((p, i) => (
                <tr key={`${p.code}-${i}`} className={p.valid ? undefined : 'row-invalid'}>
                  <td>
                    <code>{p.code}</code>
                  </td>
                  <td>{p.title ?? <span className="muted">unknown code</span>}</td>
                  <td>{!p.valid ? '—' : p.is_or ? <span className="badge badge-or">O.R.</span> : 'non-O.R.'}</td>
                  <td>{p.affects === 'FINAL' || p.affects === 'BOTH' ? 'yes' : 'no'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
    </section>
  );
}
