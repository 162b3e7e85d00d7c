import type { ReactNode } from 'react';

export const metadata = { title: 'Group a case' };

export default function Layout({ children }: { children: ReactNode }) {
  return children;
}
