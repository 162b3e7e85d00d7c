/**
 * Passport numbers. Malaysian passports are A/H/K + 8 digits; foreign formats vary (letters + digits, digits only,
 * Singapore-style E1234567N), so those need a passport label just before the value, or a table column headed so.
 */
import type { Candidate } from '../types';
import { tableCell, type AnalysisContext, type Recognizer } from './base';

const CONTEXT = ['passport', 'pasport', 'passport no', 'no. pasport', 'travel document', 'paspot', 'pp no', 'ppt'];
const VALUE_RE = /(?<![\w/-])(?:[A-Z]{1,2}\d{6,9}[A-Z]?|\d{7,9}[A-Z]?|[A-Z]\d{7}[A-Z])(?![\w/-])/gi;
const MY_RE = /^[AHK]\d{8}$/i;
const HEADER_RE = /\b(?:passport|pasport|paspot|travel doc(?:ument)?|pp)\b/i;

export const passportRecognizer: Recognizer = {
  name: 'passport',
  entity: 'PASSPORT',
  contextWords: CONTEXT,
  contextWindow: 40,
  contextBoost: 0.5,
  baseScore: 0.6,
  analyze(ctx: AnalysisContext): Candidate[] {
    const out: Candidate[] = [];
    const text = ctx.text;
    for (const m of text.matchAll(VALUE_RE)) {
      const v = m[0];
      if (!/\d{5}/.test(v)) continue;
      // Malaysian passports are sure by their shape; foreign formats need a passport label (the context step) or a
      // column headed Passport
      const header = HEADER_RE.test(tableCell(ctx, m.index, m.index + v.length)?.header ?? '');
      const score = header ? 0.95 : MY_RE.test(v) ? 0.6 : 0.45;
      out.push({
        start: m.index,
        end: m.index + v.length,
        type: 'PASSPORT',
        score,
        recognizer: 'passport',
        normalized: v.toUpperCase(),
        contextChecked: header,
      });
    }
    return out;
  },
};
