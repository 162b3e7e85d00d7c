'use client';
import { useMemo, useState, type FormEvent } from 'react';
import Link from 'next/link';
import { useMutation } from '@tanstack/react-query';
import { useTRPC } from '@/components/trpc';
import { CopyButton, ErrorBox, PageHeader } from '@/components/ui';
import { originalSpans, redactedSpans } from '@/components/redact/entities';
import { EntityLegend, HighlightedText } from '@/components/redact/highlighted-text';
import { MappingTable } from '@/components/redact/mapping-table';
import { ReceiptView, type ReceiptLike } from '@/components/redact/receipt-view';

const EXAMPLE = `WARD ROUND 12/3/24, Wad 7B bed 12
Pt: Ahmad Faizal bin Ismail (54M), IC 850101-14-5673, RN HKL/2023/045123
BP 130/80, HR 88, SpO2 98%. Hb 12.1. Day 3 post-op lap chole, wound clean.
Plan: IV ceftriaxone 2g OD, T. paracetamol 1g QID.
Update wife Siti Aminah binti Yusof via 012-345 6789.
Dr. Lim Wei Ming (MO)`;

const MAX_CHARS = 100_000;

interface RedactErrorData {
  app?: { error?: string; extra?: { reason?: string; redaction_receipt?: ReceiptLike } };
}

/**
 * Paste clinical text, see what the engine replaced. The request goes to the same procedure as
 * POST /api/v1/redact/; the mapping it returns stays in this page's memory only (no storage, never sent anywhere).
 */
export default function RedactPage() {
  const trpc = useTRPC();
  const [text, setText] = useState('');
  const [returnMapping, setReturnMapping] = useState(true);
  // gcTime 0: the result (and its mapping) leaves the query client's memory as soon as the page is left
  const run = useMutation(trpc.redact.redact.mutationOptions({ gcTime: 0 }));
  const submitted = run.variables?.text ?? '';
  const data = run.data;

  const spans = useMemo(() => {
    if (!data) return null;
    return { original: originalSpans(data.entities, submitted.length), redacted: redactedSpans(data.entities, data.redacted_text) };
  }, [data, submitted]);

  const failure = (run.error as { data?: RedactErrorData } | null)?.data?.app;
  const failedReceipt = failure?.error === 'redaction_failed' ? failure.extra?.redaction_receipt : undefined;
  const chars = Array.from(text).length;

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!text) return;
    run.mutate({ text, return_mapping: returnMapping });
  }

  return (
    <>
      <PageHeader title="Redaction">
        Replace names, IC, MRN, passport, phone, e-mail, card and account numbers with placeholders such as <code>[PERSON_1]</code>. Clinical content (dates,
        ages, vitals, labs, doses, codes, hospitals) is kept. The text and the mapping are never stored; only the receipt&apos;s counts are.
      </PageHeader>

      <form className="card redact-form" onSubmit={onSubmit} aria-label="Redact text">
        <label>
          Clinical text
          <textarea
            name="text"
            rows={9}
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder="Paste a note, a letter, a message…"
            spellCheck={false}
            data-testid="redact-input"
          />
        </label>
        <div className="redact-actions">
          <button type="submit" className="btn btn-primary" disabled={run.isPending || !text || chars > MAX_CHARS}>
            {run.isPending ? 'Redacting…' : 'Redact'}
          </button>
          <label className="inline">
            <input type="checkbox" checked={returnMapping} onChange={(e) => setReturnMapping(e.target.checked)} /> Return the mapping
          </label>
          <button type="button" className="btn btn-ghost" onClick={() => setText(EXAMPLE)}>
            Load example
          </button>
          <button
            type="button"
            className="btn btn-ghost"
            onClick={() => {
              setText('');
              run.reset();
            }}
          >
            Clear
          </button>
          <span className={chars > MAX_CHARS ? 'small redact-count over' : 'small muted redact-count'}>
            {chars.toLocaleString('en')} / {MAX_CHARS.toLocaleString('en')} characters
          </span>
        </div>
      </form>

      {run.error ? (
        <section className="card" data-testid="redact-failed">
          <ErrorBox error={run.error} />
          {failedReceipt ? (
            <>
              <p className="small">Nothing was returned: redaction failed closed{failure?.extra?.reason ? ` (${failure.extra.reason})` : ''}.</p>
              <ReceiptView receipt={failedReceipt} />
            </>
          ) : null}
        </section>
      ) : null}

      {data && spans ? (
        <>
          <section className="card" aria-label="Result">
            <div className="redact-result-head">
              <h2>Result</h2>
              <EntityLegend counts={data.entities_redacted} />
            </div>
            <div className="grid-2 redact-sides">
              <div>
                <h3>Original</h3>
                <HighlightedText text={submitted} spans={spans.original} testId="original-text" />
              </div>
              <div>
                <h3>
                  Redacted <CopyButton text={data.redacted_text} />
                </h3>
                <HighlightedText text={data.redacted_text} spans={spans.redacted} testId="redacted-text" showPlaceholderTitle={false} />
              </div>
            </div>
          </section>

          <div className="grid-2">
            <section className="card">
              <h2>Mapping</h2>
              <p className="small muted">Kept in this browser tab only: not stored, not sent anywhere. Clear removes it.</p>
              {data.mapping ? (
                <MappingTable mapping={data.mapping} entities={data.entities} />
              ) : (
                <p className="muted small">Not returned (return mapping was off).</p>
              )}
            </section>
            <section className="card">
              <h2>Receipt</h2>
              <ReceiptView receipt={data.redaction_receipt} />
              {data.redaction_receipt.receipt_id ? (
                <p className="small">
                  <Link href={`/redact/receipts?id=${data.redaction_receipt.receipt_id}`}>Open in the receipt inspector</Link>
                </p>
              ) : null}
            </section>
          </div>
        </>
      ) : null}
    </>
  );
}
