'use client';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { signOut } from 'next-auth/react';
import type { ReactNode } from 'react';
import { NAV_ITEMS, type NavItem } from './nav-items';

const SECTIONS: NavItem['section'][] = ['Coding', 'Privacy', 'Organisation', 'Developers'];

export function AppShell({ children, email, role, org }: { children: ReactNode; email: string; role: string; org: string }) {
  const pathname = usePathname();
  // The active item is the longest nav href that prefixes the path (so /redact/receipts does not light up /redact too).
  const active = NAV_ITEMS.map((i) => i.href)
    .filter((h) => pathname === h || pathname.startsWith(h + '/'))
    .sort((a, b) => b.length - a.length)[0];
  return (
    <div className="shell">
      <aside className="sidebar">
        <Link href="/" className="brand">
          <span className="brand-mark">CG</span> Coding Gateway
        </Link>
        <div className="org-name" title="Organisation">{org}</div>
        <nav aria-label="Main">
          {SECTIONS.map((section) => {
            const items = NAV_ITEMS.filter((i) => i.section === section && (!i.admin || role === 'admin'));
            if (!items.length) return null;
            return (
              <div key={section} className="nav-section">
                <div className="nav-section-title">{section}</div>
                {items.map((i) => (
                  <Link key={i.href} href={i.href} className={i.href === active ? 'nav-link active' : 'nav-link'}>
                    {i.label}
                  </Link>
                ))}
              </div>
            );
          })}
        </nav>
        <div className="user-box">
          <div className="user-email" data-testid="user-email">{email}</div>
          <div className="user-role">{role}</div>
          <button type="button" className="btn btn-small btn-ghost" onClick={() => signOut({ callbackUrl: '/signin' })}>
            Sign out
          </button>
        </div>
      </aside>
      <main className="content">{children}</main>
    </div>
  );
}
