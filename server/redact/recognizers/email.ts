import type { Candidate } from '../types';
import type { AnalysisContext, Recognizer } from './base';

const EMAIL_RE =
  /(?<![\w.%+-])[A-Za-z0-9](?:[A-Za-z0-9._%+-]{0,63})@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.(?:[A-Za-z]{2,24}|xn--[A-Za-z0-9-]{1,59})(?![\w-])/g;

const LOCAL_CH = /[A-Za-z0-9._%+-]/;

/** E-mail matches, found by scanning around each '@' only (a plain global regex tries every word start). */
export function findEmails(text: string): Array<{ index: number; value: string }> {
  const out: Array<{ index: number; value: string }> = [];
  let at = text.indexOf('@');
  let lastEnd = 0;
  while (at >= 0) {
    let s = at;
    while (s > lastEnd && at - s < 64 && LOCAL_CH.test(text[s - 1])) s--;
    const e = Math.min(text.length, at + 256);
    EMAIL_RE.lastIndex = 0;
    const m = EMAIL_RE.exec(text.slice(s, e));
    if (m && s + m.index <= at && s + m.index + m[0].length > at) {
      out.push({ index: s + m.index, value: m[0] });
      lastEnd = s + m.index + m[0].length;
    }
    at = text.indexOf('@', Math.max(at + 1, lastEnd));
  }
  return out;
}

export const emailRecognizer: Recognizer = {
  name: 'email',
  entity: 'EMAIL',
  contextWords: ['email', 'e-mail', 'emel', 'mail', 'from', 'to', 'cc'],
  baseScore: 1,
  analyze(ctx: AnalysisContext): Candidate[] {
    const out: Candidate[] = [];
    for (const m of ctx.emails) {
      out.push({
        start: m.index,
        end: m.index + m.value.length,
        type: 'EMAIL',
        score: 1,
        recognizer: 'email',
        normalized: m.value.toLowerCase(),
      });
    }
    return out;
  },
};

/** Name-like pieces of e-mail local parts ("mark.walker" -> mark, walker), used as weak PERSON evidence. */
export function emailNameParts(emails: ReadonlyArray<{ value: string }>): Set<string> {
  const out = new Set<string>();
  for (const m of emails) {
    const local = m.value.slice(0, m.value.indexOf('@'));
    for (const p of local.split(/[._%+\-\d]+/)) if (p.length >= 3) out.add(p.toLowerCase());
  }
  return out;
}
