/**
 * Context cues before a name, read backwards from the name (set lookups, no backtracking regexes, so cost is
 * constant per candidate even on long lines). The word lists are context words in Presidio's sense: data, kept here
 * beside the recognizer that uses them.
 */

/** Labels that introduce a person when followed by ':' (Name:, Pesakit:, NOK:, Witness:). */
const LABELS = [
  'name',
  'full name',
  'patient name',
  "patient's name",
  'name of patient',
  'nama',
  'nama penuh',
  'nama pesakit',
  'patient',
  'pt',
  'pesakit',
  'client',
  'customer',
  'child',
  'infant',
  'baby',
  'baby of',
  'b/o',
  'mother',
  'father',
  'husband',
  'wife',
  'spouse',
  'parent',
  'parents',
  'nok',
  'next of kin',
  'waris',
  'guardian',
  'penjaga',
  'guarantor',
  'sponsor',
  'coordinator',
  'co-ordinator',
  'interpreter',
  'translator',
  'witness',
  'witnesses',
  'saksi',
  'attending',
  'attending doctor',
  'consultant',
  'specialist',
  'physiotherapist',
  'pharmacist',
  'dietitian',
  'dietician',
  'cashier',
  'nurse',
  'staff nurse',
  'nurse in charge',
  'escort',
  'medical assistant',
  'assistant',
  'officer',
  'medical officer',
  'mo',
  'ho',
  'surgeon',
  'anaesthetist',
  'operator',
  'driver',
  'sender',
  'caller',
  'informant',
  'emergency contact',
  'employer contact',
  'employer',
  'contact person',
  'contact',
  'family informed',
  'relative present',
  'relative',
  'relatives',
  'petugas',
  'pemohon',
  'nama pemohon',
  'penerima',
  'diterima daripada',
  'received from',
  'bill to',
  'attention',
  'attn',
  'claim for',
  'report for',
  're',
  'to',
  'from',
  'cc',
  'bcc',
  'doctor',
  'dr',
  'headman',
  'ketua kampung',
  'tok batin',
  'tuai rumah',
  'user',
  'staff',
  'member',
  'insured',
  'policyholder',
  'policy holder',
  'account holder',
  'account name',
  'payer',
  'payee',
  'beneficiary',
  'proposer',
  'claimant',
  'patient/guardian',
  'present',
  'attendees',
  'ward sister',
  'sister',
  'requested by',
  'prepared by',
  'verified by',
  'reviewed by',
  'seen by',
  'seen with',
  'documented by',
  'clerked by',
  'authorised by',
  'authorized by',
  'reported by',
  'referred by',
  'checked by',
  'vaccinated by',
  'examined by',
  'signed by',
  'approved by',
  'counselled by',
  'done by',
  'performed by',
  'witnessed by',
  'entered by',
  'recorded by',
  'collected by',
  'disediakan oleh',
  'disahkan oleh',
  'diperiksa oleh',
  'dirujuk oleh',
  'dirawat oleh',
  'ditemani oleh',
  'dibawa oleh',
  'diiringi oleh',
  'collateral history from',
  'history from',
  'collateral from',
  'care of',
  'dear',
  'hi',
  'hello',
  'referring doctor',
  'referring',
  'case',
  'subject',
  'in charge',
  'i/c',
  'dr i/c',
  'dr in charge',
  'mo i/c',
  'mo in charge',
  'anak',
  'isteri',
  'suami',
  'ibu',
  'bapa',
  'ayah',
  'emak',
  'penjamin',
  'majikan',
  'pegawai',
  'rujukan',
  'kepada',
  'daripada',
  'user id',
  'signature',
  'tandatangan',
  'cop',
  'stamp',
  'by',
  'oleh',
  // forms, prescriptions, reports, registers
  'rx for',
  'prescription for',
  'prescribed for',
  'issued to',
  'dispensed to',
  'dispensed by',
  'resident',
  'inmate',
  'victim',
  'deceased',
  'si mati',
  'donor',
  'recipient',
  'potential donor',
  'traveller',
  'traveler',
  'worker',
  'employee',
  'staff name',
  'student',
  'pupil',
  'murid',
  'pelajar',
  'nama anak',
  'nama ibu',
  'nama bapa',
  'nama suami',
  'nama isteri',
  'nama waris',
  'nama penjaga',
  'nama saksi',
  'ibu/bapa',
  'ibu bapa',
  'parent/guardian',
  'mother of',
  'father of',
  'complainant',
  'assailant',
  'alleged assailant',
  'suspect',
  'accused',
  'index case',
  'kes indeks',
  'contact name',
  'kontak',
  'pic',
  'person in charge',
  'escort officer',
  'investigating officer',
  'pegawai penyiasat',
  'io',
  'examining doctor',
  'examined by',
  'treating doctor',
  'doktor yang merawat',
  'requesting doctor',
  'reporting doctor',
  'surgeon',
  'assistant surgeon',
  'anaesthetist',
  'scrub nurse',
  'circulating nurse',
  'chair',
  'chairperson',
  'present',
  'visited by',
  'handed over by',
  'taken over by',
  'received by',
  'prepared for',
  'therapist',
  'client name',
  'patient details',
  'caregiver',
  'penjaga utama',
  'nama pegawai',
  'pegawai',
  'disediakan untuk',
  'agent',
  'clerk',
  'receptionist',
  'counter staff',
  'handled by',
  'attended by',
  'reminder',
  'peringatan',
  'appt for',
  'appointment for',
  'temujanji untuk',
  'child name',
  'nama anak',
  'nok name',
  'nok_name',
  'a/c holder',
  'card holder',
  'cardholder',
  'holder',
  'pembayar',
  'pemegang akaun',
  'pemegang kad',
  'doktor',
  'jururawat',
  'pegawai perubatan',
  'nama doktor',
  'nama jururawat',
  'nama majikan',
  'nama pekerja',
  'pekerja',
  'nama ahli',
  'nama pemegang polisi',
  'pemegang polisi',
  'nama pembayar',
  'nama si mati',
  'pemberi maklumat',
  'nama pemberi maklumat',
];

