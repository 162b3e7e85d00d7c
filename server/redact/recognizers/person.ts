/**
 * PERSON recognizer.
 *
 * Names are found from three kinds of evidence, scored and combined like Presidio context enhancement:
 *  1. Name knowledge (gazetteers: given names, surnames, Chinese syllables, hereditary prefixes, connectors).
 *  2. Structure inside the candidate: patronymic connectors (bin/binti/a/l/a/p/s/o/d/o/anak), Chinese surname +
 *     syllables, prefix + name.
 *  3. Context around it: titles (Dr, Puan, Datuk...), labels (Name:, Pesakit:, NOK:), relations (wife, son, isteri),
 *     greetings and signatures, and what follows (age/sex, "(wife)", an IC or phone in brackets).
 * A name found with strong evidence is then searched for again in the whole text (first-name-only, surname-only,
 * ALL CAPS and lower-case repeats), because clinicians repeat names without the evidence.
 */
import type { Candidate } from '../types';
import { F, NAME_FLAGS, VOCAB_FLAGS } from '../lexicon';
import { inlineGap, inlineGapDot, type Token } from '../tokens';
import { tableCell, tableCells, type AnalysisContext, type Recognizer } from './base';
import { beforeCue, isRelationWord } from './personCues';

type Role =
  | 'title'
  | 'conn'
  | 'prefix'
  | 'name'
  | 'amb'
  | 'unk'
  | 'vocab'
  | 'initial'
  | 'lname'
  | 'lower'
  | 'other'
  | 'blocked';

const NAMEISH: ReadonlySet<Role> = new Set<Role>(['name', 'amb', 'unk', 'prefix']);

// Connectors that link a given name to a father's name. Particles (van, de, al...) only link in lower case.
const PATRONYMIC = new Set(['bin', 'binti', 'bte', 'bt', 'b', 'binte', 'bint', 'ibni', 'ibnu', 'ibn', 'a/l', 'a/p', 's/o', 'd/o', 'anak', 'ak']);
const DOT_REQUIRED = new Set(['b']);
// Short upper-case titles that are also clinical abbreviations: titles only with a dot or in an all-caps line.
const AMBIGUOUS_UPPER_TITLES = new Set(['ms', 'ma', 'sr', 'en', 'pn', 'mo']);

/** Titles that stand before a person's name (the last word of a multi-word title: Tan Sri, Prof Madya). */
const PERSONAL_TITLES = new Set([
  'dr', 'doctor', 'mr', 'mrs', 'ms', 'miss', 'mdm', 'madam', 'mister', 'prof', 'professor', 'profesor', 'madya', 'puan',
  'pn', 'encik', 'en', 'enche', 'cik', 'tuan', 'tn', 'dato', 'datuk', 'datin', 'sri', 'seri', 'sir', 'dame', 'lady', 'sister',
  'sr', 'capt', 'captain', 'drs',
]);

/** Ordinary words that follow a title without being a name (Dr On Call, Dr Bertugas, Sister In Charge). */
const NOT_AFTER_TITLE = new Set([
  'on', 'in', 'the', 'of', 'and', 'at', 'to', 'for', 'from', 'who', 'other', 'another', 'any', 'all', 'no', 'not', 'or',
  'is', 'was', 'will', 'has', 'had', 'please', 'pls', 'kindly', 'also', 'oncall', 'incharge', 'duty', 'team', 'night',
  'day', 'morning', 'evening', 'afternoon', 'senior', 'junior', 'new', 'same', 'previous', 'next', 'covering', 'bertugas',
  'pakar', 'pelatih', 'siswazah', 'rumah', 'malam', 'pagi', 'petang', 'syif', 'yang', 'dan', 'di', 'ke', 'dari', 'untuk',
  'sila', 'tolong', 'telah', 'sudah', 'akan', 'tidak', 'belum', 'ini', 'itu', 'this', 'that', 'these', 'my', 'our', 'your',
  'his', 'her', 'their', 'a', 'an', 'i', 'we', 'you', 'he', 'she', 'they', 'it', 'ok', 'okay', 'yes', 'thanks', 'thank',
  'sir', 'madam', 'doctor', 'dr', 'here', 'there', 'said', 'says', 'called', 'asked', 'advised', 'informed', 'aware',
  'boy', 'girl', 'baby', 'infant', 'twin', 'male', 'female', 'lelaki', 'perempuan', 'unknown', 'unnamed',
]);

