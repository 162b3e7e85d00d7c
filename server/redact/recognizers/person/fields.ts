/**
 * Stage 5 of the PERSON recognizer: names in fields whose position says "a person": chat senders (WhatsApp Android
 * and iOS, Telegram, Teams/Slack), table cells of a name column, and cells, quoted values or CSV fields that hold
 * only name words no dictionary knows.
 */
import { F, NAME_FLAGS, VOCAB_FLAGS } from '../../gazetteer';
import { tableCell, tableCells } from '../base';
import { isPersonFieldLabel } from './labels';
import { isCapShape, type PersonScan } from './scan';
import { NAME_HEADER_RE, NOT_NAME_HEADER_RE } from './vocabulary';

/** "[12/3/24, 10:15] Ah Kow: ...", "12/03/2024, 10:15 - Ah Kow: ...", "[10:15] Ah Kow: ..." */
export function findChatSenders(s: PersonScan): void {
  const { text, toks, n, role, accepted, maxProt, firstTokenAtOrAfter } = s;
  const CHAT_RE =
    /^[ \t]*(?:\[?\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4},?[ \t]+\d{1,2}[:.]\d{2}(?:[:.]\d{2})?(?:[ \t]?[ap]\.?m\.?)?\]?|\[\d{1,2}[:.]\d{2}(?:[ \t]?[ap]\.?m\.?)?\])[ \t]*[-\u2013:]?[ \t]*([^:\n]{1,50}?)[ \t]*:/gimu;
  for (const m of text.matchAll(CHAT_RE)) {
    const s = m.index + m[0].lastIndexOf(m[1]);
    const e = s + m[1].length;
    let firstTok = -1;
    let lastTok = -1;
    let ok = true;
    // a role after the sender's name ("Ai Ling Specialist:", "Rusdi bin Ismail (Surg):") is not part of it
    let eName = e;
    for (let k = firstTokenAtOrAfter(s); k < n && toks[k].end <= e; k++)
      if (k > 0 && toks[k].flags & F.ROLE && isCapShape(toks[k]) && toks[k - 1].start >= s) {
        eName = toks[k].start;
        break;
      }
    for (let k = firstTokenAtOrAfter(s); k < n && toks[k].end <= eName; k++) {
      const r = role[k];
      if (r === 'title' || (r === 'other' && toks[k].text !== '.') || r === 'blocked') {
        // titles and phone numbers in the sender field are handled elsewhere
        continue;
      }
      if (r === 'vocab' || (r === 'lower' && !(toks[k].flags & NAME_FLAGS))) {
        ok = false;
        break;
      }
      if (firstTok < 0) {
        if (r === 'conn') continue;
        firstTok = k;
      }
      lastTok = k;
    }
    if (!ok || firstTok < 0 || lastTok - firstTok > 5) continue;
    if (maxProt(toks[firstTok].start, toks[lastTok].end) > 0.85) continue;
    accepted.push({ first: firstTok, last: lastTok, score: 0.85, strongCue: true, lower: toks[firstTok].shape === 'lower' });
  }
}

/** Telegram "<Name>, [06.02.23 07:43]", Teams/Slack "<Name>  5:23 PM", "<Name> (HPP)  5/31/23 12:52 PM". */
export function findSenderLines(s: PersonScan): void {
  const { text, toks, n, role, accepted, maxProt, firstTokenAtOrAfter } = s;
  // ---------- sender lines of other chat exports: Telegram "<Name>, [06.02.23 07:43]", Teams/Slack "<Name>  5:23 PM",
  // "<Name> (HPP)  5/31/23 12:52 PM": a short sender field alone on its line before a time stamp
  const SENDER_LINE_RE =
    /^[ \t]*([^\n\[\]:,()]{2,50}?)(?:[ \t]*\([^)\n]{1,30}\))?(?:,[ \t]*|[ \t]{2,}|\t)\[?(?:\d{1,2}[./-]\d{1,2}[./-]\d{2,4},?[ \t]+)?\d{1,2}[:.]\d{2}(?:[:.]\d{2})?(?:[ \t]?[AaPp]\.?[Mm]\.?)?\]?[ \t]*$/gm;
  for (const m of text.matchAll(SENDER_LINE_RE)) {
    const s = m.index + m[0].indexOf(m[1]);
    const e = s + m[1].trimEnd().length;
    let firstTok = -1;
    let lastTok = -1;
    let nameish = 0;
    let ok = true;
    for (let k = firstTokenAtOrAfter(s); k < n && toks[k].end <= e; k++) {
      const r = role[k];
      if (r === 'title' || r === 'blocked' || (r === 'other' && toks[k].text !== '.')) continue;
      if (r === 'vocab' || (r === 'lower' && toks[k].flags & (VOCAB_FLAGS | F.DICT))) {
        ok = false;
        break;
      }
      if (firstTok < 0) firstTok = k;
      lastTok = k;
      if (r === 'name' || r === 'unk' || r === 'prefix' || r === 'lname' || r === 'lower') nameish++;
    }
    if (!ok || firstTok < 0 || !nameish || lastTok - firstTok > 5) continue;
    if (maxProt(toks[firstTok].start, toks[lastTok].end) > 0.85) continue;
    accepted.push({ first: firstTok, last: lastTok, score: 0.85, strongCue: true, lower: toks[firstTok].shape === 'lower' });
  }
}

