import { expect, test } from '@playwright/test';
import { signIn } from './helpers';

/**
 * Independent of the other specs and of earlier runs against the same server: everything is asserted relative to
 * the key this test creates (its own unique name and id), never to how many keys the organisation has.
 */
test('log in, create a key, see it once, revoke it, see the audit entry', async ({ page, request }) => {
  await signIn(page);
  await page.getByRole('link', { name: 'API keys' }).click();
  await expect(page.getByRole('heading', { name: 'API keys' })).toBeVisible();

  const table = page.getByTestId('keys-table');
  await expect(table.locator('tbody tr').first()).toBeVisible();
  // At most two keys may be active. A run that stopped half-way may have left its key active: revoke those (only
  // ours) so a new one fits; the demo key and keys made by anyone else are left alone.
  const leftovers = table.locator('tbody tr', { hasText: /e2e key [0-9a-z]+/ }).filter({ hasText: 'active' });
  for (let n = await leftovers.count(); n > 0; n--) {
    page.once('dialog', (d) => void d.accept());
    await leftovers.first().getByRole('button', { name: 'Revoke' }).click();
    await expect(leftovers).toHaveCount(n - 1);
  }
  const rowsBefore = await table.locator('tbody tr').count();

  const name = `e2e key ${Date.now().toString(36)}`;
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('search').check();
  await page.getByRole('button', { name: 'Create key' }).click();
  const value = page.getByTestId('new-key-value');
  await expect(value).toHaveText(/^cg_live_[0-9A-Za-z]{32}$/);
  const key = (await value.textContent())!;
  await expect(table.locator('tbody tr')).toHaveCount(rowsBefore + 1);

  // The key works against the API.
  const who = await request.get('/api/v1/auth/whoami', { headers: { 'X-API-Key': key } });
  expect(who.status()).toBe(200);
  expect((await who.json()).scopes).toEqual(['search']);

  // Shown once: after dismissing or reloading, only the masked form remains.
  await page.getByRole('button', { name: 'I have stored it' }).click();
  await expect(page.getByTestId('new-key')).toHaveCount(0);
  await page.reload();
  await expect(page.getByText(key)).toHaveCount(0);
  const row = table.locator('tr', { hasText: name });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(key.slice(-4));
  await expect(row).toContainText('active');
  const keyId = (await row.getAttribute('data-key-id'))!;
  expect(keyId).toBeTruthy();

  page.once('dialog', (d) => void d.accept());
  await row.getByRole('button', { name: 'Revoke' }).click();
  await expect(row).toContainText('revoked');

  const after = await request.get('/api/v1/auth/whoami', { headers: { 'X-API-Key': key } });
  expect(after.status()).toBe(401);
  expect((await after.json()).error).toBe('key_revoked');

  // The audit log names this key (its id is the target) for both events, and who revoked it.
  await page.getByRole('link', { name: 'Audit log' }).click();
  const audit = page.getByTestId('audit-table');
  const ours = audit.locator('tr', { hasText: keyId });
  await expect(ours.filter({ hasText: 'Key revoked' })).toHaveCount(1);
  await expect(ours.filter({ hasText: 'Key revoked' })).toContainText('user:admin@demo.local');
  await expect(ours.filter({ hasText: 'Key created' })).toHaveCount(1);
});
