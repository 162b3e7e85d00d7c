import type { NextAuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import { getDb } from '../db';
import { clientAddressFrom, signIn } from './signin';
import { AppError } from '../errors';
import { nextAuthSecret } from './session';
import { loadEnv } from '../env';

/** next-auth for the UI: e-mail + password (Credentials provider), JWT sessions. */
export function authOptions(): NextAuthOptions {
  return {
    secret: nextAuthSecret(),
    session: { strategy: 'jwt', maxAge: 8 * 3600 },
    pages: { signIn: '/signin' },
    providers: [
      CredentialsProvider({
        name: 'E-mail and password',
        credentials: { email: { label: 'E-mail', type: 'email' }, password: { label: 'Password', type: 'password' } },
        async authorize(credentials, req) {
          if (!credentials?.email || !credentials.password) return null;
          const headers = new Headers(Object.entries(req?.headers ?? {}).filter((e): e is [string, string] => typeof e[1] === 'string'));
          try {
            const user = await signIn(await getDb(), credentials.email, credentials.password, clientAddressFrom(headers, undefined, loadEnv().TRUST_PROXY));
            return { id: user.id, email: user.email, name: user.email, role: user.role, org: user.org_id };
          } catch (err) {
            if (err instanceof AppError && err.status === 429) throw new Error(err.message); // shown on the sign-in page
            return null;
          }
        },
      }),
    ],
    callbacks: {
      async jwt({ token, user }) {
        if (user) {
          token.sub = user.id;
          (token as Record<string, unknown>).role = (user as { role?: string }).role;
        }
        return token;
      },
      async session({ session, token }) {
        (session as unknown as Record<string, unknown>).userId = token.sub;
        (session as unknown as Record<string, unknown>).role = (token as Record<string, unknown>).role;
        return session;
      },
    },
    useSecureCookies: loadEnv().NODE_ENV === 'production' && (loadEnv().NEXTAUTH_URL ?? '').startsWith('https://'),
  };
}
