/**
 * Overlap resolution. Candidates below the threshold are dropped; a candidate overlapping a clinical region whose
 * strength exceeds its score is dropped; then the highest score wins (ties: longer span, then earlier start).
 */
import type { Candidate, ProtectedSpan } from './types';

export interface ProtectionMasks {
  /** Max protection strength x100 per character, all regions (used for PERSON). */
  all: Uint8Array;
  /** Same, without person-only regions (used for identifiers). */
  ids: Uint8Array;
}

export function protectionMasks(textLength: number, protectedSpans: readonly ProtectedSpan[]): ProtectionMasks {
  const all = new Uint8Array(textLength);
  const ids = new Uint8Array(textLength);
  for (const p of protectedSpans) {
    const v = Math.round(p.strength * 100);
    for (let k = p.start; k < p.end; k++) {
      if (all[k] < v) all[k] = v;
      if (!p.personOnly && ids[k] < v) ids[k] = v;
    }
  }
  return { all, ids };
}

/** Does a clinical region in `mask` outrank a candidate [start, end) with this score (then it is dropped)? */
export function outranked(mask: Uint8Array, start: number, end: number, score: number): boolean {
  const s = Math.round(score * 100);
  for (let k = start; k < end; k++) if (mask[k] > s) return true;
  return false;
}

export function resolveCandidates(
  textLength: number,
  candidates: readonly Candidate[],
  masks: ProtectionMasks,
  threshold: number,
  taken?: Uint8Array,
): Candidate[] {
  const protAll = masks.all;
  const protId = masks.ids;
  const kept = candidates.filter((c) => {
    if (c.score < threshold || c.end <= c.start) return false;
    return !outranked(c.type === 'PERSON' ? protAll : protId, c.start, c.end, c.score);
  });
  kept.sort((a, b) => b.score - a.score || b.end - b.start - (a.end - a.start) || a.start - b.start);
  const used = taken ? taken.slice() : new Uint8Array(textLength);
  const out: Candidate[] = [];
  for (const c of kept) {
    let free = true;
    for (let k = c.start; k < c.end; k++) {
      if (used[k]) {
        free = false;
        break;
      }
    }
    if (!free) continue;
    used.fill(1, c.start, c.end);
    out.push(c);
  }
  out.sort((a, b) => a.start - b.start);
  return out;
}
