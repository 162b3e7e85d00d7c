/** FHIR R4 door of the MS-DRG grouper (SPEC §4.8). See classify.ts; the HTTP route is server/http/fhir.ts. */
export { classifyFhirResource, classifyFhirText, PARAMETER_NAMES, toParameters, type FhirResult, type Parameters, type ParametersParameter } from './classify';
export { extractCase, ICD10CM_SYSTEM, ICD10PCS_SYSTEMS, type ExtractedCase } from './bundle';
export { HL7_TO_CMS, NUBC_SYSTEM, HL7_DISCHARGE_SYSTEMS } from './discharge';
export { FhirError, ISSUE_SEVERITIES, ISSUE_TYPES, operationOutcome, type OperationOutcome, type OperationOutcomeIssue } from './outcome';

import { loadEnv } from '../env';

/** Largest Bundle, in bytes, on either door (the HTTP route and the UI's tRPC call): MAX_BODY_BYTES, read on use. */
export function fhirBodyLimit(): number {
  return loadEnv().MAX_BODY_BYTES;
}
