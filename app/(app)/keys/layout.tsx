import type { ReactNode } from 'react';

export const metadata = { title: 'API keys' };

export default function Layout({ children }: { children: ReactNode }) {
  return children;
}
