import type { ReactNode } from 'react';

export const metadata = { title: 'DRG agent' };

export default function Layout({ children }: { children: ReactNode }) {
  return children;
}
