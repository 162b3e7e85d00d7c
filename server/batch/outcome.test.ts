import { beforeAll, describe, expect, it } from 'vitest';
import { getGrouper, type Grouper } from '../drg';
import { batchConfig, ledgerRef } from './config';
import { caseEdits, classifyCase } from './outcome';

let g: Grouper;
beforeAll(async () => {
  g = await getGrouper('v40');
});

describe('batch case outcome', () => {
  it('a groupable case is done, with the grouper result', () => {
    const o = classifyCase(g, { dx_codes: ['I214', 'I5021'], pr_codes: ['027034Z'], gender: 'M', is_alive: true });
    const want = g.group({ dx: ['I214', 'I5021'], pr: ['027034Z'], sex: 'M', alive: true, dischargeStatus: 1 });
    expect(o.status).toBe('done');
    if (o.status !== 'done') return;
    expect(o.result).toMatchObject({
      primary_drg: want.drg,
      mdc: want.mdc,
      description: want.description,
      type: 'P',
      return_code: 'OK',
      all_candidates: want.all_candidates,
      version: 'v40',
      fiscal_year: want.fiscal_year,
    });
    expect(o.result.all_candidates[0]).toBe(want.drg);
  });

  it('is_alive and discharge status reach the grouper', () => {
    const alive = classifyCase(g, { dx_codes: ['I214'], pr_codes: [], gender: 'M', is_alive: true });
    const died = classifyCase(g, { dx_codes: ['I214'], pr_codes: [], gender: 'M', is_alive: false });
    expect(alive.status === 'done' && died.status === 'done').toBe(true);
    if (alive.status === 'done' && died.status === 'done') expect(died.result.primary_drg).not.toBe(alive.result.primary_drg);
  });

  it('DRG 999 is a failed case carrying the CMS return code and a readable error', () => {
    const o = classifyCase(g, { dx_codes: ['ZZZ999'], pr_codes: [], gender: 'F', is_alive: true });
    expect(o).toMatchObject({ status: 'failed', error_code: 'INVALID_PDX' });
    if (o.status === 'failed') {
      expect(o.error).toMatch(/^ungroupable, DRG 999 INVALID_PDX: the principal diagnosis is not a valid ICD-10-CM code/);
      expect(o.error).toContain('ZZZ999');
    }
  });

  it("a case's Medicare Code Editor edits follow from the stored case and the batch version", () => {
    const ecodeCase = { dx_codes: ['W010XXA'], pr_codes: [], gender: 'F' as const, is_alive: true, discharge_date: '2023-03-01', age: 70 };
    expect(classifyCase(g, ecodeCase)).toMatchObject({ status: 'failed', error_code: 'DX_CANNOT_BE_PDX' });
    const ecode = caseEdits(g, ecodeCase);
    expect(ecode.edits.map((e) => e.edit)).toContain('E_CODE_AS_PDX');
    expect(ecode.mce).toMatchObject({ discharge_date: '2023-03-01', discharge_date_source: 'given', edit_type: 'PREPAYMENT' });
    const done = caseEdits(g, { dx_codes: ['O80'], pr_codes: [], gender: 'F', is_alive: true, age: 70 });
    expect(done.edits.find((e) => e.edit === 'AGE_CONFLICT')).toMatchObject({ codes: ['O80'], payment: 'prepayment' });
    expect(done.mce?.discharge_date_source).toBe('assumed');
  });

  it('a grouper exception is a failed case, not a crash', () => {
    const throwing = {
      ...g,
      group: () => {
        throw new Error('boom');
      },
    } as unknown as Grouper;
    expect(classifyCase(throwing, { dx_codes: ['I214'], pr_codes: [], gender: 'M', is_alive: true })).toEqual({
      status: 'failed',
      error_code: 'grouper_error',
      error: 'grouper error: boom',
    });
  });

  it('settings have spec-safe defaults and refuse nonsense', () => {
    const c = batchConfig({});
    expect(c).toEqual({
      priceMicros: 1000,
      chunkSize: 125,
      workerConcurrency: 4,
      chunkExpireSeconds: 60,
      maxAttempts: 5,
      resumeCheckSeconds: 30,
      sweepSeconds: 60,
      duplicateWindowHours: 24,
    });
    expect(batchConfig({ DRG_BATCH_DUPLICATE_WINDOW_HOURS: '0' }).duplicateWindowHours).toBe(0);
    expect(() => batchConfig({ DRG_BATCH_DUPLICATE_WINDOW_HOURS: '-1' })).toThrow(/DRG_BATCH_DUPLICATE_WINDOW_HOURS/);
    expect(batchConfig({ DRG_BATCH_PRICE_MICROS: '2500', DRG_BATCH_CHUNK_SIZE: '' }).priceMicros).toBe(2500);
    expect(() => batchConfig({ DRG_BATCH_CHUNK_SIZE: '0' })).toThrow(/DRG_BATCH_CHUNK_SIZE/);
    expect(() => batchConfig({ DRG_BATCH_PRICE_MICROS: '-1' })).toThrow(/DRG_BATCH_PRICE_MICROS/);
    expect(ledgerRef('job', 7)).toBe('drg_batch:job:7');
  });
});
