/**
 * Assumptions behind a code, for any code and either engine: when the words coded do not say something that decides
 * the code (the side, acute or chronic, the type of diabetes, the encounter, open or closed fracture, the surgical
 * approach), the agent says what the code assumes and offers the codes of the other readings.
 *
 * Table-driven and general: each axis below says how to recognise its values in the code tables of the case's
 * version (title slots such as "right/left/bilateral/unspecified", a code position such as the PCS 5th character, or
 * a category swap such as E11 → E10) and which words in a note state it. Alternatives are read from the code file of
 * the version's fiscal year and kept only when the grouper version accepts them as valid and billable: no code is
 * made up. Deterministic, with no model, so the LLM engine cannot drop them (run after its codes are validated).
 *
 * No HTTP and no database: the code tables come from the reference data (server/drg).
 */
import { lookupCode } from '../drg';
import { codeTitles, type CodeTitles } from '../drg/codes';
import { versionSpec } from '../drg/versions';
import type { AgentAssumption, AgentCode, CodingResult, Evidence } from './types';

type Kind = 'dx' | 'pr';
type Alternative = AgentAssumption['alternatives'][number];

const shown = (code: string, kind: Kind) => (kind === 'dx' && code.length > 3 ? `${code.slice(0, 3)}.${code.slice(3)}` : code);

/* ---------------- the axes ---------------- */

/** An axis whose values are words in the title at one place ("…, right knee" / "…, left knee"). */
interface SlotAxis {
  id: string;
  about: string;
  kinds: Kind[];
  /** The values, longest phrase first (one regex alternative each). */
  values: Array<{ value: string; re: string }>;
  /** Values that say something; a group of titles counts only if it has one of these beside another value. */
  definite: string[];
  /** Words in a note that state the axis (any value): then nothing is assumed. */
  stated: RegExp;
  /** Why the code's value was taken, per value. */
  why: (value: string) => string;
}

const BODY =
  'knee|hip|eye|ear|leg|arm|foot|feet|hand|shoulder|wrist|ankle|elbow|lung|kidney|breast|femur|tibia|fibula|radius|ulna|humerus|ovary|tube|testis|thigh|side|upper|lower|toe|finger|thumb|heel|groin|buttock|parotid|ureter|adrenal|orbit|jaw|clavicle|scapula|calf';

export const SLOT_AXES: SlotAxis[] = [
  {
    id: 'laterality',
    about: 'side (laterality)',
    kinds: ['dx', 'pr'],
    values: [
      { value: 'bilateral', re: 'bilateral' },
      { value: 'right', re: 'right' },
      { value: 'left', re: 'left' },
      { value: 'unspecified', re: 'unspecified' },
    ],
    definite: ['right', 'left', 'bilateral'],
    stated: new RegExp(
      `\\b(?:right|left|bilateral|bilaterally|both|rt|lt|r/l|l/r|unilateral|ipsilateral|contralateral)\\b|\\b[LR]\\.?\\s?(?=(?:${BODY})\\b)`,
      'i',
    ),
    why: (v) =>
      v === 'unspecified'
        ? 'unspecified side (the note does not say right, left or bilateral; a documented side gives a more specific code)'
        : `${v} (the words coded do not say the side; check the note or ask the physician)`,
  },
  {
    id: 'acuity',
    about: 'acute or chronic',
    kinds: ['dx'],
    values: [
      { value: 'acute on chronic', re: 'acute on chronic' },
      { value: 'acute and chronic', re: 'acute and chronic' },
      { value: 'acute', re: 'acute' },
      { value: 'chronic', re: 'chronic' },
      { value: 'unspecified', re: 'unspecified' },
    ],
    definite: ['acute on chronic', 'acute and chronic', 'acute', 'chronic'],
    stated:
      /\b(?:acute|acutely|chronic|chronically|a\/c|acute[- ]on[- ]chronic|decompensat\w*|exacerbat\w*|new[- ]onset|longstanding|long[- ]standing|flare|ckd|copd|ahrf)\b/i,
    why: (v) =>
      v === 'unspecified'
        ? 'unspecified (the note does not say acute or chronic; the code differs when it does)'
        : `${v} (the words coded do not say acute or chronic)`,
  },
];

