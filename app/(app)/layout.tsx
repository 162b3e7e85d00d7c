import type { ReactNode } from 'react';
import { redirect } from 'next/navigation';
import { getServerSession } from 'next-auth';
import { authOptions } from '@/server/auth/nextauth';
import { getDb } from '@/server/db';
import { getUser, requireOrganization } from '@/server/auth/accounts';
import { AppShell } from '@/components/app-shell';

export const dynamic = 'force-dynamic';

/** Every page under (app) needs a signed-in user. */
export default async function AppLayout({ children }: { children: ReactNode }) {
  const session = await getServerSession(authOptions());
  const userId = (session as unknown as { userId?: string } | null)?.userId;
  if (!userId) redirect('/signin');
  const db = await getDb();
  const user = await getUser(db, userId);
  if (!user) redirect('/signin');
  const org = await requireOrganization(db, user.org_id);
  return (
    <AppShell email={user.email} role={user.role} org={org.name}>
      {children}
    </AppShell>
  );
}
