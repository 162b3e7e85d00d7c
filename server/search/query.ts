import type { Queryable } from '../db';
import { americanSpelling, editDistance, tokenize } from './text';
import {
  compileTarget,
  decomposeWord,
  findPhrases,
  isLexiconWord,
  lexiconNeighbours,
  lexNorm,
  WORD_PART_WEIGHT,
  type CompiledTarget,
  type LexDomain,
} from './lexicon';
import { cappedIdf, encodeStems, IDF_CAP, parseTextArray, type VocabIndex } from './vocab-index';
import { vocabStructure } from './channels/lexical';

/**
 * Query understanding. Each query word becomes a group of weighted alternatives: the word's stem (PostgreSQL's
 * english stemmer), its American spelling, spelling corrections from the vocabulary's own lexicon (pg_trgm over
 * `search_lexicon`, then edit distance and document frequency) and, for words the vocabulary does not know,
 * completions of the word as a prefix ("chole" → cholecystectomy). Abbreviations are expanded from the vocabulary's
 * texts (runs of words whose initials spell them) into extra variants.
 *
 * The clinical lexicon (lexicon.ts, server/search/lexicon/*.tsv) comes first: one-word synonyms (broken → fracture,
 * renal → kidney, perut → abdomen) join a word's alternatives and weigh what the clinical word weighs; phrases
 * (throwing up → vomiting, HTN → hypertension, darah tinggi → hypertension, gastroscopy → inspection upper
 * intestinal tract endoscopic) and decomposed procedure words (nephr + ectomy) become rewrites, searched as extra
 * variants with the rewrite's confidence (ambiguous abbreviations: one variant per reading, ordered by the requested
 * vocabularies and the other words). Words the lexicon explains are never "corrected" into other words. The
 * analysis also reads the encounter (first visit, follow-up, sequela) and the side (right, left, bilateral).
 * Every in-memory channel and the reranker score the variants; a group counts once (its best alternative).
 */
export interface QueryStem {
  stem: number;
  /** idf × confidence of this alternative. */
  w: number;
  word: string;
  group: number;
}

/** 'unsided': the query as typed without the side it names (see buildVariants). */
export type VariantKind = 'original' | 'abbreviation' | 'lexicon' | 'unsided';

export interface QueryVariant {
  kind: VariantKind;
  /** Confidence of the rewrite (1 for the query as typed). */
  weight: number;
  stems: QueryStem[];
  /** Sum over groups of the best alternative's weight, plus unknown words: the denominator of coverage. */
  total: number;
  label: string;
  /** For lexicon rewrites: the lists the rewrite came from (abbreviation, lay, malay, anatomy, procedure, word-part). */
  sources?: string[];
}

export type Encounter = 'initial' | 'subsequent' | 'sequela' | null;
export type Laterality = 'right' | 'left' | 'bilateral' | null;
/** ICD-10-PCS approach values: open, percutaneous, percutaneous endoscopic, via natural opening (endoscopic), external. */
export type Approach = '0' | '3' | '4' | '7' | '8' | 'X';

export interface AnalyzedQuery {
  words: string[];
  variants: QueryVariant[];
  /** Words that signal a non-initial encounter (subsequent, sequela…) are present. */
  laterEncounter: boolean;
  /** The encounter the query names, if any (7th character A / D / S). */
  encounter: Encounter;
  /** The side the query names, if any. */
  laterality: Laterality;
  /**
   * The query says the fracture is open ("open fracture of skull", "compound fracture"): its initial encounter is the
   * open fracture's 7th character (B), not the closed one's (A), which is the default only for a fracture "not
   * indicated as open or closed" (guideline I.C.19.c.1).
   */
  openFracture?: boolean;
  /** The query says the fracture heals with delay, or not at all, or badly (delayed healing, nonunion, malunion). */
  healingComplication?: boolean;
  /** The query says an open fracture of Gustilo type III ("type 3", "grade IIIB"). */
  gustiloIII?: boolean;
  /** The ICD-10-PCS approach (5th character) a procedure query's words imply, if any. */
  approach?: Approach;
  /** No word of the query carries meaning (stop words, single characters, bare numbers, punctuation). */
  empty: boolean;
  /**
   * Share of the query's words nothing explains (unknown to the vocabulary and the lexicon, no correction; a short
   * word known only through a spelling guess counts half): "xyzzy plugh". The reranker lowers every logit by it.
   */
  unexplained: number;
  /** What the query's words (typed or read by the lexicon) say of the patient: pregnant or puerperal, a newborn. */
  context?: { pregnancy: boolean; newborn: boolean; intent: boolean };
}

export interface AnalyzeOptions {
  /** Requested vocabularies: tells diagnosis from procedure readings of an abbreviation. */
  vocabularies?: string[];
}

const MAX_WORDS = 32;
/** Endings that make a longer relative of a word (drain → drainage, colon → colonoscopy), not another word. */
const DERIVATION = /^(s|es|al|ar|ic|ical|ous|age|ation|ion|ions|ment|ing|ed|er|y|ity|ia|ism|itis|ectomy|otomy|ostomy|oscopy|ography|ogram|plasty|pathy|algia)$/;
/** At most this many lexicon rewrites of one query are searched (each is one more pass of the in-memory channels). */
const MAX_LEXICON_VARIANTS = 6;
const ROMAN = ['i', 'ii', 'iii', 'iv', 'v'];
const PROCEDURE_VOCABS = new Set(['ICD10PCS', 'ICD9Proc', 'CPT4', 'HCPCS', 'OPCS4']);
const CONDITION_VOCABS = new Set(['ICD10CM', 'ICD9CM', 'ICD10']);

interface Alt {
  stem: number;
  conf: number;
  word: string;
  /** A lexicon synonym of the typed word: weighs `conf` × the word's own weight, not its idf. */
  rel?: boolean;
}

interface Slot {
  word: string;
  stop?: boolean;
  /** The lexicon explains this word (a synonym, or part of a phrase it rewrites): no spelling guesses. */
  lex?: boolean;
  /** A lay word with a clinical synonym in the lexicon (broken → fracture): weighs what the synonym weighs. */
  layLiteral?: boolean;
  /** An everyday English word the vocabulary happens to use ("doctor", "said", "room"): weighs EVERYDAY_WEIGHT of its idf. */
  everyday?: boolean;
  alts: Alt[];
  abbrevs: Array<{ stems: number[]; conf: number; phrase: string }>;
}

interface Reading {
  target: CompiledTarget;
  weight: number;
  source: string;
}

interface Rewrite {
  start: number;
  end: number;
  readings: Reading[];
}

function domainOf(vocabs: string[] | undefined): LexDomain {
  if (!vocabs?.length) return null;
  if (vocabs.every((v) => PROCEDURE_VOCABS.has(v))) return 'px';
  if (vocabs.every((v) => CONDITION_VOCABS.has(v))) return 'dx';
  return null;
}

export async function analyzeQuery(db: Queryable, ix: VocabIndex, raw: string, opts: AnalyzeOptions = {}): Promise<AnalyzedQuery> {
  const cl = ix.lexicon;
  const domain = domainOf(opts.vocabularies);
  // 1. words: tokens, the words typed in capitals, the encounter phrases, each word's own alternatives; in a procedure
  // query, an approach said not to have been used is not searched for ("open surgery, not keyhole"; "no cut")
  const { words, upperWords, slots, phraseEncounter } = readWords(ix, domain === 'px' ? withoutNegatedApproach(raw) : raw);
  // 2. clinical lexicon: one-word synonyms, phrase rewrites, procedure word parts; Malay words are not corrected
  const lex = cl ? { ix, cl, slots, words, upperWords, domain } : null;
  const rewrites = lex ? applyLexicon(lex) : [];
  // 3. spelling: unknown words through PostgreSQL's stemmer and the trigram lexicon; the lexicon then reads the
  // corrected words too ("shingels" → shingles → zoster)
  await correctSpelling(db, ix, slots);
  if (lex) rewrites.push(...lexiconOnCorrections(lex, rewrites));
  if (lex?.domain === 'px') {
    partOrWhole(ix, words, slots, rewrites);
    rewrites.push(...readDuration(ix, words));
  }
  // 4. wider words: prefix completions and derivations
  widenWords(ix, slots);
  // 5. abbreviations the lexicon does not know, expanded from the vocabulary's texts
  guessAbbreviations(ix, slots, upperWords, !cl?.abbrevs.size, opts.vocabularies);
  // 6. coding context: the encounter (7th character) and the side
  const { encounter, laterEncounter, laterality, openFracture, healingComplication, gustiloIII } = readContext(raw, words, phraseEncounter);
  // 7. variants: the query as typed, its lexicon rewrites and abbreviation expansions
  const variants = buildVariants(ix, slots, words, rewrites);
  // or, where the words say nothing of it, the approach of the lexicon's reading ("pleural tap" → drainage of the
  // pleural cavity, percutaneous)
  const read = variants.find((v) => v.kind === 'lexicon');
  const approach = domain === 'px' ? (readApproach(raw) ?? (read && read.weight >= 0.8 ? readApproach(read.label) : undefined)) : undefined;
  // 8. how much of the query is explained at all
  const { empty, unexplained } = explainedness(slots, variants);
  return {
    words,
    variants,
    laterEncounter,
    encounter,
    laterality,
    openFracture,
    healingComplication,
    gustiloIII,
    approach,
    empty,
    unexplained,
    context: readPatient(words, variants),
  };
}

