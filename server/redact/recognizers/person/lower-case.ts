/**
 * Stage 4 of the PERSON recognizer: names written in lower case (quick notes, chat): patronymic names ("punitha d/o
 * letchumanan"), gazetteer names no dictionary knows ("family rohaya called"), unknown words after a person cue ("tell
 * madsuri"), vocatives and topics in chat ("madsuri u bring ...", "asmahani: drain 266 ml"), and names with a cue
 * before and after.
 */
import { F, NAME_FLAGS, VOCAB_FLAGS } from '../../gazetteer';
import { inlineGapDot } from '../../tokens';
import { beforeCue } from './labels';
import type { PersonScan } from './scan';
import { LOWER_CUE_PHRASE_RE, LOWER_CUE_WORDS, PATRONYMIC, PERSONAL_TITLES, POST_AGE_RE, POST_REL_RE } from './vocabulary';

/** The last words of the cue phrases (LOWER_CUE_PHRASE_RE): the phrase is only tried after one of them. */
const PHRASE_ENDS = new Set(['on', 'for', 'is', 'am', 'saya', 'sy', 'ialah']);

export function findLowerCaseNames(s: PersonScan): void {
  const { text, toks, n, role, accepted, maxProt, joinable, isLowerLine, textBeforeOnLine, textAfterOnLine, lowerNamesOk, lowerUnknown } = s;
  // ---------- lower-case names (quick notes): a cue word + gazetteer name, or a name right before "(54F)"
  const inAccepted = new Uint8Array(n);
  for (const a of accepted) inAccepted.fill(1, a.first, a.last + 1);
  // ---------- lower-case patronymic names ("punitha d/o letchumanan", "syuhada binti hj. daud", "ali bin abu")
  for (let c = 1; c + 1 < n; c++) {
    if (role[c] !== 'conn' || toks[c].shape !== 'lower' || !PATRONYMIC.has(toks[c].norm) || inAccepted[c]) continue;
    const anak = toks[c].norm === 'anak' || toks[c].norm === 'ak';
    const nameWord = (k: number) =>
      k >= 0 &&
      k < n &&
      toks[k].shape === 'lower' &&
      toks[k].line === toks[c].line &&
      !inAccepted[k] &&
      (role[k] === 'lname' || lowerUnknown(k) || (!anak && (toks[k].flags & NAME_FLAGS) !== 0 && !(toks[k].flags & (F.CLINICAL | F.MEDICAL | F.TITLE))));
    if (!nameWord(c - 1) || !joinable(c - 1, c)) continue;
    let a = c - 1;
    while (a - 1 >= 0 && c - a < 3 && nameWord(a - 1) && joinable(a - 1, a)) a--;
    let b = c + 1;
    // the father's name may carry a title ("binti hj. daud")
    if (b < n && toks[b].flags & F.TITLE && b + 1 < n && joinable(c, b) && inlineGapDot(text, toks[b], toks[b + 1])) b++;
    if (!nameWord(b) || !(joinable(b - 1, b) || inlineGapDot(text, toks[b - 1], toks[b]))) continue;
    while (b + 1 < n && b - c < 3 && nameWord(b + 1) && joinable(b, b + 1)) b++;
    // 'anak' is also "child": both sides must be words no dictionary knows
    if (anak && !(lowerUnknown(c - 1) || role[c - 1] === 'lname')) continue;
    if (maxProt(toks[a].start, toks[b].end) > 0.85) continue;
    accepted.push({ first: a, last: b, score: 0.85, strongCue: true, lower: true });
    inAccepted.fill(1, a, b + 1);
    c = b;
  }

  // ---------- lower-case Chinese names: a surname and one or two given-name syllables ("lim wei jie", "foo kok leong")
  // after a person cue ("pt name", "husband/wife", "tell") or before an identifier, age or phone: the words are also
  // ordinary words one by one (chin, wah, ah), so the structure and the cue decide together
  for (let i = 0; i + 1 < n; i++) {
    const t = toks[i];
    if (t.shape !== 'lower' || !(t.flags & F.CN_SURNAME) || inAccepted[i] || t.flags & (F.CLINICAL | F.MEDICAL)) continue;
    let j = i;
    while (
      j + 1 < n &&
      j - i < 2 &&
      toks[j + 1].shape === 'lower' &&
      toks[j + 1].flags & F.CN_SYLLABLE &&
      !(toks[j + 1].flags & (F.CLINICAL | F.MEDICAL)) &&
      !inAccepted[j + 1] &&
      joinable(j, j + 1)
    )
      j++;
    if (j === i) continue;
    let p = i - 1;
    while (p >= 0 && toks[p].shape === 'punct' && toks[p].line === t.line && p >= i - 2) p--;
    const cueBefore = p >= 0 && toks[p].line === t.line && (LOWER_CUE_WORDS.has(toks[p].norm) || beforeCue(textBeforeOnLine(t)) === 'label');
    const after = textAfterOnLine(toks[j]);
    const cueAfter =
      POST_AGE_RE.test(after) || POST_REL_RE.test(after) || /^[ \t]*(?:\(?[ \t]*(?:ic|k\/p|nric|mykad|rn|mrn)\b|[(,]?[ \t]*\+?\d{3})/i.test(after);
    if (!cueBefore && !cueAfter) continue;
    if (maxProt(t.start, toks[j].end) > 0.75) continue;
    accepted.push({ first: i, last: j, score: 0.75, strongCue: true, lower: true });
    inAccepted.fill(1, i, j + 1);
    i = j;
  }

  for (let i = 0; i < n; i++) {
    if (role[i] !== 'lname' && !(role[i] === 'lower' && !(toks[i].flags & VOCAB_FLAGS))) continue;
    if (inAccepted[i]) continue;
    const t = toks[i];
    if (t.flags & (F.CONNECTOR | F.TITLE) || t.text.length < 2) continue;
    // a gazetteer name that no dictionary knows, in lower case, is a name wherever it stands ("family rohaya called")
    let jg = i;
    while (jg + 1 < n && jg - i < 2 && joinable(jg, jg + 1) && role[jg + 1] === 'lname') jg++;
    if (role[i] === 'lname' && lowerNamesOk(i, jg) && maxProt(t.start, toks[jg].end) <= 0.75) {
      // the unknown words and name prefixes next to it belong to the name ("mst. rokeya begum", "begum rokeya")
      const partOf = (k: number) =>
        k >= 0 &&
        k < n &&
        toks[k].line === t.line &&
        !inAccepted[k] &&
        (lowerUnknown(k) || role[k] === 'lname' || (toks[k].shape === 'lower' && (toks[k].flags & F.PREFIX) !== 0));
      let ig = i;
      while (ig - 1 >= 0 && i - ig < 3 && partOf(ig - 1) && (joinable(ig - 1, ig) || inlineGapDot(text, toks[ig - 1], toks[ig]))) ig--;
      while (jg + 1 < n && jg - i < 3 && partOf(jg + 1) && joinable(jg, jg + 1)) jg++;
      accepted.push({ first: ig, last: jg, score: 0.6, strongCue: false, lower: true });
      i = jg;
      continue;
    }
    // a chat message addressed to someone ("madsuri u bring Bapa ...") or about someone ("asmahani: drain 266 ml"):
    // an unknown lower-case word at the start of a message or sentence, before "u"/"you"/"pls" or a colon
    if (lowerUnknown(i) && t.text.length >= 4) {
      const startOfMsg = /(?:^|[.!?:\]\n-][ \t]*|\b(?:POD|D)[ \t]*\d{1,2}[ \t]*)$/.test(textBeforeOnLine(t));
      const after = text.slice(t.end, t.end + 8);
      if (startOfMsg && (/^[ \t]+(?:u|you|pls|please|can|tolong|boleh)\b/i.test(after) || /^:[ \t]/.test(after)) && maxProt(t.start, t.end) <= 0.75) {
        accepted.push({ first: i, last: i, score: 0.6, strongCue: true, lower: true });
        continue;
      }
    }
    // cheap pre-filter: a cue word just before, or a bracket/comma just after the next 1-3 words
    let prevCue = false;
    {
      let p = i - 1;
      while (p >= 0 && toks[p].shape === 'punct' && toks[p].line === t.line && p >= i - 2) p--;
      prevCue = p >= 0 && toks[p].line === t.line && ((toks[p].flags & F.TITLE) !== 0 || LOWER_CUE_WORDS.has(toks[p].norm));
      let q = i + 1;
      while (q < n && q <= i + 3 && toks[q].line === t.line && toks[q].shape !== 'punct') q++;
      const nextCh = q < n && toks[q].line === t.line ? toks[q].text : '';
      if (
        !prevCue &&
        nextCh !== '(' &&
        nextCh !== ',' &&
        !(p >= 0 && PHRASE_ENDS.has(toks[p].norm) && LOWER_CUE_PHRASE_RE.test(textBeforeOnLine(t).slice(-24)))
      )
        continue;
    }
    // an unknown lower-case word (or two) right after a person cue ("tell madsuri", "pls update on asmahani"): a name
    {
      let ju = i;
      while (ju + 1 < n && ju - i < 1 && joinable(ju, ju + 1) && (lowerUnknown(ju + 1) || role[ju + 1] === 'lname')) ju++;
      let unknown = true;
      for (let k = i; k <= ju; k++) if (!(lowerUnknown(k) || role[k] === 'lname')) unknown = false;
      const phrase = LOWER_CUE_PHRASE_RE.test(textBeforeOnLine(t).slice(-24));
      // a cue word that is a field label ("patient: enum", "name: tba") does not vouch for an unknown word
      const labelGap = /[:=][ \t]*$/.test(textBeforeOnLine(t));
      // a given name that is also a rare dictionary word ("family izzat called") after the same cues
      const dictName = ju === i && t.flags & (F.GIVEN | F.SURNAME) && !(t.flags & (F.COMMON | F.CLINICAL | F.MEDICAL | F.ENGLISH));
      if ((unknown || dictName) && (prevCue || phrase) && !labelGap && (t.text.length >= 4 || ju > i) && maxProt(t.start, toks[ju].end) <= 0.75) {
        accepted.push({ first: i, last: ju, score: 0.6, strongCue: true, lower: true });
        i = ju;
        continue;
      }
    }
    let j = i;
    while (j + 1 < n && j - i < 2 && joinable(j, j + 1) && (role[j + 1] === 'lname' || (role[j + 1] === 'lower' && !(toks[j + 1].flags & VOCAB_FLAGS)))) j++;
    const allLname = (() => {
      for (let k = i; k <= j; k++) if (role[k] !== 'lname') return false;
      return true;
    })();
    const noVocab = (() => {
      for (let k = i; k <= j; k++) if (toks[k].flags & VOCAB_FLAGS || toks[k].text.length < 2) return false;
      return true;
    })();
    const before = textBeforeOnLine(t);
    // a title that is also an ordinary word (Major, Sister, Baby, Master) only cues a lower-case name in a lower-case line
    const titleBefore =
      i > 0 &&
      toks[i - 1].flags & F.TITLE &&
      toks[i - 1].line === t.line &&
      inlineGapDot(text, toks[i - 1], t) &&
      (isLowerLine(t.line) || PERSONAL_TITLES.has(toks[i - 1].norm) || !(toks[i - 1].flags & (F.COMMON | F.ROLE)));
    const bc = beforeCue(before);
    const cueBefore =
      titleBefore || bc === 'label' || bc === 'rel' || bc === 'patient' || /(?:^|\s)(?:review|reviewed|seen|pt|patient)\s*:?\s*$/i.test(before.slice(-20));
    const after = textAfterOnLine(toks[j]);
    const cueAfter = POST_AGE_RE.test(after) || POST_REL_RE.test(after) || /^\s*\(\s*\+?\d{2,4}[\s-]?\d{3}/.test(after);
    const plainWord = (() => {
      for (let k = i; k <= j; k++) if (/(?:ed|ing|ly|tion|ment|ness|able)$/.test(toks[k].norm) || toks[k].text.length < 3) return false;
      return true;
    })();
    let ok = false;
    if (allLname && (cueBefore || cueAfter)) ok = true;
    else if (noVocab && plainWord && titleBefore) ok = true;
    else if (
      noVocab &&
      plainWord &&
      bc === 'rel' &&
      j === i &&
      isLowerLine(t.line) &&
      !/(?:ous|ive|ic|ful|less|ary|ory|ant|ent|ish|ible|ise|ize)$/.test(t.norm) &&
      !/^[ \t]*,?[ \t]*\p{Lu}/u.test(after) // "employer rep Siti ...": the capitalised words after it are the name
    )
      ok = true;
    else if (noVocab && cueBefore && cueAfter) ok = true;
    else if (noVocab && POST_AGE_RE.test(after) && /(?:^|[:;,.]\s*|review:?\s*)$/i.test(before.trimEnd() + ' ') && j - i <= 2) ok = true;
    if (!ok || maxProt(t.start, toks[j].end) > 0.75) continue;
    accepted.push({ first: i, last: j, score: 0.75, strongCue: true, lower: true });
    i = j;
  }
}
