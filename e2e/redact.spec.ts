import { expect, test } from '@playwright/test';
import { signIn } from './helpers';

const NOTE = `Wad 5A, 12/3/24
Pt: Ahmad Faizal bin Ismail (54M), IC 850101-14-5673
BP 130/80, HR 88. Day 3 post-op, wound clean.
Please update wife Siti Aminah binti Yusof at 012-345 6789.`;
const PHI = ['Ahmad Faizal bin Ismail', '850101-14-5673', 'Siti Aminah binti Yusof', '012-345 6789'];

test('paste a note, see placeholders, highlights, mapping and receipt; then find the receipt in the inspector', async ({ page }) => {
  // every request body the page sends, to prove the mapping is never sent back anywhere
  const bodies: { url: string; body: string }[] = [];
  page.on('request', (r) => {
    const body = r.postData();
    if (body) bodies.push({ url: r.url(), body });
  });

  await signIn(page);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Redaction', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Redaction', exact: true })).toBeVisible();

  await page.getByLabel('Clinical text').fill(NOTE);
  await page.getByRole('button', { name: 'Redact', exact: true }).click();

  // redacted text: placeholders, no PHI, clinical content kept
  const redacted = page.getByTestId('redacted-text');
  await expect(redacted).toContainText('Pt: [PERSON_1] (54M), IC [MY_IC_1]');
  await expect(redacted).toContainText('wife [PERSON_2] at [PHONE_1].');
  await expect(redacted).toContainText('BP 130/80, HR 88. Day 3 post-op');
  for (const v of PHI) await expect(redacted).not.toContainText(v);

  // coloured highlights side by side: the original values on the left, their placeholders on the right
  const original = page.getByTestId('original-text');
  await expect(original.locator('mark[data-entity-type="PERSON"]').first()).toHaveText('Ahmad Faizal bin Ismail');
  await expect(original.locator('mark[data-entity-type="MY_IC"]')).toHaveText('850101-14-5673');
  await expect(original.locator('mark[data-entity-type="PHONE"]')).toHaveText('012-345 6789');
  await expect(original.locator('mark')).toHaveCount(4);
  await expect(redacted.locator('mark')).toHaveText(['[PERSON_1]', '[MY_IC_1]', '[PERSON_2]', '[PHONE_1]']);
  await expect(redacted.locator('mark[data-entity-type="MY_IC"]')).toHaveClass(/redact-type-MY_IC/);
  const bg = await original
    .locator('mark[data-entity-type="PERSON"]')
    .first()
    .evaluate((el) => getComputedStyle(el).backgroundColor);
  const bgIc = await original.locator('mark[data-entity-type="MY_IC"]').evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(bg).not.toBe('rgba(0, 0, 0, 0)');
  expect(bg).not.toBe(bgIc); // one colour per entity type

  // the mapping table
  const mapping = page.getByTestId('mapping-table');
  await expect(mapping.locator('tr[data-placeholder="[PERSON_1]"]')).toContainText('Ahmad Faizal bin Ismail');
  await expect(mapping.locator('tr[data-placeholder="[MY_IC_1]"]')).toContainText('850101-14-5673');
  await expect(mapping.locator('tr[data-placeholder="[PHONE_1]"]')).toContainText('012-345 6789');
  await expect(mapping.locator('tbody tr')).toHaveCount(4);

  // the receipt, as fields and as JSON
  const receipt = page.getByTestId('receipt');
  await expect(receipt.getByTestId('receipt-status')).toHaveText('ok');
  await expect(receipt.getByTestId('receipt-entities')).toContainText('Name 2');
  await expect(receipt.getByTestId('receipt-entities')).toContainText('MyKad / IC 1');
  await expect(receipt.getByTestId('receipt-entities')).toContainText('Phone 1');
  await receipt.getByText('Receipt JSON').click();
  const json = JSON.parse((await receipt.getByTestId('receipt-json').textContent())!) as Record<string, unknown>;
  expect(json).toMatchObject({
    receipt_version: 1,
    status: 'ok',
    retention: 'metadata_only',
    rehydration_complete: null,
    entities_redacted: { PERSON: 2, MY_IC: 1, PHONE: 1 },
  });
  const receiptId = (await receipt.getByTestId('receipt-id').textContent())!;
  expect(receiptId).toMatch(/^[0-9a-f-]{36}$/);

  // the mapping stays in the page: nothing in web storage
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
  for (const v of PHI) expect(stored).not.toContain(v);

  // the receipt inspector lists it; clicking shows its fields (metadata only)
  await nav.getByRole('link', { name: 'Receipts', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Redaction receipts' })).toBeVisible();
  const row = page.getByTestId('receipts-table').locator(`tr[data-receipt-id="${receiptId}"]`);
  await expect(row).toContainText('Redact');
  await expect(row).toContainText('ok');
  await expect(row).toContainText('Name 2');
  await expect(row).toContainText('signed-in user');
  await row.click();
  const detail = page.getByTestId('receipt-detail');
  await expect(detail.getByTestId('receipt-id')).toHaveText(receiptId);
  await expect(detail.getByTestId('receipt-status')).toHaveText('ok');
  await expect(detail.getByTestId('receipt-entities')).toContainText('total 4');
  await expect(detail).toContainText('metadata only');
  for (const v of PHI) await expect(page.locator('body')).not.toContainText(v);

  // only the one redact call carried the note; nothing the page sent afterwards carries a PHI value or the mapping
  const withPhi = bodies.filter((b) => PHI.some((v) => b.body.includes(v)));
  expect(withPhi).toHaveLength(1);
  expect(withPhi[0]!.url).toContain('/api/trpc/redact.redact');
  expect(withPhi[0]!.body).not.toContain('[PERSON_1]');
});