function readWords(ix: VocabIndex, raw: string): { words: string[]; upperWords: Set<string>; slots: Slot[]; phraseEncounter: Encounter } {
  // clinical shorthand: "#NOF", "# of radius" (a hash before a word means fracture)
  const text = raw.replace(/#\s*(?=[A-Za-z])/g, ' fracture ');
  const tokens = tokenize(text, MAX_WORDS);
  const words = joinPrefixes(
    ix,
    tokens.map((t) => t.text),
  );
  // words typed in capitals (HTN, UTIs); a query typed all in capitals says nothing about its common words
  const allUpper = /[A-Z]/.test(raw) && !/[a-z]/.test(raw) && words.length > 1;
  const upperWords = new Set<string>();
  for (const m of raw.match(/\b[A-Z][A-Z0-9]{1,6}s?\b/g) ?? []) {
    const w = m.toLowerCase();
    if (allUpper && (ix.wordDf.get(w) ?? 0) >= 200) continue;
    upperWords.add(w);
    if (m.endsWith('s') && m.length > 3) upperWords.add(w.slice(0, -1));
  }
  const cl = ix.lexicon;
  const slots: Slot[] = [];
  // "first visit", "follow-up visit": the encounter (7th character), not words to match
  const encounterWords = new Set<number>();
  let phraseEncounter: Encounter = null;
  for (let i = 0; i + 1 < words.length; i++) {
    if (!/^(visit|encounter|presentation|attendance|consult|consultation|review)$/.test(words[i + 1]!)) continue;
    const w = words[i]!;
    const kind: Encounter = /^(first|initial|1st|new)$/.test(w)
      ? 'initial'
      : /^(follow|up|subsequent|second|2nd|repeat|later|review)$/.test(w)
        ? 'subsequent'
        : null;
    if (!kind) continue;
    phraseEncounter = kind;
    encounterWords.add(i).add(i + 1);
    if (w === 'up' && words[i - 1] === 'follow') encounterWords.add(i - 1);
  }
  const malay = cl !== undefined && words.some((x) => cl.malayWords.has(lexNorm(x)) && !cl.stopwords.has(x));
  words.forEach((w, i) => {
    const slot: Slot = { word: w, alts: [], abbrevs: [] };
    const s = ix.stemOfWord(w);
    const next = words[i + 1];
    const bilateral = w === 'both' && next && !cl?.everyday.has(next) && (ix.stemOfWord(next) ?? 0) >= 0 ? ix.stemOfWord('bilateral') : undefined;
    // "both knees" is "bilateral knee" to a coder: the side is a word of the title ("Bilateral primary osteoarthritis of knee")
    if (bilateral !== undefined && bilateral >= 0) slot.alts.push({ stem: bilateral, conf: 1, word: 'bilateral', rel: true });
    else if (s !== undefined && s < 0) slot.stop = true;
    // "I" in a sentence is the pronoun, not the roman numeral (type I, grade I, CIN I); the "t" of can't, don't
    else if (w === 'i' && words.length > 1 && !/^(type|grade|stage|class|phase|degree|cin|factor|level|group|zone)$/.test(words[i - 1] ?? '')) slot.stop = true;
    else if (w === 't' && /n$/.test(words[i - 1] ?? '')) slot.stop = true;
    else if (encounterWords.has(i)) slot.stop = true;
    else if (s === undefined && (cl?.stopwords.has(w) || cl?.everyday.has(w))) slot.stop = true;
    // a Malay function word among Malay words is the language's, whatever the vocabulary holds ("di" is not DI)
    else if (cl?.stopwords.has(w) && malay) slot.stop = true;
    else {
      if (s !== undefined) slot.alts.push({ stem: s, conf: 1, word: w });
      // narrative around the finding ("my granny said", "in the room"): no guesses, little weight
      if (s !== undefined && cl?.everyday.has(w)) slot.everyday = slot.lex = true;
      // "right-sided", "left side": the side is read (readContext); "sided" adds nothing a title must say
      else if (SIDED.test(w) && /^(right|left|one|both)$/.test(words[i - 1] ?? '')) slot.everyday = slot.lex = true;
      const am = americanSpelling(w);
      const s2 = am !== w ? ix.stemOfWord(am) : undefined;
      if (s2 !== undefined && s2 >= 0 && s2 !== s) slot.alts.push({ stem: s2, conf: 1, word: am });
      // stage I = stage 1, type II = type 2
      if (/^(type|stage|grade|class|phase|degree|cin|tier|level)$/.test(words[i - 1] ?? '')) {
        const k = ROMAN.indexOf(w);
        const other = k >= 0 ? String(k + 1) : /^[1-5]$/.test(w) ? ROMAN[Number(w) - 1]! : null;
        const s3 = other ? ix.stemOfWord(other) : undefined;
        if (other && s3 !== undefined && s3 >= 0 && !slot.alts.some((a) => a.stem === s3)) slot.alts.push({ stem: s3, conf: 1, word: other });
      }
    }
    slots.push(slot);
  });

  // a query made only of everyday Malay words (nasi lemak, selamat pagi) asks for nothing medical, even where the
  // vocabulary happens to use one of the words
  if (cl && slots.some((s) => !s.stop) && slots.every((s) => s.stop || cl.stopwords.has(s.word))) for (const s of slots) s.stop = true;

  return { words, upperWords, slots, phraseEncounter };
}

/** Number words, by their value (durations read them: "for two days"). */
const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];
/** Words that count something: never the second half of a prefix typed apart ("over one day", "under several"). */
const COUNT_WORDS = new Set([...NUMBER_WORDS, 'twenty', 'thirty', 'forty', 'fifty', 'hundred', 'few', 'several']);
/** Bound prefixes that are typed as separate words ("post op", "pre-op", "non healing"). */
const BOUND_PREFIX =
  /^(post|pre|non|anti|hyper|hypo|sub|intra|inter|peri|para|trans|ultra|micro|macro|multi|poly|semi|pseudo|re|un|mis|co|auto|endo|neo|over|under)$/;

/**
 * A bound prefix written as its own word joins the next word when the vocabulary does not know that word, or knows
 * it only as a rare short word ("post op" → postop, "pre-op" → preop). Two words the vocabulary knows stay apart
 * ("over one", "post-traumatic": the vocabulary's own titles split it the same way).
 */
function joinPrefixes(ix: VocabIndex, words: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const a = words[i]!;
    const b = words[i + 1];
    if (b !== undefined && BOUND_PREFIX.test(a) && /^[a-z]+$/.test(b) && !COUNT_WORDS.has(b) && joins(ix, a, b)) {
      out.push(a + b);
      i++;
    } else out.push(a);
  }
  return out;
}

/** Does prefix `a` join word `b`: unknown or a rare short word, or the two a lexicon word the vocabulary lacks? */
function joins(ix: VocabIndex, a: string, b: string): boolean {
  const sb = ix.stemOfWord(b);
  const everyday = ix.lexicon?.everyday.has(b) || ix.lexicon?.stopwords.has(b);
  if (!everyday && (sb === undefined || (sb >= 0 && b.length <= 3 && (ix.wordDf.get(b) ?? 0) < 20))) return true;
  // "under active" → underactive; "non invasive" stays apart, as the vocabulary's titles write it
  return ix.lexicon !== undefined && isLexiconWord(ix.lexicon, lexNorm(a + b)) && ix.stemOfWord(a + b) === undefined;
}

/** What the lexicon reads a query with. */
interface LexicalContext {
  ix: VocabIndex;
  cl: NonNullable<VocabIndex['lexicon']>;
  slots: Slot[];
  words: string[];
  upperWords: Set<string>;
  domain: LexDomain;
}

function applyLexicon({ ix, cl, slots, words, upperWords, domain }: LexicalContext): Rewrite[] {
  // Lexicon: one-word synonyms join the word's alternatives; phrases (lay terms, abbreviations, procedure names)
  // become rewrites of the query, searched as extra variants.
  const rewrites: Rewrite[] = [];
  if (cl) {
    for (const slot of slots) {
      if (slot.stop) continue;
      const wa = cl.wordAlts.get(lexNorm(slot.word)) ?? cl.wordAlts.get(slot.word);
      if (!wa) continue;
      slot.lex = true;
      if (wa.some((a) => a.kind !== 'anatomy')) slot.layLiteral = true;
      for (const a of wa) if (!slot.alts.some((x) => x.stem === a.stem)) slot.alts.push({ stem: a.stem, conf: a.weight * a.conf, word: a.word, rel: true });
    }
    if (domain === 'px') readRemovalAsResection(ix, slots, words);
    rewrites.push(...phraseRewrites(ix, slots, words, upperWords, domain, findPhrases(cl, words)));
    // procedure words no list names: combining forms + suffix (pyelolithotomy → drainage|… kidney pelvis matter)
    if (domain !== 'dx') {
      slots.forEach((slot, i) => {
        if (slot.stop || slot.lex || rewrites.some((r) => i >= r.start && i < r.end)) return;
        const t = decomposeWord(cl, slot.word);
        if (t) rewrites.push({ start: i, end: i + 1, readings: [{ target: t, weight: WORD_PART_WEIGHT, source: 'word-part' }] });
      });
    }
  }

  // A Malay word the lexicon knows but that no entry matched here ("angin" outside "angin ahmar", "malam" outside
  // "peluh malam") is a word of another language, not a misspelt English one: it is not "corrected" (angin → angina).
  // Without it the query is still searched; with only such words and stop words it asks for nothing medical.
  if (cl) {
    slots.forEach((slot, i) => {
      if (slot.stop || slot.lex || slot.alts.length || rewrites.some((r) => i >= r.start && i < r.end)) return;
      if (cl.malayWords.has(lexNorm(slot.word))) slot.stop = true;
    });
  }

  return rewrites;
}

