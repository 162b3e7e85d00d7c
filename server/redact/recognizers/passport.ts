/**
 * Passport numbers. Malaysian passports are A/H/K + 8 digits; foreign formats vary (letters + digits, digits only,
 * Singapore-style E1234567N), so those need a passport label just before the value, or a table column headed so.
 */
import type { Candidate } from '../types';
import { labelWindow, tableCell, windowHas, type AnalysisContext, type Recognizer } from './base';

const CONTEXT = ['passport', 'pasport', 'passport no', 'no. pasport', 'travel document', 'paspot', 'pp no', 'ppt'];
const VALUE_RE = /(?<![\w/-])(?:[A-Z]{1,2}\d{6,9}[A-Z]?|\d{7,9}[A-Z]?|[A-Z]\d{7}[A-Z])(?![\w/-])/gi;
const MY_RE = /^[AHK]\d{8}$/i;
const HEADER_RE = /\b(?:passport|pasport|paspot|travel doc(?:ument)?|pp)\b/i;

export const passportRecognizer: Recognizer = {
  name: 'passport',
  entity: 'PASSPORT',
  contextWords: CONTEXT,
  baseScore: 0.6,
  analyze(ctx: AnalysisContext): Candidate[] {
    const out: Candidate[] = [];
    const text = ctx.text;
    for (const m of text.matchAll(VALUE_RE)) {
      const v = m[0];
      const window = labelWindow(text, m.index, 40);
      const hasCtx = windowHas(window, CONTEXT) || HEADER_RE.test(tableCell(ctx, m.index, m.index + v.length)?.header ?? '');
      let score = 0;
      if (hasCtx) score = /\d{5}/.test(v) ? 0.95 : 0;
      else if (MY_RE.test(v)) score = 0.6;
      if (!score) continue;
      out.push({ start: m.index, end: m.index + v.length, type: 'PASSPORT', score, recognizer: 'passport', normalized: v.toUpperCase() });
    }
    return out;
  },
};
