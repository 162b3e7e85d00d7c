/**
 * FHIR `$classify` (SPEC §4.8, §2.9): an R4 Bundle in, a Parameters resource out, or an OperationOutcome and
 * never a partial result. Used by the custom route `POST /api/v1/fhir/drg/$classify` and by the UI (tRPC).
 *
 * The case read from the Bundle goes through the same request schema (`ClassifyRequest`) and grouper as
 * `POST /api/v1/drg/classify/`, so limits and code spelling are the same. The request is not persisted.
 */
import { ClassifyRequest, toGroupInput } from '../api/schemas/drg';
import { AppError } from '../errors';
import { getGrouper, resolveApiVersion, type GroupResult } from '../drg';
import { editsForCase, type CaseEdits } from '../drg/mce';
import { extractCase, type ExtractedCase } from './bundle';
import { dischargeCode } from './discharge';
import { FhirError, operationOutcome, type OperationOutcome, type OperationOutcomeIssue } from './outcome';

export interface ParametersParameter {
  name: string;
  valueString?: string;
  valueCode?: string;
  valueBoolean?: boolean;
  valueInteger?: number;
  resource?: OperationOutcome;
  part?: ParametersParameter[];
}

export interface Parameters {
  resourceType: 'Parameters';
  parameter: ParametersParameter[];
}

export interface FhirResult {
  status: number;
  resource: Parameters | OperationOutcome;
}

/** Parameter names of the response (documented in README and the OpenAPI description). */
export const PARAMETER_NAMES = [
  'drg',
  'drg_description',
  'mdc',
  'mdc_description',
  'drg_type',
  'med_surg',
  'return_code',
  'grouper_version',
  'fiscal_year',
  'fidelity',
  'severity',
  'severity_driver',
  'initial_drg',
  'hac_status',
  'candidate_drg',
  'discharge_status',
  'discharge_status_source',
  'diagnosis',
  'procedure',
  'warning',
  'edit_type',
  'mce_version',
  'edits',
  'fhir_identifiers_dropped',
] as const;

/** Coding system of the Medicare Code Editor edit names in the `edits` OperationOutcome. */
export const MCE_EDIT_SYSTEM = 'urn:coding-gateway:mce-edit';

/** The FHIR answer's edits, documented with the route (OpenAPI) and the README. */
export const FHIR_EDITS_DOC =
  '**Medicare Code Editor:** the parameter `edits` holds an OperationOutcome with one issue per edit (severity `warning`, code `business-rule`, `details.coding` = the edit name in system `' +
  MCE_EDIT_SYSTEM +
  "` with its title, `details.text` the edit in words, `diagnostics` whether it is a prepayment or postpayment edit, `expression` the Condition/Procedure code elements it concerns), plus `information` issues for edits that could not be checked and for an assumed discharge date; `edit_type` is the claim's disposition (NONE, PREPAYMENT, POSTPAYMENT, BOTH, INVALID_DISCHARGE_DATE) and `mce_version` the MCE data version. The Bundle's dates and birth date are not read (privacy): send `discharge_date` (valueDate), `age` (valueInteger) and `length_of_stay` (valueInteger) as parameters of a Parameters body to have the date-, age- and stay-dependent edits checked; without a discharge date the codes are checked for the last day of the grouper version's fiscal year.";

/** MCE inputs a Parameters body may carry beside the bundle (the Bundle's dates and birth date are not read). */
interface EditParams {
  dischargeDate?: string;
  age?: number;
  los?: number;
}

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Classify the raw request text (the route's body, the UI's textarea). */
export async function classifyFhirText(text: string, opts: { version?: string } = {}): Promise<FhirResult> {
  let body: unknown;
  try {
    if (!text.trim()) throw new FhirError(400, { code: 'structure', type: 'empty_body', message: 'The request body is empty; send a FHIR R4 Bundle.' });
    try {
      body = JSON.parse(text);
    } catch (err) {
      // The parser's message quotes the input; only its position is repeated here (the body may hold PHI).
      const pos = /position (\d+)/.exec((err as Error).message)?.[1];
      throw new FhirError(400, {
        code: 'structure',
        type: 'invalid_json',
        message: `The request body is not valid JSON${pos ? ` (at character ${pos})` : ''}.`,
      });
    }
  } catch (err) {
    if (err instanceof FhirError) return { status: err.status, resource: err.outcome };
    throw err;
  }
  return classifyFhirResource(body, opts);
}