/** Table cells, quoted values and CSV fields that hold a name. */
export function findFieldNames(s: PersonScan): void {
  const { ctx, text, toks, n, role, lineStarts, accepted, maxProt, unknownWordsOk, firstTokenAtOrAfter } = s;
  // ---------- table cells in a column headed as names ("Name", "Nama Pesakit", "NOK_NAME", "Nama penerima")
  // and, without such a header, a cell that holds only two to four name words no dictionary knows ("| Jujin Nehkiton |");
  // a quoted value or a CSV field is a cell too ("new": "INGRID SOLBERG", ...,Punitha,Clerk,...)
  const fields: Array<{ start: number; value: string }> = [...tableCells(ctx)];
  for (const m of text.matchAll(/"([^"\n]{3,60})"/g)) fields.push({ start: m.index + 1, value: m[1] });
  for (let l = 0; l < lineStarts.length; l++) {
    const ls = lineStarts[l];
    const le = l + 1 < lineStarts.length ? lineStarts[l + 1] - 1 : text.length;
    let commas = 0;
    for (let k = ls; k < le && commas < 3; k++) if (text.charCodeAt(k) === 44) commas++;
    if (commas < 3) continue; // a CSV row: four or more fields
    const line = text.slice(ls, le);
    if (line.includes('|') || line.includes('\t')) continue;
    let off = ls;
    for (const f of line.split(',')) {
      const v = f.trim();
      if (v && !v.includes('"')) fields.push({ start: off + f.indexOf(v), value: v });
      off += f.length + 1;
    }
  }
  for (const { start: s, value: v } of fields) {
    if (/\d/.test(v) || !/\p{L}/u.test(v) || v.split(/\s+/).length > 7) continue;
    const header = tableCell(ctx, s, s + v.length)?.header;
    if (!header || !NAME_HEADER_RE.test(header) || NOT_NAME_HEADER_RE.test(header)) {
      if (header && NOT_NAME_HEADER_RE.test(header)) continue;
      let a = -1;
      let b = -1;
      let unknown = 0;
      let good = true;
      for (let k = firstTokenAtOrAfter(s); k < n && toks[k].end <= s + v.length; k++) {
        const r = role[k];
        if (r === 'conn') continue;
        if (!(r === 'unk' || r === 'name' || r === 'prefix') || !isCapShape(toks[k])) good = false;
        if (r === 'unk' || r === 'name') unknown++;
        if (a < 0) a = k;
        b = k;
      }
      if (!good || a < 0 || b - a < 1 || b - a > 5 || !unknown || !unknownWordsOk(a, b) || maxProt(toks[a].start, toks[b].end) > 0.6) continue;
      accepted.push({ first: a, last: b, score: 0.6, strongCue: false, lower: false });
      continue;
    }
    let firstTok = -1;
    let lastTok = -1;
    let ok = true;
    for (let k = firstTokenAtOrAfter(s); k < n && toks[k].end <= s + v.length; k++) {
      const t = toks[k];
      if (role[k] === 'blocked' || (t.flags & F.CLINICAL && !(t.flags & NAME_FLAGS))) {
        ok = false;
        break;
      }
      if (role[k] === 'title' || role[k] === 'other') continue;
      if (firstTok < 0) {
        if (role[k] === 'conn') continue;
        firstTok = k;
      }
      lastTok = k;
    }
    if (!ok || firstTok < 0 || maxProt(toks[firstTok].start, toks[lastTok].end) > 0.85) continue;
    accepted.push({ first: firstTok, last: lastTok, score: 0.85, strongCue: true, lower: toks[firstTok].shape === 'lower' });
  }
}

