/**
 * Procedures: how operations are written → ICD-10-PCS title wording ("<Root operation> <body part>, <approach>").
 * The approach comes from the words around the mention (laparoscopic → Percutaneous Endoscopic, endoscopic via a
 * natural opening, percutaneous, open by default for open surgery), the side from left/right. Diagnostic imaging
 * and plain diagnostic endoscopy are not coded here.
 */
import { sideTitle, t, type ConceptContext, type PrConcept, type Target } from './types';

function approach(c: ConceptContext, fallback: 'Open' | 'Percutaneous' | 'Percutaneous Endoscopic' = 'Open'): string {
  if (c.has(/\b(?:lap(?:aroscopic)?|laparoscopically|keyhole|thoracoscopic|vats|arthroscopic|endoscopic assisted)\b/)) return 'Percutaneous Endoscopic';
  if (c.has(/\b(?:open|laparotomy|converted to open)\b/)) return 'Open';
  if (c.has(/\bpercutaneous(?:ly)?\b/)) return 'Percutaneous';
  return fallback;
}

function count(c: ConceptContext, noun: RegExp): number {
  const words: Record<string, number> = { one: 1, single: 1, two: 2, double: 2, three: 3, triple: 3, four: 4, five: 5 };
  const m = new RegExp(`\\b(\\d|one|single|two|double|three|triple|four|five)\\s*(?:x\\s*)?(?:[a-z-]+\\s+){0,2}${noun.source}`).exec(c.clause);
  if (!m) return 1;
  const n = /^\d$/.test(m[1]!) ? Number(m[1]) : (words[m[1]!] ?? 1);
  return Math.max(1, Math.min(4, n));
}

const ARTERIES = ['One Artery', 'Two Arteries', 'Three Arteries', 'Four or More Arteries'];
const DEVICES = ['', 'Two ', 'Three ', 'Four or More '];

function pciTargets(c: ConceptContext): Target {
  const stents = /\b(?:stents?|des|bms|stenting|stented)\b/.test(c.clause);
  const dcb = c.has(/\b(?:drug[- ]coated balloon|dcb)\b/);
  // vessels treated: named after "to/in/into" a stent or balloon, or as "<vessel> stented/dilated"
  const treated = [
    ...c.clause.matchAll(
      /\b(?:to|in|into)\s+(?:the\s+)?(?:proximal\s+|mid\s+|distal\s+|ostial\s+|ostio-?proximal\s+)?(lad|rca|lcx|circumflex|left main|om\d?|diagonal|d\d|ramus|pda)\b/g,
    ),
    ...c.clause.matchAll(/\b(lad|rca|lcx|circumflex|left main|om\d?|diagonal|d\d|ramus|pda)\s+(?:was\s+|were\s+)?(?:stented|dilated|ballooned|treated)\b/g),
  ].map((m) => m[1]!.replace(/\d/, ''));
  // "two-vessel PCI", "3 vessels": the count without names
  const said = /\b(\d|one|single|two|double|three|triple|four)[- ](?:vessel|arter(?:y|ies))\b/.exec(c.clause)?.[1];
  const WORDS: Record<string, number> = { one: 1, single: 1, two: 2, double: 2, three: 3, triple: 3, four: 4 };
  const saidN = said ? (/^\d$/.test(said) ? Number(said) : WORDS[said]) : undefined;
  const arteries = Math.max(1, Math.min(4, new Set(treated).size || saidN || 1));
  const arteriesKnown = treated.length > 0 || saidN !== undefined;
  const within = ['0270', '0271', '0272', '0273'];
  // nDev: devices placed (the note's count; for an alternative artery count, one device per artery)
  const build = (nArt: number, device: 'none' | 'drug' | 'bare', nDev?: number) => {
    const a = ARTERIES[nArt - 1]!;
    if (device === 'none') return t(`Dilation of Coronary Artery, ${a}, Percutaneous Approach`, ...within);
    const n = count(c, /(?:drug[- ]eluting stents?|des|stents?|bms)/);
    const dev = `${DEVICES[Math.min(nDev ?? n, nDev ? 4 : nArt > 1 ? 1 : 4) - 1] ?? ''}`;
    const noun = `${dev}${device === 'drug' ? 'Drug-eluting ' : ''}Intraluminal Device${dev ? 's' : ''}`;
    return t(`Dilation of Coronary Artery, ${a} with ${noun}, Percutaneous Approach`, ...within);
  };
  const typeStated = /\b(?:drug[- ]eluting|des|bare[- ]metal|bms)\b/.test(c.clause);
  const device: 'none' | 'drug' | 'bare' =
    !stents || dcb ? 'none' : /\b(?:drug[- ]eluting|des)\b/.test(c.clause) || !/\b(?:bare[- ]metal|bms)\b/.test(c.clause) ? 'drug' : 'bare';
  const target = build(arteries, device);
  const assumptions: NonNullable<Target['assumptions']> = [];
  if (device !== 'none' && !typeStated) {
    assumptions.push({
      about: 'stent type',
      assumed: 'drug-eluting (the note does not say drug-eluting or bare-metal; most coronary stents are drug-eluting)',
      alternatives: [{ label: 'bare-metal stent', target: build(arteries, 'bare') }],
    });
  }
  if (!arteriesKnown) {
    assumptions.push({
      about: 'number of arteries treated',
      assumed: 'one artery (the note names no treated vessel and no vessel count)',
      // PCS: 4th character 0-3 = one to four or more arteries; 6th = the device (4-7 drug-eluting, D-G intraluminal, Z none, by count)
      alternatives: [2, 3, 4].map((k) => {
        const sixth = device === 'none' ? 'Z' : device === 'drug' ? '4567'[k - 1]! : 'DEFG'[k - 1]!;
        const target = build(k, device, k);
        return {
          label: `${ARTERIES[k - 1]!.toLowerCase()}${device === 'none' ? '' : ', one stent each'}`,
          target: { ...target, within: [`027${k - 1}3${sixth}`] },
        };
      }),
    });
  }
  return assumptions.length ? { ...target, assumptions } : target;
}

