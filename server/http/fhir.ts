import type { CustomRoute, CustomRouteContext, MethodNotAllowedContext } from './route';
import { mediaType, readBodyLimited } from './body';
import { InputRejectedError, screenInput } from './screen';
import { AppError, isDatabaseUnavailable } from '../errors';
import { log } from '../log';
import { classifyFhirText, FHIR_EDITS_DOC } from '../fhir/classify';
import { HL7_TO_CMS, NUBC_SYSTEM } from '../fhir/discharge';
import { issue, issueTypeForStatus, operationOutcome, type OperationOutcome } from '../fhir/outcome';
import type { Parameters } from '../fhir/classify';

/**
 * POST /api/v1/fhir/drg/$classify (SPEC §4.8): FHIR in, FHIR out. Every answer, errors included (auth, content
 * type, size, method), is a FHIR resource with Content-Type application/fhir+json. The body is never logged or kept.
 */
const ACCEPTED_TYPES = ['application/fhir+json', 'application/json', 'application/json+fhir'];

function fhirResponse(status: number, resource: Parameters | OperationOutcome, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(resource), {
    status,
    headers: { 'content-type': 'application/fhir+json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}

function outcomeFor(err: unknown, requestId: string): { status: number; outcome: OperationOutcome } {
  if (err instanceof AppError) {
    const at = err.status === 401 || err.status === 403 ? 'http.X-API-Key' : err.status === 413 ? 'http.Content-Length' : undefined;
    return {
      status: err.status,
      outcome: operationOutcome([issue({ code: issueTypeForStatus(err.status, err.type), type: err.type, message: err.message, at })]),
    };
  }
  if (isDatabaseUnavailable(err)) {
    return {
      status: 503,
      outcome: operationOutcome([
        issue({ code: 'transient', type: 'database_unavailable', message: 'The database is unreachable right now. Try again shortly.' }),
      ]),
    };
  }
  // Name and message only: never the request body.
  log.error('fhir classify failed', { request_id: requestId, err: err instanceof Error ? `${err.name}: ${err.message.slice(0, 200)}` : 'unknown' });
  return {
    status: 500,
    outcome: operationOutcome([issue({ code: 'exception', type: 'internal_error', message: `An internal error occurred (request id ${requestId}).` })]),
  };
}

async function classify({ req, url, bodyLimit, requestId, authorize }: CustomRouteContext): Promise<Response> {
  try {
    await authorize();
    const type = mediaType(req);
    if (!ACCEPTED_TYPES.includes(type)) {
      // The body is left unread (cancelling Node's request stream mid-upload can throw inside Node's web-stream adapter).
      return fhirResponse(
        415,
        operationOutcome([
          issue({
            code: 'not-supported',
            type: 'unsupported_media_type',
            message: `Content-Type '${type.slice(0, 60) || '(none)'}' is not accepted; send application/fhir+json (or application/json).`,
            at: 'http.Content-Type',
          }),
        ]),
      );
    }
    const bytes = await readBodyLimited(req, bodyLimit);
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return fhirResponse(400, operationOutcome([issue({ code: 'structure', type: 'invalid_encoding', message: 'The request body is not valid UTF-8.' })]));
    }
    const version = url.searchParams.get('version') ?? undefined;
    // NUL characters, lone surrogates and over-deep nesting are refused here as at every other door (screenInput),
    // as an OperationOutcome; JSON the parser refuses is left to classifyFhirText, which says where it broke.
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (parsed !== undefined) {
      try {
        screenInput(parsed, 'Bundle');
        if (version !== undefined) screenInput(version, 'version');
      } catch (err) {
        if (!(err instanceof InputRejectedError)) throw err;
        return fhirResponse(400, operationOutcome([issue({ code: 'invalid', type: 'invalid_request', message: err.message })]));
      }
    }
    const out = await classifyFhirText(text, { version });
    return fhirResponse(out.status, out.resource);
  } catch (err) {
    const { status, outcome } = outcomeFor(err, requestId);
    return fhirResponse(status, outcome, status === 401 ? { 'www-authenticate': 'Bearer' } : {});
  }
}

/** Any method but POST: an OperationOutcome 405 with `Allow: POST` (the route's `methodNotAllowed` hook). */
function methodNotAllowed({ req }: MethodNotAllowedContext): Response {
  const method = req.method
    .toUpperCase()
    .replace(/[^A-Z-]/g, '')
    .slice(0, 20);
  return fhirResponse(
    405,
    operationOutcome([issue({ code: 'not-supported', type: 'method_not_allowed', message: `${method} is not supported here; use POST for $classify.` })]),
    {
      allow: 'POST',
    },
  );
}

const DESCRIPTION = `FHIR R4 classification (SPEC §4.8): send a Bundle as \`application/fhir+json\` (or \`application/json\`); the answer is a \`Parameters\` resource, or an \`OperationOutcome\` for every error (never a partial result). Scope \`drg:classify\`; API keys only (access tokens get 401). Free: no ledger row.

**Read from the Bundle (nothing else):** Condition resources with an ICD-10-CM coding (system \`http://hl7.org/fhir/sid/icd-10-cm\`; every Condition must have one, except verificationStatus refuted / entered-in-error, which are left out). The principal diagnosis is the Condition referenced by \`Encounter.diagnosis\` with \`rank\` 1 (if several rank-1 entries name different Conditions, the one with use \`billing\` or \`DD\`), otherwise the first Condition listed. Procedure resources with an ICD-10-PCS coding (system \`http://www.cms.gov/Medicare/Coding/ICD10\`; status not-done / entered-in-error are left out). \`Patient.gender\` (\`male\`/\`female\` required: sex can change the DRG). \`Encounter.hospitalization.dischargeDisposition\`: a NUBC coding (\`${NUBC_SYSTEM}\`) is used as sent; HL7 codes map ${Object.entries(
  HL7_TO_CMS,
)
  .map(([k, v]) => `\`${k}\`→${String(v.status).padStart(2, '0')}`)
  .join(
    ', ',
  )}; without one the case is grouped as discharged home (01) with a warning. Limits as in \`POST /drg/classify/\`: 1-10 diagnoses, at most 10 procedures.

**Version:** query \`?version=v43\`, or invoke with a \`Parameters\` body holding \`bundle\` (resource) and \`version\` (valueString). Default v40. SPEC §2.4 lists v36-v40 and v43; v40.1, v41, v41.1, v42, v42.1 and v43.1 are served as an extension beyond it when their tables are installed.

**Privacy:** names, identifiers, addresses, telecom (and every other element not listed above) are never read, logged or stored; the Bundle is not persisted. \`fhir_identifiers_dropped\` lists the identifying elements that were present and ignored.

**Response parameters:** \`drg\`, \`drg_description\`, \`mdc\`, \`mdc_description\`, \`drg_type\` (M/P; 998/999 → M), \`med_surg\`, \`return_code\`, \`grouper_version\`, \`fiscal_year\`, \`fidelity\`, \`severity\`, \`severity_driver\` (when one), \`initial_drg\`, \`hac_status\`, \`candidate_drg\` (repeated, rank order, final first), \`discharge_status\` (NUBC code used), \`discharge_status_source\`, \`diagnosis\` (repeated; parts code, role, valid, cc_mcc, counted), \`procedure\` (repeated; parts code, valid, is_or), \`warning\` (repeated), \`fhir_identifiers_dropped\` (parts element (repeated), count, bundle_persisted, statement).

${FHIR_EDITS_DOC}

**Errors (OperationOutcome; \`issue.expression\`/\`location\` point at the element, \`http.<name>\` at a request header or parameter; \`issue.details.coding\` carries the error type):** 400 bad JSON, not a Bundle, malformed Bundle, a version this server does not serve (\`invalid_version\`, listing the accepted ones); 401/403 credentials and scope; 405 any method but POST (\`Allow: POST\`); 413 body too large; 415 other content types; 422 no Patient or gender, no Condition, a Condition without ICD-10-CM or a Procedure without ICD-10-PCS coding, unresolvable Encounter.diagnosis reference, ambiguous principal, unmappable discharge disposition, more than 10 diagnoses or procedures, a procedure code that is not 7 characters. An ICD-10-CM code the version does not know is not an error: the grouper ignores it with a warning, and an invalid principal diagnosis gives DRG 999.`;

