import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { projectRoot } from '../config/paths';
import { americanSpelling, editDistance, tokenize } from './text';
import { lexiconDirSetting } from './config';

/**
 * The curated clinical lexicon (server/search/lexicon/*.tsv): what clinicians, coders and patients type, and how the
 * vocabularies say it. Plain data our team maintains, loaded once and compiled against each vocabulary index (every
 * target word resolved to the index's stems; words the vocabulary does not use are dropped), so query understanding
 * can rewrite a query into the vocabulary's own words:
 *
 *   abbreviations.tsv   HTN → hypertension; ambiguous ones list several expansions (MS → multiple sclerosis; mitral stenosis)
 *   lay.tsv             throwing up → vomiting; water on the knee → effusion knee
 *   malay.tsv           darah tinggi → hypertension; kencing manis → diabetes mellitus
 *   anatomy.tsv         renal ↔ kidney, tummy → abdomen, voice box → larynx
 *   procedures.tsv      gastroscopy → inspection upper intestinal tract endoscopic; NG tube → feeding device stomach
 *   word-parts.tsv      combining forms (nephr- → kidney) and suffixes (-ectomy → resection|excision) that decompose
 *                       procedure words the other lists do not name
 *   malay-stopwords.txt Malay function words: ignored in queries, never "corrected" into English medical words
 *   english-everyday.txt everyday English words with no medical meaning (family, narrative verbs, time, places):
 *                       ignored when the vocabulary does not use them, down-weighted when it does, never corrected
 *
 * Row format (tab-separated, `#` starts a comment): `source[; source…] <TAB> target[; target…] [<TAB> flags]`.
 * Several sources share the targets; several targets (or several rows with one source) are alternative readings,
 * best first. In a target, `a|b` offers alternatives for one word (`resection|excision appendix`). Flags: `dx` / `px`
 * (the reading belongs to diagnoses / procedures), `upper` (an abbreviation that is also a common word: expanded
 * only when typed in capitals), `w=0.8` (confidence), `oneway` (anatomy: no noun → adjective reverse).
 */
export type LexKind = 'abbreviation' | 'lay' | 'malay' | 'anatomy' | 'procedure';
export type LexDomain = 'dx' | 'px' | null;

export interface LexRule {
  kind: LexKind;
  /** Normalised source words (see `lexWords`). */
  source: string[];
  /** Target phrases, best first. */
  targets: string[];
  weight: number;
  domain: LexDomain;
  upper: boolean;
  oneway: boolean;
  file: string;
  line: number;
}

export interface WordPart {
  form: string;
  target: string;
  domain: LexDomain;
}

export interface Lexicon {
  dir: string;
  rules: LexRule[];
  /** Combining forms (nephr → kidney), longest first. */
  roots: WordPart[];
  /** Procedure suffixes (ectomy → resection|excision), longest first. */
  suffixes: WordPart[];
  stopwords: Set<string>;
  /** Everyday English words (english-everyday.txt). */
  everyday: Set<string>;
  /** Entries per file (distinct sources; for word-parts.tsv, rows). */
  sizes: Record<string, number>;
}

const KIND_OF_FILE: Record<string, LexKind> = {
  'abbreviations.tsv': 'abbreviation',
  'lay.tsv': 'lay',
  'malay.tsv': 'malay',
  'anatomy.tsv': 'anatomy',
  'procedures.tsv': 'procedure',
};

/** Default confidence of a rewrite by list. */
export const KIND_WEIGHT: Record<LexKind, number> = { abbreviation: 0.93, lay: 0.92, malay: 0.92, anatomy: 0.9, procedure: 0.92 };
/** Confidence of a procedure word decomposed from its parts (nephr + ectomy). */
export const WORD_PART_WEIGHT = 0.8;