const REL_WORDS =
  'wife|husband|son|daughter|mother|father|brother|sister|sibling|cousin|nephew|niece|uncle|aunt|aunty|auntie|grandson|granddaughter|grandmother|grandfather|grandma|grandpa|grandchild|granny|friend|neighbour|neighbor|colleague|employer|boss|caregiver|carer|maid|helper|fianc[eé]e?|partner|spouse|guardian|stepson|stepdaughter|stepfather|stepmother|son-in-law|daughter-in-law|mother-in-law|father-in-law|brother-in-law|sister-in-law|twin|isteri|suami|anak(?:\\s+(?:lelaki|perempuan|sulung|bongsu|angkat|saudara))?|ibu|bapa|ayah|emak|abang|kakak|adik(?:\\s+(?:lelaki|perempuan))?|nenek|cucu|menantu|mertua|sepupu|kawan|jiran|majikan|penjaga|headman|ketua kampung|tok batin|tuai rumah|next of kin|nok|waris';


// A label with a colon (or a "... by" phrase) right before the name.
const SIGNOFF_RE =
  /(?:thanks|thank you|regards|sincerely|faithfully|cheers|best|warmly|terima kasih|sekian|yang benar|yours truly|signed|tandatangan|t\.t|cop)[\s,.!:]*$/iu;