/** An axis whose values are one character of the code (the PCS approach, the 7th character). */
interface PositionAxis {
  id: string;
  about: string;
  kind: Kind;
  /** Whether the axis applies to this code (by shape and title). */
  applies: (code: string, title: string) => boolean;
  /** The character position that carries the value (0-based). */
  at: number;
  /** Which siblings (same code but at `at`) are alternatives, with their label; null: not one. */
  alternative: (code: string, title: string, sibling: string, siblingTitle: string) => string | null;
  stated: RegExp;
  assumed: (code: string, title: string) => string;
}

/** ICD-10-PCS approach (5th character) values of the Medical and Surgical section. */
export const PCS_APPROACH: Record<string, string> = {
  '0': 'open',
  '3': 'percutaneous',
  '4': 'percutaneous endoscopic',
  '7': 'via natural or artificial opening',
  '8': 'via natural or artificial opening endoscopic',
  F: 'via natural or artificial opening with percutaneous endoscopic assistance',
  X: 'external',
};

const INITIAL = /\binitial encounter\b/i;

export const POSITION_AXES: PositionAxis[] = [
  {
    id: 'approach',
    about: 'surgical approach',
    kind: 'pr',
    applies: (code) => code.length === 7 && code[0] === '0' && code[4]! in PCS_APPROACH,
    at: 4,
    alternative: (_c, _t, sib) => PCS_APPROACH[sib[4]!] ?? null,
    stated:
      /\b(?:open|opened|orif|\w*otomy|incision|incised|percutaneous(?:ly)?|pci|ptca|tavi|tavr|peg|\w*scop(?:y|ic|ically)|lap|laparoscopic\w*|vats|robotic\w*|robot[- ]assisted|minimally invasive|keyhole|endoscop\w*|transurethral|turp|turbt|transvaginal|vaginal|transanal|transoral|transnasal|external|closed reduction|catheter\w*|transcatheter|cath|needle|\w*[- ]guided|fluoroscop\w*|angioplast\w*|ercp|ogd|egd)\b/i,
    assumed: (code) => `${PCS_APPROACH[code[4]!]} (the words coded do not say how the body part was reached)`,
  },
  {
    id: 'encounter',
    about: 'encounter (7th character)',
    kind: 'dx',
    applies: (code, title) => code.length === 7 && INITIAL.test(title),
    at: 6,
    alternative: (_c, title, _s, st) => {
      if (/\bsequela\b/i.test(st)) return 'sequela';
      if (!/\bsubsequent encounter\b/i.test(st)) return null;
      // a fracture: routine healing is the subsequent encounter's default; delayed healing, nonunion and malunion say more
      if (/fracture/i.test(title) && !/routine healing/i.test(st)) return null;
      if (/fracture/i.test(title) && /\bopen fracture\b/i.test(title) !== /\bopen fracture\b/i.test(st)) return null;
      return 'subsequent encounter';
    },
    stated:
      /\b(?:initial|subsequent|follow[- ]?up|sequela[e]?|late effects?|healing|healed|malunion|nonunion|non-union|aftercare|readmi\w+|re-?admission|old (?:fracture|injury)|active treatment)\b/i,
    assumed: () => 'initial encounter (the patient is receiving active treatment; the note does not say this is a follow-up or a sequela)',
  },
  {
    id: 'fracture',
    about: 'open or closed fracture',
    kind: 'dx',
    applies: (code, title) => code.length === 7 && /\binitial encounter for closed fracture\b/i.test(title),
    at: 6,
    alternative: (_c, _t, _s, st) => {
      const m = /\binitial encounter for (open fracture[^,]*)$/i.exec(st);
      return m ? m[1]! : null;
    },
    stated: /\b(?:open|closed|compound|simple)\b/i,
    assumed: () => 'closed (a fracture not documented as open or closed is coded as closed: ICD-10-CM guideline I.C.19.c.1)',
  },
];

/** An axis that swaps the category (E11 → E10): the index default when the note does not say. */
interface CategoryAxis {
  id: string;
  about: string;
  kind: Kind;
  /** The category the index defaults to. */
  from: string;
  assumed: string;
  alternatives: Array<{ to: string; label: string }>;
  stated: RegExp;
}