/** Words dropped when matching phrases ("water on the knee" = "water on knee", "born too early" = "born early"). */
const ARTICLES = new Set(['the', 'an', 'my', 'his', 'her', 'their', 'your', 'our', 'its', 'too', 'really', 'so', 'quite', 'extremely', 'just']);
/** Words that link a noun to what describes it ("is", "has gone", "became very"): "my appendix is inflamed" (folded as the query's words are). */
const LINKING = new Set(
  (
    'is was are were be been being has have had got gotten gone went go goes become became becomes turned turning ' +
    'feels felt looks looked seems seemed all very a bit little completely totally badly slightly now still always ' +
    'kept keeps getting'
  )
    .split(' ')
    .map((w) => lexNorm(w)),
);
/** Describing words a lay phrase puts before its noun: participles ("collapsed", "swollen") and common adjectives. */
const DESCRIBING = /^[a-z]{3,}(?:ed|en)$/;
const DESCRIBING_WORDS = new Set(
  (
    'high low sore painful itchy runny heavy irregular weak hard bloody black bad dry slow hot loose yellow red stiff ' +
    'numb torn burst tight pale white blue cloudy deaf poor fast raw wet cold sticky lazy crooked flat bent stuck lost ' +
    'broke tender lumpy puffy watery weepy leaky floppy droopy shaky wobbly dizzy faint'
  ).split(' '),
);
/** Side words: a phrase may span one ("pain in both knees", "broke his left hip"). */
const SIDES = new Set(['both', 'left', 'right', 'bilateral', 'lt', 'rt']);
const ARTICLES_AND_SIDES = new Set([...ARTICLES, ...SIDES]);

/** A light, symmetric normalisation for matching lexicon phrases: plural endings fold (piles → pile, UTIs → uti). */
export function lexNorm(w: string): string {
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (w.length > 3 && w.endsWith('s') && !/(ss|us|is|ys|as|os)$/.test(w)) return w.slice(0, -1);
  return w;
}

/**
 * Normalised words of a phrase (articles skipped, plurals folded). Abbreviations keep their tokens as typed: "AIDS" is
 * not the plural of "aid".
 */
export function lexWords(text: string, kind?: LexKind): string[] {
  const toks = tokenize(text).map((t) => t.text);
  return kind === 'abbreviation' ? toks : toks.filter((t) => !ARTICLES.has(t)).map(lexNorm);
}

function parseFlags(s: string | undefined): { weight?: number; domain: LexDomain; upper: boolean; oneway: boolean } {
  const out: { weight?: number; domain: LexDomain; upper: boolean; oneway: boolean } = { domain: null, upper: false, oneway: false };
  for (const f of (s ?? '').split(/[\s,]+/).filter(Boolean)) {
    if (f === 'dx' || f === 'px') out.domain = f;
    else if (f === 'upper') out.upper = true;
    else if (f === 'oneway') out.oneway = true;
    else if (/^w=\d?\.\d+$/.test(f)) out.weight = Number(f.slice(2));
    else throw new Error(`unknown flag '${f}'`);
  }
  return out;
}

/** Parse one rule list (the text of a .tsv file). Errors name the file and line. */
export function parseRules(text: string, kind: LexKind, file: string = kind): LexRule[] {
  const out: LexRule[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.replace(/\s+#.*$/, '').replace(/^#.*$/, '');
    if (!line.trim()) return;
    const cols = line.split('\t').map((c) => c.trim());
    if (cols.length < 2 || !cols[0] || !cols[1]) throw new Error(`${file}:${i + 1}: expected 'source<TAB>target[<TAB>flags]'`);
    let flags;
    try {
      flags = parseFlags(cols[2]);
    } catch (err) {
      throw new Error(`${file}:${i + 1}: ${(err as Error).message}`);
    }
    const targets = cols[1]
      .split(';')
      .map((t) => t.trim())
      .filter(Boolean);
    for (const src of cols[0]
      .split(';')
      .map((s) => s.trim())
      .filter(Boolean)) {
      const source = lexWords(src, kind);
      if (!source.length) throw new Error(`${file}:${i + 1}: empty source '${src}'`);
      out.push({
        kind,
        source,
        targets,
        weight: flags.weight ?? KIND_WEIGHT[kind],
        domain: flags.domain,
        upper: flags.upper,
        oneway: flags.oneway,
        file,
        line: i + 1,
      });
    }
  });
  return out;
}

