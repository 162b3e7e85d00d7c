import { describe, expect, it } from 'vitest';
import { groupCase } from '../drg';
import { classifyFhirResource, classifyFhirText, HL7_TO_CMS, NUBC_SYSTEM, PARAMETER_NAMES } from './index';
import { checkOperationOutcome, checkParameters } from '@/tests/fixtures/fhir/structure';
import { bundle, condition, DISPOSITION, ICD10CM, param, params, parts, patient, PHI, procedure } from '@/tests/fixtures/fhir/bundles';

type Outcome = {
  issue: Array<{
    severity: string;
    code: string;
    expression?: string[];
    location?: string[];
    diagnostics?: string;
    details?: { coding?: Array<{ code: string }> };
  }>;
};

async function ok(body: unknown, version?: string) {
  const r = await classifyFhirResource(body, { version });
  expect(r.status, JSON.stringify(r.resource).slice(0, 400)).toBe(200);
  expect(checkParameters(r.resource)).toEqual([]);
  return r.resource;
}

async function fails(body: unknown, status: number, version?: string) {
  const r = await classifyFhirResource(body, { version });
  expect(r.status).toBe(status);
  expect(r.resource.resourceType).toBe('OperationOutcome');
  expect(checkOperationOutcome(r.resource)).toEqual([]);
  return r.resource as unknown as Outcome;
}