/** Classify a parsed request body: a Bundle, or a Parameters resource with a `bundle` (and optional `version`). */
export async function classifyFhirResource(body: unknown, opts: { version?: string } = {}): Promise<FhirResult> {
  try {
    const { bundle, base, version, edit } = unwrapRequest(body, opts.version);
    const extracted = extractCase(bundle, base);
    const request = validateCase(extracted, version, base);
    const grouper = await getGrouper(resolveApiVersion(request.version));
    const result = grouper.group(toGroupInput(request), { codes: 'lenient', detail: true });
    const edits = editsForCase(
      {
        dx: request.dx_codes,
        pr: request.pr_codes,
        sex: request.gender,
        age: edit.age ?? null,
        dischargeDate: edit.dischargeDate ?? null,
        // only a disposition the Bundle states is checked (the grouping default 01 is not the hospital's)
        dischargeStatus: extracted.dischargeSource === 'default' ? null : extracted.dischargeStatus,
        los: edit.los ?? null,
      },
      grouper,
    );
    return { status: 200, resource: toParameters(result, extracted, edits) };
  } catch (err) {
    if (err instanceof FhirError) return { status: err.status, resource: err.outcome };
    throw err;
  }
}

function unwrapRequest(
  body: unknown,
  queryVersion: string | undefined,
): { bundle: Json; base: string; version: { value: string; at: string } | null; edit: EditParams } {
  if (!isObject(body) || typeof body.resourceType !== 'string') {
    throw new FhirError(400, {
      code: 'structure',
      type: 'not_a_resource',
      message: 'The body must be a FHIR R4 resource (a JSON object with resourceType): a Bundle, or Parameters with a bundle parameter.',
    });
  }
  let version = queryVersion !== undefined ? { value: queryVersion, at: 'http.version' } : null;
  const edit: EditParams = {};
  if (body.resourceType === 'Bundle') return { bundle: body, base: 'Bundle', version, edit };
  if (body.resourceType !== 'Parameters') {
    throw new FhirError(400, {
      code: 'invalid',
      type: 'not_a_bundle',
      message: `Expected a Bundle (or Parameters with a bundle parameter), got ${body.resourceType.slice(0, 40)}.`,
      at: 'resourceType',
    });
  }
  if (!Array.isArray(body.parameter))
    throw new FhirError(400, { code: 'structure', type: 'invalid_parameters', message: 'Parameters.parameter must be an array.', at: 'Parameters.parameter' });
  let bundle: { value: Json; base: string } | null = null;
  for (const [i, p] of (body.parameter as unknown[]).entries()) {
    const at = `Parameters.parameter[${i}]`;
    if (!isObject(p) || typeof p.name !== 'string')
      throw new FhirError(400, { code: 'structure', type: 'invalid_parameters', message: `${at} needs a name.`, at });
    if (p.name === 'bundle') {
      if (bundle) throw new FhirError(400, { code: 'invalid', type: 'invalid_parameters', message: 'Only one bundle parameter is allowed.', at });
      if (!isObject(p.resource) || p.resource.resourceType !== 'Bundle') {
        throw new FhirError(400, { code: 'invalid', type: 'not_a_bundle', message: `${at}.resource must be a Bundle.`, at: `${at}.resource` });
      }
      bundle = { value: p.resource, base: `${at}.resource` };
    } else if (p.name === 'version') {
      const v = typeof p.valueString === 'string' ? p.valueString : typeof p.valueCode === 'string' ? p.valueCode : null;
      if (v === null) throw new FhirError(400, { code: 'value', type: 'invalid_version', message: `${at} needs valueString or valueCode.`, at });
      if (version && version.value.trim().toLowerCase() !== v.trim().toLowerCase()) {
        throw new FhirError(400, {
          code: 'conflict',
          type: 'invalid_version',
          message: 'The version query parameter and the version parameter disagree.',
          at: `${at}.value`,
        });
      }
      version = { value: v, at: `${at}.value` };
    } else if (p.name === 'discharge_date') {
      const v = typeof p.valueDate === 'string' ? p.valueDate : typeof p.valueString === 'string' ? p.valueString : null;
      if (v === null || !/^\d{4}-\d{2}-\d{2}$/.test(v) || new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) !== v) {
        throw new FhirError(400, { code: 'value', type: 'invalid_parameters', message: `${at} needs valueDate, a calendar date YYYY-MM-DD.`, at });
      }
      edit.dischargeDate = v;
    } else if (p.name === 'age' || p.name === 'length_of_stay') {
      const v = p.valueInteger;
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > (p.name === 'age' ? 999 : 99999)) {
        throw new FhirError(400, {
          code: 'value',
          type: 'invalid_parameters',
          message: `${at} needs valueInteger, a whole number of ${p.name === 'age' ? 'years' : 'days'} (0 or more).`,
          at,
        });
      }
      if (p.name === 'age') edit.age = v;
      else edit.los = v;
    } else {
      throw new FhirError(400, {
        code: 'not-supported',
        type: 'invalid_parameters',
        message: `Unknown parameter '${p.name.slice(0, 40)}': $classify takes bundle, version, discharge_date, age and length_of_stay.`,
        at: `${at}.name`,
      });
    }
  }
  if (!bundle) throw new FhirError(400, { code: 'required', type: 'not_a_bundle', message: 'Parameters has no bundle parameter.', at: 'Parameters.parameter' });
  return { bundle: bundle.value, base: bundle.base, version, edit };
}