/**
 * Chat mentions: "@Nurfarah", "@ng can u call": a handle after '@' (not an e-mail address, not "@ 10pm") is a person.
 * An ordinary word after '@' is "at" ("@home", "@ward"), unless it is also a name (ng, lim).
 */
export function findAtMentions(s: PersonScan): void {
  const { text, toks, n, accepted, maxProt, firstTokenAtOrAfter } = s;
  if (!text.includes('@')) return;
  for (const m of text.matchAll(/(?<![\p{L}\p{N}._%+-])@([\p{L}][\p{L}\p{M}'\u2019-]{1,30})(?![\p{L}\p{N}@]|\.[\p{L}])/gu)) {
    const start = m.index + 1;
    const end = start + m[1].length;
    const k = firstTokenAtOrAfter(start);
    if (k >= n || toks[k].start !== start || toks[k].end > end) continue;
    const t = toks[k];
    if (t.flags & (VOCAB_FLAGS | F.DICT) && !(t.flags & NAME_FLAGS)) continue;
    if (maxProt(t.start, t.end) > 0.85) continue;
    accepted.push({ first: k, last: k, score: 0.8, strongCue: true, lower: t.shape === 'lower' });
  }
}

/**
 * Form fields: "Waris terdekat : AF IQ DANISH  BIN HARUN  Hubungan: ANAK". After a person label and its colon, the
 * whole value up to two spaces, a tab, a bracket or the end of the line is the name when it is made only of letters
 * and name punctuation and holds no clinical word: scanned forms break names apart ("LIN AH K0W MARCU S"), and the
 * field's position, not the words, says it is a person. A title at its start is left out.
 */
export function findLabelledFieldValues(s: PersonScan): void {
  const { text, toks, n, role, accepted, maxProt, firstTokenAtOrAfter } = s;
  // (one way to split the label into words: a space between them is required, so no backtracking blow-up)
  const FIELD_RE = /^[ \t]*([A-Za-z][A-Za-z'\u2019/.]*(?:[ \t][A-Za-z][A-Za-z'\u2019/.]*){0,4})[ \t]*:[ \t]*([^\n]{2,60}?)(?=[ \t]{2,}|\t|[ \t]*(?:\(|$))/gm;
  for (const m of text.matchAll(FIELD_RE)) {
    if (!isPersonFieldLabel(m[1])) continue;
    const v = m[2];
    // letters and name punctuation; an OCR'd 0, 1 or 5 inside a word is a letter ("K0W", "Su1o")
    if (!/^[\p{L}][\p{L}\p{M} .'\u2019/-]*$/u.test(v.replace(/(?<=\p{L})[015](?=\p{L})|(?<=\p{Ll})1\b/gu, 'x')) || v.split(/\s+/).length > 8) continue;
    const vs = m.index + m[0].length - v.length;
    const ve = vs + v.length;
    let a = -1;
    let b = -1;
    let nameish = 0;
    let ok = true;
    for (let k = firstTokenAtOrAfter(vs); k < n && toks[k].end <= ve; k++) {
      const t = toks[k];
      if (role[k] === 'title' && a < 0) continue;
      // (a letter or two is a fragment of a name the scan broke apart, not an abbreviation: "AF IQ DANISH", "HUA T")
      if (t.flags & (F.CLINICAL | F.MEDICAL | F.INSTITUTION) && !(t.flags & NAME_FLAGS) && t.text.length >= 3) {
        ok = false;
        break;
      }
      // a capitalised name word, or a name our gazetteers know in lower case: a lone unknown lower-case word after a
      // label is too often a value of another kind ("patient: enum", "name: default")
      if (((role[k] === 'unk' || role[k] === 'amb' || role[k] === 'prefix') && isCapShape(t)) || role[k] === 'name' || role[k] === 'lname') nameish++;
      if (t.shape === 'punct') continue;
      // a role after the name ("Saiful / HO", "Tan MO") is not part of it
      // (a short capitalised role such as HO or MO is the role even where it is also a surname)
      if (a >= 0 && t.flags & F.ROLE && (!(t.flags & NAME_FLAGS) || (t.shape === 'upper' && t.text.length <= 3))) break;
      if (a < 0) a = k;
      b = k;
    }
    if (!ok || a < 0 || !nameish) continue;
    if (maxProt(toks[a].start, toks[b].end) > 0.6) continue;
    accepted.push({ first: a, last: b, score: 0.85, strongCue: true, lower: toks[a].shape === 'lower' });
  }
}