const POST_REL_RE = new RegExp(`^\\s*(?:\\(|,|-|\\u2013|/)\\s*(?:the\\s+|pt'?s\\s+|patient'?s\\s+|her\\s+|his\\s+)?(?:${REL_WORDS}|patient|pesakit)\\b`, 'iu');
const POST_AGE_RE =
  /^\s*(?:\(|,|-|\u2013|\||\/)\s*(?:(?:aged|age\s*:?|umur|berumur|usia)\s*\d{1,3}\b|\d{1,3}\s*(?:-?\s*(?:y\/?o|yo|y\.o\.?|yrs?|years?|year-old|yr-old|tahun|thn|months?|mo|bulan|y)\b|\s?\/?\s?[MFmf]\b|\s?\/\s?(?:12|52)\b))/iu;
// "updated on <name>'s condition", "<name>'s wife": a possessive followed by a noun only people have
const POST_AGE_BARE_RE = /^[ \t]+\d{1,3}[ \t]?(?:[MF]|y\/?o|yo|y|yrs?|years? old|\/[MF])\b/iu;
const POSSESSIVE_NOUN_RE =
  /^\s*(?:condition|progress|status|health|care|treatment|admission|discharge|case|bill|account|ic|nric|passport|phone|number|address|family|mother|father|wife|husband|son|daughter|brother|sister|children|child|parents?|relatives?|employer|medications?|appointment|results?|consent|birthday|baby|house|home|room|bed|behaviour|behavior|mood|diet|feeding|mobility|wound|surgery|operation|keadaan|ibu|bapa|isteri|suami|anak)\b/iu;
/** Labels and greetings after which the field holds a person's name, whatever the word ("Disediakan oleh: DAYUNG"). */
const PERSON_FIELD_RE =
  /(?:\b(?:name|nama|full[ _]name|nama penuh|patient|pesakit|nok|nok[ _]name|next of kin|waris|penjaga|guardian|caller|informant|pemohon|requester|agent|requested by|prepared by|reviewed by|seen by|checked by|verified by|signed by|by|oleh|attn|attention)["']?[ \t]*[:=\-][ \t]*["']?|\b(?:dear|hi|hello|hai|salam)[ \t]+)$/i;
/** Words that open a reply rather than name a person ("Caller: Hello, I'm ...", "Pt: Okay"). */
const INTERJECTIONS = new Set([
  'hi', 'hello', 'hey', 'hai', 'halo', 'oh', 'ok', 'okay', 'ya', 'yes', 'no', 'nope', 'yeah', 'sure', 'thanks', 'thank',
  'sorry', 'please', 'pls', 'good', 'morning', 'afternoon', 'evening', 'noted', 'done', 'alright', 'salam', 'assalamualaikum',
  'selamat', 'tq', 'terima', 'maaf', 'baik', 'boleh', 'tak', 'tidak', 'nil', 'none', 'unknown', 'same', 'self', 'n/a', 'na',
  'all', 'team', 'sir', 'madam', 'doctor', 'dr', 'nurse', 'staff', 'everyone', 'colleagues', 'kawan', 'semua', 'tuan', 'puan',
]);
// a person's own verb right after a word ("Achik will sign", "Along said"): evidence that the word is a name
const PERSON_VERB_AFTER_RE = /^[ \t]+(?:will|would|is|was|has|had|says|said|called|came|agreed|signed|wants|wanted|refused|asked|told|left|arrived)\b/;
// "<name> family asking for update", "<name>'s family", "<name> and family"
const POST_FAMILY_RE = /^(?:['\u2019]s)?[ \t]+(?:and[ \t]+|&[ \t]*)?(?:family|families|keluarga|household|relatives|folks)\b/iu;
const POST_ID_RE =
  /^\s*(?:\(|,|\||-|\u2013)\s*(?:(?:IC|I\/C|NRIC|No\.?\s*KP|KP|MyKad|MyKid|passport|pasport|MRN|RN|R\/N|tel|telefon|h\/?p|hp|mobile|phone|contact)\b|\+?\d{2,4}[\s-]?\d{3,4}[\s-]?\d{3,5}(?![\w-])|\d{6}[\s-]?\d{2}[\s-]?\d{4}(?!\w))/iu;
const POST_IDLINE_RE = /^[ \t]+(?:IC|NRIC|No\.?\s*KP|MyKad|MRN|RN|R\/N)\b/u;
// "<name> c/o fever x 3/7": the subject of a presenting complaint
// the line under a name line that starts with an identifier label
const ID_LINE_RE = /^[ \t]*\(?[ \t]*(?:RN|MRN|R\/N|HN|IC|NRIC|I\/C|MyKad|MyKid|No\.?[ \t]*(?:KP|K\/P|IC|RN|MRN|Pendaftaran|Penderma|Pasport|Passport|Fail|Rekod)|Passport|Pasport|DOB|D\.O\.B|Tarikh Lahir|Age|Umur)\b/i;
const BED_BEFORE_RE = /\b(?:bed|katil|bay|cubicle)[ \t]*\d{1,3}[A-Za-z]?[ \t]*[:,\-\u2013]?[ \t]+$/i;
const POST_CO_RE = /^[ \t]+(?:c\/o|C\/O|complains? of|complaining of)\b/u;
// a table row: the name, a column gap (tab or 2+ spaces), then an IC-shaped number
const POST_COLUMN_IC_RE = /^(?:\t|[ ]{2,})[ \t]*(?:\d{6}-\d{2}-\d{4}|\d{12})(?![\w-])/u;
const POST_ROLE_RE =
  /^\s*(?:,|-|\u2013|\()\s*(?:MO|HO|SN|JM|MA|PPP|Psychiatry MO|Medical Officer|Consultant|Specialist|Pharmacist|Nurse|Staff Nurse|Pegawai|Physician|Surgeon|Registrar|Houseman|House Officer|Sister|Matron|Dietitian|Physiotherapist|Cashier|Clerk|Coordinator|Interpreter|Radiographer|Anaesthetist|Paediatrician|Obstetrician|Cardiologist|Nephrologist|Neurologist|Oncologist|Psychiatrist|Dentist|GP|FMS|Penolong|Jururawat|Doktor|Ketua)\b/u;
const POST_VERB_RE =
  /^[ \t]+(?:is|was|has|had|reports?|reported|complain(?:s|ed)?|attended|still|feels?|felt|feeling|tolerat\w+|will|would|called|agreed|agrees|refused|refuses|denied|denies|says|said|states?|stated|verbali[sz]ed|understood|understands|consented|wants|wished|wishes|asked|requested|came|went|arrived|presented|remains|looks|appears|walked|slept|ate|vomited|developed|claimed|paid|signed|mentioned|noted|informed|brought|visited|reviewed|seen|examined|admitted|discharged|transferred|underwent|collapsed|fell|sustained|telah|sudah|masih|datang|mengadu|dibawa)\b/u;
const HEAD_NOUN_AFTER_RE = /^ (?:Hospital|Clinic|Klinik|Medical|Specialist|Centre|Center|Sdn|Bhd|Berhad|Bank|Insurance|Takaful|Road|Street|Jalan|Avenue|Building|Plaza|Tower|Mall|Estate|Plantation|Holdings|Enterprise|Trading)\b/u;

// a romanised Chinese syllable (Hokkien/Cantonese/Hakka/pinyin): consonants, one vowel cluster, an -n/-ng/-k/-h/-p/-t
const CN_SYLLABLE_SHAPE_RE = /^(?:[bcdfghjklmnpqrstwxyz]{0,3}|[bcdfghjklmnpqrstwxyz]h)[aeiouy]{1,3}(?:ng|n|m|k|h|p|t)?$/;
// Unknown words with typical South Indian name endings (Chandrasegaran, Kuppusamy, Letchumanan) count as names.
const NAME_SUFFIX_RE = /(?:samy|swamy|sami|appan|ammal|amma|aran|kumar|alingam|anathan|athan|esan|eswaran|eswari|avel|velu|raja|rajan|rajah|chandran|krishnan|murthy|moorthy|devi|vathy|vathi|letchumi|lakshmi|selvam|selvi|nathan|gopal|arasu|arasan|arasi|mugam|sekaran|segaran|thiran)$/;

/** Words after which a lower-case word may be a name (quick notes: "son <name>", "dr. <name>", "review: <name>"). */
/** Titles recognised in lower case ("dr. <name>", "pn <name>"). */
const LOWER_TITLES = new Set(['dr', 'doctor', 'mr', 'mrs', 'mdm', 'madam', 'encik', 'en', 'puan', 'pn', 'cik', 'tuan', 'datuk', 'dato', 'datin', 'sister', 'sn', 'prof', 'hj', 'hjh', 'haji', 'hajah', 'ustaz', 'ustazah', 'kak', 'abang', 'makcik', 'pakcik', 'aunty', 'auntie', 'uncle']);

const LOWER_CUE_WORDS = new Set([
  'wife', 'husband', 'son', 'daughter', 'mother', 'father', 'brother', 'sister', 'niece', 'nephew', 'cousin', 'friend',
  'neighbour', 'neighbor', 'uncle', 'aunt', 'aunty', 'auntie', 'grandson', 'granddaughter', 'grandmother', 'grandfather',
  'caregiver', 'carer', 'maid', 'employer', 'guardian', 'isteri', 'suami', 'anak', 'ibu', 'bapa', 'ayah', 'emak', 'abang',
  'kakak', 'adik', 'nenek', 'cucu', 'review', 'reviewed', 'seen', 'pt', 'patient', 'pesakit', 'name', 'nama', 'nok', 'by',
  'oleh', 'to', 'with', 'called', 'informed', 'dr', 'doctor', 'sn', 'sister', 'staff', 'nurse', 'mr', 'mrs', 'ms', 'mdm',
  'encik', 'en', 'puan', 'pn', 'cik', 'tuan', 'madam', 'kak', 'abg', 'bro', 'sis', 'spoke', 'client', 'caller', 'from',
  // chat: "tell rohaya", "family rohaya called", "ask madsuri", "remind izzat", "saya ganesan", "sy kah yan"
  'tell', 'family', 'ask', 'asked', 'asking', 'inform', 'remind', 'reminded', 'message', 'messaged', 'msg', 'whatsapp',
  'contact', 'contacted', 'visit', 'visited', 'saya', 'sy', 'aku', 'im', 'dear', 'hi', 'hello', 'hai', 'salam', 'thanks',
  'tq', 'thx', 'bagitau', 'beritahu', 'maklumkan', 'panggil', 'jumpa', 'tanya',
]);
/** "pls update on <name>", "any news on <name>", "this is <name>", "nama saya <name>": cue phrases before a name. */
const LOWER_CUE_PHRASE_RE = /(?:\b(?:update|updated|updates|news|progress)\s+(?:on|for)|\bthis\s+is|\bi\s+am|\bnama\s+(?:saya|sy)|\bsaya\s+ialah)\s*$/i;

interface Run {
  first: number; // token index
  last: number; // token index (inclusive)
}

interface ScoredRun extends Run {
  score: number;
  strongCue: boolean;
  lower: boolean;
}

function isCapShape(t: Token): boolean {
  return t.shape === 'cap' || t.shape === 'upper';
}

/** Column headers that name people: "Name", "Nama Pesakit", "NOK_NAME", "Patient name", "Nama penerima". */
const NAME_HEADER_RE = /(?:^|[^a-z])(?:name|nama|names)(?:[^a-z]|$)/i;
/** ... but not the name of a thing: a drug, a test, a hospital, a company. */
const NOT_NAME_HEADER_RE = /\b(?:drug|ubat|medication|medicine|test|ujian|hospital|klinik|clinic|company|syarikat|employer|majikan|bank|insurer|insurance|product|item|vaccine|vaksin|ward|wad|file|fail|facility|fasiliti|procedure|prosedur|user|pengguna)\b/i;

export const PERSON_CONTEXT_WORDS = ['name', 'nama', 'patient', 'pesakit', 'wife', 'husband', 'son', 'daughter', 'dr', 'encik', 'puan'];

export const personRecognizer: Recognizer = {
  name: 'person',
  entity: 'PERSON',
  contextWords: PERSON_CONTEXT_WORDS,
  baseScore: 0.55,
  analyze(ctx: AnalysisContext): Candidate[] {
    return findPersons(ctx);
  },
};

export function findPersons(ctx: AnalysisContext): Candidate[] {
  const { text, lex } = ctx;
  const toks = ctx.tokens;
  const n = toks.length;
  if (!n) return [];

  // ---------- per-character masks: occupied (structured entities) and protection strength for PERSON
  const occupied = new Uint8Array(text.length);
  for (const s of ctx.occupied) occupied.fill(1, s.start, s.end);
  const prot = ctx.protectionMask;
  const maxProt = (s: number, e: number) => {
    let m = 0;
    for (let k = s; k < e; k++) if (prot[k] > m) m = prot[k];
    return m / 100;
  };
  const isOccupied = (s: number, e: number) => {
    for (let k = s; k < e; k++) if (occupied[k]) return true;
    return false;
  };

  // ---------- line geometry
  const lineStarts = ctx.lineStarts;
  const lineOf = (t: Token) => t.line;
  const lineStartOf = (t: Token) => lineStarts[t.line];
  const lineEndOf = (t: Token) => (t.line + 1 < lineStarts.length ? lineStarts[t.line + 1] - 1 : text.length);
  const lineUpper = new Map<number, boolean>();
  const isUpperLine = (line: number) => {
    let v = lineUpper.get(line);
    if (v === undefined) {
      const s = lineStarts[line];
      const e = line + 1 < lineStarts.length ? lineStarts[line + 1] : text.length;
      const seg = text.slice(s, e);
      const letters = seg.replace(/[^\p{L}]/gu, '');
      v = letters.length >= 4 && !/\p{Ll}/u.test(letters);
      lineUpper.set(line, v);
    }
    return v;
  };

  // ---------- lower-case lines (quick notes typed without capitals): lower-case words are judged like capitalised ones
  const lowerLines = ctx.lowerLines;
  const isLowerLine = (line: number) => lowerLines[line] === 1;

  // ---------- roles
  const norms = ctx.norms;
  const role: Role[] = new Array(n);
  const joinInline = (k: number) => k > 0 && inlineGapDot(text, toks[k - 1], toks[k]);
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
    const ordinary = t.flags & F.COMMON && !(t.flags & (F.CLINICAL | F.INSTITUTION | F.PLACE | F.ROLE | F.TITLE | F.EPONYM_HEAD)) && !NOT_AFTER_TITLE.has(t.norm);
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

  const joinable = (a: number, b: number): boolean => {
    const ta = toks[a];
    const tb = toks[b];
    if (ta.line !== tb.line) return false;
    if (inlineGap(text, ta, tb)) return true;
    // abbreviations with a dot: b. bt. Hj. Md. initials
    if (text[ta.end] === '.' && (role[a] === 'conn' || role[a] === 'initial' || role[a] === 'prefix' || role[a] === 'title' || (role[a] === 'amb' && ta.flags & F.PREFIX))) {
      return inlineGapDot(text, ta, tb);
    }
    return false;
  };

  // ---------- build candidate runs of name-like tokens (cap / upper case)
  const runs: Run[] = [];
  for (let i = 0; i < n; i++) {
    const r = role[i];
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
      // lower-case connector particles (van, de, al) inside a capitalised name
      break;
    }
    // trim trailing connectors / initials / stray punctuation
    while (j > i && (role[j] === 'conn' || role[j] === 'initial' || role[j] === 'title')) j--;
    runs.push({ first: i, last: j });
    i = j;
  }

  // ---------- context cues
  // bounded windows keep the cue regexes linear even on very long lines
  const textBeforeOnLine = (t: Token) => {
    const ls = lineStartOf(t);
    return ls >= t.start - 80 ? text.slice(ls, t.start) : '\u0001' + text.slice(t.start - 80, t.start);
  };
  const textAfterOnLine = (t: Token) => text.slice(t.end + (t.possessive ? 2 : 0), Math.min(lineEndOf(t), t.end + 60));
  const prevNonEmptyLine = (line: number): string => {
    for (let l = line - 1; l >= 0 && l >= line - 3; l--) {
      const s = lineStarts[l];
      const e = lineStarts[l + 1] - 1;
      const seg = text.slice(Math.max(s, e - 60), e); // the end of the line is enough for a sign-off
      if (seg.trim()) return seg;
    }
    return '';
  };

  type Cue = 'strong' | 'weak' | 'none';
  /** Index of the first token on the line of token k. */
  const firstOfLine = (k: number): number => {
    while (k > 0 && toks[k - 1].line === toks[k].line) k--;
    return k;
  };
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
    if (first > 0 && toks[first - 1].flags & F.ROLE && toks[first - 1].shape === 'lower' && !(toks[first - 1].flags & F.CLINICAL) && joinable(first - 1, first) && !allAmb(first)) return { cue: 'strong', title: true };
    const before = textBeforeOnLine(t);
    const cue = beforeCue(before);
    if (cue === 'label' || cue === 'rel' || cue === 'greeting' || cue === 'consent' || cue === 'patient') return { cue: 'strong', title: false };
    // ward talk: "bed 22 <name> spiked a fever", "katil 5 - <name>"
    if (BED_BEFORE_RE.test(before.slice(-24))) return { cue: 'strong', title: false };
    if (!/\S/.test(before.replace('\u0001', '')) || cue === 'dash') {
      const prev = prevNonEmptyLine(lineOf(t));
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
    if (POST_REL_RE.test(after) || POST_AGE_RE.test(after) || POST_AGE_BARE_RE.test(after) || POST_ROLE_RE.test(after) || POST_FAMILY_RE.test(after)) return 'strong';
    if (POST_ID_RE.test(after) || POST_IDLINE_RE.test(after) || POST_COLUMN_IC_RE.test(after) || POST_CO_RE.test(after)) return 'strong';
    if (t.possessive && POSSESSIVE_NOUN_RE.test(after)) return 'strong';
    if (POST_VERB_RE.test(after) || t.possessive) return 'weak';
    return 'none';
  }

  const accepted: ScoredRun[] = [];
  const allUpperRun = (a: number, b: number) => {
    for (let k = a; k <= b; k++) if (toks[k].shape !== 'upper' && role[k] !== 'conn') return false;
    return true;
  };

  const isSentenceStart = (i: number) => {
    if (i === 0) return true;
    const gap = text.slice(toks[i - 1].end, toks[i].start);
    return /[.!?:\n]/.test(gap) || toks[i - 1].text === '.';
  };
  /** Is token k in the middle of a sentence (a lower-case word, a comma or a bracket right before it on its line)? */
  const midSentence = (k: number): boolean => {
    if (k === 0) return false;
    const p = toks[k - 1];
    if (p.line !== toks[k].line) return false;
    if (/[.!?:;]/.test(text.slice(p.end, toks[k].start))) return false;
    return (p.shape === 'lower' && !(p.flags & F.TITLE)) || p.text === ',' || p.text === '(' || p.text === '&';
  };
  /** The unknown words of a run look like names: letters only, three or more of them. */
  const unknownWordsOk = (a: number, b: number): boolean => {
    for (let k = a; k <= b; k++) {
      if (role[k] !== 'unk') continue;
      const w = toks[k].text;
      if (w.length < 3 || !(/^\p{Lu}[\p{Ll}'\u2019-]+$/u.test(w) || (/^\p{Lu}+$/u.test(w) && /[AEIOUY]/.test(w)))) return false;
    }
    return true;
  };
  /** Lower-case name words that are gazetteer given names or surnames of four or more letters and no dictionary word. */
  const lowerNamesOk = (a: number, b: number): boolean => {
    let strong = 0;
    for (let k = a; k <= b; k++) {
      const t = toks[k];
      if (role[k] === 'conn') continue;
      if (t.flags & (F.DICT | VOCAB_FLAGS | F.TITLE)) return false;
      if (t.flags & (F.GIVEN | F.SURNAME | F.CN_SURNAME) && t.text.length >= 4) strong++;
    }
    return strong >= 1;
  };

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
      else if (r === 'prefix' && first === last && t.flags & F.GIVEN) nName++; // "Siti", "Nurul", "Abdul" used alone
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
        for (let q = k + 1; q <= last; q++) if (!(toks[q].flags & F.CN_SYLLABLE) && !(role[q] === 'unk' && CN_SYLLABLE_SHAPE_RE.test(toks[q].norm))) chinese = false;
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
    else if (role[first] === 'prefix' && nTok >= 2 && nUnk + nName >= 1 && !allUpperRun(first, last)) score = 0.7; // Nur Batrisyia, Siti Xyz
    else if (nTok >= 2 && nUnk === 0 && nName >= 1 && strongNames + nAmb === nTok) score = nName >= 2 ? 0.75 : 0.6;
    // "<Given> <Surname>" with a known given name and an unknown surname (Western, Kadazan, Iban convention)
    else if (nTok === 2 && nUnk === 1 && role[first] === 'name' && toks[first].flags & F.GIVEN && role[last] === 'unk' && toks[first].shape === 'cap' && toks[last].shape === 'cap') score = 0.55;
    else if (nTok >= 3 && nName >= 2 && nUnk <= 1) score = 0.6; // two gazetteer names and one unknown word
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
    if (ft.shape === 'lower' && nAmb === 0 && nUnk + nName === nTok && nTok <= 2 && ft.text.length >= 4 && first > 0) {
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
    if (nTok === 1 && !strongCue && ft.flags & F.DICT && isSentenceStart(first) && ft.shape !== 'lower' && !(ft.flags & F.GIVEN && PERSON_VERB_AFTER_RE.test(textAfterOnLine(toks[last]))))
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
    while (run.first < run.last && isRelationWord(toks[run.first].norm) && role[run.first] !== 'name' && !(toks[run.first].flags & F.PREFIX && isCapShape(toks[run.first]))) run.first++;
    while (run.last > run.first && (role[run.last] === 'conn' || role[run.last] === 'initial')) run.last--;
    if (role[run.first] === 'conn') continue;
    // an unknown capitalised word opening the sentence before a known name is the sentence's verb, not the name
    // ("Summarise Tan Ah Kow", "Pls Lim Wei Ming")
    if (run.last - run.first >= 2 && role[run.first] === 'unk' && isSentenceStart(run.first) && (role[run.first + 1] === 'name' || role[run.first + 1] === 'prefix') && !PATRONYMIC.has(toks[run.first + 1].norm) && toks[run.first + 1].norm !== 'singh' && toks[run.first + 1].norm !== 'kaur') run.first++;
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

  // ---------- lower-case names (quick notes): a cue word + gazetteer name, or a name right before "(54F)"
  const inAccepted = new Uint8Array(n);
  for (const a of accepted) inAccepted.fill(1, a.first, a.last + 1);
  /** A lower-case word no dictionary knows (a name, or a typo): letters only, three or more. */
  const lowerUnknown = (k: number) => {
    const t = toks[k];
    return t.shape === 'lower' && !(t.flags & (VOCAB_FLAGS | F.DICT | F.TITLE | F.CONNECTOR | F.PREFIX)) && t.text.length >= 3 && /^[\p{Ll}'\u2019-]+$/u.test(t.text);
  };
  // ---------- lower-case patronymic names ("punitha d/o letchumanan", "syuhada binti hj. daud", "ali bin abu")
  for (let c = 1; c + 1 < n; c++) {
    if (role[c] !== 'conn' || toks[c].shape !== 'lower' || !PATRONYMIC.has(toks[c].norm) || inAccepted[c]) continue;
    const anak = toks[c].norm === 'anak' || toks[c].norm === 'ak';
    const nameWord = (k: number) =>
      k >= 0 && k < n && toks[k].shape === 'lower' && toks[k].line === toks[c].line && !inAccepted[k] &&
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
        k >= 0 && k < n && toks[k].line === t.line && !inAccepted[k] && (lowerUnknown(k) || role[k] === 'lname' || (toks[k].shape === 'lower' && (toks[k].flags & F.PREFIX) !== 0));
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
      if (!prevCue && nextCh !== '(' && nextCh !== ',' && !LOWER_CUE_PHRASE_RE.test(textBeforeOnLine(t).slice(-24))) continue;
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
      i > 0 && toks[i - 1].flags & F.TITLE && toks[i - 1].line === t.line && inlineGapDot(text, toks[i - 1], t) &&
      (isLowerLine(t.line) || PERSONAL_TITLES.has(toks[i - 1].norm) || !(toks[i - 1].flags & (F.COMMON | F.ROLE)));
    const bc = beforeCue(before);
    const cueBefore = titleBefore || bc === 'label' || bc === 'rel' || bc === 'patient' || /(?:^|\s)(?:review|reviewed|seen|pt|patient)\s*:?\s*$/i.test(before.slice(-20));
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

  const firstTokenAtOrAfter = (pos: number) => {
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (toks[mid].start < pos) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };

  // ---------- chat senders: "[12/3/24, 10:15] Ah Kow: ...", "12/03/2024, 10:15 - Ah Kow: ...", "[10:15] Ah Kow: ..."
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

  // ---------- repeated mentions: tokens of strongly evidenced names, found again anywhere in the text
  const covered = new Uint8Array(n);
  for (const a of accepted) for (let k = a.first; k <= a.last; k++) covered[k] = 1;
  const keys = new Map<string, { lower: boolean }>();
  for (const a of accepted) {
    if (a.score < 0.7 && !(a.score >= 0.55 && a.last > a.first)) continue;
    for (let k = a.first; k <= a.last; k++) {
      const r = role[k];
      const t = toks[k];
      if (!(r === 'name' || r === 'amb' || r === 'unk' || r === 'lname' || r === 'lower')) continue;
      if (t.norm.length < 2) continue;
      if (t.flags & F.PREFIX && !(t.flags & (F.GIVEN | F.SURNAME | F.CN_SURNAME))) continue;
      if (t.flags & (F.CONNECTOR | F.TITLE)) continue;
      if ((r === 'lower' || r === 'lname') && t.flags & VOCAB_FLAGS) continue;
      const prev = keys.get(t.norm);
      const lower = t.shape === 'lower';
      keys.set(t.norm, { lower: (prev?.lower ?? false) || lower });
    }
  }
  const hit = new Uint8Array(n);
  if (keys.size) {
    for (let i = 0; i < n; i++) {
      if (covered[i] || role[i] === 'blocked' || role[i] === 'title' || role[i] === 'other') continue;
      const t = toks[i];
      const key = keys.get(t.norm);
      if (!key) continue;
      if (t.shape === 'lower' && !key.lower) continue;
      if (t.shape === 'initial') continue;
      if (t.flags & VOCAB_FLAGS) {
        // an ordinary word that is also someone's name: only capitalised, mid-sentence, not next to a number
        if (t.shape === 'lower' && t.flags & VOCAB_FLAGS) continue;
        if (isSentenceStart(i) && !(i + 1 < n && keys.has(toks[i + 1].norm) && joinable(i, i + 1))) continue;
        if ((i > 0 && toks[i - 1].shape === 'num') || (i + 1 < n && toks[i + 1].shape === 'num')) continue;
      }
      if (maxProt(t.start, t.end) > 0.75) continue;
      hit[i] = 1;
    }
    for (let i = 0; i < n; i++) {
      if (!hit[i]) continue;
      // include an adjacent hereditary prefix on the left ("Nur" of "Nur Batrisyia")
      const startTok = i > 0 && !covered[i - 1] && role[i - 1] === 'prefix' && joinable(i - 1, i) ? i - 1 : i;
      let j = i;
      while (j + 1 < n && joinable(j, j + 1)) {
        if (hit[j + 1]) {
          j++;
          continue;
        }
        // a connector between two hits ("Ali bin Abu" repeated), or an unknown capitalised word glued to the hit
        if (role[j + 1] === 'conn' && j + 2 < n && hit[j + 2] && joinable(j + 1, j + 2)) {
          j += 2;
          continue;
        }
        break;
      }
      accepted.push({ first: startTok, last: j, score: 0.75, strongCue: false, lower: toks[i].shape === 'lower' });
      i = j;
    }
  }

  const out: Candidate[] = [];
  for (const a of accepted) {
    const start = toks[a.first].start;
    const end = toks[a.last].end;
    out.push({ start, end, type: 'PERSON', score: a.score, recognizer: 'person', contextChecked: true }); // its cues are its context
  }
  return out;
}
