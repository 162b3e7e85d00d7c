/**
 * Clinical allow-list: finds regions that are clinical content and must survive redaction (ages, vitals, labs,
 * dosages, dates, times, codes, DRG numbers, ward/bed, post-op days, hospitals/clinics/organisations, places,
 * eponyms, drug names). Regions carry a strength: a candidate overlapping a region is dropped unless its own score is
 * at least that strength (a validated IC next to a date still wins; a weak pattern inside a date does not).
 */
import type { ProtectedSpan } from '../types';
import { F, NAME_FLAGS, type Gazetteer } from '../gazetteer';
import { inlineGap, inlineGapDot, type Token } from '../tokens';

const MONTHS =
  '(?:Jan(?:uary|uari)?|Feb(?:ruary|ruari)?|Mac|Mar(?:ch)?|Apr(?:il)?|Mei|May|Jun(?:e)?|Jul(?:y|ai)?|Ogos|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Okt(?:ober)?|Oct(?:ober)?|Nov(?:ember)?|Dis(?:ember)?|Dec(?:ember)?)';

const NUM = String.raw`\d{1,4}(?:[.,]\d{1,3})?`;
const MULTI_ANALYTES = [
  'NT-proBNP',
  'proBNP',
  'BNP',
  'hsTnI',
  'hsTnT',
  'Trop\\s?[IT]',
  'troponin',
  'D-dimer',
  'HbA1c',
  'eGFR',
  'CRP',
  'ESR',
  'ALT',
  'AST',
  'ALP',
  'GGT',
  'LDH',
  'CK',
  'CKMB',
  'T\\.?\\s?bil',
  'TBil',
  'Bil',
  'Alb',
  'Albumin',
  'Urea',
  'Creat(?:inine)?',
  'Cr',
  'TWBC',
  'TW',
  'WBC',
  'WCC',
  'Plt',
  'PLT',
  'Hb',
  'Hgb',
  'HCT',
  'Hct',
  'PCV',
  'MCV',
  'MCH',
  'RBC',
  'INR',
  'APTT',
  'PTT',
  'PT',
  'TSH',
  'fT4',
  'fT3',
  'T4',
  'LDL',
  'HDL',
  'TG',
  'TC',
  'Chol',
  'FBS',
  'RBS',
  'FBG',
  'RBG',
  'DXT',
  'CBG',
  'HCO3',
  'pCO2',
  'pO2',
  'PaO2',
  'PaCO2',
  'Lactate',
  'Ferritin',
  'PCT',
  'Amylase',
  'Lipase',
  'Uric acid',
  'UA',
  'PO4',
  'Mg',
  'cCa',
  'Ca',
  'Na\\+?',
  'K\\+?',
  'Cl',
  'Glucose',
  'Ketones?',
  'pH',
  'BE',
  'SpO2',
  'SaO2',
  'sats?',
  'BP',
  'B/P',
  'HR',
  'PR',
  'RR',
  'resp(?:iratory)? rate',
  'pulse',
  'temp(?:erature)?',
  'T',
  'GCS',
  'BW',
  'weight',
  'wt',
  'height',
  'ht',
  'BMI',
  'capillary glucose',
  'pain score',
  'VAS',
  'CVP',
  'MAP',
  'UO',
  'urine output',
  'O2',
  'FiO2',
  'PEFR',
  'Hb A1c',
];

/**
 * Words that name a lab test, an analyte, a vital sign or a lab artefact (culture, sample, count). A number right after
 * one of them is a result, never an identifier. Lower case; matched after trimming punctuation.
 */
