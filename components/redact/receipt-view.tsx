'use client';
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '@/server/api/root';
import { ENTITY_LABELS } from './entities';

/** The receipt as the redact procedure returns it (the agent's and the 503 body's receipts have the same shape). */
export type ReceiptLike = inferRouterOutputs<AppRouter>['redact']['redact']['redaction_receipt'];

function yesNo(v: boolean | null): string {
  return v === null ? 'n/a (redact only)' : v ? 'yes' : 'no';
}

/** A redaction receipt as readable fields and as JSON. Receipts hold counts only, never values. */
export function ReceiptView({ receipt, testId = 'receipt' }: { receipt: ReceiptLike; testId?: string }) {
  const counts = Object.entries(receipt.entities_redacted).filter(([, n]) => (n ?? 0) > 0);
  const total = counts.reduce((a, [, n]) => a + (n ?? 0), 0);
  return (
    <div className="redact-receipt" data-testid={testId}>
      <dl className="kv">
        <dt>Status</dt>
        <dd>
          <span className={`badge ${receipt.status === 'ok' ? 'badge-ok' : 'badge-failed'}`} data-testid="receipt-status">
            {receipt.status}
          </span>
        </dd>
        {receipt.receipt_id ? (
          <>
            <dt>Receipt id</dt>
            <dd>
              <code data-testid="receipt-id">{receipt.receipt_id}</code>
            </dd>
          </>
        ) : null}
        <dt>Entities redacted</dt>
        <dd data-testid="receipt-entities">
          {total ? counts.map(([t, n]) => `${ENTITY_LABELS[t] ?? t} ${n}`).join(' · ') : 'none'}
          {total ? <span className="muted"> (total {total})</span> : null}
        </dd>
        <dt>Engine</dt>
        <dd>
          {receipt.engine} {receipt.engine_version} <span className="muted">(receipt v{receipt.receipt_version})</span>
        </dd>
        <dt>Free-text fields</dt>
        <dd>{receipt.free_text_fields}</dd>
        <dt>Input already had placeholders</dt>
        <dd>{yesNo(receipt.client_preredacted)}</dd>
        <dt>Client asserted de-identified</dt>
        <dd>
          {yesNo(receipt.client_asserted_deidentified)}
          {receipt.redacted_anyway ? <span className="muted"> — redacted anyway</span> : null}
        </dd>
        <dt>Rehydration complete</dt>
        <dd>{yesNo(receipt.rehydration_complete)}</dd>
        <dt>Unresolved placeholders</dt>
        <dd>{receipt.unresolved_placeholder_count}</dd>
        <dt>Retention</dt>
        <dd>{receipt.retention === 'metadata_only' ? 'metadata only (no text, no mapping)' : receipt.retention}</dd>
      </dl>
      <details className="redact-json">
        <summary>Receipt JSON</summary>
        <pre className="json" data-testid={`${testId}-json`}>
          {JSON.stringify(receipt, null, 2)}
        </pre>
      </details>
    </div>
  );
}
