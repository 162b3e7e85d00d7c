/**
 * Concept extraction: phrasebook mentions in the note, each with its section, list item, sentence, assertion
 * (context.ts), side and organism; the patient's sex and discharge status.
 */
import { assertMention, type AssertionResult } from './context';
import { DIAGNOSES, ORGANISM_TERMS, organismsIn } from './phrasebook/diagnoses';
import { PROCEDURES } from './phrasebook/procedures';
import type { ConceptContext, DxConcept, Organism, PrConcept, Side } from './phrasebook/types';
import { layoutNote, segmentAt, sentenceAt, type NoteLayout, type Segment, type SectionKind } from './text';

export interface Mention {
  kind: 'dx' | 'pr';
  concept: DxConcept | PrConcept;
  start: number;
  end: number;
  text: string;
  segment: Segment;
  /** Clause used for qualifiers: the list item (list sections) or the sentence. */
  clauseStart: number;
  clauseEnd: number;
  assertion: AssertionResult;
  side: Side | null;
  organism: Organism | null;
}

interface Compiled<T> {
  concept: T;
  order: number;
  re: RegExp;
  abbr: RegExp | null;
}

function compile<T extends { terms: string[]; abbr?: string[] }>(list: T[]): Array<Compiled<T>> {
  return list.map((concept, order) => ({
    concept,
    order,
    re: new RegExp(`(?<![A-Za-z0-9])(?:${concept.terms.join('|')})(?![A-Za-z0-9])`, 'gi'),
    abbr: concept.abbr?.length ? new RegExp(`(?<![A-Za-z0-9/-])(?:${concept.abbr.join('|')})(?![A-Za-z0-9]|-\\d|\\s*:)`, 'g') : null,
  }));
}

let compiledDx: Array<Compiled<DxConcept>> | null = null;
let compiledPr: Array<Compiled<PrConcept>> | null = null;

/** Notes typed without capitals ("aecopd secondary to lrti"): abbreviations are matched in any case. */
function mostlyLowerCase(text: string): boolean {
  const letters = text.replace(/[^A-Za-z]/g, '');
  const upper = text.replace(/[^A-Z]/g, '').length;
  return letters.length > 40 && upper / letters.length < 0.02;
}

function matchAll<T>(list: Array<Compiled<T>>, text: string): Array<{ c: Compiled<T>; start: number; end: number }> {
  const raw: Array<{ c: Compiled<T>; start: number; end: number }> = [];
  const target = mostlyLowerCase(text) ? text.toUpperCase() : text;
  for (const c of list) {
    for (const re of [c.re, c.abbr]) {
      if (!re) continue;
      re.lastIndex = 0;
      for (const m of (re === c.abbr ? target : text).matchAll(re)) {
        const s = m[0];
        const lead = s.length - s.trimStart().length;
        const trail = s.length - s.trimEnd().length;
        if (s.trim().length < 2) continue;
        raw.push({ c, start: m.index + lead, end: m.index + s.length - trail });
      }
    }
  }
  // longest match wins; equal spans: the earlier concept in the phrasebook
  raw.sort((a, b) => a.start - b.start || b.end - b.start - (a.end - a.start) || a.c.order - b.c.order);
  let lastEnd = -1;
  const taken: typeof raw = [];
  for (const r of raw) {
    if (r.start < lastEnd) {
      // overlapping: keep it only if strictly longer than everything it overlaps (replace those)
      const over = taken.filter((x) => r.start < x.end && x.start < r.end);
      if (over.every((x) => r.end - r.start > x.end - x.start)) {
        for (const x of over) taken.splice(taken.indexOf(x), 1);
        taken.push(r);
        lastEnd = Math.max(...taken.map((x) => x.end));
      }
      continue;
    }
    taken.push(r);
    lastEnd = r.end;
  }
  return taken.sort((a, b) => a.start - b.start);
}

const SIDE_RE = /\b(right|left|rt|lt|bilateral|both|b\/l)\b/g;

function sideWord(w: string): Side {
  const l = w.toLowerCase();
  return l === 'right' || l === 'rt' ? 'right' : l === 'left' || l === 'lt' ? 'left' : 'bilateral';
}

