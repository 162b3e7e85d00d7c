/**
 * Bank account numbers: 10-16 digits (plain or grouped) with an account label or a bank name just before the value,
 * or in a table column headed as an account.
 * Without context a 10-16 digit number is not redacted as an account (too many clinical and reference numbers look alike).
 */
import type { Candidate } from '../types';
import { labelWindow, luhnValid, tableCell, windowHas, type AnalysisContext, type Recognizer } from './base';

const CONTEXT = [
  'account', 'acc', 'acct', 'a/c', 'akaun', 'no. akaun', 'no akaun', 'account no', 'acc no', 'bank', 'maybank', 'cimb',
  'public bank', 'rhb', 'hong leong', 'ambank', 'bank islam', 'bank rakyat', 'bank muamalat', 'bsn', 'affin', 'affin bank',
  'alliance', 'ocbc', 'uob', 'hsbc', 'standard chartered', 'agrobank', 'citibank', 'mbsb', 'al rajhi', 'kfh',
  'savings', 'current account', 'simpanan', 'semasa', 'ibg', 'duitnow', 'refund to', 'credited to',
];
const CARD_WORDS = ['card', 'kad', 'visa', 'mastercard', 'amex', 'american express', 'jcb', 'unionpay', 'diners'];
const HEADER_RE = /\b(?:account|acc(?:t)?|a\/c|akaun)\b/i;
// groups joined by one space or dash (a tab separates table columns)
const CANDIDATE_RE = /(?<![\w-])\d(?:[ -]?\d){9,15}(?![\w]|[ -]\d)/g;

export const bankAccountRecognizer: Recognizer = {
  name: 'bank_account',
  entity: 'BANK_ACCOUNT',
  contextWords: CONTEXT,
  baseScore: 0.92,
  analyze(ctx: AnalysisContext): Candidate[] {
    const out: Candidate[] = [];
    const text = ctx.text;
    for (const m of text.matchAll(CANDIDATE_RE)) {
      const d = m[0].replace(/\D/g, '');
      if (d.length < 10 || d.length > 16) continue;
      const window = labelWindow(text, m.index, 48);
      if (!windowHas(window, CONTEXT) && !HEADER_RE.test(tableCell(ctx, m.index, m.index + m[0].length)?.header ?? '')) continue;
      if (d.length >= 13 && luhnValid(d) && windowHas(window, CARD_WORDS)) continue; // a card, not an account
      out.push({ start: m.index, end: m.index + m[0].length, type: 'BANK_ACCOUNT', score: 0.92, recognizer: 'bank_account', normalized: d });
    }
    return out;
  },
};
