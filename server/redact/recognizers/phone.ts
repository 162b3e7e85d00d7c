/**
 * Malaysian and international phone numbers. Candidates come from a loose regex; validity and normalisation
 * (E.164) come from libphonenumber-js with default region MY. A trailing extension (ext./samb./x) is inside the span.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import type { Candidate } from '../types';
import { outranked } from '../resolver';
import { type AnalysisContext, type Recognizer } from './base';

// Digit groups joined by short separators (space, dash, dot, parentheses; never a tab or a line break). The run is
// unbounded: a phone written right after another number in a table row must not be cut off in its middle.
// Validation decides what is a phone; where a run may start is checked in code (startOk).
const CANDIDATE_RE = /(?<![\d+])(?:\+|00)?\(?\d(?:\)?(?:\.|[ \-]{0,3})\(?\d)+(?:[ \t]*(?:ext\.?|ext:|extension|samb\.?|sambungan|x)[ \t]*\d{1,5})?(?!\d)/gi;
const EXT_RE = /\s*(?:ext\.?|ext:|extension|samb\.?|sambungan|x)\s*(\d{1,5})$/i;

const CONTEXT = [
  'tel',
  'tel.',
  'telephone',
  'phone',
  'mobile',
  'mob',
  'hp',
  'h/p',
  'handphone',
  'contact',
  'call',
  'called',
  'fax',
  'whatsapp',
  'wa',
  'sms',
  'telefon',
  'no. tel',
  'no tel',
  'hubungi',
  'reachable',
  'number',
  'ext',
  'samb',
  'line',
  'office',
  'home',
  'enquiries',
  'pejabat',
  'rumah',
  'bimbit',
  'ph',
  'cell',
  'talian',
];

/** Label words a number may be glued to ("hp0123456789", "Tel.012-...", "tel/012-...", "Tel:-012-..."). */
const GLUE_LABELS = new Set([
  'tel',
  'telephone',
  'telefon',
  'phone',
  'ph',
  'hp',
  'h/p',
  'mob',
  'mobile',
  'handphone',
  'hphone',
  'fax',
  'wa',
  'whatsapp',
  'contact',
  'contacts',
  'no',
  'num',
  'number',
  'call',
  'bimbit',
  'rumah',
  'pejabat',
  'office',
  'home',
  'cell',
  'talian',
  'sms',
  'hubungi',
]);
const GLUE_RE = /([A-Za-z]+(?:\/[A-Za-z]+)?)[ \t]{0,2}[.:\/\-]{0,3}$/;

/**
 * May a phone start at `s`? After a space, an opening bracket or ordinary punctuation, yes. After a letter or one of
 * `. / - :` only when the word just before is a phone label ("hp0123...", "Tel.012...", "tel/012..."), or, for a
 * slash, when a phone ends right before it ("012-3456789/013-4567890"). Otherwise the digits are part of something
 * else (an IC with a letter prefix, a record number HKL/2023/..., a decimal, a range).
 */
function startOk(text: string, s: number, prevPhoneEnd: number): boolean {
  if (s === 0) return true;
  const c = text[s - 1];
  const isLetter = /[A-Za-z]/.test(c);
  if (!isLetter && c !== '.' && c !== '/' && c !== '-') return true;
  const m = GLUE_RE.exec(text.slice(Math.max(0, s - 24), s));
  if (m && GLUE_LABELS.has(m[1].toLowerCase())) return true;
  if (c === '/' || (c === ' ' && text[s - 2] === '/')) {
    if (prevPhoneEnd >= 0 && /^[ \t]*\/[ \t]*$/.test(text.slice(prevPhoneEnd, s))) return true;
    // after another long identifier and a slash ("<IC>/013-2223344"): a list of values, not one code
    return /(?<![\w/.-])\d{6}[ -]?\d{2}[ -]?\d{4}[ \t]*\/[ \t]*$/.test(text.slice(Math.max(0, s - 24), s));
  }
  return false;
}

interface Piece {
  text: string;
  start: number;
}

export function validatePhone(raw: string): { e164: string; international: boolean; valid: boolean } | null {
  let main = raw;
  let ext = '';
  const em = EXT_RE.exec(raw);
  if (em) {
    ext = em[1];
    main = raw.slice(0, em.index);
  }
  const trimmed = main.trim();
  const digits = trimmed.replace(/\D/g, '');
  let input: string;
  let international = false;
  if (trimmed.startsWith('+')) {
    input = '+' + digits;
    international = !digits.startsWith('60');
  } else if (trimmed.startsWith('00')) {
    input = '+' + digits.slice(2);
    international = !digits.startsWith('0060');
  } else if (digits.startsWith('60') && digits.length >= 10 && digits.length <= 12) {
    input = '+' + digits;
  } else if (digits.startsWith('0') || digits.startsWith('1300') || digits.startsWith('1800')) {
    input = digits;
  } else return null;
  if (digits.length < 7 || digits.length > 15) return null;
  const p = parsePhoneNumberFromString(input, 'MY');
  if (!p) return null;
  if (!international && p.country !== 'MY' && p.countryCallingCode !== '60') return null;
  const valid = p.isValid();
  if (!valid && !p.isPossible()) return null;
  return { e164: p.number + (ext ? `;ext=${ext}` : ''), international, valid };
}

