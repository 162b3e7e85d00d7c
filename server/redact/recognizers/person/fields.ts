/**
 * Stage 5 of the PERSON recognizer: names in fields whose position says "a person": chat senders (WhatsApp Android
 * and iOS, Telegram, Teams/Slack), table cells of a name column, and cells, quoted values or CSV fields that hold
 * only name words no dictionary knows.
 */
import { F, NAME_FLAGS, VOCAB_FLAGS } from '../../lexicon';
import { tableCell, tableCells } from '../base';
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
    for (let k = firstTokenAtOrAfter(s); k < n && toks[k].end <= e; k++) if (k > 0 && toks[k].flags & F.ROLE && isCapShape(toks[k]) && toks[k - 1].start >= s) { eName = toks[k].start; break; }
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
