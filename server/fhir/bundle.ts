/**
 * Reads the case out of a FHIR R4 Bundle: ICD-10-CM Conditions (principal = Encounter.diagnosis rank 1, else the
 * first listed), ICD-10-PCS Procedures, Patient.gender and Encounter.hospitalization.dischargeDisposition.
 *
 * PHI: the values of every other element are never read. Identifying elements are only checked for presence
 * (`key in object`) so the response can attest which ones were dropped; nothing from them is copied, logged or kept.
 */
import { FhirError, type IssueInput } from './outcome';
import { CMS_DISCHARGE_STATUSES, HL7_DISCHARGE_SYSTEMS, HL7_TO_CMS, NUBC_SYSTEM, dischargeCode } from './discharge';

export const ICD10CM_SYSTEM = 'http://hl7.org/fhir/sid/icd-10-cm';
export const ICD10PCS_SYSTEMS = ['http://www.cms.gov/Medicare/Coding/ICD10', 'https://www.cms.gov/Medicare/Coding/ICD10'];
const WHO_ICD10_SYSTEM = 'http://hl7.org/fhir/sid/icd-10';
const DIAGNOSIS_ROLE_SYSTEM = 'http://terminology.hl7.org/CodeSystem/diagnosis-role';

type Json = Record<string, unknown>;

export interface SourcedCode {
  code: string;
  /** FHIRPath of the coding's code element, for error messages. */
  path: string;
}

export interface ExtractedCase {
  dx: SourcedCode[];
  pr: SourcedCode[];
  gender: 'F' | 'M';
  genderPath: string;
  /** UB-04 discharge status. */
  dischargeStatus: number;
  /** Where it came from, e.g. `hl7:exp` or `nubc:20` or `default`. */
  dischargeSource: string;
  warnings: string[];
  /** Identifying elements present in the request and ignored, e.g. `Patient.name`. */
  identifiersDropped: string[];
}

/** Elements of the resources we read that we never read: their presence is attested, their values untouched. */
const IGNORED_ELEMENTS: Record<string, readonly string[]> = {
  Patient: [
    'id',
    'identifier',
    'name',
    'telecom',
    'address',
    'birthDate',
    'deceasedBoolean',
    'deceasedDateTime',
    'maritalStatus',
    'multipleBirthBoolean',
    'multipleBirthInteger',
    'photo',
    'contact',
    'communication',
    'generalPractitioner',
    'managingOrganization',
    'link',
    'text',
    'extension',
  ],
  Encounter: ['identifier', 'subject', 'participant', 'period', 'location', 'serviceProvider', 'account', 'episodeOfCare', 'basedOn', 'text', 'extension'],
  Condition: [
    'identifier',
    'subject',
    'encounter',
    'onsetDateTime',
    'onsetPeriod',
    'onsetString',
    'abatementDateTime',
    'recordedDate',
    'recorder',
    'asserter',
    'note',
    'text',
    'extension',
  ],
  Procedure: [
    'identifier',
    'subject',
    'encounter',
    'performedDateTime',
    'performedPeriod',
    'performedString',
    'performer',
    'recorder',
    'asserter',
    'location',
    'note',
    'text',
    'extension',
  ],
};
const BUNDLE_IGNORED = ['identifier', 'signature'];

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function fail(status: 400 | 422, i: IssueInput): never {
  throw new FhirError(status, i);
}

function codings(concept: unknown): Array<{ system: string; code: unknown; index: number }> {
  if (!isObject(concept) || !Array.isArray(concept.coding)) return [];
  const out: Array<{ system: string; code: unknown; index: number }> = [];
  concept.coding.forEach((c, index) => {
    if (isObject(c) && typeof c.system === 'string') out.push({ system: c.system.trim(), code: c.code, index });
  });
  return out;
}

interface Entry {
  index: number;
  fullUrl: string | null;
  resource: Json;
  type: string;
  path: string;
}

/** Condition/Procedure statuses that take a resource out of the case. */
const CONDITION_VOID = new Set(['refuted', 'entered-in-error']);
const PROCEDURE_VOID = new Set(['entered-in-error', 'not-done']);

