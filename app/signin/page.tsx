'use client';
import { Suspense, useState, type FormEvent } from 'react';
import { signIn } from 'next-auth/react';
import { useRouter, useSearchParams } from 'next/navigation';

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
    router.push(params.get('callbackUrl') ?? '/');
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
      <p className="muted small">The demo login is printed in the terminal by <code>npm start</code>.</p>
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