/**
 * Malay labels put the head first ("Waris terdekat", "Nama pemegang akaun", "Pegawai yang merawat"): a label of up to
 * four words that opens its line and starts with one of these words introduces a person.
 */
const MALAY_HEAD_LABELS = new Set([
  'nama',
  'waris',
  'penjaga',
  'pesakit',
  'pemohon',
  'saksi',
  'doktor',
  'pegawai',
  'pembayar',
  'penerima',
  'pemegang',
  'jururawat',
  'majikan',
  'ketua',
  'suami',
  'isteri',
  'ibu',
  'bapa',
  'anak',
  'pemberi',
  'penama',
]);

/** Labels that introduce a person without a colon ("Claim for X", "Seen by X", "c/o X"). */
const LABELS_NO_COLON = [
  'claim for',
  'report for',
  'bill to',
  'attention',
  'attn',
  'care of',
  'baby of',
  'b/o',
  'collateral history from',
  'history from',
  'received from',
  'diterima daripada',
  // self-introduction ("I am <name> from ...", "my name is <name>")
  'i am',
  "i'm",
  'my name is',
  'nama saya',
  'saya ialah',
  'identified self as',
  'identified himself as',
  'identified herself as',
  'saya',
  'sy',
  'ini',
  'this is',
  'it is',
  "it's",
  'your child',
  'anak anda',
  'your son',
  'your daughter',
  'anak tuan/puan',
  'temujanji anak anda',
  'appointment for',
  'appt for',
  'temujanji untuk',
  'pt name',
  'patient name',
  'nama pesakit',
];

/** Verbs whose "... by X" / "... oleh X" introduces a person. */
const BY_VERBS = [
  'requested',
  'prepared',
  'verified',
  'reviewed',
  'seen',
  'documented',
  'clerked',
  'authorised',
  'authorized',
  'reported',
  'referred',
  'checked',
  'vaccinated',
  'examined',
  'signed',
  'approved',
  'counselled',
  'counseled',
  'done',
  'performed',
  'witnessed',
  'entered',
  'recorded',
  'attended',
  'accompanied',
  'brought',
  'escorted',
  'over',
  'covered',
  'assisted',
  'written',
  'dictated',
  'typed',
  'collected',
  'sent',
  'called',
  'visited',
  'managed',
  'operated',
  'delivered',
  'admitted',
  'discharged',
  'transferred',
  'taken',
  'informed',
  'explained',
  'consented',
  'interpreted',
  'translated',
  'raised',
  'paid',
  'disediakan',
  'disahkan',
  'diperiksa',
  'dirujuk',
  'dirawat',
  'ditemani',
  'dibawa',
  'diiringi',
  'ditandatangani',
  'dilihat',
  'dihantar',
  'dijaga',
  'dibayar',
  'dimaklumkan',
];

