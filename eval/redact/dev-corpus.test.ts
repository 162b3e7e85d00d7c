/**
 * Regression gate on the PHI dev corpus (../shared/eval/phi/dev.jsonl), scored like score.py.
 * Thresholds are the acceptance criteria; the engine is well above them on dev, so a failure means a real regression.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedDir } from '@/server/config/paths';
import { loadGold, predict, scoreCorpus } from '@/eval/redact/evaluation';

const DEV = path.join(sharedDir(), 'eval', 'phi', 'dev.jsonl');

describe.skipIf(!fs.existsSync(DEV))('dev corpus (score.py metrics)', () => {
  it('meets the acceptance thresholds', () => {
    const gold = loadGold(DEV);
    const s = scoreCorpus(gold, predict(gold, { timeBudgetMs: 30_000 }));
    const report = { structured: s.structuredRecall, person: s.byType.PERSON.recall, precision: s.overall.precision, clinical: s.clinicalRate, leaks: s.leaks };
    expect(s.structuredRecall, JSON.stringify(report)).toBeGreaterThanOrEqual(0.99);
    expect(s.byType.PERSON.recall, s.missed.slice(0, 10).join('\n')).toBeGreaterThanOrEqual(0.95);
    expect(s.overall.precision, s.falsePositives.slice(0, 10).join('\n')).toBeGreaterThanOrEqual(0.95);
    expect(s.clinicalRate).toBeLessThanOrEqual(0.01);
    expect(s.leaks, s.leakExamples.join('\n')).toBe(0);
    // tighter regression guards (current dev performance is at or near 100 %)
    expect(s.byType.PERSON.recall).toBeGreaterThanOrEqual(0.99);
    expect(s.overall.precision).toBeGreaterThanOrEqual(0.99);
  });
});
