import Link from 'next/link';

export const metadata = { title: 'Page not found' };

/** The styled 404, with a way back. */
export default function NotFound() {
  return (
    <main className="notfound card" data-testid="not-found">
      <p className="big">404</p>
      <h1>Page not found</h1>
      <p className="muted">There is no page at this address. It may have moved, or the link may be mistyped.</p>
      <p>
        <Link className="btn btn-primary" href="/">
          Back to the start page
        </Link>{' '}
        <Link className="btn" href="/search">
          Search codes
        </Link>
      </p>
    </main>
  );
}
