import { expect, test } from '@playwright/test';
import { groupCase } from '../server/drg';
import { signIn } from './helpers';

// Expected values come from the grouper core itself (the same tables the server loads).

test('group a case: autocomplete, result card with the explanation, copy as JSON, FHIR tab', async ({ page }) => {
  const expected = await groupCase('v40', { dx: ['I214', 'E1165'], pr: ['02703DZ'], sex: 'M', alive: true });
  expect(expected.drg).toBe('249');

  await signIn(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Group a case' }).click();
  await expect(page.getByRole('heading', { name: 'Group a case' })).toBeVisible();

  // Diagnoses: pick I21.4 from the autocomplete; E11.65 with the keyboard.
  const dx = page.getByLabel(/^Diagnoses/);
  await dx.fill('I214');
  const option = page.getByRole('option', { name: /I21\.4\s+Non-ST elevation/ });
  await expect(option).toBeVisible();
  await option.click();
  await dx.fill('E1165');
  await expect(page.getByRole('option', { name: /E11\.65/ })).toBeVisible();
  await dx.press('ArrowDown');
  await dx.press('Enter');
  // Procedure typed as a code and added with Enter.
  const pr = page.getByLabel(/^Procedures/);
  await pr.fill('02703DZ');
  await pr.press('Enter');

  const dxList = page.getByTestId('codes-dx');
  await expect(dxList.locator('li')).toHaveCount(2);
  await expect(dxList.locator('li').first()).toContainText('I21.4');
  await expect(dxList.locator('li').first()).toContainText('principal');
  await expect(page.getByTestId('codes-pr')).toContainText('02703DZ');

  // Sex is required: grouping without it is refused on the page.
  await page.getByRole('button', { name: 'Group', exact: true }).click();
  await expect(page.getByRole('form', { name: 'Case' }).getByRole('alert')).toContainText("Choose the patient's sex");
  await page.getByRole('radio', { name: 'Male', exact: true }).check();
  await page.getByRole('button', { name: 'Group', exact: true }).click();

  const card = page.getByTestId('drg-result');
  await expect(page.getByTestId('drg-number')).toContainText(expected.drg);
  await expect(page.getByTestId('drg-description')).toHaveText(expected.description);
  await expect(page.getByTestId('drg-mdc')).toContainText(`MDC ${expected.mdc} · ${expected.mdc_description}`);
  await expect(page.getByTestId('drg-type')).toContainText('P');
  await expect(page.getByTestId('drg-return-code')).toHaveText('OK');
  for (const c of expected.all_candidates) await expect(page.getByTestId('drg-candidates')).toContainText(c);
  const why = page.getByTestId('drg-explanation');
  await expect(why).toContainText(`Principal diagnosis I21.4 (Non-ST elevation (NSTEMI) myocardial infarction) places the case in MDC ${expected.mdc}`);
  await expect(why).toContainText('02703DZ is an O.R. procedure and took part in the DRG assignment');
  await expect(why).toContainText('E11.65 is neither a CC nor an MCC in v40');
  await expect(page.getByTestId('drg-procedures')).toContainText('O.R.');
  await expect(card.getByRole('button', { name: 'Copy JSON' })).toBeVisible();

  // FHIR tab: the example Bundle (same codes, male, home) classifies to the same DRG; a non-Bundle is an OperationOutcome.
  await page.getByRole('tab', { name: 'FHIR' }).click();
  await page.getByRole('button', { name: 'Load example' }).click();
  await page.getByRole('button', { name: 'Classify Bundle' }).click();
  await expect(page.getByTestId('fhir-drg')).toContainText(expected.drg);
  await expect(page.getByTestId('fhir-dropped')).toContainText('Patient.name');
  await expect(page.getByTestId('fhir-dropped')).toContainText('Patient.identifier');
  await page.getByTestId('fhir-input').fill('{"resourceType": "Patient", "gender": "male"}');
  await page.getByRole('button', { name: 'Classify Bundle' }).click();
  const outcome = page.getByTestId('fhir-outcome');
  await expect(outcome).toContainText('OperationOutcome (HTTP 400)');
  await expect(outcome).toContainText('Expected a Bundle');
});

test('prefilled from ?dx=&pr= (the Search page links), explains the MCC that counted', async ({ page }) => {
  const expected = await groupCase('v40', { dx: ['I214', 'I5021'], pr: ['02703DZ'], sex: 'F', alive: true });
  expect(expected.severity_driver).toBe('I5021');

  await signIn(page);
  await page.goto('/grouper?dx=I21.4&dx=i50.21&pr=02703DZ');
  const dxList = page.getByTestId('codes-dx');
  await expect(dxList.locator('li')).toHaveCount(2);
  await expect(dxList.locator('li').nth(1)).toContainText('I50.21');
  await page.getByRole('radio', { name: 'Female', exact: true }).check();
  await page.getByRole('button', { name: 'Group', exact: true }).click();
  await expect(page.getByTestId('drg-number')).toContainText(expected.drg);
  await expect(page.getByTestId('drg-severity')).toContainText('MCC (from I50.21)');
  await expect(page.getByTestId('drg-explanation')).toContainText('I50.21 is an MCC and sets the severity of the DRG');
  // Titles of the prefilled codes are filled in from the result.
  await expect(dxList.locator('li').nth(1)).toContainText('Acute systolic (congestive) heart failure');
});

test('the result card shows the claim edits in words: an age conflict and an external-cause principal diagnosis', async ({ page }) => {
  await signIn(page);
  // O80 is a maternity diagnosis (ages 9-64): at 70 the Medicare Code Editor raises an age conflict.
  await page.goto('/grouper?dx=O80');
  await page.getByLabel('Grouper version').selectOption('v43');
  await page.getByRole('radio', { name: 'Female', exact: true }).check();
  await page.getByLabel('Age in years').fill('70');
  await page.getByLabel('Discharge date').fill('2026-03-02');
  await page.getByRole('button', { name: 'Group', exact: true }).click();
  const edits = page.getByTestId('drg-edits');
  await expect(edits).toContainText('Medicare Code Editor 43.1');
  const age = page.getByTestId('edit-AGE_CONFLICT');
  await expect(age).toContainText('Age conflict');
  await expect(age).toContainText('O80');
  await expect(age).toContainText('O80 is a maternity (ages 9-64) diagnosis; the patient is 70 years old.');
  await expect(age).toContainText('prepayment');
  await expect(page.getByTestId('drg-edit-type')).toContainText('prepayment');

  // An external-cause code as principal diagnosis: DRG 999 from the grouper, the edit in words from the MCE; without
  // an age the card says which edits could not be checked.
  await page.goto('/grouper?dx=W01.0XXA&dx=S72.001A');
  await page.getByRole('radio', { name: 'Male', exact: true }).check();
  await page.getByRole('button', { name: 'Group', exact: true }).click();
  await expect(page.getByTestId('drg-number')).toContainText('999');
  const ecode = page.getByTestId('edit-E_CODE_AS_PDX');
  await expect(ecode).toContainText('External-cause code as principal diagnosis');
  await expect(ecode).toContainText('W010XXA');
  await expect(ecode).toContainText('W01.0XXA is an external-cause code (how the injury happened) and cannot be the principal diagnosis');
  await expect(page.getByTestId('drg-edits-not-checked')).toContainText('Invalid age (needs age)');
});
