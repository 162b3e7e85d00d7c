import { z } from 'zod';
import { getDb } from '../db';
import { AppError, describeZodIssues, jsonResponse } from '../errors';
import { signIn } from '../auth/signin';
import { issueAccessToken } from '../auth/jwt';
import { parseJson } from './body';

/**
 * POST /login/: `{email, password}` → `{access_token, token_type: "Bearer", expires_in}` (HS256, short-lived).
 * Failed attempts are throttled (server/auth/signin.ts), as in the UI's sign-in.
 */
const LoginBody = z.strictObject({ email: z.string().min(3).max(320), password: z.string().min(1).max(1024) });

export async function loginResponse(body: Uint8Array, contentType: string, clientAddress: string | undefined): Promise<Response> {
  if (contentType !== 'application/json') {
    throw new AppError('unsupported_media_type', 'Send the credentials as JSON: {"email": "...", "password": "..."}.');
  }
  const parsed = LoginBody.safeParse(parseJson(body));
  if (!parsed.success) throw new AppError('invalid_request', describeZodIssues(parsed.error.issues));
  const user = await signIn(await getDb(), parsed.data.email, parsed.data.password, clientAddress);
  const token = await issueAccessToken({ sub: user.id, org: user.org_id, role: user.role });
  return jsonResponse(token, 200, { 'cache-control': 'no-store' });
}
