import { describe, expect, it } from 'vitest';
import type { Queryable } from '../db';
import { compileLexicon, decomposeWord, findPhrases, lexNorm, loadLexicon, missingWords, parseRules, parseWordParts, type Lexicon } from './lexicon';
import { seededRandom as seeded } from '../config/random';
import { analyzeQuery, editsOne, opposedPrefixes, phoneticKey, readApproach, soundAlikes, withoutNegatedApproach } from './query';
import { VocabIndex } from './vocab-index';
import { editDistance } from './text';

/**
 * The clinical lexicon (server/search/lexicon/) and the query understanding that uses it, without a database: a tiny
 * vocabulary index is assembled by hand (words → stems with made-up idf), and the lexicon is compiled against it.
 */

const STOP = ['the', 'of', 'and', 'a', 'to', 'in', 'on', 'with', 'for', 'at', 'or', 'into', 'by'];

function tinyIndex(words: Record<string, number>, lex: Lexicon): VocabIndex {
  const ix = new VocabIndex('test');
  for (const w of STOP) ix.wordStem.set(w, -1);
  for (const [w, idf] of Object.entries(words)) {
    const id = ix.stemStr.length;
    ix.stemStr.push(w);
    ix.stemIds.set(w, id);
    ix.wordStem.set(w, id);
    ix.wordDf.set(w, Math.max(1, Math.round(1000 / Math.exp(idf))));
  }
  ix.idf = Float32Array.from(Object.values(words));
  ix.sortedWords = [...ix.wordDf.keys()].sort();
  ix.medianIdf = 5;
  ix.initials = Buffer.alloc(0);
  ix.initialsStart = new Int32Array(1);
  ix.lexicon = compileLexicon(lex, (w) => ix.wordStem.get(w));
  return ix;
}

/** A database that knows no words (the spelling look-up finds nothing). */
const noDb = { query: async () => [] } as unknown as Queryable;

