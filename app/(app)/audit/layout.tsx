import type { ReactNode } from 'react';

export const metadata = { title: 'Audit log' };

export default function Layout({ children }: { children: ReactNode }) {
  return children;
}