export function extractCase(bundle: Json, base: string): ExtractedCase {
  const warnings: string[] = [];
  const dropped = new Set<string>();
  for (const k of BUNDLE_IGNORED) if (k in bundle) dropped.add(`Bundle.${k}`);

  if (bundle.entry !== undefined && !Array.isArray(bundle.entry))
    fail(400, { code: 'structure', type: 'invalid_bundle', message: 'Bundle.entry must be an array.', at: `${base}.entry` });
  const rawEntries = (bundle.entry as unknown[] | undefined) ?? [];
  const entries: Entry[] = [];
  rawEntries.forEach((e, index) => {
    const path = `${base}.entry[${index}]`;
    if (!isObject(e)) fail(400, { code: 'structure', type: 'invalid_bundle', message: `${path} must be an object.`, at: path });
    if (!isObject(e.resource) || typeof e.resource.resourceType !== 'string' || !e.resource.resourceType) {
      fail(400, {
        code: 'structure',
        type: 'invalid_bundle',
        message: `${path}.resource must be a FHIR resource with a resourceType.`,
        at: `${path}.resource`,
      });
    }
    const type = e.resource.resourceType;
    entries.push({
      index,
      fullUrl: (type === 'Condition' || type === 'Procedure') && typeof e.fullUrl === 'string' ? e.fullUrl : null,
      resource: e.resource,
      type,
      path: `${path}.resource`,
    });
    const ignored = IGNORED_ELEMENTS[type];
    if (ignored) {
      for (const k of ignored) if (k in e.resource) dropped.add(`${type}.${k}`);
    } else {
      dropped.add(type); // a resource type we do not read at all (Practitioner, Organization, Coverage …)
    }
  });

  // Patient: gender only.
  const patients = entries.filter((e) => e.type === 'Patient');
  if (patients.length === 0) {
    fail(422, {
      code: 'required',
      type: 'no_patient',
      message: 'The Bundle has no Patient. A Patient with gender male or female is required: sex can change the MS-DRG.',
      at: `${base}.entry`,
    });
  }
  if (patients.length > 1) {
    fail(422, {
      code: 'business-rule',
      type: 'several_patients',
      message: 'The Bundle holds more than one Patient; send one encounter per request.',
      at: patients[1]!.path,
    });
  }
  const patient = patients[0]!;
  const g = patient.resource.gender;
  if (g !== 'male' && g !== 'female') {
    fail(422, {
      code: g === undefined ? 'required' : 'value',
      type: 'gender_required',
      message: `Patient.gender must be 'male' or 'female' (${g === undefined ? 'it is missing' : 'other and unknown cannot be grouped'}): sex can change the MS-DRG.`,
      at: `${patient.path}.gender`,
    });
  }
  const gender = g === 'male' ? 'M' : 'F';

  // Encounter: diagnosis ranks and discharge disposition.
  const encounters = entries.filter((e) => e.type === 'Encounter');
  if (encounters.length > 1) {
    fail(422, {
      code: 'business-rule',
      type: 'several_encounters',
      message: 'The Bundle holds more than one Encounter; send one encounter per request.',
      at: encounters[1]!.path,
    });
  }
  const encounter = encounters[0];
  const discharge = readDischarge(encounter, warnings);

  // Conditions.
  const byRef = referenceIndex(entries);
  const conditions: Array<{ entry: Entry; code: SourcedCode; rank: number }> = [];
  const voided = new Set<Entry>();
  for (const e of entries.filter((x) => x.type === 'Condition')) {
    const ver = codings(e.resource.verificationStatus).map((c) => c.code);
    if (ver.some((c) => typeof c === 'string' && CONDITION_VOID.has(c))) {
      voided.add(e);
      warnings.push(`${e.path} is ${String(ver.find((c) => typeof c === 'string' && CONDITION_VOID.has(c)))} and was left out.`);
      continue;
    }
    const all = codings(e.resource.code);
    const hit = all.find((c) => c.system === ICD10CM_SYSTEM);
    if (!hit) {
      const who = all.some((c) => c.system === WHO_ICD10_SYSTEM);
      fail(422, {
        code: 'required',
        type: 'no_icd10cm_coding',
        message: `${e.path}.code has no ICD-10-CM coding (system ${ICD10CM_SYSTEM})${who ? '; WHO ICD-10 is not ICD-10-CM' : ''}. Every Condition in the Bundle must carry one, or the result could silently miss a diagnosis.`,
        at: `${e.path}.code`,
      });
    }
    const codePath = `${e.path}.code.coding[${hit.index}].code`;
    if (typeof hit.code !== 'string' || !hit.code.trim())
      fail(422, { code: 'required', type: 'empty_code', message: `${codePath} is missing or empty.`, at: codePath });
    conditions.push({ entry: e, code: { code: hit.code.trim(), path: codePath }, rank: Number.POSITIVE_INFINITY });
  }
  if (conditions.length === 0) {
    fail(422, {
      code: 'required',
      type: 'no_condition',
      message: `The Bundle has no Condition${voided.size ? ' that is not refuted or entered-in-error' : ''}. At least one Condition with an ICD-10-CM coding is needed (the principal diagnosis).`,
      at: `${base}.entry`,
    });
  }

  // Principal: the Condition referenced by Encounter.diagnosis with rank 1 (billing / discharge role if several).
  let principal = conditions[0]!;
  if (encounter && encounter.resource.diagnosis !== undefined) {
    const diag = encounter.resource.diagnosis;
    if (!Array.isArray(diag))
      fail(400, { code: 'structure', type: 'invalid_bundle', message: 'Encounter.diagnosis must be an array.', at: `${encounter.path}.diagnosis` });
    const ranked: Array<{ cond: (typeof conditions)[number]; rank: number; use: string[]; path: string }> = [];
    diag.forEach((d, i) => {
      const path = `${encounter.path}.diagnosis[${i}]`;
      if (!isObject(d)) fail(400, { code: 'structure', type: 'invalid_bundle', message: `${path} must be an object.`, at: path });
      const ref = isObject(d.condition) && typeof d.condition.reference === 'string' ? d.condition.reference.trim() : null;
      if (!ref) fail(422, { code: 'required', type: 'unresolved_reference', message: `${path}.condition has no reference.`, at: `${path}.condition` });
      const target = byRef.get(ref) ?? byRef.get(ref.replace(/^.*\/(\w+\/[^/]+)$/, '$1'));
      if (!target)
        fail(422, {
          code: 'not-found',
          type: 'unresolved_reference',
          message: `${path}.condition does not refer to a Condition in the Bundle.`,
          at: `${path}.condition`,
        });
      if (target.type !== 'Condition') {
        fail(422, {
          code: 'business-rule',
          type: 'diagnosis_not_condition',
          message: `${path}.condition refers to a ${target.type}; only Conditions are diagnoses here.`,
          at: `${path}.condition`,
        });
      }
      const rank = d.rank;
      if (rank !== undefined && !(typeof rank === 'number' && Number.isInteger(rank) && rank >= 1)) {
        fail(400, { code: 'value', type: 'invalid_rank', message: `${path}.rank must be a positive integer.`, at: `${path}.rank` });
      }
      const cond = conditions.find((c) => c.entry === target);
      if (!cond) {
        if (rank === 1)
          fail(422, {
            code: 'business-rule',
            type: 'principal_voided',
            message: `${path} ranks a refuted or entered-in-error Condition first.`,
            at: `${path}.condition`,
          });
        return;
      }
      if (typeof rank === 'number') cond.rank = Math.min(cond.rank, rank);
      ranked.push({
        cond,
        rank: typeof rank === 'number' ? rank : Number.POSITIVE_INFINITY,
        use: codings(d.use)
          .filter((c) => c.system === DIAGNOSIS_ROLE_SYSTEM)
          .map((c) => String(c.code)),
        path,
      });
    });
    const firsts = ranked.filter((r) => r.rank === 1);
    let distinct = [...new Set(firsts.map((r) => r.cond))];
    if (distinct.length > 1) {
      const billing = firsts.filter((r) => r.use.includes('billing') || r.use.includes('DD'));
      const narrowed = [...new Set(billing.map((r) => r.cond))];
      if (narrowed.length === 1) distinct = narrowed;
      else {
        fail(422, {
          code: 'business-rule',
          type: 'ambiguous_principal',
          message:
            'Several Encounter.diagnosis entries with rank 1 name different Conditions; mark the principal one with use billing or DD (discharge diagnosis).',
          at: firsts[1]!.path,
        });
      }
    }
    if (distinct.length === 1) principal = distinct[0]!;
  }

  // Principal first, then the others by rank, then in Bundle order. Repeated codes are sent once.
  const rest = conditions.filter((c) => c !== principal).sort((a, b) => a.rank - b.rank || a.entry.index - b.entry.index);
  const dx: SourcedCode[] = [];
  const seen = new Set<string>();
  for (const c of [principal, ...rest]) {
    const key = c.code.code.replace(/\./g, '').toUpperCase();
    if (seen.has(key)) {
      warnings.push(`${c.code.path}: ${c.code.code} is repeated and was sent to the grouper once.`);
      continue;
    }
    seen.add(key);
    dx.push(c.code);
  }

  // Procedures.
  const pr: SourcedCode[] = [];
  for (const e of entries.filter((x) => x.type === 'Procedure')) {
    if (typeof e.resource.status === 'string' && PROCEDURE_VOID.has(e.resource.status)) {
      warnings.push(`${e.path} has status ${e.resource.status} and was left out.`);
      continue;
    }
    const hit = codings(e.resource.code).find((c) => ICD10PCS_SYSTEMS.includes(c.system));
    if (!hit) {
      fail(422, {
        code: 'required',
        type: 'no_icd10pcs_coding',
        message: `${e.path}.code has no ICD-10-PCS coding (system ${ICD10PCS_SYSTEMS[0]}). Every Procedure in the Bundle must carry one (or status not-done / entered-in-error), or the result could silently miss a procedure.`,
        at: `${e.path}.code`,
      });
    }
    const codePath = `${e.path}.code.coding[${hit.index}].code`;
    if (typeof hit.code !== 'string' || !hit.code.trim())
      fail(422, { code: 'required', type: 'empty_code', message: `${codePath} is missing or empty.`, at: codePath });
    pr.push({ code: hit.code.trim(), path: codePath });
  }

  return { dx, pr, gender, genderPath: `${patient.path}.gender`, ...discharge, warnings, identifiersDropped: [...dropped].sort() };
}