const ANALYTE_WORDS = new Set(
  (
    'nt-probnp probnp bnp hstni hstnt trop tropi tropt troponin d-dimer ddimer hba1c a1c egfr gfr crp hscrp esr alt ast alp ggt ' +
    'ldh ck ckmb ck-mb t.bil tbil bil bili bilirubin alb albumin urea bun creat creatinine cr scr twbc tw wbc wcc plt plts ' +
    'platelet platelets hb hgb haemoglobin hemoglobin hct pcv mcv mch mchc rdw rbc retic reticulocytes anc alc neut lymph ' +
    'inr aptt ptt tsh ft4 ft3 t4 t3 ldl hdl tg tc chol cholesterol triglycerides fbs rbs fbg rbg dxt cbg hco3 pco2 po2 ' +
    'pao2 paco2 lactate ferritin tibc iron folate b12 pct procalcitonin amylase lipase uric ua po4 phosphate mg magnesium ' +
    'cca ca calcium na sodium k potassium cl chloride glucose ketone ketones ph be spo2 sao2 sat sats bp hr pr rr pulse ' +
    'temp temperature gcs bw weight wt height ht bmi cvp map uo fio2 pefr fev1 fvc psa cea afp ca125 ca-125 ca19-9 hcg ' +
    'bhcg b-hcg cortisol insulin c-peptide ammonia osmolality fibrinogen vl cd4 igg igm ige iga esr abg vbg ' +
    'culture cultures c&s count counts level levels titre titer result results reading readings value values sample ' +
    'samples specimen specimens lab labs range ref. score'
  ).split(/\s+/),
);

