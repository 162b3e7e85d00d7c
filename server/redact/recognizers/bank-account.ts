/**
 * Bank account numbers: 10-16 digits (plain or grouped) with an account label or a bank name just before the value,
 * or in a table column headed as an account.
 * Without context a 10-16 digit number is not redacted as an account (too many clinical and reference numbers look alike).
 */
import type { Candidate } from '../types';
import { labelWindow, luhnValid, tableCell, windowHas, type AnalysisContext, type Recognizer } from './base';

const CONTEXT = [
  'account',
  'acc',
  'acct',
  'a/c',
  'akaun',
  'no. akaun',
  'no akaun',
  'account no',
  'acc no',
  'bank',
  'maybank',
  'cimb',
  'public bank',
  'rhb',
  'hong leong',
  'ambank',
  'bank islam',
  'bank rakyat',
  'bank muamalat',
  'bsn',
  'affin',
  'affin bank',
  'alliance',
  'ocbc',
  'uob',
  'hsbc',
  'standard chartered',
  'agrobank',
  'citibank',
  'mbsb',
  'al rajhi',
  'kfh',
  'savings',
  'current account',
  'simpanan',
  'semasa',
  'ibg',
  'duitnow',
  'refund to',
  'credited to',
];
const CARD_WORDS = ['card', 'kad', 'visa', 'mastercard', 'amex', 'american express', 'jcb', 'unionpay', 'diners'];
const HEADER_RE = /\b(?:account|acc(?:t)?|a\/c|akaun)\b/i;
// digit groups joined by one space or dash (a tab separates table columns); unbounded, then cut into accounts: two
// long numbers side by side after one label ("a/c 701234567890 701234567891") are two accounts
const CANDIDATE_RE = /(?<![\w-])\d(?:[ -]?\d){9,}(?![\w])/g;

export const bankAccountRecognizer: Recognizer = {
  name: 'bank_account',
  entity: 'BANK_ACCOUNT',
  contextWords: CONTEXT,
  contextBoost: 0.5,
  baseScore: 0.42,
  analyze(ctx: AnalysisContext): Candidate[] {
    const out: Candidate[] = [];
    const text = ctx.text;
    for (const m of text.matchAll(CANDIDATE_RE)) {
      if (m[0].length < 10) continue; // fewer than 10 digits: no account (cheap test before the label window)
      const window = labelWindow(text, m.index, 48);
      // a column headed as an account is the account's context; account words before it are read by the context step
      const header = HEADER_RE.test(tableCell(ctx, m.index, m.index + m[0].length)?.header ?? '');
      // accounts: a group of 10-16 digits on its own, or short groups (3-6 digits) that add up to 10-16
      const groups = [...m[0].matchAll(/\d+/g)].map((g) => ({ s: m.index + g.index, e: m.index + g.index + g[0].length, n: g[0].length }));
      let i = 0;
      while (i < groups.length) {
        let j = i;
        let n = groups[i].n;
        if (n < 10) {
          while (j + 1 < groups.length && groups[j + 1].n < 10 && n + groups[j + 1].n <= 16) n += groups[++j].n;
        }
        if (n >= 10 && n <= 16) {
          // a short branch or bank code glued before the account by a dash belongs to it ("1155-353757484173")
          const prev = i > 0 ? groups[i - 1] : null;
          const s = prev && prev.n <= 6 && n >= 10 && text.slice(prev.e, groups[i].s) === '-' && (i < 2 || groups[i - 2].e < prev.s - 1) ? prev.s : groups[i].s;
          const e = groups[j].e;
          const d = text.slice(s, e).replace(/\D/g, '');
          if (!(d.length >= 13 && luhnValid(d) && windowHas(window, CARD_WORDS))) {
            // without its label a long number is not typed as an account (below the threshold)
            // the second account of a list after one label ("a/c 7012... 7012...") shares the first one's label
            const listed = i > 0 && windowHas(window, CONTEXT);
            out.push({
              start: s,
              end: e,
              type: 'BANK_ACCOUNT',
              score: header || listed ? 0.92 : 0.42,
              recognizer: 'bank_account',
              normalized: d,
              contextChecked: header || listed,
            });
          }
        }
        i = j + 1;
      }
    }
    return out;
  },
};
