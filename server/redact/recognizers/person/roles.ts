/**
 * Stage 1 of the PERSON recognizer: what each token is. Gazetteers, dictionaries, titles and connectors give a first
 * role (classify); then structure corrects it: a word next to a patronymic connector, after a personal title or after
 * a person label is a name even when it is an ordinary word.
 */
import { F, NAME_FLAGS, VOCAB_FLAGS } from '../../gazetteer';
import { inlineGap, inlineGapDot, type Token } from '../../tokens';
import { isCapShape, type PersonScan, type Role } from './scan';
import { AMBIGUOUS_UPPER_TITLES, DOT_REQUIRED, INTERJECTIONS, LOWER_TITLES, NOT_AFTER_TITLE, PATRONYMIC, PERSONAL_TITLES, PERSON_FIELD_RE } from './vocabulary';

export function assignRoles(s: PersonScan): void {
  const { text, lex, toks, n, norms, role, lineStarts, isOccupied, isUpperLine, isLowerLine, joinInline } = s;
  for (let i = 0; i < n; i++) {
    const t = toks[i];
    if (t.shape === 'num' || t.shape === 'punct') {
      role[i] = t.text === '@' ? 'conn' : 'other';
      continue;
    }
    if (isOccupied(t.start, t.end)) {
      role[i] = 'blocked';
      continue;
    }
    role[i] = classify(t, i);
    // words of a code or key (patient_lookup, PRINT_WRISTBAND, nok_name) and CamelCase system names (LabAlertBot)
    if (text[t.start - 1] === '_' || text[t.end] === '_' || /\p{Ll}\p{Lu}.*\p{Ll}\p{Lu}|(?:Bot|bot|BOT)$/u.test(t.text)) role[i] = 'other';
  }
  /** `MA <Name>` / `SN <Name>` alone on its line (a signature): the abbreviation is a title there. */
  function signatureLine(i: number): boolean {
    const t = toks[i];
    if (i > 0 && toks[i - 1].line === t.line) return false;
    let k = i + 1;
    let words = 0;
    for (; k < n && toks[k].line === t.line; k++) {
      const u = toks[k];
      if (u.shape !== 'cap' && u.shape !== 'upper' && u.shape !== 'initial' && !(u.flags & F.CONNECTOR)) return false;
      words++;
    }
    return words >= 1 && words <= 5 && (toks[i + 1].shape === 'cap' || toks[i + 1].shape === 'upper');
  }
  function classify(t: Token, i: number): Role {
    const f = t.flags;
    const nextCh = text[t.end];
    if (f & F.CONNECTOR && PATRONYMIC.has(t.norm)) {
      if (DOT_REQUIRED.has(t.norm) && nextCh !== '.') return t.shape === 'lower' ? 'lower' : 'initial';
      // lower case, ALL CAPS, or capitalised forms (Bin, Binti, Bt., Bte, Ak., A/L)
      return 'conn';
    }
    if (f & F.CONNECTOR && t.shape === 'lower') return 'conn';
    if (t.shape === 'initial') return 'initial';
    if (t.shape === 'lower' && isLowerLine(t.line)) {
      if (f & F.TITLE && LOWER_TITLES.has(t.norm) && lex.titles.longestAt(norms, i, joinInline) > 0) return 'title';
      if (f & F.PHRASE_START && lex.titles.longestAt(norms, i, joinInline) > 1) return 'title'; // staff nurse, tan sri
      if (f & F.PREFIX) return f & VOCAB_FLAGS ? 'amb' : 'prefix';
      // in lower case a dictionary word is a word even when it is also a name ("will", "grace", "aman")
      if (f & NAME_FLAGS) return f & (VOCAB_FLAGS | F.DICT) ? 'amb' : 'name';
      if (f & (VOCAB_FLAGS | F.TITLE | F.EPONYM_HEAD | F.DICT)) return 'vocab';
      return t.text.length >= 2 && /^[\p{L}'\u2019-]+$/u.test(t.text) ? 'unk' : 'other';
    }
    if (t.shape === 'lower') {
      if (f & NAME_FLAGS && !(f & (VOCAB_FLAGS | F.DICT)) && !(f & F.TITLE)) return 'lname';
      return 'lower';
    }
    if (f & F.TITLE) {
      if (AMBIGUOUS_UPPER_TITLES.has(t.norm) && t.shape === 'upper' && nextCh !== '.' && !isUpperLine(t.line) && !signatureLine(i)) return 'vocab';
      // single-word title, or the start of a multi-word title
      if (lex.titles.longestAt(norms, i, joinInline) > 0) return 'title';
    } else if (f & F.PHRASE_START && lex.titles.longestAt(norms, i, joinInline) > 1) {
      return 'title'; // "Tan Sri", "Staff Nurse", "Puan Sri": the first word starts a multi-word title
    }
    if (f & F.PREFIX) return f & VOCAB_FLAGS ? 'amb' : 'prefix';
    if (f & NAME_FLAGS) return f & VOCAB_FLAGS ? 'amb' : 'name';
    // Title-case short clinical abbreviations (Ng, Hb) between name words are weak name words: "<given> Ng <syllable> <syllable>"
    if (f & F.CLINICAL && !(f & (F.COMMON | F.PLACE | F.INSTITUTION | F.ROLE | F.EPONYM)) && t.text.length <= 3) {
      const nb = (k: number) =>
        k >= 0 &&
        k < n &&
        toks[k].line === t.line &&
        toks[k].shape === t.shape &&
        !(toks[k].flags & VOCAB_FLAGS) &&
        (toks[k].flags & (NAME_FLAGS | F.PREFIX) || toks[k].flags === 0);
      if ((nb(i - 1) && inlineGap(text, toks[i - 1], t)) || (nb(i + 1) && inlineGap(text, t, toks[i + 1]))) return 'amb';
    }
    if (f & VOCAB_FLAGS) return 'vocab';
    if (f & (F.TITLE | F.EPONYM_HEAD)) return 'vocab';
    const letters = t.text.replace(/[^\p{L}]/gu, '');
    if (letters.length < 2) return 'other';
    return 'unk';
  }
  // a capitalised ordinary word right before or after a patronymic connector is a name ("<Word> a/l <Name>",
  // "<Name> bin <Word>"): the connector is stronger evidence than the dictionary. 'anak' / 'ak' are also the Malay word
  // for child, so there the other side must itself look like a name and the word must be ordinary (not clinical)
  for (let i = 0; i < n; i++) {
    if (role[i] !== 'conn' || toks[i].text === '@') continue;
    const anak = toks[i].norm === 'anak' || toks[i].norm === 'ak';
    for (const k of [i - 1, i + 1]) {
      if (k < 0 || k >= n || role[k] !== 'vocab' || !isCapShape(toks[k]) || toks[k].line !== toks[i].line) continue;
      const other = k === i - 1 ? i + 1 : i - 1;
      if (other < 0 || other >= n || !isCapShape(toks[other]) || toks[other].line !== toks[i].line) continue;
      if (toks[k].flags & (F.TITLE | F.ROLE | F.INSTITUTION)) continue;
      if (anak) {
        if (toks[k].flags & (F.CLINICAL | F.PLACE | F.EPONYM) || !(toks[k].shape === 'cap' || isUpperLine(toks[k].line))) continue;
        const r = role[other];
        if (!(r === 'name' || r === 'unk' || r === 'amb' || r === 'prefix')) continue;
        if (!inlineGap(text, toks[Math.min(i, k)], toks[Math.max(i, k)])) continue;
      }
      role[k] = 'amb';
    }
  }
  // mark the continuation words of multi-word titles
  for (let i = 0; i < n; i++) {
    if (role[i] !== 'title' || !(toks[i].flags & F.PHRASE_START)) continue;
    const len = lex.titles.longestAt(norms, i, joinInline);
    for (let k = i + 1; k < i + len && k < n; k++) role[k] = 'title';
    if (len > 1) i += len - 1;
  }

  // A capitalised eponym or ordinary word right after a personal title is a name ("Dr Graves", "Dr. Paget (consultant
  // surgeon)", "Mr Still", "Sister <Word>"), unless an eponym head noun follows it ("... Graves disease"): the title is
  // stronger evidence than the word lists. The clinical allow-list protects a standalone eponym below the score of a
  // titled name, so the name wins.
  for (let i = 0; i + 1 < n; i++) {
    if (role[i] !== 'title') continue;
    const k = i + 1;
    const t = toks[k];
    if (NOT_AFTER_TITLE.has(t.norm) && (role[k] === 'amb' || role[k] === 'unk') && t.shape !== 'upper') role[k] = 'vocab'; // "Baby Boy of <mother>"
    if (!PERSONAL_TITLES.has(toks[i].norm)) continue;
    if (role[k] !== 'vocab' || t.line !== toks[i].line || !inlineGapDot(text, toks[i], t)) continue;
    // an eponym, or an ordinary word that is not clinical, institutional, a place, a role or a duty word
    // ("Sister <Word>", "Pn <Word>": many given names are ordinary words)
    const ordinary =
      t.flags & F.COMMON && !(t.flags & (F.CLINICAL | F.INSTITUTION | F.PLACE | F.ROLE | F.TITLE | F.EPONYM_HEAD)) && !NOT_AFTER_TITLE.has(t.norm);
    if (!(t.flags & F.EPONYM) && !ordinary) continue;
    if (!(t.shape === 'cap' || (t.shape === 'upper' && (toks[i].shape === 'upper' || isUpperLine(t.line))))) continue;
    const nx = k + 1 < n ? toks[k + 1] : undefined;
    if (nx && nx.line === t.line && nx.flags & F.EPONYM_HEAD && (inlineGap(text, t, nx) || t.possessive)) continue;
    role[k] = 'amb';
  }

  // The same after a person label or a greeting ("Disediakan oleh: DAYUNG", "Name: Bunga", "Hi Bir,"): the label
  // says a name follows, so an ordinary word there is the name. Only one or two words, up to the end of the field.
  for (let k = 1; k < n; k++) {
    const t = toks[k];
    if (role[k] !== 'vocab' || !isCapShape(t)) continue;
    const p = toks[k - 1];
    if (p.line !== t.line || !(p.text === ':' || p.text === '"' || p.text === "'" || p.flags & F.COMMON || p.shape === 'lower')) continue;
    if (t.flags & (F.CLINICAL | F.MEDICAL | F.INSTITUTION | F.PLACE | F.ROLE | F.TITLE | F.EPONYM_HEAD | F.EPONYM) || NOT_AFTER_TITLE.has(t.norm)) continue;
    if (INTERJECTIONS.has(t.norm)) continue;
    const before = text.slice(Math.max(lineStarts[t.line], t.start - 60), t.start);
    if (!PERSON_FIELD_RE.test(before)) continue;
    // the field holds one or two words, then ends (end of line, a comma, a bracket, a quote, a wide gap); a patronymic
    // name may be longer ("name": "Yah Awi anak Hitam")
    let e = k;
    if (e + 1 < n && toks[e + 1].line === t.line && inlineGap(text, t, toks[e + 1]) && isCapShape(toks[e + 1])) e++;
    let after = text.slice(toks[e].end, toks[e].end + 3);
    if (!/^(?:$|\n|\r|[,;)("']|\s{2}|\t| -| \()/.test(after)) {
      let q = k + 1;
      let conn = false;
      while (q < n && q - k < 6 && toks[q].line === t.line && inlineGap(text, toks[q - 1], toks[q]) && (isCapShape(toks[q]) || toks[q].flags & F.CONNECTOR)) {
        if (PATRONYMIC.has(toks[q].norm)) conn = true;
        q++;
      }
      after = text.slice(toks[q - 1].end, toks[q - 1].end + 3);
      if (!conn || !/^(?:$|\n|\r|[,;)("']|\s{2}|\t| -| \()/.test(after)) continue;
    }
    for (let q = k; q <= e; q++) if (role[q] === 'vocab') role[q] = 'amb';
  }
}
