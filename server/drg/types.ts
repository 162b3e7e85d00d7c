/** Public types of the MS-DRG grouper (see README.md in this folder). */

export type Sex = 'M' | 'F' | 'U';
export type HospitalStatus = 'NOT_EXEMPT' | 'EXEMPT' | 'UNKNOWN';
export type Severity = 'MCC' | 'CC' | 'NON_CC';
export type MedSurg = 'MEDICAL' | 'SURGICAL' | 'NONE';

/** Return codes, named as the CMS grouper names them (`grc`). */
export type ReturnCode =
  | 'OK'
  | 'INVALID_PDX'
  | 'DX_CANNOT_BE_PDX'
  | 'INVALID_SEX'
  | 'INVALID_DISCHARGE_STATUS'
  | 'UNGROUPABLE'
  | 'HAC_MISSING_ONE_POA'
  | 'HAC_STATUS_INVALID_MULT_HACS_POA_NOT_Y_W'
  | 'HAC_STATUS_INVALID_POA_N_OR_U'
  | 'HAC_STATUS_INVALID_POA_INVALID_OR_1';

/** Numeric return codes of the CMS grouper (`grcCode`). */
export const RETURN_CODE_NUMBER: Record<ReturnCode, number> = {
  OK: 0,
  DX_CANNOT_BE_PDX: 1,
  INVALID_SEX: 4,
  INVALID_DISCHARGE_STATUS: 5,
  UNGROUPABLE: 6,
  INVALID_PDX: 7,
  HAC_MISSING_ONE_POA: 9,
  HAC_STATUS_INVALID_POA_N_OR_U: 10,
  HAC_STATUS_INVALID_POA_INVALID_OR_1: 11,
  HAC_STATUS_INVALID_MULT_HACS_POA_NOT_Y_W: 15,
};

export interface GroupInput {
  /** Diagnoses, principal first. */
  dx: string[];
  /** ICD-10-PCS procedures (order matters only for reporting). */
  pr?: string[];
  /** 'M' | 'F'; anything else (U, '', X) is unknown sex. */
  sex?: string;
  /** Used when no discharge status is given: false → 20 (expired), true/undefined → 01 (home). */
  alive?: boolean;
  /** UB-04 patient discharge status (e.g. 1, "01", "20"). Invalid values ("00", "xx", "") give INVALID_DSTAT. */
  dischargeStatus?: number | string | null;
  /** Present-on-admission flag per diagnosis (same order as dx): Y, N, U, W, 1 or blank. Omitted → all Y. */
  poa?: Array<string | null | undefined>;
  /** POA-reporting status of the hospital (HAC logic). Default NOT_EXEMPT. */
  hospitalStatus?: HospitalStatus | string;
}

export interface GroupOptions {
  /**
   * Code spelling. 'lenient' (default for the API) trims, drops dots and upper-cases each code
   * before lookup and reports what it changed in `warnings`. 'strict' looks codes up exactly as
   * given, as the CMS grouper does ("I21.4" is then an invalid code).
   */
  codes?: 'lenient' | 'strict';
  /** Compute per-code details, candidates and the initial/final explanation (default true). */
  detail?: boolean;
}

export interface DxDetail {
  /** Code as looked up (after normalisation in lenient mode). */
  code: string;
  /** Code as given. */
  input: string;
  principal: boolean;
  valid: boolean;
  /** Severity of the code as a secondary diagnosis in this version (null when invalid). */
  severity: 'MCC' | 'CC' | null;
  /** CC/MCC not counted because the principal diagnosis is on its CC-exclusion list. */
  excluded_by_pdx: boolean;
  /** MCC only if discharged alive, and the patient died. */
  excluded_died: boolean;
  /** CC/MCC not counted by the final DRG row's severity suppression (e.g. other AMI codes for AMI DRGs). */
  suppressed: boolean;
  /** HAC lists the code is on, with their outcome. */
  hac: Array<{ list: string; hac: number; status: HacStatus }>;
  /** HAC criteria met: the code does not count as CC/MCC for the final DRG. */
  hac_met: boolean;
  poa: string | null;
  /** How the code's CC/MCC counted in the initial and final grouping (CMS flag names). */
  initial_severity_flag: SeverityFlag;
  final_severity_flag: SeverityFlag;
  /** Whether the code took part in the initial and/or final DRG assignment (see README). */
  affects: Affects;
}

