import type { ReactNode } from 'react';

export const metadata = { title: 'Sign in' };

export default function SignInLayout({ children }: { children: ReactNode }) {
  return children;
}
