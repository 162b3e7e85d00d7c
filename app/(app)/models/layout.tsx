import type { ReactNode } from 'react';

export const metadata = { title: 'Models' };

export default function Layout({ children }: { children: ReactNode }) {
  return children;
}
