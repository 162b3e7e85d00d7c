'use client';
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useTRPC } from '@/components/trpc';
import { CopyButton, ErrorBox } from '@/components/ui';
import { displayCode, type CaseState } from '@/components/case/case';

/** The case as a FHIR R4 Bundle (codes, ranks, sex, discharge status; no identifiers). */
export function caseBundle(c: CaseState): object {
  const entry: object[] = [
    { fullUrl: 'urn:uuid:pat-1', resource: { resourceType: 'Patient', ...(c.sex ? { gender: c.sex === 'F' ? 'female' : 'male' } : {}) } },
  ];
  entry.push({
    fullUrl: 'urn:uuid:enc-1',
    resource: {
      resourceType: 'Encounter',
      status: 'finished',
      class: { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'IMP' },
      diagnosis: c.dx.map((_, i) => ({ condition: { reference: `urn:uuid:cond-${i + 1}` }, rank: i + 1 })),
      hospitalization: {
        dischargeDisposition: { coding: [{ system: 'https://www.nubc.org/CodeSystem/PatDischargeStatus', code: String(c.status).padStart(2, '0') }] },
      },
    },
  });
  c.dx.forEach((code, i) =>
    entry.push({
      fullUrl: `urn:uuid:cond-${i + 1}`,
      resource: { resourceType: 'Condition', code: { coding: [{ system: 'http://hl7.org/fhir/sid/icd-10-cm', code: displayCode(code, 'dx') }] } },
    }),
  );
  c.pr.forEach((code, i) =>
    entry.push({
      fullUrl: `urn:uuid:proc-${i + 1}`,
      resource: { resourceType: 'Procedure', status: 'completed', code: { coding: [{ system: 'http://www.cms.gov/Medicare/Coding/ICD10', code }] } },
    }),
  );
  return { resourceType: 'Bundle', type: 'collection', entry };
}

