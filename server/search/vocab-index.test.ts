import { describe, expect, it } from 'vitest';
import { tokenize } from './text';
import { headWords, markResidual } from './vocab-index';
import { seededRandom } from '../config/random';

describe('residual-category wording', () => {
  it('"not elsewhere classified", NEC and NOS are optional words of a text; other words are not', () => {
    const w = markResidual(tokenize('Pleural effusion, not elsewhere classified'));
    expect(w.map((x) => x.optional)).toEqual([false, false, true, true, true]);
    expect(markResidual(tokenize('Anemia NOS')).map((x) => x.optional)).toEqual([false, true]);
    expect(markResidual(tokenize('not classified elsewhere')).every((x) => !x.optional)).toBe(true);
  });
});

describe('the main term of an index entry', () => {
  it('runs to the first comma, over the forms of the same word after it, and counts the words tokenize counts', () => {
    const head = (t: string) =>
      tokenize(t)
        .slice(0, headWords(t))
        .map((w) => w.text)
        .join(' ');
    expect(head('Syphilis, syphilitic (acquired), congenital, early, pneumonia')).toBe('syphilis syphilitic acquired');
    expect(head('Infection, infected, infective (opportunistic), lung')).toBe('infection infected infective opportunistic');
    expect(head('Pneumonia (acute) (double), alba')).toBe('pneumonia acute double');
    expect(head('Toxoplasma, toxoplasmosis (acquired), with, pneumonia')).toBe('toxoplasma toxoplasmosis acquired');
    // a comma inside parentheses is not the main term's end; a text without a comma has no main term
    expect(head('Fracture (abduction, adduction) (avulsion), wrist')).toBe('fracture abduction adduction avulsion');
    expect(headWords('Acute myocardial infarction')).toBe(0);
  });
  it('never counts more words than the text has (500 generated texts)', () => {
    const rand = seededRandom(7);
    const parts = ['pain', 'painful', 'chest', '(acute)', 'left', 'infection', 'infected', '[croup]', 'with', 'due to'];
    for (let i = 0; i < 500; i++) {
      const t = Array.from({ length: 1 + Math.floor(rand() * 6) }, () => parts[Math.floor(rand() * parts.length)]).join(rand() < 0.5 ? ', ' : ' ');
      const n = headWords(t);
      expect(n).toBeGreaterThanOrEqual(0);
      expect(n).toBeLessThanOrEqual(tokenize(t).length);
      if (!t.includes(',')) expect(n).toBe(0);
    }
  });
});
