/** Payment card numbers: 13-19 digits, grouped or not, Luhn-valid, with a known issuer prefix. */
import type { Candidate } from '../types';
import { luhnValid, type AnalysisContext, type Recognizer } from './base';

const CONTEXT = [
  'card',
  'kad',
  'credit',
  'debit',
  'visa',
  'mastercard',
  'master card',
  'amex',
  'american express',
  'jcb',
  'unionpay',
  'diners',
  'discover',
  'cc',
  'card no',
  'no. kad',
  'kad kredit',
];
// digit groups joined by one space or dash (a tab separates columns); the run is unbounded so that two cards side by
// side ("4111111111111111 5555 5555 5555 4444") are both seen, then cut into cards below
const CANDIDATE_RE = /(?<![\w-])\d(?:[ -]?\d){12,}(?![\w])/g;

/** Issuer identification ranges of the card schemes (UATP, Mir, Amex, Diners, JCB, Visa, Mastercard, Discover,
 * UnionPay, Maestro, RuPay, Verve, national schemes). A Luhn-valid number outside them is still a card, with less
 * certainty. */
function issuerOk(d: string): boolean {
  const p1 = d[0];
  const p2 = +d.slice(0, 2);
  const p4 = +d.slice(0, 4);
  return (
    p1 === '1' ||
    p1 === '4' ||
    p1 === '6' ||
    (p2 >= 51 && p2 <= 55) ||
    (p4 >= 2200 && p4 <= 2720) ||
    p2 === 34 ||
    p2 === 37 ||
    p2 === 35 ||
    p2 === 36 ||
    p2 === 30 ||
    p2 === 38 ||
    p2 === 39 ||
    p2 === 50 ||
    (p2 >= 56 && p2 <= 58) ||
    p2 === 81 ||
    p2 === 82 ||
    p1 === '9'
  );
}

export const cardRecognizer: Recognizer = {
  name: 'card',
  entity: 'CARD_NUMBER',
  contextWords: CONTEXT,
  contextWindow: 40,
  baseScore: 0.9,
  analyze(ctx: AnalysisContext): Candidate[] {
    const out: Candidate[] = [];
    const text = ctx.text;
    for (const m of text.matchAll(CANDIDATE_RE)) {
      if (m[0].length < 13) continue; // fewer than 13 digits: no card
      const groups = [...m[0].matchAll(/\d+/g)].map((g) => ({ s: m.index + g.index, e: m.index + g.index + g[0].length }));
      // cut the run into cards, left to right, each the longest Luhn-valid run of whole groups of 13-19 digits
      let i = 0;
      while (i < groups.length) {
        let best: { s: number; e: number; d: string; j: number } | undefined;
        let digits = '';
        const ends: Array<{ e: number; d: string; j: number }> = [];
        for (let j = i; j < groups.length; j++) {
          // a grouped card is written in groups of at most 6 digits (4-4-4-4, 4-6-5, 4-4-4-4-3); two long numbers side by side
          // are two numbers, not one card
          if (j > i && (groups[j].e - groups[j].s > 6 || groups[j - 1].e - groups[j - 1].s > 6)) break;
          digits += text.slice(groups[j].s, groups[j].e);
          if (digits.length > 19) break;
          if (digits.length >= 13) ends.push({ e: groups[j].e, d: digits, j });
        }
        for (let k = ends.length - 1; k >= 0; k--) {
          // a compact time stamp (20240303133449) is not a card, whatever its checksum
          if (luhnValid(ends[k].d) && !/^(?:19|20)\d\d(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])(?:[01]\d|2[0-3])[0-5]\d/.test(ends[k].d)) {
            best = { s: groups[i].s, ...ends[k] };
            break;
          }
        }
        if (!best) {
          i++;
          continue;
        }
        // card words before it raise the score (the engine's context step)
        const score = issuerOk(best.d) ? 0.9 : 0.7;
        out.push({ start: best.s, end: best.e, type: 'CARD_NUMBER', score, recognizer: 'card', normalized: best.d });
        i = best.j + 1;
      }
    }
    return out;
  },
};
