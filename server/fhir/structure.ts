/**
 * Structural checks of the two resources this service emits, written out from the FHIR R4 definitions (no FHIR
 * JSON schema ships in our dependencies). Used by the tests; each returns the list of violations (empty = valid).
 *
 * Parameters: resourceType; parameter[] non-empty when present; each with a non-empty name and exactly one of
 * value[x] / resource / part (inv-1), parts recursively the same. OperationOutcome: resourceType; issue[] 1..*;
 * severity and code from the required value sets; details / diagnostics / location / expression well-typed.
 */
import { ISSUE_SEVERITIES, ISSUE_TYPES } from './outcome';

type Json = Record<string, unknown>;

const ALLOWED_PARAMETER_KEYS = new Set(['id', 'extension', 'modifierExtension', 'name', 'resource', 'part']);
/** value[x] choices used by R4 Parameters (primitive and common complex types). */
const VALUE_TYPES = new Set([
  'Base64Binary', 'Boolean', 'Canonical', 'Code', 'Date', 'DateTime', 'Decimal', 'Id', 'Instant', 'Integer', 'Markdown', 'Oid', 'PositiveInt',
  'String', 'Time', 'UnsignedInt', 'Uri', 'Url', 'Uuid', 'Address', 'Age', 'Annotation', 'Attachment', 'CodeableConcept', 'Coding', 'ContactPoint',
  'Count', 'Distance', 'Duration', 'HumanName', 'Identifier', 'Money', 'Period', 'Quantity', 'Range', 'Ratio', 'Reference', 'SampledData',
  'Signature', 'Timing', 'ContactDetail', 'Contributor', 'DataRequirement', 'Expression', 'ParameterDefinition', 'RelatedArtifact',
  'TriggerDefinition', 'UsageContext', 'Dosage', 'Meta',
]);

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function checkPrimitive(type: string, v: unknown): boolean {
  switch (type) {
    case 'Boolean':
      return typeof v === 'boolean';
    case 'Integer':
      return typeof v === 'number' && Number.isInteger(v) && v >= -2147483648 && v <= 2147483647;
    case 'PositiveInt':
      return typeof v === 'number' && Number.isInteger(v) && v >= 1;
    case 'UnsignedInt':
      return typeof v === 'number' && Number.isInteger(v) && v >= 0;
    case 'Decimal':
      return typeof v === 'number' && Number.isFinite(v);
    case 'Code':
      return typeof v === 'string' && /^[^\s]+( [^\s]+)*$/.test(v);
    case 'String':
    case 'Markdown':
      return typeof v === 'string' && v.length > 0 && v.trim().length > 0;
    default:
      return VALUE_TYPES.has(type) && v !== null && v !== undefined;
  }
}

function checkParameter(p: unknown, at: string, errors: string[]): void {
  if (!isObject(p)) {
    errors.push(`${at}: not an object`);
    return;
  }
  if (typeof p.name !== 'string' || !p.name.trim()) errors.push(`${at}.name: required string`);
  const valueKeys = Object.keys(p).filter((k) => k.startsWith('value'));
  for (const k of Object.keys(p)) {
    if (!ALLOWED_PARAMETER_KEYS.has(k) && !k.startsWith('value')) errors.push(`${at}.${k}: not an element of Parameters.parameter`);
  }
  for (const k of valueKeys) {
    const type = k.slice(5);
    if (!VALUE_TYPES.has(type)) errors.push(`${at}.${k}: not a value[x] type`);
    else if (!checkPrimitive(type, p[k])) errors.push(`${at}.${k}: not a valid ${type}`);
  }
  const kinds = (valueKeys.length ? 1 : 0) + (p.resource !== undefined ? 1 : 0) + (p.part !== undefined ? 1 : 0);
  if (valueKeys.length > 1) errors.push(`${at}: more than one value[x]`);
  if (kinds !== 1) errors.push(`${at}: needs exactly one of value[x], resource or part (inv-1)`);
  if (p.resource !== undefined && (!isObject(p.resource) || typeof p.resource.resourceType !== 'string')) errors.push(`${at}.resource: not a resource`);
  if (p.part !== undefined) {
    if (!Array.isArray(p.part) || p.part.length === 0) errors.push(`${at}.part: must be a non-empty array`);
    else p.part.forEach((q, i) => checkParameter(q, `${at}.part[${i}]`, errors));
  }
}

export function checkParameters(r: unknown): string[] {
  const errors: string[] = [];
  if (!isObject(r)) return ['not an object'];
  if (r.resourceType !== 'Parameters') errors.push('resourceType must be Parameters');
  for (const k of Object.keys(r)) if (!['resourceType', 'id', 'meta', 'implicitRules', 'language', 'parameter'].includes(k)) errors.push(`${k}: not an element of Parameters`);
  if (r.parameter !== undefined) {
    if (!Array.isArray(r.parameter) || r.parameter.length === 0) errors.push('parameter: must be a non-empty array');
    else r.parameter.forEach((p, i) => checkParameter(p, `parameter[${i}]`, errors));
  }
  return errors;
}

function stringArray(v: unknown): boolean {
  return Array.isArray(v) && v.length > 0 && v.every((s) => typeof s === 'string' && s.length > 0);
}

export function checkOperationOutcome(r: unknown): string[] {
  const errors: string[] = [];
  if (!isObject(r)) return ['not an object'];
  if (r.resourceType !== 'OperationOutcome') errors.push('resourceType must be OperationOutcome');
  for (const k of Object.keys(r)) {
    if (!['resourceType', 'id', 'meta', 'implicitRules', 'language', 'text', 'contained', 'extension', 'modifierExtension', 'issue'].includes(k)) errors.push(`${k}: not an element of OperationOutcome`);
  }
  if (!Array.isArray(r.issue) || r.issue.length === 0) {
    errors.push('issue: required, 1..*');
    return errors;
  }
  r.issue.forEach((i, n) => {
    const at = `issue[${n}]`;
    if (!isObject(i)) {
      errors.push(`${at}: not an object`);
      return;
    }
    for (const k of Object.keys(i)) {
      if (!['id', 'extension', 'modifierExtension', 'severity', 'code', 'details', 'diagnostics', 'location', 'expression'].includes(k)) errors.push(`${at}.${k}: not an element of issue`);
    }
    if (!(ISSUE_SEVERITIES as readonly unknown[]).includes(i.severity)) errors.push(`${at}.severity: not in fatal | error | warning | information`);
    if (!(ISSUE_TYPES as readonly unknown[]).includes(i.code)) errors.push(`${at}.code: not an IssueType code`);
    if (i.diagnostics !== undefined && (typeof i.diagnostics !== 'string' || !i.diagnostics)) errors.push(`${at}.diagnostics: must be a string`);
    if (i.location !== undefined && !stringArray(i.location)) errors.push(`${at}.location: must be an array of strings`);
    if (i.expression !== undefined && !stringArray(i.expression)) errors.push(`${at}.expression: must be an array of strings`);
    if (i.details !== undefined) {
      const d = i.details;
      if (!isObject(d)) errors.push(`${at}.details: must be a CodeableConcept`);
      else {
        if (d.text !== undefined && typeof d.text !== 'string') errors.push(`${at}.details.text: must be a string`);
        if (d.coding !== undefined && (!Array.isArray(d.coding) || !d.coding.every((c) => isObject(c) && typeof c.system === 'string' && typeof c.code === 'string'))) {
          errors.push(`${at}.details.coding: must be Codings with system and code`);
        }
      }
    }
  });
  return errors;
}