/** The same schema as POST /drg/classify: limits, code spelling, versions. */
function validateCase(x: ExtractedCase, version: { value: string; at: string } | null, base: string): ClassifyRequest {
  let resolved: string | undefined;
  if (version) {
    try {
      resolved = resolveApiVersion(version.value);
    } catch (err) {
      if (err instanceof AppError) throw new FhirError(400, { code: 'value', type: err.type, message: err.message, at: version.at });
      throw err;
    }
  }
  const parsed = ClassifyRequest.safeParse({
    dx_codes: x.dx.map((d) => d.code),
    pr_codes: x.pr.map((p) => p.code),
    gender: x.gender,
    is_alive: x.dischargeStatus !== 20,
    discharge_status: x.dischargeStatus,
    ...(resolved ? { version: resolved } : {}),
  });
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.slice(0, 5).map((i) => {
    const [field, idx] = i.path;
    const list = field === 'dx_codes' ? x.dx : field === 'pr_codes' ? x.pr : null;
    const at = list && typeof idx === 'number' ? list[idx]?.path : `${base}.entry`;
    const what = field === 'dx_codes' ? 'diagnoses (Conditions)' : field === 'pr_codes' ? 'procedures' : String(field);
    return {
      code: typeof idx === 'number' ? ('code-invalid' as const) : ('business-rule' as const),
      type: 'invalid_case',
      message: `${what}: ${i.message}`,
      at,
    };
  });
  throw new FhirError(422, issues);
}

function p(name: string, value: Omit<ParametersParameter, 'name'>): ParametersParameter {
  return { name, ...value };
}