function lexiconOf(
  files: Partial<Record<'abbreviation' | 'lay' | 'malay' | 'anatomy' | 'procedure', string>>,
  parts = '',
  stopwords: string[] = [],
  everyday: string[] = [],
): Lexicon {
  const rules = Object.entries(files).flatMap(([kind, text]) => parseRules(text!.replace(/ => /g, '\t').replace(/ ## /g, '\t'), kind as 'lay'));
  const { roots, suffixes } = parseWordParts(parts.replace(/ => /g, '\t').replace(/ ## /g, '\t'));
  return { dir: '', rules, roots, suffixes, stopwords: new Set(stopwords), everyday: new Set(everyday), sizes: {} };
}

const WORDS = {
  hypertension: 6.4,
  essential: 5,
  fracture: 2.4,
  wrist: 4.1,
  broken: 8.8,
  tooth: 6,
  vomiting: 7,
  multiple: 4,
  sclerosis: 7,
  mitral: 7,
  stenosis: 5,
  valve: 4,
  chlamydial: 8,
  infection: 3,
  computerized: 5,
  tomography: 5,
  kidney: 4,
  renal: 5,
  excision: 4,
  resection: 5,
  diagnostic: 3,
  percutaneous: 2,
  lung: 5,
  pulmonary: 4,
  tuberculosis: 6,
  neck: 4,
  femur: 4,
  pain: 3,
  stage: 5,
  '1': 4,
  i: 4,
  disease: 3,
  chronic: 3,
  right: 2,
  left: 2,
  effusion: 7,
  knee: 4,
  extraction: 5,
  endometrium: 8,
  products: 6,
  conception: 6,
  retained: 7,
  calculus: 7,
  matter: 6,
  extirpation: 6,
  pelvis: 5,
  drainage: 4,
  preterm: 6,
  newborn: 4,
  said: 9,
  doctor: 9,
  diabetes: 4,
  insipidus: 7,
  di: 8,
  sided: 6,
  colon: 5,
};

const LEX = lexiconOf(
  {
    abbreviation: `HTN; HPT => hypertension ## dx
MS => multiple sclerosis ; mitral stenosis ## dx
CT => chlamydial infection ## dx
CT => computerized tomography ## px
AIDS => acquired immunodeficiency syndrome ## dx
NOF; NOF fracture => fracture neck femur ## dx
D&C => extraction endometrium ; extraction products conception retained ## px
UTI => urinary tract infection ## dx
PTB => pulmonary tuberculosis ## dx
DI => diabetes insipidus ## dx`,
    lay: `broken; fractured => fracture
throwing up; threw up => vomiting
water on the knee => effusion knee
born early => preterm newborn`,
    anatomy: `renal => kidney
pulmonary => lung`,
    procedure: `biopsy => excision diagnostic ## px`,
    malay: `darah tinggi => hypertension`,
  },
  `-ectomy => resection|excision ## px
-otomy => drainage|extirpation ## px
nephr- => kidney
pyel- => kidney pelvis
lith- => matter`,
  ['saya', 'yang', 'di'],
  ['my', 'granny', 'said', 'doctor', 'broken'],
);

describe('lexicon files', () => {
  it('parse: several sources and targets, flags, comments, file:line errors', () => {
    const r = parseRules(
      '# comment\nHTN; HPT\thypertension ; hypertensive disease\tdx upper w=0.8  # note\n\nAIDS\tacquired immunodeficiency syndrome',
      'abbreviation',
      'abbr.tsv',
    );
    expect(r).toHaveLength(3);
    expect(r[0]).toMatchObject({
      source: ['htn'],
      targets: ['hypertension', 'hypertensive disease'],
      domain: 'dx',
      upper: true,
      weight: 0.8,
      file: 'abbr.tsv',
      line: 2,
    });
    expect(r[1]!.source).toEqual(['hpt']);
    // abbreviations keep their tokens: AIDS is not the plural of "aid"
    expect(r[2]!.source).toEqual(['aids']);
    expect(parseRules('piles\themorrhoids', 'lay')[0]!.source).toEqual(['pile']);
    expect(() => parseRules('x\ty\tloud', 'lay', 'lay.tsv')).toThrow(/lay\.tsv:1: unknown flag 'loud'/);
    expect(() => parseRules('only-one-column', 'lay', 'lay.tsv')).toThrow(/lay\.tsv:1/);
    expect(() => parseWordParts('nephr\tkidney')).toThrow(/neither/);
  });

  it('the shipped lexicon loads, is large enough and every list compiles', () => {
    const lex = loadLexicon();
    expect(lex.dir).toMatch(/lexicon$/);
    expect(lex.sizes['abbreviations.tsv']).toBeGreaterThanOrEqual(1000);
    expect(lex.sizes['lay.tsv']).toBeGreaterThanOrEqual(800);
    expect(lex.sizes['malay.tsv']).toBeGreaterThanOrEqual(300);
    expect(lex.sizes['anatomy.tsv']).toBeGreaterThanOrEqual(100);
    expect(lex.sizes['procedures.tsv']).toBeGreaterThanOrEqual(300);
    expect(lex.roots.length).toBeGreaterThan(100);
    expect(lex.suffixes.map((s) => s.form)).toContain('ectomy');
    expect(lex.stopwords.has('saya')).toBe(true);
    // no medical word is a Malay stop word
    for (const w of ['sakit', 'demam', 'batuk', 'darah', 'kencing', 'kuning']) expect(lex.stopwords.has(w), w).toBe(false);
    // everyday English: family, narrative and time words, and no word that names a finding, a side or a mechanism
    expect(lex.sizes['english-everyday.txt']).toBeGreaterThanOrEqual(800);
    for (const w of ['granny', 'daughter', 'said', 'doctor', 'yesterday', 'my']) expect(lex.everyday.has(w), w).toBe(true);
    for (const w of [
      ...['pain', 'sore', 'fall', 'fell', 'broke', 'broken', 'cut', 'burn', 'bite', 'left', 'right', 'both', 'side', 'night'],
      ...['baby', 'child', 'pregnant', 'bed', 'car', 'dog', 'history', 'family', 'no', 'not', 'with', 'without', 'after'],
      ...['red', 'swollen', 'itchy', 'old', 'first', 'second', 'severe', 'acute', 'chronic', 'visit', 'follow', 'initial'],
    ])
      expect(lex.everyday.has(w), w).toBe(false);
    // a vocabulary that knows every word: nothing is dropped, every rule has a reading
    const cl = compileLexicon(lex, () => 1);
    expect(cl.stats.droppedTargets).toBe(0);
    expect(cl.stats.rules).toBe(lex.rules.length);
    expect(cl.abbrevs.get('htn')?.[0]?.targets[0]?.text).toBe('hypertension');
    expect(cl.phrases.get('water on knee')).toBeDefined();
  });

  it('never ignores a word the lexicon itself translates, even when the stop list names it', () => {
    const lex = lexiconOf({ malay: 'budak => child\nkencing manis => diabetes' }, '', ['budak', 'manis', 'saya']);
    const cl = compileLexicon(lex, () => 1);
    expect(cl.wordAlts.get('budak')?.map((a) => a.word)).toEqual(['child']);
    expect(cl.stopwords.has('budak')).toBe(false);
    // a word only inside a phrase stays a stop word on its own; the phrase still matches
    expect(cl.stopwords.has('manis')).toBe(true);
    expect(cl.stopwords.has('saya')).toBe(true);
    expect(cl.phrases.get('kencing manis')).toBeDefined();
  });

  it('compiles against a vocabulary: unknown words dropped, one-word synonyms, anatomy both ways and inside targets', () => {
    const ix = tinyIndex(WORDS, LEX);
    const cl = ix.lexicon!;
    // "urinary tract infection": the tiny vocabulary knows only "infection"
    expect(cl.abbrevs.get('uti')![0]!.targets[0]!.groups.map((g) => g[0]!.word)).toEqual(['infection']);
    expect(cl.stats.droppedWords).toBeGreaterThan(0);
    const missing = missingWords(LEX, (w) => ix.wordStem.get(w));
    expect(missing.find((m) => m.word === 'urinary')?.where).toEqual(['abbreviation:8']);
    expect(missing.some((m) => m.word === 'hypertension')).toBe(false);
    expect(cl.wordAlts.get('broken')!.map((a) => a.word)).toEqual(['fracture']);
    expect(cl.wordAlts.get('renal')!.map((a) => a.word)).toEqual(['kidney']);
    expect(cl.wordAlts.get('kidney')!.map((a) => a.word)).toEqual(['renal']);
    // "pulmonary tuberculosis" also reads "lung tuberculosis"
    const ptb = cl.abbrevs.get('ptb')![0]!.targets[0]!;
    expect(ptb.groups[0]!.map((a) => a.word)).toEqual(['pulmonary', 'lung']);
  });

  it('finds phrases: articles and fillers skipped, plurals folded, abbreviations as typed', () => {
    const cl = tinyIndex(WORDS, LEX).lexicon!;
    const spans = (q: string) => findPhrases(cl, q.split(' ')).map((m) => [m.start, m.end]);
    expect(spans('water on the knee')).toEqual([[0, 4]]);
    expect(spans('baby born too early')).toEqual([[1, 4]]);
    expect(spans('utis in pregnancy')).toEqual([[0, 1]]);
    expect(spans('nof fracture')).toEqual([
      [0, 2],
      [0, 1],
    ]);
    expect(spans('aid')).toEqual([]);
    // a side word inside a phrase is skipped (the side is read from the whole query); not outside one
    expect(spans('water on both knees')).toEqual([[0, 4]]);
    expect(spans('water on the left knee')).toEqual([[0, 5]]);
    expect(spans('left knee')).toEqual([]);
    expect(lexNorm('piles')).toBe('pile');
    expect(lexNorm('diabetes')).toBe('diabete');
    expect(lexNorm('stenosis')).toBe('stenosis');
  });

  it('finds the shipped lay phrases told as statements: "his lung collapsed", "blood pressure was very high" (generated)', () => {
    const cl = compileLexicon(loadLexicon(), () => 1);
    const rand = seeded(5);
    const LINKS = ['', 'is', 'was', 'has gone', 'got', 'is very', 'has been', 'went completely', 'feels a bit'];
    const describing = (w: string) =>
      /^[a-z]{3,}(?:ed|en)$/.test(w) || ['high', 'low', 'sore', 'itchy', 'yellow', 'red', 'stiff', 'heavy', 'runny', 'weak'].includes(w);
    let tried = 0;
    for (const [key, rules] of cl.phrases) {
      const w = key.split(' ');
      if (w.length < 2 || w.length > 3 || !describing(w[0]!) || !rules.some((r) => r.kind === 'lay')) continue;
      const link = LINKS[Math.floor(rand() * LINKS.length)]!;
      const told = ['my', ...w.slice(1), ...(link ? link.split(' ') : []), w[0]!, 'since', 'monday'];
      const m = findPhrases(cl, told).find((x) => x.start === 1 && x.end === told.length - 2);
      expect(m, told.join(' ')).toBeDefined();
      // the phrase's own reading (or, where the lexicon also lists the words in this order, that entry's)
      const texts = (rs: typeof rules) => new Set(rs.flatMap((r) => r.targets.map((t) => t.text)));
      expect(
        [...texts(m!.rules)].some((t) => texts(rules).has(t)),
        told.join(' '),
      ).toBe(true);
      tried++;
    }
    expect(tried).toBeGreaterThan(200);
    // a describing word more than three linking words away, or after another word, is not read back
    expect(findPhrases(cl, 'lung was not ever really collapsed'.split(' ')).some((x) => x.start === 0 && x.end === 6)).toBe(false);
    expect(findPhrases(cl, 'lung scan collapsed'.split(' ')).some((x) => x.start === 0 && x.end === 3)).toBe(false);
  });

  it('decomposes procedure words into combining forms and a suffix', () => {
    const cl = tinyIndex(WORDS, LEX).lexicon!;
    const words = (w: string) => decomposeWord(cl, w)?.groups.map((g) => g.map((a) => a.word).join('|'));
    expect(words('nephrectomy')).toEqual(['resection|excision', 'kidney']);
    expect(words('pyelolithotomy')).toEqual(['drainage|extirpation', 'kidney', 'pelvis', 'matter']);
    expect(words('hypertension')).toBeUndefined();
    expect(words('ectomy')).toBeUndefined();
  });
});

describe('query understanding with the lexicon', () => {
  const ix = tinyIndex(WORDS, LEX);
  const labels = async (q: string, vocabularies = ['ICD10CM']) =>
    (await analyzeQuery(noDb, ix, q, { vocabularies })).variants.map((v) => `${v.kind}:${v.label}`);

  it('expands abbreviations typed in capitals; a common word in lower case is not an abbreviation', async () => {
    expect(await labels('HTN')).toEqual(['original:htn', 'lexicon:hypertension']);
    const a = await analyzeQuery(noDb, ix, 'HTN', { vocabularies: ['ICD10CM'] });
    // the whole query is the abbreviation: its reading is nearly certain
    expect(a.variants[1]!.weight).toBeGreaterThan(0.95);
    expect(await labels('aid')).toEqual(['original:aid']);
  });

  it('ambiguous abbreviations: the requested vocabularies and the other words choose the reading', async () => {
    expect((await labels('CT', ['ICD10CM']))[1]).toBe('lexicon:chlamydial infection');
    expect((await labels('CT', ['ICD10PCS']))[1]).toBe('lexicon:computerized tomography');
    const ms = await labels('MS');
    expect(ms).toEqual(['original:ms', 'lexicon:multiple sclerosis', 'lexicon:mitral stenosis']);
  });

  it('lay phrases are rewritten; one-word lay synonyms weigh what the clinical word weighs', async () => {
    expect(await labels('throwing up')).toContain('lexicon:vomiting');
    expect(await labels('water on the knee')).toContain('lexicon:effusion knee');
    const bw = await analyzeQuery(noDb, ix, 'broken wrist', { vocabularies: ['ICD10CM'] });
    const g0 = bw.variants[0]!.stems.filter((s) => s.group === 0);
    expect(g0.map((s) => s.word)).toEqual(['broken', 'fracture']);
    // "broken" (idf 8.8) counts like "fracture" (2.4), so "broken tooth" cannot outweigh a wrist fracture
    expect(g0[0]!.w).toBeCloseTo(2.4, 1);
    expect(bw.variants[0]!.total).toBeCloseTo(2.4 + 4.1, 1);
  });

  it('everyday English words: ignored when the vocabulary lacks them, down-weighted when it has them, never corrected', async () => {
    const q = await analyzeQuery(noDb, ix, 'my granny said broken wrist', { vocabularies: ['ICD10CM'] });
    const v = q.variants[0]!;
    // "my", "granny": not in the vocabulary, ignored (no spelling guess "granny" → "grand"); "said" weighs 0.3 of 9;
    // "broken" is everyday in this list but the lexicon translates it: it keeps the fracture reading and its weight
    expect(v.stems.map((s) => s.word)).toEqual(['said', 'broken', 'fracture', 'wrist']);
    expect(v.stems[0]!.w).toBeCloseTo(0.3 * 9, 5);
    expect(v.stems.find((s) => s.word === 'broken')!.w).toBeCloseTo(2.4, 1);
    expect(v.total).toBeCloseTo(0.3 * 9 + 2.4 + 4.1, 1);
    // the same query without the narrative: the finding's words carry (almost) all the weight either way
    const plain = (await analyzeQuery(noDb, ix, 'broken wrist', { vocabularies: ['ICD10CM'] })).variants[0]!;
    expect((2.4 + 4.1) / v.total).toBeGreaterThan(0.7);
    expect(plain.total).toBeCloseTo(2.4 + 4.1, 1);
  });

  it('anatomical adjectives and procedure words combine ("renal biopsy" → excision of kidney, diagnostic)', async () => {
    const q = await analyzeQuery(noDb, ix, 'renal biopsy', { vocabularies: ['ICD10PCS'] });
    const v = q.variants.find((x) => x.kind === 'lexicon')!;
    expect(v.label).toBe('renal excision diagnostic');
    expect(v.stems.map((s) => s.word)).toEqual(expect.arrayContaining(['renal', 'kidney', 'excision', 'diagnostic']));
    expect(await labels('nephrectomy', ['ICD10PCS'])).toContain('lexicon:resection|excision kidney');
    // diagnosis searches do not decompose procedure words
    expect(await labels('nephrectomy', ['ICD10CM'])).toEqual(['original:nephrectomy']);
  });

  it('reads the spelling-corrected words too, weighed by the correction; a doubtful correction is not read', async () => {
    // the spelling look-up: "knea" is close to "knee" (or, with `sim`, not close at all)
    const dbFixing = (sim: number) =>
      ({
        query: async (_sql: string, params: unknown[]) =>
          (params[0] as string[]).includes('knea') ? [{ w: 'knea', stems: '{knea}', word: 'knee', df: 50, sim }] : [],
      }) as unknown as Queryable;
    const q = await analyzeQuery(dbFixing(0.5), ix, 'water on the knea', { vocabularies: ['ICD10CM'] });
    const v = q.variants.find((x) => x.label === 'effusion knee');
    expect(v).toBeDefined();
    // below the same rewrite of the query spelt right
    const right = (await analyzeQuery(noDb, ix, 'water on the knee', { vocabularies: ['ICD10CM'] })).variants.find((x) => x.label === 'effusion knee')!;
    expect(v!.weight).toBeLessThan(right.weight);
    expect(v!.weight).toBeGreaterThan(0.5 * right.weight);
    // a doubtful correction two typos away is not read
    const farFix = {
      query: async (_sql: string, params: unknown[]) =>
        (params[0] as string[]).includes('knuu') ? [{ w: 'knuu', stems: '{knuu}', word: 'knee', df: 50, sim: 0.05 }] : [],
    } as unknown as Queryable;
    const doubtful = await analyzeQuery(farFix, ix, 'water on the knuu', { vocabularies: ['ICD10CM'] });
    expect(doubtful.variants.map((x) => x.label)).not.toContain('effusion knee');
    // one typo from a lexicon word that completes the phrase is read whatever the vocabulary's look-up thinks
    const inPhrase = await analyzeQuery(dbFixing(0.05), ix, 'water on the knea', { vocabularies: ['ICD10CM'] });
    expect(inPhrase.variants.map((x) => x.label)).toContain('effusion knee');
  });

  it('a typo in a lay phrase the vocabulary does not know is read as the phrase (generated: every one-letter typo)', async () => {
    const lay = lexiconOf({
      lay: 'throwing up => vomiting\nhot flushes => hot flush\nwater on the knee => effusion knee\nthinning bones => osteoporosis',
      malay: 'darah tinggi => hypertension\nsakit jantung => heart disease',
    });
    const ixt = tinyIndex({ ...WORDS, flush: 5, hot: 5, osteoporosis: 6, heart: 4, blood: 4 }, lay);
    const rand = seeded(17);
    const letters = 'abcdefghijklmnopqrstuvwxyz';
    let n = 0;
    let read = 0;
    for (const [phrase, word, label] of [
      ['throwing up', 'throwing', 'vomiting'],
      ['hot flushes', 'flushes', 'hot flush'],
      ['water on the knee', 'water', 'effusion knee'],
      ['thinning bones', 'thinning', 'osteoporosis'],
      ['darah tinggi', 'tinggi', 'hypertension'],
      ['sakit jantung', 'jantung', 'heart disease'],
    ] as const) {
      for (let k = 0; k < 40; k++) {
        const p = 1 + Math.floor(rand() * (word.length - 2));
        const op = k % 4;
        const c = letters[Math.floor(rand() * 26)]!;
        const typo =
          op === 0
            ? word.slice(0, p) + word.slice(p + 1)
            : op === 1
              ? word.slice(0, p) + c + word.slice(p)
              : op === 2
                ? word.slice(0, p) + c + word.slice(p + 1)
                : word.slice(0, p) + word[p + 1] + word[p] + word.slice(p + 2);
        if (typo === word) continue;
        n++;
        const labels = (await analyzeQuery(noDb, ixt, phrase.replace(word, typo), { vocabularies: ['ICD10CM'] })).variants.map((v) => v.label);
        if (labels.some((l) => l.includes(label))) read++;
      }
    }
    // a short word alone, one letter from a lexicon word, is not read as it: "bola sepak" is football, not sopak
    const ixs = tinyIndex({ ...WORDS, vitiligo: 7 }, lexiconOf({ malay: 'sopak => vitiligo' }));
    const readS = async (q: string) => (await analyzeQuery(noDb, ixs, q, { vocabularies: ['ICD10CM'] })).variants.flatMap((v) => v.stems.map((x) => x.word));
    expect(await readS('bola sepak')).not.toContain('vitiligo');
    expect(await readS('sopak')).toContain('vitiligo');
    expect(n).toBeGreaterThan(200);
    // a typo can make another lexicon word (flushes → flushed) or a stop word: nearly all, not all
    expect(read / n).toBeGreaterThan(0.9);
  });

  it('Malay: phrases are rewritten, function words ignored', async () => {
    const q = await analyzeQuery(noDb, ix, 'saya darah tinggi', { vocabularies: ['ICD10CM'] });
    expect(q.variants.map((v) => v.label)).toContain('saya hypertension');
    expect(q.variants.find((v) => v.kind === 'lexicon')!.stems.map((s) => s.word)).toEqual(['hypertension']);
    // a Malay function word among Malay words is not searched, nor read as the abbreviation it spells in capitals
    const di = await analyzeQuery(noDb, ix, 'darah tinggi di rumah', { vocabularies: ['ICD10CM'] });
    expect(di.variants.flatMap((v) => v.stems.map((s) => s.word))).not.toContain('insipidus');
    expect(di.variants.flatMap((v) => v.stems.map((s) => s.word))).not.toContain('di');
    const upper = await analyzeQuery(noDb, ix, 'DI', { vocabularies: ['ICD10CM'] });
    expect(upper.variants.flatMap((v) => v.stems.map((s) => s.word))).toContain('insipidus');
  });

  it('"right-sided": the side is read, "sided" weighs little; elsewhere the word weighs its idf', async () => {
    const weightOf = async (query: string, word: string) => (await analyzeQuery(noDb, ix, query)).variants[0]!.stems.find((s) => s.word === word)?.w ?? NaN;
    for (const side of ['right', 'left']) {
      const q = await analyzeQuery(noDb, ix, `${side}-sided colon`);
      expect(q.laterality).toBe(side);
      expect(await weightOf(`${side}-sided colon`, 'sided')).toBeLessThan(0.5 * (await weightOf(`${side}-sided colon`, 'colon')));
    }
    expect(await weightOf('sided colon', 'sided')).toBeGreaterThan(await weightOf('sided colon', 'colon'));
  });

  it('fracture shorthand, encounter, laterality, roman numerals and empty queries', async () => {
    expect(await labels('#NOF')).toContain('lexicon:fracture fracture neck femur');
    const enc = await analyzeQuery(noDb, ix, 'fractured right wrist, first visit');
    expect(enc.encounter).toBe('initial');
    expect(enc.laterality).toBe('right');
    expect(enc.variants[0]!.label).toBe('fractured right wrist first visit');
    expect(enc.variants[0]!.stems.some((s) => s.word === 'visit')).toBe(false);
    expect((await analyzeQuery(noDb, ix, 'sequela of left wrist fracture')).encounter).toBe('sequela');
    expect((await analyzeQuery(noDb, ix, 'follow up visit wrist fracture')).encounter).toBe('subsequent');
    expect((await analyzeQuery(noDb, ix, 'both knees effusion')).laterality).toBe('bilateral');
    // a capital R or L before a word is a side; a lower-case one, or one at the end, is not
    expect((await analyzeQuery(noDb, ix, 'L knee effusion')).laterality).toBe('left');
    expect((await analyzeQuery(noDb, ix, 'pain (R knee)')).laterality).toBe('right');
    expect((await analyzeQuery(noDb, ix, 'l knee effusion')).laterality).toBeNull();
    expect((await analyzeQuery(noDb, ix, 'vitamin R')).laterality).toBeNull();
    const stage = await analyzeQuery(noDb, ix, 'chronic kidney disease stage I');
    expect(stage.variants[0]!.stems.filter((s) => s.group === 4).map((s) => s.word)).toEqual(['i', '1']);
    expect((await analyzeQuery(noDb, ix, 'the of and a to')).empty).toBe(true);
    expect((await analyzeQuery(noDb, ix, "' OR '1'='1")).empty).toBe(true);
    // single letters that spell a known abbreviation are not empty
    expect((await analyzeQuery(noDb, ix, 'D&C', { vocabularies: ['ICD10PCS'] })).empty).toBe(false);
    // "I" the pronoun is not the roman numeral
    const pron = await analyzeQuery(noDb, ix, 'i have pain');
    expect(pron.variants[0]!.stems.some((s) => s.word === 'i')).toBe(false);
  });

  it('lay spelling: silent and respelt letters are looked up too', () => {
    expect(soundAlikes('sorisis')).toContain('psorisis');
    expect(soundAlikes('numonia')).toContain('pneumonia');
    // one edit from rheumatism, where the trigram look-up finds it
    expect(soundAlikes('rumatism')).toContain('rhumatism');
    expect(soundAlikes('flem')).toContain('phlem');
  });

  it('phonetic key: respellings of medical words (3,000 draws, over 200 distinct) sound the same; different words do not', () => {
    const words = [
      'hemorrhoids',
      'eczema',
      'schizophrenia',
      'pneumonia',
      'bronchitis',
      'psoriasis',
      'arthritis',
      'diabetes',
      'hypertension',
      'asthma',
      'diarrhoea',
      'rheumatism',
      'cholecystitis',
      'phlebitis',
      'tachycardia',
      'ischaemia',
      'oesophagitis',
      'haemorrhage',
      'pharyngitis',
      'sciatica',
      'hypoglycaemia',
      'anaphylaxis',
      'appendicitis',
      'conjunctivitis',
      'pyelonephritis',
      'mastectomy',
      'cholesterol',
      'chlamydia',
      'leukaemia',
      'psychosis',
    ];
    // spellings that sound alike: Greek and Latin letters as heard, doubled or single consonants, y/i, ae/oe/e
    const respell: Array<[RegExp, string]> = [
      [/ph/g, 'f'],
      [/ch/g, 'k'],
      [/ae|oe/g, 'e'],
      [/y/g, 'i'],
      [/rrh/g, 'r'],
      [/rh/g, 'r'],
      [/x/g, 'ks'],
      [/z/g, 's'],
      [/([bcdfglmnprst])\1/g, '$1'],
      [/([lmnrst])(?=[aeiou])/, '$1$1'],
      [/c(?=a(?!e)|o(?!e)|u)/g, 'k'],
      [/c(?=[ei])/g, 's'],
      [/^pn/, 'n'],
      [/^ps/, 's'],
      [/sch/g, 'sk'],
      [/th/g, 't'],
      [/ea/g, 'e'],
      [/ie/g, 'ee'],
    ];
    const rand = seeded(5);
    const respelt = new Set<string>();
    for (let i = 0; i < 3000; i++) {
      const w = words[i % words.length]!;
      let v = w;
      for (let k = 0; k < 4; k++) {
        const [re, to] = respell[Math.floor(rand() * respell.length)]!;
        v = v.replace(re, to);
      }
      expect(phoneticKey(v), `${w} / ${v}`).toBe(phoneticKey(w));
      if (v !== w) respelt.add(v);
    }
    expect(respelt.size).toBeGreaterThan(200);
    // different words keep different keys
    const keys = new Set(words.map(phoneticKey));
    expect(keys.size).toBe(words.length);
  });

  it('a word nothing close matches is read as the vocabulary word that sounds like it (the closest spelt)', async () => {
    const sounds = tinyIndex({ ...WORDS, hemorrhoids: 6, eczema: 6, asthma: 5, edema: 5 }, LEX);
    // the spelling look-up as PostgreSQL answers it: the word's stem, no trigram neighbour
    const db = {
      query: async (_sql: string, params: unknown[]) => (params[0] as string[]).map((w) => ({ w, stems: `{${w}}`, word: null, df: null, sim: null })),
    } as unknown as Queryable;
    const words = async (q: string) => (await analyzeQuery(db, sounds, q, { vocabularies: ['ICD10CM'] })).variants[0]!.stems.map((x) => x.word);
    expect(await words('hemroids')).toEqual(['hemorrhoids']);
    // eczema and asthma share a key with "exema": the closer spelling wins
    expect(await words('exema')).toEqual(['eczema']);
    expect(await words('zzzqqq')).toEqual([]);
  });
});

describe('spelling corrections', () => {
  // the spelling look-up as PostgreSQL answers it: the word's stem where the stemmer gives one, no trigram neighbour
  const stemOnly = {
    query: async (_sql: string, params: unknown[]) => (params[0] as string[]).map((w) => ({ w, stems: `{${w}}`, word: null, df: null, sim: null })),
  } as unknown as Queryable;
  const MEDICAL = [
    'asthma',
    'eczema',
    'psoriasis',
    'crohn',
    'dementia',
    'glaucoma',
    'cataract',
    'arthritis',
    'bronchitis',
    'hepatitis',
    'migraine',
    'angina',
    'sinusitis',
    'gastritis',
    'scabies',
    'tetanus',
    'rubella',
    'measles',
    'typhoid',
    'malaria',
    'leprosy',
    'anemia',
    'lymphoma',
    'melanoma',
    'sepsis',
    'stroke',
    'hernia',
    'tinnitus',
    'vertigo',
    'insomnia',
  ];
  // common distractors that sound alike: the kind a phonetic key alone confuses (autism/asthma, corns/crohn)
  const DISTRACTORS = ['autism', 'corns', 'chorion', 'exam', 'edema', 'dermatitis', 'stoke', 'hernial', 'anemone', 'angiitis'];
  const idf = (w: string, i: number) => (DISTRACTORS.includes(w) ? 9.5 : 5 + (i % 4) * 0.5);
  const words: Record<string, number> = {};
  [...MEDICAL, ...DISTRACTORS].forEach((w, i) => (words[w] = idf(w, i)));
  const ix = tinyIndex(words, lexiconOf({}));

  it('a letter moved or two letters swapped still finds the word, and common words beat rare look-alikes (generated)', async () => {
    let tried = 0;
    let found = 0;
    const misses: string[] = [];
    for (const w of MEDICAL) {
      // every swap of two neighbouring letters after the first, and every letter moved one further along
      const variants = new Set<string>();
      for (let i = 1; i + 1 < w.length; i++) variants.add(w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2));
      for (let i = 1; i + 2 < w.length; i++) variants.add(w.slice(0, i) + w[i + 1] + w[i + 2] + w[i] + w.slice(i + 3));
      for (const v of variants) {
        if (v === w || words[v] !== undefined) continue;
        tried++;
        const got = (await analyzeQuery(stemOnly, ix, v, { vocabularies: ['ICD10CM'] })).variants[0]!.stems.map((x) => x.word);
        if (got[0] === w) found++;
        else misses.push(`${v} → ${got.join(',') || '∅'}`);
        // never a rarer look-alike when the real word is as close
        const rare = got[0] !== undefined && DISTRACTORS.includes(got[0]);
        expect(rare && editDistance(v, got[0]!, 9) >= editDistance(v, w, 9) ? `${v} → ${got[0]}` : '').toBe('');
      }
    }
    expect(tried).toBeGreaterThan(250);
    expect(found / tried, misses.slice(0, 20).join('; ')).toBeGreaterThan(0.8);
  });

  it("one typo the trigrams miss is found among the vocabulary's words one edit away (generated swaps in short words)", async () => {
    const vocab = ['cancer', 'bones', 'rabies', 'ulcer', 'gout', 'colic', 'polyp', 'lupus', 'croup', 'mumps'];
    const ixe = tinyIndex(Object.fromEntries(vocab.map((w, k) => [w, 4 + (k % 5)])), lexiconOf({}));
    // PostgreSQL: no stem and no trigram neighbour for the typo; the exact look-up of its one-edit strings finds the word
    const db = {
      query: async (sql: string, params: unknown[]) =>
        /ANY/.test(sql)
          ? (params[0] as string[]).filter((w) => vocab.includes(w)).map((word) => ({ word, df: 100 }))
          : (params[0] as string[]).map((w) => ({ w, stems: `{${w}}`, word: null, df: null, sim: null })),
    } as unknown as Queryable;
    let n = 0;
    for (const w of vocab) {
      for (let i = 1; i + 1 < w.length; i++) {
        const typo = w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2);
        if (typo === w) continue;
        n++;
        const got = (await analyzeQuery(db, ixe, typo, { vocabularies: ['ICD10CM'] })).variants[0]!.stems.map((x) => x.word);
        expect(got, typo).toContain(w);
      }
    }
    expect(n).toBeGreaterThan(25);
    // 3 deletions, 2 swaps, 75 changes, 104 additions, less the 3 additions that double a letter twice over (aabc…)
    expect(editsOne('abc')).toHaveLength(3 + 2 + 25 * 3 + 26 * 4 - 3);
    expect(editsOne('canecr')).toContain('cancer');
    expect(editsOne('canecr')).not.toContain('canecr');
  });

  it('never corrects a word into one with the opposite prefix (underactive is not hyperactive)', async () => {
    const opp = tinyIndex({ hyperactive: 5, overactive: 5, hypertension: 4, postnatal: 5, extracapsular: 5, macrocytic: 5 }, lexiconOf({}));
    for (const q of ['underactive', 'hypoactive', 'hypotension', 'prenatal', 'antenatal', 'intracapsular', 'microcytic']) {
      const got = (await analyzeQuery(stemOnly, opp, q, { vocabularies: ['ICD10CM'] })).variants[0]!.stems.map((x) => x.word);
      for (const g of got) expect(opposedPrefixes(q, g), `${q} → ${g}`).toBe(false);
    }
    expect(opposedPrefixes('underactive', 'hyperactive')).toBe(true);
    expect(opposedPrefixes('incision', 'excision')).toBe(true);
    expect(opposedPrefixes('hypertension', 'hypertensive')).toBe(false);
  });

  it("a word the vocabulary lacks but whose stem is a rare word's leads with the common word one edit away", async () => {
    const ixm = tinyIndex({ migrans: 9, migraine: 5, vomiting: 5, fitting: 6 }, lexiconOf({}));
    ixm.stemIds.set('migran', ixm.wordStem.get('migrans')!);
    ixm.stemIds.set('vomit', ixm.wordStem.get('vomiting')!);
    // PostgreSQL's answer: the stem, and the trigram neighbours with their similarity and document frequency
    const rows: Record<string, Array<{ word: string; df: number; sim: number }>> = {
      migrane: [
        { word: 'migrans', df: 24, sim: 0.6 },
        { word: 'migraine', df: 327, sim: 0.55 },
      ],
      vomitting: [
        { word: 'vomiting', df: 107, sim: 0.73 },
        { word: 'fitting', df: 116, sim: 0.38 },
      ],
    };
    const stems: Record<string, string> = { migrane: 'migran', vomitting: 'vomit' };
    const db = {
      query: async (_sql: string, params: unknown[]) =>
        (params[0] as string[]).flatMap((w) => (rows[w] ?? [{ word: null, df: null, sim: null }]).map((r) => ({ w, stems: `{${stems[w] ?? w}}`, ...r }))),
    } as unknown as Queryable;
    const lead = async (q: string) => {
      const st = (await analyzeQuery(db, ixm, q, { vocabularies: ['ICD10CM'] })).variants[0]!.stems;
      return [...st].sort((a, b) => b.w - a.w).map((x) => x.word);
    };
    expect((await lead('migrane'))[0]).toBe('migraine');
    // the word's own stem is closer than any other word: no far-off correction joins it
    expect(await lead('vomitting')).not.toContain('fitting');
  });

  it('joins a bound prefix typed as its own word when the next word is short or unknown, and keeps known pairs apart', async () => {
    const ixp = tinyIndex({ postoperative: 5, preoperative: 5, infection: 3, post: 6, traumatic: 6, stress: 5, wound: 4 }, lexiconOf({}));
    const words = async (q: string) => (await analyzeQuery(stemOnly, ixp, q, { vocabularies: ['ICD10CM'] })).variants[0]!.stems.map((x) => x.word);
    for (const q of ['post op wound infection', 'post-op wound infection', 'Post-Op wound infection']) expect(await words(q)).toContain('postoperative');
    expect(await words('pre op')).toContain('preoperative');
    // two words that make a lexicon word the vocabulary lacks join too, and the lexicon then reads them; a word the
    // lexicon uses is never replaced by the vocabulary's spelling guess
    const ixl = tinyIndex(
      { ...WORDS, thyroid: 5, hypothyroidism: 6, active: 4, under: 3, non: 4, invasive: 5, noninvasive: 7, ventilation: 5 },
      lexiconOf({ lay: 'underactive thyroid => hypothyroidism\nnoninvasive ventilation => ventilation' }),
    );
    const labels = async (q: string) => (await analyzeQuery(stemOnly, ixl, q, { vocabularies: ['ICD10CM'] })).variants.map((v) => v.label);
    expect(await labels('under active thyroid')).toContain('hypothyroidism');
    expect(await labels('under-active thyroid')).toContain('hypothyroidism');
    expect((await labels('non invasive ventilation'))[0]).toBe('non invasive ventilation');
    const apart = await words('post-traumatic stress over one day');
    expect(apart).toContain('traumatic');
    expect(apart.some((w) => /^(posttraumatic|overone)$/.test(w))).toBe(false);
  });
});

describe('a lexicon reading that repeats the typed words', () => {
  const ixr = tinyIndex(
    { ...WORDS, baby: 6.7, infant: 5, colic: 6.3, ectopic: 7, pregnancy: 4, tube: 5 },
    lexiconOf({ lay: 'baby colic; colic in baby => colic\nectopic => ectopic pregnancy' }),
  );
  const labels = async (q: string) => (await analyzeQuery(noDb, ixr, q, { vocabularies: ['ICD10CM'] })).variants.map((v) => v.label);
  it("is searched when it keeps fewer of the phrase's words (the others do not count), not when it keeps them all", async () => {
    expect(await labels('baby colic')).toContain('colic');
    expect(await labels('colic in baby')).toContain('colic');
    // "ectopic" → "ectopic pregnancy" adds nothing to a query that says both
    expect(await labels('ectopic pregnancy in the tube')).toEqual(['ectopic pregnancy in the tube']);
  });
});

describe('the approach a procedure query implies', () => {
  const PROCS = [
    'removal of the gallbladder',
    'my appendix taken out',
    'looked at the bladder',
    'the kidney stone broken up',
    'biopsy of the liver',
    'a feeding tube put in',
  ];
  const CUES: Record<string, string[]> = {
    '4': [
      'by keyhole surgery',
      'laparoscopic',
      'percutaneous endoscopic approach',
      'through three small cuts',
      'done through tiny incisions',
      'lap',
      'with an arthroscope through two ports',
      'through her belly using a camera',
    ],
    '8': ['with a camera', 'using a scope', 'during the endoscopy', 'through a telescope', 'at cystoscopy', 'via natural or artificial opening endoscopic'],
    '3': ['through a needle', 'with a fine needle', 'through the skin', 'via a cannula', 'given through a drip'],
    '7': ['through the mouth', 'through his nose', 'per rectum', 'via a nasogastric tube', 'via natural or artificial opening'],
    X: ['from outside the body', 'without surgery', 'with shock waves', 'no cuts needed', 'by hand, closed reduction', 'and popped back in'],
    '0': ['open surgery', 'through a cut', 'through one small cut', 'with a big cut', 'via an incision'],
  };
  // the other approaches, said not to have been used
  const NOT = ['not keyhole', 'no camera', 'without a scope', 'rather than open surgery', 'instead of keyhole', 'no needle'];

  it('reads the approach from the words for it, before or after the procedure, whatever it was not (generated)', () => {
    const rand = seeded(11);
    let n = 0;
    for (const [want, cues] of Object.entries(CUES))
      for (const cue of cues)
        for (const proc of PROCS) {
          expect(readApproach(`${proc} ${cue}`), `${proc} ${cue}`).toBe(want);
          expect(readApproach(`${cue}, ${proc}`), `${cue}, ${proc}`).toBe(want);
          // a denied approach never decides (unless it is the one asked about: "no cut" is external)
          const denied = NOT.filter((d) => !cue.includes(d.split(' ').pop()!));
          const d = denied[Math.floor(rand() * denied.length)]!;
          const q = `${proc} ${cue}, ${d}`;
          if (!(want === '0' && /open|keyhole/.test(d))) expect(readApproach(q), q).toBe(want);
          n += 3;
        }
    expect(n).toBeGreaterThan(500);
    // no cue, no approach; the words "open" or "cut" in a diagnosis-like phrase do still read as open
    for (const proc of PROCS) expect(readApproach(proc)).toBeUndefined();
  });

  it("where the words say nothing of it, the approach of the lexicon's reading", async () => {
    const ixa = tinyIndex({ ...WORDS, pleural: 6, cavity: 5, tap: 8 }, lexiconOf({ procedure: 'pleural tap => drainage pleural cavity percutaneous ## px' }));
    expect((await analyzeQuery(noDb, ixa, 'pleural tap', { vocabularies: ['ICD10PCS'] })).approach).toBe('3');
    // the words typed decide first; a diagnosis query has no approach
    expect((await analyzeQuery(noDb, ixa, 'pleural tap with a camera', { vocabularies: ['ICD10PCS'] })).approach).toBe('8');
    expect((await analyzeQuery(noDb, ixa, 'pleural tap', { vocabularies: ['ICD10CM'] })).approach).toBeUndefined();
  });

  it('the lexicon does not read a denied approach or several small cuts as open', () => {
    expect(withoutNegatedApproach('appendix out, open surgery not keyhole')).not.toMatch(/keyhole/);
    expect(withoutNegatedApproach('reset without a cut')).not.toMatch(/cut/);
    expect(withoutNegatedApproach('gallbladder out through three small cuts')).toMatch(/keyhole/);
    expect(withoutNegatedApproach('carpal tunnel release through a small cut')).toMatch(/small cut/);
  });
});

describe('"removed" in a procedure query', () => {
  const words = {
    removed: 5,
    remove: 5,
    removal: 5,
    removing: 5,
    resection: 4,
    excision: 4,
    extirpation: 6,
    thyroid: 7,
    gland: 5,
    womb: 8,
    breast: 6,
    lump: 6,
    kidney: 6,
    stone: 6,
    clot: 7,
    device: 3,
    drainage: 4,
    stent: 7,
    tube: 5,
    mesh: 7,
    plate: 6,
  };
  const ix = tinyIndex({ ...words, whole: 5, entire: 5, polyp: 7, cut: 3, out: 3 }, lexiconOf({ procedure: 'cut out => resection|excision ## px' }));
  const readingsOf = async (query: string, vocab: string) => {
    const q = await analyzeQuery(noDb, ix, query, { vocabularies: [vocab] });
    const v = q.variants[0]!;
    const group = v.stems.find((s) => s.word.startsWith('remov'))!.group;
    return new Map(v.stems.filter((s) => s.group === group).map((s) => [s.word, s.w]));
  };
  it('reads a body part or a lump removed as resected or excised, matter removed as extirpated, a device removed as a removal (generated)', async () => {
    let n = 0;
    for (const form of ['removed', 'remove', 'removal', 'removing'])
      for (const part of ['thyroid gland', 'womb', 'lump from breast', 'kidney', 'kidney stone', 'clot'])
        for (const device of ['', 'drainage device', 'stent', 'tube', 'mesh', 'plate'])
          for (const vocab of ['ICD10PCS', 'ICD10CM']) {
            const query = form === 'removal' ? `${form} of ${device} ${part}` : `${part} ${device} ${form}`;
            const r = await readingsOf(query.replace(/\s+/g, ' '), vocab);
            n++;
            expect(r.has(form), query).toBe(true);
            if (vocab === 'ICD10CM' || device) {
              expect([...r.keys()], `${query} (${vocab})`).toEqual([form]);
              continue;
            }
            const matter = /stone|clot/.test(part);
            expect(r.has('extirpation'), query).toBe(matter);
            expect(r.has('resection') && r.has('excision'), query).toBe(!matter);
            // the device reading stays, weighing less than the body part's
            expect(r.get(form)!, query).toBeLessThan(Math.max(...[...r.values()]));
          }
    expect(n).toBe(288);
  });

  it('leans to excision for a lump, polyp or piece and to resection for the whole part, in a slot and in a rewrite', async () => {
    const weights = async (query: string) => {
      const q = await analyzeQuery(noDb, ix, query, { vocabularies: ['ICD10PCS'] });
      return q.variants.map((v) => new Map(v.stems.filter((s) => s.word === 'resection' || s.word === 'excision').map((s) => [s.word, s.w])));
    };
    const before = await weights('cut out the womb');
    for (const [query, favoured] of [
      ['lump removed from breast', 'excision'],
      ['polyp removed', 'excision'],
      ['whole thyroid gland removed', 'resection'],
      ['entire womb removed', 'resection'],
      ['cut out the lump from her breast', 'excision'],
      ['cut out the whole womb', 'resection'],
    ] as const) {
      const vs = (await weights(query)).filter((m) => m.size === 2);
      expect(vs.length, query).toBeGreaterThan(0);
      const other = favoured === 'excision' ? 'resection' : 'excision';
      for (const m of vs) expect(m.get(other)!, query).toBeLessThan(m.get(favoured)!);
    }
    // neither named (or both): the two readings keep their own weights, and the lexicon's shared target is not changed
    const plain = (await weights('womb removed')).find((m) => m.size === 2)!;
    expect(plain.get('resection')).toBeCloseTo(plain.get('excision')!, 5);
    expect(await weights('cut out the womb')).toEqual(before);
  });
});

describe('durations in a procedure query', () => {
  const ix = tinyIndex(
    { ventilation: 6, respiratory: 5, greater: 4, less: 4, '24': 5, '96': 5, consecutive: 5, hours: 3, days: 3, pregnant: 5, old: 3 },
    lexiconOf({ lay: '' }),
  );
  const bucketOf = async (query: string, vocab = 'ICD10PCS') => {
    const q = await analyzeQuery(noDb, ix, query, { vocabularies: [vocab] });
    return q.variants.find((v) => v.sources?.includes('duration') || /consecutive/.test(v.label))?.label ?? null;
  };
  it('reads how long something lasted as the PCS qualifier words, and never an age or a gestation (generated)', async () => {
    const words = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];
    let n = 0;
    for (let k = 1; k <= 12; k++)
      for (const [unit, per] of [
        ['hours', 1],
        ['days', 24],
        ['weeks', 168],
      ] as const)
        for (const num of [String(k), words[k]!])
          for (const lead of ['for', 'over', 'for about']) {
            const hours = k * per;
            const more = lead === 'over' ? hours >= 96 : hours > 96;
            const want = more ? 'greater than 96 consecutive hours' : hours >= 24 ? '24 96 consecutive hours' : 'less than 24 consecutive hours';
            const label = await bucketOf(`respiratory ventilation ${lead} ${num} ${unit}`);
            expect(label, `${lead} ${num} ${unit}`).toContain(want);
            expect(await bucketOf(`respiratory ventilation ${lead} ${num} ${unit}`, 'ICD10CM'), 'diagnoses are not read').toBeNull();
            n++;
          }
    expect(n).toBe(216);
    for (const q of ['miscarried at 9 weeks', 'our 3 weeks old baby', 'ventilation at 30 weeks', 'she was 12 weeks pregnant', 'for 3 weeks old'])
      expect(await bucketOf(q), q).toBeNull();
  });
});
