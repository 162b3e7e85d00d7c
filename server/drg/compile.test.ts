import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compileTables, deserializeCompiled, readCachedCompiled, serializeCompiled, sourceKey, writeCachedCompiled } from './compile';
import { GrouperEngine } from './engine';
import { getGrouper, grouperLoadStats, resetGroupers } from './index';
import { fixtureTables } from '@/tests/fixtures/drg';

const meta = { version: 'v99', fiscalYear: 'FY2099', fidelity: 'exact' as const, sourceKey: 'k1', invalidPrIsOr: false, notes: [] };
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'drg-compile-test-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('compiled form', () => {
  it('round-trips through the binary cache format with identical grouping', () => {
    const t = compileTables(fixtureTables(), meta);
    const back = deserializeCompiled(serializeCompiled(t));
    expect(back.dxCodes).toEqual(t.dxCodes);
    expect(Array.from(back.dxAttrIds)).toEqual(Array.from(t.dxAttrIds));
    expect(back.rows).toEqual(t.rows);
    const a = new GrouperEngine(t);
    const b = new GrouperEngine(back);
    for (const dx of [['A010', 'B010'], ['C010', 'C010'], ['S010', 'S020'], ['N010']]) {
      expect(b.group({ dx, sex: 'F' })).toEqual(a.group({ dx, sex: 'F' }));
    }
  });

  it('interns attributes and marks control rows', () => {
    const t = compileTables(fixtureTables(), meta);
    expect(t.rows.find((r) => r.formula === 'INVALID_PDX')?.grc).toBe('INVALID_PDX');
    expect(t.rows.find((r) => r.formula === 'MDC00')?.inert).toBe(true);
    expect(t.attrNames.filter((n) => n === 'd468')).toHaveLength(1);
  });

  it('keys the cache on file size/mtime and replaces stale files', () => {
    const f = path.join(tmp, 'src.tsv');
    fs.writeFileSync(f, 'a\n');
    const k1 = sourceKey([f]);
    fs.writeFileSync(f, 'ab\n');
    const k2 = sourceKey([f]);
    expect(k2).not.toBe(k1);
    const t = compileTables(fixtureTables(), { ...meta, sourceKey: k1 });
    writeCachedCompiled(tmp, 'v99', k1, t);
    expect(readCachedCompiled(tmp, 'v99', k1)?.dxCodes.length).toBe(t.dxCodes.length);
    expect(readCachedCompiled(tmp, 'v99', k2)).toBeNull();
    writeCachedCompiled(tmp, 'v99', k2, compileTables(fixtureTables(), { ...meta, sourceKey: k2 }));
    expect(fs.readdirSync(tmp).filter((x) => x.startsWith('v99-'))).toEqual([`v99-${k2}.bin`]);
  });

  it('compiles a real version on first load and reads the cache afterwards', async () => {
    const prev = process.env.CODING_CACHE_DIR;
    process.env.CODING_CACHE_DIR = path.join(tmp, 'cache');
    try {
      resetGroupers();
      await getGrouper('v43');
      expect(grouperLoadStats('v43')?.fromCache).toBe(false);
      resetGroupers();
      const g = await getGrouper('v43');
      expect(grouperLoadStats('v43')?.fromCache).toBe(true);
      expect(g.group({ dx: ['I214', 'I5021'], sex: 'M' }).drg).toBe('280');
    } finally {
      if (prev === undefined) delete process.env.CODING_CACHE_DIR;
      else process.env.CODING_CACHE_DIR = prev;
      resetGroupers();
    }
  });
});
