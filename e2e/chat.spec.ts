import { expect, test } from '@playwright/test';
import { signIn } from './helpers';
import { startTestUpstream, type TestUpstream } from '../tests/fixtures/test-upstream';

/**
 * The Models page and the Chat playground. The spec starts the OpenAI-compatible test upstream itself (in the
 * Playwright process) and registers it through the Models page as the organisation's own model, so no environment
 * set-up is needed; the server under test is `npm start`'s code.
 */
let up: TestUpstream;
test.beforeAll(async () => {
  up = await startTestUpstream();
});
test.afterAll(async () => {
  await up?.close();
});

const NAME = 'Ahmad Faizal bin Ismail';
const IC = '850101-14-5673';

async function addModel(page: import('@playwright/test').Page, name: string, upstreamModel: string, approved: boolean) {
  const form = page.getByRole('form', { name: 'Add a model' });
  await form.getByLabel(/^Name/).fill(name);
  await form.getByLabel('Base URL').fill(up.baseUrl);
  await form.getByLabel('Upstream model').fill(upstreamModel);
  if (approved) await form.getByLabel('Approved for PHI traffic').check();
  await form.getByRole('button', { name: 'Add model' }).click();
  await expect(page.getByTestId('models-table').locator(`tr[data-model="${name}"]`)).toBeVisible();
}

test('register models, chat through the gateway, see redacted vs restored side by side with receipts', async ({ page }) => {
  await signIn(page);
  await page.getByRole('link', { name: 'Models' }).click();
  await expect(page.getByRole('heading', { name: 'Models', exact: true })).toBeVisible();
  await addModel(page, 'e2e-echo', 'echo', true);
  await addModel(page, 'e2e-alter', 'alter', true);
  await addModel(page, 'e2e-unapproved', 'echo', false);
  await expect(page.getByTestId('models-table').locator('tr[data-model="e2e-unapproved"]')).toContainText('not approved');
  // a key variable outside the organisation's prefix is refused with a clear message
  const form = page.getByRole('form', { name: 'Add a model' });
  await form.getByLabel(/^Name/).fill('e2e-bad-key');
  await form.getByLabel('Base URL').fill(up.baseUrl);
  await form.getByLabel('Upstream model').fill('echo');
  await form.getByLabel('Key variable (optional)').fill('OPENAI_API_KEY');
  await form.getByRole('button', { name: 'Add model' }).click();
  await expect(form.getByRole('alert')).toContainText('LLM_ORG_');

  await page.getByRole('link', { name: 'Chat playground' }).click();
  await expect(page.getByRole('heading', { name: 'Chat playground' })).toBeVisible();
  const select = page.getByTestId('model-select');
  await expect(select.locator('option[value="e2e-unapproved"]')).toBeDisabled();
  await select.selectOption('e2e-echo');

  up.reset();
  await page.getByTestId('chat-input').fill(`Summarise: Pt ${NAME}, IC ${IC}, admitted with NSTEMI.`);
  await page.getByRole('button', { name: 'Send' }).click();
  const turn = page.getByTestId('turn-0');
  // left: what the model received and answered (placeholders); right: what the user sees (originals)
  await expect(turn.getByTestId('sent-user')).toContainText('[PERSON_1]');
  await expect(turn.getByTestId('sent-user')).toContainText('[MY_IC_1]');
  await expect(turn.getByTestId('sent-user')).not.toContainText(NAME);
  await expect(turn.getByTestId('model-answer')).toContainText('[PERSON_1]');
  await expect(turn.getByTestId('seen-answer')).toHaveText(`Summarise: Pt ${NAME}, IC ${IC}, admitted with NSTEMI.`);
  await expect(turn.getByTestId('turn-rehydration')).toHaveText('complete');
  await expect(turn.getByTestId('turn-entities')).toContainText('PERSON 1');
  await expect(turn.getByTestId('turn-entities')).toContainText('MY_IC 1');
  // what actually left the server
  expect(up.requests).toHaveLength(1);
  expect(up.requests[0]!.raw).not.toContain(NAME);
  expect(up.requests[0]!.raw).not.toContain(IC);

  // second turn on a model that alters placeholders: the receipt reports the invented one
  await select.selectOption('e2e-alter');
  await page.getByTestId('chat-input').fill(`And ${NAME}'s wife?`);
  await page.getByRole('button', { name: 'Send' }).click();
  const turn2 = page.getByTestId('turn-1');
  await expect(turn2.getByTestId('seen-answer')).toContainText(NAME);
  await expect(turn2.getByTestId('seen-answer')).toContainText('[PERSON_9999]');
  await expect(turn2.getByTestId('turn-unresolved')).toHaveText('1');
  await expect(turn2.getByTestId('turn-rehydration')).toHaveText('incomplete');
  // the whole conversation was resent, redacted with the same placeholders as turn 1
  const second = up.requests[1]!.body as { messages: Array<{ role: string; content: string }> };
  expect(second.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
  expect(second.messages[0]!.content).toContain('[PERSON_1]');
  expect(up.requests[1]!.raw).not.toContain(NAME);

  // removing a model: it disappears from the registry
  await page.getByRole('link', { name: 'Models' }).click();
  page.once('dialog', (d) => void d.accept());
  await page.getByTestId('models-table').locator('tr[data-model="e2e-unapproved"]').getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByTestId('models-table').locator('tr[data-model="e2e-unapproved"]')).toHaveCount(0);
});