/** The side of a mention: written inside it, else just before it, else just after it, else anywhere in its clause. */
function findSide(lower: string, start: number, end: number, clauseStart: number, clauseEnd: number, original: string): Side | null {
  const inside = [...lower.slice(start, end).matchAll(SIDE_RE)];
  if (inside.length) return sideWord(inside[0]![1]!);
  // "L chest drain", "R sided effusion": a capital L/R standing alone right before the mention
  const lr = /(?:^|[\s(])([LR])(?:\s+sided)?\s+(?:[a-z-]+\s+)?$/.exec(original.slice(Math.max(clauseStart, start - 20), start));
  if (lr) return lr[1] === 'L' ? 'left' : 'right';
  const before = lower.slice(Math.max(clauseStart, start - 40), start);
  const b = [...before.matchAll(SIDE_RE)];
  if (b.length) return sideWord(b[b.length - 1]![1]!);
  const after = lower.slice(end, Math.min(clauseEnd, end + 35));
  const a = /\b(right|left|rt|lt|bilateral|both|b\/l)\b/.exec(after);
  if (a) return sideWord(a[1]!);
  const any = /\b(right|left|bilateral)\b/.exec(lower.slice(clauseStart, clauseEnd));
  if (any) return sideWord(any[1]!);
  const anyLr = /(?:^|[\s(])([LR])(?:\s+sided)?\s+[a-z]/.exec(original.slice(clauseStart, clauseEnd));
  return anyLr ? (anyLr[1] === 'L' ? 'left' : 'right') : null;
}

const SPECIMENS: Array<[string, RegExp]> = [
  ['urine', /\b(?:urine|ufeme|msu|urinary|cauti)\b/],
  ['blood', /\b(?:blood|bacteraemia|bacteremia|bsi)\b/],
  ['sputum', /\b(?:sputum|bal|tracheal aspirate|bronchial)\b/],
  ['wound', /\b(?:wound|pus|swab|tissue|discharge|abscess|ulcer|bone)\b/],
  ['joint', /\b(?:joint|synovial|knee aspirat\w*|aspirate)\b/],
  ['gastric', /\b(?:clo|gastric|duodenal|biopsy|h\.? ?pylori|urea breath)\b/],
  ['csf', /\bcsf\b/],
];

/** Which specimens speak for which infection. */
const SITE_OF: Record<string, string[]> = {
  sepsis: ['blood'],
  septic_shock: ['blood'],
  severe_sepsis: ['blood'],
  bacteraemia: ['blood'],
  pneumonia: ['sputum'],
  uti: ['urine'],
  pyelonephritis: ['urine'],
  postprocedural_infection: ['wound'],
  cellulitis: ['wound'],
  abscess: ['wound'],
  necrotising_fasciitis: ['wound'],
  osteomyelitis: ['wound'],
  diabetic_foot_ulcer: ['wound'],
  septic_arthritis: ['joint'],
  duodenal_ulcer: ['gastric'],
  gastric_ulcer: ['gastric'],
  peptic_ulcer: ['gastric'],
  meningitis: ['csf'],
};

export interface Extraction {
  layout: NoteLayout;
  mentions: Mention[];
  /** Concept ids asserted present (or current) somewhere in the note. */
  present: Set<string>;
  organisms: Array<{ organism: Organism; specimens: string[] }>;
  sex: { value: 'F' | 'M' | null; evidence: string | null };
  alive: { value: boolean; evidence: string | null };
  dischargeStatus: number;
}

function negatedBefore(s: string, idx: number): boolean {
  const before = s.slice(Math.max(0, idx - 28), idx);
  return /(?:\b(?:no|not|non|without|nil|negative for|denies|free of|absence of|r\/o|ruled out)[- ]?(?:[a-z0-9/]+[ ,]+){0,2}[- ]?|non-?)$/.test(before);
}

export function affirmedIn(s: string, re: RegExp): boolean {
  const g = new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`);
  for (const m of s.matchAll(g)) if (!negatedBefore(s, m.index)) return true;
  return false;
}

/** Organisms named in a positive result ("grew E. coli", "MSSA"), with the specimens named in the same sentence. */
function findOrganisms(layout: NoteLayout): Extraction['organisms'] {
  const out: Extraction['organisms'] = [];
  for (const sent of layout.sentences) {
    const s = layout.text.slice(sent.start, sent.end);
    const lower = s.toLowerCase();
    for (const [org, re] of ORGANISM_TERMS) {
      re.lastIndex = 0;
      for (const m of s.matchAll(re)) {
        const seg = segmentAt(layout, sent.start + m.index);
        const a = assertMention({ sentence: s, start: m.index, end: m.index + m[0].length, section: seg?.section ?? 'narrative' });
        if (a.assertion === 'negated' || a.assertion === 'family' || a.assertion === 'hypothetical' || a.assertion === 'ignored') continue;
        const specimens = SPECIMENS.filter(([, r]) => r.test(lower)).map(([k]) => k);
        const hit = out.find((o) => o.organism === org);
        if (!hit) out.push({ organism: org, specimens });
        else for (const sp of specimens) if (!hit.specimens.includes(sp)) hit.specimens.push(sp);
      }
    }
  }
  // an MRSA result also reads as "staphylococcus aureus": keep the specific one
  return out.some((o) => o.organism === 'mrsa') ? out.filter((o) => o.organism !== 'mssa') : out;
}

function organismFor(conceptId: string, clause: string, notes: Extraction['organisms']): Organism | null {
  // an organism named in the mention's own clause, if the note reports it as a positive result anywhere
  const inClause = organismsIn(clause).filter((o) => notes.some((n) => n.organism === o));
  if (inClause.length === 1) return inClause[0]!;
  const sites = SITE_OF[conceptId];
  if (!sites) return null;
  const matching = notes.filter((n) => n.specimens.some((s) => sites.includes(s)));
  return matching.length === 1 ? matching[0]!.organism : null;
}

function findSex(text: string): Extraction['sex'] {
  const votes: Array<['F' | 'M', string]> = [];
  const patterns: Array<[RegExp, 'F' | 'M']> = [
    [
      /\b\d{1,3}\s*(?:-?\s*(?:year|yr)s?[- ]old\s+|\s*(?:yo|y\/o|y\.o\.|years?|yrs?)\s*,?\s*)?(?:malay |chinese |indian |iban |kadazan |bidayuh |orang asli |foreign |bangladeshi |indonesian |nepali |myanmar )?(female|lady|woman|girl|f)\b/gi,
      'F',
    ],
    [
      /\b\d{1,3}\s*(?:-?\s*(?:year|yr)s?[- ]old\s+|\s*(?:yo|y\/o|y\.o\.|years?|yrs?)\s*,?\s*)?(?:malay |chinese |indian |iban |kadazan |bidayuh |orang asli |foreign |bangladeshi |indonesian |nepali |myanmar )?(male|gentleman|man|boy|m)\b/gi,
      'M',
    ],
    [/\b(?:sex|gender|jantina)\s*[:=]?\s*(?:f|female|perempuan)\b/gi, 'F'],
    [/\b(?:sex|gender|jantina)\s*[:=]?\s*(?:m|male|lelaki)\b/gi, 'M'],
    [/\b(?:madam|mdm|mrs|ms|miss|puan|pn|cik|datin|tan sri datin|puan sri|sister|perempuan|wanita)\b\.?/gi, 'F'],
    [/\b(?:mr|encik|en|tuan|datuk|dato'?|dato seri|tan sri|sir)\b\.?(?=\s+[A-Z])/g, 'M'],
    [/\b(?:binti|bt|bte|a\/p|d\/o)\b\.?/gi, 'F'],
    [/\b(?:bin|a\/l|s\/o)\b\.?/gi, 'M'],
    [/\b(?:female|lady|woman|she|her)\b/gi, 'F'],
    [/\b(?:male|gentleman|he|his|him|lelaki)\b/gi, 'M'],
  ];
  for (const [re, sex] of patterns) {
    for (const m of text.matchAll(re)) {
      // "Tan Sri (Dr.) X" is a title of a man; "sister" can be a nurse: only count the first few strong cues
      votes.push([sex, m[0].trim()]);
      if (votes.length > 40) break;
    }
  }
  if (!votes.length) return { value: null, evidence: null };
  const f = votes.filter((v) => v[0] === 'F');
  const m = votes.filter((v) => v[0] === 'M');
  if (f.length === m.length) return { value: null, evidence: null };
  const win = f.length > m.length ? f : m;
  return { value: win[0]![0], evidence: win[0]![1] };
}

const DEATH =
  /\b(?:passed away|died|death summary|deceased|pronounced dead|pronounced death|certified dead|time of death|demised|expired(?! medication| drug)|brought in dead|succumbed|cause of death)\b/i;
const NOT_DEATH =
  /\b(?:no death|not died|near[- ]death|risk of death|death rate|family history|father died|mother died|(?:brother|sister|husband|wife|son|daughter|parent)s? (?:died|passed away))\b/i;

function findAlive(text: string): Extraction['alive'] {
  for (const line of text.split(/\n|(?<=\.)\s/)) {
    const m = DEATH.exec(line);
    if (m && !NOT_DEATH.test(line)) return { value: false, evidence: m[0] };
  }
  return { value: true, evidence: null };
}

/** UB-04 discharge status: 20 expired, 07 left against medical advice (at own risk), 02 transferred, else 01. */
function findDischargeStatus(text: string, alive: boolean): number {
  if (!alive) return 20;
  if (
    /\b(?:discharged?|left|went home|self[- ]discharged?)\b[^.\n]{0,30}\b(?:aor|at own risk|against (?:medical )?advice|ama)\b|\b(?:aor|ama) discharge\b|\bdischarge(?:d)? (?:aor|ama)\b/i.test(
      text,
    )
  )
    return 7;
  if (/\btransferred to (?:hospital|hosp|[A-Z]{2,5}\b|another hospital|tertiary)|\btransfer(?:red)? out to\b/i.test(text)) return 2;
  return 1;
}

/** Sex and discharge status as the note documents them (also used by the LLM engine when the model says nothing). */
export function patientFacts(text: string): { sex: Extraction['sex']; alive: Extraction['alive']; dischargeStatus: number } {
  const alive = findAlive(text);
  return { sex: findSex(text), alive, dischargeStatus: findDischargeStatus(text, alive.value) };
}

export function extractConcepts(text: string): Extraction {
  compiledDx ??= compile(DIAGNOSES);
  compiledPr ??= compile(PROCEDURES);
  const layout = layoutNote(text);
  const organisms = findOrganisms(layout);
  const mentions: Mention[] = [];
  for (const [kind, list] of [
    ['dx', compiledDx],
    ['pr', compiledPr],
  ] as const) {
    const matches = matchAll<DxConcept | PrConcept>(list as Array<Compiled<DxConcept | PrConcept>>, text);
    for (const m of matches) {
      const segment = segmentAt(layout, m.start);
      if (!segment || m.end > segment.end) continue;
      const sent = sentenceAt(layout, m.start) ?? { start: segment.start, end: segment.end };
      const listy = LISTY.has(segment.section) && kind === 'dx';
      const clauseStart = listy ? segment.start : Math.max(segment.start, sent.start);
      const clauseEnd = listy ? segment.end : Math.min(segment.end, Math.max(sent.end, m.end));
      const sentenceText = text.slice(clauseStart, clauseEnd);
      const others = matches
        .filter((o) => o !== m && o.start >= clauseStart && o.end <= clauseEnd)
        .map((o) => ({ start: o.start - clauseStart, end: o.end - clauseStart }));
      const assertion = assertMention({ sentence: sentenceText, start: m.start - clauseStart, end: m.end - clauseStart, section: segment.section, others });
      mentions.push({
        kind,
        concept: m.c.concept,
        start: m.start,
        end: m.end,
        text: text.slice(m.start, m.end),
        segment,
        clauseStart,
        clauseEnd,
        assertion,
        side: findSide(layout.lower, m.start, m.end, clauseStart, clauseEnd, text),
        organism: kind === 'dx' ? organismFor(m.c.concept.id, layout.lower.slice(clauseStart, clauseEnd), organisms) : null,
      });
    }
  }
  mentions.sort((a, b) => a.start - b.start);
  const present = new Set<string>();
  for (const m of mentions) if (m.kind === 'dx' && countsAsPresent(m)) present.add(m.concept.id);
  const alive = findAlive(text);
  return { layout, mentions, present, organisms, sex: findSex(text), alive, dischargeStatus: findDischargeStatus(text, alive.value) };
}

const LISTY = new Set<SectionKind>(['diagnosis', 'secondary', 'comorbidity', 'pmh', 'psh', 'procedures', 'differential', 'findings']);
const FINAL_DX = new Set<SectionKind>(['diagnosis', 'secondary']);

/** A diagnosis mention that describes a current condition (for combination rules and "with" logic). */
export function countsAsPresent(m: Mention): boolean {
  const a = m.assertion.assertion;
  const dx = m.concept as DxConcept;
  if (a === 'present') return !m.assertion.history || !!dx.chronic || dx.kind === 'status';
  if (a === 'uncertain') return FINAL_DX.has(m.segment.section);
  if (a === 'finding') return true;
  return false;
}

/** The qualifier context a concept's target function reads. */
export function contextFor(m: Mention, ex: Extraction): ConceptContext {
  const lower = ex.layout.lower;
  const clause = lower.slice(m.clauseStart, m.clauseEnd);
  return {
    mention: lower.slice(m.start, m.end),
    clause,
    note: lower,
    side: m.side,
    organism: m.organism,
    has: (re) => affirmedIn(clause, re),
    noteHas: (re) => affirmedIn(lower, re),
    noteConcept: (id) => ex.present.has(id),
  };
}
