import { expect, test } from '@playwright/test';
import { groupCase } from '../server/drg';
import { signIn } from './helpers';

// The page's example note (deterministic engine: the e2e server has no AGENT_MODEL). Expected codes are written by
// hand; the expected DRG is the grouper's answer on them (the same tables the server loads).
const EXPECTED_DX = ['J189', 'N179', 'E119', 'I10', 'Z8673'];

test('DRG agent: paste a note, see codes with evidence, the DRG card and the receipt, then adjust on Group a case', async ({ page }) => {
  test.setTimeout(120_000);
  const expected = await groupCase('v40', { dx: EXPECTED_DX, sex: 'M', alive: true });

  await signIn(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'DRG agent' }).click();
  await expect(page.getByRole('heading', { name: 'DRG agent' })).toBeVisible();

  await page.getByRole('button', { name: 'Load example' }).click();
  await expect(page.getByLabel('Clinical note')).toHaveValue(/Community acquired pneumonia/);
  await page.getByRole('button', { name: 'Run agent' }).click();

  // engine and cost
  await expect(page.getByTestId('agent-engine')).toHaveText('deterministic', { timeout: 60_000 });
  await expect(page.getByTestId('agent-usage')).toContainText('tokens 0 in / 0 out');

  // codes with evidence
  await expect(page.getByTestId('agent-principal')).toContainText('J18.9');
  const codes = page.getByTestId('agent-codes');
  for (const c of ['J18.9', 'N17.9', 'E11.9', 'I10', 'Z86.73']) await expect(codes).toContainText(c);
  await expect(codes.locator('tr[data-code="N179"]')).toContainText('CC');
  const evidence = page.getByTestId('agent-evidence');
  await expect(evidence.locator('mark[data-kind="principal"]').first()).toHaveText(/Community acquired pneumonia/);
  await expect(evidence.locator('mark[data-kind="excluded"]', { hasText: 'pleural effusion' })).toBeVisible();
  await expect(page.getByTestId('agent-not-coded')).toContainText('pleural effusion');

  // the DRG card of the grouper, with its explanation
  await expect(page.getByTestId('drg-number')).toContainText(expected.drg);
  await expect(page.getByTestId('drg-description')).toHaveText(expected.description);
  await expect(page.getByTestId('drg-explanation')).toContainText('Principal diagnosis J18.9');

  // the receipt: counts only, the name and IC were caught
  const receipt = page.getByTestId('agent-receipt');
  await expect(receipt.getByTestId('receipt-status')).toHaveText('ok');
  await expect(receipt.getByTestId('receipt-entities')).not.toHaveText('none');
  await expect(receipt.getByTestId('agent-receipt-json')).not.toContainText('Tan Ah Kow');

  // adjust the codes on the Group a case page
  await page.getByTestId('agent-grouper-link').click();
  await expect(page).toHaveURL(/\/grouper\?dx=J18\.9/);
  const dxList = page.getByTestId('codes-dx');
  await expect(dxList.locator('li')).toHaveCount(EXPECTED_DX.length);
  await expect(dxList.locator('li').first()).toContainText('J18.9');
  await expect(dxList.locator('li').first()).toContainText('principal');
});

test('DRG agent: a note with nothing codable gives no DRG', async ({ page }) => {
  await signIn(page);
  await page.goto('/agent');
  await page.getByLabel('Clinical note').fill('Denies fever. No cough. No chest pain. Well.');
  await page.getByRole('button', { name: 'Run agent' }).click();
  await expect(page.getByTestId('agent-summary')).toContainText('No codable diagnosis was found', { timeout: 60_000 });
  await expect(page.getByTestId('drg-result')).toHaveCount(0);
});
