import type { ReactNode } from 'react';

/** Redaction, and the template for its receipts page below. */
export const metadata = { title: { default: 'Redaction', template: '%s · Coding Gateway' } };

export default function Layout({ children }: { children: ReactNode }) {
  return children;
}