/** Parse word-parts.tsv: `nephr-<TAB>kidney` (combining form) and `-ectomy<TAB>resection|excision` (suffix). */
export function parseWordParts(text: string, file = 'word-parts.tsv'): { roots: WordPart[]; suffixes: WordPart[] } {
  const roots: WordPart[] = [];
  const suffixes: WordPart[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.replace(/\s+#.*$/, '').replace(/^#.*$/, '');
    if (!line.trim()) return;
    const cols = line.split('\t').map((c) => c.trim());
    if (cols.length < 2 || !cols[0] || !cols[1]) throw new Error(`${file}:${i + 1}: expected 'form-<TAB>meaning' or '-suffix<TAB>meaning'`);
    const { domain } = parseFlags(cols[2]);
    for (const f of cols[0]
      .split(';')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean)) {
      if (/^[a-z]+-$/.test(f)) roots.push({ form: f.slice(0, -1), target: cols[1], domain });
      else if (/^-[a-z]+$/.test(f)) suffixes.push({ form: f.slice(1), target: cols[1], domain });
      else throw new Error(`${file}:${i + 1}: '${f}' is neither 'form-' nor '-suffix'`);
    }
  });
  roots.sort((a, b) => b.form.length - a.form.length);
  suffixes.sort((a, b) => b.form.length - a.form.length);
  return { roots, suffixes };
}

function candidateDirs(): string[] {
  const dirs: string[] = [];
  try {
    dirs.push(path.join(path.dirname(fileURLToPath(import.meta.url)), 'lexicon'));
  } catch {
    /* import.meta.url is not a file: URL inside some bundles */
  }
  dirs.push(path.join(projectRoot, 'server', 'search', 'lexicon'));
  return dirs;
}

let cached: { dir: string; lex: Lexicon } | null = null;

