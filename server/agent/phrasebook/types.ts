/**
 * The phrasebook: how conditions and procedures are written in notes (terms, abbreviations,
 * British and American spellings) and how a mention becomes a search query in the wording of the ICD-10-CM/PCS
 * titles, plus the code range a correct answer must fall in. The search engine (server/search) resolves the query
 * to a code; the grouper's code tables verify it. The phrasebook holds coding knowledge (which qualifiers matter, what
 * the index defaults to), not codes of particular notes.
 */
export type Side = 'right' | 'left' | 'bilateral';

export type Organism =
  | 'ecoli'
  | 'klebsiella'
  | 'pseudomonas'
  | 'mssa'
  | 'mrsa'
  | 'pneumococcus'
  | 'gas'
  | 'gbs'
  | 'enterococcus'
  | 'proteus'
  | 'acinetobacter'
  | 'haemophilus'
  | 'hpylori'
  | 'mycoplasma';

/** A query in the wording of code titles, and the code prefixes an answer must start with. */
export interface Target {
  query: string;
  within: string[];
  /** Something the note does not say that decides the code: what the query assumed, and the other readings. */
  assumptions?: Array<{ about: string; assumed: string; alternatives: Array<{ label: string; target: Target }> }>;
}

export interface ConceptContext {
  /** The matched text, lower case. */
  mention: string;
  /** The list item or sentence the mention is in, lower case. */
  clause: string;
  /** The whole note, lower case. */
  note: string;
  side: Side | null;
  /** Organism named in the clause, else the one organism the note names (if exactly one). */
  organism: Organism | null;
  /** The pattern occurs in the clause, not negated ("not obstructed", "non-perforated", "no gangrene" do not count). */
  has(re: RegExp): boolean;
  /** The pattern occurs somewhere in the note, not negated. */
  noteHas(re: RegExp): boolean;
  /** A concept (by id) is asserted present somewhere in the note. */
  noteConcept(id: string): boolean;
}

export type DxKind = 'condition' | 'symptom' | 'status' | 'deficit';

export interface DxConcept {
  id: string;
  /** Concepts of one group are one condition: a second mention with another code does not add a code. */
  group?: string;
  /** Case-insensitive regex sources, matched on word boundaries. */
  terms: string[];
  /** Abbreviations matched case-sensitively (`AF`, `PE`, `CAP`). */
  abbr?: string[];
  kind?: DxKind;
  /** A chronic disease stays current when written with "h/o" or in the past medical history. */
  chronic?: boolean;
  /** What to code when the mention is historical ("old MI" → I25.2); null/absent: nothing. */
  past?: Target | null;
  /** Infections: 'specific' codes carry the organism (sepsis, pneumonia); 'additional' take a B95-B96 code. */
  infection?: 'specific' | 'additional';
  /** The code target(s). null: covered by another code (not coded); []: not this concept's to code (the words go to the search engine). */
  target(c: ConceptContext): Target | Target[] | null;
}

export interface PrConcept {
  id: string;
  terms: string[];
  abbr?: string[];
  target(c: ConceptContext): Target | Target[] | null;
}

export const t = (query: string, ...within: string[]): Target => ({ query, within });

/** "Right", "Left", "Bilateral" or the fallback for titles that need a side. */
export function sideWord(c: ConceptContext, fallback = 'unspecified'): string {
  return c.side === 'right' ? 'right' : c.side === 'left' ? 'left' : c.side === 'bilateral' ? 'bilateral' : fallback;
}

export function sideTitle(c: ConceptContext, fallback = 'Right'): string {
  return c.side === 'left' ? 'Left' : c.side === 'right' ? 'Right' : fallback;
}