describe('FHIR $classify core', () => {
  it('classifies the realistic Bundle like the grouper does, principal from Encounter.diagnosis rank 1', async () => {
    // Principal is the *second* Condition (rank 1 via fullUrl); the first listed is a secondary.
    const b = bundle({ conditions: ['I50.21', 'I21.4', 'E11.65'], principalIndex: 1, procedures: ['02703DZ'] });
    const res = await ok(b);
    const expected = await groupCase('v40', { dx: ['I214', 'E1165', 'I5021'], pr: ['02703DZ'], sex: 'M', alive: true, dischargeStatus: 1 });
    expect(param(res, 'drg')).toBe(expected.drg);
    expect(param(res, 'drg')).toBe('248'); // MCC from I50.21 (verified with the core)
    expect(param(res, 'drg_description')).toBe(expected.description);
    expect(param(res, 'mdc')).toBe('05');
    expect(param(res, 'drg_type')).toBe('P');
    expect(param(res, 'grouper_version')).toBe('v40');
    expect(param(res, 'fiscal_year')).toBe('FY2023');
    expect(param(res, 'severity_driver')).toBe('I5021');
    expect(params(res, 'candidate_drg').map((p) => p.valueCode)).toEqual(expected.all_candidates);
    const dx = params(res, 'diagnosis').map(parts);
    expect(dx[0]).toMatchObject({ code: 'I214', role: 'principal', valid: true });
    // Secondaries in rank order: E11.65 ranked 2, I50.21 ranked 3 (the fixture ranks in reverse Bundle order).
    expect(dx.slice(1).map((d) => d.code)).toEqual(['E1165', 'I5021']);
    expect(dx[2]).toMatchObject({ cc_mcc: 'MCC', counted: true });
    expect(parts(params(res, 'procedure')[0]!)).toMatchObject({ code: '02703DZ', valid: true, is_or: true });
  });

  it('without Encounter.diagnosis the first listed Condition is principal', async () => {
    const res = await ok(bundle({ conditions: ['I50.21', 'I21.4'], principalIndex: null, procedures: [] }));
    expect(parts(params(res, 'diagnosis')[0]!)).toMatchObject({ code: 'I5021', role: 'principal' });
    expect(param(res, 'drg')).toBe((await groupCase('v40', { dx: ['I5021', 'I214'], sex: 'M', alive: true })).drg);
  });

  it('attests the identifying elements it dropped, and never copies their values', async () => {
    const res = await ok(bundle());
    const att = parts(params(res, 'fhir_identifiers_dropped')[0]!);
    const elements = att.element as string[];
    for (const e of [
      'Patient.name',
      'Patient.identifier',
      'Patient.address',
      'Patient.telecom',
      'Patient.birthDate',
      'Encounter.identifier',
      'Encounter.participant',
      'Condition.note',
      'Procedure.performer',
      'Practitioner',
      'Bundle.identifier',
    ]) {
      expect(elements).toContain(e);
    }
    expect(att.count).toBe(elements.length);
    expect(att.bundle_persisted).toBe(false);
    const text = JSON.stringify(res);
    for (const v of Object.values(PHI)) expect(text).not.toContain(v);
  });

  it('uses only the parameter names it documents, each with exactly one value or parts', async () => {
    const res = await ok(bundle());
    const names = new Set((res as { parameter: Array<{ name: string }> }).parameter.map((p) => p.name));
    for (const n of names) expect(PARAMETER_NAMES as readonly string[]).toContain(n);
    expect([...names]).toEqual(expect.arrayContaining(['drg', 'drg_description', 'grouper_version', 'fhir_identifiers_dropped']));
  });

  it('maps every HL7 discharge disposition; exp is expired (AMI expired DRG), aadvice is 07', async () => {
    for (const [code, m] of Object.entries(HL7_TO_CMS)) {
      const res = await ok(bundle({ procedures: [], disposition: code }));
      expect(param(res, 'discharge_status')).toBe(String(m.status).padStart(2, '0'));
      expect(param(res, 'discharge_status_source')).toBe(`hl7:${code}`);
    }
    const expired = await ok(bundle({ conditions: ['I21.4'], procedures: [], disposition: 'exp' }));
    expect(param(expired, 'drg')).toBe((await groupCase('v40', { dx: ['I214'], sex: 'M', alive: false })).drg);
    expect(param(expired, 'drg')).toBe('285');
    const alive = await ok(bundle({ conditions: ['I21.4'], procedures: [], disposition: 'home' }));
    expect(param(alive, 'drg')).toBe('282');
  });

  it('a NUBC coding wins over the HL7 code; no disposition means 01 with a warning', async () => {
    const b = bundle({ conditions: ['I21.4'], procedures: [] });
    const enc = (b.entry as Array<{ resource: Record<string, unknown> }>).find((e) => e.resource.resourceType === 'Encounter')!.resource;
    enc.hospitalization = {
      dischargeDisposition: {
        coding: [
          { system: DISPOSITION, code: 'home' },
          { system: NUBC_SYSTEM, code: '20' },
        ],
      },
    };
    expect(param(await ok(b), 'drg')).toBe('285');
    const none = await ok(bundle({ procedures: [], disposition: null }));
    expect(param(none, 'discharge_status')).toBe('01');
    expect(
      params(none, 'warning')
        .map((w) => w.valueString)
        .join(' '),
    ).toMatch(/dischargeDisposition/);
  });

  it('version from the caller and from a Parameters wrapper', async () => {
    const v43 = await ok(bundle(), 'v43');
    expect(param(v43, 'grouper_version')).toBe('v43');
    expect(param(v43, 'fiscal_year')).toBe('FY2026');
    const wrapped = await ok({
      resourceType: 'Parameters',
      parameter: [
        { name: 'bundle', resource: bundle() },
        { name: 'version', valueString: 'v36' },
      ],
    });
    expect(param(wrapped, 'grouper_version')).toBe('v36');
    expect(param(wrapped, 'fidelity')).toBe('derived');
  });

  it('an unknown principal code is a result (DRG 999), not an error', async () => {
    const res = await ok(bundle({ conditions: ['Q99.999'], procedures: [] }));
    expect(param(res, 'drg')).toBe('999');
    expect(param(res, 'return_code')).toBe('INVALID_PDX');
    expect(param(res, 'drg_type')).toBe('M');
  });

  it('leaves out refuted Conditions and not-done Procedures, saying so', async () => {
    const b = bundle({ conditions: ['I21.4'], procedures: [] });
    const entries = b.entry as unknown[];
    entries.push({
      resource: condition('cx', 'I50.21', {
        verificationStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-ver-status', code: 'refuted' }] },
      }),
    });
    entries.push({ resource: procedure('px', '02703DZ', { status: 'not-done' }) });
    const res = await ok(b);
    expect(param(res, 'drg')).toBe('282');
    expect(params(res, 'warning').length).toBeGreaterThanOrEqual(2);
  });

  it('errors are OperationOutcomes pointing at the element', async () => {
    let o = await fails({ resourceType: 'Patient' }, 400);
    expect(o.issue[0]!.details?.coding?.[0]?.code).toBe('not_a_bundle');
    o = await fails([1, 2], 400);
    expect(o.issue[0]!.code).toBe('structure');
    o = await fails(bundle({ conditions: [] }), 422);
    expect(o.issue[0]).toMatchObject({ code: 'required', expression: ['Bundle.entry'] });

    const snomedOnly = bundle({ conditions: ['I21.4'], procedures: [] });
    const cond = (snomedOnly.entry as Array<{ resource: Record<string, unknown> }>).find((e) => e.resource.resourceType === 'Condition')!;
    cond.resource.code = { coding: [{ system: 'http://snomed.info/sct', code: '22298006' }] };
    const idx = (snomedOnly.entry as unknown[]).indexOf(cond);
    o = await fails(snomedOnly, 422);
    expect(o.issue[0]!.expression).toEqual([`Bundle.entry[${idx}].resource.code`]);
    expect(o.issue[0]!.location).toEqual(o.issue[0]!.expression);

    o = await fails(bundle({ gender: 'unknown' }), 422);
    expect(o.issue[0]!.expression).toEqual(['Bundle.entry[0].resource.gender']);
    o = await fails(bundle({ patient: false }), 422);
    expect(o.issue[0]!.details?.coding?.[0]?.code).toBe('no_patient');

    o = await fails(bundle({ procedures: ['02703D'] }), 422);
    expect(o.issue[0]!.expression?.[0]).toMatch(/^Bundle\.entry\[\d+\]\.resource\.code\.coding\[0\]\.code$/);
    expect(o.issue[0]!.diagnostics).toMatch(/7 characters/);

    o = await fails(bundle({ conditions: Array.from({ length: 11 }, (_, i) => `E11.${i}`) }), 422);
    expect(o.issue[0]!.diagnostics).toMatch(/at most 10/);

    o = await fails(bundle({ disposition: 'moon' }), 422);
    expect(o.issue[0]!.expression?.[0]).toMatch(/hospitalization\.dischargeDisposition$/);

    o = await fails(bundle(), 400, 'v35');
    expect(o.issue[0]!.expression).toEqual(['http.version']);
    o = await fails(
      {
        resourceType: 'Parameters',
        parameter: [
          { name: 'bundle', resource: bundle() },
          { name: 'version', valueString: 'v43' },
        ],
      },
      400,
      'v40',
    );
    expect(o.issue[0]!.code).toBe('conflict');
    o = await fails({ resourceType: 'Bundle', entry: [{ fullUrl: 'x' }] }, 400);
    expect(o.issue[0]!.expression).toEqual(['Bundle.entry[0].resource']);

    const dangling = bundle();
    const enc = (dangling.entry as Array<{ resource: Record<string, unknown> }>).find((e) => e.resource.resourceType === 'Encounter')!.resource;
    (enc.diagnosis as Array<Record<string, unknown>>).push({ condition: { reference: 'Condition/nope' }, rank: 9 });
    o = await fails(dangling, 422);
    expect(o.issue[0]!.code).toBe('not-found');
  });

  it('bad JSON is an OperationOutcome that does not quote the body', async () => {
    // V8's own message would quote this text ("Unexpected token 'X', ... is not valid JSON").
    const r = await classifyFhirText(`{"resourceType":"Bundle","entry":[{"resource":{"name": ${PHI.family}}}]}`, {});
    expect(r.status).toBe(400);
    expect(checkOperationOutcome(r.resource)).toEqual([]);
    expect(JSON.stringify(r.resource)).not.toContain(PHI.family);
  });

  it('the gender rule matches the JSON API (female groups, other does not)', async () => {
    const f = await ok(bundle({ gender: 'female' }));
    expect(param(f, 'drg')).toBe((await groupCase('v40', { dx: ['I214', 'E1165'], pr: ['02703DZ'], sex: 'F', alive: true })).drg);
    expect(patient('other').gender).toBe('other');
    await fails(bundle({ gender: 'other' }), 422);
    await fails(
      { ...bundle(), entry: [...(bundle().entry as unknown[]), { resource: { resourceType: 'Condition', code: { coding: [{ system: ICD10CM }] } } }] },
      422,
    );
  });
});

