/**
 * Realistic (synthetic) R4 Bundles for the tests: a Patient full of identifying data, an Encounter with ranked
 * diagnoses and a discharge disposition, several Conditions, Procedures and a Practitioner. The PHI strings are
 * exported so tests can prove they never reach logs, the database or the response.
 */
export const PHI = {
  family: 'Xylophant',
  given: 'Quintessa',
  mrn: 'MRN-7730-4419-ZQ',
  ssn: '987-65-4329',
  street: '4417 Wraithmoor Lane',
  city: 'Bellwether Flats',
  phone: '+1-555-013-7788',
  email: 'quintessa.xylophant@example.org',
  birthDate: '1947-03-29',
  encounterId: 'ENC-55-ALDERWICK-0091',
  practitioner: 'Dr. Ombrevane Castellux',
  note: 'Patient Quintessa reports chest pain at Wraithmoor',
} as const;

export const ICD10CM = 'http://hl7.org/fhir/sid/icd-10-cm';
export const ICD10PCS = 'http://www.cms.gov/Medicare/Coding/ICD10';
export const DISPOSITION = 'http://terminology.hl7.org/CodeSystem/discharge-disposition';

type Json = Record<string, unknown>;

export interface BundleOptions {
  /** Conditions in Bundle order (ICD-10-CM, dots allowed). */
  conditions?: string[];
  /** Index into `conditions` of the one Encounter.diagnosis ranks 1 (default 0); null = no Encounter.diagnosis. */
  principalIndex?: number | null;
  procedures?: string[];
  gender?: string | null;
  disposition?: string | null;
  encounter?: boolean;
  patient?: boolean;
}

export function condition(id: string, code: string, extra: Json = {}): Json {
  return {
    resourceType: 'Condition',
    id,
    identifier: [{ system: 'urn:oid:1.2.3.4', value: `${PHI.mrn}-${id}` }],
    clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active' }] },
    verificationStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-ver-status', code: 'confirmed' }] },
    category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-category', code: 'encounter-diagnosis' }] }],
    code: { coding: [{ system: 'http://snomed.info/sct', code: '22298006', display: 'Myocardial infarction' }, { system: ICD10CM, code }], text: `Diagnosis ${code}` },
    subject: { reference: 'urn:uuid:patient-1', display: `${PHI.given} ${PHI.family}` },
    note: [{ text: PHI.note }],
    recordedDate: '2024-02-03',
    ...extra,
  };
}

export function procedure(id: string, code: string, extra: Json = {}): Json {
  return {
    resourceType: 'Procedure',
    id,
    status: 'completed',
    code: { coding: [{ system: ICD10PCS, code }] },
    subject: { reference: 'urn:uuid:patient-1' },
    performedDateTime: '2024-02-03T10:15:00Z',
    performer: [{ actor: { reference: 'urn:uuid:pract-1', display: PHI.practitioner } }],
    ...extra,
  };
}

export function patient(gender: string | null = 'male'): Json {
  const p: Json = {
    resourceType: 'Patient',
    id: PHI.mrn,
    identifier: [
      { system: 'http://hospital.example.org/mrn', value: PHI.mrn },
      { system: 'http://hl7.org/fhir/sid/us-ssn', value: PHI.ssn },
    ],
    name: [{ use: 'official', family: PHI.family, given: [PHI.given] }],
    telecom: [
      { system: 'phone', value: PHI.phone },
      { system: 'email', value: PHI.email },
    ],
    address: [{ line: [PHI.street], city: PHI.city, postalCode: '90210' }],
    birthDate: PHI.birthDate,
  };
  if (gender !== null) p.gender = gender;
  return p;
}

export function bundle(o: BundleOptions = {}): Json {
  const conditions = o.conditions ?? ['I21.4', 'E11.65'];
  const procedures = o.procedures ?? ['02703DZ'];
  const principalIndex = o.principalIndex === undefined ? 0 : o.principalIndex;
  const entries: Json[] = [];
  if (o.patient !== false) entries.push({ fullUrl: 'urn:uuid:patient-1', resource: patient(o.gender === undefined ? 'male' : o.gender) });
  if (o.encounter !== false) {
    const enc: Json = {
      resourceType: 'Encounter',
      id: 'enc-1',
      identifier: [{ system: 'http://hospital.example.org/visit', value: PHI.encounterId }],
      status: 'finished',
      class: { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'IMP' },
      subject: { reference: 'urn:uuid:patient-1', display: `${PHI.given} ${PHI.family}` },
      participant: [{ individual: { reference: 'urn:uuid:pract-1', display: PHI.practitioner } }],
      period: { start: '2024-02-01', end: '2024-02-05' },
    };
    if (principalIndex !== null) {
      // Rank the principal 1 and the others 2, 3 … in reverse Bundle order, so order and rank differ.
      const others = conditions.map((_, i) => i).filter((i) => i !== principalIndex).reverse();
      enc.diagnosis = [
        ...others.map((i, k) => ({ condition: { reference: `Condition/c${i}` }, rank: k + 2, use: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/diagnosis-role', code: 'DD' }] } })),
        { condition: { reference: `urn:uuid:cond-${principalIndex}` }, rank: 1, use: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/diagnosis-role', code: 'DD' }] } },
      ];
    }
    if (o.disposition !== null) enc.hospitalization = { dischargeDisposition: { coding: [{ system: DISPOSITION, code: o.disposition ?? 'home' }] } };
    entries.push({ fullUrl: 'urn:uuid:enc-1', resource: enc });
  }
  conditions.forEach((c, i) => entries.push({ fullUrl: `urn:uuid:cond-${i}`, resource: condition(`c${i}`, c) }));
  procedures.forEach((c, i) => entries.push({ fullUrl: `urn:uuid:proc-${i}`, resource: procedure(`p${i}`, c) }));
  entries.push({
    fullUrl: 'urn:uuid:pract-1',
    resource: { resourceType: 'Practitioner', id: 'pract-1', name: [{ text: PHI.practitioner }], telecom: [{ system: 'phone', value: PHI.phone }] },
  });
  return { resourceType: 'Bundle', id: 'b1', identifier: { system: 'urn:ietf:rfc:3986', value: `urn:uuid:${PHI.encounterId}` }, type: 'collection', entry: entries };
}

/** Value of the first parameter with this name. */
export function param(parameters: unknown, name: string): unknown {
  const list = (parameters as { parameter?: Array<Record<string, unknown>> }).parameter ?? [];
  const p = list.find((x) => x.name === name);
  if (!p) return undefined;
  const key = Object.keys(p).find((k) => k.startsWith('value'));
  return key ? p[key] : p.part;
}

export function params(parameters: unknown, name: string): Array<Record<string, unknown>> {
  return ((parameters as { parameter?: Array<Record<string, unknown>> }).parameter ?? []).filter((x) => x.name === name);
}

/** `{code: 'I214', role: 'principal', …}` from a part-based parameter. */
export function parts(p: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const q of (p.part as Array<Record<string, unknown>>) ?? []) {
    const key = Object.keys(q).find((k) => k.startsWith('value'));
    const v = key ? q[key] : undefined;
    const name = q.name as string;
    if (name in out) out[name] = ([] as unknown[]).concat(out[name], v);
    else out[name] = v;
  }
  return out;
}
