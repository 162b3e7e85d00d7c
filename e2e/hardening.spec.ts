import net from 'node:net';
import { expect, test } from '@playwright/test';
import { ADMIN, signIn } from './helpers';

/**
 * Issue 12 on the real server (`npm start`'s code, Next.js included): sign-out on a port other than 3000, security
 * headers on pages, JSON 404 for unknown API paths that Next.js would otherwise answer with an HTML page, and a JSON
 * 405 for TRACE.
 */
test('sign out returns to this server’s sign-in page, on its own port', async ({ page, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  expect(new URL(origin).port).not.toBe('3000');
  await signIn(page);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(/\/signin/);
  expect(new URL(page.url()).origin).toBe(origin);
  await expect(page.getByLabel('E-mail')).toBeVisible();
  // and signing in again works from there
  await page.getByLabel('E-mail').fill(ADMIN.email);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('user-email')).toHaveText(ADMIN.email);
});

test('pages carry a CSP that forbids framing, nosniff and a referrer policy; a page cannot be framed', async ({ page, request }) => {
  for (const path of ['/signin', '/docs', '/']) {
    const r = await request.get(path, { maxRedirects: 0 });
    const h = r.headers();
    expect(h['content-security-policy'], path).toContain("frame-ancestors 'none'");
    expect(h['content-security-policy'], path).toContain("default-src 'self'");
    expect(h['x-content-type-options'], path).toBe('nosniff');
    expect(h['referrer-policy'], path).toBeTruthy();
    expect(h['x-frame-options'], path).toBe('DENY');
  }
  // the browser refuses to render the sign-in page inside a frame of another document
  await page.goto('/docs');
  const framed = await page.evaluate(async () => {
    const f = document.createElement('iframe');
    f.src = '/signin';
    document.body.appendChild(f);
    await new Promise((r) => setTimeout(r, 1500));
    try {
      return f.contentDocument?.querySelector('input[type=password]') ? 'rendered' : 'blocked';
    } catch {
      return 'blocked';
    }
  });
  expect(framed).toBe('blocked');
});

test('unknown API paths, other versions and other letter cases get JSON 404; TRACE gets JSON 405', async ({ request, baseURL }) => {
  for (const path of ['/api/v2/drg/classify/', '/API/V1/health/', '/api/nothing-here', '/api']) {
    const r = await request.get(path);
    expect(r.status(), path).toBe(404);
    expect(r.headers()['content-type'], path).toMatch(/^application\/json/);
    expect(await r.json(), path).toMatchObject({ error: 'not_found' });
  }
  const u = new URL(baseURL!);
  const raw = await new Promise<string>((resolve) => {
    const s = net.connect(Number(u.port), u.hostname);
    let out = '';
    s.on('data', (d) => (out += d.toString()));
    s.on('close', () => resolve(out));
    s.write(`TRACE /signin HTTP/1.1\r\nHost: ${u.host}\r\n\r\n`);
    setTimeout(() => s.destroy(), 5000);
  });
  expect(raw).toMatch(/^HTTP\/1\.1 405/);
  expect(raw).toContain('"error":"method_not_allowed"');
});
