import type { ReactNode } from 'react';

export const metadata = { title: 'Chat playground' };

export default function Layout({ children }: { children: ReactNode }) {
  return children;
}
