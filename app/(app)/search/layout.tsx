import type { ReactNode } from 'react';

export const metadata = { title: 'Search' };

export default function Layout({ children }: { children: ReactNode }) {
  return children;
}
