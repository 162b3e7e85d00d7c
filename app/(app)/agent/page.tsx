'use client';
import { useMemo, useState, useSyncExternalStore, type FormEvent } from 'react';
import Link from 'next/link';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/components/trpc';
import { ErrorBox, PageHeader } from '@/components/ui';
import { ResultCard, type ClassifyResult } from '@/components/grouper/result-card';
import { ReceiptView, type ReceiptLike } from '@/components/redact/receipt-view';
import { applySwaps, CodesTable, NotCoded, type AgentResult, type Swaps } from '@/components/agent/codes-table';
import { EvidenceLegend, EvidenceText, type EvidenceMark } from '@/components/agent/evidence-text';
import { addToStoredCase, caseHref, readStoredCase, storeCase, subscribeStoredCase } from '@/components/case/case';

const EXAMPLE = `HOSPITAL KUALA LUMPUR - DISCHARGE SUMMARY
Name: Tan Ah Kow    IC: 570312-10-5531    RN: HKL/2024/118234

Diagnosis:
1. Community acquired pneumonia (right lower lobe), CURB-65 score 1
2. Acute kidney injury (pre-renal) - resolved
Comorbidities: T2DM on OHA, HPT, h/o CVA 2019 with full recovery

History of presenting illness:
67 year old gentleman with 4 days of fever, productive cough and pleuritic chest pain. Denies haemoptysis.

Investigations:
CXR: right lower zone consolidation. No evidence of pleural effusion.
Creatinine 190 (baseline 90). Blood C&S no growth.

Progress in ward:
IV augmentin and oral azithromycin; IV fluids. Rule out PE - CTPA negative.
Discharged well on day 5. TCA medical clinic in 2 weeks with repeat CXR.`;

const MAX_CHARS = 20_000;

interface AgentErrorData {
  app?: { error?: string; extra?: { redaction_receipt?: ReceiptLike } };
}

/** The grouper card takes /drg/classify's shape; the agent's echo says null when the note does not document sex (the card only copies it). */
function forCard(drg: NonNullable<AgentResult['drg']>): ClassifyResult {
  return { ...drg, input: { ...drg.input, gender: drg.input.gender as 'F' | 'M' } };
}

function marksOf(r: AgentResult): EvidenceMark[] {
  const out: EvidenceMark[] = [];
  const codes = [...(r.codes.principal ? [r.codes.principal] : []), ...r.codes.secondary, ...r.codes.procedures];
  for (const c of codes) {
    const kind = c.role === 'principal' ? 'principal' : c.role === 'procedure' ? 'procedure' : 'secondary';
    for (const e of c.evidence) {
      if (e.start !== null && e.end !== null) out.push({ start: e.start, end: e.end, kind, code: c.display, label: `${c.display} ${c.title}` });
    }
  }
  for (const e of r.codes.excluded) {
    if (e.reason === 'finding' || e.reason === 'unresolved') continue;
    out.push({ start: e.start, end: e.end, kind: 'excluded', label: `not coded: ${e.reason}${e.cue ? ` (“${e.cue}”)` : ''}` });
  }
  return out;
}

/** The Group a case link for the codes as the coder left them (same shape as the server's grouper_link). */
function linkOf(codes: AgentResult['codes']): string {
  const q = new URLSearchParams();
  for (const c of [codes.principal, ...codes.secondary].filter((x): x is NonNullable<typeof x> => !!x).slice(0, 10)) q.append('dx', c.display);
  for (const c of codes.procedures.slice(0, 10)) q.append('pr', c.code);
  const s = q.toString();
  return s ? `/grouper?${s}` : '/grouper';
}

/**
 * Paste a note, run the DRG agent (the same procedure as POST /api/v1/drg/agent/), see the codes with the words that
 * support them, the DRG with the grouper's explanation and the redaction receipt; then adjust the codes on the Group
 * a case page. The note and the answer stay in this page's memory (gcTime 0); only the receipt's counts are stored.
 */