/** "Removed", "removal" and the like. */
const REMOVE_WORD = /^remov(?:e|ed|es|al|als|ing)$/;
/** Words that name a device (or something put in), in PCS titles and in the patient's words. */
const DEVICE_WORD =
  /^(?:devices?|tubes?|stents?|catheters?|lines?|ports?|coils?|iud|iucd|implants?|wires?|plates?|screws?|pins?|nails?|rods?|mesh|drains?|pacemakers?|defibrillators?|leads?|substitutes?|spacers?|stimulators?|prosthes[ie]s|prosthetic|grafts?|slings?|sphincters?|casts?|splints?|packing|dressings?|stitches|sutures?|staples?|clips?|valves?|elements?|seeds?|airways?|balloons?|bands?|shunts?|filters?|pumps?|reservoirs?|expanders?|fixators?|fixation|appliances?|braces?|hardware|metalwork|cannula|cannulas|venflon|electrodes?|generators?|sensors?|monitors?|hearing|contraceptive|infusion|feeding|intraluminal|extraluminal|radioactive|autologous|nonautologous|synthetic)$/;
/** Matter taken out of a body part (PCS Extirpation), not the part itself. */
const MATTER_WORD = /^(?:stones?|calculus|calculi|clots?|thrombus|thrombi|embolus|foreign|wax|earwax|plaque|debris|blockage|obstruction|splinter|bezoar)$/;
/**
 * In the patient's words, a body part or a lump "removed" was resected or excised: PCS's Removal root operation takes
 * out a device, and each of its titles names one. With no device word in a procedure query, "removed" also reads as
 * resection and excision (the word's own reading stays, weighing less).
 */
function readRemovalAsResection(ix: VocabIndex, slots: Slot[], words: string[]): void {
  if (words.some((w) => DEVICE_WORD.test(w))) return;
  // a stone, a clot or a foreign body taken out is its extirpation
  const readings = words.some((w) => MATTER_WORD.test(w)) ? ['extirpation'] : ['resection', 'excision'];
  for (const slot of slots) {
    if (slot.stop || !REMOVE_WORD.test(slot.word)) continue;
    // the device reading weighs less than the body part's
    for (const a of slot.alts) if (!a.rel) a.conf = Math.min(a.conf, REMOVAL_OWN_CONF);
    for (const w of readings) {
      const s = ix.stemOfWord(w);
      if (s !== undefined && s >= 0 && !slot.alts.some((a) => a.stem === s)) slot.alts.push({ stem: s, conf: REMOVAL_READING_CONF, word: w, rel: true });
    }
  }
}
const REMOVAL_READING_CONF = 0.95;
const REMOVAL_OWN_CONF = 0.75;

/** A part of a body part taken out (PCS Excision): a lump, a polyp, a piece… */
const PART_WORD =
  /^(?:lumps?|polyps?|moles?|cysts?|tumou?rs?|growths?|pieces?|part|bits?|lesions?|nodules?|warts?|tags?|fibroids?|lipomas?|sample|biopsy|margin|segment|section|wedge|patch|spot|ulcer)$/;
/** The whole body part taken out (PCS Resection). */
const WHOLE_WORD = /^(?:whole|entire|entirely|all|total|totally|completely|complete|full)$/;
/** How much an operation reading the words argue against weighs (resection for "the lump", excision for "the whole"). */
const DISFAVOURED_READING = 0.85;
/**
 * A procedure query read as "resection or excision" (cut out, removed, -ectomy) leans to the one its words name: a lump,
 * polyp or piece taken out is excised (the body part stays), the whole or entire part is resected. Lexicon targets are
 * shared, so a rewrite's target is copied before its confidences change.
 */
function partOrWhole(ix: VocabIndex, words: string[], slots: Slot[], rewrites: Rewrite[]): void {
  const part = words.some((w) => PART_WORD.test(w));
  const whole = words.some((w) => WHOLE_WORD.test(w));
  if (part === whole) return;
  const resection = ix.stemOfWord('resection');
  const excision = ix.stemOfWord('excision');
  if (resection === undefined || excision === undefined || resection < 0 || excision < 0) return;
  const against = part ? resection : excision;
  const favoured = part ? excision : resection;
  // a reading weighs its confidence × its idf: the one argued against ends at DISFAVOURED_READING of the other
  const idf = (stem: number) => cappedIdf(ix, stem);
  const scale = DISFAVOURED_READING * Math.min(1, idf(favoured) / idf(against));
  const both = (alts: Array<{ stem: number }>) => alts.some((a) => a.stem === resection) && alts.some((a) => a.stem === excision);
  const confOf = (alts: Array<{ stem: number; conf: number }>) => alts.find((a) => a.stem === favoured)!.conf;
  for (const slot of slots) {
    if (!both(slot.alts)) continue;
    const c = confOf(slot.alts);
    for (const a of slot.alts) if (a.stem === against) a.conf = Math.min(a.conf, c * scale);
  }
  for (const r of rewrites) {
    r.readings = r.readings.map((rd) =>
      rd.target.groups.some(both)
        ? {
            ...rd,
            target: {
              ...rd.target,
              groups: rd.target.groups.map((g) => (both(g) ? g.map((a) => (a.stem === against ? { ...a, conf: Math.min(a.conf, confOf(g) * scale) } : a)) : g)),
            },
          }
        : rd,
    );
  }
}

const HOURS_PER: Record<string, number> = { hour: 1, hours: 1, hr: 1, hrs: 1, day: 24, days: 24, week: 168, weeks: 168, wk: 168, wks: 168 };
/** A duration read as PCS words it; its weight as a reading. */
const DURATION_WEIGHT = 0.9;
/**
 * How long something lasted ("for …", "over …"), in the words of ICD-10-PCS's duration qualifiers (ventilation and
 * other assistance): "for 6 days" → "greater than 96 consecutive hours", "for two days" → "24-96 …", "for 12 hours" →
 * "less than 24 …". A rewrite of the number and its unit, so a query with no such qualifier in its titles loses nothing.
 */
function readDuration(ix: VocabIndex, words: string[]): Rewrite[] {
  const out: Rewrite[] = [];
  for (let i = 0; i + 1 < words.length; i++) {
    const w = words[i]!;
    const n = /^\d{1,4}$/.test(w) ? Number(w) : NUMBER_WORDS.indexOf(w);
    const per = HOURS_PER[words[i + 1]!];
    if (n <= 0 || per === undefined) continue;
    // how long something lasted ("for 6 days", "over 2 weeks"), not an age or a gestation ("at 9 weeks", "3 weeks old")
    const lead = [words[i - 1], words[i - 2]];
    if (!lead.some((x) => x === 'for' || x === 'over' || x === 'lasting')) continue;
    if (/^(old|pregnant|gestation|ago)$/.test(words[i + 2] ?? '')) continue;
    const hours = n * per;
    // "over 4 days" is more than 96 hours; "for 4 days" is 96
    const over = lead.includes('over');
    const text = (over ? hours >= 96 : hours > 96)
      ? 'greater than 96 consecutive hours'
      : hours >= 24
        ? '24 96 consecutive hours'
        : 'less than 24 consecutive hours';
    const target = compileTarget(text, (x) => ix.stemOfWord(x));
    if (target) out.push({ start: i, end: i + 2, readings: [{ target, weight: DURATION_WEIGHT, source: 'duration' }] });
  }
  return out;
}

/** The least confidence of a spelling correction that the lexicon reads as the word meant. */
const LEXICON_FIX_CONF = 0.6;
/** The confidence of a typo read as the lexicon word that completes a phrase. */
const NEAR_PHRASE_CONF = 0.85;

/**
 * The lexicon word one typo from word i (lexiconNeighbours) that makes a lexicon phrase (not an abbreviation) with the
 * words around it, or is a one-word lay synonym where the vocabulary's look-up found nothing; of several, the one in
 * the longest phrase.
 */
function phraseFix(cl: NonNullable<VocabIndex['lexicon']>, words: string[], i: number, corrected: boolean): string | undefined {
  const w = words[i]!;
  if (!/^[a-z]+$/.test(w) || w.length < 4 || cl.malayWords.has(w)) return undefined;
  let best: { word: string; len: number } | undefined;
  for (const c of lexiconNeighbours(cl, lexNorm(w))) {
    const tokens = [...words];
    tokens[i] = c;
    let len = cl.wordAlts.has(c) ? 1 : 0;
    for (const m of findPhrases(cl, tokens)) {
      if (m.start <= i && i < m.end && m.rules.some((r) => r.kind !== 'abbreviation')) len = Math.max(len, m.end - m.start);
    }
    if (len > (best?.len ?? 0)) best = { word: c, len };
  }
  // a one-word synonym alone is weaker evidence than the vocabulary's own correction ("astma": asthma, not asma)
  // and in a short word, one letter from many words, only with a phrase around it ("bola sepak" is football, not sopak)
  return best && (best.len > 1 || (!corrected && w.length >= 6)) ? best.word : undefined;
}

/**
 * The lexicon over the spelling-corrected query: a misspelt word ("shingels", "apendix") is read as its best
 * correction when that is confident, and the lay terms and procedure names that need it ("shingles" → zoster,
 * "appendix operation") become rewrites too, weighted by the correction's confidence. Only phrases that take in a
 * corrected word are new; abbreviations are matched as typed only.
 */