/** True when `word` names an analyte, vital sign or lab artefact (see ANALYTE_WORDS). */
export function isAnalyteWord(word: string): boolean {
  const w = word
    .trim()
    .toLowerCase()
    .replace(/[:=()[\]|,;]+$/g, '')
    .replace(/^[(|[]+/, '');
  return ANALYTE_WORDS.has(w) || ANALYTE_WORDS.has(w.replace(/\.$/, '')) || ANALYTE_WORDS.has(w.replace(/\+$/, ''));
}

export interface Rule {
  kind: string;
  re: RegExp;
  strength: number;
}

export const CLINICAL_RULES: Rule[] = [
  // dates (policy: never redacted, including DOB)
  { kind: 'DATE', re: /(?<![\w/.-])\d{1,2}[/.-]\d{1,2}[/.-](?:\d{4}|\d{2})(?![\w/]|[.-]\d)/g, strength: 0.9 },
  { kind: 'DATE', re: /(?<![\w-])(?:19|20)\d{2}[-/.](?:0?[1-9]|1[0-2])[-/.](?:0?[1-9]|[12]\d|3[01])(?![\w-])/g, strength: 0.9 },
  // ISO 8601 date-times (audit logs, JSON, HL7 exports): 2024-03-15T14:30:22.123+08:00
  {
    kind: 'DATE',
    re: /(?<![\w-])(?:19|20)\d{2}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])[T ](?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:[.,]\d{1,9})?)?(?:Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)?(?![\w])/g,
    strength: 0.9,
  },
  // month and year (expiry dates, "since 03/2019"): MM/YYYY, MM-YYYY, YYYY-MM
  { kind: 'DATE', re: /(?<![\w/.-])(?:0?[1-9]|1[0-2])[/-](?:19|20)\d{2}(?![\w/]|[.-]\d)/g, strength: 0.9 },
  { kind: 'DATE', re: /(?<![\w/.-])(?:19|20)\d{2}-(?:0[1-9]|1[0-2])(?![\w/]|[.-]\d)/g, strength: 0.9 },
  { kind: 'DATE', re: new RegExp(String.raw`\b\d{1,2}(?:st|nd|rd|th)?[ \t-]+${MONTHS}\.?,?[ \t-]+(?:\d{4}|\d{2})\b`, 'gi'), strength: 0.9 },
  { kind: 'DATE', re: new RegExp(String.raw`\b${MONTHS}\.?[ \t]+\d{1,2}(?:st|nd|rd|th)?,?[ \t]+\d{4}\b`, 'gi'), strength: 0.9 },
  { kind: 'DATE', re: new RegExp(String.raw`\b\d{1,2}(?:st|nd|rd|th)?[ \t]+${MONTHS}\b`, 'gi'), strength: 0.9 },
  // times
  { kind: 'TIME', re: /\b(?:[01]?\d|2[0-3])[:.][0-5]\d(?:[:.][0-5]\d)?[ \t]?(?:[ap]\.?m\.?|hrs?|H)?(?![\w])/gi, strength: 0.9 },
  { kind: 'TIME', re: /\b(?:[01]\d|2[0-3])[0-5]\d[ \t]?(?:H|hrs?|hours)\b/g, strength: 0.9 },
  // ages
  {
    kind: 'AGE',
    re: /\b\d{1,3}[ \t]?-?[ \t]?(?:y\/o|y\.o\.?|yo|yrs?(?:[ \t-]old)?|years?(?:[ \t-]old)?|yr-old|year-old|tahun|thn|months?[ \t-]old|mo|\/12|\/52)(?![\w])/gi,
    strength: 0.9,
  },
  { kind: 'AGE', re: /\b\d{1,3}[ \t]?(?:y\/?o[ \t]?)?\/?[ \t]?[MFmf](?![\w])/g, strength: 0.9 },
  { kind: 'AGE', re: /\b[MF][ \t]?\/[ \t]?\d{1,3}\b/g, strength: 0.9 },
  { kind: 'AGE', re: /\b(?:aged|age|umur|berumur|usia)[ \t]*:?[ \t]*\d{1,3}(?:[ \t]*(?:tahun|years?|yrs?|y\/o))?/gi, strength: 0.9 },
  // vitals, labs (value parts limited so that 6+ digit identifiers are never swallowed)
  { kind: 'VITAL', re: /(?<![\w/.-])\d{2,3}\/\d{2,3}(?:[ \t]?mmHg)?(?![\d/]|-\d)/g, strength: 0.9 },
  {
    kind: 'VITAL',
    re: /\bGCS[ \t]*:?[ \t]*\d{1,2}(?:[ \t]*\/[ \t]*15)?(?:[ \t]*\(?E\d[ \t]?V(?:\d|T)[ \t]?M\d\)?)?|\bE[1-4][ \t]?V(?:[1-5]|T)[ \t]?M[1-6]\b/g,
    strength: 0.9,
  },
  {
    kind: 'LAB',
    re: new RegExp(
      String.raw`(?<![\w])(?:${MULTI_ANALYTES.join('|')})[ \t]*(?:[:=\-][ \t]*)?(?:of[ \t]+)?${NUM}(?![\d])(?:[ \t]*(?:%|mmol\/L|umol\/L|µmol\/L|mg\/L|mg\/dL|g\/dL|g\/L|U\/L|IU\/L|ng\/L|ng\/mL|pg\/mL|pmol\/L|mIU\/L|x[ \t]?10\^?9\/L|mmHg|kPa|bpm|\/min|°C|C|kg|cm|ml\/min(?:\/1\.73m2)?|mEq\/L))?`,
      'g',
    ),
    strength: 0.9,
  },
  { kind: 'LAB', re: /\bNT-proBNP[ \t]*[:\-]?[ \t]*\d{1,6}/g, strength: 0.9 },
  // dosages and quantities
  {
    kind: 'DOSAGE',
    re: /\b\d+(?:\.\d+)?[ \t]?(?:mg|mcg|µg|ug|g|gm|kg|ml|mL|L|l|u|iu|IU|units?|mmol|meq|mEq|tabs?|caps?|puffs?|drops?|pints?|bags?|cycles?|litres?|liters?)(?:\/(?:kg|hr|h|day|min|dose|m2))?(?![\w])/g,
    strength: 0.9,
  },
  { kind: 'QUANTITY', re: /(?<![\w/])\d{1,2}\/(?:7|12|52|24)(?![\w/])/g, strength: 0.9 },
  // "x 5 days", "x3"; not the extension of a phone number ("03-5580 1145 x929")
  { kind: 'QUANTITY', re: /(?<!\d[ \t]?)\bx[ \t]?\d{1,3}(?:[ \t]?(?:days?|weeks?|months?|hours?|hrs?|\/7|\/52|\/12))?\b/g, strength: 0.9 },
  { kind: 'QUANTITY', re: /\bRM[ \t]?\d[\d,]*(?:\.\d{1,2})?/g, strength: 0.9 },
  // post-op days
  {
    kind: 'POSTOP',
    re: /\bPOD[ \t]?#?[ \t]?\d{1,2}\b|\b(?:day|D)[ \t]?\d{1,2}[ \t]?(?:post[- ]?op(?:erative)?|post[- ]?partum|of admission|of illness)\b|\bpost[- ]?op(?:erative)?[ \t]+day[ \t]?\d{1,2}\b/gi,
    strength: 0.9,
  },
  // obstetric
  {
    kind: 'OBSTETRIC',
    re: /\bG\d{1,2}[ \t]?P\d{1,2}(?:[ \t]?\+[ \t]?\d{1,2})?\b|\b(?:POA|POG|GA)[ \t]*:?[ \t]*\d{1,2}(?:\/52|[ \t]?(?:weeks?|wks?|minggu))(?:[ \t]?\+[ \t]?\d)?/gi,
    strength: 0.9,
  },
  // codes
  { kind: 'ICD10', re: /(?<![\w.])[A-TV-Z]\d[0-9AB](?:\.[0-9A-Z]{1,4})?(?![\w])/g, strength: 0.9 },
  { kind: 'DRG', re: /\b(?:(?:MS|MY|AP|AR|IR)-)?DRG[ \t]*(?:no\.?|number|code)?[ \t]*:?[ \t]*(?:[A-Z]-?)?\d{1,4}(?:-[0-9A-Z]{1,3})*\b/gi, strength: 0.95 },
  { kind: 'DRG', re: /\b(?:MDC|CMG)[ \t]*:?[ \t]*\d{1,3}\b/g, strength: 0.95 },
  // ward / bed
  {
    kind: 'WARD_BED',
    re: /\b(?:Ward|Wad|Bed|Katil|Bay|Cubicle|Bilik|Room|Unit|Level|Aras|Tingkat|Blok|Block)[ \t]*:?[ \t]*(?:No\.?[ \t]*)?[A-Z]?\d{1,3}[A-Z]?\b/gi,
    strength: 0.9,
  },
  { kind: 'WARD_BED', re: /\b(?:ICU|HDU|CCU|CICU|CRW|PICU|NICU|SCN|MICU|SICU|NHDU|ED|ETD|OT)[ \t]+(?:bed|katil)[ \t]*\d{1,3}\b/gi, strength: 0.9 },
  // a named ward with its bed number glued ("Kenanga-30", "Orkid-12"), or abbreviated ("W.Teratai", "Wd Mawar")
  { kind: 'WARD_BED', re: /\b\p{Lu}\p{Ll}{2,15}-\d{1,3}[A-Z]?\b/gu, strength: 0.9 },
  { kind: 'WARD_BED', re: /\b(?:W|Wd|Wad)\.[ \t]?\p{Lu}[\p{L}]{2,15}(?:[ \t/]\d{1,3})?/gu, strength: 0.9 },
  // a named ward right before its bed ("Dahlia bed 6", "MW2 Bed 1", "Wad Mawar 2 Bed 12"): the name is the ward's
  {
    kind: 'WARD_BED',
    re: /\b\p{Lu}[\p{L}\d]{1,15}(?:[ \t]\d{1,2}[A-Z]?)?[ \t]+(?:[Bb]ed|BED|[Kk]atil|KATIL)[ \t]*(?:no\.?[ \t]*)?\d{1,3}[A-Z]?\b/gu,
    strength: 0.9,
  },
];