/** Condition and Procedure entries by fullUrl and by `Type/id` (no other resource's id or URL is read). */
function referenceIndex(entries: Entry[]): Map<string, Entry> {
  const m = new Map<string, Entry>();
  for (const e of entries) {
    if (e.type !== 'Condition' && e.type !== 'Procedure') continue;
    if (e.fullUrl) m.set(e.fullUrl, e);
    if (typeof e.resource.id === 'string') m.set(`${e.type}/${e.resource.id}`, e);
  }
  return m;
}

function readDischarge(encounter: Entry | undefined, warnings: string[]): { dischargeStatus: number; dischargeSource: string } {
  const hosp = encounter?.resource.hospitalization;
  const dd = isObject(hosp) ? hosp.dischargeDisposition : undefined;
  if (!encounter || dd === undefined) {
    warnings.push(`No Encounter.hospitalization.dischargeDisposition: grouped as discharged alive to home (01).`);
    return { dischargeStatus: 1, dischargeSource: 'default' };
  }
  const at = `${encounter.path}.hospitalization.dischargeDisposition`;
  const all = codings(dd);
  const nubc = all.find((c) => c.system === NUBC_SYSTEM);
  if (nubc) {
    const s = typeof nubc.code === 'string' ? nubc.code.trim() : '';
    const n = /^\d{1,2}$/.test(s) ? Number(s) : NaN;
    if (!CMS_DISCHARGE_STATUSES.has(n)) {
      fail(422, {
        code: 'code-invalid',
        type: 'invalid_discharge_status',
        message: `${at}.coding[${nubc.index}].code is not a valid NUBC patient discharge status.`,
        at: `${at}.coding[${nubc.index}].code`,
      });
    }
    return { dischargeStatus: n, dischargeSource: `nubc:${dischargeCode(n)}` };
  }
  const hl7 = all.find((c) => HL7_DISCHARGE_SYSTEMS.includes(c.system) && typeof c.code === 'string' && c.code in HL7_TO_CMS);
  if (hl7) {
    const code = hl7.code as string;
    const m = HL7_TO_CMS[code]!;
    if (code === 'other-hcf')
      warnings.push(
        `Discharge disposition other-hcf was mapped to 70 (another health care institution); send a NUBC coding (e.g. 02 for a short-term acute hospital) when the destination matters.`,
      );
    return { dischargeStatus: m.status, dischargeSource: `hl7:${code}` };
  }
  return fail(422, {
    code: 'code-invalid',
    type: 'unknown_discharge_disposition',
    message: `${at} has no coding this service understands: use ${HL7_DISCHARGE_SYSTEMS[0]} (${Object.keys(HL7_TO_CMS).join(', ')}) or ${NUBC_SYSTEM}.`,
    at,
  });
}
