/**
 * OperationOutcome (FHIR R4): every FHIR error is one of these, built here and nowhere else.
 * Issues point at the offending element with a FHIRPath `expression` (and the same string in the older `location`);
 * problems with the HTTP request itself use `http.<name>` (e.g. `http.Content-Type`, `http.version`).
 */
export type IssueSeverity = 'fatal' | 'error' | 'warning' | 'information';
export const ISSUE_SEVERITIES: readonly IssueSeverity[] = ['fatal', 'error', 'warning', 'information'];

/** R4 IssueType value set (http://hl7.org/fhir/issue-type). */
export const ISSUE_TYPES = [
  'invalid',
  'structure',
  'required',
  'value',
  'invariant',
  'security',
  'login',
  'unknown',
  'expired',
  'forbidden',
  'suppressed',
  'processing',
  'not-supported',
  'duplicate',
  'multiple-matches',
  'not-found',
  'deleted',
  'too-long',
  'code-invalid',
  'extension',
  'too-costly',
  'business-rule',
  'conflict',
  'transient',
  'lock-error',
  'no-store',
  'exception',
  'timeout',
  'incomplete',
  'throttled',
  'informational',
] as const;
export type IssueType = (typeof ISSUE_TYPES)[number];

/** Our error type (same names as the JSON API's `error` field) travels in issue.details.coding. */
export const ERROR_CODE_SYSTEM = 'urn:coding-gateway:error';

export interface OperationOutcomeIssue {
  severity: IssueSeverity;
  code: IssueType;
  details?: { coding?: Array<{ system: string; code: string; display?: string }>; text?: string };
  diagnostics?: string;
  location?: string[];
  expression?: string[];
}

export interface OperationOutcome {
  resourceType: 'OperationOutcome';
  issue: OperationOutcomeIssue[];
}

export type FhirStatus = 400 | 401 | 403 | 404 | 405 | 413 | 415 | 422 | 500 | 503;

export interface IssueInput {
  code: IssueType;
  /** snake_case error type, e.g. `no_condition`. */
  type: string;
  message: string;
  /** FHIRPath of the offending element, or `http.<name>` for the HTTP request. */
  at?: string;
  severity?: IssueSeverity;
}

export function issue(i: IssueInput): OperationOutcomeIssue {
  const out: OperationOutcomeIssue = {
    severity: i.severity ?? 'error',
    code: i.code,
    details: { coding: [{ system: ERROR_CODE_SYSTEM, code: i.type }], text: i.message },
    diagnostics: i.message,
  };
  if (i.at) {
    out.expression = [i.at];
    out.location = [i.at];
  }
  return out;
}

export function operationOutcome(issues: OperationOutcomeIssue[]): OperationOutcome {
  return { resourceType: 'OperationOutcome', issue: issues };
}

/** A FHIR failure: HTTP status + OperationOutcome. Never carries a partial result. */
export class FhirError extends Error {
  readonly status: FhirStatus;
  readonly outcome: OperationOutcome;
  constructor(status: FhirStatus, issues: IssueInput | IssueInput[]) {
    const list = Array.isArray(issues) ? issues : [issues];
    super(list.map((i) => i.message).join('; '));
    this.name = 'FhirError';
    this.status = status;
    this.outcome = operationOutcome(list.map(issue));
  }
}

/** Issue type for an HTTP status of the JSON API's AppError (auth, limits, outages). */
export function issueTypeForStatus(status: number, type: string): IssueType {
  if (status === 401) return type === 'key_expired' ? 'expired' : 'login';
  if (status === 403) return 'forbidden';
  if (status === 413) return 'too-costly';
  if (status === 415 || status === 405) return 'not-supported';
  if (status === 429) return 'throttled';
  if (status === 503) return 'transient';
  if (status >= 500) return 'exception';
  if (status === 404) return 'not-found';
  return 'invalid';
}
