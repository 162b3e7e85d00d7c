/**
 * Stages 2 and 3 of the PERSON recognizer: runs of name-like words (capitalised, ALL CAPS, or lower case in a line
 * typed without capitals), each scored from its structure (connectors, Chinese surname + syllables, prefixes,
 * gazetteer names) and its context (a title, label, relation or greeting before it; an age, relation, role or
 * identifier after it). A run joined by "and", "," or "/" to a strongly evidenced name is a name too (coordination).
 */
import { F, NAME_FLAGS, VOCAB_FLAGS } from '../../gazetteer';
import { beforeCue, isRelationWord } from './labels';
import { isCapShape, type PersonScan, type Run, type ScoredRun } from './scan';
import {
  BED_BEFORE_RE,
  CN_SYLLABLE_SHAPE_RE,
  HEAD_NOUN_AFTER_RE,
  ID_LINE_RE,
  INTERJECTIONS,
  LOWER_CUE_PHRASE_RE,
  LOWER_CUE_WORDS,
  NAMEISH,
  NAME_SUFFIX_RE,
  PATRONYMIC,
  PERSON_VERB_AFTER_RE,
  POSSESSIVE_NOUN_RE,
  POST_AGE_BARE_RE,
  POST_AGE_RE,
  POST_CO_RE,
  POST_COLUMN_IC_RE,
  POST_FAMILY_RE,
  POST_ID_RE,
  POST_IDLINE_RE,
  POST_REL_RE,
  POST_ROLE_RE,
  POST_VERB_RE,
  SIGNOFF_RE,
} from './vocabulary';

/** Runs of name-like tokens, longest first. */
export function buildRuns(s: PersonScan): Run[] {
  const { toks, n, role, joinable, isUpperLine } = s;
  /** A patronymic connector at most three words before token j (inside the run being built from i). */
  let runStart = 0;
  const patronymicBefore = (j: number): boolean => {
    for (let k = j; k >= Math.max(runStart, j - 2); k--) if (role[k] === 'conn' && PATRONYMIC.has(toks[k].norm) && k > runStart) return true;
    return false;
  };
  const sameCase = (a: (typeof toks)[number], b: (typeof toks)[number]) => (a.shape === 'upper' ? b.shape === 'upper' : b.shape === 'cap');
  const runs: Run[] = [];
  for (let i = 0; i < n; i++) {
    const r = role[i];
    runStart = i;
    const startOk = NAMEISH.has(r) || (r === 'initial' && i + 1 < n && joinable(i, i + 1) && NAMEISH.has(role[i + 1]));
    if (!startOk) continue;
    let j = i;
    let upperWords = 0;
    while (j + 1 < n && joinable(j, j + 1)) {
      const rn = role[j + 1];
      if (toks[j].shape === 'upper' && role[j] !== 'conn') upperWords++;
      // an ALL-CAPS name is not continued by a capitalised word ("<NAME BIN NAME>  Inmate no. ...")
      if (upperWords >= 2 && toks[j + 1].shape === 'cap' && !isUpperLine(toks[j + 1].line)) break;
      if (NAMEISH.has(rn) || rn === 'initial' || rn === 'conn') {
        j++;
        continue;
      }
      // "bin Haji Jusoh": a title word right after a connector belongs to the father's name
      if (rn === 'title' && role[j] === 'conn' && j + 2 < n && joinable(j + 1, j + 2)) {
        j++;
        continue;
      }
      // a title word that is also a name, inside a name, is a name (Burmese names contain Tun, Daw, U)
      if (rn === 'title' && NAMEISH.has(role[j]) && toks[j + 1].flags & NAME_FLAGS) {
        role[j + 1] = toks[j + 1].flags & VOCAB_FLAGS ? 'amb' : 'name';
        j++;
        continue;
      }
      // after a patronymic connector the father's name continues in the name's own case even through ordinary words
      // ("MARLINA BT. MAT SAMAN", "Che Norlia Bt. Mat Saman": saman is a Malay word), up to three words, never
      // through a clinical, medical, role, institution or place word
      if (
        rn === 'vocab' &&
        patronymicBefore(j) &&
        sameCase(toks[j], toks[j + 1]) &&
        !(toks[j + 1].flags & (F.CLINICAL | F.MEDICAL | F.ROLE | F.INSTITUTION | F.PLACE | F.TITLE))
      ) {
        role[j + 1] = 'amb';
        j++;
        continue;
      }
      // lower-case connector particles (van, de, al) inside a capitalised name
      break;
    }
    // trim trailing connectors / initials / stray punctuation
    while (j > i && (role[j] === 'conn' || role[j] === 'initial' || role[j] === 'title')) j--;
    runs.push({ first: i, last: j });
    i = j;
  }

  return runs;
}