const fhirJson = (description: string) => ({ description, content: { 'application/fhir+json': { schema: { type: 'object', required: ['resourceType'] } } } });

export const fhirClassifyRoutes: CustomRoute[] = [
  {
    method: 'POST',
    path: '/fhir/drg/$classify', // also %24classify, in any letter case
    auth: { scope: 'drg:classify', jwt: false }, // API keys only; errors are OperationOutcomes
    ignoreCase: true,
    ownBodyLimit: true, // our own 413 is an OperationOutcome
    handle: classify,
    methodNotAllowed,
    doc: {
      operation: {
        tags: ['fhir'],
        security: [{ ApiKeyHeader: [] }, { BearerAuth: [] }],
        summary: 'Classify a FHIR R4 Bundle into an MS-DRG (Parameters out)',
        description: DESCRIPTION,
        parameters: [
          {
            name: 'version',
            in: 'query',
            required: false,
            schema: { type: 'string', example: 'v40' },
            description:
              'MS-DRG version, default v40. SPEC §2.4 versions: v36-v40 and v43; v40.1, v41, v41.1, v42, v42.1 and v43.1 are served as an extension beyond SPEC §2.4 when installed (GET /drg/versions/). Others: 400 invalid_version.',
          },
        ],
        requestBody: {
          required: true,
          content: {
            'application/fhir+json': {
              schema: { type: 'object', required: ['resourceType'], properties: { resourceType: { type: 'string', enum: ['Bundle', 'Parameters'] } } },
            },
            'application/json': { schema: { type: 'object', required: ['resourceType'] } },
          },
        },
        responses: {
          200: fhirJson('Parameters with the MS-DRG'),
          400: fhirJson('OperationOutcome: malformed request'),
          401: fhirJson('OperationOutcome: missing or invalid API key'),
          403: fhirJson('OperationOutcome: key lacks drg:classify'),
          413: fhirJson('OperationOutcome: body too large'),
          405: fhirJson('OperationOutcome: any method but POST (with Allow: POST)'),
          415: fhirJson('OperationOutcome: unsupported content type'),
          422: fhirJson('OperationOutcome: the Bundle cannot be classified'),
        },
      },
    },
  },
];
