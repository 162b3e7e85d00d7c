/**
 * Names in HL7 v2 messages pasted into text (interface logs, audit bundles). HL7 writes a person as components of a
 * field, family^given^middle (XPN) or id^family^given^middle (XCN), with no label or capitalisation to go by: the
 * field's position says it is a person. Each name component is its own span (`TAN^AH KOW` -> `TAN`, `AH KOW`).
 */
import type { Candidate } from '../types';
import type { AnalysisContext, Recognizer } from './base';

/** Fields that hold a person's name, per segment: field number -> 'XPN' (name first) or 'XCN' (id first). */
const NAME_FIELDS: Record<string, Record<number, 'XPN' | 'XCN'>> = {
  PID: { 5: 'XPN', 6: 'XPN', 9: 'XPN' },
  NK1: { 2: 'XPN' },
  PV1: { 7: 'XCN', 8: 'XCN', 9: 'XCN', 17: 'XCN', 52: 'XCN' },
  PV2: { 13: 'XCN' },
  PD1: { 4: 'XCN' },
  ORC: { 10: 'XCN', 11: 'XCN', 12: 'XCN', 19: 'XCN' },
  OBR: { 10: 'XCN', 16: 'XCN', 28: 'XCN', 32: 'XCN', 33: 'XCN', 34: 'XCN', 35: 'XCN' },
  OBX: { 16: 'XCN' },
  EVN: { 5: 'XCN' },
  GT1: { 3: 'XPN' },
  IN1: { 16: 'XPN' },
  IN2: { 7: 'XPN' },
  TXA: { 5: 'XCN', 9: 'XCN', 10: 'XCN', 22: 'XCN' },
  ROL: { 4: 'XCN' },
  MRG: { 7: 'XPN' },
  PRD: { 2: 'XPN' },
  CTD: { 2: 'XPN' },
};

const SEGMENT_RE = /^([A-Z][A-Z0-9]{2})\|/gm;
/** Name components: letters, spaces, apostrophes, hyphens, dots (no digits: ids and codes are not names). */
const NAME_COMPONENT_RE = /^[\p{L}][\p{L}\p{M} .'\u2019/-]*$/u; // a/l, s/o inside a component
/** Components that are degrees, suffixes or prefixes, not names. */
const NOT_NAME = new Set(['DR', 'MR', 'MRS', 'MS', 'MISS', 'MDM', 'PROF', 'JR', 'SR', 'II', 'III', 'MD', 'MBBS', 'RN', 'L', 'D', 'M', 'B', 'A', 'U']);

export const hl7NameRecognizer: Recognizer = {
  name: 'hl7_name',
  entity: 'PERSON',
  contextWords: [],
  baseScore: 0.95,
  analyze(ctx: AnalysisContext): Candidate[] {
    const text = ctx.text;
    if (text.indexOf('|') < 0 || text.indexOf('^') < 0) return [];
    const out: Candidate[] = [];
    for (const m of text.matchAll(SEGMENT_RE)) {
      const fields = NAME_FIELDS[m[1]];
      if (!fields) continue;
      const lineEnd = text.indexOf('\n', m.index);
      const line = text.slice(m.index, lineEnd < 0 ? text.length : lineEnd).replace(/\r$/, '');
      let off = m.index;
      const parts = line.split('|');
      for (let f = 0; f < parts.length; f++) {
        const kind = fields[f];
        if (kind) {
          let repOff = off;
          for (const rep of parts[f].split('~')) {
            const comps = rep.split('^');
            const first = kind === 'XPN' ? 0 : 1;
            let cOff = repOff;
            for (let c = 0; c < comps.length; c++) {
              const v = comps[c];
              const trimmed = v.trim();
              if (c >= first && c <= first + 2 && trimmed.length >= 2 && NAME_COMPONENT_RE.test(trimmed) && !NOT_NAME.has(trimmed.toUpperCase())) {
                const s = cOff + v.indexOf(trimmed);
                out.push({ start: s, end: s + trimmed.length, type: 'PERSON', score: 0.95, recognizer: 'hl7_name' });
              }
              cOff += v.length + 1;
            }
            repOff += rep.length + 1;
          }
        }
        off += parts[f].length + 1;
      }
      ctx.checkDeadline();
    }
    return out;
  },
};
