'use client';
import { Suspense, useState, type FormEvent } from 'react';
import { signIn } from 'next-auth/react';
import { useRouter, useSearchParams } from 'next/navigation';

/** Only a path of this site (never another origin): `/grouper?dx=I214`, not `//evil.example` or `https://…`. */
function safeCallback(raw: string | null): string {
  if (!raw) return '/';
  try {
    const u = new URL(raw, window.location.origin);
    if (u.origin !== window.location.origin || u.pathname.startsWith('/signin')) return '/';
    return u.pathname + u.search + u.hash;
  } catch {
    return '/';
  }
}

function SignInForm() {
  const router = useRouter();
  const params = useSearchParams();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(params.get('error') ? 'E-mail or password is wrong.' : null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const res = await signIn('credentials', { email, password, redirect: false });
    setBusy(false);
    if (!res || res.error) {
      setError('E-mail or password is wrong.');
      return;
    }
    router.push(safeCallback(params.get('callbackUrl')));
    router.refresh();
  }

  return (
    <form className="card signin-card" onSubmit={onSubmit} aria-label="Sign in">
      <h1>Sign in to Coding Gateway</h1>
      <label>
        E-mail
        <input name="email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
      </label>
      <label>
        Password
        <input name="password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
      </label>
      {error ? (
        <div className="alert alert-error" role="alert">
          {error}
        </div>
      ) : null}
      <button className="btn btn-primary" type="submit" disabled={busy}>
        {busy ? 'Signing in…' : 'Sign in'}
      </button>
      <p className="muted small">
        The demo login is printed in the terminal by <code>npm start</code>.
      </p>
    </form>
  );
}

export default function SignInPage() {
  return (
    <div className="signin-page">
      <Suspense>
        <SignInForm />
      </Suspense>
    </div>
  );
}
