/** Navigation: each capability adds its page here. `admin` items are shown to admins only. */
export interface NavItem {
  href: string;
  label: string;
  section: 'Coding' | 'Privacy' | 'Organisation' | 'Developers';
  admin?: boolean;
}

export const NAV_ITEMS: NavItem[] = [
  { href: '/search', label: 'Search', section: 'Coding' },
  { href: '/grouper', label: 'Group a case', section: 'Coding' },
  { href: '/agent', label: 'DRG agent', section: 'Coding' },
  { href: '/batches', label: 'Batches', section: 'Coding' },
  { href: '/redact', label: 'Redaction', section: 'Privacy' },
  { href: '/redact/receipts', label: 'Receipts', section: 'Privacy' },
  { href: '/chat', label: 'Chat playground', section: 'Privacy' },
  { href: '/keys', label: 'API keys', section: 'Organisation', admin: true },
  { href: '/models', label: 'Models', section: 'Organisation', admin: true },
  { href: '/usage', label: 'Usage', section: 'Organisation' },
  { href: '/audit', label: 'Audit log', section: 'Organisation', admin: true },
  { href: '/docs', label: 'API reference', section: 'Developers' },
];
