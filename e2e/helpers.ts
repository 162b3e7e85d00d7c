import { expect, type Page } from '@playwright/test';

export const ADMIN = { email: 'admin@demo.local', password: 'e2e-demo-password' };

export async function signIn(page: Page): Promise<void> {
  await page.goto('/signin');
  await page.getByLabel('E-mail').fill(ADMIN.email);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('user-email')).toHaveText(ADMIN.email);
}