function colonResection(c: ConceptContext): Target {
  const s = c.clause;
  const ap = approach(c, 'Open');
  if (/\bright hemicolectomy|extended right\b/.test(s)) return t(`Resection of Right Large Intestine, ${ap} Approach`, '0DTF');
  if (/\bleft hemicolectomy\b/.test(s)) return t(`Resection of Left Large Intestine, ${ap} Approach`, '0DTG');
  if (/\btransverse colectomy\b/.test(s)) return t(`Resection of Transverse Colon, ${ap} Approach`, '0DTL');
  if (/\b(?:total|subtotal) colectomy\b/.test(s)) return t(`Resection of Large Intestine, ${ap} Approach`, '0DTE');
  if (/\b(?:low anterior resection|ultra-?low anterior|abdominoperineal|apr\b|lar\b|proctectomy)/.test(s))
    return t(`Resection of Rectum, ${ap} Approach`, '0DTP');
  if (/\b(?:anterior resection|sigmoid colectomy|sigmoidectomy|hartmann)/.test(s)) return t(`Resection of Sigmoid Colon, ${ap} Approach`, '0DTN');
  return t(`Resection of Large Intestine, ${ap} Approach`, '0DTE', '0DTF', '0DTG', '0DTN');
}

function hipReplacement(c: ConceptContext): Target {
  const side = sideTitle(c);
  const cement = c.has(/\buncemented|cementless|press[- ]fit\b/) ? ', Uncemented' : c.has(/\bcemented\b/) ? ', Cemented' : '';
  if (c.has(/\b(?:hemi-?arthroplasty|bipolar|austin[- ]moore|thompson|unipolar|femoral head replacement|hemiarthroplasty)\b/)) {
    return t(`Replacement of ${side} Hip Joint, Femoral Surface with Synthetic Substitute${cement}, Open Approach`, side === 'Left' ? '0SRS' : '0SRR');
  }
  return t(`Replacement of ${side} Hip Joint with Synthetic Substitute${cement}, Open Approach`, side === 'Left' ? '0SRB' : '0SR9');
}

const BONES: Array<[RegExp, string, string]> = [
  // pattern, PCS body part (with side placeholder), code prefixes right|left
  [/\b(?:distal )?radius|radial\b/, 'Radius', '0PSH|0PSJ'],
  [/\bulna\b/, 'Ulna', '0PSK|0PSL'],
  [/\b(?:proximal humerus|humeral head|surgical neck)\b/, 'Humeral Head', '0PSC|0PSD'],
  [/\bhumer(?:us|al)\b/, 'Humeral Shaft', '0PSF|0PSG'],
  [/\bclavicle\b/, 'Clavicle', '0PSB|0PS9'],
  [/\b(?:lateral malleol\w*|fibula)\b/, 'Fibula', '0QSJ|0QSK'],
  [/\b(?:medial malleol\w*|tibia|tibial|plateau)\b/, 'Tibia', '0QSG|0QSH'],
  [/\b(?:ankle)\b/, 'Fibula', '0QSJ|0QSK'],
  [/\b(?:neck of femur|nof|hip|intertrochanteric|trochanteric|subtrochanteric|upper femur|proximal femur)\b/, 'Upper Femur', '0QS6|0QS7'],
  [/\b(?:femur|femoral shaft)\b/, 'Femoral Shaft', '0QS8|0QS9'],
  [/\bpatella\b/, 'Patella', '0QSD|0QSF'],
  [/\bmetacarpal\b/, 'Metacarpal', '0PSN|0PSP'],
];

/** One reposition per bone fixed ("lateral malleolus plated, medial malleolus screwed" = fibula and tibia). */
function fixation(c: ConceptContext): Target[] | null {
  const s = c.clause;
  const side = sideTitle(c);
  const out: Target[] = [];
  const parts = new Set<string>();
  for (const [re, part, codes] of BONES) {
    if (!re.test(s) || parts.has(part)) continue;
    if (re.source.includes('ankle') && parts.size) continue;
    parts.add(part);
    const [r, l] = codes.split('|') as [string, string];
    const nail = /\b(?:nail|nailing|intramedullary|im nail|pfna|gamma nail|tens|k-?wires?)\b/.test(s) && !/\bplate\b/.test(s);
    const percut = /\b(?:percutaneous|closed reduction)\b/.test(s) && !/\bopen reduction\b/.test(s);
    const device = nail && !/k-?wire/.test(s) ? 'Intramedullary Internal Fixation Device' : 'Internal Fixation Device';
    out.push(t(`Reposition ${side} ${part} with ${device}, ${percut ? 'Percutaneous' : 'Open'} Approach`, side === 'Left' ? l : r));
  }
  return out.length ? out : null;
}