/** A synthetic example: the identifying elements are there to show that they are dropped. */
const SAMPLE = {
  resourceType: 'Bundle',
  type: 'collection',
  entry: [
    {
      fullUrl: 'urn:uuid:pat-1',
      resource: {
        resourceType: 'Patient',
        identifier: [{ system: 'urn:example:mrn', value: 'SYNTH-0001' }],
        name: [{ family: 'Example', given: ['Synthetic'] }],
        gender: 'male',
      },
    },
    {
      fullUrl: 'urn:uuid:enc-1',
      resource: {
        resourceType: 'Encounter',
        status: 'finished',
        class: { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'IMP' },
        diagnosis: [
          { condition: { reference: 'urn:uuid:cond-1' }, rank: 1 },
          { condition: { reference: 'urn:uuid:cond-2' }, rank: 2 },
        ],
        hospitalization: { dischargeDisposition: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/discharge-disposition', code: 'home' }] } },
      },
    },
    { fullUrl: 'urn:uuid:cond-1', resource: { resourceType: 'Condition', code: { coding: [{ system: 'http://hl7.org/fhir/sid/icd-10-cm', code: 'I21.4' }] } } },
    {
      fullUrl: 'urn:uuid:cond-2',
      resource: { resourceType: 'Condition', code: { coding: [{ system: 'http://hl7.org/fhir/sid/icd-10-cm', code: 'E11.65' }] } },
    },
    {
      fullUrl: 'urn:uuid:proc-1',
      resource: { resourceType: 'Procedure', status: 'completed', code: { coding: [{ system: 'http://www.cms.gov/Medicare/Coding/ICD10', code: '02703DZ' }] } },
    },
  ],
};

interface Param {
  name: string;
  part?: Param[];
  [value: string]: unknown;
}
interface Issue {
  severity: string;
  code: string;
  diagnostics?: string;
  expression?: string[];
}

function value(p: Param | undefined): string {
  if (!p) return '';
  const k = Object.keys(p).find((x) => x.startsWith('value'));
  return k ? String(p[k]) : '';
}

/** Paste a Bundle, classify it with the same core as POST /api/v1/fhir/drg/$classify, show Parameters or the OperationOutcome. */
export function FhirPanel({ version, theCase }: { version: string; theCase?: CaseState }) {
  const trpc = useTRPC();
  const hasCase = Boolean(theCase?.dx.length);
  const [text, setText] = useState(() => JSON.stringify(hasCase && theCase ? caseBundle(theCase) : SAMPLE, null, 2));
  const run = useMutation(trpc.drg.fhirClassify.mutationOptions());
  const res = run.data;
  const resource = res?.resource as { resourceType?: string; parameter?: Param[]; issue?: Issue[] } | undefined;
  const get = (name: string) => resource?.parameter?.find((p) => p.name === name);
  const dropped =
    get('fhir_identifiers_dropped')
      ?.part?.filter((p) => p.name === 'element')
      .map(value) ?? [];

  return (
    <section className="card" aria-label="FHIR Bundle">
      <p className="muted small">
        Paste a FHIR R4 Bundle (Conditions with ICD-10-CM codings, Procedures with ICD-10-PCS, Patient.gender, optionally an Encounter with diagnosis ranks and
        a discharge disposition). It is classified exactly as <code>POST /api/v1/fhir/drg/$classify</code> would, with version {version}. Nothing is stored.
      </p>
      <label>
        Bundle (application/fhir+json)
        <textarea className="fhir-input" rows={16} value={text} onChange={(e) => setText(e.target.value)} spellCheck={false} data-testid="fhir-input" />
      </label>
      <div className="inline-form">
        <button type="button" className="btn btn-primary" disabled={run.isPending || !text.trim()} onClick={() => run.mutate({ bundle: text, version })}>
          Classify Bundle
        </button>
        {theCase ? (
          <button type="button" className="btn" disabled={!hasCase} onClick={() => setText(JSON.stringify(caseBundle(theCase), null, 2))}>
            Load the case
          </button>
        ) : null}
        <button type="button" className="btn" onClick={() => setText(JSON.stringify(SAMPLE, null, 2))}>
          Load example
        </button>
      </div>
      <ErrorBox error={run.error} />
      {res && resource?.resourceType === 'Parameters' ? (
        <div className="fhir-result" data-testid="fhir-result">
          <div className="drg-head">
            <div className="drg-number" data-testid="fhir-drg">
              <span className="drg-label">MS-DRG</span>
              {value(get('drg'))}
            </div>
            <div className="drg-title">
              <div className="drg-description">{value(get('drg_description'))}</div>
              <div className="drg-meta">
                <span>
                  MDC {value(get('mdc'))} · {value(get('mdc_description'))}
                </span>
                <span className="badge">{value(get('drg_type'))}</span>
                <span className="badge">{value(get('return_code'))}</span>
                <span className="badge">
                  {value(get('grouper_version'))} · {value(get('fiscal_year'))}
                </span>
              </div>
            </div>
          </div>
          <p className="small" data-testid="fhir-dropped">
            Identifying elements dropped: {dropped.length ? dropped.join(', ') : 'none present'}
          </p>
        </div>
      ) : null}
      {res && resource?.resourceType === 'OperationOutcome' ? (
        <div className="alert alert-error" role="alert" data-testid="fhir-outcome">
          <strong>OperationOutcome (HTTP {res.status})</strong>
          {(resource.issue ?? []).map((i, n) => (
            <div key={n}>
              {i.severity} · {i.code}: {i.diagnostics}
              {i.expression?.length ? (
                <>
                  {' '}
                  at <code>{i.expression.join(', ')}</code>
                </>
              ) : null}
            </div>
          ))}
        </div>
      ) : null}
      {res ? (
        <details className="fhir-raw" open={resource?.resourceType !== 'Parameters'}>
          <summary>
            {resource?.resourceType} (HTTP {res.status}) <CopyButton text={JSON.stringify(resource, null, 2)} label="Copy" />
          </summary>
          <pre className="json">{JSON.stringify(resource, null, 2)}</pre>
        </details>
      ) : null}
    </section>
  );
}
