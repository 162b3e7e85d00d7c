'use client';
import { useState, type ReactNode } from 'react';

/** Small shared UI pieces. (The browser tab's title comes from each route's metadata: app/(app)/<page>/layout.tsx.) */
export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <header className="page-header">
      <h1>{title}</h1>
      {children ? <div className="page-sub">{children}</div> : null}
    </header>
  );
}

/** The one row a table shows when it has nothing to list. */
export function EmptyRow({ cols, children }: { cols: number; children: ReactNode }) {
  return (
    <tr>
      <td colSpan={cols} className="muted">
        {children}
      </td>
    </tr>
  );
}

export function ErrorBox({ error }: { error: unknown }) {
  if (!error) return null;
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : 'Something went wrong';
  return (
    <div className="alert alert-error" role="alert">
      {message}
    </div>
  );
}

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [done, setDone] = useState(false);
  return (
    <button
      type="button"
      className="btn btn-small"
      onClick={() => {
        void navigator.clipboard?.writeText(text).then(() => {
          setDone(true);
          setTimeout(() => setDone(false), 1500);
        });
      }}
    >
      {done ? 'Copied' : label}
    </button>
  );
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return `${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 16)} UTC`;
}

export function usd(micros: number): string {
  return `$${(micros / 1e6).toFixed(micros % 10_000 === 0 ? 2 : 4)}`;
}
