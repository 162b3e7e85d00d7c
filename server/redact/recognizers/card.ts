/** Payment card numbers: 13-19 digits, grouped or not, Luhn-valid, with a known issuer prefix. */
import type { Candidate } from '../types';
import { labelWindow, luhnValid, windowHas, type AnalysisContext, type Recognizer } from './base';

const CONTEXT = [
  'card', 'kad', 'credit', 'debit', 'visa', 'mastercard', 'master card', 'amex', 'american express', 'jcb', 'unionpay',
  'diners', 'discover', 'cc', 'card no', 'no. kad', 'kad kredit',
];
const CANDIDATE_RE = /(?<![\w-])\d(?:[ -]?\d){12,22}(?![\w])/g; // groups joined by one space or dash (a tab separates columns)

function issuerOk(d: string): boolean {
  const p2 = +d.slice(0, 2);
  const p4 = +d.slice(0, 4);
  return (
    d[0] === '4' ||
    (p2 >= 51 && p2 <= 55) ||
    (p4 >= 2221 && p4 <= 2720) ||
    p2 === 34 || p2 === 37 || p2 === 35 || p2 === 36 || p2 === 30 || p2 === 38 || p2 === 39 ||
    p2 === 62 || p2 === 60 || p2 === 64 || p2 === 65 || p2 === 81 || p2 === 50 || p2 === 56 || p2 === 57 || p2 === 58 ||
    p2 === 63 || p2 === 67
  );
}

export const cardRecognizer: Recognizer = {
  name: 'card',
  entity: 'CARD_NUMBER',
  contextWords: CONTEXT,
  baseScore: 0.9,
  analyze(ctx: AnalysisContext): Candidate[] {
    const out: Candidate[] = [];
    const text = ctx.text;
    for (const m of text.matchAll(CANDIDATE_RE)) {
      // Groups, so that a trailing unrelated number can be cut off.
      const groups = [...m[0].matchAll(/\d+/g)].map((g) => ({ s: m.index + g.index, e: m.index + g.index + g[0].length }));
      let best: { s: number; e: number; d: string } | undefined;
      for (let j = groups.length; j >= 1; j--) {
        const s = groups[0].s;
        const e = groups[j - 1].e;
        const d = text.slice(s, e).replace(/\D/g, '');
        if (d.length < 13 || d.length > 19) continue;
        if (luhnValid(d) && issuerOk(d)) {
          best = { s, e, d };
          break;
        }
      }
      if (!best) continue;
      const hasCtx = windowHas(labelWindow(text, best.s, 40), CONTEXT);
      out.push({ start: best.s, end: best.e, type: 'CARD_NUMBER', score: hasCtx ? 1 : 0.9, recognizer: 'card', normalized: best.d });
    }
    return out;
  },
};
