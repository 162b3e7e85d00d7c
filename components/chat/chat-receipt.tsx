'use client';
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '@/server/api/root';
import { usd } from '@/components/ui';

export type PlaygroundTurn = inferRouterOutputs<AppRouter>['gateway']['playground'];

/** The receipt of one playground turn, plus its usage. Counts only, never values. */
export type ChatReceiptLike = PlaygroundTurn['receipt'];

export function ChatReceipt({ receipt, usage, costMicros }: { receipt: ChatReceiptLike; usage: PlaygroundTurn['usage']; costMicros: number }) {
  const counts = Object.entries(receipt.entities_redacted).filter(([, n]) => (n ?? 0) > 0);
  const rehydration = receipt.rehydration_complete === null ? 'not applied (redact only)' : receipt.rehydration_complete ? 'complete' : 'incomplete';
  return (
    <dl className="chat-receipt" data-testid="turn-receipt">
      <div>
        <dt>Receipt</dt>
        <dd>
          <span className={`badge ${receipt.status === 'ok' ? 'badge-ok' : 'badge-failed'}`}>{receipt.status}</span>
        </dd>
      </div>
      <div>
        <dt>Redacted</dt>
        <dd data-testid="turn-entities">{counts.length ? counts.map(([t, n]) => `${t} ${n}`).join(' · ') : 'nothing'}</dd>
      </div>
      <div>
        <dt>Fields</dt>
        <dd>{receipt.free_text_fields}</dd>
      </div>
      <div>
        <dt>Re-hydration</dt>
        <dd data-testid="turn-rehydration">{rehydration}</dd>
      </div>
      <div>
        <dt>Unresolved</dt>
        <dd data-testid="turn-unresolved" className={receipt.unresolved_placeholder_count ? 'chat-warn' : undefined}>
          {receipt.unresolved_placeholder_count}
        </dd>
      </div>
      <div>
        <dt>Repaired</dt>
        <dd>{receipt.placeholders_repaired}</dd>
      </div>
      <div>
        <dt>Tokens</dt>
        <dd>
          {usage.input_tokens} in / {usage.output_tokens} out{usage.estimated ? ' (est.)' : ''}
        </dd>
      </div>
      <div>
        <dt>Cost</dt>
        <dd>{usd(costMicros)}</dd>
      </div>
      {receipt.receipt_id ? (
        <div>
          <dt>Receipt id</dt>
          <dd>
            <code>{receipt.receipt_id.slice(0, 8)}</code>
          </dd>
        </div>
      ) : null}
    </dl>
  );
}