function lexiconOnCorrections({ ix, cl, slots, words, upperWords, domain }: LexicalContext, rewrites: Rewrite[]): Rewrite[] {
  const fixed = [...words];
  const conf = new Map<number, number>();
  slots.forEach((slot, i) => {
    if (slot.stop || slot.lex || slot.alts.some((a) => a.conf === 1) || rewrites.some((r) => i >= r.start && i < r.end)) return;
    // a word the lexicon itself uses is not replaced by the vocabulary's guess ("underactive" is not "interactive")
    if (isLexiconWord(cl, lexNorm(words[i]!))) return;
    // a lay word of the lexicon one typo away that makes a phrase with its neighbours ("thowing up", "hot flusves",
    // "sakit janrung"): the vocabulary lacks these words, so its own spelling look-up cannot find them
    const near = phraseFix(cl, words, i, slot.alts.length > 0);
    if (near) {
      fixed[i] = near;
      // as sure as the vocabulary's own correction where that agrees ("apendix": appendix either way)
      conf.set(i, Math.max(NEAR_PHRASE_CONF, ...slot.alts.filter((a) => lexNorm(a.word) === near).map((a) => a.conf)));
      return;
    }
    const best = [...slot.alts].sort((a, b) => b.conf - a.conf)[0];
    if (!best || best.conf < LEXICON_FIX_CONF || !/^[a-z]+$/.test(best.word)) return;
    fixed[i] = best.word;
    conf.set(i, best.conf);
  });
  if (!conf.size) return [];
  // one-word synonyms of the corrected word join its alternatives, weighed by the correction
  for (const [i, c] of conf) {
    const slot = slots[i]!;
    const wa = cl.wordAlts.get(lexNorm(fixed[i]!)) ?? cl.wordAlts.get(fixed[i]!);
    for (const a of wa ?? [])
      if (!slot.alts.some((x) => x.stem === a.stem)) slot.alts.push({ stem: a.stem, conf: c * a.weight * a.conf, word: a.word, rel: true });
  }
  const matches = findPhrases(cl, fixed)
    .filter((m) => [...conf.keys()].some((i) => i >= m.start && i < m.end))
    .map((m) => ({ ...m, rules: m.rules.filter((r) => r.kind !== 'abbreviation') }))
    .filter((m) => m.rules.length);
  const out = phraseRewrites(ix, slots, fixed, upperWords, domain, matches);
  for (const r of out) {
    let c = 1;
    for (let i = r.start; i < r.end; i++) c = Math.min(c, conf.get(i) ?? 1);
    for (const rd of r.readings) rd.weight *= c;
  }
  return out;
}

/** Lexicon phrase matches as rewrites of the query: readings weighed, redundant ones dropped, ambiguous ones ranked. */
function phraseRewrites(
  ix: VocabIndex,
  slots: Slot[],
  words: string[],
  upperWords: Set<string>,
  domain: LexDomain,
  matches: ReturnType<typeof findPhrases>,
): Rewrite[] {
  const rewrites: Rewrite[] = [];
  for (const m of matches) {
    const readings: Reading[] = [];
    const single = m.end - m.start === 1 ? slots[m.start]! : null;
    for (const r of m.rules) {
      let w = r.weight;
      if (r.kind === 'abbreviation') {
        // a function word typed in lower case is not an abbreviation ("di" in "gigitan anjing di kaki" is not DI)
        if (single?.stop && !upperWords.has(single.word)) continue;
        const f = single ? abbreviationFit(ix, single.word, upperWords.has(single.word), r.upper, words.length > 2) : 1;
        if (f <= 0) continue;
        w *= f;
      }
      if (r.domain && domain && r.domain !== domain) w *= 0.75;
      r.targets.forEach((t, k) => readings.push({ target: t, weight: w * (1 - 0.04 * k), source: r.kind }));
    }
    // a reading that only repeats words the query already has ("skull fracture" → "fracture skull"; "ectopic" →
    // "ectopic pregnancy" in "ectopic pregnancy in the tube") adds nothing
    const typed = new Set(slots.flatMap((s) => s.alts.filter((a) => a.conf === 1 && !a.rel).map((a) => a.stem)));
    // but a reading that keeps fewer of the phrase's words says which of them do not count ("baby colic" → colic)
    let spanWords = 0;
    for (let i = m.start; i < m.end; i++) if (!slots[i]!.stop) spanWords++;
    const redundant = (r: Reading) => r.target.groups.length >= spanWords && r.target.groups.every((g) => g.some((a) => typed.has(a.stem)));
    // the query already says what the first reading says ("kidney disease" in "chronic kidney disease"): no rewrite
    if (readings[0] && redundant(readings[0]) && readings[0].source !== 'abbreviation') continue;
    const fresh = readings.filter((r) => !redundant(r));
    if (!fresh.length) continue;
    readings.splice(0, readings.length, ...fresh);
    if (readings.length > 1) rankByContext(ix, readings, slots, m.start, m.end);
    // the whole query is one lexicon phrase (baby blues, period pain, HTN): its first reading is nearly certain
    if (slots.every((s, i) => (i >= m.start && i < m.end) || s.stop)) readings[0]!.weight += (1 - readings[0]!.weight) * 0.6;
    rewrites.push({ start: m.start, end: m.end, readings: readings.slice(0, 3) });
    for (let i = m.start; i < m.end; i++) slots[i]!.lex = true;
  }
  return rewrites;
}

async function correctSpelling(db: Queryable, ix: VocabIndex, slots: Slot[]): Promise<void> {
  const lookup: string[] = [];
  for (const slot of slots) if (!slot.stop && !slot.lex && !slot.alts.length && /^[a-z]+$/.test(slot.word) && slot.word.length >= 2) lookup.push(slot.word);

  // Unknown words: PostgreSQL's stemmer first (snores → snore), then trigram neighbours from the lexicon.
  if (lookup.length) {
    // silent or respelt letters in lay spelling also get a look-up: sorisis → psorisis, numonia → pneumonia,
    // rumatism → rheumatism, flem → phlegm
    const forms = new Map<string, string>();
    for (const w of [...new Set(lookup)].slice(0, 12)) {
      forms.set(w, w);
      for (const f of soundAlikes(w)) if (!forms.has(f) && forms.size < 24) forms.set(f, w);
    }
    const uniq = [...forms.keys()];
    const rows = await db.query<{ w: string; stems: string[] | string | null; word: string | null; df: number | null; sim: number | null }>(
      `SELECT u.w, ts_lexize('english_stem', u.w) AS stems, l.word, l.df, l.sim
         FROM unnest($1::text[]) AS u(w)
         LEFT JOIN LATERAL (
           SELECT word, df, similarity(word, u.w) AS sim FROM search_lexicon
            WHERE length(u.w) >= 4 AND word % u.w ORDER BY similarity(word, u.w) DESC, df DESC LIMIT 8
         ) l ON true`,
      [uniq],
    );
    const found = new Map<string, { stem?: number; stop?: boolean; fixes: Alt[] }>();
    for (const r of rows) {
      if (forms.get(r.w) !== r.w || found.has(r.w)) continue;
      const e: { stem?: number; stop?: boolean; fixes: Alt[] } = { fixes: [] };
      const stems = parseTextArray(r.stems);
      if (r.stems !== null && stems.length === 0) e.stop = true;
      const id = stems[0] ? ix.stemIds.get(stems[0]) : undefined;
      if (id !== undefined) e.stem = id;
      found.set(r.w, e);
    }
    for (const r of rows) {
      const orig = forms.get(r.w) ?? r.w;
      const respelt = orig !== r.w;
      const e = found.get(orig);
      if (!e || !r.word) continue;
      const maxDist = r.w.length <= 5 ? 1 : r.w.length <= 8 ? 2 : 3;
      const d = editDistance(r.w, r.word, maxDist);
      if (d > maxDist || opposedPrefixes(r.w, r.word)) continue;
      const fixStem = ix.stemOfWord(r.word);
      if (fixStem === undefined || fixStem < 0) continue;
      const sim = Number(r.sim ?? 0);
      const df = Number(r.df ?? 1);
      const conf = Math.max(0.45, Math.min(0.92, 0.55 + 0.5 * sim - 0.12 * d + 0.03 * Math.log(1 + df) - (respelt ? 0.08 : 0)));
      const prev = e.fixes.find((f) => f.stem === fixStem);
      if (!prev) e.fixes.push({ stem: fixStem, conf, word: r.word });
      else if (prev.conf < conf) prev.conf = conf;
    }
    // one typo the trigrams cannot see (two letters swapped or one changed in a short word: "canecr", "bnoes"): the
    // vocabulary's words one edit away, looked up exactly
    const oneEdit = [...found].filter(
      ([w, e]) => !e.stop && e.stem === undefined && w.length >= 4 && w.length <= 14 && !e.fixes.some((f) => editDistance(w, f.word, 1) <= 1),
    );
    if (oneEdit.length) {
      const cands = new Map<string, string[]>();
      for (const [w] of oneEdit.slice(0, 6)) for (const c of editsOne(w)) cands.set(c, [...(cands.get(c) ?? []), w]);
      const near = await db.query<{ word: string; df: number }>(`SELECT word, df FROM search_lexicon WHERE word = ANY($1::text[])`, [[...cands.keys()]]);
      for (const r of near) {
        const fixStem = ix.stemOfWord(r.word);
        if (fixStem === undefined || fixStem < 0) continue;
        for (const w of cands.get(r.word) ?? []) {
          const e = found.get(w)!;
          if (opposedPrefixes(w, r.word) || e.fixes.some((f) => f.stem === fixStem)) continue;
          // as sure as a close trigram match: one edit, a middling similarity, and the word's frequency
          e.fixes.push({ stem: fixStem, conf: Math.max(0.45, Math.min(0.92, 0.68 + 0.03 * Math.log(1 + Number(r.df ?? 1)))), word: r.word });
        }
      }
    }
    // a word nothing close was found for, or only weak guesses: the vocabulary's most common word that sounds the
    // same (hemroids → hemorrhoids, exema → eczema, skitsophrenia → schizophrenia)
    for (const [w, e] of found) {
      if (e.stop || e.stem !== undefined || w.length < 4) continue;
      const like = soundsLike(ix, w);
      if (like === undefined || e.fixes.some((f) => f.stem === like.stem && f.conf >= SOUNDS_LIKE_CONF)) continue;
      e.fixes = e.fixes.filter((f) => f.stem !== like.stem);
      e.fixes.push({ stem: like.stem, conf: SOUNDS_LIKE_CONF, word: like.word });
    }
    for (const slot of slots) {
      const e = found.get(slot.word);
      if (!e || slot.lex) continue;
      if (e.stop) slot.stop = true;
      else if (e.stem !== undefined) {
        // "migrane" stems like "migrans", but is "migraine" misspelt: a much more common close word is offered too,
        // never one farther than the typed word's own spelling in the vocabulary (vomitting: vomiting, not fitting)
        const own = Math.max(0, ...e.fixes.filter((f) => f.stem === e.stem).map((f) => f.conf));
        const fix = e.fixes.filter((f) => f.stem !== e.stem && f.conf > own && ix.idf[f.stem]! < ix.idf[e.stem!]! - 1.5).sort((a, b) => b.conf - a.conf)[0];
        const fixConf = fix ? Math.max(fix.conf, 0.85) : 0;
        // and leads when one typo away from a word the typed one nearly is: the word as typed is not the vocabulary's
        // (only its stem is), so it weighs less than the correction, however rare its stem
        const typo = fix !== undefined && own > 0 && !ix.wordDf.has(slot.word) && editDistance(slot.word, fix.word, 1) <= 1;
        const literal = typo ? Math.min(STEM_ONLY_CONF, (0.9 * fixConf * ix.idf[fix.stem]!) / ix.idf[e.stem]!) : 1;
        slot.alts.push({ stem: e.stem, conf: literal, word: slot.word });
        if (fix) slot.alts.push({ ...fix, conf: fixConf });
      } else slot.alts.push(...e.fixes.sort((a, b) => b.conf - a.conf).slice(0, 2));
    }
  }
}