export const CATEGORY_AXES: CategoryAxis[] = [
  {
    id: 'diabetes_type',
    about: 'type of diabetes',
    kind: 'dx',
    from: 'E11',
    assumed: 'type 2 (E11): diabetes without a documented type defaults to type 2 (ICD-10-CM index "Diabetes, diabetic" E11.9; guideline I.C.4.a.2)',
    alternatives: [
      { to: 'E10', label: 'type 1' },
      { to: 'E13', label: 'other specified diabetes' },
    ],
    stated:
      /\b(?:type\s*(?:1|2|i|ii|one|two)|t[12]\s?dm|t[12]d|dm\s?(?:type\s*)?(?:1|2|i|ii)|iddm|niddm|insulin[- ]dependent|non[- ]insulin[- ]dependent|juvenile|adult[- ]onset|gestational|steroid[- ]induced|drug[- ]induced|secondary diabetes|pancreatogenic|post[- ]?pancreatectomy|mody|lada|cystic fibrosis[- ]related)\b/i,
  },
];

/* ---------------- the code tables ---------------- */

interface Family {
  /** Indices into the code file of the billable codes of a 3-character category. */
  byCategory: Map<string, number[]>;
  t: CodeTitles;
  /** Slot matches per axis and code index (a category such as S72 has some 1,900 codes). */
  slots: Map<string, Array<{ key: string; value: string }>>;
}

const families = new Map<string, Family | null>();

function familyTable(year: number, kind: Kind): Family | null {
  const k = `${year}:${kind}`;
  if (families.has(k)) return families.get(k)!;
  const t = codeTitles(year, kind);
  let f: Family | null = null;
  if (t) {
    const byCategory = new Map<string, number[]>();
    for (let i = 0; i < t.codes.length; i++) {
      if (!t.billable[i]) continue;
      const cat = t.codes[i]!.slice(0, 3);
      let list = byCategory.get(cat);
      if (!list) byCategory.set(cat, (list = []));
      list.push(i);
    }
    f = { byCategory, t, slots: new Map() };
  }
  families.set(k, f);
  return f;
}

async function validIn(version: string, code: string, kind: Kind): Promise<{ title: string } | null> {
  const info = await lookupCode(version, code);
  return info.valid && info.billable && info.kind === kind && info.title ? { title: info.title } : null;
}

function slotMatches(axis: SlotAxis, title: string): Array<{ key: string; value: string }> {
  const re = new RegExp(`\\b(?:${axis.values.map((v) => v.re).join('|')})\\b`, 'gi');
  const out: Array<{ key: string; value: string }> = [];
  const lower = title.toLowerCase();
  for (const m of lower.matchAll(re)) {
    const value = axis.values.find((v) => new RegExp(`^(?:${v.re})$`, 'i').test(m[0]))?.value ?? m[0];
    out.push({ key: `${lower.slice(0, m.index)}§${lower.slice(m.index + m[0].length)}`, value });
  }
  return out;
}

/* ---------------- per code ---------------- */

export interface AssumptionOptions {
  /** Axes (by `about`) already explained for this code (the phrasebook's stent assumptions): not repeated. */
  skip?: Set<string>;
}

/**
 * The assumptions behind one code, given the words of the note that were coded (`context`: the lines of its
 * evidence, or the whole note when the evidence was not found). An axis the context states is never assumed.
 */
