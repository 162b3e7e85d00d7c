import { describe, expect, it } from 'vitest';
import { CodeLookup, IdLookup, StrColBuilder } from './columns';
import { findCodeMatches, parseCodeQuery } from './codes';

describe('search by code and concept_id', () => {
  it('parses codes of every vocabulary and concept ids; words are not codes', () => {
    expect(parseCodeQuery('22298006')).toEqual({ key: '22298006', conceptId: 22298006 });
    expect(parseCodeQuery(' i21.9 ')).toEqual({ key: 'I219', conceptId: null });
    expect(parseCodeQuery('I219').key).toBe('I219');
    expect(parseCodeQuery('0DTJ4ZZ').key).toBe('0DTJ4ZZ');
    expect(parseCodeQuery('2160-0').key).toBe('2160-0');
    expect(parseCodeQuery('434241000124101')).toEqual({ key: '434241000124101', conceptId: null }); // beyond int32
    for (const q of ['heart attack', 'asthma', 'I21 9', '', '1; DROP TABLE concept', 'x'.repeat(30) + '1'])
      expect(parseCodeQuery(q), q).toEqual({ key: null, conceptId: null });
  });

  it('finds concepts by code (dots ignored, the code as typed first) and by concept_id', () => {
    // concepts: 0 = ICD9Proc 79.73, 1 = RxNorm 7973 (concept_id 1327978), 2 = ICD10CM I21.9 (concept_id 7973)
    const col = new StrColBuilder();
    for (const c of ['79.73', '7973', 'I21.9']) col.push(c);
    const code = col.done();
    const ix = { code, codeKey: CodeLookup.build(code), idToIdx: IdLookup.build(Int32Array.from([44783, 1327978, 7973])) };
    const m = findCodeMatches(ix, '7973');
    expect(m.byCode).toEqual([1, 0]);
    expect([...m.literal]).toEqual([1]);
    expect(m.byId).toEqual([2]);
    expect(findCodeMatches(ix, 'i219')).toMatchObject({ byCode: [2], byId: [] });
    expect(findCodeMatches(ix, 'I21.9').literal.has(2)).toBe(true);
    expect(findCodeMatches(ix, '1327978')).toMatchObject({ byCode: [], byId: [1] });
    expect(findCodeMatches(ix, 'hypertension')).toMatchObject({ byCode: [], byId: [] });
  });
});
