import type { ReactNode } from 'react';

export const metadata = { title: 'Usage' };

export default function Layout({ children }: { children: ReactNode }) {
  return children;
}
