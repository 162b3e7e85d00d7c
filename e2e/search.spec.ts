import { expect, test } from '@playwright/test';
import { signIn } from './helpers';

/** The Search page on the starter vocabulary that `npm start` imported on first start. */
test('search by lay term, open a concept, walk the graph, copy and use in grouper', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page);
  await page.getByRole('link', { name: 'Search', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Search' })).toBeVisible();

  await page.getByLabel('ICD10CM').check();
  await page.getByLabel('Search text').fill('heart attack');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const rows = page.getByTestId('search-row');
  await expect(rows.first()).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('search-summary')).toContainText('hybrid');
  await expect(page.getByTestId('search-results')).toContainText('I21');

  // concept drawer: synonyms, relationships, ancestors; grouper link for an ICD-10-CM code
  await rows.first().getByTestId('result-code').click();
  const drawer = page.getByTestId('concept-drawer');
  await expect(drawer.getByTestId('drawer-title')).toContainText('ICD10CM');
  await expect(drawer.getByTestId('drawer-synonyms')).toBeVisible();
  await expect(drawer.getByRole('heading', { name: 'Ancestors' })).toBeVisible();
  await expect(drawer.getByTestId('drawer-add-to-case')).toBeVisible();
  await expect(drawer.getByRole('button', { name: 'Copy code' })).toBeVisible();

  // click-through navigation of the graph: open a parent, then go back
  const firstTitle = await drawer.getByTestId('drawer-title').textContent();
  await drawer.getByTestId('concept-link').first().click();
  await expect(drawer.getByTestId('drawer-title')).not.toHaveText(firstTitle ?? '');
  await drawer.getByRole('button', { name: '← Back' }).click();
  await expect(drawer.getByTestId('drawer-title')).toHaveText(firstTitle ?? '');

  // graph mode through a profile: ICD-9 procedure title translated to ICD-10-PCS
  await page.getByLabel('ICD10CM').uncheck();
  await page.getByLabel('ICD10PCS').check();
  await page.getByLabel('Mode').selectOption('explore');
  await page.getByLabel('Search text').fill('laparoscopic appendectomy');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByTestId('search-summary')).toContainText('explore');
  await expect(page.getByTestId('search-results')).toContainText('0DTJ4ZZ');
});

test('misspelling and abbreviation still find the condition; empty results are explained', async ({ page }) => {
  await signIn(page);
  await page.goto('/search');
  await page.getByLabel('Search text').fill('pnuemonia');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByTestId('search-results')).toContainText('neumonia', { timeout: 60_000 });
  await page.getByLabel('Search text').fill('zzqxv blorf');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByText('No matching concepts')).toBeVisible();
});