function isPcs(s: string): boolean {
  if (!/^[0-9BCDFGHX][0-9A-HJ-NP-Z]{6}$/.test(s)) return false;
  const letters = s.replace(/[^A-Z]/g, '').length;
  const digits = 7 - letters;
  return letters >= 1 && digits >= 1 && (/^\d/.test(s) || letters >= 2);
}

/** Head nouns after which a capitalised word is an eponym, whatever the word. */
const STRONG_EPONYM_HEADS = new Set([
  'disease',
  'diseases',
  'syndrome',
  'syndromes',
  'sign',
  'signs',
  'palsy',
  'phenomenon',
  'reflex',
  'reflexes',
  'tumour',
  'tumor',
  'lymphoma',
  'sarcoma',
  'carcinoma',
  'anomaly',
  'dystrophy',
  'encephalopathy',
  'neuralgia',
  'neuropathy',
  'hernia',
  'ataxia',
  'chorea',
  'dementia',
  'psychosis',
  'thyroiditis',
  'triad',
  'tetralogy',
  'contracture',
  'deformity',
  'paralysis',
  'aphasia',
  'angina',
  'pupil',
  'ulcer',
  'fracture',
  'disorder',
  'granuloma',
  'myopathy',
  'nephritis',
  'keratitis',
  // anatomy and manoeuvres named after people (a person's possessive is implausible before them)
  'pouch',
  'manoeuvre',
  'maneuver',
  'triangle',
  'ligament',
  'canal',
  'duct',
  'criteria',
  'classification',
  'incision',
]);
/** "<head> of <Name>": pouch of Douglas, circle of Willis, loop of Henle, ligament of Treitz, islets of Langerhans. */
const EPONYM_OF_HEADS = new Set([
  'pouch',
  'circle',
  'loop',
  'ligament',
  'islets',
  'islet',
  'canal',
  'ampulla',
  'sphincter',
  'tetralogy',
  'space',
  'triangle',
  'crypts',
  'organ',
  'duct',
  'canals',
  'bundle',
  'node',
  'angle',
  'foramen',
  'fissure',
  'tubercle',
  'fossa',
]);
const DRUG_CUES = new Set([
  't',
  'tab',
  'tabs',
  'tablet',
  'inj',
  'injection',
  'cap',
  'caps',
  'syp',
  'syr',
  'iv',
  'po',
  'im',
  'sc',
  'neb',
  'supp',
  'mist',
  'ivi',
  'ivd',
  'infusion',
  'drip',
  'ubat',
]);
const NAMED_WARD_HEAD = new Set(['ward', 'wad', 'wing', 'unit']);