/** Prefixes of opposite meaning: a word is never "corrected" into its opposite (underactive → hyperactive). */
const OPPOSED_PREFIXES: Array<[string[], string[]]> = [
  [
    ['under', 'hypo', 'brady', 'sub'],
    ['over', 'hyper', 'tachy', 'super'],
  ],
  [['pre', 'ante'], ['post']],
  [
    ['intra', 'endo', 'in'],
    ['extra', 'exo', 'ex'],
  ],
  [['micro'], ['macro']],
];

export function opposedPrefixes(a: string, b: string): boolean {
  const has = (w: string, ps: string[]) => ps.some((p) => w.startsWith(p));
  return OPPOSED_PREFIXES.some(([x, y]) => (has(a, x) && has(b, y)) || (has(a, y) && has(b, x)));
}

/** Every string one edit from a word: a letter deleted, two neighbours swapped, a letter changed or added. */
export function editsOne(w: string): string[] {
  const out = new Set<string>();
  const abc = 'abcdefghijklmnopqrstuvwxyz';
  for (let i = 0; i <= w.length; i++) {
    if (i < w.length) out.add(w.slice(0, i) + w.slice(i + 1));
    if (i + 1 < w.length) out.add(w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2));
    for (const c of abc) {
      if (i < w.length && c !== w[i]) out.add(w.slice(0, i) + c + w.slice(i + 1));
      out.add(w.slice(0, i) + c + w.slice(i));
    }
  }
  out.delete(w);
  return [...out];
}

/** A word the vocabulary lacks whose stem is a rare word's, when a much more common word is one edit away. */
const STEM_ONLY_CONF = 0.75;
/** The confidence of a sound-alike correction: below a close spelling match, above a weak one. */
const SOUNDS_LIKE_CONF = 0.8;

/**
 * A phonetic key for English medical spelling: Greek and Latin spellings folded to how they sound (ch → k, ph → f,
 * x and ks → s, z → s, th → t, soft c → s, silent initial p/k/g), then the first letter and the consonants after it, h and w
 * dropped, doubles collapsed. A lay spelling and the vocabulary's share it: hemroids / hemorrhoids (hmrds).
 */
export function phoneticKey(word: string): string {
  let w = word.toLowerCase().replace(/[^a-z]/g, '');
  w = w
    .replace(/^(pn|kn|gn)/, 'n')
    .replace(/^ps/, 's')
    .replace(/^wr/, 'r')
    .replace(/^x/, 's');
  w = w
    .replace(/ae|oe/g, 'e')
    .replace(/sch/g, 'sk')
    .replace(/ch/g, 'k')
    .replace(/ph/g, 'f')
    .replace(/[tc]z|ts/g, 's')
    .replace(/ck|cq|q/g, 'k')
    .replace(/c(?=[eiy])/g, 's')
    .replace(/c/g, 'k')
    .replace(/x/g, 'ks')
    .replace(/ks/g, 's')
    .replace(/th/g, 't')
    .replace(/z/g, 's')
    .replace(/mb$/, 'm')
    .replace(/(.)\1+/g, '$1');
  if (!w) return '';
  const rest = w
    .slice(1)
    .replace(/[aeiouyhw]/g, '')
    .replace(/(.)\1+/g, '$1');
  return (/[aeiouy]/.test(w[0]!) ? 'a' : w[0]!) + rest;
}

const soundIndexFor = new WeakMap<VocabIndex, Map<string, string[]>>();
const SOUND_CANDIDATES = 12;
/** The vocabulary's most common words (4 letters or more, with a stem) for each phonetic key; built once per index. */
function soundIndex(ix: VocabIndex): Map<string, string[]> {
  let m = soundIndexFor.get(ix);
  if (!m) {
    m = new Map();
    for (const w of ix.wordDf.keys()) {
      if (w.length < 4 || !/^[a-z]+$/.test(w)) continue;
      const s = ix.wordStem.get(w);
      if (s === undefined || s < 0) continue;
      const k = phoneticKey(w);
      if (k.length < 3) continue;
      const list = m.get(k);
      if (!list) m.set(k, [w]);
      else {
        list.push(w);
        list.sort((a, b) => (ix.wordDf.get(b) ?? 0) - (ix.wordDf.get(a) ?? 0));
        if (list.length > SOUND_CANDIDATES) list.pop();
      }
    }
    soundIndexFor.set(ix, m);
  }
  return m;
}

/** Dice overlap of two words' letter pairs, 0..1. */
function bigramDice(a: string, b: string): number {
  if (a.length < 2 || b.length < 2) return 0;
  const pairs = new Map<string, number>();
  for (let i = 0; i + 1 < a.length; i++) pairs.set(a.slice(i, i + 2), (pairs.get(a.slice(i, i + 2)) ?? 0) + 1);
  let shared = 0;
  for (let i = 0; i + 1 < b.length; i++) {
    const n = pairs.get(b.slice(i, i + 2)) ?? 0;
    if (n > 0) {
      shared++;
      pairs.set(b.slice(i, i + 2), n - 1);
    }
  }
  return (2 * shared) / (a.length + b.length - 2);
}

/** The consonants a phonetic key is written in. */
const KEY_CONSONANTS = 'bdfgjklmnprstv';

/**
 * The phonetic key and its near neighbours: two of its consonants swapped ("athsma" atsm → astm, asthma), one
 * consonant more or less ("atshma" asm → astm), and the key of the word without a plural s ("chrons" → crohn).
 */
function keyNeighbours(k: string, w: string): Array<[key: string, form: string]> {
  const keys = new Map([[k, w]]);
  const add = (key: string, form = w) => {
    if (key.length >= 3 && !keys.has(key)) keys.set(key, form);
  };
  for (let i = 1; i + 1 < k.length; i++) add(k.slice(0, i) + k[i + 1] + k[i] + k.slice(i + 2));
  for (let i = 1; i < k.length; i++) add(k.slice(0, i) + k.slice(i + 1));
  for (let i = 1; i <= k.length; i++) for (const c of KEY_CONSONANTS) add(k.slice(0, i) + c + k.slice(i));
  if (w.endsWith('s') && w.length > 4) add(phoneticKey(w.slice(0, -1)), w.slice(0, -1));
  return [...keys];
}

/**
 * The vocabulary's word that sounds like `w`: of the words with its phonetic key, the closest in spelling (then the
 * most common), within half the word's length in edits.
 */
function soundsLike(ix: VocabIndex, w: string): { stem: number; word: string } | undefined {
  const k = phoneticKey(w);
  if (k.length < 3) return undefined;
  const maxDist = Math.max(2, Math.floor(w.length / 2));
  let best: { word: string; d: number } | undefined;
  const index = soundIndex(ix);
  for (const [key, form] of keyNeighbours(k, w)) {
    // a word of another key pays half an edit more: the same sound is the better evidence at the same distance
    const extra = key === k ? 0 : 0.5;
    for (const c of index.get(key) ?? []) {
      if (c === w) return undefined;
      if (opposedPrefixes(w, c)) continue;
      // another key is a weaker sign of the same word: at most two edits then (outwards is not outdoors)
      const limit = key === k ? maxDist : Math.min(2, maxDist);
      const ed = editDistance(form, c, limit);
      if (ed > limit) continue;
      // at the same distance, the more common word (a misspelling is likelier of a common word) sharing more letter
      // pairs wins (chrons: crohns, not corns or chorions; exema: eczema, not exam)
      const stem = ix.wordStem.get(c);
      const prior = stem !== undefined && stem >= 0 ? Math.min(0.5, Math.max(0, 0.08 * (12 - ix.idf[stem]!))) : 0;
      const d = ed + extra - 0.1 * bigramDice(form, c) - prior;
      if (!best || d < best.d) best = { word: c, d };
    }
  }
  const stem = best ? ix.wordStem.get(best.word) : undefined;
  return best && stem !== undefined && stem >= 0 ? { stem, word: best.word } : undefined;
}

