/** Latency summaries for the bench scripts. */

/** The p-th percentile (nearest rank) of a list of numbers, in any order; NaN for an empty list. */
export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}
