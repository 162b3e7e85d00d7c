'use client';
import { useState, type FormEvent } from 'react';
import Link from 'next/link';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/components/trpc';
import { ErrorBox, PageHeader } from '@/components/ui';
import { ChatReceipt, type ChatReceiptLike, type PlaygroundTurn } from '@/components/chat/chat-receipt';
import { PlaceholderText } from '@/components/chat/placeholder-text';

const EXAMPLE = `Please summarise for the discharge letter: Pt Ahmad Faizal bin Ismail (54M), IC 850101-14-5673, admitted with NSTEMI.
Day 3 post PCI, BP 130/80. Wife Siti Aminah binti Yusof can be reached at 012-345 6789.`;

interface Turn {
  user: string;
  answer: string;
  sentUser: string;
  modelAnswer: string;
  receipt: ChatReceiptLike;
  usage: PlaygroundTurn['usage'];
  costMicros: number;
}

/**
 * The chat playground: each turn sends the whole conversation through the PHI-safe gateway (the same core as
 * POST /api/v1/llm/chat/completions). Left: what the model received and answered (placeholders). Right: what the
 * user sees (originals restored). The mapping never reaches the browser.
 */
export default function ChatPage() {
  const trpc = useTRPC();
  const models = useQuery(trpc.gateway.models.queryOptions());
  const [model, setModel] = useState('');
  const [system, setSystem] = useState('');
  const [redactOnly, setRedactOnly] = useState(false);
  const [input, setInput] = useState('');
  const [turns, setTurns] = useState<Turn[]>([]);
  const send = useMutation(trpc.gateway.playground.mutationOptions({ gcTime: 0 }));

  const usable = (models.data?.models ?? []).filter((m) => m.approved_for_phi);
  // until the user picks one, the first model approved for PHI
  const selected = model || usable[0]?.name || '';

  function onSend(e: FormEvent) {
    e.preventDefault();
    const text = input.trim();
    if (!text || !selected) return;
    const history = turns.flatMap((t) => [
      { role: 'user' as const, content: t.user },
      { role: 'assistant' as const, content: t.answer || '(empty)' },
    ]);
    send.mutate(
      { model: selected, system: system.trim() || undefined, redact_only: redactOnly, messages: [...history, { role: 'user', content: text }] },
      {
        onSuccess: (r) => {
          const sentUsers = r.sent_messages.filter((m) => m.role === 'user');
          setTurns((prev) => [
            ...prev,
            {
              user: text,
              answer: r.answer,
              sentUser: sentUsers.at(-1)?.content ?? '',
              modelAnswer: r.model_answer,
              receipt: r.receipt,
              usage: r.usage,
              costMicros: r.cost_micros,
            },
          ]);
          setInput('');
        },
      },
    );
  }

  const failure = (send.error as { data?: { app?: { error?: string } } } | null)?.data?.app?.error;

  return (
    <>
      <PageHeader title="Chat playground">
        Chat with a registered model through the PHI-safe gateway. Each turn shows side by side what the model received (names, IC, phone numbers… replaced by
        placeholders) and what you see (originals restored), with the turn&apos;s redaction receipt. The mapping stays on the server, in the request&apos;s
        memory only.
      </PageHeader>

      <section className="card chat-controls">
        <label>
          Model
          <select value={selected} onChange={(e) => setModel(e.target.value)} data-testid="model-select" aria-label="Model">
            {(models.data?.models ?? []).map((m) => (
              <option key={m.id} value={m.name} disabled={!m.approved_for_phi}>
                {m.name}
                {m.family === 'reasoning' ? ' (reasoning)' : ''}
                {m.approved_for_phi ? '' : ' — not approved for PHI'}
              </option>
            ))}
          </select>
        </label>
        <label className="chat-system">
          System prompt (optional)
          <input value={system} onChange={(e) => setSystem(e.target.value)} placeholder="You are a clinical coding assistant." maxLength={20_000} />
        </label>
        <label className="inline">
          <input type="checkbox" checked={redactOnly} onChange={(e) => setRedactOnly(e.target.checked)} /> Redact only (keep placeholders in the answer)
        </label>
        <ErrorBox error={models.error} />
        {models.data && !usable.length ? (
          <p className="muted" data-testid="no-models">
            No model approved for PHI is registered yet. An admin can add one on the <Link href="/models">Models</Link> page (try{' '}
            <code>npm run dev:upstream</code> for a local test model).
          </p>
        ) : null}
      </section>

      <section className="chat-turns" aria-label="Conversation">
        {turns.length ? (
          <div className="chat-columns chat-columns-head">
            <h2>What the model received</h2>
            <h2>What you see</h2>
          </div>
        ) : null}
        {turns.map((t, i) => (
          <article key={i} className="card chat-turn" data-testid={`turn-${i}`}>
            <div className="chat-columns">
              <div className="chat-side chat-redacted">
                <div className="chat-role">You (as sent)</div>
                <PlaceholderText text={t.sentUser} testId="sent-user" />
                <div className="chat-role">Model</div>
                <PlaceholderText text={t.modelAnswer} testId="model-answer" />
              </div>
              <div className="chat-side">
                <div className="chat-role">You</div>
                <div className="chat-text" data-testid="seen-user">
                  {t.user}
                </div>
                <div className="chat-role">Answer</div>
                <div className="chat-text" data-testid="seen-answer">
                  {t.answer}
                </div>
              </div>
            </div>
            <ChatReceipt receipt={t.receipt} usage={t.usage} costMicros={t.costMicros} />
          </article>
        ))}
      </section>

      <form className="card chat-form" onSubmit={onSend} aria-label="Send a message">
        <label>
          Message
          <textarea
            rows={4}
            value={input}
            onChange={(e) => setInput(e.target.value)}
            placeholder="Ask about a case; PHI is redacted before the model sees it."
            data-testid="chat-input"
          />
        </label>
        {send.error ? (
          <div>
            <ErrorBox error={send.error} />
            {failure === 'redaction_failed' ? <p className="muted small">Redaction failed closed: nothing was sent to the model.</p> : null}
          </div>
        ) : null}
        <div className="chat-actions">
          <button type="submit" className="btn btn-primary" disabled={send.isPending || !input.trim() || !selected}>
            {send.isPending ? 'Sending…' : 'Send'}
          </button>
          <button type="button" className="btn btn-ghost" onClick={() => setInput(EXAMPLE)}>
            Example with PHI
          </button>
          <button type="button" className="btn btn-ghost" onClick={() => setTurns([])} disabled={!turns.length || send.isPending}>
            New conversation
          </button>
        </div>
      </form>
    </>
  );
}