function widenWords(ix: VocabIndex, slots: Slot[]): void {
  // Truncated words ("lap chole") complete as prefixes; known words also reach their longer relatives
  // (drain → drainage, colon → colonoscopy) at a lower weight.
  for (const slot of slots) {
    if (slot.stop || slot.lex || slot.word.length < 3 || !/^[a-z]+$/.test(slot.word)) continue;
    const known = slot.alts.some((a) => a.conf === 1);
    const df = ix.wordDf.get(slot.word) ?? 0;
    let extra: Alt[] = [];
    if (!known || (slot.word.length <= 4 && df < 10))
      extra = slot.word.length <= 8 && (known || slot.word.length >= 4) ? prefixCompletions(ix, slot.word, 6, 14, 0.7) : [];
    else if (slot.word.length >= 4) extra = prefixCompletions(ix, slot.word, 3, 7, 0.6).filter((a) => DERIVATION.test(a.word.slice(slot.word.length)));
    for (const c of extra) if (!slot.alts.some((a) => a.stem === c.stem)) slot.alts.push(c);
  }
}

function guessAbbreviations(ix: VocabIndex, slots: Slot[], upperWords: Set<string>, noCuratedAbbrevs: boolean, vocabs?: string[]): void {
  // Abbreviations the lexicon does not know: short words typed in capitals, or short words the vocabulary does not
  // know, expanded from the vocabulary's own texts.
  for (const slot of slots) {
    const w = slot.word;
    if (slot.stop || slot.lex || w.length < 2 || w.length > 6 || !/^[a-z0-9]+$/.test(w) || !/[a-z]/.test(w)) continue;
    const typedUpper = upperWords.has(w);
    const literal = slot.alts.some((a) => a.conf === 1);
    if (!typedUpper && literal) continue;
    // with the curated abbreviations loaded, a lone guess from letters in order (lol → localized) is not made
    slot.abbrevs = expandAbbreviation(ix, w, !literal && noCuratedAbbrevs, vocabs).map((e) => ({ ...e, conf: e.conf * (literal ? 0.85 : 1) }));
  }
}

/**
 * "open" or "compound" naming a fracture (up to two words before it, or just after it), not an open procedure or
 * approach ("open reduction of a fracture").
 */
const OPEN_FRACTURE =
  /\b(?:open|compound)\b(?!\s+(?:reduction|repair|fixation|approach|surgery|surgical|operation|procedure))(?:\s+[a-z'-]+){0,2}?\s+(?:fractur\w*|break|broken|broke)\b|\b(?:fractur\w*|broken|break)\b(?:[\s,]+[a-z'-]+){0,3}?[\s,]+(?:open|compound)\b(?!\s+(?:reduction|repair|fixation|approach|surgery|surgical|operation|procedure))/i;