/** Relations: "wife X", "(son: X", "anak lelaki, X". */
const RELATIONS = [
  'wife',
  'husband',
  'son',
  'daughter',
  'mother',
  'father',
  'brother',
  'sister',
  'sibling',
  'cousin',
  'nephew',
  'niece',
  'uncle',
  'aunt',
  'aunty',
  'auntie',
  'grandson',
  'granddaughter',
  'grandmother',
  'grandfather',
  'grandma',
  'grandpa',
  'grandchild',
  'granny',
  'friend',
  'neighbour',
  'neighbor',
  'colleague',
  'employer',
  'boss',
  'caregiver',
  'carer',
  'maid',
  'helper',
  'fiance',
  'fiancee',
  'fiancé',
  'fiancée',
  'partner',
  'spouse',
  'guardian',
  'stepson',
  'stepdaughter',
  'stepfather',
  'stepmother',
  'son-in-law',
  'daughter-in-law',
  'mother-in-law',
  'father-in-law',
  'brother-in-law',
  'sister-in-law',
  'twin',
  'isteri',
  'suami',
  'anak',
  'anak lelaki',
  'anak perempuan',
  'anak sulung',
  'anak bongsu',
  'anak angkat',
  'anak saudara',
  'ibu',
  'bapa',
  'ayah',
  'emak',
  'abang',
  'kakak',
  'adik',
  'adik lelaki',
  'adik perempuan',
  'nenek',
  'cucu',
  'menantu',
  'mertua',
  'sepupu',
  'kawan',
  'jiran',
  'majikan',
  'penjaga',
  'headman',
  'ketua kampung',
  'tok batin',
  'tuai rumah',
  'next of kin',
  'nok',
  'waris',
  'housemate',
  'roommate',
  'landlord',
  'supervisor',
  'manager',
  'teacher',
  'classmate',
  'mum',
  'mom',
  'dad',
  'papa',
  'mama',
  'hubby',
  'bf',
  'gf',
  'boyfriend',
  'girlfriend',
];

const GREETINGS = [
  'hi',
  'hello',
  'hey',
  'dear',
  'thanks',
  'thank you',
  'tq',
  'regards',
  'salam',
  'assalamualaikum',
  'selamat pagi',
  'selamat petang',
  'good morning',
  'good afternoon',
  'good evening',
];
const PATIENT_WORDS = ['pt', 'patient', 'pesakit', 'client', 'the patient', 'our patient', 'this patient', 'mr', 'ms'];
const WEAK = [
  'by',
  'to',
  'from',
  'with',
  'and',
  'or',
  'informed',
  'inform',
  'called',
  'call',
  'calling',
  'contacted',
  'contact',
  'phoned',
  'see',
  'seen',
  'visited',
  'accompanied',
  'brought',
  'update',
  'updated',
  'told',
  'tell',
  'ask',
  'asked',
  'per',
  'meet',
  'met',
  'visit',
  'spoke',
  'speak',
  'discussed',
  'explained',
  'counselled',
  'reviewed',
  'referred',
  'attention',
  'via',
  'for',
  'oleh',
  'kepada',
  'dengan',
  'dan',
  'bersama',
  'hubungi',
  'telefon',
  'under',
  'cc',
];

/** Labels that work without a colon when they open the line ("NOK  Ahmad bin Ali", "Patient - Tan Ah Kow"). */
const BARE_LABELS = [
  'name',
  'nama',
  'patient',
  'patient name',
  'pt',
  'pesakit',
  'nama pesakit',
  'nok',
  'next of kin',
  'waris',
  'mother',
  'father',
  'husband',
  'wife',
  'child',
  'guardian',
  'penjaga',
  'attending',
  'witness',
  'saksi',
  'interpreter',
  'guarantor',
  'caller',
  'informant',
  'escort',
  'pemohon',
  'nama pemohon',
];

const toSet = (xs: readonly string[]) => new Set(xs.map((x) => x.toLowerCase()));
const LABEL_SET = toSet(LABELS);
const LABEL_NC_SET = toSet(LABELS_NO_COLON);
const BARE_LABEL_SET = toSet(BARE_LABELS);
const BY_SET = toSet(BY_VERBS);
const REL_SET = toSet(RELATIONS);
const GREET_SET = toSet(GREETINGS);
const PT_SET = toSet(PATIENT_WORDS);
const WEAK_SET = toSet(WEAK);

const COMPACT_LABELS = new Set([...LABEL_SET, ...REL_SET].map((l) => l.replace(/[\s_]+/g, '')));

/**
 * A field label that introduces a person ("Name", "Waris terdekat", "Nama pemegang akaun"), also when OCR broke its
 * words apart ("Dok tor", "Waris ter dekat"): compared with its spaces removed.
 */
export function isPersonFieldLabel(label: string): boolean {
  const l = label
    .toLowerCase()
    .replace(/\u2019/g, "'")
    .trim();
  if (!l) return false;
  if (LABEL_SET.has(l) || REL_SET.has(l)) return true;
  const words = l.split(/\s+/);
  if (MALAY_HEAD_LABELS.has(words[0]) && words.length <= 4) return true;
  if (words.length > 1 && LABEL_SET.has(words[words.length - 1])) return true; // "Employee name", "Patient's name"
  return COMPACT_LABELS.has(l.replace(/[\s_]+/g, ''));
}