/** Score each run; accepted names go to `s.accepted`, the others are returned for coordination. */
export function scoreRuns(s: PersonScan, runs: Run[]): Run[] {
  const {
    ctx,
    text,
    toks,
    n,
    role,
    lineStarts,
    accepted,
    maxProt,
    joinable,
    isUpperLine,
    textBeforeOnLine,
    textAfterOnLine,
    prevNonEmptyLine,
    firstOfLine,
    isSentenceStart,
    midSentence,
    unknownWordsOk,
    lowerNamesOk,
    allUpperRun,
  } = s;
  type Cue = 'strong' | 'weak' | 'none';
  let runFirst = -1; // first token of the run being scored (set by scoreRun)
  /** The name-like words from `first` on are all ordinary words that are also names (weak after a lower-case cue). */
  const allAmb = (first: number): boolean => {
    for (let k = first; k < n && (k === first || joinable(k - 1, k)); k++) {
      if (role[k] === 'name' || role[k] === 'unk' || role[k] === 'prefix') return false;
      if (role[k] !== 'amb' && role[k] !== 'conn' && role[k] !== 'initial') break;
    }
    return true;
  };
  function preCue(first: number): { cue: Cue; title: boolean } {
    const t = toks[first];
    if (first > 0 && role[first - 1] === 'title' && joinable(first - 1, first)) return { cue: 'strong', title: true };
    // a role word right before the name: "Pharmacist <name>", "Dietitian <name>"
    if (first > 0 && toks[first - 1].flags & F.ROLE && isCapShape(toks[first - 1]) && joinable(first - 1, first)) return { cue: 'strong', title: true };
    // ... also in lower case ("reconciled by pharmacist <name>", "handed over to staff nurse <name>")
    if (
      first > 0 &&
      toks[first - 1].flags & F.ROLE &&
      toks[first - 1].shape === 'lower' &&
      !(toks[first - 1].flags & F.CLINICAL) &&
      joinable(first - 1, first) &&
      !allAmb(first)
    )
      return { cue: 'strong', title: true };
    const before = textBeforeOnLine(t);
    const cue = beforeCue(before);
    if (cue === 'label' || cue === 'rel' || cue === 'greeting' || cue === 'consent' || cue === 'patient') return { cue: 'strong', title: false };
    // ward talk: "bed 22 <name> spiked a fever", "katil 5 - <name>"
    if (BED_BEFORE_RE.test(before.slice(-24))) return { cue: 'strong', title: false };
    if (!/\S/.test(before.replace('\u0001', '')) || cue === 'dash') {
      const prev = prevNonEmptyLine(t.line);
      if (prev && SIGNOFF_RE.test(prev)) return { cue: 'strong', title: false };
      if (cue === 'dash') return { cue: 'weak', title: false };
    }
    if (cue === 'weak') return { cue: 'weak', title: false };
    return { cue: 'none', title: false };
  }
  function postCue(last: number): Cue {
    const t = toks[last];
    const after = textAfterOnLine(t);
    // a name alone on its line, with an identifier line under it (labels, letters: "<NAME>\nRN 0012345")
    if (!/\S/.test(after) && t.line + 1 < lineStarts.length && firstOfLine(last) === runFirst) {
      const next = text.slice(lineStarts[t.line + 1], lineStarts[t.line + 1] + 40);
      if (ID_LINE_RE.test(next)) return 'strong';
    }
    if (POST_REL_RE.test(after) || POST_AGE_RE.test(after) || POST_AGE_BARE_RE.test(after) || POST_ROLE_RE.test(after) || POST_FAMILY_RE.test(after))
      return 'strong';
    if (POST_ID_RE.test(after) || POST_IDLINE_RE.test(after) || POST_COLUMN_IC_RE.test(after) || POST_CO_RE.test(after)) return 'strong';
    if (t.possessive && POSSESSIVE_NOUN_RE.test(after)) return 'strong';
    if (POST_VERB_RE.test(after) || t.possessive) return 'weak';
    return 'none';
  }

  /** Where a head-first institution name begins (Klinik Pakar ..., Hospital Kuala Lumpur). */
  const institutionStarts = new Set<number>();
  for (const p of ctx.protectedSpans) if (p.kind === 'HOSPITAL' && p.end - p.start > 8) institutionStarts.add(p.start);

  const scoreRun = (run: Run): ScoredRun | null => {
    const { first, last } = run;
    let nName = 0;
    let nAmb = 0;
    let nUnk = 0;
    let nPrefix = 0;
    let nTok = 0;
    let conn = false;
    let allUpper = true;
    let emailHit = false;
    for (let k = first; k <= last; k++) {
      const r = role[k];
      const t = toks[k];
      if (r === 'conn') {
        // only patronymic connectors are structural evidence; particles (van, de, dela) are not
        if (k > first && k < last && (PATRONYMIC.has(t.norm) || t.text === '@')) conn = true;
        continue;
      }
      nTok++;
      if (r === 'unk' && NAME_SUFFIX_RE.test(t.norm)) nName++;
      else if (r === 'name') nName++;
      else if (r === 'amb') nAmb++;
      else if (r === 'unk') nUnk++;
      else if (r === 'prefix' && first === last && t.flags & F.GIVEN)
        nName++; // "Siti", "Nurul", "Abdul" used alone
      else if (r === 'prefix') nPrefix++;
      if (t.shape !== 'upper' && t.shape !== 'initial') allUpper = false;
      if (ctx.emailNameParts.has(t.norm)) emailHit = true;
    }
    const ft = toks[first];
    // Chinese: surname + 1-2 syllables, optionally after a Western given name
    let chinese = false;
    {
      let k = first;
      if (toks[k].flags & F.GIVEN && !(toks[k].flags & F.CN_SURNAME) && k < last) k++;
      if (toks[k].flags & F.CN_SURNAME && last - k >= 1 && last - k <= 2) {
        chinese = true;
        // given-name syllables: known ones, or short unknown words shaped like a syllable (Hoon, Kiat, Sze)
        for (let q = k + 1; q <= last; q++)
          if (!(toks[q].flags & F.CN_SYLLABLE) && !(role[q] === 'unk' && CN_SYLLABLE_SHAPE_RE.test(toks[q].norm))) chinese = false;
        // in lower case, words that are all ordinary English are the words ("see you", "wait ah")
        if (chinese && toks[first].shape === 'lower') {
          let allCommon = true;
          for (let q = first; q <= last; q++) if (!(toks[q].flags & F.COMMON && toks[q].flags & F.ENGLISH)) allCommon = false;
          if (allCommon) chinese = false;
        }
      }
    }
    let score: number;
    const strongNames = nName + nPrefix;
    // Sikh names: <given> Singh / <given> Kaur (optionally a clan name after it)
    let sikh = false;
    for (let k = first + 1; k <= last; k++) if (toks[k].norm === 'singh' || toks[k].norm === 'kaur') sikh = role[first] !== 'conn' && nTok >= 2;
    if (conn && nTok >= 2) score = 0.9;
    else if (sikh) score = 0.8;
    else if (chinese) score = 0.75;
    else if (role[first] === 'prefix' && nTok >= 2 && nUnk + nName >= 1 && !allUpperRun(first, last))
      score = 0.7; // Nur Batrisyia, Siti Xyz
    else if (nTok >= 2 && nUnk === 0 && nName >= 1 && strongNames + nAmb === nTok) score = nName >= 2 ? 0.75 : 0.6;
    // "<Given> <Surname>" with a known given name and an unknown surname (Western, Kadazan, Iban convention)
    else if (
      nTok === 2 &&
      nUnk === 1 &&
      role[first] === 'name' &&
      toks[first].flags & F.GIVEN &&
      role[last] === 'unk' &&
      toks[first].shape === 'cap' &&
      toks[last].shape === 'cap'
    )
      score = 0.55;
    else if (nTok >= 3 && nName >= 2 && nUnk <= 1)
      score = 0.6; // two gazetteer names and one unknown word
    else if (nTok >= 2 && nName >= 1 && nUnk <= 1) score = 0.45;
    else if (nTok === 1 && nName === 1) score = 0.55;
    else if (nName >= 1) score = 0.45;
    else if (nAmb >= 1 && nUnk === 0) score = 0.3;
    else score = 0.2;
    // Default suspicious: capitalised words that no dictionary (English, Malay, medical) knows, in the middle of a
    // sentence, are a name ("seen with Zulkarnain Hamdan today"); the allow-list protects places, institutions, drugs.
    const unknownMid = nAmb === 0 && nUnk >= 1 && !allUpper && ft.shape === 'cap' && midSentence(first) && unknownWordsOk(first, last);
    if (unknownMid) score = Math.max(score, nTok >= 2 ? 0.6 : 0.55);
    // a gazetteer name that is no dictionary word, in a line typed in lower case ("aminah family asking for update")
    const lowerGazetteer = ft.shape === 'lower' && nName >= 1 && nUnk === 0 && nAmb === 0 && lowerNamesOk(first, last);
    // an unknown lower-case word right after a person cue in a lower-case line ("anak perempuan sy rugayah yg bawa")
    if (ft.shape === 'lower' && nAmb === 0 && nUnk + nName === nTok && nTok <= 3 && (ft.text.length >= 4 || nTok >= 2) && first > 0) {
      const p = toks[first - 1];
      if (p.line === ft.line && (LOWER_CUE_WORDS.has(p.norm) || LOWER_CUE_PHRASE_RE.test(textBeforeOnLine(ft).slice(-24)))) score = Math.max(score, 0.6);
    }

    // Cues cannot change the outcome of a clearly structured mixed-case name (>= 0.75 is accepted and propagated
    // either way), so skip reading the context there: it is the costliest part on long notes.
    const needCues = score < 0.75 || allUpper || ft.shape === 'lower';
    runFirst = first;
    const pre = needCues ? preCue(first) : { cue: 'none' as Cue, title: false };
    const post: Cue = !needCues || pre.cue === 'strong' ? 'none' : postCue(last); // a strong cue before makes the one after moot
    let strongCue = false;
    if (pre.cue === 'strong' || (post === 'strong' && nName + nUnk + nPrefix > 0)) {
      strongCue = true;
      const ok = nName + nAmb + nUnk + nPrefix > 0;
      if (ok) score = Math.max(score, pre.cue === 'strong' ? 0.85 : nUnk === nTok ? 0.75 : 0.8);
    }
    if (pre.cue === 'weak' && nName >= 1) score += 0.1;
    if (post === 'weak' && nName + nAmb >= 1) score += 0.05;
    if (emailHit) score = Math.max(score, Math.min(0.85, score + 0.25));
    // ALL-CAPS text (headings, labels) needs more than one name-looking word
    if (allUpper && !conn && !strongCue) score -= 0.2;
    // in a lower-case line, a name without any cue is too weak (ordinary words there are lower case too), unless it is
    // a gazetteer name that no dictionary knows
    if (ft.shape === 'lower' && !conn && !strongCue && !lowerGazetteer && score < 0.6) score -= 0.15;
    // a capitalised dictionary word that is also a name, alone at the start of a sentence with no cue ("Along the
    // corridor", "Mark the date", "Selamat pagi"), is the word
    // (unless a person's verb follows a given name: "Achik will sign the consent")
    if (
      nTok === 1 &&
      !strongCue &&
      ft.flags & F.DICT &&
      isSentenceStart(first) &&
      ft.shape !== 'lower' &&
      !(ft.flags & F.GIVEN && PERSON_VERB_AFTER_RE.test(textAfterOnLine(toks[last])))
    )
      score = Math.min(score, 0.45);
    // "Caller: Oh ya", "Pt: Okay": a reply, not a name
    if (nTok === 1 && INTERJECTIONS.has(ft.norm)) return null;
    // a lone short upper-case unknown word in ordinary text is an acronym (RRT, LAD), not a name
    if (nTok === 1 && nUnk === 1 && ft.shape === 'upper' && ft.text.length <= 4 && !isUpperLine(ft.line) && !pre.title) score = 0;
    // a capitalised word right before "Hospital", "Clinic", "Sdn Bhd" is an institution
    // (not a patronymic name, and not an ALL-CAPS name before a Title-case head: "<NAME BINTI NAME> Klinik Pakar")
    // (and not before a head that opens its own institution name: "<Name> Klinik Pakar Pediatrik")
    if (
      !conn &&
      !(allUpper && /^ \p{Lu}\p{Ll}/u.test(text.slice(toks[last].end, toks[last].end + 3))) &&
      HEAD_NOUN_AFTER_RE.test(text.slice(toks[last].end, toks[last].end + 20)) &&
      !(last + 1 < n && institutionStarts.has(toks[last + 1].start))
    )
      score = Math.min(score, 0.3);
    // a single ambiguous/unknown word at the start of a sentence, without a cue, is ordinary English
    if (score < 0.5) return null;
    const protection = maxProt(ft.start, toks[last].end);
    if (protection > score) return null;
    return { first, last, score: Math.min(score, 0.9), strongCue, lower: false };
  };

  const rejected: Run[] = [];
  // Split runs at tokens inside strong clinical regions (a date, a lab value, a hospital name): the name ends there.
  const split: Run[] = [];
  for (const run of runs) {
    let a = run.first;
    for (let k = run.first; k <= run.last; k++) {
      if (maxProt(toks[k].start, toks[k].end) >= 0.9) {
        if (k > a) split.push({ first: a, last: k - 1 });
        a = k + 1;
      }
    }
    if (a <= run.last) split.push({ first: a, last: run.last });
  }
  for (const run of split) {
    // "son <name>", "SON <NAME>": a relation word that is also a name syllable is the cue, not part of the name
    // (a capitalised hereditary prefix that is also a kinship word stays: "Abang Khairul bin Abang Daud")
    while (
      run.first < run.last &&
      isRelationWord(toks[run.first].norm) &&
      role[run.first] !== 'name' &&
      !(toks[run.first].flags & F.PREFIX && isCapShape(toks[run.first]))
    )
      run.first++;
    while (run.last > run.first && (role[run.last] === 'conn' || role[run.last] === 'initial')) run.last--;
    if (role[run.first] === 'conn') continue;
    // an unknown capitalised word opening the sentence before a known name is the sentence's verb, not the name
    // ("Summarise Tan Ah Kow", "Pls Lim Wei Ming")
    // (not under a sign-off, and not when the run is the whole line: "Regards,\nCharmaine Lim Mei Ling")
    if (
      run.last - run.first >= 2 &&
      role[run.first] === 'unk' &&
      isSentenceStart(run.first) &&
      (role[run.first + 1] === 'name' || role[run.first + 1] === 'prefix') &&
      !PATRONYMIC.has(toks[run.first + 1].norm) &&
      toks[run.first + 1].norm !== 'singh' &&
      toks[run.first + 1].norm !== 'kaur' &&
      !(
        firstOfLine(run.first) === run.first &&
        !/\S/.test(textAfterOnLine(toks[run.last])) &&
        (SIGNOFF_RE.test(prevNonEmptyLine(toks[run.first].line) ?? '') || !/\S/.test(textBeforeOnLine(toks[run.first])))
      )
    )
      run.first++;
    ctx.checkDeadline();
    // A run may hold an ambiguous word at its edge ("Lim Will review"): trim ambiguous common words at the end.
    const first = run.first;
    let last = run.last;
    while (
      last > first &&
      role[last] === 'amb' &&
      toks[last].flags & F.COMMON &&
      !(toks[last].flags & (F.CN_SYLLABLE | F.CN_SURNAME)) &&
      toks[last].shape === 'cap' &&
      last + 1 < n &&
      toks[last + 1].shape === 'lower' &&
      joinable(last, last + 1)
    )
      last--;
    const s = scoreRun({ first, last });
    if (s) accepted.push(s);
    else rejected.push({ first, last });
  }

  return rejected;
}

