import { createRequire } from 'node:module';
import { expect, test, type Page } from '@playwright/test';
import { getGrouper, groupCase } from '../server/drg';
import { ADMIN, signIn } from './helpers';

/**
 * Issue 14, the coder's workbench: one case across Search and Group a case (URL + browser storage), code entry that
 * refuses what is not a code, the stale result card, layout below 900 px, titles, 404, sign-in return, and axe checks.
 * Expected DRGs come from the grouper core (the tables the server loads). Screenshots go to test-results/workbench/.
 */
const SHOTS = 'test-results/workbench';
const require = createRequire(import.meta.url);

async function axe(page: Page, label: string) {
  await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
  const violations = await page.evaluate(async () => {
    const w = window as unknown as {
      axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }> };
    };
    const r = await w.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] } });
    return r.violations.map(
      (v) =>
        `${v.id} (${v.impact}): ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(', ')}`,
    );
  });
  expect(violations, `axe on ${label}`).toEqual([]);
}

test('search → add to case → group → change a code → stale → regroup → explanation', async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page);

  // The search page keeps its query, filters and the open concept in the URL: a link runs the search.
  await page.goto('/search?q=heart%20attack&vocab=ICD10CM');
  await expect(page.getByLabel('Search text')).toHaveValue('heart attack');
  await expect(page.getByRole('button', { name: 'ICD-10-CM', exact: true })).toHaveAttribute('aria-pressed', 'true');
  const row = page
    .getByTestId('search-row')
    .filter({ has: page.locator('code', { hasText: /^I21\.\d/ }) })
    .first();
  await expect(row).toBeVisible({ timeout: 60_000 });
  const pdx = ((await row.getByTestId('result-code').textContent()) ?? '').trim();
  // Details panel: focus moves in, the URL names the concept, Esc closes it and focus returns to the code.
  await row.getByTestId('result-code').click();
  const drawer = page.getByTestId('concept-drawer');
  await expect(drawer.getByTestId('drawer-title')).toBeFocused();
  await expect(page).toHaveURL(/concept=\d+/);
  await expect(drawer.getByTestId('drawer-billable')).toBeVisible();
  await expect(drawer.getByTestId('tabular-notes')).toContainText('FY2017');
  await expect(drawer.getByTestId('tabular-level-category').getByTestId('tabular-excludes2')).toContainText('old myocardial infarction (I25.2)');
  // chapter and section notes apply to every code under them, labelled with their level and the source year
  const chapter = drawer.getByTestId('tabular-level-chapter');
  await expect(chapter).toContainText('Chapter · FY2017');
  await expect(chapter).toContainText('I00-I99');
  await expect(chapter.getByTestId('tabular-excludes2')).toContainText('certain conditions originating in the perinatal period (P04-P96)');
  const section = drawer.getByTestId('tabular-level-section');
  await expect(section).toContainText('Section · FY2017');
  await expect(section).toContainText('I20-I25');
  await expect(section.getByTestId('tabular-useAdditionalCode')).toContainText('code to identify presence of hypertension (I10-I16)');
  const order = await drawer.locator('[data-level]').evaluateAll((els) => els.map((e) => e.getAttribute('data-level')));
  expect(order.slice(0, 3)).toEqual(['chapter', 'section', 'category']);
  await chapter.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/tabular-levels-1280.png` });
  const table = await page.getByTestId('search-results').boundingBox();
  const panel = await drawer.boundingBox();
  expect(table && panel && table.x + table.width <= panel.x + 1).toBeTruthy();
  await page.screenshot({ path: `${SHOTS}/search-drawer-1280.png`, fullPage: false });
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  await expect(row.getByTestId('result-code')).toBeFocused();
  await expect(page).not.toHaveURL(/concept=/);

  await row.getByTestId('add-to-case').click();
  await expect(row.getByTestId('added-to-case')).toContainText(`Added ${pdx}`);
  await row.getByTestId('open-case').click();
  await expect(page).toHaveURL(new RegExp(`/grouper\\?dx=${pdx.replace('.', '')}`));
  const dxList = page.getByTestId('codes-dx');
  await expect(dxList.locator('li')).toHaveCount(1);

  // Code entry: words go to the search engine; whole words and prefixes only.
  const dx = page.getByLabel(/^Diagnoses/);
  await dx.fill('tent');
  await expect(page.getByTestId('suggest-dx')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('suggest-dx')).not.toContainText('Latent yaws');
  await dx.fill('zzqxv blorf');
  await expect(page.getByTestId('no-matches')).toContainText('No matches');
  // Free text + Enter is refused in place; nothing is added.
  await dx.fill('heart failure');
  await dx.press('Enter');
  await expect(page.getByTestId('picker-msg-dx')).toContainText('“heart failure” is not a code');
  await expect(dxList.locator('li')).toHaveCount(1);
  await expect(dxList).not.toContainText('HEA');
  // More than 8 suggestions, in a scrolling list.
  await expect(page.getByTestId('suggest-dx').getByRole('option').nth(8)).toBeAttached({ timeout: 30_000 });
  const scrolls = await page.getByTestId('suggest-dx').evaluate((el) => el.scrollHeight > el.clientHeight);
  expect(scrolls).toBe(true);
  // A header typed as a code is refused; an unknown code is refused.
  await dx.fill('I50.2');
  await dx.press('Enter');
  await expect(page.getByTestId('picker-msg-dx')).toContainText('is not a code the grouper accepts in v40');
  await dx.fill('ZZZ99');
  await dx.press('Enter');
  await expect(page.getByTestId('picker-msg-dx')).toContainText('ZZZ.99 is not a valid ICD-10-CM diagnosis code in v40');
  await expect(dxList.locator('li')).toHaveCount(1);
  // Enter adds exactly the highlighted suggestion.
  await dx.fill('I50.2');
  await expect(page.getByRole('option', { name: /I50\.21/ })).toBeVisible();
  await expect(page.getByTestId('suggest-dx')).toHaveAttribute('aria-busy', 'false');
  const highlighted = page.getByTestId('suggest-dx').locator('[aria-selected="true"]');
  for (let i = 0; i < 6; i++) {
    await dx.press('ArrowDown');
    if (((await highlighted.textContent({ timeout: 2_000 }).catch(() => '')) ?? '').includes('I50.21')) break;
  }
  await expect(highlighted).toContainText('I50.21');
  await dx.press('Enter');
  await expect(dxList.locator('li')).toHaveCount(2);
  await expect(dxList.locator('li').nth(1)).toContainText('I50.21');
  await page.getByLabel('Present on admission for I50.21').selectOption('Y');
  // A typed valid procedure code is accepted.
  const pr = page.getByLabel(/^Procedures/);
  await pr.fill('02703DZ');
  await pr.press('Enter');
  await expect(page.getByTestId('codes-pr')).toContainText('02703DZ');

  // The full discharge-status list.
  expect(await page.getByLabel('Discharge status').locator('option').count()).toBeGreaterThanOrEqual(30);
  await page.getByRole('radio', { name: 'Male', exact: true }).check();
  const dxCodes = [pdx.replace('.', ''), 'I5021'];
  const expected = await groupCase('v40', { dx: dxCodes, pr: ['02703DZ'], sex: 'M', alive: true, poa: ['', 'Y'] });
  const grouper = await getGrouper('v40');
  await page.getByRole('button', { name: 'Group', exact: true }).click();
  const card = page.getByTestId('drg-result');
  await expect(page.getByTestId('drg-number')).toContainText(expected.drg);
  await expect(card).toHaveAttribute('data-stale', 'false');
  for (const c of expected.all_candidates) await expect(page.getByTestId('drg-candidates')).toContainText(`${c} ${grouper.drgTitle(Number(c))}`);
  await expect(page.getByTestId('drg-severity')).toContainText(expected.severity === 'MCC' ? 'MCC' : expected.severity === 'CC' ? 'CC' : 'none');
  await page.screenshot({ path: `${SHOTS}/grouper-result-1280.png`, fullPage: true });

  // The case is in the URL and in storage (codes only; no free text).
  await expect(page).toHaveURL(/poa=,Y/);
  expect(page.url()).not.toContain('heart');
  const stored = await page.evaluate(() => window.localStorage.getItem('cg.case.v1'));
  expect(JSON.parse(stored ?? '{}')).toMatchObject({ dx: dxCodes, pr: ['02703DZ'], sex: 'M' });
  expect(stored).not.toContain('heart');

  // Change the case: the card goes stale at once; regroup clears it.
  await page.getByRole('button', { name: 'Remove I50.21' }).click();
  await expect(card).toHaveAttribute('data-stale', 'true');
  await expect(page.getByTestId('drg-stale')).toContainText('Out of date');
  await page.screenshot({ path: `${SHOTS}/grouper-stale-1280.png`, fullPage: false });
  const expected2 = await groupCase('v40', { dx: [dxCodes[0]!], pr: ['02703DZ'], sex: 'M', alive: true });
  await page.getByRole('button', { name: 'Group', exact: true }).click();
  await expect(card).toHaveAttribute('data-stale', 'false');
  await expect(page.getByTestId('drg-number')).toContainText(expected2.drg);
  await expect(page.getByTestId('drg-explanation')).toContainText(`Principal diagnosis ${pdx}`);
  // Sex changes make it stale too.
  await page.getByRole('radio', { name: 'Female', exact: true }).check();
  await expect(card).toHaveAttribute('data-stale', 'true');

  // Reload and Back keep the case; the sidebar links to it.
  await page.reload();
  await expect(page.getByTestId('codes-dx').locator('li')).toHaveCount(1);
  await expect(page.getByTestId('codes-pr')).toContainText('02703DZ');
  await expect(page.getByRole('radio', { name: 'Female', exact: true })).toBeChecked();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Search' }).click();
  await expect(page.getByRole('heading', { name: 'Search' })).toBeVisible();
  await page.getByTestId('case-link').click();
  await expect(page.getByTestId('codes-pr')).toContainText('02703DZ');
  await page.goBack();
  await expect(page).toHaveURL(/\/search/);
  await page.goBack();
  await expect(page).toHaveURL(/\/grouper\?/);
  await expect(page.getByTestId('codes-dx')).toContainText(pdx);

  // The same pages at 800 px.
  await page.setViewportSize({ width: 800, height: 1000 });
  await page.getByRole('radio', { name: 'Male', exact: true }).check();
  await page.getByRole('button', { name: 'Group', exact: true }).click();
  await expect(page.getByTestId('drg-number')).toContainText(expected2.drg);
  await page.screenshot({ path: `${SHOTS}/grouper-result-800.png`, fullPage: true });
  await page.goto('/search?q=heart%20attack&vocab=ICD10CM');
  await page.getByTestId('result-code').first().click();
  await expect(page.getByTestId('drawer-title')).toBeFocused();
  await page.screenshot({ path: `${SHOTS}/search-drawer-800.png`, fullPage: true });
});

test('layout and accessibility: collapsed navigation at 800 px, page titles, favicon, 404, axe', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 800, height: 900 });
  await signIn(page);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav).toBeHidden();
  const sidebar = await page.locator('.sidebar').boundingBox();
  expect(sidebar!.height).toBeLessThan(120);
  await page.screenshot({ path: `${SHOTS}/home-800.png` });
  await page.getByRole('button', { name: 'Menu' }).click();
  await expect(nav).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/menu-open-800.png` });
  await nav.getByRole('link', { name: 'Group a case' }).click();
  await expect(page.getByRole('heading', { name: 'Group a case' })).toBeVisible();
  await expect(nav).toBeHidden();
  await expect(page).toHaveTitle('Group a case · Coding Gateway');
  await axe(page, '/grouper');
  await page.goto('/search');
  await expect(page).toHaveTitle('Search · Coding Gateway');
  await axe(page, '/search');

  for (const path of ['/batches', '/agent']) {
    await page.goto(path);
    await axe(page, path);
  }
  // The API reference renders its Markdown and starts "Try it" from a working example body.
  await page.goto('/docs');
  await expect(page).toHaveTitle('API reference · Coding Gateway');
  await page.getByRole('button', { name: /Classify one encounter into an MS-DRG/ }).click();
  const op = page.locator('.op-body');
  await expect(op.locator('strong').filter({ hasText: 'Request.' })).toBeVisible();
  await expect(op.locator('code').filter({ hasText: 'dx_codes' }).first()).toBeVisible();
  await expect(op.locator('textarea')).toHaveValue(/"I21\.4"/);
  await axe(page, '/docs');

  const icon = await page.request.get('/icon.svg');
  expect(icon.status()).toBe(200);
  expect(await page.locator('link[rel="icon"]').count()).toBeGreaterThan(0);

  const res = await page.goto('/no-such-page');
  expect(res?.status()).toBe(404);
  await expect(page.getByTestId('not-found')).toContainText('Page not found');
  await expect(page).toHaveTitle(/Page not found/);
  await page.screenshot({ path: `${SHOTS}/404-800.png` });
  await page.getByRole('link', { name: 'Back to the start page' }).click();
  await expect(page.getByRole('heading', { name: 'Welcome' })).toBeVisible();
});

