/**
 * What both engines produce: the coded case (principal diagnosis, secondary diagnoses, procedures) with the
 * evidence for each code, the mentions that were deliberately not coded, and the patient facts the grouper needs.
 */
export type AgentEngine = 'deterministic' | 'llm';

export interface Evidence {
  /** The words in the note (original values, re-hydrated in LLM mode). */
  text: string;
  /** Offsets into the submitted message (UTF-16 code units), when the text was found in it. */
  start: number | null;
  end: number | null;
  /** Section kind of the note the evidence is in (diagnosis, comorbidity, course, …), when known. */
  section: string | null;
}

export interface AgentCode {
  /** Code without dots, as the grouper reads it (I214, 027034Z). */
  code: string;
  /** Conventional spelling (I21.4). */
  display: string;
  kind: 'dx' | 'pr';
  role: 'principal' | 'secondary' | 'procedure';
  title: string;
  /** Level as a secondary diagnosis in the grouper version (after grouping); null for procedures and non-CCs. */
  cc_mcc: 'MCC' | 'CC' | null;
  /** O.R. procedure in the grouper version (procedures only). */
  is_or: boolean | null;
  /** Phrasebook concept (deterministic) or null (LLM). */
  concept: string | null;
  /** present, uncertain (coded as if established: inpatient rule), history (a status / personal-history code), status. */
  assertion: 'present' | 'uncertain' | 'history' | 'status';
  /** A combination or sequencing rule that produced or moved this code. */
  rule: string | null;
  evidence: Evidence[];
  /** What the note did not say that decides the code, what was assumed, and the codes of the alternatives. */
  assumptions?: AgentAssumption[];
}

export interface AgentAssumption {
  about: string;
  assumed: string;
  alternatives: Array<{ label: string; code: string; display: string; title: string }>;
}

export type ExclusionReason = 'negated' | 'uncertain' | 'history' | 'family' | 'hypothetical' | 'finding' | 'symptom' | 'integral' | 'unresolved';

export interface ExcludedMention {
  text: string;
  start: number;
  end: number;
  concept: string;
  kind: 'dx' | 'pr';
  reason: ExclusionReason;
  /** The words that decided it ("no evidence of", "ruled out", "h/o"). */
  cue: string | null;
  section: string;
}

export interface PatientFacts {
  sex: 'F' | 'M' | null;
  sex_evidence: string | null;
  alive: boolean;
  alive_evidence: string | null;
  /** UB-04 discharge status used for grouping (1 home, 2 transfer, 7 against advice, 20 expired). */
  discharge_status: number;
}

export interface CodingResult {
  principal: AgentCode | null;
  secondary: AgentCode[];
  procedures: AgentCode[];
  excluded: ExcludedMention[];
  /** Codes proposed and refused by validation (LLM mode): invalid, not billable, wrong kind. */
  rejected: Array<{ code: string; reason: string }>;
  patient: PatientFacts;
  /** How the principal diagnosis was chosen. */
  principal_reason: string;
  /** Short rationale (LLM: the model's, re-hydrated; deterministic: generated from the rules applied). */
  rationale: string[];
}
