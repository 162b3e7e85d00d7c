import type { ReactNode } from 'react';

export const metadata = { title: 'Batches' };

export default function Layout({ children }: { children: ReactNode }) {
  return children;
}