function readContext(
  raw: string,
  words: string[],
  phraseEncounter: Encounter,
): { encounter: Encounter; laterEncounter: boolean; laterality: Laterality; openFracture: boolean; healingComplication: boolean; gustiloIII: boolean } {
  const encounterOf = (): Encounter => {
    if (phraseEncounter) return phraseEncounter;
    if (words.some((w) => /^(sequela|sequelae|sequel|late)$/.test(w))) return 'sequela';
    if (words.some((w) => /^(subsequent|nonunion|malunion|delayed|healing|routine|followup)$/.test(w)) || /\bfollow[- ]?up\b/i.test(raw)) return 'subsequent';
    if (words.some((w) => /^(initial|new|fresh)$/.test(w))) return 'initial';
    return null;
  };
  const encounter = encounterOf();
  const laterEncounter = encounter === 'sequela' || encounter === 'subsequent';
  const sides = new Set(
    words.map((w) => (RIGHT_WORD.test(w) ? 'right' : LEFT_WORD.test(w) ? 'left' : /^(bilateral|both)$/.test(w) ? 'bilateral' : '')).filter(Boolean),
  );
  // clinical shorthand: a capital R or L standing alone before a word ("L leg DVT", "R TKA")
  for (const m of raw.matchAll(/(?:^|[\s(/,])([RL])(?=\s+[A-Za-z])/g)) sides.add(m[1] === 'R' ? 'right' : 'left');
  const laterality: Laterality =
    sides.has('bilateral') || (sides.has('right') && sides.has('left')) ? 'bilateral' : sides.has('right') ? 'right' : sides.has('left') ? 'left' : null;

  return {
    encounter,
    laterEncounter,
    laterality,
    openFracture: OPEN_FRACTURE.test(raw),
    healingComplication: /\b(?:delayed|delay|non-?union|mal-?union)\b/i.test(raw),
    gustiloIII: /\b(?:type|grade|gustilo)\s*(?:3|iii)[abc]?\b/i.test(raw),
  };
}

/** An approach said not to have been used: "not keyhole", "no cut", "without a scope", "instead of open surgery". */
const NEGATED_APPROACH =
  /\b(not|no|without|rather than|instead of) (an? |the |by |through |via )?(keyhole|laparoscop\w*|scopes?|camera|open|cuts?|cutting|incisions?|needles?)( surgery| operation| approach)?\b/gi;

/** Several small cuts are keyhole surgery; the lexicon folds plurals, and reads one small cut as open surgery. */
const SMALL_CUTS = /\b((two|three|four|five|several|a few|few) )?(small|tiny|little) (cuts|incisions|holes)\b/gi;

/** A procedure query as the lexicon should read it: no approach said not to have been used; small cuts as keyhole. */
export function withoutNegatedApproach(text: string): string {
  return text.replace(NEGATED_APPROACH, ' ').replace(SMALL_CUTS, ' keyhole ');
}

/**
 * How a procedure was done, from the words a coder, clinician or patient uses for it, as the ICD-10-PCS approach:
 * keyhole / laparoscopic / small cuts → percutaneous endoscopic (4); a scope or camera with no cut through the skin →
 * via natural or artificial opening endoscopic (8); a needle, drip or cannula → percutaneous (3); through the mouth,
 * nose or back passage → via natural opening (7); from outside the body, without cutting, pushed back in → external
 * (X); cut open, one small cut → open (0). The first cue in that order decides; no cue, no approach.
 */
export function readApproach(raw: string): Approach | undefined {
  const said = raw.toLowerCase().replace(/[-‐]/g, ' ');
  const external =
    /\b(from outside|outside (the|his|her|my) body|externally|without (surgery|an operation|cutting|a cut|any cuts?|an incision|opening)|no (cuts?|incisions?|surgery|operation|op)|non ?surgical(ly)?|non ?operative(ly)?|closed reduction|shock ?waves?|by hand|manipulat\w*|(pushed|popped|put|clicked) (it |them )?back( in)?)\b/.test(
      said,
    );
  // what was not done says nothing of what was ("open surgery, not keyhole")
  const t = withoutNegatedApproach(said);
  const skin = /\b(needles?|through (the|his|her|my) skin|percutaneous(ly)?|injections?|injected|drip|cannula|catheter|guidewire)\b/;
  const wall = /\bthrough (the|his|her|my|a) (belly|tummy|abdomen|abdominal wall|skin|chest wall|side|back)\b/;
  const scope = /\b(scopes?|scoped|camera|endoscop\w*|telescope|\w+scopy|ogds?|ercp)\b/.test(t);
  if (/\bnatural (or artificial )?opening\b/.test(t)) return scope ? '8' : '7';
  if (
    /\b(keyhole|laparoscop\w*|lap|arthroscop\w*|thoracoscop\w*|vats|ports?|percutaneous(ly)? endoscopic\w*|(small|tiny|little|few) (cuts|incisions|holes))\b/.test(
      t,
    ) ||
    (scope && wall.test(t))
  )
    return '4';
  if (scope && !skin.test(t) && !/\b(cut|cuts|incision|open)\b/.test(t)) return '8';
  if (skin.test(t)) return '3';
  if (
    /\bthrough (the|his|her|my|a) (mouth|nose|nostril|back passage|bottom|anus|rectum|vagina|urethra|penis)\b|\b(per rectum|per vagina|pr|pv|nasogastric|ryle'?s?)\b/.test(
      t,
    )
  )
    return '7';
  if (external) return 'X';
  if (/\b(open|opened|cut open|big cut|large cut|long cut|incision|(small|single|one|a) cut)\b/.test(t)) return '0';
  return undefined;
}

const PREGNANCY_WORD =
  /^(pregnan\w*|antenatal|prenatal|antepartum|postnatal|postpartum|puerper\w*|labou?r\w*|deliver\w*|gestation\w*|trimester|obstetric\w*|miscarr\w*|ectopic|abortion|childbirth|birth|gravid\w*|lactat\w*|breastfeed\w*|placent\w*|amniotic|amnion\w*|caesarean|cesarean|eclamp\w*|preeclamp\w*|hyperemesis|matern\w*|mother|weeks|mengandung|hamil|bersalin|pantang|fetus|fetal|foetal|uterus|womb|cervix|cervical|perineal|perineum|episiotomy|lochia|mastitis)$/;
const NEWBORN_WORD =
  /^(newborn\w*|neonat\w*|perinatal|baby|babies|infant\w*|birth\w*|born|congenital|fetus|fetal|foetal|premature\w*|prematurity|preterm|term|gestation\w*|weeks|days|delivery|maternal|mother|bayi|budak|kuning|jaundice)$/;
const INTENT_WORD =
  /^(suicid\w*|self|harm|deliberate\w*|intentional\w*|intentionally|assault\w*|attacked|homicid\w*|undetermined|adverse|side|effect|effects|underdos\w*|reaction|allergic|allergy|therapeutic|prescribed|bunuh)$/;

/**
 * What the query says of the patient, from the words typed and the lexicon's readings: pregnant or just delivered
 * (chapter 15 codes describe them), a newborn (chapter 16), and whether the intent of a poisoning is said.
 */
function readPatient(words: string[], variants: QueryVariant[]): { pregnancy: boolean; newborn: boolean; intent: boolean } {
  const all = [...words, ...variants.flatMap((v) => v.stems.map((s) => s.word)), ...variants.flatMap((v) => v.label.split(' '))];
  return { pregnancy: all.some((w) => PREGNANCY_WORD.test(w)), newborn: all.some((w) => NEWBORN_WORD.test(w)), intent: all.some((w) => INTENT_WORD.test(w)) };
}

/** The share of its idf an everyday English word keeps in a query (english-everyday.txt). */
const EVERYDAY_WEIGHT = 0.3;

function buildVariants(ix: VocabIndex, slots: Slot[], words: string[], rewrites: Rewrite[]): QueryVariant[] {
  const idfW = (stem: number) => cappedIdf(ix, stem);
  const build = (reps: Array<{ start: number; end: number; target: CompiledTarget }>, sl: Slot[] = slots): { stems: QueryStem[]; total: number } => {
    let stems: QueryStem[] = [];
    let total = 0;
    let group = 0;
    // in a rewrite of a short query, the words left as typed are mostly context ("can't sleep at night"): they
    // count less; in a long title every word is meant
    const left = sl.filter((x, i) => !x.stop && !reps.some((r) => i >= r.start && i < r.end)).length;
    const rest = !reps.length ? 1 : left <= 2 ? 0.5 : left <= 4 ? 0.75 : 1;
    sl.forEach((slot, i) => {
      const rep = reps.find((r) => i >= r.start && i < r.end);
      if (rep) {
        if (i !== rep.start) return;
        for (const g of rep.target.groups) {
          for (const a of g) stems.push({ stem: a.stem, w: idfW(a.stem) * a.conf, word: a.word, group });
          total += idfW(g[0]!.stem);
          group++;
        }
        return;
      }
      if (slot.stop) return;
      if (!slot.alts.length) {
        total += rest * 0.6 * Math.min(IDF_CAP, ix.medianIdf);
        return;
      }
      const literal = slot.alts.find((a) => a.conf === 1 && !a.rel);
      // a lay word the lexicon explains weighs what its clinical synonym weighs: "broken" is rare in the vocabulary
      // (broken tooth, broken prosthesis) but means "fracture", which is common
      const lexIdf = Math.max(0, ...slot.alts.filter((a) => a.rel).map((a) => idfW(a.stem)));
      const litIdf = literal ? (slot.layLiteral && lexIdf > 0 ? Math.min(idfW(literal.stem), lexIdf) : idfW(literal.stem)) : 0;
      let best = 0;
      const seen = new Set<number>();
      for (const a of slot.alts) {
        if (seen.has(a.stem)) continue;
        seen.add(a.stem);
        const w = a === literal ? litIdf : a.rel ? a.conf * Math.max(idfW(a.stem), litIdf) : idfW(a.stem) * a.conf;
        stems.push({ stem: a.stem, w, word: a.word, group });
        best = Math.max(best, w);
      }
      // a word the vocabulary knows weighs its idf; a guessed word (spelling fix, completion) weighs at least a typical
      // word, so a weak guess cannot make a query look fully covered; a lexicon synonym weighs what it stands for
      const lexAlt = slot.alts.find((a) => a.rel);
      const everyday = slot.everyday && !lexAlt ? EVERYDAY_WEIGHT : 1;
      if (everyday !== 1) for (let k = stems.length - 1; k >= 0 && stems[k]!.group === group; k--) stems[k]!.w *= everyday;
      total += everyday * rest * (literal ? litIdf : lexAlt ? best / Math.max(0.5, lexAlt.conf) : Math.max(best, Math.min(IDF_CAP, ix.medianIdf) * 0.8));
      group++;
    });
    // a stem belongs to one group: where it weighs most (a typed word, not another word's neighbour)
    const bestOf = new Map<number, QueryStem>();
    for (const st of stems) if ((bestOf.get(st.stem)?.w ?? -1) < st.w) bestOf.set(st.stem, st);
    stems = stems.filter((st) => bestOf.get(st.stem) === st);
    return { stems, total };
  };
  const label = (reps: Array<{ start: number; end: number; target: CompiledTarget }>) =>
    slots
      .map((s, i) => {
        const rep = reps.find((r) => i >= r.start && i < r.end);
        return rep ? (i === rep.start ? rep.target.text : '') : s.word;
      })
      .filter(Boolean)
      .join(' ');
  const variants: QueryVariant[] = [{ kind: 'original', weight: 1, ...build([]), label: words.join(' ') }];

  // lexicon rewrites: the longest non-overlapping phrases, each with its best reading, together; then each phrase's
  // other readings (ambiguous abbreviations) with the rest unchanged
  if (rewrites.length) {
    const chosen: Rewrite[] = [];
    for (const r of [...rewrites].sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start)) {
      if (!chosen.some((c) => r.start < c.end && c.start < r.end)) chosen.push(r);
    }
    chosen.sort((a, b) => a.start - b.start);
    const seen = new Set<string>([variants[0]!.label]);
    const add = (picks: Array<{ r: Rewrite; k: number }>) => {
      if (variants.length - 1 >= MAX_LEXICON_VARIANTS) return;
      const reps = picks.map(({ r, k }) => ({ start: r.start, end: r.end, target: r.readings[k]!.target }));
      const lbl = label(reps);
      if (seen.has(lbl)) return;
      seen.add(lbl);
      const ws = picks.map(({ r, k }) => r.readings[k]!.weight);
      const weight = Math.min(...ws) * Math.pow(0.98, picks.length - 1);
      variants.push({ kind: 'lexicon', weight, ...build(reps), label: lbl, sources: [...new Set(picks.map(({ r, k }) => r.readings[k]!.source))] });
    };
    add(chosen.map((r) => ({ r, k: 0 })));
    for (let k = 1; k < 3; k++) for (const r of chosen) if (r.readings[k]) add(chosen.map((c) => ({ r: c, k: c === r ? k : 0 })));
    // with two or more rewrites, each alone too (one of them may be wrong)
    if (chosen.length > 1) for (const r of chosen) add([{ r, k: 0 }]);
  }

  const abbrevSlots = slots.map((s, i) => [s, i] as const).filter(([s]) => s.abbrevs.length);
  for (const [slot, idx] of abbrevSlots.slice(0, 2)) {
    for (const ex of slot.abbrevs.slice(0, 3)) {
      const target: CompiledTarget = { groups: ex.stems.map((st) => [{ stem: st, conf: 1, word: ix.stemStr[st]! }]), text: ex.phrase };
      variants.push({
        kind: 'abbreviation',
        weight: ex.conf,
        ...build([{ start: idx, end: idx + 1, target }]),
        label: label([{ start: idx, end: idx + 1, target }]),
      });
    }
  }

  // a side named: the query's words without it, for the texts that name no side (an Alphabetic Index entry "Fracture
  // of wrist NOS", a header), as a coder finds the entry first and reads the side from the tabular; the reranker reads
  // the side (rerank.ts), so the other side's codes and the unspecified side's still step back
  const partOf = (i: number) => {
    const next = slots[i + 1] && SIDED.test(slots[i + 1]!.word) ? slots[i + 2] : slots[i + 1];
    return next !== undefined && UNPAIRED.test(next.word);
  };
  const sideless = slots.map((s, i) =>
    (oneSide(s.word) && !partOf(i)) || (SIDED.test(s.word) && i > 0 && oneSide(slots[i - 1]!.word) && !partOf(i - 1)) ? { ...s, stop: true } : s,
  );
  if (sideless.some((s, i) => s !== slots[i] && !slots[i]!.stop) && sideless.some((s) => !s.stop)) {
    variants.push({
      kind: 'unsided',
      weight: UNSIDED_WEIGHT,
      ...build([], sideless),
      label: sideless
        .filter((s) => !s.stop)
        .map((s) => s.word)
        .join(' '),
    });
  }
  return variants;
}

/** The words that name the right side, and the left. */
const RIGHT_WORD = /^(?:right|rt|kanan)$/;
const LEFT_WORD = /^(?:left|lt|kiri)$/;
/** "sided" or "side" after a side's word ("right-sided", "left side"). */
const SIDED = /^sided?$/;
/**
 * A word that names one side. Not "both" or "bilateral": a bilateral code is its own condition's code (M17.0), and
 * without the word the unspecified side's codes crowd it out.
 */
const oneSide = (w: string) => RIGHT_WORD.test(w) || LEFT_WORD.test(w);
/**
 * Unpaired organs whose "right" and "left" name a part, not a side of the body: "left heart catheterisation",
 * "right-sided heart failure", "right colon cancer" keep the word.
 */
const UNPAIRED = /^(?:heart|cardiac|ventricle|ventricles|ventricular|atrium|atria|atrial|bundle|colon|colonic|hemicolectomy|lobe|lobes|lobar|coronary)$/;
/** What the query without its side weighs against the query as typed. */
const UNSIDED_WEIGHT = 0.9;

function explainedness(slots: Slot[], variants: QueryVariant[]): { empty: boolean; unexplained: number } {
  const empty = variants.length === 1 && !slots.some((s) => !s.stop && /[a-z]{2}|[a-z]\d|\d[a-z]/.test(s.word));
  const content = slots.filter((s) => !s.stop && /[a-z]{2}/.test(s.word));
  let dark = 0;
  for (const s of content) {
    if (s.lex || s.abbrevs.length) continue;
    if (!s.alts.length) dark += 1;
    else if (s.word.length <= 5 && !s.alts.some((a) => a.conf === 1)) dark += 0.5;
  }
  const unexplained = content.length ? dark / content.length : 0;
  return { empty, unexplained };
}

/**
 * How much to trust a lexicon abbreviation for a word as typed: in capitals, or a word the vocabulary does not use,
 * fully; a common word typed in lower case ("cap", "ms") less; a stop word ("all", "as") only in capitals.
 */