export type Affects = 'NONE' | 'INITIAL' | 'FINAL' | 'BOTH';

export type HacStatus = 'HAC_CRITERIA_MET' | 'HAC_CRITERIA_NOT_MET' | 'HAC_NOT_APPLICABLE_EXEMPT' | 'HAC_NOT_APPLICABLE_EXCLUSION' | 'NOT_ON_HAC_LIST';
export type SeverityFlag = 'MCC' | 'CC' | 'NEITHER' | 'MCC_EXCLUDED' | 'CC_EXCLUDED' | 'MCC_EXCLUDED_BY_DRG_LOGIC' | 'CC_EXCLUDED_BY_DRG_LOGIC';

export interface PrDetail {
  code: string;
  input: string;
  valid: boolean;
  /** Operating-room procedure, as the CMS grouper reports it. */
  is_or: boolean;
  /** Procedure clusters (code combinations) this procedure completed. */
  clusters: string[];
  /** Whether the procedure took part in the initial and/or final DRG assignment. */
  affects: Affects;
}

export interface GroupResult {
  version: string;
  fiscal_year: string;
  fidelity: 'exact' | 'derived';
  /**
   * Derived versions (v36–v38): what the version cannot reproduce – the DRGs of its Appendix A whose logic the
   * reference data does not hold – in words. null for exact versions.
   */
  fidelity_note: string | null;
  /** Final MS-DRG, 3 digits ("003"). */
  drg: string;
  /** MDC, 2 digits; "00" for DRG 999 errors. Pre-MDC DRGs carry the principal diagnosis's MDC. */
  mdc: string;
  /** 'P' surgical, 'M' medical, null for DRGs without a type (998, 999). */
  type: 'M' | 'P' | null;
  med_surg: MedSurg;
  return_code: ReturnCode;
  description: string;
  mdc_description: string;
  base_drg: string;
  /** Severity level the final DRG row saw (after exclusions, suppression and HAC). */
  severity: Severity | 'NONE';
  /** Secondary diagnosis that supplied that severity (first one at that level), if any. */
  severity_driver: string | null;
  initial_drg: string;
  initial_mdc: string;
  initial_type: 'M' | 'P' | null;
  initial_return_code: ReturnCode;
  initial_severity: Severity | 'NONE';
  /** NOT_APPLICABLE, FINAL_DRG_NO_CHANGE, FINAL_DRG_CHANGES or FINAL_DRG_UNGROUPABLE. */
  hac_status: 'NOT_APPLICABLE' | 'FINAL_DRG_NO_CHANGE' | 'FINAL_DRG_CHANGES' | 'FINAL_DRG_UNGROUPABLE';
  /** Discharge status used (-1 = invalid/missing). */
  discharge_status: number;
  /**
   * Every DRG whose table row is satisfied in the formula set that produced the final DRG, in rank
   * order, final DRG first (rows before it in that set are false by construction). Pre-MDC
   * matches and reroutes are followed, so for an unrelated OR procedure this is the MDC 29 list.
   * ["999"] for error results.
   */
  all_candidates: string[];
  dx: DxDetail[];
  pr: PrDetail[];
  warnings: string[];
}

export interface CodeInfo {
  code: string;
  kind: 'dx' | 'pr';
  /** Accepted by the grouper in this version. */
  valid: boolean;
  /** Billable (a leaf) in the CMS code file for the version's fiscal year. */
  billable: boolean;
  title: string | null;
}

export interface CodeSuggestion {
  code: string;
  kind: 'dx' | 'pr';
  title: string;
  billable: boolean;
}