export async function codeAssumptions(version: string, code: string, kind: Kind, context: string, opts: AssumptionOptions = {}): Promise<AgentAssumption[]> {
  const spec = versionSpec(version);
  const fam = familyTable(spec.codeYear, kind);
  const self = await lookupCode(version, code);
  const title = self.title ?? '';
  const out: AgentAssumption[] = [];
  const push = (a: AgentAssumption) => {
    if (opts.skip?.has(a.about) || out.some((x) => x.about === a.about)) return;
    out.push(a);
  };
  const siblings = fam?.byCategory.get(code.slice(0, 3)) ?? [];

  // 1. title slots
  for (const axis of SLOT_AXES) {
    if (!axis.kinds.includes(kind) || axis.stated.test(context) || !fam) continue;
    for (const mine of slotMatches(axis, title)) {
      const alts = new Map<string, string>(); // value → code
      for (const i of siblings) {
        const sib = fam.t.codes[i]!;
        if (sib === code || sib.length !== code.length) continue;
        let ms = fam.slots.get(`${axis.id}:${i}`);
        if (!ms) fam.slots.set(`${axis.id}:${i}`, (ms = slotMatches(axis, fam.t.titles[i]!)));
        for (const m of ms) {
          if (m.key === mine.key && m.value !== mine.value && !alts.has(m.value)) alts.set(m.value, sib);
        }
      }
      const values = [mine.value, ...alts.keys()];
      if (!alts.size || !values.some((v) => axis.definite.includes(v))) continue;
      const alternatives: Alternative[] = [];
      // the other definite values (a coded side is not swapped for "unspecified")
      for (const v of axis.definite) {
        const c = alts.get(v);
        if (!c) continue;
        const ok = await validIn(version, c, kind);
        if (ok) alternatives.push({ label: v, code: c, display: shown(c, kind), title: ok.title });
      }
      if (alternatives.length) push({ about: axis.about, assumed: axis.why(mine.value), alternatives });
      break;
    }
  }

  // 2. code positions
  for (const axis of POSITION_AXES) {
    if (axis.kind !== kind || !axis.applies(code, title) || axis.stated.test(context) || !fam) continue;
    const alternatives: Alternative[] = [];
    const labels = new Set<string>();
    for (const i of siblings) {
      const sib = fam.t.codes[i]!;
      if (sib === code || sib.length !== code.length || sib.slice(0, axis.at) !== code.slice(0, axis.at) || sib.slice(axis.at + 1) !== code.slice(axis.at + 1))
        continue;
      const label = axis.alternative(code, title, sib, fam.t.titles[i]!);
      if (!label || labels.has(label)) continue;
      const ok = await validIn(version, sib, kind);
      if (!ok) continue;
      labels.add(label);
      alternatives.push({ label, code: sib, display: shown(sib, kind), title: ok.title });
    }
    if (alternatives.length) push({ about: axis.about, assumed: axis.assumed(code, title), alternatives });
  }

  // 3. category swaps
  for (const axis of CATEGORY_AXES) {
    if (axis.kind !== kind || !code.startsWith(axis.from) || axis.stated.test(context)) continue;
    const alternatives: Alternative[] = [];
    for (const a of axis.alternatives) {
      const c = a.to + code.slice(axis.from.length);
      const ok = await validIn(version, c, kind);
      if (ok) alternatives.push({ label: a.label, code: c, display: shown(c, kind), title: ok.title });
    }
    push({ about: axis.about, assumed: axis.assumed, alternatives });
  }
  return out;
}

/* ---------------- per coded case ---------------- */

/** The lines of the note that hold a code's evidence; the whole note when none was located. */
export function evidenceContext(note: string, evidence: Evidence[]): string {
  const parts: string[] = [];
  for (const e of evidence) {
    if (e.start === null || e.end === null) {
      if (e.text) parts.push(e.text);
      continue;
    }
    const from = note.lastIndexOf('\n', Math.max(0, e.start - 1)) + 1;
    const nl = note.indexOf('\n', e.end);
    parts.push(note.slice(from, nl < 0 ? note.length : nl));
  }
  return parts.length && evidence.some((e) => e.start !== null) ? parts.join('\n') : note;
}

/**
 * Adds the assumptions of every code of a coded case (either engine), after its codes are final: the code's own
 * assumptions from the phrasebook (stent type, number of arteries) stay first, the table-driven ones follow; and one
 * rationale line per assumption. Mutates and returns `coding`.
 */
export async function addAssumptions(coding: CodingResult, version: string, note: string): Promise<CodingResult> {
  const all: AgentCode[] = [...(coding.principal ? [coding.principal] : []), ...coding.secondary, ...coding.procedures];
  for (const c of all) {
    const own = c.assumptions ?? [];
    const more = await codeAssumptions(version, c.code, c.kind, evidenceContext(note, c.evidence), { skip: new Set(own.map((a) => a.about)) });
    const list = [...own, ...more];
    if (list.length) c.assumptions = list;
    for (const a of list) coding.rationale.push(assumptionLine(c, a));
  }
  return coding;
}

export function assumptionLine(c: Pick<AgentCode, 'display'>, a: AgentAssumption): string {
  return `${c.display}: the note does not say the ${a.about}; assumed ${a.assumed}.${a.alternatives.length ? ` Alternatives: ${a.alternatives.map((x) => `${x.display} (${x.label})`).join(', ')}.` : ''}`;
}
