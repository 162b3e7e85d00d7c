import { describe, expect, it } from 'vitest';
import { tokenize } from './text';
import { markResidual } from './vocab-index';

describe('residual-category wording', () => {
  it('"not elsewhere classified", NEC and NOS are optional words of a text; other words are not', () => {
    const w = markResidual(tokenize('Pleural effusion, not elsewhere classified'));
    expect(w.map((x) => x.optional)).toEqual([false, false, true, true, true]);
    expect(markResidual(tokenize('Anemia NOS')).map((x) => x.optional)).toEqual([false, true]);
    expect(markResidual(tokenize('not classified elsewhere')).every((x) => !x.optional)).toBe(true);
  });
});