/** Coordination: a name-like run joined by "and" / "," / "&" / "/" to a strongly evidenced name is a name too. */
export function coordinate(s: PersonScan, rejected: Run[]): void {
  const { text, toks, n, role, accepted, maxProt, allUpperRun } = s;
  // Coordination: a name-like run joined by "and" / "," / "&" / "/" to a name accepted with strong evidence is a name
  // too ("Visitors: <Name>, <Name> and <Name>", "<Name> / <Name>").
  {
    const COORD_RE = /^[ \t]*(?:,|&|\/|and|dan|or|atau|,[ \t]*and|,[ \t]*dan)[ \t]*$/i;
    const strongEnd = new Map<number, ScoredRun>();
    const strongStart = new Map<number, ScoredRun>();
    for (const a of accepted) {
      strongEnd.set(a.last, a);
      strongStart.set(a.first, a);
    }
    for (const r of rejected) {
      if (r.last - r.first > 3) continue;
      let ok = true;
      for (let k = r.first; k <= r.last; k++) {
        const rk = role[k];
        if (!(rk === 'name' || rk === 'unk' || rk === 'prefix' || rk === 'conn' || rk === 'initial') || !(isCapShape(toks[k]) || rk === 'conn')) ok = false;
      }
      if (!ok || maxProt(toks[r.first].start, toks[r.last].end) > 0.5) continue;
      // the nearest accepted run on the left or right, on the same line, separated only by a coordinator
      let left: ScoredRun | undefined;
      for (let k = r.first - 1; k >= 0 && k >= r.first - 3 && toks[k].line === toks[r.first].line; k--) {
        const a = strongEnd.get(k);
        if (a) {
          left = COORD_RE.test(text.slice(toks[k].end + (toks[k].possessive ? 2 : 0), toks[r.first].start).replace(/\([^)]*\)/g, '')) ? a : undefined;
          break;
        }
      }
      let right: ScoredRun | undefined;
      for (let k = r.last + 1; k < n && k <= r.last + 3 && toks[k].line === toks[r.last].line; k++) {
        const a = strongStart.get(k);
        if (a) {
          right = COORD_RE.test(text.slice(toks[r.last].end, toks[k].start)) ? a : undefined;
          break;
        }
      }
      const anchor = left ?? right;
      // an all-caps word next to a mixed-case name is an acronym (", MLT"), not a name
      if (anchor && allUpperRun(r.first, r.last) && !allUpperRun(anchor.first, anchor.last)) continue;
      if (anchor) accepted.push({ first: r.first, last: r.last, score: 0.75, strongCue: true, lower: false });
    }
  }
}
