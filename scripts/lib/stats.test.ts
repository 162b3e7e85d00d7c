import { describe, expect, it } from 'vitest';
import { percentile } from './stats';

describe('percentile (nearest rank)', () => {
  it('matches the nearest-rank definition on shuffled lists of every length up to 200', () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    for (let n = 1; n <= 200; n++) {
      const sorted = Array.from({ length: n }, (_, i) => i + 1); // value = rank
      const shuffled = [...sorted].sort(() => rnd() - 0.5);
      for (const p of [1, 50, 95, 99, 100]) expect(percentile(shuffled, p)).toBe(Math.max(1, Math.ceil((p / 100) * n)));
      expect(shuffled).not.toBe(sorted); // the input is not sorted in place
    }
    expect(percentile([], 50)).toBeNaN();
  });
});
