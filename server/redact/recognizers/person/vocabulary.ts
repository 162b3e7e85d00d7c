/**
 * The PERSON recognizer's knowledge that is not a gazetteer: patronymic connectors, personal titles, the words and
 * patterns of the context around a name (relations, ages, roles, identifiers after it; labels and cues before it).
 */
import type { Role } from './scan';

export const NAMEISH: ReadonlySet<Role> = new Set<Role>(['name', 'amb', 'unk', 'prefix']);

// Connectors that link a given name to a father's name. Particles (van, de, al...) only link in lower case.
export const PATRONYMIC = new Set(['bin', 'binti', 'bte', 'bt', 'b', 'binte', 'bint', 'ibni', 'ibnu', 'ibn', 'a/l', 'a/p', 's/o', 'd/o', 'anak', 'ak']);
export const DOT_REQUIRED = new Set(['b']);
// Short upper-case titles that are also clinical abbreviations: titles only with a dot or in an all-caps line.
export const AMBIGUOUS_UPPER_TITLES = new Set(['ms', 'ma', 'sr', 'en', 'pn', 'mo']);

/** Titles that stand before a person's name (the last word of a multi-word title: Tan Sri, Prof Madya). */
export const PERSONAL_TITLES = new Set([
  'dr',
  'doctor',
  'mr',
  'mrs',
  'ms',
  'miss',
  'mdm',
  'madam',
  'mister',
  'prof',
  'professor',
  'profesor',
  'madya',
  'puan',
  'pn',
  'encik',
  'en',
  'enche',
  'cik',
  'tuan',
  'tn',
  'dato',
  'datuk',
  'datin',
  'sri',
  'seri',
  'sir',
  'dame',
  'lady',
  'sister',
  'sr',
  'capt',
  'captain',
  'drs',
]);

/** Ordinary words that follow a title without being a name (Dr On Call, Dr Bertugas, Sister In Charge). */
export const NOT_AFTER_TITLE = new Set([
  'on',
  'in',
  'the',
  'of',
  'and',
  'at',
  'to',
  'for',
  'from',
  'who',
  'other',
  'another',
  'any',
  'all',
  'no',
  'not',
  'or',
  'is',
  'was',
  'will',
  'has',
  'had',
  'please',
  'pls',
  'kindly',
  'also',
  'oncall',
  'incharge',
  'duty',
  'team',
  'night',
  'day',
  'morning',
  'evening',
  'afternoon',
  'senior',
  'junior',
  'new',
  'same',
  'previous',
  'next',
  'covering',
  'bertugas',
  'pakar',
  'pelatih',
  'siswazah',
  'rumah',
  'malam',
  'pagi',
  'petang',
  'syif',
  'yang',
  'dan',
  'di',
  'ke',
  'dari',
  'untuk',
  'sila',
  'tolong',
  'telah',
  'sudah',
  'akan',
  'tidak',
  'belum',
  'ini',
  'itu',
  'this',
  'that',
  'these',
  'my',
  'our',
  'your',
  'his',
  'her',
  'their',
  'a',
  'an',
  'i',
  'we',
  'you',
  'he',
  'she',
  'they',
  'it',
  'ok',
  'okay',
  'yes',
  'thanks',
  'thank',
  'sir',
  'madam',
  'doctor',
  'dr',
  'here',
  'there',
  'said',
  'says',
  'called',
  'asked',
  'advised',
  'informed',
  'aware',
  'boy',
  'girl',
  'baby',
  'infant',
  'twin',
  'male',
  'female',
  'lelaki',
  'perempuan',
  'unknown',
  'unnamed',
]);

export const REL_WORDS =
  'wife|husband|son|daughter|mother|father|brother|sister|sibling|cousin|nephew|niece|uncle|aunt|aunty|auntie|grandson|granddaughter|grandmother|grandfather|grandma|grandpa|grandchild|granny|friend|neighbour|neighbor|colleague|employer|boss|caregiver|carer|maid|helper|fianc[eé]e?|partner|spouse|guardian|stepson|stepdaughter|stepfather|stepmother|son-in-law|daughter-in-law|mother-in-law|father-in-law|brother-in-law|sister-in-law|twin|isteri|suami|anak(?:\\s+(?:lelaki|perempuan|sulung|bongsu|angkat|saudara))?|ibu|bapa|ayah|emak|abang|kakak|adik(?:\\s+(?:lelaki|perempuan))?|nenek|cucu|menantu|mertua|sepupu|kawan|jiran|majikan|penjaga|headman|ketua kampung|tok batin|tuai rumah|next of kin|nok|waris';

