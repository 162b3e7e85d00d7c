/**
 * Diagnoses: terms as clinicians write them → queries in ICD-10-CM title wording, with the code range a correct
 * answer must fall in. Qualifiers that change the code (acuity, type, stage, site, side, organism, "with") are read
 * from the mention's list item or sentence; the ICD-10-CM index defaults apply when they are absent (pneumonia →
 * unspecified organism, gastroenteritis → noninfective, diabetes → type 2, sepsis → unspecified organism).
 *
 * Order matters where terms overlap: the longest match wins, and on equal spans the earlier concept.
 */
import rows from './diagnoses.json';
import { sideWord, t, type ConceptContext, type DxConcept, type Organism, type Target } from './types';

const SEPSIS_BY_ORGANISM: Partial<Record<Organism, Target>> = {
  ecoli: t('sepsis due to escherichia coli [e. coli]', 'A41.51'),
  mssa: t('sepsis due to methicillin susceptible staphylococcus aureus', 'A41.01'),
  mrsa: t('sepsis due to methicillin resistant staphylococcus aureus', 'A41.02'),
  pseudomonas: t('sepsis due to pseudomonas', 'A41.52'),
  pneumococcus: t('sepsis due to streptococcus pneumoniae', 'A40.3'),
  gas: t('sepsis due to streptococcus, group a', 'A40.0'),
  gbs: t('sepsis due to streptococcus, group b', 'A40.1'),
  enterococcus: t('sepsis due to enterococcus', 'A41.81'),
  klebsiella: t('other gram-negative sepsis', 'A41.5'),
  proteus: t('other gram-negative sepsis', 'A41.5'),
  acinetobacter: t('other gram-negative sepsis', 'A41.5'),
  haemophilus: t('sepsis due to hemophilus influenzae', 'A41.3'),
};

const PNEUMONIA_BY_ORGANISM: Partial<Record<Organism, Target>> = {
  klebsiella: t('pneumonia due to klebsiella pneumoniae', 'J15.0'),
  pseudomonas: t('pneumonia due to pseudomonas', 'J15.1'),
  mssa: t('pneumonia due to methicillin susceptible staphylococcus aureus', 'J15.211'),
  mrsa: t('pneumonia due to methicillin resistant staphylococcus aureus', 'J15.212'),
  pneumococcus: t('pneumonia due to streptococcus pneumoniae', 'J13'),
  ecoli: t('pneumonia due to escherichia coli', 'J15.5'),
  haemophilus: t('pneumonia due to hemophilus influenzae', 'J14'),
  mycoplasma: t('pneumonia due to mycoplasma pneumoniae', 'J15.7'),
  gas: t('pneumonia due to streptococcus, group a', 'J15.4'),
  acinetobacter: t('pneumonia due to other gram-negative bacteria', 'J15.6'),
};

/** B95-B96: the organism as the cause of an infection whose code does not name it. */
export const ORGANISM_AS_CAUSE: Record<Organism, Target> = {
  ecoli: t('unspecified escherichia coli [e. coli] as the cause of diseases classified elsewhere', 'B96.20'),
  klebsiella: t('klebsiella pneumoniae [k. pneumoniae] as the cause of diseases classified elsewhere', 'B96.1'),
  pseudomonas: t('pseudomonas (aeruginosa) (mallei) (pseudomallei) as the cause of diseases classified elsewhere', 'B96.5'),
  mssa: t('methicillin susceptible staphylococcus aureus infection as the cause of diseases classified elsewhere', 'B95.61'),
  mrsa: t('methicillin resistant staphylococcus aureus infection as the cause of diseases classified elsewhere', 'B95.62'),
  pneumococcus: t('streptococcus pneumoniae as the cause of diseases classified elsewhere', 'B95.3'),
  gas: t('streptococcus, group a, as the cause of diseases classified elsewhere', 'B95.0'),
  gbs: t('streptococcus, group b, as the cause of diseases classified elsewhere', 'B95.1'),
  enterococcus: t('enterococcus as the cause of diseases classified elsewhere', 'B95.2'),
  proteus: t('proteus (mirabilis) (morganii) as the cause of diseases classified elsewhere', 'B96.4'),
  acinetobacter: t('other specified bacterial agents as the cause of diseases classified elsewhere', 'B96.89'),
  haemophilus: t('hemophilus influenzae [h. influenzae] as the cause of diseases classified elsewhere', 'B96.3'),
  hpylori: t('helicobacter pylori [h. pylori] as the cause of diseases classified elsewhere', 'B96.81'),
  mycoplasma: t('mycoplasma pneumoniae [m. pneumoniae] as the cause of diseases classified elsewhere', 'B96.0'),
};

/** Organisms as written in notes (culture results, diagnoses). */
export const ORGANISM_TERMS: Array<[Organism, RegExp]> = [
  ['ecoli', /\b(?:e\.?\s?coli|escherichia coli)\b/gi],
  ['klebsiella', /\b(?:klebsiella(?: pneumoniae)?|k\.\s?pneumoniae)\b/gi],
  ['pseudomonas', /\b(?:pseudomonas(?: aeruginosa)?|p\.\s?aeruginosa)\b/gi],
  ['mrsa', /\b(?:mrsa|methicillin[- ]resistant staph(?:ylococcus)?(?: aureus)?)\b/gi],
  [
    'mssa',
    /\b(?:mssa|methicillin[- ]sensitive staph(?:ylococcus)?(?: aureus)?|methicillin[- ]susceptible staph(?:ylococcus)?(?: aureus)?|staph(?:ylococcus|\.)? aureus|s\.\s?aureus)\b/gi,
  ],
  ['pneumococcus', /\b(?:strep(?:tococcus|\.)? pneumoniae|s\.\s?pneumoniae|pneumococc(?:al|us))\b/gi],
  ['gas', /\b(?:group a strep(?:tococcus|tococcal)?|gas\b(?= infection)|strep(?:tococcus)? pyogenes)\b/gi],
  ['gbs', /\b(?:group b strep(?:tococcus|tococcal)?|gbs|strep(?:tococcus)? agalactiae)\b/g],
  ['enterococcus', /\b(?:enterococc(?:us|al)(?: faecalis| faecium)?)\b/gi],
  ['proteus', /\b(?:proteus(?: mirabilis)?)\b/gi],
  ['acinetobacter', /\b(?:acinetobacter(?: baumannii)?)\b/gi],
  ['haemophilus', /\b(?:ha?emophilus influenzae|h\.\s?influenzae)\b/gi],
  ['hpylori', /\b(?:h\.?\s?pylori|helicobacter(?: pylori)?)\b/gi],
  ['mycoplasma', /\b(?:mycoplasma(?: pneumoniae)?)\b/gi],
];

const DM_TYPE1 = /\b(?:type\s*(?:1|i)\b|t1dm|iddm|insulin[- ]dependent)/;
const DM_SECONDARY_STEROID = /\b(?:steroid[- ]induced|drug[- ]induced) (?:diabetes|dm|hyperglyc)/;
const HYPERGLYCAEMIA =
  /\b(?:hyperglyca?emi[ac]|uncontrolled|poorly controlled|poor(?:ly)? (?:glycaemic |glycemic )?control|sub-?optimal(?:ly)? controlled|sub-?optimal (?:glycaemic |glycemic )?control|suboptimal control)\b/;

function dmPrefix(c: ConceptContext): string {
  if (c.has(DM_SECONDARY_STEROID)) return 'E09';
  return c.has(DM_TYPE1) || (!/type\s*(?:2|ii)|t2dm|niddm/.test(c.clause) && c.noteHas(DM_TYPE1)) ? 'E10' : 'E11';
}

function dmName(prefix: string): string {
  return prefix === 'E10' ? 'type 1 diabetes mellitus' : prefix === 'E09' ? 'drug or chemical induced diabetes mellitus' : 'type 2 diabetes mellitus';
}

/** Stage of chronic kidney disease written in a clause. */
function ckdStage(s: string): string | null {
  if (
    /\b(?:esrf|esrd|eskd|end[- ]stage (?:renal|kidney)|on (?:regular )?(?:hd|haemodialysis|hemodialysis|dialysis|capd|pd)\b|dialysis[- ]dependent)/.test(s) &&
    !/\bnot (?:yet )?on (?:hd|dialysis|haemodialysis|hemodialysis)\b/.test(s)
  )
    return 'esrd';
  const m =
    /\b(?:ckd|chronic kidney disease|chronic renal (?:failure|disease|impairment)|crf|stage)\s*(?:stage\s*)?(?:g)?([1-5])\s*([ab])?\b/.exec(s) ??
    /\bstage\s*(?:g)?([1-5])\s*([ab])?\b/.exec(s);
  if (!m) return null;
  return m[1] === '3' && m[2] ? `3${m[2]}` : m[1]!;
}

function heartFailure(c: ConceptContext): Target {
  const s = c.clause;
  const type = /\b(?:combined|systolic and diastolic|hfmref|mid-?range)\b/.test(s)
    ? 'combined systolic (congestive) and diastolic (congestive)'
    : /\b(?:hfref|systolic|reduced (?:ejection fraction|ef|lvef)|ef\s*(?:of\s*)?(?:[1-3]\d|40)\s*%|lvef\s*(?:of\s*)?(?:[1-3]\d|40)\s*%|poor lv function|severe lv dysfunction|lv systolic dysfunction|dilated cardiomyopathy)/.test(
          s,
        )
      ? 'systolic (congestive)'
      : /\b(?:hfpef|diastolic|preserved (?:ejection fraction|ef|lvef))\b/.test(s)
        ? 'diastolic (congestive)'
        : null;
  const acuity = /\bacute on chronic\b|\b(?:acute )?decompensat|\badhf\b|\bexacerbation\b/.test(s)
    ? 'acute on chronic'
    : /\bacute\b|\bnew(?:ly)?[- ](?:onset|diagnosed)\b|\bde novo\b|\bapo\b|\bpulmonary o?edema\b/.test(s)
      ? 'acute'
      : /\bchronic\b/.test(s)
        ? 'chronic'
        : null;
  if (type) return t(`${acuity ?? 'unspecified'} ${type} heart failure`, 'I50.2', 'I50.3', 'I50.4');
  if (/\b(?:lvf|left ventricular failure|left heart failure|acute pulmonary o?edema|apo)\b/.test(s)) return t('left ventricular failure, unspecified', 'I50.1');
  if (/\bright (?:heart|ventricular|sided heart) failure\b|\bcor pulmonale\b/.test(s)) return t('right heart failure, unspecified', 'I50.81');
  return t('heart failure, unspecified', 'I50.9');
}