export type BeforeCue = 'label' | 'rel' | 'greeting' | 'consent' | 'patient' | 'weak' | 'dash' | 'none';

const WORD_CH_RE = /[\p{L}\p{M}'\u2019/.\-&]/u;
function isWordCh(ch: string): boolean {
  const c = ch.charCodeAt(0);
  if (c < 128) return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 39 || c === 47 || c === 46 || c === 45 || c === 38;
  return WORD_CH_RE.test(ch);
}

/** Parse the tail of the text before a name: trailing punctuation and the last few words (lower case). */
export function tailOf(before: string, maxWords = 4): { punct: string; words: string[]; allWords: boolean; sentenceEnd: boolean } {
  let k = before.length;
  let punct = '';
  while (k > 0) {
    const c = before[k - 1];
    if (c === ' ' || c === '\t') k--;
    else if (':=(,-\u2013|[>'.includes(c)) {
      punct = c + punct;
      k--;
    } else break;
  }
  const words: string[] = [];
  let sentenceEnd = false;
  while (k > 0 && words.length < maxWords) {
    while (k > 0 && (before[k - 1] === ' ' || before[k - 1] === '\t')) k--;
    let e = k;
    while (k > 0 && isWordCh(before[k - 1])) k--;
    if (k === e) break;
    let w = before
      .slice(k, e)
      .toLowerCase()
      .replace(/\u2019/g, "'");
    if (!words.length && w.length > 3 && w.endsWith('.') && !w.slice(0, -1).includes('.')) sentenceEnd = true; // "morning. X"
    while (w.endsWith('.') && !/^[a-z]\.$/.test(w) && w.length > 1) w = w.slice(0, -1);
    words.unshift(w);
    e = k;
  }
  const rest = before.slice(0, k);
  return { punct, words, allWords: !/\S/.test(rest.replace(/[\u0001\n|;]/g, ' ')), sentenceEnd };
}

function suffixIn(words: readonly string[], set: Set<string>): boolean {
  let suffix = '';
  for (let n = 1; n <= Math.min(4, words.length); n++) {
    suffix = n === 1 ? words[words.length - 1] : words[words.length - n] + ' ' + suffix;
    if (set.has(suffix)) return true;
  }
  return false;
}

/** Classify the text right before a candidate name. */
export function beforeCue(before: string): BeforeCue {
  const { punct, words, allWords, sentenceEnd } = tailOf(before);
  const hasColon = punct.includes(':') || punct.includes('=');
  if (sentenceEnd && !punct) return 'none';
  if (!words.length) {
    if (/^[\s\u0001]*[-\u2013\u2014~]+[\s]*$/.test(before)) return 'dash';
    return 'none';
  }
  const last = words[words.length - 1];
  if (hasColon) {
    if (suffixIn(words, LABEL_SET) || suffixIn(words, REL_SET)) return 'label';
    if (allWords && MALAY_HEAD_LABELS.has(words[0])) return 'label';
    // bilingual labels: "Nama/Name:", "Patient/Pesakit:"
    if (last.includes('/') && last.split('/').some((p) => LABEL_SET.has(p) || REL_SET.has(p))) return 'label';
    if (last === 'by' || last === 'oleh') return 'label';
    return 'none';
  }
  const plainPunct = punct === '' || punct === ',' || punct === '(' || punct === '-' || punct === '\u2013' || punct === ',(' || punct === '(,';
  if (!plainPunct) return 'none';
  if (suffixIn(words, LABEL_NC_SET)) return 'label';
  if ((last === 'by' || last === 'oleh' || last === 'from' || last === 'daripada') && words.length >= 2 && BY_SET.has(words[words.length - 2])) return 'label';
  if (suffixIn(words, REL_SET)) return 'rel';
  if (punct === '' || punct === ',') {
    if (words.length === 1 && (last === 'i' || last === 'saya' || last === 'we' || last === 'kami') && punct === ',' && allWords) return 'consent';
  }
  if ((punct === '' || punct === ',' || punct === '-' || punct === '\u2013') && (suffixIn(words, GREET_SET) || last.split('/').some((p) => GREET_SET.has(p))))
    return 'greeting';
  if (punct === '' && suffixIn(words, PT_SET)) return 'patient';
  if ((punct === '' || punct === '-' || punct === '\u2013') && allWords && suffixIn(words, BARE_LABEL_SET) && words.length <= 3) return 'label';
  if ((punct === '' || punct === ',') && WEAK_SET.has(last)) return 'weak';
  return 'none';
}

/** A single word that names a relation (son, wife, isteri...): never the first word of a name. */
export function isRelationWord(norm: string): boolean {
  return REL_SET.has(norm);
}