// A label with a colon (or a "... by" phrase) right before the name.
export const SIGNOFF_RE =
  /(?:thanks|thank you|regards|sincerely|faithfully|cheers|best|warmly|terima kasih|sekian|yang benar|yours truly|signed|tandatangan|t\.t|cop)[\s,.!:]*$/iu;

export const POST_REL_RE = new RegExp(
  `^\\s*(?:\\(|,|-|\\u2013|/)\\s*(?:the\\s+|pt'?s\\s+|patient'?s\\s+|her\\s+|his\\s+)?(?:${REL_WORDS}|patient|pesakit)\\b`,
  'iu',
);
export const POST_AGE_RE =
  /^\s*(?:\(|,|-|\u2013|\||\/)\s*(?:(?:aged|age\s*:?|umur|berumur|usia)\s*\d{1,3}\b|\d{1,3}\s*(?:-?\s*(?:y\/?o|yo|y\.o\.?|yrs?|years?|year-old|yr-old|tahun|thn|months?|mo|bulan|y)\b|\s?\/?\s?[MFmf]\b|\s?\/\s?(?:12|52)\b))/iu;
// "updated on <name>'s condition", "<name>'s wife": a possessive followed by a noun only people have
export const POST_AGE_BARE_RE = /^[ \t]+\d{1,3}[ \t]?(?:[MF]|y\/?o|yo|y|yrs?|years? old|\/[MF])\b/iu;
export const POSSESSIVE_NOUN_RE =
  /^\s*(?:condition|progress|status|health|care|treatment|admission|discharge|case|bill|account|ic|nric|passport|phone|number|address|family|mother|father|wife|husband|son|daughter|brother|sister|children|child|parents?|relatives?|employer|medications?|appointment|results?|consent|birthday|baby|house|home|room|bed|behaviour|behavior|mood|diet|feeding|mobility|wound|surgery|operation|keadaan|ibu|bapa|isteri|suami|anak)\b/iu;
/** Labels and greetings after which the field holds a person's name, whatever the word ("Disediakan oleh: DAYUNG"). */
export const PERSON_FIELD_RE =
  /(?:\b(?:name|nama|full[ _]name|nama penuh|patient|pesakit|nok|nok[ _]name|next of kin|waris|penjaga|guardian|caller|informant|pemohon|requester|agent|requested by|prepared by|reviewed by|seen by|checked by|verified by|signed by|by|oleh|attn|attention)["']?[ \t]*[:=\-][ \t]*["']?|\b(?:dear|hi|hello|hai|salam)[ \t]+)$/i;
/** Words that open a reply rather than name a person ("Caller: Hello, I'm ...", "Pt: Okay"). */
export const INTERJECTIONS = new Set([
  'hi',
  'hello',
  'hey',
  'hai',
  'halo',
  'oh',
  'ok',
  'okay',
  'ya',
  'yes',
  'no',
  'nope',
  'yeah',
  'sure',
  'thanks',
  'thank',
  'sorry',
  'please',
  'pls',
  'good',
  'morning',
  'afternoon',
  'evening',
  'noted',
  'done',
  'alright',
  'salam',
  'assalamualaikum',
  'selamat',
  'tq',
  'terima',
  'maaf',
  'baik',
  'boleh',
  'tak',
  'tidak',
  'nil',
  'none',
  'unknown',
  'same',
  'self',
  'n/a',
  'na',
  'all',
  'team',
  'sir',
  'madam',
  'doctor',
  'dr',
  'nurse',
  'staff',
  'everyone',
  'colleagues',
  'kawan',
  'semua',
  'tuan',
  'puan',
]);
// a person's own verb right after a word ("Achik will sign", "Along said"): evidence that the word is a name
export const PERSON_VERB_AFTER_RE = /^[ \t]+(?:will|would|is|was|has|had|says|said|called|came|agreed|signed|wants|wanted|refused|asked|told|left|arrived)\b/;
// "<name> family asking for update", "<name>'s family", "<name> and family"
export const POST_FAMILY_RE = /^(?:['\u2019]s)?[ \t]+(?:and[ \t]+|&[ \t]*)?(?:family|families|keluarga|household|relatives|folks)\b/iu;
export const POST_ID_RE =
  /^\s*(?:\(|,|\||-|\u2013)\s*(?:(?:IC|I\/C|NRIC|No\.?\s*KP|KP|MyKad|MyKid|passport|pasport|MRN|RN|R\/N|tel|telefon|h\/?p|hp|mobile|phone|contact)\b|\+?\d{2,4}[\s-]?\d{3,4}[\s-]?\d{3,5}(?![\w-])|\d{6}[\s-]?\d{2}[\s-]?\d{4}(?!\w))/iu;
export const POST_IDLINE_RE = /^[ \t]+(?:IC|NRIC|No\.?\s*KP|MyKad|MRN|RN|R\/N)\b/u;
// "<name> c/o fever x 3/7": the subject of a presenting complaint
// the line under a name line that starts with an identifier label
export const ID_LINE_RE =
  /^[ \t]*\(?[ \t]*(?:RN|MRN|R\/N|HN|IC|NRIC|I\/C|MyKad|MyKid|No\.?[ \t]*(?:KP|K\/P|IC|RN|MRN|Pendaftaran|Penderma|Pasport|Passport|Fail|Rekod)|Passport|Pasport|DOB|D\.O\.B|Tarikh Lahir|Age|Umur)\b/i;
export const BED_BEFORE_RE = /\b(?:bed|katil|bay|cubicle)[ \t]*\d{1,3}[A-Za-z]?[ \t]*[:,\-\u2013]?[ \t]+$/i;
export const POST_CO_RE = /^[ \t]+(?:c\/o|C\/O|complains? of|complaining of)\b/u;
// a table row: the name, a column gap (tab or 2+ spaces), then an IC-shaped number
export const POST_COLUMN_IC_RE = /^(?:\t|[ ]{2,})[ \t]*(?:\d{6}-\d{2}-\d{4}|\d{12})(?![\w-])/u;
export const POST_ROLE_RE =
  /^\s*(?:,|-|\u2013|\()\s*(?:MO|HO|SN|JM|MA|PPP|Psychiatry MO|Medical Officer|Consultant|Specialist|Pharmacist|Nurse|Staff Nurse|Pegawai|Physician|Surgeon|Registrar|Houseman|House Officer|Sister|Matron|Dietitian|Physiotherapist|Cashier|Clerk|Coordinator|Interpreter|Radiographer|Anaesthetist|Paediatrician|Obstetrician|Cardiologist|Nephrologist|Neurologist|Oncologist|Psychiatrist|Dentist|GP|FMS|Penolong|Jururawat|Doktor|Ketua)\b/u;
export const POST_VERB_RE =
  /^[ \t]+(?:is|was|has|had|reports?|reported|complain(?:s|ed)?|attended|still|feels?|felt|feeling|tolerat\w+|will|would|called|agreed|agrees|refused|refuses|denied|denies|says|said|states?|stated|verbali[sz]ed|understood|understands|consented|wants|wished|wishes|asked|requested|came|went|arrived|presented|remains|looks|appears|walked|slept|ate|vomited|developed|claimed|paid|signed|mentioned|noted|informed|brought|visited|reviewed|seen|examined|admitted|discharged|transferred|underwent|collapsed|fell|sustained|telah|sudah|masih|datang|mengadu|dibawa)\b/u;
export const HEAD_NOUN_AFTER_RE =
  /^ (?:Hospital|Clinic|Klinik|Medical|Specialist|Centre|Center|Sdn|Bhd|Berhad|Bank|Insurance|Takaful|Road|Street|Jalan|Avenue|Building|Plaza|Tower|Mall|Estate|Plantation|Holdings|Enterprise|Trading)\b/u;

// a romanised Chinese syllable (Hokkien/Cantonese/Hakka/pinyin): consonants, one vowel cluster, an -n/-ng/-k/-h/-p/-t
export const CN_SYLLABLE_SHAPE_RE = /^(?:[bcdfghjklmnpqrstwxyz]{0,3}|[bcdfghjklmnpqrstwxyz]h)[aeiouy]{1,3}(?:ng|n|m|k|h|p|t)?$/;
// Unknown words with typical South Indian name endings (Chandrasegaran, Kuppusamy, Letchumanan) count as names.
export const NAME_SUFFIX_RE =
  /(?:samy|swamy|sami|appan|ammal|amma|aran|kumar|alingam|anathan|athan|esan|eswaran|eswari|avel|velu|raja|rajan|rajah|chandran|krishnan|murthy|moorthy|devi|vathy|vathi|letchumi|lakshmi|selvam|selvi|nathan|gopal|arasu|arasan|arasi|mugam|sekaran|segaran|thiran)$/;

/** Words after which a lower-case word may be a name (quick notes: "son <name>", "dr. <name>", "review: <name>"). */
/** Titles recognised in lower case ("dr. <name>", "pn <name>"). */
export const LOWER_TITLES = new Set([
  'dr',
  'doctor',
  'mr',
  'mrs',
  'mdm',
  'madam',
  'encik',
  'en',
  'puan',
  'pn',
  'cik',
  'tuan',
  'datuk',
  'dato',
  'datin',
  'sister',
  'sn',
  'prof',
  'hj',
  'hjh',
  'haji',
  'hajah',
  'ustaz',
  'ustazah',
  'kak',
  'abang',
  'makcik',
  'pakcik',
  'aunty',
  'auntie',
  'uncle',
]);

export const LOWER_CUE_WORDS = new Set([
  'wife',
  'husband',
  'son',
  'daughter',
  'mother',
  'father',
  'brother',
  'sister',
  'niece',
  'nephew',
  'cousin',
  'friend',
  'neighbour',
  'neighbor',
  'uncle',
  'aunt',
  'aunty',
  'auntie',
  'grandson',
  'granddaughter',
  'grandmother',
  'grandfather',
  'caregiver',
  'carer',
  'maid',
  'employer',
  'guardian',
  'isteri',
  'suami',
  'anak',
  'ibu',
  'bapa',
  'ayah',
  'emak',
  'abang',
  'kakak',
  'adik',
  'nenek',
  'cucu',
  'review',
  'reviewed',
  'seen',
  'pt',
  'patient',
  'pesakit',
  'name',
  'nama',
  'nok',
  'by',
  'oleh',
  'to',
  'with',
  'called',
  'informed',
  'dr',
  'doctor',
  'sn',
  'sister',
  'staff',
  'nurse',
  'mr',
  'mrs',
  'ms',
  'mdm',
  'encik',
  'en',
  'puan',
  'pn',
  'cik',
  'tuan',
  'madam',
  'kak',
  'abg',
  'bro',
  'sis',
  'spoke',
  'client',
  'caller',
  'from',
  // chat: "tell rohaya", "family rohaya called", "ask madsuri", "remind izzat", "saya ganesan", "sy kah yan"
  'tell',
  'family',
  'ask',
  'asked',
  'asking',
  'inform',
  'remind',
  'reminded',
  'message',
  'messaged',
  'msg',
  'whatsapp',
  'contact',
  'contacted',
  'visit',
  'visited',
  'saya',
  'sy',
  'aku',
  'im',
  'dear',
  'hi',
  'hello',
  'hai',
  'salam',
  'thanks',
  'tq',
  'thx',
  'bagitau',
  'beritahu',
  'maklumkan',
  'panggil',
  'jumpa',
  'tanya',
]);
/** "pls update on <name>", "any news on <name>", "this is <name>", "nama saya <name>": cue phrases before a name. */
export const LOWER_CUE_PHRASE_RE = /(?:\b(?:update|updated|updates|news|progress)\s+(?:on|for)|\bthis\s+is|\bi\s+am|\bnama\s+(?:saya|sy)|\bsaya\s+ialah)\s*$/i;

/** Column headers that name people: "Name", "Nama Pesakit", "NOK_NAME", "Patient name", "Nama penerima". */
export const NAME_HEADER_RE = /(?:^|[^a-z])(?:name|nama|names)(?:[^a-z]|$)/i;
/** ... but not the name of a thing: a drug, a test, a hospital, a company. */
export const NOT_NAME_HEADER_RE =
  /\b(?:drug|ubat|medication|medicine|test|ujian|hospital|klinik|clinic|company|syarikat|employer|majikan|bank|insurer|insurance|product|item|vaccine|vaksin|ward|wad|file|fail|facility|fasiliti|procedure|prosedur|user|pengguna)\b/i;