/** Adds the agent's codes to the coder's case (principal first when the case has none yet); never replaces it. */
function AgentAddToCase({ codes }: { codes: AgentResult['codes'] }) {
  const [done, setDone] = useState<{ href: string; msg: string } | null>(null);
  const rows = [...(codes.principal ? [codes.principal] : []), ...codes.secondary, ...codes.procedures];
  if (!rows.length) return null;
  if (done)
    return (
      <span className="small" role="status" data-testid="agent-added">
        {done.msg}{' '}
        <Link className="btn btn-small" href={done.href}>
          Open case
        </Link>
      </span>
    );
  return (
    <button
      type="button"
      className="btn"
      data-testid="agent-add-to-case"
      onClick={() => {
        const r = addToStoredCase(rows.map((c) => ({ code: c.code, kind: c.kind })));
        setDone({
          href: caseHref(r.next),
          msg: `Added ${r.added.length} code${r.added.length === 1 ? '' : 's'}${r.skipped.length ? ` (${r.skipped.length} did not fit)` : ''}.`,
        });
      }}
    >
      Add codes to case
    </button>
  );
}

export default function AgentPage() {
  const trpc = useTRPC();
  const versions = useQuery(trpc.drg.versions.queryOptions());
  const [text, setText] = useState('');
  const [deidentified, setDeidentified] = useState(false);
  // the grouper version is the case's: it follows the coder from Group a case, and a change here changes the case
  const storedVersion = useSyncExternalStore(
    subscribeStoredCase,
    () => readStoredCase().version,
    () => null,
  );
  const version = storedVersion ?? 'v40';
  const setVersion = (v: string) => storeCase({ ...readStoredCase(), version: v });
  const run = useMutation(trpc.agent.run.mutationOptions({ gcTime: 0 }));
  const submitted = run.variables?.message ?? '';
  const data = run.data;
  const marks = useMemo(() => (data ? marksOf(data) : []), [data]);
  // the coder's choice among the alternatives of an assumption, for this answer only
  const [swapState, setSwapState] = useState<{ of: AgentResult | undefined; swaps: Swaps }>({ of: undefined, swaps: {} });
  const swaps = useMemo<Swaps>(() => (swapState.of === data ? swapState.swaps : {}), [swapState, data]);
  const swapped = Object.keys(swaps).length;
  const onSwap = (row: string, choice: Swaps[string] | null) => {
    const next = { ...swaps };
    if (choice) next[row] = choice;
    else delete next[row];
    setSwapState({ of: data, swaps: next });
  };
  const finalCodes = useMemo(() => (data ? applySwaps(data.codes, swaps) : null), [data, swaps]);
  const failure = (run.error as { data?: AgentErrorData } | null)?.data?.app;
  const failedReceipt = failure?.error === 'redaction_failed' ? failure.extra?.redaction_receipt : undefined;
  const chars = Array.from(text).length;

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!text.trim()) return;
    run.mutate({ message: text, deidentified, version });
  }

  return (
    <>
      <PageHeader title="DRG agent">
        Paste a discharge summary: the agent assigns ICD-10-CM/PCS codes with the evidence for each, and the MS-DRG grouper computes the DRG. The text is
        redacted first; without a configured model the deterministic engine answers offline, at no cost.
      </PageHeader>

      <form className="card agent-form" onSubmit={onSubmit} aria-label="Agent input">
        <label htmlFor="agent-note">Clinical note</label>
        <textarea
          id="agent-note"
          value={text}
          onChange={(e) => setText(e.target.value)}
          rows={14}
          placeholder="Diagnosis: … Comorbidities: … History of presenting illness: …"
          spellCheck={false}
        />
        <div className="agent-form-row">
          <label className="inline">
            <input type="checkbox" checked={deidentified} onChange={(e) => setDeidentified(e.target.checked)} /> Text is already de-identified
          </label>
          <label className="inline">
            Version
            <select value={version} onChange={(e) => setVersion(e.target.value)} aria-label="Grouper version">
              {(versions.data?.versions ?? [{ version: 'v40', label: 'v40 (FY2023, default)' }]).map((v) => (
                <option key={v.version} value={v.version}>
                  {v.label}
                </option>
              ))}
            </select>
          </label>
          <span className={chars > MAX_CHARS ? 'small chat-warn' : 'small muted'}>
            {chars.toLocaleString()} / {MAX_CHARS.toLocaleString()} characters
          </span>
          <span className="agent-actions">
            <button type="button" className="btn" onClick={() => setText(EXAMPLE)}>
              Load example
            </button>
            <button type="submit" className="btn btn-primary" disabled={run.isPending || !text.trim() || chars > MAX_CHARS}>
              {run.isPending ? 'Running…' : 'Run agent'}
            </button>
          </span>
        </div>
      </form>

      {run.error ? (
        <div className="card">
          <ErrorBox error={run.error} />
          {failedReceipt ? <ReceiptView receipt={failedReceipt} testId="agent-receipt" /> : null}
        </div>
      ) : null}

      {data ? (
        <>
          <section className="card agent-summary" aria-label="Agent answer" data-testid="agent-summary">
            <div className="agent-summary-head">
              <span className={data.engine === 'llm' ? 'badge badge-or' : 'badge'} data-testid="agent-engine">
                {data.engine === 'llm' ? `LLM · ${data.model ?? ''}` : 'deterministic'}
              </span>
              <span className="small muted" data-testid="agent-usage">
                tokens {data.token_usage.input_tokens} in / {data.token_usage.output_tokens} out · {data.response_time_ms} ms
                {data.llm ? ` · ${data.llm.calls} model call${data.llm.calls === 1 ? '' : 's'}` : ' · no cost'}
              </span>
              <AgentAddToCase key={JSON.stringify(swaps)} codes={finalCodes ?? data.codes} />
              <Link className="btn" href={swapped && finalCodes ? linkOf(finalCodes) : data.grouper_link} data-testid="agent-grouper-link">
                Open as a new case →
              </Link>
            </div>
            {data.engine_note ? <div className="alert alert-warn">{data.engine_note}</div> : null}
            {data.codes.principal ? (
              <p data-testid="agent-principal">
                Principal diagnosis <code>{data.codes.principal.display}</code> {data.codes.principal.title}
                <span className="muted"> — {data.codes.principal_reason}</span>
              </p>
            ) : (
              <p className="muted">No codable diagnosis was found.</p>
            )}
            {swapped ? (
              <div className="alert alert-warn" role="status" data-testid="agent-swapped">
                {swapped} code{swapped === 1 ? '' : 's'} swapped for an alternative: the DRG below was grouped with the agent&apos;s codes. Add the codes to the
                case (or open them as a new case) to regroup.
              </div>
            ) : null}
            <CodesTable codes={data.codes} swaps={swaps} onSwap={onSwap} />
            <NotCoded codes={data.codes} />
          </section>

          <section className="card" aria-label="Evidence">
            <h3>Evidence in the note</h3>
            <EvidenceLegend />
            <EvidenceText text={submitted} marks={marks} />
          </section>

          {data.drg ? <ResultCard result={forCard(data.drg)} /> : null}

          <div className="grid-2 agent-bottom">
            <section className="card" aria-label="Answer text">
              <h3>Answer</h3>
              <pre className="agent-response" data-testid="agent-response">
                {data.response}
              </pre>
            </section>
            <section className="card" aria-label="Redaction receipt">
              <h3>Redaction receipt</h3>
              <ReceiptView receipt={data.redaction_receipt} testId="agent-receipt" />
            </section>
          </div>
        </>
      ) : null}
    </>
  );
}