test('sign in returns to the page asked for; sign out and back in on this (non-default) port', async ({ page, baseURL }) => {
  await page.goto('/grouper?dx=I214&sex=M');
  await expect(page).toHaveURL(/\/signin\?callbackUrl=/);
  await expect(page).toHaveTitle('Sign in · Coding Gateway');
  await page.getByLabel('E-mail').fill(ADMIN.email);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(`${baseURL}/grouper?dx=I214&sex=M`);
  await expect(page.getByTestId('codes-dx')).toContainText('I21.4');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(`${baseURL}/signin`);
  await signIn(page);
  expect(page.url().startsWith(baseURL!)).toBe(true);
});

test('the agent says what it assumed and offers the alternatives; its codes are added to the case, not replacing it', async ({ page }) => {
  await signIn(page);
  await page.goto('/grouper?dx=E11.9&v=v43');
  await expect(page.getByTestId('codes-dx')).toContainText('E11.9');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'DRG agent' }).click();
  // the agent groups with the case's version
  await expect(page.getByRole('combobox', { name: 'Grouper version' })).toHaveValue('v43');
  await page
    .getByLabel('Clinical note')
    .fill('Diagnosis: NSTEMI\nComorbidities: diabetes mellitus\nProcedure: PCI with stenting\n62 year old man. Discharged day 3.');
  await page.getByRole('checkbox', { name: 'Text is already de-identified' }).check();
  await page.getByRole('button', { name: 'Run agent' }).click();
  const row = page.getByTestId('agent-codes').locator('tr[data-code="027034Z"]');
  await expect(row).toBeVisible({ timeout: 60_000 });
  await expect(row.getByTestId('agent-assumption').first()).toContainText('the note does not say the stent type: drug-eluting');
  await expect(row.getByTestId('agent-assumption').first()).toContainText('02703DZ');
  await expect(row.getByTestId('agent-assumption').nth(1)).toContainText('number of arteries treated');
  await page.setViewportSize({ width: 1280, height: 900 });
  await row.scrollIntoViewIfNeeded();
  // beyond stents: a diagnosis whose type the note does not give (diabetes → E11.9, type 2 by the index default)
  const dm = page.getByTestId('agent-codes').locator('tr[data-agent-code="E119"]');
  await expect(dm.locator('[data-about="type of diabetes"]')).toContainText('type 2');
  await expect(dm.locator('[data-about="type of diabetes"]')).toContainText('E10.9');
  await expect(dm.locator('[data-about="type of diabetes"]')).toContainText('E13.9');
  await page.screenshot({ path: `${SHOTS}/agent-assumptions-1280.png` });
  // the coder swaps in an alternative: bare-metal instead of drug-eluting; undo, and swap again
  await row.getByRole('button', { name: 'Use 02703DZ (bare-metal stent) instead of 027034Z' }).click();
  const swappedRow = page.getByTestId('agent-codes').locator('tr[data-agent-code="027034Z"]');
  await expect(swappedRow).toHaveAttribute('data-code', '02703DZ');
  await expect(swappedRow.getByTestId('agent-swap-note')).toContainText('stent type: bare-metal stent');
  await expect(page.getByTestId('agent-swapped')).toContainText('1 code swapped');
  await expect(page.getByTestId('agent-grouper-link')).toHaveAttribute('href', /pr=02703DZ/);
  await swappedRow.getByTestId('agent-swap-undo').click();
  await expect(swappedRow).toHaveAttribute('data-code', '027034Z');
  await expect(page.getByTestId('agent-swapped')).toBeHidden();
  await swappedRow.getByRole('button', { name: 'Use 02703DZ (bare-metal stent) instead of 027034Z' }).click();
  await axe(page, 'agent with a swapped code');
  await page.screenshot({ path: `${SHOTS}/agent-swapped-1280.png` });
  await page.getByTestId('agent-add-to-case').click();
  await expect(page.getByTestId('agent-added')).toContainText('Added');
  await page.getByTestId('agent-added').getByRole('link', { name: 'Open case' }).click();
  const dx = page.getByTestId('codes-dx');
  await expect(dx.locator('li').first()).toContainText('E11.9');
  await expect(dx).toContainText('I21.4');
  // the case gets the code the coder chose, not the agent's
  await expect(page.getByTestId('codes-pr')).toContainText('02703DZ');
  await expect(page.getByTestId('codes-pr')).not.toContainText('027034Z');
});
