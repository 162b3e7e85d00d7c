'use client';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { signOut } from 'next-auth/react';
import { useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { NAV_ITEMS, type NavItem } from './nav-items';
import { caseHref, displayCode, readStoredCase, subscribeStoredCase, type CaseState } from './case/case';

/** The case in this browser, kept current when any page changes it (null while rendering on the server). */
function useStoredCase(): CaseState | null {
  const raw = useSyncExternalStore(
    subscribeStoredCase,
    () => JSON.stringify(readStoredCase()),
    () => null,
  );
  return useMemo(() => (raw ? (JSON.parse(raw) as CaseState) : null), [raw]);
}

const SECTIONS: NavItem['section'][] = ['Coding', 'Privacy', 'Organisation', 'Developers'];

export function AppShell({ children, email, role, org }: { children: ReactNode; email: string; role: string; org: string }) {
  const pathname = usePathname();
  // The menu (below 900 px) is open for the page it was opened on: following a link closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const menuOpen = openOn === pathname;
  const theCase = useStoredCase();
  const n = theCase ? theCase.dx.length + theCase.pr.length : 0;
  // The active item is the longest nav href that prefixes the path (so /redact/receipts does not light up /redact too).
  const active = NAV_ITEMS.map((i) => i.href)
    .filter((h) => pathname === h || pathname.startsWith(h + '/'))
    .sort((a, b) => b.length - a.length)[0];
  return (
    <div className="shell">
      <aside className={menuOpen ? 'sidebar menu-open' : 'sidebar'}>
        <Link href="/" className="brand">
          <span className="brand-mark">CG</span> Coding Gateway
        </Link>
        <button
          type="button"
          className="btn btn-small btn-ghost nav-toggle"
          aria-expanded={menuOpen}
          aria-controls="main-nav"
          onClick={() => setOpenOn(menuOpen ? null : pathname)}
        >
          {menuOpen ? 'Close menu' : 'Menu'}
        </button>
        <div className="org-name" title="Organisation">
          {org}
        </div>
        {theCase && n ? (
          <Link href={caseHref(theCase)} className="case-link" data-testid="case-link">
            Case: {theCase.dx.length} dx · {theCase.pr.length} pr{theCase.dx[0] ? ` · ${displayCode(theCase.dx[0], 'dx')}` : ''}
          </Link>
        ) : null}
        <nav aria-label="Main" id="main-nav">
          {SECTIONS.map((section) => {
            const items = NAV_ITEMS.filter((i) => i.section === section && (!i.admin || role === 'admin'));
            if (!items.length) return null;
            return (
              <div key={section} className="nav-section">
                <div className="nav-section-title">{section}</div>
                {items.map((i) => (
                  <Link
                    key={i.href}
                    href={i.href === '/grouper' && theCase ? caseHref(theCase) : i.href}
                    className={i.href === active ? 'nav-link active' : 'nav-link'}
                    aria-current={i.href === active ? 'page' : undefined}
                  >
                    {i.label}
                  </Link>
                ))}
              </div>
            );
          })}
        </nav>
        <div className="user-box">
          <div className="user-email" data-testid="user-email">
            {email}
          </div>
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