export const phoneRecognizer: Recognizer = {
  name: 'phone',
  entity: 'PHONE',
  contextWords: CONTEXT,
  contextBoost: 0.2,
  baseScore: 0.8,
  analyze(ctx: AnalysisContext): Candidate[] {
    const out: Candidate[] = [];
    const text = ctx.text;
    // long notes repeat the same numbers: validate each distinct string once per call
    const memo = new Map<string, ReturnType<typeof validatePhone>>();
    const validate = (raw: string) => {
      let v = memo.get(raw);
      if (v === undefined && !memo.has(raw)) memo.set(raw, (v = validatePhone(raw)));
      return v ?? null;
    };
    let prevPhoneEnd = -1;
    for (const m of text.matchAll(CANDIDATE_RE)) {
      // no phone has fewer than 7 digits (most numeric runs of a note are lab values and doses): cheap test first
      const raw = m[0];
      let nd = 0;
      for (let k = 0; k < raw.length && nd < 7; k++) if (raw.charCodeAt(k) >= 48 && raw.charCodeAt(k) <= 57) nd++;
      if (nd < 7) continue;
      // Split into digit groups so that two adjacent numbers, or a number glued to a neighbour, can be separated.
      const pieces: Piece[] = [];
      const groupRe = /(?:\+|00)?\(?\d+\)?(?:[ \t]*(?:ext\.?|ext:|extension|samb\.?|sambungan|x)[ \t]*\d{1,5}$)?/gi;
      for (const g of m[0].matchAll(groupRe)) pieces.push({ text: g[0], start: m.index + g.index });
      // a letter glued after the run (other than an extension marker) makes its last group part of a code ("- 54M",
      // "ABC123"): that group is not a phone's
      const after = text[m.index + m[0].length];
      if (after !== undefined && /[A-Za-z_]/.test(after)) {
        pieces.pop();
        const lastPiece = pieces[pieces.length - 1];
        if (!lastPiece || text.slice(lastPiece.start + lastPiece.text.length, m.index + m[0].length - 0).search(/\S/) === -1) continue;
        if (/^[.-]/.test(text.slice(lastPiece.start + lastPiece.text.length))) continue; // glued by '-' or '.': one code
      }
      let i = 0;
      while (i < pieces.length) {
        let found = false;
        // a number may start at the first piece only if what precedes the run allows it; inner pieces follow a separator
        if (i === 0 && !startOk(text, pieces[0].start, prevPhoneEnd)) {
          i++;
          continue;
        }
        // nor inside a grouped number no phone took ("ref 1048 0696 3593": not a phone starting at 0696)
        if (
          i > 0 &&
          prevPhoneEnd < pieces[i - 1].start + pieces[i - 1].text.length &&
          /^[ -]$/.test(text.slice(pieces[i - 1].start + pieces[i - 1].text.length, pieces[i].start))
        ) {
          i++;
          continue;
        }
        // nor right after a single dot or a dash glued to a piece no number took (the fraction of a decimal, the middle
        // of a dotted date, "PHOTO-2025-05-08-17-20-08")
        const glue = i > 0 ? text.slice(pieces[i - 1].start + pieces[i - 1].text.length, pieces[i].start) : '';
        if (glue === '.' || (glue === '-' && i > 0 && !(prevPhoneEnd >= pieces[i - 1].start + pieces[i - 1].text.length))) {
          i++;
          continue;
        }
        for (let j = Math.min(pieces.length, i + 8); j > i; j--) {
          let s = pieces[i].start;
          const last = pieces[j - 1];
          let e = last.start + last.text.length;
          let raw = text.slice(s, e);
          if (raw.startsWith('(') && !raw.includes(')')) {
            raw = raw.slice(1);
            s += 1;
          }
          if (raw.endsWith(')') && !raw.includes('(')) {
            raw = raw.slice(0, -1);
            e -= 1;
          }
          const v = validate(raw);
          if (!v) continue;
          // an extension is the number's own context; phone words before it are read by the engine's context step
          const ext = EXT_RE.test(raw);
          let score = v.valid ? 0.8 : 0.55;
          if (ext) score = v.valid ? 0.95 : 0.75;
          if (v.international && v.valid) score = Math.max(score, 0.85);
          // the longest run reached into a clinical region ("Tel: 09-557 2333  06/10/2024" took the day): try shorter
          if (outranked(ctx.idProtectionMask, s, e, score)) continue;
          out.push({ start: s, end: e, type: 'PHONE', score, recognizer: 'phone', normalized: v.e164, contextChecked: ext });
          prevPhoneEnd = e;
          i = j;
          found = true;
          break;
        }
        if (!found) i++;
      }
      ctx.checkDeadline();
    }
    return out;
  },
};
