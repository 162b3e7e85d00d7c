import { describe, expect, it } from 'vitest';
import { DEFAULT_VERSION, listVersions, normalizeVersion, UnknownVersionError } from './versions';

describe('versions', () => {
  it('normalises the accepted spellings', () => {
    const cases: Array<[string | undefined, string]> = [
      [undefined, 'v40'],
      ['', 'v40'],
      ['v40', 'v40'],
      ['40', 'v40'],
      ['V40.0', 'v40'],
      ['v400', 'v40'],
      ['v40.1', 'v40.1'],
      ['401', 'v40.1'],
      ['v41', 'v41'],
      ['v41.1', 'v41.1'],
      ['v42', 'v42'],
      ['v421', 'v42.1'],
      ['43', 'v43'],
      ['v43.0', 'v43'],
      ['v43.1', 'v43.1'],
      ['v39', 'v39'],
      ['v39.1', 'v39'],
      ['v391', 'v39'],
      ['v36', 'v36'],
      ['37.0', 'v37'],
      [' MS-DRG v38 ', 'v38'],
    ];
    for (const [input, want] of cases) expect(normalizeVersion(input), String(input)).toBe(want);
  });

  it('throws a typed error for unknown versions', () => {
    for (const bad of ['v44', 'v35', 'v36.1', 'v40.2', 'latest', 'v4', '4000']) {
      expect(() => normalizeVersion(bad), bad).toThrow(UnknownVersionError);
    }
    try {
      normalizeVersion('v44');
    } catch (e) {
      expect((e as UnknownVersionError).code).toBe('UNKNOWN_VERSION');
      expect((e as UnknownVersionError).known).toContain('v43.1');
    }
  });

  it('lists versions with fiscal year, fidelity and the default', () => {
    const list = listVersions();
    const by = Object.fromEntries(list.map((v) => [v.version, v]));
    expect(by.v40).toEqual({ version: 'v40', fiscal_year: 'FY2023', fidelity: 'exact', default: true });
    expect(by['v40.1'].fiscal_year).toBe('FY2023');
    expect(by.v41.fiscal_year).toBe('FY2024');
    expect(by['v42.1'].fiscal_year).toBe('FY2025');
    expect(by['v43.1']).toMatchObject({ fiscal_year: 'FY2026', fidelity: 'exact' });
    expect(by.v36).toMatchObject({ fiscal_year: 'FY2019', fidelity: 'derived' });
    expect(by.v38.fiscal_year).toBe('FY2021');
    expect(by.v39.fiscal_year).toBe('FY2022');
    expect(list.filter((v) => v.default).map((v) => v.version)).toEqual([DEFAULT_VERSION]);
  });
});