function drainagePleura(c: ConceptContext, device: boolean): Target {
  const side = sideTitle(c);
  return t(`Drainage of ${side} Pleural Cavity${device ? ' with Drainage Device' : ''}, Percutaneous Approach`, side === 'Left' ? '0W9B' : '0W99');
}

export const PROCEDURES: PrConcept[] = [
  {
    id: 'appendicectomy',
    terms: ['(?:lap(?:aroscopic)? |open )?appendi(?:c)?ectomy', 'lap(?:aroscopic)? appendix'],
    target: (c) => t(`Resection of Appendix, ${approach(c, 'Open')} Approach`, '0DTJ'),
  },
  {
    id: 'cholecystectomy',
    terms: ['(?:lap(?:aroscopic)? |open )?cholecystectomy', 'lap(?:aroscopic)? chole'],
    target: (c) => t(`Resection of Gallbladder, ${approach(c, /\bopen\b/.test(c.clause) ? 'Open' : 'Percutaneous Endoscopic')} Approach`, '0FT4'),
  },
  {
    id: 'colectomy',
    terms: [
      '(?:lap(?:aroscopic)? |open |extended )?(?:right |left )?hemicolectomy',
      '(?:lap(?:aroscopic)? |open )?(?:high |low |ultra-?low )?anterior resection',
      '(?:lap(?:aroscopic)? |open )?(?:sigmoid|total|subtotal|transverse) colectomy',
      'sigmoidectomy',
      "hartmann'?s(?: procedure| operation)?",
      'abdominoperineal resection',
      'colectomy',
    ],
    abbr: ['LAR', 'APR'],
    target: colonResection,
  },
  {
    id: 'small_bowel_resection',
    terms: ['small bowel resection', '(?:segmental )?resection of (?:the )?small (?:bowel|intestine)', 'ileal resection'],
    target: (c) => t(`Resection of Small Intestine, ${approach(c)} Approach`, '0DT8', '0DB8'),
  },
  {
    id: 'hernia_repair',
    terms: [
      '(?:lap(?:aroscopic)? |open )?(?:right |left |bilateral )?inguinal hernia (?:repair|mesh repair|hernioplasty|herniorrhaphy)',
      "(?:lichtenstein|shouldice|bassini)(?:'?s)?(?: repair| hernioplasty)?",
      '(?:inguinal )?hernioplasty',
      'herniorrhaphy',
      'tapp',
      'tep repair',
      '(?:mesh )?repair of (?:the )?(?:right |left )?inguinal hernia',
    ],
    target: (c) => {
      const mesh = c.has(/\b(?:mesh|lichtenstein|hernioplasty|tapp|tep|prolene|polypropylene)\b/);
      const bilat = c.side === 'bilateral' || c.has(/\bbilateral\b/);
      const ap = approach(c, c.has(/\b(?:tapp|tep)\b/) ? 'Percutaneous Endoscopic' : 'Open');
      const region = bilat ? 'Bilateral Inguinal Region' : `${sideTitle(c)} Inguinal Region`;
      const codes = bilat ? ['0YUA', '0YQA'] : c.side === 'left' ? ['0YU6', '0YQ6'] : ['0YU5', '0YQ5'];
      return mesh ? t(`Supplement ${region} with Synthetic Substitute, ${ap} Approach`, codes[0]!) : t(`Repair ${region}, ${ap} Approach`, codes[1]!);
    },
  },
  {
    id: 'umbilical_hernia_repair',
    terms: [
      '(?:para-?)?umbilical hernia (?:repair|mesh repair)',
      '(?:incisional|ventral) hernia (?:repair|mesh repair)',
      'mesh repair of (?:the )?(?:incisional|ventral|umbilical) hernia',
    ],
    target: (c) =>
      c.has(/\bmesh\b/)
        ? t(`Supplement Abdominal Wall with Synthetic Substitute, ${approach(c)} Approach`, '0WUF')
        : t(`Repair Abdominal Wall, ${approach(c)} Approach`, '0WQF'),
  },
  {
    id: 'adhesiolysis',
    terms: ['adhesiolysis', 'division of adhesions', 'release of adhesions'],
    target: (c) => t(`Release Peritoneum, ${approach(c)} Approach`, '0DNW'),
  },
  {
    id: 'exploratory_laparotomy',
    terms: ['exploratory laparotomy', 'explorative laparotomy', 'diagnostic laparoscopy', 'exploratory laparoscopy'],
    abbr: ['EXLAP'],
    target: (c) => t(`Inspection of Peritoneal Cavity, ${/laparoscop/.test(c.mention) ? 'Percutaneous Endoscopic' : 'Open'} Approach`, '0WJG'),
  },
  {
    id: 'ulcer_repair',
    terms: ['(?:omental |graham )patch(?: repair)?', 'repair of (?:the )?perforated (?:duodenal |gastric |peptic )?ulcer', 'perforation repair'],
    target: (c) =>
      c.has(/\bgastric|stomach\b/) ? t(`Repair Stomach, ${approach(c)} Approach`, '0DQ6') : t(`Repair Duodenum, ${approach(c)} Approach`, '0DQ9'),
  },
  {
    id: 'endoscopic_haemostasis',
    terms: [
      '(?:ogds|egd|endoscopy|gastroscopy|oesophagogastroduodenoscopy|esophagogastroduodenoscopy)(?:[^.;\\n]|\\.(?=\\d)){0,120}?(?:adrenaline|epinephrine|injection|clip|haemoclip|hemoclip|haemostasis|hemostasis|thermal|heater probe|apc|argon)',
      'endoscopic (?:haemostasis|hemostasis)',
      '(?:haemo|hemo)clips?(?: applied)?',
    ],
    target: () => t('Control Bleeding in Gastrointestinal Tract, Via Natural or Artificial Opening Endoscopic', '0W3P'),
  },
  {
    id: 'variceal_banding',
    terms: ['(?:variceal |o?esophageal )?band(?:ing)? ligation', 'variceal banding', 'evl'],
    abbr: ['EVL'],
    target: () => t('Occlusion of Esophageal Vein with Extraluminal Device, Via Natural or Artificial Opening Endoscopic', '06L3'),
  },
  {
    id: 'ercp_stone',
    terms: [
      'ercp(?:[^.;\\n]|\\.(?=\\d)){0,80}?(?:stone extraction|stone removal|sweep|clearance|balloon trawl|basket)',
      '(?:cbd|common bile duct) (?:stone extraction|clearance|exploration)',
    ],
    target: (c) =>
      t(
        `Extirpation of Matter from Common Bile Duct, ${/exploration/.test(c.mention) ? 'Open Approach' : 'Via Natural or Artificial Opening Endoscopic'}`,
        '0FC9',
      ),
  },
  {
    id: 'ercp_stent',
    terms: ['ercp(?:[^.;\\n]|\\.(?=\\d)){0,80}?stent(?:ing)?', 'biliary stent(?:ing)?', '(?:cbd|common bile duct) stent(?:ing)?'],
    target: () => t('Dilation of Common Bile Duct with Intraluminal Device, Via Natural or Artificial Opening Endoscopic', '0F79'),
  },
  {
    id: 'peg',
    terms: ['percutaneous endoscopic gastrostomy', 'peg (?:tube )?insertion', 'peg tube'],
    abbr: ['PEG'],
    target: () => t('Insertion of Feeding Device into Stomach, Percutaneous Endoscopic Approach', '0DH6'),
  },

  /* cardiovascular */
  {
    id: 'pci',
    terms: [
      'percutaneous coronary intervention',
      'primary pci',
      'pci',
      'ptca',
      'coronary angioplasty',
      'coronary stent(?:ing)?',
      '(?:des|drug[- ]eluting stents?|bare[- ]metal stents?) (?:to|in|into) (?:the )?(?:proximal |mid |distal |ostial )?(?:lad|rca|lcx|left main|circumflex|om|diagonal)',
    ],
    abbr: ['PCI', 'PTCA', 'POBA'],
    target: pciTargets,
  },
  {
    id: 'cabg',
    terms: ['coronary artery bypass(?: graft(?:ing|s)?)?', 'cabg(?:\\s*x\\s*\\d)?'],
    abbr: ['CABG'],
    target: (c) => {
      const m = /\bcabg\s*x\s*(\d)|\b(\d|one|two|three|four)\s*(?:vessel|grafts?)\b/.exec(c.clause);
      const words: Record<string, number> = { one: 1, two: 2, three: 3, four: 4 };
      const n = m ? Number(m[1] ?? words[m[2]!] ?? m[2]) || 1 : 1;
      const lima = c.has(/\b(?:lima|left internal mammary)\b/);
      const veins = Math.max(1, lima ? n - 1 : n);
      const out: Target[] = [
        t(
          `Bypass Coronary Artery, ${ARTERIES[Math.min(4, veins) - 1]} from Aorta with Autologous Venous Tissue, Open Approach`,
          '0210',
          '0211',
          '0212',
          '0213',
        ),
      ];
      if (lima) out.unshift(t('Bypass Coronary Artery, One Artery from Left Internal Mammary, Open Approach', '0210'));
      return lima && n === 1 ? out[0]! : out;
    },
  },
  {
    id: 'pacemaker',
    terms: [
      '(?:dual[- ]chamber |single[- ]chamber )?(?:permanent )?pacemaker (?:implantation|insertion|implant)',
      '(?:ppm|pacemaker) (?:was )?(?:implanted|inserted)',
      'implantation of (?:a )?(?:dual[- ]chamber |single[- ]chamber )?(?:permanent )?pacemaker',
    ],
    abbr: ['PPM'],
    target: (c) => {
      const dual = c.has(/\b(?:dual[- ]chamber|ddd\w*|dual)\b/);
      const crt = c.has(/\b(?:crt|biventricular|cardiac resynchronization)\b/);
      if (crt) return t('Insertion of Cardiac Resynchronization Pacemaker Pulse Generator into Chest Subcutaneous Tissue and Fascia, Open Approach', '0JH6');
      const gen = t(`Insertion of Pacemaker, ${dual ? 'Dual Chamber' : 'Single Chamber'} into Chest Subcutaneous Tissue and Fascia, Open Approach`, '0JH6');
      const rv = t('Insertion of Pacemaker Lead into Right Ventricle, Percutaneous Approach', '02HK');
      const ra = t('Insertion of Pacemaker Lead into Right Atrium, Percutaneous Approach', '02H6');
      return dual ? [gen, ra, rv] : [gen, rv];
    },
  },
  {
    id: 'icd_implant',
    terms: [
      '(?:implantable cardioverter[- ]defibrillator|aicd) (?:implantation|insertion|implant)',
      'implantation of (?:an )?(?:implantable cardioverter[- ]defibrillator|aicd)',
    ],
    abbr: ['AICD'],
    target: () => [
      t('Insertion of Defibrillator Generator into Chest Subcutaneous Tissue and Fascia, Open Approach', '0JH6'),
      t('Insertion of Defibrillator Lead into Right Ventricle, Percutaneous Approach', '02HK'),
    ],
  },
  {
    id: 'thrombolysis',
    terms: ['thromboly(?:sis|sed|tic therapy)', '(?:iv )?streptokinase', '(?:iv )?tenecteplase', '(?:iv )?alteplase', 'rt-?pa', 'tnk'],
    target: () => t('Introduction of Other Thrombolytic into Peripheral Vein, Percutaneous Approach', '3E0331'),
  },
  {
    id: 'avf',
    terms: [
      '(?:left |right )?(?:radio-?cephalic|brachio-?cephalic|brachio-?basilic) (?:av |arteriovenous )?fistula',
      '(?:av|arteriovenous) fistula (?:creation|formation)',
      'creation of (?:an? )?(?:left |right )?(?:radio-?cephalic |brachio-?cephalic )?(?:av |arteriovenous )fistula',
    ],
    abbr: ['AVF'],
    target: (c) =>
      c.has(/\bbrachio-?(?:cephalic|basilic)\b/)
        ? t(`Bypass ${sideTitle(c, 'Left')} Brachial Artery to Upper Arm Vein, Open Approach`, c.side === 'right' ? '0317' : '0318')
        : t(`Bypass ${sideTitle(c, 'Left')} Radial Artery to Lower Arm Vein, Open Approach`, c.side === 'right' ? '031B' : '031C'),
  },
  {
    id: 'amputation',
    terms: [
      '(?:left |right )?(?:below[- ]knee|above[- ]knee|transmetatarsal|ray|toe|digit|forefoot) amputation',
      'amputation of (?:the )?(?:left |right )?(?:\\w+ )?(?:toe|leg|foot|big toe|hallux)',
      'disarticulation',
    ],
    abbr: ['BKA', 'AKA'],
    target: (c) => {
      const s = c.clause + ' ' + c.mention;
      const side = sideTitle(c);
      if (/\bbelow[- ]knee|bka\b/.test(s)) return t(`Detachment at ${side} Lower Leg, Mid, Open Approach`, side === 'Left' ? '0Y6J' : '0Y6H');
      if (/\babove[- ]knee|aka\b/.test(s)) return t(`Detachment at ${side} Upper Leg, Mid, Open Approach`, side === 'Left' ? '0Y6D' : '0Y6C');
      if (/\btransmetatarsal|forefoot\b/.test(s)) return t(`Detachment at ${side} Foot, Partial 1st Ray, Open Approach`, side === 'Left' ? '0Y6N' : '0Y6M');
      const toe = /\b(?:big toe|hallux|1st|first)\b/.test(s)
        ? '1st'
        : /\b(?:2nd|second)\b/.test(s)
          ? '2nd'
          : /\b(?:3rd|third)\b/.test(s)
            ? '3rd'
            : /\b(?:4th|fourth)\b/.test(s)
              ? '4th'
              : /\b(?:5th|fifth|little)\b/.test(s)
                ? '5th'
                : '1st';
      const codes: Record<string, [string, string]> = {
        '1st': ['0Y6P', '0Y6Q'],
        '2nd': ['0Y6R', '0Y6S'],
        '3rd': ['0Y6T', '0Y6U'],
        '4th': ['0Y6V', '0Y6W'],
        '5th': ['0Y6X', '0Y6Y'],
      };
      if (/\bray\b/.test(s)) return t(`Detachment at ${side} Foot, Complete ${toe} Ray, Open Approach`, side === 'Left' ? '0Y6N' : '0Y6M');
      return t(`Detachment at ${side} ${toe} Toe, Complete, Open Approach`, codes[toe]![side === 'Left' ? 1 : 0]);
    },
  },
  {
    id: 'debridement',
    terms: ['(?:surgical |sharp |excisional |wound )debridement', 'debridement(?: of (?:the )?wound)?', 'wound toilet(?:ing)?(?: and debridement)?'],
    target: (c) => {
      const side = sideTitle(c);
      const s = c.clause;
      const site = /\bfoot|toe|heel\b/.test(s)
        ? `${side} Foot`
        : /\b(?:leg|calf|shin|ankle)\b/.test(s)
          ? `${side} Lower Leg`
          : /\bthigh\b/.test(s)
            ? `${side} Upper Leg`
            : /\b(?:hand|finger)\b/.test(s)
              ? `${side} Hand`
              : /\b(?:arm|forearm)\b/.test(s)
                ? `${side} Lower Arm`
                : /\b(?:abdomen|abdominal|wound)\b/.test(s)
                  ? 'Abdomen'
                  : /\b(?:buttock|sacr\w*|gluteal)\b/.test(s)
                    ? 'Buttock'
                    : null;
      return site ? t(`Excision of ${site} Subcutaneous Tissue and Fascia, Open Approach`, '0JB') : null;
    },
  },
  {
    id: 'incision_drainage',
    terms: ['incision and drainage', 'i ?& ?d', 'drainage of (?:the )?abscess'],
    target: (c) => {
      const side = sideTitle(c);
      const s = c.clause;
      const site = /\bfoot|toe\b/.test(s)
        ? `${side} Foot`
        : /\b(?:leg|calf)\b/.test(s)
          ? `${side} Lower Leg`
          : /\bthigh\b/.test(s)
            ? `${side} Upper Leg`
            : /\b(?:buttock|gluteal)\b/.test(s)
              ? 'Buttock'
              : /\baxill\w*/.test(s)
                ? `${side} Upper Arm`
                : /\b(?:back)\b/.test(s)
                  ? 'Back'
                  : /\b(?:perianal|ischiorectal)\b/.test(s)
                    ? 'Perineum'
                    : null;
      return site ? t(`Drainage of ${site} Subcutaneous Tissue and Fascia, Open Approach`, '0J9') : null;
    },
  },

  /* musculoskeletal */
  {
    id: 'hip_replacement',
    terms: [
      '(?:total )?hip (?:replacement|arthroplasty)',
      '(?:cemented |uncemented |bipolar |unipolar )*hemi-?arthroplasty',
      'austin[- ]moore(?: prosthesis| hemiarthroplasty)?',
      'femoral head replacement',
    ],
    abbr: ['THR', 'THA'],
    target: hipReplacement,
  },
  {
    id: 'knee_replacement',
    terms: ['(?:total |unicompartmental |unicondylar )?knee (?:replacement|arthroplasty)'],
    abbr: ['TKR', 'TKA', 'UKR'],
    target: (c) => {
      const side = sideTitle(c);
      const cement = c.has(/\buncemented|cementless\b/) ? ', Uncemented' : c.has(/\bcemented\b/) ? ', Cemented' : '';
      if (/unicompartmental|unicondylar|ukr/.test(c.mention))
        return t(`Replacement of ${side} Knee Joint with Medial Unicondylar Synthetic Substitute${cement}, Open Approach`, side === 'Left' ? '0SRD' : '0SRC');
      return t(`Replacement of ${side} Knee Joint with Synthetic Substitute${cement}, Open Approach`, side === 'Left' ? '0SRD' : '0SRC');
    },
  },
  {
    id: 'hip_fixation',
    terms: [
      'dynamic hip screw',
      'proximal femoral nail(?:ing)?',
      'gamma nail(?:ing)?',
      'cannulated (?:hip )?screws?',
      'intramedullary nail(?:ing)? of (?:the )?(?:left |right )?femur',
    ],
    abbr: ['DHS', 'PFNA', 'PFN'],
    target: (c) => {
      const side = sideTitle(c);
      const nail = /\bnail|pfn/.test(c.mention + ' ' + c.clause);
      const shaft = /\bshaft\b/.test(c.clause);
      return t(
        `Reposition ${side} ${shaft ? 'Femoral Shaft' : 'Upper Femur'} with ${nail ? 'Intramedullary Internal Fixation Device' : 'Internal Fixation Device'}, Open Approach`,
        shaft ? (side === 'Left' ? '0QS9' : '0QS8') : side === 'Left' ? '0QS7' : '0QS6',
      );
    },
  },
  {
    id: 'orif',
    terms: [
      'open reduction (?:and )?internal fixation',
      'orif',
      '(?:plating|plate fixation) of (?:the )?(?:left |right )?\\w+',
      'closed reduction (?:and )?(?:percutaneous )?(?:k-?wir(?:e|ing)|pinning|fixation)',
      'crif',
      'intramedullary nail(?:ing)?',
    ],
    abbr: ['ORIF', 'CRIF'],
    target: fixation,
  },
  {
    id: 'arthrotomy_washout',
    terms: [
      '(?:arthrotomy|arthroscopic) (?:and )?(?:washout|lavage|drainage)',
      'joint washout',
      'washout of (?:the )?(?:left |right )?(?:knee|hip|ankle|shoulder)',
    ],
    target: (c) =>
      c.has(/\bknee\b/)
        ? t(`Drainage of ${sideTitle(c)} Knee Joint, ${approach(c)} Approach`, '0S9C', '0S9D')
        : c.has(/\bhip\b/)
          ? t(`Drainage of ${sideTitle(c)} Hip Joint, ${approach(c)} Approach`, '0S99', '0S9B')
          : null,
  },

  /* kidney and urinary */
  {
    id: 'ureteroscopy_lithotripsy',
    terms: [
      '(?:rigid |flexible |semi-?rigid )?ureteroscop(?:y|ic)(?:[^.;\\n]|\\.(?=\\d)){0,60}?(?:laser |pneumatic )?(?:lithotripsy|lithotrips|fragmentation|lasertripsy|litholapaxy)',
      'laser lithotripsy',
      'urs ?(?:and |\\+ ?)?(?:laser|ll|lithotripsy)',
      'intracorporeal lithotripsy',
    ],
    abbr: ['URSL'],
    target: (c) => t(`Fragmentation in ${sideTitle(c)} Ureter, Via Natural or Artificial Opening Endoscopic`, c.side === 'left' ? '0TF7' : '0TF6'),
  },
  {
    id: 'ureteric_stone_extraction',
    terms: ['(?:basket|endoscopic) (?:stone )?extraction', 'stone extraction'],
    target: (c) =>
      c.has(/\bureter\w*|urs\b/)
        ? t(`Extirpation of Matter from ${sideTitle(c)} Ureter, Via Natural or Artificial Opening Endoscopic`, c.side === 'left' ? '0TC7' : '0TC6')
        : null,
  },
  {
    id: 'dj_stent',
    terms: ['(?:insertion of (?:a )?)?(?:left |right )?(?:dj|double[- ]j|jj|ureteric|ureteral) stent(?:ing)?(?: insertion)?'],
    target: (c) =>
      c.has(/\b(?:removal|remove|removed|exchange)\b/) && !c.has(/\binsert\w*/)
        ? null
        : t(
            `Dilation of ${sideTitle(c)} Ureter with Intraluminal Device, Via Natural or Artificial Opening Endoscopic`,
            c.side === 'left' ? '0T77' : c.side === 'bilateral' ? '0T78' : '0T76',
          ),
  },
  {
    id: 'pcnl',
    terms: ['percutaneous nephrolithotomy', 'pcnl', 'percutaneous nephrolithotripsy'],
    abbr: ['PCNL'],
    target: (c) => t(`Fragmentation in ${sideTitle(c)} Kidney Pelvis, Percutaneous Approach`, c.side === 'left' ? '0TF4' : '0TF3'),
  },
  {
    id: 'nephrostomy',
    terms: ['(?:percutaneous )?nephrostomy(?: tube)?(?: insertion)?'],
    abbr: ['PCN'],
    target: (c) => t(`Drainage of ${sideTitle(c)} Kidney Pelvis with Drainage Device, Percutaneous Approach`, c.side === 'left' ? '0T94' : '0T93'),
  },
  {
    id: 'nephrectomy',
    terms: ['(?:lap(?:aroscopic)? |open |radical |partial )?nephrectomy'],
    target: (c) =>
      c.has(/\bpartial\b/)
        ? t(`Excision of ${sideTitle(c)} Kidney, ${approach(c)} Approach`, '0TB0', '0TB1')
        : t(`Resection of ${sideTitle(c)} Kidney, ${approach(c)} Approach`, '0TT0', '0TT1'),
  },
  {
    id: 'turp',
    terms: ['transurethral resection of (?:the )?prostate', 'turp'],
    abbr: ['TURP'],
    target: () => t('Resection of Prostate, Via Natural or Artificial Opening Endoscopic', '0VT0'),
  },
  {
    id: 'turbt',
    terms: ['transurethral resection of (?:the )?bladder tumou?r', 'turbt'],
    abbr: ['TURBT'],
    target: () => t('Excision of Bladder, Via Natural or Artificial Opening Endoscopic', '0TBB'),
  },
  {
    id: 'haemodialysis',
    terms: ['(?:urgent |emergency |acute )?(?:ha?emodialysis|hd session|dialysed|dialyzed|hd done)', 'sled', 'cvvh(?:df)?', 'crrt'],
    abbr: ['HD', 'SLED', 'CRRT'],
    target: (c) =>
      /\b(?:cvvh|crrt)\b/.test(c.mention)
        ? t('Performance of Urinary Filtration, Continuous, Greater than 18 Hours Per Day', '5A1D9')
        : t('Performance of Urinary Filtration, Intermittent, Less than 6 Hours Per Day', '5A1D7'),
  },

  /* respiratory */
  {
    id: 'chest_drain',
    terms: [
      '(?:left |right )?(?:chest (?:tube|drain)|intercostal (?:chest )?(?:drain|tube)|tube thoracostomy|underwater seal drain)(?: insertion)?',
      'insertion of (?:a )?(?:left |right )?(?:chest (?:tube|drain)|intercostal drain)',
    ],
    abbr: ['ICD', 'CTD', 'UWSD'],
    target: (c) => drainagePleura(c, true),
  },
  { id: 'thoracocentesis', terms: ['thoracocentesis', 'thoracentesis', 'pleural tap', 'pleural aspiration'], target: (c) => drainagePleura(c, false) },
  {
    id: 'mechanical_ventilation',
    terms: ['(?:intubated and )?(?:mechanically )?ventilated', 'mechanical ventilation', 'intubated', 'invasive ventilation'],
    target: (c) => {
      const m = /\b(\d+)\s*(hours?|hrs?|days?)\b/.exec(c.clause);
      const hours = m ? Number(m[1]) * (/day/.test(m[2]!) ? 24 : 1) : 48;
      return hours > 96
        ? t('Respiratory Ventilation, Greater than 96 Consecutive Hours', '5A1955')
        : hours >= 24
          ? t('Respiratory Ventilation, 24-96 Consecutive Hours', '5A1945')
          : t('Respiratory Ventilation, Less than 24 Consecutive Hours', '5A1935');
    },
  },
  {
    id: 'tracheostomy',
    terms: ['(?:surgical |percutaneous )?tracheostomy'],
    target: (c) => t(`Bypass Trachea to Cutaneous with Tracheostomy Device, ${c.has(/\bpercutaneous\b/) ? 'Percutaneous' : 'Open'} Approach`, '0B11'),
  },
  {
    id: 'bronchoscopy',
    terms: ['bronchoscop(?:y|ic)(?:[^.;\\n]|\\.(?=\\d)){0,60}?(?:lavage|bal)', 'bronchoalveolar lavage'],
    abbr: ['BAL'],
    target: () => t('Drainage of Lungs, Bilateral, Via Natural or Artificial Opening Endoscopic, Diagnostic', '0B9M'),
  },

  /* other */
  {
    id: 'transfusion_rbc',
    terms: [
      '(?:blood|packed (?:red )?cells?|prbc|pcv|packed cell) transfus(?:ion|ed)',
      'transfused(?: with)?(?: \\d+)?(?: units?| pints?| bags?)?(?: of)?(?: packed (?:red )?cells?| prbc| pcv| blood)?',
      '\\d+ (?:units?|pints?|bags?) (?:of )?(?:packed (?:red )?cells|prbc|pcv|blood)',
      'blood transfusion',
    ],
    target: () => t('Transfusion of Nonautologous Red Blood Cells into Peripheral Vein, Percutaneous Approach', '30233N'),
  },
  {
    id: 'transfusion_platelets',
    terms: [
      'platelet transfusion',
      'transfus(?:ed|ion of) (?:\\d+ (?:units?|bags?|pools?) (?:of )?)?platelets?',
      '\\d+ (?:units?|bags?|pools?) (?:of )?platelets?',
    ],
    target: () => t('Transfusion of Nonautologous Platelets into Peripheral Vein, Percutaneous Approach', '30233R'),
  },
  { id: 'lumbar_puncture', terms: ['lumbar puncture'], abbr: ['LP'], target: () => t('Drainage of Spinal Canal, Percutaneous Approach, Diagnostic', '009U') },
  {
    id: 'paracentesis',
    terms: ['(?:abdominal |diagnostic |therapeutic )?paracentesis', 'ascitic tap', 'abdominal tap'],
    target: (c) => t(`Drainage of Peritoneal Cavity${c.has(/\bdiagnostic\b/) ? ', Percutaneous Approach, Diagnostic' : ', Percutaneous Approach'}`, '0W9G'),
  },
  {
    id: 'lscs',
    terms: ['(?:emergency |elective )?(?:lower segment )?ca?esarean section', 'lscs', 'c-section'],
    abbr: ['LSCS', 'EMLSCS', 'ELLSCS'],
    target: () => t('Extraction of Products of Conception, Low, Open Approach', '10D00Z1'),
  },
  {
    id: 'mastectomy',
    terms: ['(?:simple |modified radical |radical |total )?mastectomy'],
    abbr: ['MRM'],
    target: (c) => t(`Resection of ${sideTitle(c)} Breast, Open Approach`, c.side === 'left' ? '0HTU' : '0HTT'),
  },
  {
    id: 'thyroidectomy',
    terms: ['(?:total |near[- ]total |subtotal )?thyroidectomy', 'hemithyroidectomy', 'thyroid lobectomy'],
    target: (c) =>
      /hemi|lobectomy/.test(c.mention)
        ? t(`Resection of ${sideTitle(c)} Thyroid Gland Lobe, Open Approach`, c.side === 'left' ? '0GTG' : '0GTH')
        : t('Resection of Thyroid Gland, Open Approach', '0GTK'),
  },
  {
    id: 'hysterectomy',
    terms: ['(?:total |subtotal )?(?:abdominal |laparoscopic |vaginal )?hysterectomy', 'tah ?bso', 'tahbso'],
    abbr: ['TAH', 'TAHBSO', 'TLH'],
    target: (c) => t(`Resection of Uterus, ${c.has(/\bvaginal\b/) ? 'Via Natural or Artificial Opening' : approach(c)} Approach`, '0UT9'),
  },
];