function abbreviationFit(ix: VocabIndex, w: string, typedUpper: boolean, upperOnly: boolean, manyWords: boolean): number {
  // NEC, NOS: in capitals inside a longer title they are usually the vocabulary's own words
  if (typedUpper) return manyWords && (ix.wordDf.get(w) ?? 0) >= 200 ? 0.75 : 1;
  if (upperOnly) return 0;
  const s = ix.stemOfWord(w);
  if (s !== undefined && s < 0) return 0;
  const df = ix.wordDf.get(w) ?? 0;
  if (df >= 200) return 0.7;
  if (df >= 20) return 0.85;
  return 1;
}

/**
 * Ambiguous readings (MS: multiple sclerosis / mitral stenosis) are reordered by how close each reading's words sit
 * to the rest of the query in the built-in word vectors ("MS valve" → mitral stenosis).
 */
function rankByContext(ix: VocabIndex, readings: Reading[], slots: Slot[], start: number, end: number): void {
  const ctx: Array<{ stem: number; w: number }> = [];
  slots.forEach((s, i) => {
    if (i >= start && i < end) return;
    const lit = s.alts.find((a) => a.conf === 1);
    if (!s.stop && lit) ctx.push({ stem: lit.stem, w: 1 });
  });
  if (ctx.length && ix.dim > 0) {
    const cv = encodeStems(ix, ctx);
    if (cv) {
      for (const r of readings) {
        const tv = encodeStems(
          ix,
          r.target.groups.map((g) => ({ stem: g[0]!.stem, w: 1 })),
        );
        if (!tv) continue;
        let cos = 0;
        for (let d = 0; d < ix.dim; d++) cos += cv[d]! * tv[d]!;
        r.weight *= 1 + 0.12 * Math.max(-0.5, Math.min(1, cos));
      }
    }
  }
  const order = readings.map((r, i) => [r, i] as const);
  order.sort((a, b) => b[0].weight - a[0].weight || a[1] - b[1]);
  readings.splice(0, readings.length, ...order.map(([r]) => r));
  const top = readings[0]!.weight;
  for (const r of readings) r.weight = Math.min(r.weight, top, 0.96);
}

/** Lexicon words that start with `prefix` (at most `maxExtra` letters longer), by document frequency. */
function prefixCompletions(ix: VocabIndex, prefix: string, limit: number, maxExtra: number, conf: number): Alt[] {
  const words = ix.sortedWords;
  let lo = 0;
  let hi = words.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (words[mid]! < prefix) lo = mid + 1;
    else hi = mid;
  }
  const out: Array<{ word: string; df: number }> = [];
  for (let i = lo; i < words.length && words[i]!.startsWith(prefix); i++) {
    const w = words[i]!;
    if (w.length > prefix.length + 1 && w.length <= prefix.length + maxExtra) out.push({ word: w, df: ix.wordDf.get(w) ?? 0 });
  }
  out.sort((a, b) => b.df - a.df);
  const alts: Alt[] = [];
  for (const { word } of out) {
    const st = ix.stemOfWord(word);
    if (st === undefined || st < 0 || alts.some((a) => a.stem === st)) continue;
    alts.push({ stem: st, conf: conf - 0.03 * alts.length, word });
    if (alts.length >= limit) break;
  }
  return alts;
}

/**
 * Expansions of an abbreviation from runs of consecutive words whose initials spell it (stop words and punctuation
 * break a run), and, for 3-4 letter abbreviations with no such run, a single frequent word that contains its letters
 * in order ("htn" → hypertension). Ranked by specificity (idf) and by how many concepts use the phrase.
 */
export function expandAbbreviation(
  ix: VocabIndex,
  abbr: string,
  allowSubsequence = true,
  /** Spell from these vocabularies' texts only (all when absent or unknown). */
  vocabs?: string[],
): Array<{ stems: number[]; conf: number; phrase: string }> {
  const found = new Map<string, { stems: number[]; concepts: Map<number, number>; term: number; offset: number }>();
  // one byte per word (index-build.ts initialByte): runs of words whose initials spell the abbreviation, the first of
  // which may follow a punctuation break (its initial then marked) but no later one; one-letter and stop words never
  // match. The match alone decides, so no text is read: the run's stems are the text's stems at the same place.
  const text = ix.initials;
  const mark = (ch: number) => (ch >= 48 && ch <= 57 ? ch + 128 : ch - 32);
  const plain = Buffer.from(abbr, 'latin1');
  const marked = Buffer.from(plain);
  marked[0] = mark(plain[0]!);
  // the requested vocabularies' texts are one byte range each (texts are stored in vocabulary order): a search of
  // ICD-10-PCS reads PCS's initials, not those of 5M concepts (a rare abbreviation read all 60 MB twice: ~100 ms)
  const ranges: Array<[number, number]> = [];
  const vs = vocabs?.map((v) => ix.vocabList.indexOf(v)).filter((v) => v >= 0) ?? [];
  const termRange = vs.length ? vocabStructure(ix).termRange : null;
  if (termRange) {
    for (const v of vs.sort((a, b) => termRange[2 * a]! - termRange[2 * b]!))
      if (termRange[2 * v]! >= 0) ranges.push([ix.initialsStart[termRange[2 * v]!]!, ix.initialsStart[termRange[2 * v + 1]!]!]);
  } else ranges.push([0, text.length]);
  const spellable = /^[a-z0-9]+$/.test(abbr);
  let hits = 0;
  let lastTerm = -1;
  for (const [from, to] of spellable ? ranges : []) {
    const part = text.subarray(from, to);
    let p1 = part.indexOf(plain);
    let p2 = part.indexOf(marked);
    while ((p1 >= 0 || p2 >= 0) && hits < 60000) {
      hits++;
      // the two searches' hits in text order
      const at = p2 < 0 || (p1 >= 0 && p1 < p2) ? p1 : p2;
      if (at === p1) p1 = part.indexOf(plain, at + 1);
      else p2 = part.indexOf(marked, at + 1);
      const pos = from + at;
      let lo = 0;
      let hi = ix.initialsStart.length - 2;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (ix.initialsStart[mid]! <= pos) lo = mid;
        else hi = mid - 1;
      }
      const term = lo;
      if (term === lastTerm) continue;
      lastTerm = term;
      // the run's first stem: the text's words before it that have a stem ('_' marks those that have none)
      let k = ix.termTokStart[term]!;
      for (let b = ix.initialsStart[term]!; b < pos; b++) if (text[b] !== 95) k++;
      const stems = Array.from(ix.tokStem.subarray(k, k + abbr.length));
      const key = stems.join(',');
      // how much of this text the phrase is: "atrial fibrillation" is most of "Unspecified atrial fibrillation",
      // "avulsion fracture" is a small part of "Avulsion fracture of lateral condyle of left femur…"
      const runIdf = stems.reduce((a, st) => a + cappedIdf(ix, st), 0);
      const cov = Math.min(1, runIdf / Math.max(1e-6, ix.termReqIdf[term]!));
      let e = found.get(key);
      if (!e) found.set(key, (e = { stems, concepts: new Map(), term, offset: pos - ix.initialsStart[term]! }));
      const c = ix.termConcept[term]!;
      if ((e.concepts.get(c) ?? 0) < cov) e.concepts.set(c, cov);
    }
  }
  // a phrase earns credit from the texts it is the heart of (covers at least half of)
  const scoreOf = (e: { concepts: Map<number, number> }) => {
    let sc = 0;
    for (const cov of e.concepts.values()) if (cov >= 0.5) sc += cov;
    return sc;
  };
  const ranked = [...found.values()]
    .map((e) => ({ e, score: scoreOf(e) }))
    .filter((x) => x.score >= 0.9)
    .sort((a, b) => b.score - a.score || b.e.concepts.size - a.e.concepts.size)
    .slice(0, 3);
  const top = ranked[0]?.score ?? 1;
  const res = ranked.map(({ e, score }) => ({
    stems: e.stems,
    // the words as the first text that spelt them wrote them
    phrase: tokenize(ix.termText.get(e.term))
      .slice(e.offset, e.offset + abbr.length)
      .map((w) => w.text)
      .join(' '),
    conf: Math.min(0.92, 0.72 + 0.06 * Math.log2(1 + score)) * (0.8 + 0.2 * (score / top)),
  }));
  if (allowSubsequence && res.length === 0 && abbr.length >= 3 && abbr.length <= 4 && /^[a-z]+$/.test(abbr)) {
    let best: { word: string; df: number } | null = null;
    for (const [word, df] of ix.wordDf) {
      if (word[0] !== abbr[0] || word.length < abbr.length + 3 || df < 20) continue;
      let j = 1;
      for (let i = 1; i < word.length && j < abbr.length; i++) if (word[i] === abbr[j]) j++;
      if (j === abbr.length && (!best || df > best.df)) best = { word, df };
    }
    const st = best ? ix.stemOfWord(best.word) : undefined;
    if (best && st !== undefined && st >= 0) res.push({ stems: [st], phrase: best.word, conf: 0.7 });
  }
  return res;
}

/** Spellings a lay writer may use for a word that starts with a silent or respelt letter group. */
export function soundAlikes(w: string): string[] {
  const out: string[] = [];
  if (/^[sn]/.test(w)) out.push(`p${w}`); // (p)soriasis, (p)neumonia
  if (/^n[^aeiou]?/.test(w)) out.push(`k${w}`); // (k)nee
  if (/^r[aeiou]/.test(w)) out.push(`rh${w.slice(1)}`); // rheumatism
  if (w.includes('f')) out.push(w.replace(/f/g, 'ph')); // phlegm, diaphragm
  if (/^sy|^si/.test(w)) out.push(`p${w.replace(/^si/, 'sy')}`); // psychosis
  if (/^(nu|new)/.test(w)) out.push(w.replace(/^(nu|new)/, 'pneu')); // pneumonia
  return out.filter((f) => f !== w);
}
