import type { ReactNode } from 'react';

/**
 * The home page's title, and the template handed on to the sections, whose own layouts name their pages (a plain
 * string title would end the root's template for everything below it).
 */
export const metadata = { title: { default: 'Welcome', template: '%s · Coding Gateway' } };
import { getServerSession } from 'next-auth';
import { authOptions } from '@/server/auth/nextauth';
import { getDb } from '@/server/db';
import { getUser, requireOrganization } from '@/server/auth/accounts';
import { AppShell } from '@/components/app-shell';
import { SignInRedirect } from '@/components/signin-redirect';

export const dynamic = 'force-dynamic';

/** Every page under (app) needs a signed-in user. */
export default async function AppLayout({ children }: { children: ReactNode }) {
  const session = await getServerSession(authOptions());
  const userId = (session as unknown as { userId?: string } | null)?.userId;
  // The sign-in page returns the coder to the page they asked for (the redirect runs in the browser, which knows it).
  if (!userId) return <SignInRedirect />;
  const db = await getDb();
  const user = await getUser(db, userId);
  if (!user) return <SignInRedirect />;
  const org = await requireOrganization(db, user.org_id);
  return (
    <AppShell email={user.email} role={user.role} org={org.name}>
      {children}
    </AppShell>
  );
}
