import Link from 'next/link';
import { ApiReference } from '@/components/api-reference';

export const metadata = { title: 'API reference' };

/** Public, interactive API reference (the OpenAPI document rendered, with "Try it"). */
export default function DocsPage() {
  return (
    <div className="docs-page">
      <header className="docs-header">
        <Link href="/" className="brand">
          <span className="brand-mark">CG</span> Coding Gateway
        </Link>
        <h1>API reference</h1>
      </header>
      <ApiReference />
    </div>
  );
}