/** Gazetteer-driven regions: institutions, places, eponyms, drug names, named wards. */
function gazetteerRegions(text: string, toks: Token[], norms: readonly string[], lex: Gazetteer, out: ProtectedSpan[], lowerLines?: Uint8Array): void {
  // in lines typed without capitals, phrase words count as capitalised unless they are ordinary vocabulary
  const isCap = (t: Token) =>
    t.shape === 'cap' ||
    t.shape === 'upper' ||
    t.shape === 'initial' ||
    (t.shape === 'lower' &&
      lowerLines !== undefined &&
      lowerLines[t.line] === 1 &&
      !(t.flags & (F.COMMON | F.CLINICAL) && !(t.flags & (F.PHRASE_START | NAME_FLAGS))));
  const joinable = (k: number) => k > 0 && inlineGap(text, toks[k - 1], toks[k]);
  const isTitleAt = (k: number) => lex.titles.longestAt(norms, k, joinable) > 0 && (toks[k].flags & F.TITLE) !== 0;
  const n = toks.length;
  for (let i = 0; i < n; i++) {
    const t = toks[i];
    if (t.shape === 'num' || t.shape === 'punct') continue;
    if (
      !(t.flags & (F.PHRASE_START | F.EPONYM)) &&
      !NAMED_WARD_HEAD.has(t.norm) &&
      !(isCap(t) && i > 0 && DRUG_CUES.has(toks[i - 1].norm)) &&
      !(isCap(t) && i + 1 < n && (toks[i + 1].shape === 'num' || STRONG_EPONYM_HEADS.has(toks[i + 1].norm))) &&
      !(t.shape === 'cap' && i >= 2 && toks[i - 1].norm === 'of' && EPONYM_OF_HEADS.has(toks[i - 2].norm))
    )
      continue;
    // whole institution names (HKL, Maybank, Columbia Asia)
    const nm = isCap(t) ? lex.institutionNames.longestAt(norms, i, joinable) : 0;
    if (nm) {
      out.push({ start: t.start, end: toks[i + nm - 1].end, kind: 'ORG', strength: 0.95, personOnly: true });
    }
    // institution heads: Hospital X Y, Klinik Kesihatan X, Bank X
    const hd = isCap(t) ? lex.institutionHeads.longestAt(norms, i, joinable) : 0;
    if (hd) {
      let j = i + hd;
      let last = i + hd - 1;
      while (j < n) {
        const u = toks[j];
        const prev = toks[j - 1];
        if (!inlineGap(text, prev, u) && !(prev.text === "'" || text.slice(prev.end, u.start) === "'")) break;
        if (isTitleAt(j) && !(u.flags & NAME_FLAGS)) break;
        if (u.norm === 'dr' || u.norm === 'sn' || u.norm === 'prof') break;
        if (isCap(u) || u.shape === 'num' || u.norm === 'of' || u.norm === 'and' || u.norm === 'de' || u.text === '&') {
          if (u.shape === 'num' && !/^\d{1,2}$/.test(u.text)) break;
          if (isCap(u) || u.shape === 'num') last = j;
          j++;
          if (j - i > 9) break;
          continue;
        }
        break;
      }
      if (last >= i + hd || hd > 1) out.push({ start: t.start, end: toks[last].end, kind: 'HOSPITAL', strength: 0.95, personOnly: true });
    }
    // place heads: Kampung Sungai Lui, Ulu Skrang, Jalan Tun Razak, Taman Sri Muda 2 (titles belong to street names)
    const ph = isCap(t) ? lex.placeHeads.longestAt(norms, i, joinable) : 0;
    if (ph) {
      let j = i + ph;
      let last = -1;
      while (j < n && j - (i + ph) < 4 && inlineGap(text, toks[j - 1], toks[j])) {
        const u = toks[j];
        if (isCap(u) || (u.shape === 'num' && /^\d{1,3}[A-Z]?$/.test(u.text) && last >= 0)) {
          last = j;
          j++;
          continue;
        }
        break;
      }
      if (last >= 0) out.push({ start: t.start, end: toks[last].end, kind: 'PLACE', strength: 0.9, personOnly: true });
    }
    // institution tails: Sunway Medical Centre, Gleneagles Hospital
    // (not when the word opened an institution name forward: "Klinik Pakar Pediatrik" is head-first, and the capitalised
    // words before it are somebody else's: "<NAME BINTI NAME> Klinik Pakar ...")
    const tl = isCap(t) && !(hd && out.length && out[out.length - 1].start === t.start) ? lex.institutionTails.longestAt(norms, i, joinable) : 0;
    if (tl && i > 0) {
      let k = i;
      const shape = (u: Token) => (u.shape === 'upper' ? 'upper' : 'cap');
      while (
        k > 0 &&
        i - k < 5 &&
        isCap(toks[k - 1]) &&
        inlineGap(text, toks[k - 1], toks[k]) &&
        !isTitleAt(k - 1) &&
        !(toks[k - 1].flags & F.CONNECTOR) &&
        (k === i || shape(toks[k - 1]) === shape(toks[k]))
      )
        k--;
      if (k < i) out.push({ start: toks[k].start, end: toks[i + tl - 1].end, kind: 'HOSPITAL', strength: 0.95, personOnly: true });
    }
    // places (Kuala Lumpur, George Town, Ipoh)
    const pl = isCap(t) ? lex.places.longestAt(norms, i, joinable) : 0;
    if (pl) {
      const allName = pl === 1 && (t.flags & NAME_FLAGS) !== 0;
      // multi-word places (Kuala Lumpur) are strong; a one-word place that is also a personal name is weak
      out.push({ start: t.start, end: toks[i + pl - 1].end, kind: 'PLACE', strength: allName ? 0.6 : pl > 1 ? 0.9 : 0.8, personOnly: true });
    }
    // eponyms: X disease / X's sign / X catheter; standalone eponyms that are not also personal names
    if (isCap(t) && t.flags & F.EPONYM) {
      let j = i;
      // chains such as Guillain-Barre are single tokens; "Wolff Parkinson White" as separate words
      while (j + 1 < n && j - i < 3 && toks[j + 1].flags & F.EPONYM && isCap(toks[j + 1]) && inlineGapDot(text, toks[j], toks[j + 1])) j++;
      const next = toks[j + 1];
      const gapOk = next && (inlineGap(text, toks[j], next) || (toks[j].possessive && /^['\u2019][sS][ \t]+$/.test(text.slice(toks[j].end, next.start))));
      if (next && gapOk && next.flags & F.EPONYM_HEAD) {
        out.push({ start: t.start, end: next.end, kind: 'EPONYM', strength: 0.95, personOnly: true });
      } else if (!(t.flags & NAME_FLAGS)) {
        // standalone eponym (Parkinson's, Foley in situ): below a titled name's score, so "Dr. Grace" still wins
        out.push({ start: t.start, end: toks[j].end + (toks[j].possessive ? 2 : 0), kind: 'EPONYM', strength: 0.8, personOnly: true });
      }
    }
    // any capitalised word before a strong eponym head ("Evans syndrome", "Leigh's disease", "Fuchs' dystrophy"), even
    // when the word is not in the eponym list: weaker than a name with a title or a label (0.85 ties go to the name)
    if (
      t.shape === 'cap' &&
      !(t.flags & (F.TITLE | F.EPONYM)) &&
      i + 1 < n &&
      STRONG_EPONYM_HEADS.has(toks[i + 1].norm) &&
      !(i > 0 && toks[i - 1].flags & F.TITLE && inlineGapDot(text, toks[i - 1], t))
    ) {
      const gap = text.slice(t.end, toks[i + 1].start);
      if (/^(?:['\u2019]s?)?[ \t]{1,2}$/.test(gap)) out.push({ start: t.start, end: toks[i + 1].end, kind: 'EPONYM', strength: 0.85, personOnly: true });
    }
    if (
      t.shape === 'cap' &&
      i >= 2 &&
      toks[i - 1].norm === 'of' &&
      EPONYM_OF_HEADS.has(toks[i - 2].norm) &&
      toks[i - 2].line === t.line &&
      /^[ \t]{1,2}$/.test(text.slice(toks[i - 1].end, t.start))
    ) {
      out.push({ start: toks[i - 2].start, end: t.end, kind: 'EPONYM', strength: 0.95, personOnly: true });
    }
    // drug names after a route/form cue (T. Cardiprin, Inj. Tazocin) or before a dose (Zinnat 250mg)
    if (isCap(t) && !(t.flags & NAME_FLAGS) && i > 0 && DRUG_CUES.has(toks[i - 1].norm) && inlineGapDot(text, toks[i - 1], t)) {
      out.push({ start: t.start, end: t.end, kind: 'DRUG', strength: 0.9, personOnly: true });
    }
    if (isCap(t) && i + 1 < n && toks[i + 1].shape === 'num' && inlineGap(text, t, toks[i + 1])) {
      const after = text.slice(toks[i + 1].start, toks[i + 1].start + 12);
      if (/^\d+(?:\.\d+)?[ \t]?(?:mg|mcg|g|ml|iu|u|units?)\b/i.test(after) && !(t.flags & NAME_FLAGS)) {
        out.push({ start: t.start, end: t.end, kind: 'DRUG', strength: 0.9, personOnly: true });
      }
    }
    // named wards: Wad Orkid 5, Ward Kenanga
    if (NAMED_WARD_HEAD.has(t.norm) && i + 1 < n && isCap(toks[i + 1]) && inlineGap(text, t, toks[i + 1]) && !isTitleAt(i + 1)) {
      let j = i + 1;
      if (j + 1 < n && toks[j + 1].shape === 'num' && inlineGap(text, toks[j], toks[j + 1])) j++;
      out.push({ start: t.start, end: toks[j].end, kind: 'WARD_BED', strength: 0.9, personOnly: true });
    }
  }
}

export function findClinicalSpans(
  text: string,
  toks: Token[],
  lex: Gazetteer,
  norms: readonly string[] = toks.map((t) => t.norm),
  lowerLines?: Uint8Array,
): ProtectedSpan[] {
  const out: ProtectedSpan[] = [];
  for (const r of CLINICAL_RULES) {
    r.re.lastIndex = 0;
    for (const m of text.matchAll(r.re)) {
      if (!m[0].trim()) continue;
      out.push({ start: m.index, end: m.index + m[0].length, kind: r.kind, strength: r.strength });
    }
  }
  for (const m of text.matchAll(/(?<![\w])[0-9BCDFGHX][0-9A-HJ-NP-Z]{6}(?![\w])/g)) {
    if (isPcs(m[0])) out.push({ start: m.index, end: m.index + 7, kind: 'ICD10_PCS', strength: 0.9 });
  }
  gazetteerRegions(text, toks, norms, lex, out, lowerLines);
  // a town after a postcode ("32265 Seri Manjung, Perak", "50586 Kuala Lumpur"): an address, not a person
  for (const m of text.matchAll(/(?<![\w-])\d{5}[ \t]+(\p{Lu}[\p{L}'-]*(?:[ \t]\p{Lu}[\p{L}'-]*){0,3})/gu)) {
    const s = m.index + m[0].length - m[1].length;
    out.push({ start: s, end: s + m[1].length, kind: 'PLACE', strength: 0.9, personOnly: true });
  }
  return out;
}