function fractureTarget(c: ConceptContext): Target | null {
  const s = c.clause;
  const side = sideWord(c);
  const open = c.has(/\bopen fracture|\bcompound\b|\bopen #/);
  const enc = open ? 'initial encounter for open fracture type i or ii' : 'initial encounter for closed fracture';
  if (
    /\b(?:neck of (?:the )?femur|nof|femoral neck|hip fracture|fracture(?:d)? (?:of )?(?:the )?(?:right |left )?hip|#\s*(?:right |left )?(?:hip|nof)|subcapital|intracapsular|intertrochanteric|pertrochanteric|trochanteric|subtrochanteric)\b/.test(
      s,
    )
  ) {
    if (/\bsubtrochanteric\b/.test(s)) return t(`unspecified subtrochanteric fracture of ${side} femur, ${enc}`, 'S72.2');
    if (/\bintertrochanteric\b/.test(s))
      return t(`${c.has(/\bundisplaced|non-?displaced/) ? 'nondisplaced' : 'displaced'} intertrochanteric fracture of ${side} femur, ${enc}`, 'S72.14');
    if (/\b(?:pertrochanteric|trochanteric)\b/.test(s)) return t(`unspecified trochanteric fracture of ${side} femur, ${enc}`, 'S72.10');
    if (/\b(?:intracapsular|subcapital)\b/.test(s)) return t(`unspecified intracapsular fracture of ${side} femur, ${enc}`, 'S72.01');
    if (/\bbase of (?:the )?neck|basicervical\b/.test(s)) return t(`displaced fracture of base of neck of ${side} femur, ${enc}`, 'S72.04');
    if (/\bmidcervical|transcervical\b/.test(s)) return t(`displaced midcervical fracture of ${side} femur, ${enc}`, 'S72.03');
    return t(`fracture of unspecified part of neck of ${side} femur, ${enc}`, 'S72.00');
  }
  if (/\b(?:distal radius|lower end of (?:the )?radius|colles|smith'?s fracture|wrist)\b/.test(s)) {
    if (/\bcolles\b/.test(s)) return t(`colles' fracture of ${side} radius, ${enc}`, 'S52.53');
    if (/\bintra-?articular\b/.test(s)) return t(`other intraarticular fracture of lower end of ${side} radius, ${enc}`, 'S52.57');
    if (/\bextra-?articular\b/.test(s)) return t(`other extraarticular fracture of lower end of ${side} radius, ${enc}`, 'S52.55');
    return t(`unspecified fracture of the lower end of ${side} radius, ${enc}`, 'S52.50');
  }
  // shaft fractures: displacement and fracture pattern are axes of the code
  const shaft =
    /\b(tibia|tibial|femur|femoral|humerus|humeral|radius|radial|ulna|ulnar|fibula|fibular)\b[^,;]{0,12}\bshaft\b|\bshaft of (?:the )?(?:right |left )?(tibia|femur|humerus|radius|ulna|fibula)\b/.exec(
      s,
    );
  const pattern = /\b(transverse|oblique|spiral|comminuted|segmental)\b/.exec(s)?.[1];
  if (shaft && pattern) {
    const bone = (shaft[1] ?? shaft[2])!;
    const name = bone.startsWith('tib')
      ? 'tibia'
      : bone.startsWith('fem')
        ? 'femur'
        : bone.startsWith('hum')
          ? 'humerus'
          : bone.startsWith('rad')
            ? 'radius'
            : bone.startsWith('uln')
              ? 'ulna'
              : 'fibula';
    const disp = c.has(/\b(?:undisplaced|non-?displaced)\b/) ? 'nondisplaced' : 'displaced';
    const cat =
      name === 'tibia'
        ? 'S82.2'
        : name === 'femur'
          ? 'S72.3'
          : name === 'humerus'
            ? 'S42.3'
            : name === 'radius'
              ? 'S52.3'
              : name === 'ulna'
                ? 'S52.2'
                : 'S82.4';
    return t(`${disp} ${pattern} fracture of shaft of ${side} ${name}, ${enc}`, cat);
  }
  if (/\btrimalleolar\b/.test(s)) return t(`displaced trimalleolar fracture of ${side} lower leg, ${enc}`, 'S82.85');
  if (/\bbimalleolar\b/.test(s)) return t(`displaced bimalleolar fracture of ${side} lower leg, ${enc}`, 'S82.84');
  if (/\b(?:lateral malleol|weber)\w*/.test(s)) return t(`displaced fracture of lateral malleolus of ${side} fibula, ${enc}`, 'S82.6');
  if (/\bankle\b/.test(s)) return t(`unspecified fracture of ${side} lower leg, ${enc}`, 'S82');
  if (/\b(?:tibia|tibial)\b/.test(s)) return t(`unspecified fracture of shaft of ${side} tibia, ${enc}`, 'S82.2', 'S82.1', 'S82.3', 'S82.9');
  if (/\b(?:femur|femoral shaft|shaft of femur)\b/.test(s)) return t(`unspecified fracture of shaft of ${side} femur, ${enc}`, 'S72.3', 'S72.9');
  if (/\bhumer(?:us|al)\b/.test(s)) {
    if (/\b(?:proximal|surgical neck|upper end)\b/.test(s)) return t(`unspecified fracture of upper end of ${side} humerus, ${enc}`, 'S42.2');
    if (/\bsupracondylar\b/.test(s)) return t(`unspecified supracondylar fracture without intercondylar fracture of ${side} humerus, ${enc}`, 'S42.41');
    return t(`unspecified fracture of shaft of humerus, ${side} arm, ${enc}`, 'S42.3');
  }
  if (/\bclavicle\b/.test(s)) return t(`fracture of unspecified part of ${side} clavicle, ${enc}`, 'S42.0');
  if (/\b(?:radius|ulna)\b/.test(s)) return t(`unspecified fracture of ${side} forearm, ${enc}`, 'S52');
  if (/\brib(?:s)?\b/.test(s))
    return t(
      `${/\bmultiple|ribs\b/.test(s) ? 'multiple fractures of ribs' : 'fracture of one rib'}, ${side === 'bilateral' ? 'bilateral' : `${side} side`}, ${enc}`,
      'S22.3',
      'S22.4',
    );
  if (/\b(?:vertebra|vertebral|compression fracture|lumbar|thoracic spine)\b/.test(s)) {
    if (/\bosteoporo/.test(c.note))
      return t('age-related osteoporosis with current pathological fracture, vertebra(e), initial encounter for fracture', 'M80.08');
    return t('wedge compression fracture of unspecified lumbar vertebra, initial encounter for closed fracture', 'S32.0', 'S22.0');
  }
  if (/\b(?:metacarpal|finger|phalanx)\b/.test(s)) return t(`unspecified fracture of ${side} hand, ${enc}`, 'S62');
  if (/\b(?:pelvis|pelvic|pubic ramus|rami)\b/.test(s)) return t(`fracture of superior rim of ${side} pubis, ${enc}`, 'S32');
  return null;
}

function cellulitisTarget(c: ConceptContext): Target {
  const s = c.clause;
  const side = sideWord(c);
  if (/\bperiorbital\b/.test(s)) return t('periorbital cellulitis', 'L03.213');
  if (/\borbital\b/.test(s)) return t(`cellulitis of ${side} orbit`, 'H05.01');
  if (/\b(?:face|facial|cheek)\b/.test(s)) return t('cellulitis of face', 'L03.211');
  if (/\b(?:abdominal wall|abdomen|umbilic|port site|wound)\b/.test(s)) return t('cellulitis of abdominal wall', 'L03.311');
  if (/\b(?:toe|toes)\b/.test(s)) return t(`cellulitis of ${side} toe`, 'L03.03');
  if (/\b(?:finger|fingers)\b/.test(s)) return t(`cellulitis of ${side} finger`, 'L03.01');
  if (/\b(?:leg|legs|lower limb|lower limbs|foot|feet|thigh|calf|knee|ankle|shin)\b/.test(s)) return t(`cellulitis of ${side} lower limb`, 'L03.11');
  if (/\b(?:arm|arms|upper limb|upper limbs|hand|forearm|elbow|wrist)\b/.test(s)) return t(`cellulitis of ${side} upper limb`, 'L03.11');
  if (/\b(?:buttock|gluteal)\b/.test(s)) return t('cellulitis of buttock', 'L03.317');
  if (/\b(?:back|chest wall|trunk)\b/.test(s)) return t('cellulitis of trunk, unspecified', 'L03.31');
  if (/\bneck\b/.test(s)) return t('cellulitis of neck', 'L03.221');
  return t('cellulitis, unspecified', 'L03.90');
}

function strokeTarget(c: ConceptContext): Target {
  const s = c.clause;
  const side = c.side === 'left' ? 'left' : c.side === 'right' ? 'right' : 'unspecified';
  if (/\b(?:lacunar|small vessel)\b/.test(s)) return t('other cerebral infarction due to occlusion or stenosis of small artery', 'I63.81');
  if (/\b(?:embolic|cardioembolic|cardio-embolic)\b/.test(s)) return t('cerebral infarction due to embolism of unspecified cerebral artery', 'I63.4');
  const artery = /\bmca\b|middle cerebral/.test(s)
    ? 'middle'
    : /\baca\b|anterior cerebral/.test(s)
      ? 'anterior'
      : /\bpca\b|posterior cerebral/.test(s)
        ? 'posterior'
        : null;
  if (artery) {
    // the side of the infarct: the side written with the artery or territory, not the side of the weakness
    const m = /\b(right|left|rt|lt)\b[^,;]{0,20}\b(?:mca|aca|pca|middle cerebral|anterior cerebral|posterior cerebral)/.exec(s);
    const sideOfArtery = m ? (m[1]!.startsWith('r') ? 'right' : 'left') : side;
    return t(
      `cerebral infarction due to unspecified occlusion or stenosis of ${sideOfArtery} ${artery} cerebral artery`,
      artery === 'middle' ? 'I63.51' : artery === 'anterior' ? 'I63.52' : 'I63.53',
    );
  }
  if (/\b(?:cerebellar|cerebellum)\b/.test(s)) return t('cerebral infarction due to unspecified occlusion or stenosis of cerebellar artery', 'I63.54', 'I63.9');
  if (/\b(?:basilar|vertebral|posterior circulation|brainstem|pontine)\b/.test(s))
    return t('cerebral infarction due to unspecified occlusion or stenosis of basilar artery', 'I63.22', 'I63.9', 'I63.5');
  return t('cerebral infarction, unspecified', 'I63.9');
}

function appendicitisTarget(c: ConceptContext): Target {
  const perforated = c.has(/\b(?:perforat\w*|ruptured|burst)\b/) && !/\b(?:non-?perforated|not perforated|without perforation|no perforation)\b/.test(c.clause);
  const abscess = c.has(/\b(?:abscess|appendicular mass|phlegmon)\b/);
  const generalized = c.has(/\b(?:generali[sz]ed|diffuse) peritonitis\b/);
  const localized = c.has(/\b(?:locali[sz]ed peritonitis|peritonitis)\b/);
  const gangrene = c.has(/\bgangren\w*/);
  if (generalized)
    return t(
      `acute appendicitis with generalized peritonitis, ${perforated ? 'with perforation' : 'without perforation'}, ${abscess ? 'with abscess' : 'without abscess'}`,
      'K35.2',
    );
  if (perforated)
    return t(`acute appendicitis with perforation, localized peritonitis, and gangrene, ${abscess ? 'with abscess' : 'without abscess'}`, 'K35.3');
  if (gangrene) return t('acute appendicitis with localized peritonitis and gangrene, without perforation', 'K35.31');
  if (abscess || localized) return t('acute appendicitis with localized peritonitis, without perforation or gangrene', 'K35.30');
  return t('unspecified acute appendicitis', 'K35.80');
}

function ulcerTarget(c: ConceptContext, site: 'gastric' | 'duodenal' | 'peptic'): Target {
  const bleed = c.has(/\b(?:bleed\w*|ha?emorrhag\w*|bled|ugib|visible vessel|forrest|melaena|melena|haematemesis|hematemesis)\b/);
  const perf = c.has(/\bperforat\w*/);
  const code = site === 'gastric' ? 'K25' : site === 'duodenal' ? 'K26' : 'K27';
  const name = site === 'gastric' ? 'gastric ulcer' : site === 'duodenal' ? 'duodenal ulcer' : 'peptic ulcer, site unspecified';
  if (bleed && perf) return t(`chronic or unspecified ${name} with both hemorrhage and perforation`, `${code}.6`);
  if (bleed) return t(`chronic or unspecified ${name} with hemorrhage`, `${code}.4`);
  if (perf) return t(`chronic or unspecified ${name} with perforation`, `${code}.5`);
  return t(`${name}, unspecified as acute or chronic, without hemorrhage or perforation`, `${code}.9`);
}

function intestinalObstruction(c: ConceptContext): Target {
  const partial = c.has(/\b(?:partial|subacute|incomplete|sub-acute|saio)\b/);
  const complete = c.has(/\bcomplete\b/);
  const degree = partial ? 'with partial obstruction' : complete ? 'with complete obstruction' : 'unspecified as to partial versus complete obstruction';
  if (c.has(/\badhesi\w*|\bbands?\b/)) return t(`intestinal adhesions [bands] ${degree}`, 'K56.5');
  if (c.has(/\bvolvulus\b/)) return t('volvulus', 'K56.2');
  if (c.has(/\bintussusception\b/)) return t('intussusception', 'K56.1');
  return t(
    `unspecified intestinal obstruction, ${partial ? 'partial intestinal obstruction' : complete ? 'complete intestinal obstruction' : 'unspecified as to partial versus complete obstruction'}`,
    'K56.60',
  );
}

function ckdTarget(c: ConceptContext): Target | Target[] {
  const stage = ckdStage(c.clause) ?? ckdStage(c.mention);
  const own = ckdStageTarget(stage);
  if (/diabetic|dkd/.test(c.mention)) {
    const p = dmPrefix(c);
    return [own, t(`${dmName(p)} with diabetic chronic kidney disease`, `${p}.22`)];
  }
  return own;
}

function ckdStageTarget(stage: string | null): Target {
  switch (stage) {
    case 'esrd':
      return t('end stage renal disease', 'N18.6');
    case '5':
      return t('chronic kidney disease, stage 5', 'N18.5');
    case '4':
      return t('chronic kidney disease, stage 4 (severe)', 'N18.4');
    case '3a':
      return t('chronic kidney disease, stage 3a', 'N18.31');
    case '3b':
      return t('chronic kidney disease, stage 3b', 'N18.32');
    case '3':
      return t('chronic kidney disease, stage 3 unspecified', 'N18.30');
    case '2':
      return t('chronic kidney disease, stage 2 (mild)', 'N18.2');
    case '1':
      return t('chronic kidney disease, stage 1', 'N18.1');
    default:
      return t('chronic kidney disease, unspecified', 'N18.9');
  }
}

function anaemiaTarget(c: ConceptContext): Target {
  const s = c.clause;
  if (
    /\b(?:acute )?(?:blood loss|post-?ha?emorrhagic|haemorrhagic|hemorrhagic|symptomatic anaemia from bleeding)\b/.test(s) &&
    /\bacute\b|blood loss/.test(s) &&
    !/\bchronic blood loss\b/.test(s)
  )
    return t('acute posthemorrhagic anemia', 'D62');
  if (/\biron[- ]deficien\w*|\bida\b/.test(s))
    return /\bchronic blood loss\b/.test(s)
      ? t('iron deficiency anemia secondary to blood loss (chronic)', 'D50.0')
      : t('iron deficiency anemia, unspecified', 'D50');
  if (/\b(?:ckd|chronic kidney|renal|esrf|esrd)\b/.test(s)) return t('anemia in chronic kidney disease', 'D63.1');
  if (/\b(?:malignan\w*|neoplas\w*|cancer|carcinoma|tumou?r)\b/.test(s)) return t('anemia in neoplastic disease', 'D63.0');
  if (/\bchronic disease|chronic inflammation\b/.test(s)) return t('anemia in other chronic diseases classified elsewhere', 'D63.8');
  if (/\b(?:b12|pernicious)\b/.test(s)) return t('vitamin b12 deficiency anemia, unspecified', 'D51');
  if (/\bfolate\b/.test(s)) return t('folate deficiency anemia, unspecified', 'D52');
  if (/\bmegaloblastic\b/.test(s)) return t('megaloblastic anemia, not elsewhere classified', 'D53.1');
  if (/\baplastic\b/.test(s)) return t('aplastic anemia, unspecified', 'D61.9');
  if (/\bha?emolytic\b/.test(s)) return t('acquired hemolytic anemia, unspecified', 'D59.9');
  return t('anemia, unspecified', 'D64.9');
}

function diabetesTargets(c: ConceptContext): Target[] {
  const p = dmPrefix(c);
  const name = dmName(p);
  const out: Target[] = [];
  if (c.has(/\b(?:dka|ketoacidosis)\b/)) out.push(t(`${name} with ketoacidosis without coma`, `${p}.10`));
  if (c.has(/\b(?:hhs|honk|hyperosmolar)\b/)) out.push(t(`${name} with hyperosmolarity without nonketotic hyperglycemic-hyperosmolar coma (nkhhc)`, `${p}.00`));
  if (c.has(/\bhypoglyca?emi\w*/)) out.push(t(`${name} with hypoglycemia without coma`, `${p}.649`));
  if (c.has(HYPERGLYCAEMIA) && !out.length) out.push(t(`${name} with hyperglycemia`, `${p}.65`));
  if (c.has(/\b(?:diabetic )?(?:nephropathy|kidney disease|dkd)\b/) || c.noteConcept('ckd'))
    out.push(t(`${name} with diabetic chronic kidney disease`, `${p}.22`));
  if (c.has(/\b(?:peripheral )?neuropathy\b/)) out.push(t(`${name} with diabetic polyneuropathy`, `${p}.42`));
  if (c.has(/\bretinopathy\b/)) out.push(t(`${name} with unspecified diabetic retinopathy without macular edema`, `${p}.319`));
  if (c.has(/\b(?:foot ulcer|dfu|diabetic ulcer)\b/) || c.noteConcept('diabetic_foot_ulcer')) out.push(t(`${name} with foot ulcer`, `${p}.621`));
  if (c.has(/\bgangren\w*/) || c.noteConcept('gangrene')) out.push(t(`${name} with diabetic peripheral angiopathy with gangrene`, `${p}.52`));
  if (!out.length) out.push(t(`${name} without complications`, `${p}.9`));
  return out;
}

const POSTPROC =
  /\b(?:post-?op(?:erative)?|following|after|post)\b.{0,60}\b(?:-ectomy|ectomy|otomy|plasty|repair|surgery|operation|procedure|lap\w*|chole\w*|section|lscs|replacement|fixation|orif)|\b(?:surgical site|ssi|port site|wound site|incision(?:al)?|stitch(?:es)?|suture line)\b/;

/**
 * The diagnoses whose code depends on the note (their target reads the mention, the clause or the organism). Every
 * other diagnosis is data: `diagnoses.json` holds all rows in matching order, those as plain rows with a fixed
 * target, these as `{"id", "coded": true}`, filled in from here.
 */
const CODED: DxConcept[] = [
  {
    id: 'septic_shock',
    group: 'sepsis',
    terms: ['septic shock'],
    infection: 'specific',
    target: (c) => [
      c.organism && SEPSIS_BY_ORGANISM[c.organism] ? SEPSIS_BY_ORGANISM[c.organism]! : t('sepsis, unspecified organism', 'A41.9'),
      t('severe sepsis with septic shock', 'R65.21'),
    ],
  },
  {
    id: 'severe_sepsis',
    group: 'sepsis',
    terms: ['severe sepsis'],
    infection: 'specific',
    target: (c) => [
      c.organism && SEPSIS_BY_ORGANISM[c.organism] ? SEPSIS_BY_ORGANISM[c.organism]! : t('sepsis, unspecified organism', 'A41.9'),
      t('severe sepsis without septic shock', 'R65.20'),
    ],
  },
  {
    id: 'neutropenic_sepsis',
    group: 'sepsis',
    terms: ['neutropenic sepsis', 'febrile neutropenia with sepsis'],
    infection: 'specific',
    target: (c) =>
      c.has(/\b(?:chemo(?:therapy)?[- ]induced|post[- ]chemo(?:therapy)?|after (?:cycle|chemo)|cycle \d+ of|chemotherapy)\b/)
        ? [
            t('sepsis, unspecified organism', 'A41.9'),
            t('agranulocytosis secondary to cancer chemotherapy', 'D70.1'),
            t('adverse effect of antineoplastic and immunosuppressive drugs, initial encounter', 'T45.1X5A'),
          ]
        : [t('sepsis, unspecified organism', 'A41.9'), t('neutropenia, unspecified', 'D70.9')],
  },
  {
    id: 'sepsis',
    group: 'sepsis',
    terms: [
      'sepsis',
      'septica?emia',
      'septic(?! arthritis| shock| screen| work-?up| workup| joint| emboli)',
      'blood stream infection',
      'bloodstream infection',
      'bsi',
    ],
    infection: 'specific',
    target: (c) => (c.organism && SEPSIS_BY_ORGANISM[c.organism] ? SEPSIS_BY_ORGANISM[c.organism]! : t('sepsis, unspecified organism', 'A41.9')),
  },
  {
    id: 'leptospirosis',
    terms: ['leptospirosis', "weil'?s disease", 'lepto'],
    target: (c) =>
      c.has(/\bweil|icterohaemorrhag|jaundice/) && !/\bno jaundice\b/.test(c.clause)
        ? t('leptospirosis icterohemorrhagica', 'A27.0')
        : t('leptospirosis, unspecified', 'A27.9'),
  },
  {
    id: 'melioidosis',
    terms: ['melioidosis', 'burkholderia pseudomallei'],
    target: (c) =>
      c.has(/\b(?:sepsis|septic|septica?emi\w*|fulminant|bactera?emi\w*)\b/)
        ? t('acute and fulminating melioidosis', 'A24.1')
        : c.has(/\b(?:pneumon\w*|lung|pulmonary)\b/)
          ? t('subacute and chronic melioidosis', 'A24.2')
          : t('melioidosis, unspecified', 'A24.9'),
  },
  {
    id: 'malaria',
    terms: ['malaria', 'plasmodium \\w+'],
    target: (c) =>
      c.has(/falciparum/)
        ? t('plasmodium falciparum malaria, unspecified', 'B50.9')
        : c.has(/vivax/)
          ? t('plasmodium vivax malaria without complication', 'B51.9')
          : c.has(/knowlesi/)
            ? t('malaria due to simian plasmodia', 'B53.1')
            : c.has(/malariae/)
              ? t('plasmodium malariae malaria without complication', 'B52.9')
              : t('unspecified malaria', 'B54'),
  },
  {
    id: 'hiv',
    terms: ['hiv(?: disease| infection)?', 'retroviral disease', 'plhiv', 'human immunodeficiency virus'],
    abbr: ['RVD', 'AIDS'],
    chronic: true,
    target: (c) =>
      c.has(/\b(?:hiv (?:positive|seropositive|reactive)|asymptomatic hiv)\b/)
        ? t('asymptomatic human immunodeficiency virus [hiv] infection status', 'Z21')
        : t('human immunodeficiency virus [hiv] disease', 'B20'),
  },
  {
    id: 'covid',
    terms: ['covid(?:-?19)?(?: infection| pneumonia)?', 'sars-cov-2(?: infection)?', 'coronavirus disease'],
    target: (c) =>
      c.mention.includes('pneumonia') ? [t('covid-19', 'U07.1'), t('pneumonia due to coronavirus disease 2019', 'J12.82')] : t('covid-19', 'U07.1'),
  },
  {
    id: 'influenza',
    terms: ['influenza(?: [ab])?(?: \\(?h\\d ?n\\d\\)?)?(?: infection| pneumonia)?', 'flu'],
    target: (c) => {
      const known = c.has(/\binfluenza [ab]\b|h1n1|h3n2|influenza (?:a|b) pcr/);
      // influenza with pneumonia is one combination code (J10.0-/J11.0-), not influenza + J18.9
      if (c.has(/\bpneumonia\b/))
        return known
          ? t('influenza due to other identified influenza virus with unspecified type of pneumonia', 'J10.00')
          : t('influenza due to unidentified influenza virus with unspecified type of pneumonia', 'J11.00');
      return known
        ? t('influenza due to other identified influenza virus with other respiratory manifestations', 'J10.1')
        : t('influenza due to unidentified influenza virus with other respiratory manifestations', 'J11.1');
    },
  },
  {
    id: 'postprocedural_infection',
    terms: [
      'surgical site infection',
      'wound infection',
      'infected (?:surgical )?wound',
      'wound sepsis',
      'port[- ]site infection',
      'infected port site',
      'stitch abscess',
    ],
    abbr: ['SSI'],
    infection: 'additional',
    target: (c) => {
      if (!c.has(POSTPROC) && !c.mention.includes('surgical site') && !c.mention.includes('port'))
        return t('local infection of the skin and subcutaneous tissue, unspecified', 'L08.9');
      if (c.has(/\bsuperficial\b/)) return t('infection following a procedure, superficial incisional surgical site, initial encounter', 'T81.41XA');
      if (c.has(/\bdeep\b/)) return t('infection following a procedure, deep incisional surgical site, initial encounter', 'T81.42XA');
      if (c.has(/\borgan(?:\/| and )space|intra-?abdominal collection|abscess\b/))
        return t('infection following a procedure, organ and space surgical site, initial encounter', 'T81.43XA');
      return t('infection following a procedure, unspecified, initial encounter', 'T81.40XA');
    },
  },
  {
    id: 'pneumonia',
    group: 'pneumonia',
    terms: [
      'pneumonias?',
      'bronchopneumonia',
      'lobar pneumonia',
      'community[- ]acquired pneumonia',
      'hospital[- ]acquired pneumonia',
      'nosocomial pneumonia',
      'ventilator[- ]associated pneumonia',
    ],
    abbr: ['CAP', 'HAP', 'HCAP', 'VAP'],
    infection: 'specific',
    target: (c) => {
      if (c.organism && PNEUMONIA_BY_ORGANISM[c.organism]) return PNEUMONIA_BY_ORGANISM[c.organism]!;
      if (c.has(/\b(?:covid|sars-cov-2)\b/)) return [t('pneumonia due to coronavirus disease 2019', 'J12.82'), t('covid-19', 'U07.1')];
      if (c.has(/\bviral pneumonia\b/)) return t('viral pneumonia, unspecified', 'J12.9');
      if (c.has(/\bbacterial pneumonia\b/)) return t('unspecified bacterial pneumonia', 'J15.9');
      if (c.has(/\blobar pneumonia\b/)) return t('lobar pneumonia, unspecified organism', 'J18.1');
      if (c.has(/\bbronchopneumonia\b/)) return t('bronchopneumonia, unspecified organism', 'J18.0');
      return t('pneumonia, unspecified organism', 'J18.9');
    },
  },
  {
    id: 'copd',
    group: 'copd',
    terms: [
      'chronic obstructive pulmonary disease',
      'chronic obstructive airways? disease',
      'chronic obstructive lung disease',
      'emphysema',
      'chronic bronchitis',
      'ae ?copd',
      'copd',
    ],
    abbr: ['COPD', 'AECOPD', 'COAD'],
    chronic: true,
    target: (c) => {
      const lrti = c.has(/\b(?:pneumonia|lrti|chest infection|lower respiratory (?:tract )?infection|infective exacerbation)\b/);
      if (lrti) return t('chronic obstructive pulmonary disease with (acute) lower respiratory infection', 'J44.0');
      if (c.has(/\b(?:exacerbation|ae ?copd|aecopd|acute|decompensat\w*)\b/) || /aecopd|ae ?copd/.test(c.mention))
        return t('chronic obstructive pulmonary disease with (acute) exacerbation', 'J44.1');
      return t('chronic obstructive pulmonary disease, unspecified', 'J44.9');
    },
  },
  {
    id: 'asthma',
    terms: ['(?:bronchial )?asthma(?:tic)?(?: attack| exacerbation)?', 'reactive airways? disease', 'status asthmaticus'],
    abbr: ['BA'],
    chronic: true,
    target: (c) => {
      if (c.has(/\bstatus asthmaticus\b|\blife[- ]threatening\b|\bnear[- ]fatal\b/)) return t('unspecified asthma with status asthmaticus', 'J45.902');
      if (c.has(/\b(?:exacerbation|attack|acute|flare|worsening)\b/)) return t('unspecified asthma with (acute) exacerbation', 'J45.901');
      return t('unspecified asthma, uncomplicated', 'J45.909');
    },
  },
  {
    id: 'bronchiectasis',
    terms: ['bronchiectasis'],
    chronic: true,
    target: (c) =>
      c.has(/\b(?:exacerbation|infective|acute)\b/) ? t('bronchiectasis with (acute) exacerbation', 'J47.1') : t('bronchiectasis, uncomplicated', 'J47.9'),
  },
  {
    id: 'respiratory_failure',
    terms: [
      '(?:acute )?(?:on chronic )?(?:hypercapni[ac]|hypoxa?emic|hypoxic|type (?:1|2|i|ii)) respiratory failure',
      '(?:acute |chronic )?respiratory failure',
      'type (?:1|2|i|ii) rf',
    ],
    abbr: ['T1RF', 'T2RF'],
    target: (c) => {
      const s = c.clause;
      const hyper = /hypercapni|type (?:2|ii)\b|t2rf|co2 retention/.test(s);
      const hypox = /hypox|type (?:1|i)\b|t1rf/.test(s);
      const with_ = hyper ? 'with hypercapnia' : hypox ? 'with hypoxia' : 'unspecified whether with hypoxia or hypercapnia';
      const code = hyper ? '2' : hypox ? '1' : '0';
      if (/\bacute on chronic\b/.test(s)) return t(`acute and chronic respiratory failure ${with_}`, `J96.2${code}`);
      if (/\bchronic\b/.test(s) && !/\bacute\b/.test(s) && !/\bcopd|chronic obstructive\b/.test(s))
        return t(`chronic respiratory failure ${with_}`, `J96.1${code}`);
      return t(`acute respiratory failure ${with_}`, `J96.0${code}`);
    },
  },
  {
    id: 'pulmonary_embolism',
    terms: ['pulmonary embol(?:ism|us|i)', 'pulmonary thromboembolism', 'saddle embol(?:us|ism)'],
    abbr: ['PE', 'PTE'],
    past: t('personal history of pulmonary embolism', 'Z86.711'),
    target: (c) => {
      const strain = c.has(/\b(?:acute cor pulmonale|right heart strain|rv strain|right ventricular strain|rv dysfunction)\b/);
      const saddle = c.has(/\bsaddle\b/);
      if (saddle)
        return strain
          ? t('saddle embolus of pulmonary artery with acute cor pulmonale', 'I26.02')
          : t('saddle embolus of pulmonary artery without acute cor pulmonale', 'I26.92');
      if (c.has(/\bmultiple|bilateral|subsegmental\b/) && !strain)
        return t(
          c.has(/\bsubsegmental\b/) && !c.has(/\bmultiple\b/)
            ? 'single subsegmental pulmonary embolism without acute cor pulmonale'
            : 'multiple subsegmental pulmonary emboli without acute cor pulmonale',
          'I26.93',
          'I26.94',
          'I26.99',
        );
      return strain ? t('other pulmonary embolism with acute cor pulmonale', 'I26.09') : t('other pulmonary embolism without acute cor pulmonale', 'I26.99');
    },
  },
  {
    id: 'pleural_effusion',
    terms: ['pleural effusions?', 'parapneumonic effusion'],
    target: (c) =>
      c.noteConcept('heart_failure')
        ? t('pleural effusion in other conditions classified elsewhere', 'J91.8')
        : t('pleural effusion, not elsewhere classified', 'J90'),
  },
  {
    id: 'pneumothorax',
    group: 'pneumothorax',
    terms: ['(?:primary |secondary )?(?:spontaneous )?pneumothora(?:x|ces)'],
    abbr: ['PTX'],
    target: (c) => {
      if (c.has(/\b(?:traumatic|rib fracture|stab|mva|mvc|injury)\b/)) return t('traumatic pneumothorax, initial encounter', 'S27.0');
      if (c.has(/\biatrogenic|post-?procedur\w*|after (?:cvc|central line|biopsy)\b/)) return t('postprocedural pneumothorax', 'J95.811');
      if (c.has(/\bprimary\b/)) return t('primary spontaneous pneumothorax', 'J93.11');
      if (c.has(/\bsecondary\b/) || c.noteConcept('copd')) return t('secondary spontaneous pneumothorax', 'J93.12');
      return t('pneumothorax, unspecified', 'J93.9');
    },
  },
  {
    id: 'tuberculosis',
    terms: ['(?:smear[- ](?:positive|negative) )?(?:pulmonary )?tuberculosis', '(?:smear[- ](?:positive|negative) )?(?:pulmonary )?tb', 'ptb', "koch'?s"],
    abbr: ['PTB', 'TB'],
    past: t('personal history of tuberculosis', 'Z86.11'),
    target: (c) => {
      if (c.has(/\bmiliary\b/)) return t('acute miliary tuberculosis, unspecified', 'A19');
      if (c.has(/\btb meningitis|tuberculous meningitis\b/)) return t('tuberculous meningitis', 'A17.0');
      if (c.has(/\b(?:lymphadenitis|tb lymph|cervical lymph|scrofula)\b/)) return t('tuberculous peripheral lymphadenopathy', 'A18.2');
      if (c.has(/\bspin(?:e|al)|pott\b/)) return t('tuberculosis of spine', 'A18.01');
      if (c.has(/\b(?:pleural|tb pleurisy)\b/) && !c.has(/\bpulmonary|lung|ptb|smear\b/)) return t('tuberculous pleurisy', 'A15.6');
      return t('tuberculosis of lung', 'A15.0');
    },
  },
  {
    id: 'lung_cancer',
    terms: [
      '(?:lung|bronchogenic|bronchial) (?:cancer|carcinoma|malignancy|ca|adenocarcinoma|tumou?r)',
      '(?:adeno|squamous cell )?carcinoma of (?:the )?(?:right |left )?(?:lung|bronchus)',
      'non[- ]small cell lung (?:cancer|carcinoma)',
      'small cell lung (?:cancer|carcinoma)',
    ],
    abbr: ['NSCLC', 'SCLC'],
    target: (c) => t(`malignant neoplasm of unspecified part of ${sideWord(c)} bronchus or lung`, 'C34'),
  },
  {
    id: 'ild',
    terms: ['interstitial lung disease', 'pulmonary fibrosis', 'idiopathic pulmonary fibrosis'],
    abbr: ['ILD', 'IPF'],
    chronic: true,
    target: (c) =>
      c.has(/\bidiopathic\b|\bipf\b/) ? t('idiopathic pulmonary fibrosis', 'J84.112') : t('interstitial pulmonary disease, unspecified', 'J84.9'),
  },
  {
    id: 'stemi',
    group: 'ami',
    terms: [
      'st[- ]?elevation myocardial infarction',
      'st[- ]?elevation mi',
      'st[- ]?segment elevation myocardial infarction',
      'stemi',
      '(?:acute )?(?:anterior|inferior|lateral|posterior|anterolateral|inferolateral|inferoposterior|anteroseptal|septal)(?: wall)? (?:st[- ]elevation )?(?:myocardial infarction|mi|stemi)',
    ],
    abbr: ['STEMI', 'STEACS'],
    past: t('old myocardial infarction', 'I25.2'),
    target: (c) => {
      const s = c.clause;
      if (/\bleft main\b/.test(s)) return t('st elevation (stemi) myocardial infarction involving left main coronary artery', 'I21.01');
      if (/\b(?:lad|left anterior descending)\b/.test(s) && /\banterior|anteroseptal|lad\b/.test(s))
        return t('st elevation (stemi) myocardial infarction involving left anterior descending coronary artery', 'I21.02');
      if (/\b(?:anterior|anterolateral|anteroseptal|septal|anteroapical)\b/.test(s))
        return t('st elevation (stemi) myocardial infarction involving other coronary artery of anterior wall', 'I21.09');
      if (/\b(?:rca|right coronary)\b/.test(s)) return t('st elevation (stemi) myocardial infarction involving right coronary artery', 'I21.11');
      if (/\b(?:inferior|inferoposterior|inferolateral|infero-?\w*)\b/.test(s))
        return t('st elevation (stemi) myocardial infarction involving other coronary artery of inferior wall', 'I21.19');
      if (/\b(?:lcx|circumflex)\b/.test(s)) return t('st elevation (stemi) myocardial infarction involving left circumflex coronary artery', 'I21.21');
      if (/\b(?:lateral|posterior|posterolateral|high lateral)\b/.test(s))
        return t('st elevation (stemi) myocardial infarction involving other sites', 'I21.29');
      return t('st elevation (stemi) myocardial infarction of unspecified site', 'I21.3');
    },
  },
  {
    id: 'cad',
    terms: [
      'coronary artery disease',
      'ischa?emic heart disease',
      'coronary atherosclerosis',
      '(?:single|double|two|triple|three)[- ]vessel (?:coronary )?disease',
      '(?:significant |severe |\\d{2,3}% )?(?:proximal |mid |distal |ostial )?(?:lad|rca|lcx|left main|circumflex) (?:coronary artery )?(?:stenosis|disease|occlusion|lesion)',
    ],
    abbr: ['CAD', 'IHD', 'TVD', 'CHD'],
    chronic: true,
    target: (c) =>
      c.has(/\bunstable angina\b/)
        ? t('atherosclerotic heart disease of native coronary artery with unstable angina pectoris', 'I25.110')
        : t('atherosclerotic heart disease of native coronary artery without angina pectoris', 'I25.10'),
  },
  {
    id: 'heart_failure',
    group: 'heart_failure',
    terms: [
      '(?:acute |chronic |acute on chronic |acute decompensated |decompensated |congestive |systolic |diastolic |biventricular )*(?:heart|cardiac) failure',
      'congestive cardiac failure',
      'left ventricular failure',
      'acute pulmonary o?edema',
      'heart failure with (?:reduced|preserved|mid-?range) ejection fraction',
    ],
    abbr: ['CCF', 'CHF', 'HF', 'ADHF', 'HFrEF', 'HFpEF', 'HFmrEF', 'LVF', 'APO'],
    chronic: true,
    target: heartFailure,
  },
  {
    id: 'atrial_fibrillation',
    group: 'af',
    terms: ['(?:paroxysmal |persistent |permanent |chronic |fast |rapid )?atrial fibrillation', 'fast af', 'af with (?:rapid|fast) ventricular response'],
    abbr: ['AF', 'AFib', 'PAF'],
    chronic: true,
    target: (c) => {
      const s = c.clause;
      if (/\bparoxysmal\b|\bpaf\b/.test(s)) return t('paroxysmal atrial fibrillation', 'I48.0');
      if (/\b(?:long[- ]standing )?persistent\b/.test(s)) return t('other persistent atrial fibrillation', 'I48.1');
      if (/\bpermanent\b/.test(s)) return t('permanent atrial fibrillation', 'I48.21');
      if (/\bchronic\b/.test(s)) return t('chronic atrial fibrillation, unspecified', 'I48.20');
      return t('unspecified atrial fibrillation', 'I48.91');
    },
  },
  {
    id: 'heart_block',
    terms: [
      'complete heart block',
      '(?:third|3rd)[- ]degree (?:av |atrioventricular |heart )?block',
      '(?:second|2nd)[- ]degree (?:av |atrioventricular |heart )?block',
      'mobitz (?:type )?(?:i|ii|1|2)',
      '(?:first|1st)[- ]degree (?:av |atrioventricular |heart )?block',
      'complete av block',
    ],
    abbr: ['CHB'],
    target: (c) => {
      if (/\b(?:complete|third|3rd)\b|\bchb\b/.test(c.mention)) return t('atrioventricular block, complete', 'I44.2');
      if (/\b(?:second|2nd|mobitz)\b/.test(c.mention)) return t('other atrioventricular block', 'I44.1');
      return t('atrioventricular block, first degree', 'I44.0');
    },
  },
  {
    id: 'dyslipidaemia',
    terms: [
      'dyslipida?emia',
      'hyperlipida?emia',
      'hypercholesterola?emia',
      'high cholesterol',
      'hypertriglyceridaemia',
      'hypertriglyceridemia',
      'mixed hyperlipida?emia',
    ],
    abbr: ['DLP', 'HLD'],
    chronic: true,
    target: (c) =>
      /cholesterol/.test(c.mention)
        ? t('pure hypercholesterolemia, unspecified', 'E78.00')
        : /triglycerid/.test(c.mention)
          ? t('pure hyperglyceridemia', 'E78.1')
          : /mixed/.test(c.mention)
            ? t('mixed hyperlipidemia', 'E78.2')
            : t('hyperlipidemia, unspecified', 'E78.5'),
  },
  {
    id: 'dvt',
    terms: [
      'deep ve(?:in|nous) thrombosis',
      '(?:popliteal|femoral|superficial femoral|common femoral|iliac|iliofemoral|calf|tibial|peroneal) ve(?:in|nous) (?:thrombosis|dvt)',
      '(?:proximal|distal) dvt',
    ],
    abbr: ['DVT'],
    past: t('personal history of other venous thrombosis and embolism', 'Z86.718'),
    target: (c) => {
      const s = c.clause;
      const side = c.side === 'bilateral' ? 'bilateral' : (c.side ?? 'unspecified');
      if (/\b(?:upper limb|arm|subclavian|axillary|brachial)\b/.test(s))
        return t(`acute embolism and thrombosis of unspecified deep veins of ${side} upper extremity`, 'I82.62');
      const vein = /\bpopliteal\b/.test(c.mention)
        ? 'popliteal vein'
        : /\biliac|iliofemoral\b/.test(c.mention)
          ? 'iliac vein'
          : /\bfemoral\b/.test(c.mention)
            ? 'femoral vein'
            : /\b(?:calf|tibial|peroneal)\b/.test(c.mention)
              ? 'tibial vein'
              : null;
      if (vein) return t(`acute embolism and thrombosis of ${side} ${vein}`, 'I82.4');
      return t(`acute embolism and thrombosis of unspecified deep veins of ${side} lower extremity`, 'I82.40');
    },
  },
  {
    id: 'stroke',
    group: 'stroke',
    terms: [
      '(?:acute )?(?:isch(?:a)?emic )?stroke',
      'cerebrovascular accident',
      '(?:acute )?(?:cerebral|cerebellar|lacunar|brainstem|pontine) infarct(?:ion)?',
      'cerebral infarction',
      'cva',
    ],
    abbr: ['CVA', 'AIS', 'LACI', 'TACI', 'PACI', 'POCI'],
    past: t('personal history of transient ischemic attack (tia), and cerebral infarction without residual deficits', 'Z86.73'),
    target: (c) => (c.has(/\bha?emorrhagic stroke\b/) ? t('nontraumatic intracerebral hemorrhage, unspecified', 'I61.9') : strokeTarget(c)),
  },
  {
    id: 'hemiplegia',
    terms: ['(?:right|left|rt|lt)?[- ]?(?:sided )?hemipar(?:esis|etic)', '(?:right|left|rt|lt)?[- ]?(?:sided )?hemipleg(?:ia|ic)'],
    kind: 'deficit',
    target: (c) =>
      c.side === 'left'
        ? t('hemiplegia, unspecified affecting left nondominant side', 'G81.94')
        : c.side === 'right'
          ? t('hemiplegia, unspecified affecting right dominant side', 'G81.91')
          : t('hemiplegia, unspecified affecting unspecified side', 'G81.90'),
  },
  {
    id: 'aphasia',
    terms: ['aphasia', 'dysphasia'],
    kind: 'deficit',
    target: (c) => (/dysphasia/.test(c.mention) ? t('dysphasia', 'R47.02') : t('aphasia', 'R47.01')),
  },
  {
    id: 'cardiomyopathy',
    terms: ['(?:dilated |ischa?emic |hypertrophic )?cardiomyopathy'],
    abbr: ['DCM', 'HOCM'],
    chronic: true,
    target: (c) =>
      /dilated|dcm/.test(c.mention)
        ? t('dilated cardiomyopathy', 'I42.0')
        : /hypertrophic|hocm/.test(c.mention)
          ? t('obstructive hypertrophic cardiomyopathy', 'I42.1')
          : /ischa?emic/.test(c.mention)
            ? t('ischemic cardiomyopathy', 'I25.5')
            : t('cardiomyopathy, unspecified', 'I42.9'),
  },
  {
    id: 'aaa',
    terms: ['abdominal aortic aneurysm'],
    abbr: ['AAA'],
    chronic: true,
    target: (c) => (c.has(/\bruptur\w*/) ? t('abdominal aortic aneurysm, ruptured', 'I71.3') : t('abdominal aortic aneurysm, without rupture', 'I71.4')),
  },
  {
    id: 'syncope',
    terms: ['syncope', 'syncopal (?:episode|attack)s?', 'vasovagal syncope'],
    kind: 'symptom',
    target: (c) => (/vasovagal/.test(c.mention) ? t('syncope and collapse', 'R55') : t('syncope and collapse', 'R55')),
  },
  {
    id: 'chest_pain',
    terms: ['(?:atypical |non-?cardiac |musculoskeletal |pleuritic |central |left[- ]sided |retrosternal )?chest pain'],
    kind: 'symptom',
    target: (c) =>
      c.has(/\b(?:atypical|non-?cardiac|musculoskeletal|chest wall)\b/)
        ? t('other chest pain', 'R07.89')
        : c.has(/\bpleuritic\b/)
          ? t('pleurodynia', 'R07.81')
          : t('chest pain, unspecified', 'R07.9'),
  },
  {
    id: 'appendicitis',
    terms: ['(?:acute |perforated |gangrenous |suppurative |ruptured )*appendicitis', 'appendicular (?:abscess|mass)'],
    target: appendicitisTarget,
  },
  {
    id: 'duodenal_ulcer',
    group: 'ulcer',
    terms: ['(?:bleeding |perforated )?duodenal ulcers?(?: disease)?', 'bleeding du'],
    abbr: ['DU'],
    infection: 'additional',
    target: (c) => ulcerTarget(c, 'duodenal'),
  },
  {
    id: 'gastric_ulcer',
    group: 'ulcer',
    terms: ['(?:bleeding |perforated )?gastric ulcers?'],
    infection: 'additional',
    target: (c) => ulcerTarget(c, 'gastric'),
  },
  {
    id: 'peptic_ulcer',
    group: 'ulcer',
    terms: ['(?:bleeding |perforated )?peptic ulcers?(?: disease)?'],
    abbr: ['PUD'],
    infection: 'additional',
    target: (c) => ulcerTarget(c, 'peptic'),
  },
  {
    id: 'variceal_bleed',
    terms: ['(?:o?esophageal )?variceal (?:bleed(?:ing)?|ha?emorrhage)', 'bleeding (?:o?esophageal )?varices'],
    target: (c) => (c.noteConcept('cirrhosis') ? t('secondary esophageal varices with bleeding', 'I85.11') : t('esophageal varices with bleeding', 'I85.01')),
  },
  {
    id: 'oesophageal_varices',
    terms: ['o?esophageal varices'],
    target: (c) =>
      c.noteConcept('cirrhosis') ? t('secondary esophageal varices without bleeding', 'I85.10') : t('esophageal varices without bleeding', 'I85.00'),
  },
  {
    id: 'gerd',
    terms: ['gastro-?o?esophageal reflux(?: disease)?', 'reflux o?esophagitis', 'acid reflux'],
    abbr: ['GERD', 'GORD'],
    chronic: true,
    target: (c) =>
      c.has(/\besophagitis|oesophagitis\b/)
        ? t('gastro-esophageal reflux disease with esophagitis, without bleeding', 'K21.0')
        : t('gastro-esophageal reflux disease without esophagitis', 'K21.9'),
  },
  {
    id: 'gastritis',
    terms: ['(?:erosive |antral |chronic |acute |h\\.? pylori )?gastritis'],
    target: (c) =>
      c.has(/\b(?:bleed\w*|ha?emorrhag\w*)\b/) ? t('gastritis, unspecified, with bleeding', 'K29.71') : t('gastritis, unspecified, without bleeding', 'K29.70'),
  },
  {
    id: 'gastroenteritis',
    terms: [
      '(?:acute |infective |infectious |viral |bacterial )?gastroenteritis',
      'gastro-?enteritis',
      'infective diarrho?ea',
      'acute diarrho?ea and vomiting',
      'food poisoning',
      'gastroenterocolitis',
    ],
    abbr: ['AGE'],
    target: (c) =>
      c.has(/\b(?:viral|rotavirus|norovirus)\b/)
        ? t('viral intestinal infection, unspecified', 'A08.4')
        : c.has(/\b(?:infective|infectious|bacterial|food poisoning|dysentery)\b/) || /infective|infectious|food poisoning/.test(c.mention)
          ? t('infectious gastroenteritis and colitis, unspecified', 'A09')
          : t('noninfective gastroenteritis and colitis, unspecified', 'K52.9'),
  },
  {
    id: 'abdominal_pain',
    terms: ['(?:acute |right iliac fossa |epigastric |generali[sz]ed )?abdominal pain', 'epigastric pain'],
    kind: 'symptom',
    target: (c) => (/epigastric/.test(c.mention) ? t('epigastric pain', 'R10.13') : t('unspecified abdominal pain', 'R10.9')),
  },
  {
    id: 'intestinal_obstruction',
    terms: ['(?:adhesive )?(?:small |large )?(?:bowel|intestinal) obstruction', 'sub-?acute intestinal obstruction'],
    abbr: ['SBO', 'LBO', 'SAIO'],
    target: intestinalObstruction,
  },
  {
    id: 'ileus',
    terms: ['(?:paralytic |post-?operative )?ileus'],
    target: (c) => (/paralytic/.test(c.mention) ? t('paralytic ileus', 'K56.0') : t('ileus, unspecified', 'K56.7')),
  },
  {
    id: 'inguinal_hernia',
    terms: [
      '(?:direct |indirect |recurrent |incarcerated |obstructed |strangulated |irreducible |reducible |bilateral )*inguinal hernias?',
      'inguinoscrotal hernia',
    ],
    target: (c) => {
      const bilat = c.side === 'bilateral' || c.has(/\bbilateral\b/);
      const gang = c.has(/\b(?:strangulat\w*|gangren\w*)\b/);
      const obst = c.has(/\b(?:obstruct\w*|incarcerat\w*|irreducible)\b/);
      const rec = c.has(/\brecurren\w*/);
      if (bilat)
        return t(
          `bilateral inguinal hernia, ${gang ? 'with gangrene' : obst ? 'with obstruction, without gangrene' : 'without obstruction or gangrene'}, ${rec ? 'recurrent' : 'not specified as recurrent'}`,
          gang ? 'K40.1' : obst ? 'K40.0' : 'K40.2',
        );
      return t(
        `unilateral inguinal hernia, ${gang ? 'with gangrene' : obst ? 'with obstruction, without gangrene' : 'without obstruction or gangrene'}, ${rec ? 'recurrent' : 'not specified as recurrent'}`,
        gang ? 'K40.4' : obst ? 'K40.3' : 'K40.9',
      );
    },
  },
  {
    id: 'femoral_hernia',
    terms: ['femoral hernias?'],
    target: (c) =>
      c.has(/\b(?:obstruct\w*|incarcerat\w*|irreducible|strangulat\w*)\b/)
        ? t('unilateral femoral hernia, with obstruction, without gangrene, not specified as recurrent', 'K41.3')
        : t('unilateral femoral hernia, without obstruction or gangrene, not specified as recurrent', 'K41.9'),
  },
  {
    id: 'umbilical_hernia',
    terms: ['(?:para-?)?umbilical hernias?'],
    target: (c) =>
      c.has(/\b(?:obstruct\w*|incarcerat\w*|irreducible|strangulat\w*)\b/)
        ? t('umbilical hernia with obstruction, without gangrene', 'K42.0')
        : t('umbilical hernia without obstruction or gangrene', 'K42.9'),
  },
  {
    id: 'incisional_hernia',
    terms: ['incisional hernias?', 'ventral hernias?'],
    target: (c) =>
      c.has(/\b(?:obstruct\w*|incarcerat\w*|irreducible|strangulat\w*)\b/)
        ? t('incisional hernia with obstruction, without gangrene', 'K43.0')
        : t('incisional hernia without obstruction or gangrene', 'K43.2'),
  },
  {
    id: 'diverticulitis',
    terms: ['(?:sigmoid |colonic )?diverticulitis', 'diverticular disease', 'diverticulosis', 'diverticular bleed(?:ing)?'],
    target: (c) => {
      if (/bleed/.test(c.mention)) return t('diverticulosis of large intestine without perforation or abscess with bleeding', 'K57.31');
      if (/diverticulitis/.test(c.mention))
        return c.has(/\b(?:perforat\w*|abscess)\b/)
          ? t('diverticulitis of large intestine with perforation and abscess without bleeding', 'K57.20')
          : t('diverticulitis of large intestine without perforation or abscess without bleeding', 'K57.32');
      return t('diverticulosis of large intestine without perforation or abscess without bleeding', 'K57.30');
    },
  },
  {
    id: 'colorectal_cancer',
    terms: [
      '(?:adeno)?carcinoma of (?:the )?(?:sigmoid(?: colon)?|rectum|rectosigmoid(?: junction)?|ca?ecum|ascending colon|transverse colon|descending colon|hepatic flexure|splenic flexure|colon)',
      '(?:sigmoid|rectal|rectosigmoid|ca?ecal|colonic|colon|colorectal) (?:cancer|carcinoma|adenocarcinoma|malignancy|tumou?r|ca)',
      '(?:ca|cancer) (?:of )?(?:the )?(?:sigmoid|rectum|colon|ca?ecum)',
    ],
    abbr: ['CRC'],
    target: (c) => {
      const s = c.clause + ' ' + c.mention;
      if (/\brectosigmoid\b/.test(s)) return t('malignant neoplasm of rectosigmoid junction', 'C19');
      if (/\b(?:rectum|rectal)\b/.test(s)) return t('malignant neoplasm of rectum', 'C20');
      if (/\bsigmoid\b/.test(s)) return t('malignant neoplasm of sigmoid colon', 'C18.7');
      if (/\bca?ecum|ca?ecal\b/.test(s)) return t('malignant neoplasm of cecum', 'C18.0');
      if (/\bascending\b/.test(s)) return t('malignant neoplasm of ascending colon', 'C18.2');
      if (/\bhepatic flexure\b/.test(s)) return t('malignant neoplasm of hepatic flexure', 'C18.3');
      if (/\btransverse\b/.test(s)) return t('malignant neoplasm of transverse colon', 'C18.4');
      if (/\bsplenic flexure\b/.test(s)) return t('malignant neoplasm of splenic flexure', 'C18.5');
      if (/\bdescending\b/.test(s)) return t('malignant neoplasm of descending colon', 'C18.6');
      return t('malignant neoplasm of colon, unspecified', 'C18.9');
    },
  },
  {
    id: 'adenocarcinoma',
    terms: ['adenocarcinoma'],
    target: (c) =>
      /\bsigmoid\b/.test(c.clause)
        ? t('malignant neoplasm of sigmoid colon', 'C18.7')
        : /\b(?:colon|colonic)\b/.test(c.clause)
          ? t('malignant neoplasm of colon, unspecified', 'C18.9')
          : /\brect/.test(c.clause)
            ? t('malignant neoplasm of rectum', 'C20')
            : /\b(?:lung|bronch)/.test(c.clause)
              ? t('malignant neoplasm of unspecified part of unspecified bronchus or lung', 'C34')
              : /\b(?:stomach|gastric)\b/.test(c.clause)
                ? t('malignant neoplasm of stomach, unspecified', 'C16.9')
                : [],
  },
  {
    id: 'pancreatic_cancer',
    terms: ['pancreatic (?:cancer|carcinoma|adenocarcinoma|malignancy)', '(?:carcinoma|cancer) of (?:the )?(?:head of (?:the )?)?pancreas'],
    target: (c) => (c.has(/\bhead\b/) ? t('malignant neoplasm of head of pancreas', 'C25.0') : t('malignant neoplasm of pancreas, unspecified', 'C25.9')),
  },
  {
    id: 'cholecystitis',
    group: 'gallbladder',
    terms: ['(?:acute |chronic |acalculous |calculous |gangrenous |emphysematous )*cholecystitis'],
    target: (c) => {
      const stones = !c.has(/\bacalculous\b/) && (c.has(/\b(?:calculous|gall ?stones?|cholelithiasis|calculus)\b/) || c.noteConcept('cholelithiasis'));
      const chronic = c.has(/\bchronic\b/);
      const acute = c.has(/\bacute\b/) || !chronic;
      if (stones)
        return acute && chronic
          ? t('calculus of gallbladder with acute and chronic cholecystitis without obstruction', 'K80.12')
          : acute
            ? t('calculus of gallbladder with acute cholecystitis without obstruction', 'K80.00')
            : t('calculus of gallbladder with chronic cholecystitis without obstruction', 'K80.10');
      return acute && chronic
        ? t('acute cholecystitis with chronic cholecystitis', 'K81.2')
        : acute
          ? t('acute cholecystitis', 'K81.0')
          : t('chronic cholecystitis', 'K81.1');
    },
  },
  {
    id: 'choledocholithiasis',
    terms: ['choledocholithiasis', '(?:cbd|common bile duct) stones?', 'stones? in (?:the )?(?:cbd|common bile duct)'],
    target: (c) =>
      c.noteConcept('cholangitis')
        ? t('calculus of bile duct with acute cholangitis without obstruction', 'K80.32', 'K80.3')
        : c.has(/\bobstruct\w*|jaundice\b/)
          ? t('calculus of bile duct without cholangitis or cholecystitis with obstruction', 'K80.51')
          : t('calculus of bile duct without cholangitis or cholecystitis without obstruction', 'K80.50'),
  },
  {
    id: 'pancreatitis',
    terms: ['(?:acute |chronic |gallstone |biliary |alcoholic |alcohol[- ]induced |necrotising |necrotizing )*pancreatitis'],
    target: (c) => {
      if (c.has(/\bchronic\b/) && !c.has(/\bacute\b/))
        return c.has(/\balcohol\w*/) ? t('alcohol-induced chronic pancreatitis', 'K86.0') : t('other chronic pancreatitis', 'K86.1');
      const nec = c.has(/\bnecro\w*/);
      const which = c.has(/\b(?:gallstone|biliary)\b/)
        ? ['biliary acute pancreatitis', 'K85.1']
        : c.has(/\balcohol\w*/)
          ? ['alcohol induced acute pancreatitis', 'K85.2']
          : ['acute pancreatitis', 'K85.9'];
      return t(`${which[0]} ${nec ? 'with uninfected necrosis' : 'without necrosis or infection'}${which[1] === 'K85.9' ? ', unspecified' : ''}`, which[1]!);
    },
  },
  {
    id: 'cirrhosis',
    terms: ['(?:liver )?cirrhosis', 'chronic liver disease', 'alcoholic liver disease'],
    abbr: ['CLD', 'ALD'],
    chronic: true,
    target: (c) => {
      const alcohol = c.has(/\balcohol\w*/) || c.noteConcept('alcohol_dependence');
      const ascites = c.has(/\bascites\b/) || c.noteConcept('ascites');
      if (alcohol) return ascites ? t('alcoholic cirrhosis of liver with ascites', 'K70.31') : t('alcoholic cirrhosis of liver without ascites', 'K70.30');
      return t('unspecified cirrhosis of liver', 'K74.60');
    },
  },
  {
    id: 'liver_abscess',
    terms: ['(?:pyogenic |amoebic )?liver abscess'],
    target: (c) => (/amoebic/.test(c.mention) ? t('amebic liver abscess', 'A06.4') : t('abscess of liver', 'K75.0')),
  },
  {
    id: 'haemorrhoids',
    terms: ['(?:internal |external |bleeding |prolapsed |thrombosed )?ha?emorrhoids', 'piles'],
    target: (c) => {
      const m = /\b(first|1st|second|2nd|third|3rd|fourth|4th|grade\s*(?:i{1,3}|iv|[1-4]))\b[- ]?(?:degree)?/.exec(c.clause);
      const g = m ? m[1]!.replace(/grade\s*/, '') : '';
      const deg = /^(?:first|1st|i|1)$/.test(g)
        ? 'first'
        : /^(?:second|2nd|ii|2)$/.test(g)
          ? 'second'
          : /^(?:third|3rd|iii|3)$/.test(g)
            ? 'third'
            : /^(?:fourth|4th|iv|4)$/.test(g)
              ? 'fourth'
              : null;
      if (c.has(/\bthrombosed\b/)) return t('other hemorrhoids', 'K64.5', 'K64.8');
      return deg
        ? t(`${deg} degree hemorrhoids`, deg === 'first' ? 'K64.0' : deg === 'second' ? 'K64.1' : deg === 'third' ? 'K64.2' : 'K64.3')
        : t('unspecified hemorrhoids', 'K64.9');
    },
  },
  {
    id: 'perianal_abscess',
    terms: ['perianal abscess', 'perirectal abscess', 'ischiorectal abscess'],
    target: (c) => (/ischiorectal/.test(c.mention) ? t('ischiorectal abscess', 'K61.39', 'K61.3') : t('perianal abscess', 'K61.0')),
  },
  {
    id: 'fracture',
    terms: [
      '(?:closed |open |displaced |undisplaced |non-?displaced |comminuted |compound |transverse |oblique |spiral |segmental )*fractures? (?:of )?(?:the )?(?:right |left |rt |lt )?(?:neck of (?:the )?femur|femoral neck|hip|distal radius|radius|radial shaft|ulna|wrist|ankle|tibia|tibial shaft|tibial plateau|fibula|femur|femoral shaft|humerus|humeral shaft|clavicle|ribs?|vertebra\\w*|pelvis|metacarpal|shaft of (?:the )?\\w+)',
      '(?:closed |open |displaced |undisplaced |non-?displaced |comminuted |transverse |oblique |spiral )*(?:right |left )?(?:tibial|femoral|humeral|radial|ulnar) shaft fractures?',
      '(?:right |left |rt |lt )?(?:neck of femur|nof|hip|distal radius|colles|ankle|tibial|femoral shaft|humeral|clavicle|rib|vertebral|pelvic|compression|intertrochanteric|subtrochanteric|subcapital) fractures?',
      '#\\s*(?:right |left |rt |lt )?(?:nof|neck of femur|hip|distal radius|radius|wrist|ankle|tibia|femur|humerus|clavicle)',
      "colles'? fracture",
    ],
    target: fractureTarget,
  },
  {
    id: 'pathological_fracture',
    group: 'fracture',
    terms: ['(?:osteoporotic|fragility|pathological) fractures?'],
    target: (c) =>
      c.has(/\b(?:hip|neck of femur|nof|femur)\b/)
        ? t(`age-related osteoporosis with current pathological fracture, ${sideWord(c)} femur, initial encounter for fracture`, 'M80.05')
        : c.has(/\b(?:vertebra\w*|spine|lumbar|thoracic)\b/)
          ? t('age-related osteoporosis with current pathological fracture, vertebra(e), initial encounter for fracture', 'M80.08')
          : t('age-related osteoporosis with current pathological fracture, unspecified site, initial encounter for fracture', 'M80.0'),
  },
  {
    id: 'osteoarthritis',
    terms: [
      '(?:primary |secondary |severe |advanced |end[- ]stage )?(?:osteoarthritis|osteoarthrosis|degenerative joint disease)(?: of (?:the )?(?:right |left |both |bilateral )?(?:knees?|hips?))?',
      '(?:right |left |bilateral |both )?(?:knee|hip) (?:osteoarthritis|oa)',
      'oa (?:of )?(?:the )?(?:right |left |both |bilateral )?(?:knees?|hips?)',
    ],
    abbr: ['OA', 'DJD'],
    chronic: true,
    target: (c) => {
      const s = c.clause;
      const both = c.side === 'bilateral' || /\b(?:both|bilateral)\b/.test(s);
      if (/\bknees?\b/.test(s))
        return both ? t('bilateral primary osteoarthritis of knee', 'M17.0') : t(`unilateral primary osteoarthritis, ${sideWord(c)} knee`, 'M17.1');
      if (/\bhips?\b/.test(s))
        return both ? t('bilateral primary osteoarthritis of hip', 'M16.0') : t(`unilateral primary osteoarthritis, ${sideWord(c)} hip`, 'M16.1');
      if (/\bgenerali[sz]ed\b/.test(s)) return t('polyosteoarthritis, unspecified', 'M15.9');
      return t('unspecified osteoarthritis, unspecified site', 'M19.90');
    },
  },
  {
    id: 'gout',
    terms: ['(?:acute |chronic |tophaceous )?gout(?:y arthritis)?(?: flare| attack)?', 'podagra', 'gouty arthritis'],
    chronic: true,
    target: (c) => {
      const s = c.clause;
      const side = sideWord(c);
      if (/\btophaceous|tophi|tophus\b/.test(s)) return t('chronic gout, unspecified, without tophus (tophi)', 'M1A');
      if (/\bknee\b/.test(s)) return t(`idiopathic gout, ${side} knee`, 'M10.06');
      if (/\b(?:ankle|foot|toe|mtp|metatarsophalangeal|podagra)\b/.test(s)) return t(`idiopathic gout, ${side} ankle and foot`, 'M10.07');
      if (/\b(?:wrist)\b/.test(s)) return t(`idiopathic gout, ${side} wrist`, 'M10.03');
      if (/\b(?:elbow)\b/.test(s)) return t(`idiopathic gout, ${side} elbow`, 'M10.02');
      if (/\b(?:hand|finger)\b/.test(s)) return t(`idiopathic gout, ${side} hand`, 'M10.04');
      return t('gout, unspecified', 'M10.9');
    },
  },
  {
    id: 'septic_arthritis',
    terms: ['septic arthritis', 'pyogenic arthritis', 'infective arthritis', 'septic (?:knee|hip|joint)'],
    infection: 'additional',
    target: (c) => {
      const joint = c.has(/\bknee\b/)
        ? 'knee'
        : c.has(/\bhip\b/)
          ? 'hip'
          : c.has(/\bankle\b/)
            ? 'ankle and foot'
            : c.has(/\bshoulder\b/)
              ? 'shoulder'
              : c.has(/\belbow\b/)
                ? 'elbow'
                : c.has(/\bwrist\b/)
                  ? 'wrist'
                  : null;
      const site = joint ? `${sideWord(c)} ${joint}` : 'unspecified joint';
      // staphylococcal / pneumococcal / streptococcal arthritis are combination codes (the organism also gets B95-B96)
      const kind =
        c.organism === 'mssa' || c.organism === 'mrsa'
          ? ['staphylococcal arthritis', 'M00.0']
          : c.organism === 'pneumococcus'
            ? ['pneumococcal arthritis', 'M00.1']
            : c.organism === 'gas' || c.organism === 'gbs'
              ? ['other streptococcal arthritis', 'M00.2']
              : c.organism
                ? ['arthritis due to other bacteria', 'M00.8']
                : ['pyogenic arthritis, unspecified', 'M00.9'];
      return c.organism ? t(`${kind[0]}, ${site}`, kind[1]!) : t(joint ? `${kind[0]}` : 'pyogenic arthritis, unspecified', 'M00.9');
    },
  },
  {
    id: 'osteomyelitis',
    terms: ['(?:acute |chronic )?osteomyelitis'],
    infection: 'additional',
    target: (c) =>
      c.has(/\b(?:foot|toe|ankle|calcaneum|heel)\b/)
        ? t(`${c.has(/\bchronic\b/) ? 'other chronic' : 'other acute'} osteomyelitis, ${sideWord(c)} ankle and foot`, 'M86.1', 'M86.6', 'M86.9')
        : t('osteomyelitis, unspecified', 'M86.9'),
  },
  {
    id: 'osteoporosis',
    terms: ['osteoporosis', 'osteopenia'],
    chronic: true,
    target: (c) =>
      /osteopenia/.test(c.mention)
        ? t('other disorders of bone density and structure', 'M85.8')
        : t('age-related osteoporosis without current pathological fracture', 'M81.0'),
  },
  {
    id: 'disc_prolapse',
    terms: ['(?:lumbar )?(?:disc prolapse|prolapsed (?:intervertebral )?disc|slipped disc|herniated disc|disc herniation)', 'pivd'],
    abbr: ['PIVD'],
    target: (c) =>
      c.has(/\b(?:sciatica|radiculopathy|radicular)\b/)
        ? t('intervertebral disc disorders with radiculopathy, lumbar region', 'M51.16')
        : t('other intervertebral disc displacement, lumbar region', 'M51.26'),
  },
  {
    id: 'lumbar_spondylosis',
    terms: ['(?:lumbar |cervical )?spondylosis'],
    chronic: true,
    target: (c) =>
      /cervical/.test(c.mention)
        ? t('spondylosis without myelopathy or radiculopathy, cervical region', 'M47.812')
        : t('spondylosis without myelopathy or radiculopathy, lumbar region', 'M47.816'),
  },
  {
    id: 'sle',
    terms: ['systemic lupus erythematosus', 'lupus'],
    abbr: ['SLE'],
    chronic: true,
    target: (c) =>
      c.has(/\bnephritis\b/) ? t('glomerular disease in systemic lupus erythematosus', 'M32.14') : t('systemic lupus erythematosus, unspecified', 'M32.9'),
  },
  { id: 'cellulitis', terms: ['cellulitis'], infection: 'additional', target: cellulitisTarget },
  {
    id: 'abscess',
    terms: ['(?:skin |subcutaneous |gluteal |axillary |breast |thigh |leg |back )?abscess(?:es)?'],
    infection: 'additional',
    // only skin and soft-tissue abscesses here; an organ's abscess (peritonsillar, psoas, liver…) is its own code,
    // left to its own concept or to the search engine
    target: (c) =>
      c.has(/\b(?:buttock|gluteal)\b/)
        ? t('cutaneous abscess of buttock', 'L02.31')
        : c.has(/\baxill\w*/)
          ? t(`cutaneous abscess of ${sideWord(c)} axilla`, 'L02.41')
          : c.has(/\b(?:leg|thigh|foot|lower limb)\b/)
            ? t(`cutaneous abscess of ${sideWord(c)} lower limb`, 'L02.41', 'L02.61')
            : c.has(/\bbreast\b/)
              ? t('abscess of breast and nipple', 'N61.1')
              : c.has(/\b(?:skin|subcutaneous|cutaneous|boil|furuncle|carbuncle|back|neck|arm|hand|trunk|abdominal wall)\b/)
                ? t('cutaneous abscess, unspecified', 'L02.91')
                : [],
  },
  {
    id: 'diabetic_foot_ulcer',
    terms: ['diabetic foot(?: ulcer| infection| sepsis)?', 'foot ulcer'],
    abbr: ['DFU', 'DFI'],
    target: (c) => [t(`non-pressure chronic ulcer of other part of ${sideWord(c)} foot with unspecified severity`, 'L97.5')],
  },
  {
    id: 'gangrene',
    terms: ['(?:wet |dry |gas )?gangrene'],
    target: (c) => (c.noteConcept('diabetes') ? null : /gas/.test(c.mention) ? t('gas gangrene', 'A48.0') : t('gangrene, not elsewhere classified', 'I96')),
  },
  {
    id: 'pressure_ulcer',
    terms: ['pressure (?:ulcer|sore|injury)', 'bed ?sores?', 'decubitus ulcer'],
    target: (c) => {
      const m = /\bstage\s*([1-4]|i{1,3}|iv)\b/.exec(c.clause);
      const st = m ? (({ i: '1', ii: '2', iii: '3', iv: '4' } as Record<string, string>)[m[1]!] ?? m[1]) : null;
      const site = c.has(/\bsacr\w*/)
        ? 'sacral region'
        : c.has(/\bheel\b/)
          ? `${sideWord(c)} heel`
          : c.has(/\b(?:buttock|gluteal)\b/)
            ? `${sideWord(c)} buttock`
            : 'unspecified site';
      return t(`pressure ulcer of ${site}, ${st ? `stage ${st}` : 'unstageable'}`, 'L89');
    },
  },
  {
    id: 'aki',
    terms: [
      'acute kidney injury',
      'acute renal (?:failure|injury|impairment)',
      'acute tubular necrosis',
      'aki on ckd',
      'acute on chronic (?:kidney|renal) (?:injury|failure|disease)',
    ],
    abbr: ['AKI', 'ARF', 'ATN'],
    target: (c) =>
      c.has(/\b(?:acute tubular necrosis|atn)\b/) ? t('acute kidney failure with tubular necrosis', 'N17.0') : t('acute kidney failure, unspecified', 'N17.9'),
  },
  {
    id: 'ckd',
    terms: [
      'chronic kidney disease',
      'chronic renal (?:failure|disease|impairment|insufficiency)',
      'end[- ]stage (?:renal|kidney) (?:failure|disease)',
      'diabetic kidney disease',
      'diabetic nephropathy',
    ],
    abbr: ['CKD', 'CRF', 'ESRF', 'ESRD', 'ESKD', 'DKD'],
    chronic: true,
    target: ckdTarget,
  },
  {
    id: 'uti',
    terms: ['urinary tract infections?', 'uro-?sepsis', '(?:acute )?cystitis', 'catheter[- ]associated (?:urinary tract infection|uti)'],
    abbr: ['UTI', 'CAUTI'],
    infection: 'additional',
    target: (c) =>
      /cystitis/.test(c.mention)
        ? t('acute cystitis without hematuria', 'N30.00')
        : /catheter|cauti/.test(c.mention)
          ? [
              t('infection and inflammatory reaction due to indwelling urethral catheter, initial encounter', 'T83.511A'),
              t('urinary tract infection, site not specified', 'N39.0'),
            ]
          : t('urinary tract infection, site not specified', 'N39.0'),
  },
  {
    id: 'pyelonephritis',
    terms: ['(?:acute |chronic |emphysematous )?pyelonephritis'],
    abbr: ['APN'],
    infection: 'additional',
    target: (c) => (/chronic/.test(c.mention) ? t('chronic pyelonephritis', 'N11.9') : t('acute pyelonephritis', 'N10')),
  },
  {
    id: 'urolithiasis',
    terms: [
      '(?:obstructing |impacted )?(?:distal |proximal |mid |vesicoureteric junction |vuj |puj )?(?:ureteric|ureteral|renal|kidney|staghorn) (?:calculus|calculi|stones?)',
      '(?:vesicoureteric|pelviureteric|ureterovesical|ureteropelvic) junction (?:calculus|stones?)',
      '(?:vuj|puj|uvj|upj) (?:calculus|stones?)',
      'ureterolithiasis',
      'nephrolithiasis',
      'urolithiasis',
      'calculus of (?:the )?(?:ureter|kidney)',
    ],
    target: (c) => {
      const s = c.mention + ' ' + c.clause;
      const ureter = /\bureter\w*|\b(?:vuj|uvj|vesicoureteric|ureterovesical|puj|upj|pelviureteric|ureteropelvic)\b/.test(s);
      const kidney = /\b(?:renal|kidney|staghorn|nephrolithiasis)\b/.test(c.mention);
      if (ureter && kidney) return t('calculus of kidney with calculus of ureter', 'N20.2');
      if (ureter) return t('calculus of ureter', 'N20.1');
      if (kidney) return t('calculus of kidney', 'N20.0');
      return t('urinary calculus, unspecified', 'N20.9');
    },
  },
  {
    id: 'hydronephrosis',
    terms: ['hydronephrosis', 'hydroureteronephrosis', 'obstructive uropathy'],
    target: (c) =>
      /obstructive uropathy/.test(c.mention) ? t('obstructive and reflux uropathy, unspecified', 'N13.9') : t('unspecified hydronephrosis', 'N13.30'),
  },
  {
    id: 'bph',
    terms: ['benign prostatic (?:hyperplasia|hypertrophy|enlargement)', 'enlarged prostate', 'prostatomegaly'],
    abbr: ['BPH', 'BPE'],
    chronic: true,
    target: (c) =>
      c.has(/\b(?:luts|retention|aru|obstructi\w*|hesitancy|frequency|nocturia)\b/) || c.noteConcept('urinary_retention')
        ? t('benign prostatic hyperplasia with lower urinary tract symptoms', 'N40.1')
        : t('benign prostatic hyperplasia without lower urinary tract symptoms', 'N40.0'),
  },
  {
    id: 'renal_cancer',
    terms: ['renal cell carcinoma', 'kidney cancer', 'renal (?:cancer|tumou?r|mass)'],
    abbr: ['RCC'],
    target: (c) => t(`malignant neoplasm of ${sideWord(c)} kidney, except renal pelvis`, 'C64'),
  },
  {
    id: 'dka',
    group: 'diabetes',
    terms: ['diabetic ketoacidosis', 'ketoacidosis'],
    abbr: ['DKA'],
    target: (c) => {
      const p = c.noteHas(DM_TYPE1) ? 'E10' : 'E11';
      return t(`${dmName(p)} with ketoacidosis without coma`, `${p}.10`);
    },
  },
  {
    id: 'diabetes',
    group: 'diabetes',
    terms: [
      '(?:type\\s*(?:1|2|i|ii|one|two)\\s+)?diabetes(?: mellitus)?',
      'diabetic(?! foot| ulcer| nephropathy| kidney| ketoacidosis| retinopathy| neuropathy)',
      't[12] ?dm',
      'dm ?(?:type\\s*)?(?:1|2|i|ii)',
      'niddm',
      'iddm',
    ],
    abbr: ['DM', 'T2DM', 'T1DM', 'NIDDM', 'IDDM', 'DMII', 'DM2'],
    chronic: true,
    target: diabetesTargets,
  },
  {
    id: 'hypoglycaemia',
    group: 'diabetes',
    terms: ['hypoglyca?emi(?:a|c episodes?|c attack)'],
    target: (c) => (c.noteConcept('diabetes') ? null : t('hypoglycemia, unspecified', 'E16.2')),
  },
  {
    id: 'hyperglycaemia',
    group: 'diabetes',
    terms: ['hyperglyca?emia'],
    target: (c) => (c.noteConcept('diabetes') ? null : t('hyperglycemia, unspecified', 'R73.9')),
  },
  {
    id: 'insulin_use',
    terms: ['on (?:s/?c |subcutaneous |basal[- ]bolus |long[- ]term |premixed )?insulin', 'insulin[- ](?:requiring|treated)'],
    kind: 'status',
    target: (c) => (c.noteConcept('diabetes') && !c.noteHas(DM_TYPE1) ? t('long term (current) use of insulin', 'Z79.4') : null),
  },
  {
    id: 'hyperthyroidism',
    terms: ['hyperthyroidism', 'thyrotoxicosis', "graves'? disease"],
    chronic: true,
    target: (c) =>
      /graves/.test(c.mention)
        ? t('thyrotoxicosis with diffuse goiter without thyrotoxic crisis or storm', 'E05.00')
        : t('thyrotoxicosis, unspecified without thyrotoxic crisis or storm', 'E05.90'),
  },
  {
    id: 'goitre',
    terms: ['(?:multinodular )?goit(?:re|er)'],
    abbr: ['MNG'],
    chronic: true,
    target: (c) => (/multinodular|mng/.test(c.mention) ? t('nontoxic multinodular goiter', 'E04.2') : t('nontoxic goiter, unspecified', 'E04.9')),
  },
  {
    id: 'obesity',
    terms: ['(?:morbid |severe |class [i1-3]+ )?obes(?:ity|e)'],
    chronic: true,
    target: (c) =>
      c.has(/\bmorbid|severe|class (?:iii|3)\b/) ? t('morbid (severe) obesity due to excess calories', 'E66.01') : t('obesity, unspecified', 'E66.9'),
  },
  {
    id: 'malnutrition',
    terms: ['(?:severe |moderate |mild |protein[- ]energy |protein[- ]calorie )?malnutrition', 'cachexia'],
    target: (c) =>
      /cachexia/.test(c.mention)
        ? t('cachexia', 'R64')
        : c.has(/\bsevere\b/)
          ? t('unspecified severe protein-calorie malnutrition', 'E43')
          : c.has(/\bmoderate\b/)
            ? t('malnutrition of moderate degree', 'E44.0')
            : t('protein-calorie malnutrition, unspecified', 'E46'),
  },
  {
    id: 'dehydration',
    terms: ['dehydrat(?:ion|ed)', 'hypovola?emia', 'volume depletion'],
    target: (c) => (/hypovol/.test(c.mention) ? t('hypovolemia', 'E86.1') : t('dehydration', 'E86.0')),
  },
  {
    id: 'metabolic_acidosis',
    terms: ['(?:lactic |metabolic )acidosis'],
    target: (c) => (/lactic/.test(c.mention) ? t('lactic acidosis', 'E87.2') : t('metabolic acidosis, unspecified', 'E87.2')),
  },
  {
    id: 'anaemia',
    terms: [
      '(?:iron[- ]deficiency |acute |chronic |severe |symptomatic |normocytic |microcytic |macrocytic |megaloblastic |aplastic |ha?emolytic |acute blood loss |renal )*ana?emi[ac]',
      'anaemia of (?:ckd|chronic kidney disease|chronic disease)',
    ],
    abbr: ['IDA'],
    target: anaemiaTarget,
  },
  {
    id: 'thalassaemia',
    terms: ['(?:beta |alpha |hbe |haemoglobin e )?thalassa?emia(?: major| minor| trait| intermedia)?'],
    chronic: true,
    target: (c) =>
      /trait|minor/.test(c.mention)
        ? t('thalassemia minor', 'D56.3')
        : /beta/.test(c.mention)
          ? t('beta thalassemia', 'D56.1')
          : /alpha/.test(c.mention)
            ? t('alpha thalassemia', 'D56.0')
            : t('thalassemia, unspecified', 'D56.9'),
  },
  {
    id: 'thrombocytopenia',
    terms: ['thrombocytopenia', 'low platelets?'],
    target: (c) => (c.noteConcept('dengue') || c.noteConcept('dengue_severe') ? null : t('thrombocytopenia, unspecified', 'D69.6')),
  },
  {
    id: 'neutropenia',
    terms: ['(?:febrile |chemotherapy[- ]induced |chemo[- ]induced |post[- ]chemotherapy )?neutropenia'],
    target: (c) => {
      const chemo = c.has(
        /\b(?:chemo(?:therapy)?[- ]induced|post[- ]chemo(?:therapy)?|after (?:cycle|chemo)|cycle \d+ of|chemotherapy|docetaxel|paclitaxel|cyclophosphamide|doxorubicin|carboplatin|cisplatin|folfox|capox)\b/,
      );
      const out = chemo
        ? [
            t('agranulocytosis secondary to cancer chemotherapy', 'D70.1'),
            t('adverse effect of antineoplastic and immunosuppressive drugs, initial encounter', 'T45.1X5A'),
          ]
        : [t('neutropenia, unspecified', 'D70.9')];
      if (/febrile/.test(c.mention) && !c.noteConcept('sepsis') && !c.noteConcept('neutropenic_sepsis'))
        out.push(t('fever presenting with conditions classified elsewhere', 'R50.81'));
      return out;
    },
  },
  {
    id: 'coagulopathy',
    terms: ['coagulopathy', 'disseminated intravascular coagulation'],
    abbr: ['DIC', 'DIVC'],
    target: (c) =>
      /dissem|dic|divc/.test(c.mention)
        ? t('disseminated intravascular coagulation [defibrination syndrome]', 'D65')
        : t('coagulation defect, unspecified', 'D68.9'),
  },
  {
    id: 'lymphoma',
    terms: ["(?:non-?hodgkin'?s? |hodgkin'?s? |diffuse large b[- ]cell )?lymphoma"],
    abbr: ['NHL', 'DLBCL'],
    target: (c) =>
      /hodgkin/.test(c.mention) && !/non/.test(c.mention)
        ? t('hodgkin lymphoma, unspecified, unspecified site', 'C81.9')
        : /diffuse large|dlbcl/.test(c.mention)
          ? t('diffuse large b-cell lymphoma, unspecified site', 'C83.3')
          : t('non-hodgkin lymphoma, unspecified, unspecified site', 'C85.9'),
  },
  {
    id: 'leukaemia',
    terms: ['(?:acute |chronic )?(?:myeloid|lymphoblastic|lymphocytic|myelogenous) leuka?emia', 'leuka?emia'],
    abbr: ['AML', 'CML', 'CLL'],
    target: (c) =>
      /aml|acute myeloid/.test(c.mention)
        ? t('acute myeloblastic leukemia, not having achieved remission', 'C92.00')
        : /all|lymphoblastic/.test(c.mention)
          ? t('acute lymphoblastic leukemia not having achieved remission', 'C91.00')
          : /cml|chronic myeloid|myelogenous/.test(c.mention)
            ? t('chronic myeloid leukemia, bcr/abl-positive, not having achieved remission', 'C92.10')
            : /cll|chronic lymphocytic/.test(c.mention)
              ? t('chronic lymphocytic leukemia of b-cell type not having achieved remission', 'C91.10')
              : t('leukemia, unspecified not having achieved remission', 'C95.90'),
  },
  {
    id: 'breast_cancer',
    terms: [
      '(?:right |left )?breast (?:cancer|carcinoma|malignancy|ca)',
      '(?:carcinoma|cancer) of (?:the )?(?:right |left )?breast',
      'invasive ductal carcinoma',
    ],
    abbr: ['IDC'],
    target: (c) => t(`malignant neoplasm of unspecified site of ${sideWord(c)} female breast`, 'C50.91'),
  },
  { id: 'ovarian_cancer', terms: ['ovarian (?:cancer|carcinoma|malignancy)'], target: (c) => t(`malignant neoplasm of ${sideWord(c)} ovary`, 'C56') },
  {
    id: 'seizure',
    group: 'seizure',
    terms: ['(?:febrile |generali[sz]ed |tonic[- ]clonic |breakthrough )?seizures?', 'fits', 'convulsions?'],
    target: (c) =>
      c.noteConcept('epilepsy') ? null : /febrile/.test(c.mention) ? t('simple febrile convulsions', 'R56.00') : t('unspecified convulsions', 'R56.9'),
  },
  {
    id: 'meningitis',
    terms: ['(?:bacterial |viral |cryptococcal )?meningitis'],
    target: (c) =>
      /bacterial/.test(c.mention)
        ? t('bacterial meningitis, unspecified', 'G00.9')
        : /viral/.test(c.mention)
          ? t('viral meningitis, unspecified', 'A87.9')
          : /cryptococcal/.test(c.mention)
            ? t('cryptococcal meningitis', 'B45.1')
            : t('meningitis, unspecified', 'G03.9'),
  },
  {
    id: 'dementia',
    terms: ['dementia', "alzheimer'?s(?: disease)?"],
    chronic: true,
    target: (c) =>
      /alzheimer/.test(c.mention)
        ? t("alzheimer's disease, unspecified", 'G30.9')
        : t('unspecified dementia, unspecified severity, without behavioral disturbance, psychotic disturbance, mood disturbance, and anxiety', 'F03.90'),
  },
  {
    id: 'head_injury',
    terms: ['head injury', 'traumatic brain injury', 'concussion'],
    abbr: ['TBI'],
    target: (c) =>
      /concussion/.test(c.mention)
        ? t('concussion without loss of consciousness, initial encounter', 'S06.0X0A')
        : t('unspecified injury of head, initial encounter', 'S09.90XA'),
  },
  {
    id: 'depression',
    terms: [
      '(?<!st[- ]|st[- ]segment |segment |pr[- ]|respiratory |cns |myocardial |marrow |bone marrow )(?:major )?depressi(?:on|ve disorder)',
      'depressive episode',
    ],
    abbr: ['MDD'],
    chronic: true,
    target: (c) =>
      /major/.test(c.mention) || /mdd/.test(c.mention)
        ? t('major depressive disorder, single episode, unspecified', 'F32.9')
        : t('depression, unspecified', 'F32.A'),
  },
  {
    id: 'alcohol_dependence',
    terms: ['alcohol(?:ic)? (?:dependence|dependency|use disorder|abuse|excess)', 'alcoholism', 'chronic alcoholic', 'alcohol withdrawal'],
    chronic: true,
    target: (c) =>
      /withdrawal/.test(c.mention)
        ? t('alcohol dependence with withdrawal, uncomplicated', 'F10.230')
        : /abuse/.test(c.mention)
          ? t('alcohol abuse, uncomplicated', 'F10.10')
          : t('alcohol dependence, uncomplicated', 'F10.20'),
  },
];

/** A diagnosis row of diagnoses.json. */
interface DataRow {
  id: string;
  coded?: true;
  group?: string;
  terms?: string[];
  abbr?: string[];
  kind?: DxConcept['kind'];
  chronic?: boolean;
  infection?: DxConcept['infection'];
  past?: Target | null;
  target?: Target | Target[] | null;
}

/** All diagnoses in matching order (longest match wins; equal spans: the earlier row). */
export const DIAGNOSES: DxConcept[] = assemble(rows as DataRow[], CODED);

function assemble(data: DataRow[], coded: DxConcept[]): DxConcept[] {
  const byId = new Map(coded.map((c) => [c.id, c]));
  const out = data.map((r): DxConcept => {
    if (r.coded) {
      const c = byId.get(r.id);
      if (!c) throw new Error(`diagnoses.json: ${r.id} is marked coded, and diagnoses.ts has no such row`);
      byId.delete(r.id);
      return c;
    }
    if (!r.terms?.length || r.target === undefined) throw new Error(`diagnoses.json: ${r.id} needs terms and a target`);
    const { coded: _coded, target, ...rest } = r;
    return { ...rest, terms: r.terms, target: () => target };
  });
  if (byId.size) throw new Error(`diagnoses.ts rows missing from diagnoses.json: ${[...byId.keys()].join(', ')}`);
  return out;
}

/** Case-insensitive patterns of organisms named in a clause. */
export function organismsIn(s: string): Organism[] {
  const out: Organism[] = [];
  for (const [o, re] of ORGANISM_TERMS) {
    re.lastIndex = 0;
    if (re.test(s)) out.push(o);
  }
  // "MRSA" also matches the generic S. aureus pattern for "methicillin-resistant staph aureus": keep the specific one
  return out.includes('mrsa') ? out.filter((o) => o !== 'mssa') : out;
}