/** Load (once) the lexicon from SEARCH_LEXICON_DIR or server/search/lexicon/. A missing folder gives an empty lexicon. */
export function loadLexicon(dir?: string): Lexicon {
  // SEARCH_LEXICON_DIR, when set, is the only place looked at (an empty folder turns the lexicon off)
  const setting = lexiconDirSetting();
  const env = setting ? path.resolve(setting) : undefined;
  const found = dir ?? (env ? (fs.existsSync(env) ? env : undefined) : candidateDirs().find((d) => fs.existsSync(path.join(d, 'abbreviations.tsv'))));
  if (!found) return { dir: '', rules: [], roots: [], suffixes: [], stopwords: new Set(), everyday: new Set(), sizes: {} };
  if (cached?.dir === found) return cached.lex;
  const rules: LexRule[] = [];
  const sizes: Record<string, number> = {};
  for (const [file, kind] of Object.entries(KIND_OF_FILE)) {
    const p = path.join(found, file);
    if (!fs.existsSync(p)) continue;
    const r = parseRules(fs.readFileSync(p, 'utf8'), kind, file);
    sizes[file] = new Set(r.map((x) => x.source.join(' '))).size;
    rules.push(...r);
  }
  let roots: WordPart[] = [];
  let suffixes: WordPart[] = [];
  const wp = path.join(found, 'word-parts.tsv');
  if (fs.existsSync(wp)) {
    ({ roots, suffixes } = parseWordParts(fs.readFileSync(wp, 'utf8')));
    sizes['word-parts.tsv'] = roots.length + suffixes.length;
  }
  // word lists: one or more words per line, '#' comments
  const wordList = (file: string): Set<string> => {
    const out = new Set<string>();
    const f = path.join(found, file);
    if (!fs.existsSync(f)) return out;
    for (const l of fs.readFileSync(f, 'utf8').split(/\r?\n/)) {
      const w = l.replace(/#.*$/, '').trim().toLowerCase();
      if (w) for (const t of tokenize(w)) out.add(t.text);
    }
    sizes[file] = out.size;
    return out;
  };
  const stopwords = wordList('malay-stopwords.txt');
  const everyday = wordList('english-everyday.txt');
  const lex: Lexicon = { dir: found, rules, roots, suffixes, stopwords, everyday, sizes };
  cached = { dir: found, lex };
  return lex;
}

/* ---------- compiled against a vocabulary index ---------- */

export interface LexAlt {
  stem: number;
  /** 1 for the first alternative of a slot, a little less for the others. */
  conf: number;
  word: string;
}

/** A target phrase in stems: one group per word slot, each with its alternatives. */
export interface CompiledTarget {
  groups: LexAlt[][];
  text: string;
}

export interface CompiledRule {
  kind: LexKind;
  weight: number;
  domain: LexDomain;
  upper: boolean;
  targets: CompiledTarget[];
}

export interface CompiledWordPart {
  form: string;
  target: CompiledTarget;
  domain: LexDomain;
}

export interface CompiledLexicon {
  /** Normalised source phrase → rules (several rows may share a source). */
  phrases: Map<string, CompiledRule[]>;
  /** Abbreviations, by their tokens as typed (lower case). */
  abbrevs: Map<string, CompiledRule[]>;
  /** Longest source phrase, in words. */
  maxLen: number;
  /** Word-level synonyms (one word → one word slot): anatomy both ways, one-word lay and Malay terms. */
  wordAlts: Map<string, Array<LexAlt & { kind: LexKind; weight: number }>>;
  roots: CompiledWordPart[];
  suffixes: CompiledWordPart[];
  stopwords: Set<string>;
  /** Everyday English words the lexicon does not translate: down-weighted (or ignored) in queries, never corrected. */
  everyday: Set<string>;
  /** Every word of a Malay lexicon entry: known Malay words, never spelling mistakes of English ones. */
  malayWords: Set<string>;
  stats: { rules: number; targets: number; droppedTargets: number; droppedWords: number; ms: number };
}

/** How the index resolves a word to a stem: id, -1 for a stop word, undefined when the vocabulary lacks it. */
export type StemLookup = (word: string) => number | undefined;

const ALT_CONF = 0.9;

export function compileTarget(text: string, stemOf: StemLookup, stats?: { droppedWords: number }): CompiledTarget | null {
  const groups: LexAlt[][] = [];
  for (const slot of text.trim().split(/\s+/)) {
    const alts: LexAlt[] = [];
    slot.split('|').forEach((alt, k) => {
      const toks = tokenize(alt);
      // "a|b" alternatives are single words; a hyphenated slot ("x-ray") becomes its words
      for (const t of toks) {
        let s = stemOf(t.text);
        if (s === undefined) {
          const am = americanSpelling(t.text);
          if (am !== t.text) s = stemOf(am);
        }
        if (s === undefined) {
          if (stats) stats.droppedWords++;
          continue;
        }
        if (s < 0) continue; // a stop word ("of", "into") carries nothing
        if (toks.length > 1) {
          if (!alts.some((a) => a.stem === s)) groups.push([{ stem: s, conf: 1, word: t.text }]);
          continue;
        }
        if (!alts.some((a) => a.stem === s)) alts.push({ stem: s, conf: k === 0 ? 1 : ALT_CONF, word: t.text });
      }
    });
    if (alts.length) {
      // the first alternative the vocabulary knows is the primary one
      alts[0]!.conf = 1;
      groups.push(alts);
    }
  }
  return groups.length ? { groups, text } : null;
}

/** Resolve every rule of the lexicon against a vocabulary (see `StemLookup`). About 0.1 s for ~5k rules. */
export function compileLexicon(lex: Lexicon, stemOf: StemLookup): CompiledLexicon {
  const t0 = performance.now();
  const stats = { rules: 0, targets: 0, droppedTargets: 0, droppedWords: 0, ms: 0 };
  const phrases = new Map<string, CompiledRule[]>();
  const abbrevs = new Map<string, CompiledRule[]>();
  const wordAlts: CompiledLexicon['wordAlts'] = new Map();
  let maxLen = 1;
  const addAlt = (word: string, alt: LexAlt, kind: LexKind, weight: number) => {
    let list = wordAlts.get(word);
    if (!list) wordAlts.set(word, (list = []));
    if (!list.some((a) => a.stem === alt.stem)) list.push({ ...alt, kind, weight });
  };
  const malayWords = new Set<string>();
  for (const r of lex.rules) {
    if (r.kind === 'malay') for (const w of r.source) malayWords.add(w);
    const targets: CompiledTarget[] = [];
    for (const t of r.targets) {
      const c = compileTarget(t, stemOf, stats);
      if (c) targets.push(c);
      else stats.droppedTargets++;
    }
    if (!targets.length) continue;
    stats.rules++;
    stats.targets += targets.length;
    const key = r.source.join(' ');
    const single = r.source.length === 1 && r.kind !== 'abbreviation' && targets.every((t) => t.groups.length === 1);
    if (single) {
      // one word for one word: an alternative of that word, wherever it appears
      for (const t of targets) for (const a of t.groups[0]!) addAlt(key, a, r.kind, r.weight);
      if (r.kind === 'anatomy' && !r.oneway) {
        const srcStem = stemOf(r.source[0]!);
        if (srcStem !== undefined && srcStem >= 0) {
          for (const t of targets) {
            const primary = t.groups[0]![0]!;
            addAlt(lexNorm(primary.word), { stem: srcStem, conf: 1, word: r.source[0]! }, r.kind, r.weight - 0.05);
          }
        }
      }
      continue;
    }
    const map = r.kind === 'abbreviation' ? abbrevs : phrases;
    let list = map.get(key);
    if (!list) map.set(key, (list = []));
    list.push({ kind: r.kind, weight: r.weight, domain: r.domain, upper: r.upper, targets });
    maxLen = Math.max(maxLen, r.source.length);
  }
  // a target word with an anatomical synonym accepts it too ("pulmonary tuberculosis" also reads "tuberculosis of lung")
  const enrich = (t: CompiledTarget) => {
    for (const g of t.groups) {
      for (const a of [...g]) {
        for (const x of wordAlts.get(lexNorm(a.word)) ?? []) {
          if (x.kind === 'anatomy' && !g.some((y) => y.stem === x.stem)) g.push({ stem: x.stem, conf: ALT_CONF, word: x.word });
        }
      }
    }
  };
  for (const map of [phrases, abbrevs]) for (const rules of map.values()) for (const r of rules) r.targets.forEach(enrich);
  const part = (p: WordPart): CompiledWordPart | null => {
    const target = compileTarget(p.target, stemOf, stats);
    return target ? { form: p.form, target, domain: p.domain } : null;
  };
  const roots = lex.roots.map(part).filter((x): x is CompiledWordPart => x !== null);
  const suffixes = lex.suffixes.map(part).filter((x): x is CompiledWordPart => x !== null);
  stats.ms = Math.round(performance.now() - t0);
  // a word the lexicon itself translates (budak → child) is never ignored, whatever the stop list says
  const untranslated = (words: Set<string>) => new Set([...words].filter((w) => !wordAlts.has(lexNorm(w)) && !wordAlts.has(w)));
  const stopwords = untranslated(lex.stopwords);
  const everyday = untranslated(lex.everyday);
  return { phrases, abbrevs, maxLen, wordAlts, roots, suffixes, stopwords, everyday, malayWords, stats };
}

/* ---------- query-time matching ---------- */

export interface PhraseMatch {
  /** Token range [start, end) in the query's tokens. */
  start: number;
  end: number;
  rules: CompiledRule[];
}

/** The tokens a phrase is matched against: folded (lexNorm), those in `skip` left out, with each one's position. */
function phraseWords(tokens: string[], skip: Set<string>): { words: string[]; pos: number[] } {
  const words: string[] = [];
  const pos: number[] = [];
  tokens.forEach((t, i) => {
    if (skip.has(t)) return;
    words.push(lexNorm(t));
    pos.push(i);
  });
  return { words, pos };
}

/**
 * The lay terms told as a statement: "his lung collapsed" (collapsed lung), "my appendix is inflamed", "blood pressure
 * was high", "the skin has gone yellow": a noun of one or two words, up to three linking words, then the describing
 * word that the lexicon's phrase puts first. Spans in `seen` are skipped, and the new ones added to it.
 */
function statementPhrases(cl: CompiledLexicon, tokens: string[], seen: Set<string>): PhraseMatch[] {
  const out: PhraseMatch[] = [];
  const { words, pos } = phraseWords(tokens, ARTICLES_AND_SIDES);
  // the phrase "<describing word> <noun>" for the noun at [i, i + len) and the describing word at j
  const add = (i: number, len: number, j: number) => {
    const rules = cl.phrases.get([words[j]!, ...words.slice(i, i + len)].join(' '))?.filter((r) => r.kind === 'lay');
    const key = `${pos[i]}:${pos[j]! + 1}`;
    if (!rules?.length || seen.has(key)) return;
    seen.add(key);
    out.push({ start: pos[i]!, end: pos[j]! + 1, rules });
  };
  for (let i = 0; i < words.length; i++) {
    for (let len = 1; len <= 2 && i + len < words.length; len++) {
      // after the noun, each word up to the first that is not a linking one ("turned" links and describes)
      for (let j = i + len; j < words.length && j <= i + len + 3; j++) {
        if (DESCRIBING.test(words[j]!) || DESCRIBING_WORDS.has(words[j]!)) add(i, len, j);
        if (!LINKING.has(words[j]!)) break;
      }
    }
  }
  return out;
}

const neighbourIndexFor = new WeakMap<CompiledLexicon, Map<string, string[]>>();

/**
 * The lexicon's own words (of its phrases and one-word synonyms, not abbreviations) one typo from `w` (both folded by
 * `lexNorm`): a letter missing, added, changed or two swapped. Through an index of every word with one letter
 * deleted, built once per compiled lexicon.
 */
export function lexiconNeighbours(cl: CompiledLexicon, w: string): string[] {
  const index = neighbourIndex(cl);
  if (w.length < 4) return [];
  const found = new Set<string>(index.get(w) ?? []);
  for (let i = 0; i < w.length; i++) for (const x of index.get(w.slice(0, i) + w.slice(i + 1)) ?? []) found.add(x);
  found.delete(w);
  return [...found].filter((x) => editDistance(w, x, 1) <= 1);
}

/** Is `w` (folded by lexNorm) a word of the lexicon's phrases or one-word synonyms? */
export function isLexiconWord(cl: CompiledLexicon, w: string): boolean {
  return neighbourIndex(cl).get(w)?.includes(w) ?? false;
}

function neighbourIndex(cl: CompiledLexicon): Map<string, string[]> {
  let index = neighbourIndexFor.get(cl);
  if (!index) {
    index = new Map();
    const words = new Set<string>();
    for (const key of cl.phrases.keys()) for (const x of key.split(' ')) if (x.length >= 4 && /^[a-z]+$/.test(x)) words.add(x);
    for (const key of cl.wordAlts.keys()) if (key.length >= 4 && /^[a-z]+$/.test(key)) words.add(key);
    const put = (k: string, x: string) => {
      const list = index!.get(k);
      if (!list) index!.set(k, [x]);
      else if (!list.includes(x)) list.push(x);
    };
    for (const x of words) {
      put(x, x);
      for (let i = 0; i < x.length; i++) put(x.slice(0, i) + x.slice(i + 1), x);
    }
    neighbourIndexFor.set(cl, index);
  }
  return index;
}

/** Every lexicon phrase found in the query's tokens (longest first at each position). */
export function findPhrases(cl: CompiledLexicon, tokens: string[]): PhraseMatch[] {
  const out: PhraseMatch[] = [];
  const seen = new Set<string>();
  // the words as typed (articles and fillers skipped); then with the side words skipped too, for phrases that span
  // one ("ringing in both ears" = ringing in ears): the side itself is read from the query as a whole
  for (const skip of [ARTICLES, ARTICLES_AND_SIDES]) {
    const { words, pos } = phraseWords(tokens, skip);
    for (let i = 0; i < words.length; i++) {
      for (let len = Math.min(cl.maxLen, words.length - i); len >= 1; len--) {
        const rules = cl.phrases.get(words.slice(i, i + len).join(' '));
        const start = pos[i]!;
        const end = pos[i + len - 1]! + 1;
        if (!rules || seen.has(`${start}:${end}`)) continue;
        if (skip !== ARTICLES && !tokens.slice(start, end).some((t) => SIDES.has(t))) continue;
        seen.add(`${start}:${end}`);
        out.push({ start, end, rules });
      }
    }
  }
  out.push(...statementPhrases(cl, tokens, seen));
  // abbreviations match the tokens as typed; a plural "s" may follow (UTIs)
  for (let i = 0; i < tokens.length; i++) {
    for (let len = Math.min(4, tokens.length - i); len >= 1; len--) {
      const key = tokens.slice(i, i + len).join(' ');
      let rules = cl.abbrevs.get(key);
      if (!rules && len === 1 && key.length >= 4 && key.endsWith('s')) rules = cl.abbrevs.get(key.slice(0, -1));
      if (rules) out.push({ start: i, end: i + len, rules });
    }
  }
  return out;
}

/**
 * Decompose a procedure word the lists do not name into combining forms and a suffix: "pyelolithotomy" →
 * pyel (renal pelvis) + lith (calculus) + otomy. Returns the target (suffix meaning first) or null.
 */
export function decomposeWord(cl: CompiledLexicon, word: string): CompiledTarget | null {
  if (word.length < 7 || !/^[a-z]+$/.test(word)) return null;
  for (const suf of cl.suffixes) {
    if (!word.endsWith(suf.form) || word.length - suf.form.length < 3) continue;
    let rest = word.slice(0, -suf.form.length);
    const parts: CompiledWordPart[] = [];
    for (let guard = 0; rest && guard < 3; guard++) {
      const r = cl.roots.find((x) => rest.startsWith(x.form));
      if (!r) break;
      parts.push(r);
      rest = rest.slice(r.form.length).replace(/^[oi]/, '');
    }
    if (rest.length > 1 || !parts.length) continue;
    const groups: LexAlt[][] = [...suf.target.groups];
    for (const p of parts) for (const g of p.target.groups) if (!groups.some((x) => x[0]!.stem === g[0]!.stem)) groups.push(g);
    return { groups, text: `${suf.target.text} ${parts.map((p) => p.target.text).join(' ')}` };
  }
  return null;
}

/** Target words of the lexicon that a vocabulary does not use (they are dropped when compiled), with file:line. */
export function missingWords(lex: Lexicon, stemOf: StemLookup): Array<{ word: string; where: string[] }> {
  const missing = new Map<string, string[]>();
  const known = (w: string) => stemOf(w) !== undefined || stemOf(americanSpelling(w)) !== undefined;
  for (const r of lex.rules) {
    for (const t of r.targets) {
      for (const tok of tokenize(t.replace(/\|/g, ' '))) {
        if (known(tok.text)) continue;
        const where = missing.get(tok.text) ?? [];
        const at = `${r.file}:${r.line}`;
        if (!where.includes(at)) where.push(at);
        missing.set(tok.text, where);
      }
    }
  }
  return [...missing].map(([word, where]) => ({ word, where })).sort((a, b) => b.where.length - a.where.length || a.word.localeCompare(b.word));
}
