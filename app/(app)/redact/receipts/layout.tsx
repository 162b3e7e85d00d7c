import type { ReactNode } from 'react';

export const metadata = { title: 'Redaction receipts' };

export default function Layout({ children }: { children: ReactNode }) {
  return children;
}
