'use client';
import { useEffect } from 'react';

/** Not signed in: go to the sign-in page, which brings the coder back to the page (and query) they asked for. */
export function SignInRedirect() {
  useEffect(() => {
    const back = window.location.pathname + window.location.search;
    window.location.replace(back === '/' ? '/signin' : `/signin?callbackUrl=${encodeURIComponent(back)}`);
  }, []);
  return (
    <p className="muted" style={{ padding: 24 }}>
      Redirecting to sign-in…
    </p>
  );
}
