import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { signIn } from './helpers';

/** Independent of other specs and earlier runs: it asserts on the jobs it creates (by id), not on the whole list. */
const jobIdOf = (url: string) => new URL(url).searchParams.get('job')!;

test('submit a pasted batch, watch it finish, filter failed cases, download CSV; upload a CSV file', async ({ page }) => {
  await signIn(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Batches', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Batches', level: 1 })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'MS-DRG version' })).toHaveValue('v40'); // the server's list and default
  await expect(page.getByRole('option', { name: /^v43 / })).toHaveCount(1);

  // Paste: the example holds 4 cases, one with an invalid principal diagnosis.
  await page.getByRole('button', { name: 'Load example' }).click();
  await expect(page.getByTestId('parse-status')).toHaveText('4 cases ready (JSON).');
  await page.getByRole('button', { name: 'Submit batch' }).click();

  const job = page.getByTestId('batch-job');
  await expect(job).toBeVisible();
  await expect(page).toHaveURL(/\/batches\?job=[0-9a-f-]{36}$/);
  const firstJob = jobIdOf(page.url());
  await expect(job.getByRole('progressbar', { name: 'Batch progress' })).toHaveAttribute('aria-valuenow', '100', { timeout: 30_000 });
  await expect(job.getByTestId('job-status')).toHaveText('done');
  await expect(job.getByTestId('count-done')).toHaveText('3');
  await expect(job.getByTestId('count-failed')).toHaveText('1');
  await expect(job.getByTestId('count-pending')).toHaveText('0');
  const results = job.getByTestId('batch-results');
  await expect(results.locator('tbody tr')).toHaveCount(4);
  await expect(results.locator('tbody tr').first()).toContainText('enc-1001');
  await expect(results.locator('tbody tr').first().locator('td').nth(4)).toHaveText(/^\d{3}$/);
  const drg1 = (await results.locator('tbody tr').first().locator('td').nth(4).textContent())!;
  // Each row shows its submitted codes; row numbers are the export's `row` column.
  await expect(results.locator('tbody tr').first().getByTestId('case-codes')).toContainText(/I21\.?4 I50\.?21 E11\.?9 · 027034Z/);
  await expect(results.locator('tbody tr').nth(2).locator('td').first()).toHaveText('3');

  // Open one case: its full explanation, from the same grouper version.
  await results.getByRole('button', { name: 'Explain row 1' }).click();
  const explain = job.getByTestId('batch-explain');
  await expect(explain.getByTestId('drg-number')).toContainText(drg1);
  await expect(explain.getByTestId('drg-explanation')).toContainText('Principal diagnosis I21.4');
  await expect(explain.getByTestId('batch-open-case')).toHaveAttribute('href', /\/grouper\?dx=I214,I5021,E119&pr=027034Z&sex=M/);
  await page.setViewportSize({ width: 1280, height: 900 });
  await explain.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/workbench/batch-explain-1280.png' });
  await page.setViewportSize({ width: 800, height: 1000 });
  await page.screenshot({ path: 'test-results/workbench/batch-explain-800.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 720 });

  // The same cases again: the page asks before a second billed job; Cancel keeps the finished one.
  await page.getByRole('button', { name: 'Submit batch' }).click();
  await expect(page.getByTestId('resubmit-confirm')).toContainText(firstJob);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('resubmit-confirm')).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`job=${firstJob}$`));
  // ... also after a reload (the browser keeps a fingerprint of the input, never the cases themselves)
  await page.reload();
  await page.getByRole('button', { name: 'Load example' }).click();
  await expect(page.getByTestId('parse-status')).toHaveText('4 cases ready (JSON).');
  expect(await page.evaluate(() => window.localStorage.getItem('cg.batches.submitted') ?? '')).not.toMatch(/enc-1001|I21/);
  await page.getByRole('button', { name: 'Submit batch' }).click();
  await expect(page.getByTestId('resubmit-confirm')).toContainText(firstJob);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('resubmit-confirm')).toBeHidden();

  // Failed only.
  await job.getByLabel('Failed only').check();
  await expect(results.locator('tbody tr')).toHaveCount(1);
  await expect(results.locator('tbody tr').first()).toContainText('enc-1004');
  await expect(results.locator('tbody tr').first()).toContainText('DRG 999 INVALID_PDX');

  // Download CSV (all cases, whatever the filter).
  const downloadPromise = page.waitForEvent('download');
  await job.getByRole('button', { name: 'Download CSV' }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/^drg-batch-[0-9a-f-]{36}\.csv$/);
  const csv = fs
    .readFileSync((await download.path())!, 'utf8')
    .trim()
    .split(/\r?\n/);
  expect(csv[0]).toBe(
    'row,index,case_ref,dx_codes,pr_codes,gender,is_alive,discharge_status,status,primary_drg,description,mdc,type,severity,return_code,version,error_code,error,edits',
  );
  expect(csv).toHaveLength(5);
  // the export carries the input codes, and its row numbers are the screen's
  expect(csv[1]).toMatch(new RegExp(`^1,0,enc-1001,I21\\.?4 I50\\.?21 E11\\.?9,027034Z,M,true,,done,${drg1},`));
  // the last column names each case's Medicare Code Editor edits: the invalid principal diagnosis is INVALID_CODE
  expect(csv[4]).toMatch(/^4,3,enc-1004,ZZZ\.?99,,F,true,,failed,.*,INVALID_PDX,.*,INVALID_CODE\b/);

  // Upload: a CSV with a bad row is refused in the browser, naming the line; a good one is submitted.
  await page.getByRole('tab', { name: 'Upload CSV or JSONL' }).click();
  const fileInput = page.locator('input[type="file"]');
  await fileInput.setInputFiles({
    name: 'bad.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('case_ref,dx_codes,pr_codes,gender,is_alive\nc1,I21.4,,M,true\nc2,,,F,true\n'),
  });
  await expect(page.getByTestId('parse-status')).toContainText('line 3: dx_codes');
  await expect(page.getByRole('button', { name: 'Submit batch' })).toBeDisabled();
  const goodCsv = 'case_ref,dx_codes,pr_codes,gender,is_alive\nfile-1,I21.4;I50.21,027034Z,M,true\nfile-2,J44.1 J96.01,,F,no\n';
  await fileInput.setInputFiles({ name: 'good.csv', mimeType: 'text/csv', buffer: Buffer.from(goodCsv) });
  await expect(page.getByTestId('parse-status')).toHaveText('2 cases ready (CSV).');
  const firstJobUrl = page.url();
  await page.getByRole('button', { name: 'Submit batch' }).click();
  await expect(page).not.toHaveURL(firstJobUrl);
  const secondJob = jobIdOf(page.url());
  await expect(job.getByTestId('job-status')).toHaveText('done', { timeout: 30_000 });
  await expect(job.getByTestId('count-done')).toHaveText('2');
  await expect(job.getByTestId('batch-results')).toContainText('file-2');

  // Both jobs are listed with their status, the newer one above the older.
  const list = page.getByTestId('batch-jobs');
  const first = list.locator(`tr[data-job-id="${firstJob}"]`);
  const second = list.locator(`tr[data-job-id="${secondJob}"]`);
  await expect(first).toContainText('done');
  await expect(second).toContainText('done');
  const ids = await list.locator('tbody tr[data-job-id]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-job-id')));
  expect(ids.indexOf(secondJob)).toBeLessThan(ids.indexOf(firstJob));

  // The server guards too: from a browser that has no record of the first submission (storage cleared), the same cases
  // are refused with 409 duplicate_batch naming the finished job, and nothing is created; confirming sends
  // allow_duplicate and creates a second job.
  await page.evaluate(() => window.localStorage.clear());
  await page.goto('/batches');
  await page.getByRole('button', { name: 'Load example' }).click();
  await expect(page.getByTestId('parse-status')).toHaveText('4 cases ready (JSON).');
  await expect(list.locator(`tr[data-job-id="${secondJob}"]`)).toBeVisible();
  const jobsBefore = await list.locator('tbody tr[data-job-id]').count();
  expect(jobsBefore).toBeGreaterThanOrEqual(2);
  await page.getByRole('button', { name: 'Submit batch' }).click();
  await expect(page.getByTestId('resubmit-confirm')).toContainText(firstJob);
  await expect(page.getByRole('form', { name: 'New batch' }).getByRole('alert')).toHaveCount(0); // the dialog explains it; no error box beside it
  await page.reload();
  await expect(list.locator(`tr[data-job-id="${secondJob}"]`)).toBeVisible();
  await expect(list.locator('tbody tr[data-job-id]')).toHaveCount(jobsBefore);
  await page.getByRole('button', { name: 'Load example' }).click();
  await page.getByRole('button', { name: 'Submit batch' }).click();
  await expect(page.getByTestId('resubmit-confirm')).toContainText(firstJob);
  await page.getByRole('button', { name: 'Submit again (new billed job)' }).click();
  await expect(page).toHaveURL(/\/batches\?job=[0-9a-f-]{36}$/);
  const thirdJob = jobIdOf(page.url());
  expect([firstJob, secondJob]).not.toContain(thirdJob);
  await expect(job.getByTestId('job-status')).toHaveText('done', { timeout: 30_000 });
  await expect(list.locator('tbody tr[data-job-id]')).toHaveCount(jobsBefore + 1);
});

test('a file with more than 1000 cases is refused in the browser before submission', async ({ page }) => {
  await signIn(page);
  await page.goto('/batches');
  await page.getByRole('tab', { name: 'Upload CSV or JSONL' }).click();
  const rows = Array.from({ length: 1001 }, (_, i) => `big-${i},I21.4,,M,true`);
  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: 'big.csv', mimeType: 'text/csv', buffer: Buffer.from(['case_ref,dx_codes,pr_codes,gender,is_alive', ...rows].join('\n')) });
  await expect(page.getByTestId('parse-status')).toHaveText('More than 1000 cases: a batch holds at most 1000; split the file.');
  await expect(page.getByRole('button', { name: 'Submit batch' })).toBeDisabled();
});
