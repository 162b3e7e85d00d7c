import type { ReactNode } from 'react';

export const metadata = { title: 'Sign in · Coding Gateway' };

export default function SignInLayout({ children }: { children: ReactNode }) {
  return children;
}
