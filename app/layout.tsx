import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { Providers } from '@/components/providers';
import './globals.css';

export const metadata: Metadata = {
  // Each page names itself in its segment's metadata (`title: 'Search'` → "Search · Coding Gateway").
  title: { default: 'Coding Gateway', template: '%s · Coding Gateway' },
  description: 'Clinical coding: vocabulary search, MS-DRG grouping, PHI redaction and a PHI-safe chat gateway.',
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
