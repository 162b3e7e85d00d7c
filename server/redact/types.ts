/** Entity types the engine redacts. The placeholder of a value is `[TYPE_n]`. */
export const ENTITY_TYPES = ['PERSON', 'MY_IC', 'MRN', 'PASSPORT', 'PHONE', 'EMAIL', 'CARD_NUMBER', 'BANK_ACCOUNT'] as const;

export type EntityType = (typeof ENTITY_TYPES)[number];

export function isEntityType(s: string): s is EntityType {
  return (ENTITY_TYPES as readonly string[]).includes(s);
}

/** A half-open span [start, end) in UTF-16 code units of the analysed text. */
export interface Span {
  start: number;
  end: number;
}

/** A recognizer's proposal. Scores are 0..1 (Presidio-like); the engine keeps candidates >= SCORE_THRESHOLD. */
export interface Candidate extends Span {
  type: EntityType;
  score: number;
  /** Name of the recognizer that produced it (for explanations and tests). */
  recognizer: string;
  /** Optional normalised value (e.g. E.164 for phones); otherwise the engine normalises by type. */
  normalized?: string;
  /**
   * The recognizer already weighed the value's label itself (a structural rule: a record number right after its label,
   * an old IC's nearest label, a table header, a person's title): the engine's context step leaves the score alone.
   */
  contextChecked?: boolean;
}

/** Clinical / allow-listed region that must not be redacted by weaker evidence. */
export interface ProtectedSpan extends Span {
  kind: string;
  /** Candidates whose score is below this are dropped when they overlap the region. */
  strength: number;
  /** Gazetteer-derived regions (institutions, places, eponyms, drugs) only constrain PERSON candidates. */
  personOnly?: boolean;
}

/** A redacted entity in the output. Offsets are UTF-16 code units into the INPUT text. */
export interface RedactedEntity extends Span {
  type: EntityType;
  placeholder: string;
  /** Recognizer confidence (0..1). No PHI in this object: the original value is only in the mapping. */
  score: number;
  recognizer: string;
  /**
   * For a partial PERSON mention (first name only, surname only) that the engine linked to a fuller name in the
   * same session: the placeholder of that fuller name. Informational; the mention keeps its own placeholder.
   */
  refers_to?: string;
}

export type EntityCounts = Partial<Record<EntityType, number>>;

export const SCORE_THRESHOLD = 0.5;