describe('structure checks', () => {
  it('reject what R4 forbids', () => {
    expect(checkParameters({ resourceType: 'Parameters', parameter: [{ name: 'a', valueString: 'x', valueCode: 'y' }] })).not.toEqual([]);
    expect(checkParameters({ resourceType: 'Parameters', parameter: [{ name: 'a' }] })).not.toEqual([]);
    expect(checkParameters({ resourceType: 'Parameters', parameter: [{ name: 'a', valueBoolean: 'yes' }] })).not.toEqual([]);
    expect(checkParameters({ resourceType: 'Parameters', parameter: [{ name: 'a', valueString: 'x', part: [{ name: 'b', valueCode: 'c' }] }] })).not.toEqual(
      [],
    );
    expect(checkParameters({ resourceType: 'Parameters', parameter: [{ name: 'a', part: [{ name: 'b', valueCode: 'c' }] }] })).toEqual([]);
    expect(checkOperationOutcome({ resourceType: 'OperationOutcome', issue: [] })).not.toEqual([]);
    expect(checkOperationOutcome({ resourceType: 'OperationOutcome', issue: [{ severity: 'bad', code: 'invalid' }] })).not.toEqual([]);
    expect(checkOperationOutcome({ resourceType: 'OperationOutcome', issue: [{ severity: 'error', code: 'oops' }] })).not.toEqual([]);
    expect(checkOperationOutcome({ resourceType: 'OperationOutcome', issue: [{ severity: 'error', code: 'invalid', expression: 'x' }] })).not.toEqual([]);
    expect(checkOperationOutcome({ resourceType: 'OperationOutcome', issue: [{ severity: 'error', code: 'invalid', expression: ['Bundle.entry'] }] })).toEqual(
      [],
    );
  });

  it('reports the Medicare Code Editor edits as warning issues of an OperationOutcome inside the Parameters', async () => {
    // An external-cause code as principal diagnosis: the grouper answers DRG 999, the MCE says why in words.
    const b = bundle({ conditions: ['W01.0XXA', 'S72.001A'], principalIndex: 0, procedures: [] });
    const res = await ok(b);
    expect(param(res, 'drg')).toBe('999');
    expect(param(res, 'edit_type')).toBe('PREPAYMENT');
    expect(param(res, 'mce_version')).toBe('43.1');
    const oo = params(res, 'edits')[0]!.resource as Outcome & { resourceType: string };
    expect(checkOperationOutcome(oo)).toEqual([]);
    const ecode = oo.issue.find((i) => i.details?.coding?.[0]?.code === 'E_CODE_AS_PDX');
    expect(ecode).toMatchObject({ severity: 'warning', code: 'business-rule' });
    expect(ecode?.diagnostics).toMatch(/prepayment edit/);
    // it points at the principal Condition's code element
    expect(ecode?.expression?.[0]).toMatch(/^Bundle\.entry\[\d+\]\.resource\.code\.coding\[\d+\]\.code$/);
    // without a discharge date or an age: an assumed date and the age edits not checked, as information
    expect(oo.issue.some((i) => i.severity === 'information' && /not checked: send age/.test(JSON.stringify(i)))).toBe(true);
    expect(oo.issue.some((i) => i.severity === 'information' && /No discharge_date was given/.test(i.diagnostics ?? ''))).toBe(true);
  });

  it('reads discharge_date, age and length_of_stay from a Parameters body for the edits', async () => {
    const b = bundle({ conditions: ['O80'], principalIndex: 0, procedures: [], gender: 'female' });
    const body = {
      resourceType: 'Parameters',
      parameter: [
        { name: 'bundle', resource: b },
        { name: 'discharge_date', valueDate: '2026-03-02' },
        { name: 'age', valueInteger: 70 },
        { name: 'length_of_stay', valueInteger: 3 },
        { name: 'version', valueString: 'v43' },
      ],
    };
    const res = await ok(body);
    const oo = params(res, 'edits')[0]!.resource as Outcome;
    const age = oo.issue.find((i) => i.details?.coding?.[0]?.code === 'AGE_CONFLICT') as { details?: { text?: string } } | undefined;
    expect(age?.details?.text).toMatch(/O80 is a maternity \(ages 9-64\) diagnosis; the patient is 70 years old/);
    expect(oo.issue.some((i) => i.severity === 'information' && /No discharge_date/.test(i.diagnostics ?? ''))).toBe(false);
    const bad = await fails(
      {
        resourceType: 'Parameters',
        parameter: [
          { name: 'bundle', resource: b },
          { name: 'discharge_date', valueDate: '2026-02-30' },
        ],
      },
      400,
    );
    expect(bad.issue[0]?.expression?.[0]).toBe('Parameters.parameter[1]');
    await fails(
      {
        resourceType: 'Parameters',
        parameter: [
          { name: 'bundle', resource: b },
          { name: 'age', valueInteger: -3 },
        ],
      },
      400,
    );
  });
});