/** The case's MCE edits as an OperationOutcome: one warning per edit, information issues for what was not checked. */
export function editsOutcome(e: CaseEdits, x: ExtractedCase): OperationOutcome {
  const where = (position: string): string | null => {
    const m = /^(dx|pr)\[(\d+)\]$/.exec(position);
    if (!m) return null;
    return (m[1] === 'dx' ? x.dx : x.pr)[Number(m[2])]?.path ?? null;
  };
  const issues: OperationOutcomeIssue[] = e.edits.map((ed) => {
    const expression = [...new Set(ed.positions.map(where).filter((p): p is string => p !== null))];
    const out: OperationOutcomeIssue = {
      severity: 'warning',
      code: 'business-rule',
      details: { coding: [{ system: MCE_EDIT_SYSTEM, code: ed.edit, display: ed.title }], text: ed.message },
      diagnostics: `${ed.title}: ${ed.payment === 'none' ? 'reported only' : `${ed.payment} edit`} (Medicare Code Editor ${e.mce_version})`,
    };
    if (expression.length) {
      out.expression = expression;
      out.location = expression;
    }
    return out;
  });
  for (const n of e.not_checked) {
    issues.push({
      severity: 'information',
      code: 'incomplete',
      details: { coding: [{ system: MCE_EDIT_SYSTEM, code: n.edit, display: n.title }], text: `${n.title} was not checked: send ${n.needs}.` },
      diagnostics: `not checked, needs ${n.needs}`,
    });
  }
  for (const note of e.notes) issues.push({ severity: 'information', code: 'informational', details: { text: note }, diagnostics: note });
  return operationOutcome(issues);
}

export function toParameters(r: GroupResult, x: ExtractedCase, edits: CaseEdits | null = null): Parameters {
  const out: ParametersParameter[] = [
    p('drg', { valueCode: r.drg }),
    p('drg_description', { valueString: r.description }),
    p('mdc', { valueCode: r.mdc }),
    p('mdc_description', { valueString: r.mdc_description }),
    p('drg_type', { valueCode: r.type ?? 'M' }),
    p('med_surg', { valueCode: r.med_surg }),
    p('return_code', { valueCode: r.return_code }),
    p('grouper_version', { valueString: r.version }),
    p('fiscal_year', { valueString: r.fiscal_year }),
    p('fidelity', { valueCode: r.fidelity }),
    p('severity', { valueCode: r.severity }),
  ];
  if (r.severity_driver) out.push(p('severity_driver', { valueCode: r.severity_driver }));
  out.push(p('initial_drg', { valueCode: r.initial_drg }), p('hac_status', { valueCode: r.hac_status }));
  for (const c of r.all_candidates) out.push(p('candidate_drg', { valueCode: c }));
  out.push(p('discharge_status', { valueCode: dischargeCode(r.discharge_status) }), p('discharge_status_source', { valueString: x.dischargeSource }));
  for (const d of r.dx) {
    const counted = d.final_severity_flag === 'MCC' || d.final_severity_flag === 'CC';
    out.push(
      p('diagnosis', {
        part: [
          p('code', { valueCode: d.code }),
          p('role', { valueCode: d.principal ? 'principal' : 'secondary' }),
          p('valid', { valueBoolean: d.valid }),
          p('cc_mcc', { valueCode: d.severity ?? 'none' }),
          p('counted', { valueBoolean: !d.principal && counted }),
        ],
      }),
    );
  }
  for (const pr of r.pr) {
    out.push(p('procedure', { part: [p('code', { valueCode: pr.code }), p('valid', { valueBoolean: pr.valid }), p('is_or', { valueBoolean: pr.is_or })] }));
  }
  for (const w of [...x.warnings, ...r.warnings]) out.push(p('warning', { valueString: w }));
  if (edits) {
    out.push(
      p('edit_type', { valueCode: edits.edit_type }),
      p('mce_version', { valueString: edits.mce_version }),
      p('edits', { resource: editsOutcome(edits, x) }),
    );
  }
  out.push(
    p('fhir_identifiers_dropped', {
      part: [
        ...x.identifiersDropped.map((e) => p('element', { valueString: e })),
        p('count', { valueInteger: x.identifiersDropped.length }),
        p('bundle_persisted', { valueBoolean: false }),
        p('statement', {
          valueString:
            'Only Patient.gender, Condition.code/verificationStatus, Procedure.code/status, Encounter.diagnosis and Encounter.hospitalization.dischargeDisposition were read. The elements listed were present and ignored: not read, logged or stored. The Bundle was not persisted.',
        }),
      ],
    }),
  );
  return { resourceType: 'Parameters', parameter: out };
}
