'use client';
import { Suspense, useState, type FormEvent } from 'react';
import { useSearchParams } from 'next/navigation';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/components/trpc';
import { ErrorBox, PageHeader } from '@/components/ui';
import { CodePicker, normaliseCode } from '@/components/grouper/code-picker';
import { ResultCard } from '@/components/grouper/result-card';
import { FhirPanel } from '@/components/grouper/fhir-panel';

/** `?dx=I21.4&dx=E1165` or `?dx=I214,E1165` → normalised, de-duplicated codes (the Search page links here). */
function codesFromQuery(values: string[], max: number): string[] {
  const out: string[] = [];
  for (const v of values.flatMap((x) => x.split(','))) {
    const c = normaliseCode(v);
    if (c && c.length <= 8 && !out.includes(c)) out.push(c);
  }
  return out.slice(0, max);
}

function GrouperForm() {
  const trpc = useTRPC();
  const params = useSearchParams();
  const versions = useQuery(trpc.drg.versions.queryOptions());
  const [tab, setTab] = useState<'codes' | 'fhir'>('codes');
  const [dx, setDx] = useState<string[]>(() => codesFromQuery(params.getAll('dx'), 10));
  const [pr, setPr] = useState<string[]>(() => codesFromQuery(params.getAll('pr'), 10));
  const [gender, setGender] = useState<'F' | 'M' | ''>('');
  const [alive, setAlive] = useState(true);
  const [version, setVersion] = useState('v40');
  // Optional inputs of the claim edits (Medicare Code Editor)
  const [age, setAge] = useState('');
  const [dischargeDate, setDischargeDate] = useState('');
  const [titles, setTitles] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  // Titles of the result's codes fill in the list (codes that came from the URL have none yet).
  const classify = useMutation(
    trpc.drg.classify.mutationOptions({
      onSuccess: (r) =>
        setTitles((t) => {
          const next = { ...t };
          for (const d of r.diagnoses) if (d.title) next[d.code] = d.title;
          for (const p of r.procedures) if (p.title) next[p.code] = p.title;
          return next;
        }),
    }),
  );

  const onTitle = (code: string, title: string) => setTitles((t) => ({ ...t, [code]: title }));

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!dx.length) return setFormError('Add at least the principal diagnosis.');
    if (!gender) return setFormError("Choose the patient's sex: it can change the DRG.");
    setFormError(null);
    const years = age.trim() === '' ? undefined : Number(age);
    if (years !== undefined && !(Number.isInteger(years) && years >= 0)) return setFormError('Age: whole years, 0 or more.');
    classify.mutate({ dx_codes: dx, pr_codes: pr, gender, is_alive: alive, version, ...(years !== undefined ? { age: years } : {}), ...(dischargeDate ? { discharge_date: dischargeDate } : {}) });
  }

  return (
    <>
      <div className="tabs" role="tablist" aria-label="Input">
        <button type="button" role="tab" aria-selected={tab === 'codes'} className={tab === 'codes' ? 'tab active' : 'tab'} onClick={() => setTab('codes')}>
          Codes
        </button>
        <button type="button" role="tab" aria-selected={tab === 'fhir'} className={tab === 'fhir' ? 'tab active' : 'tab'} onClick={() => setTab('fhir')}>
          FHIR
        </button>
        <label className="inline tabs-version">
          Version
          <select value={version} onChange={(e) => setVersion(e.target.value)} aria-label="Grouper version">
            {(versions.data?.versions ?? [{ version: 'v40', label: 'v40 (FY2023, default)' }]).map((v) => (
              <option key={v.version} value={v.version}>
                {v.label}
              </option>
            ))}
          </select>
        </label>
      </div>

      {tab === 'codes' ? (
        <>
          <form className="card grouper-form" onSubmit={submit} aria-label="Case">
            <div className="grid-2">
              <CodePicker kind="dx" label="Diagnoses (ICD-10-CM)" version={version} codes={dx} max={10} onChange={setDx} titles={titles} onTitle={onTitle} />
              <CodePicker kind="pr" label="Procedures (ICD-10-PCS)" version={version} codes={pr} max={10} onChange={setPr} titles={titles} onTitle={onTitle} />
            </div>
            <div className="grouper-patient">
              <fieldset>
                <legend>Sex</legend>
                <label className="inline">
                  <input type="radio" name="gender" value="F" checked={gender === 'F'} onChange={() => setGender('F')} /> Female
                </label>
                <label className="inline">
                  <input type="radio" name="gender" value="M" checked={gender === 'M'} onChange={() => setGender('M')} /> Male
                </label>
              </fieldset>
              <fieldset>
                <legend>Discharge</legend>
                <label className="inline">
                  <input type="radio" name="alive" checked={alive} onChange={() => setAlive(true)} /> Discharged alive
                </label>
                <label className="inline">
                  <input type="radio" name="alive" checked={!alive} onChange={() => setAlive(false)} /> Expired
                </label>
              </fieldset>
              <fieldset>
                <legend>Claim edits (optional)</legend>
                <label className="inline">
                  Age <input type="number" min={0} max={999} value={age} onChange={(e) => setAge(e.target.value)} aria-label="Age in years" style={{ width: '5em' }} />
                </label>
                <label className="inline">
                  Discharge date <input type="date" value={dischargeDate} onChange={(e) => setDischargeDate(e.target.value)} aria-label="Discharge date" />
                </label>
              </fieldset>
              <div className="grouper-actions">
                <button className="btn btn-primary" type="submit" disabled={classify.isPending}>
                  Group
                </button>
                <button
                  type="button"
                  className="btn btn-ghost"
                  onClick={() => {
                    setDx([]);
                    setPr([]);
                    classify.reset();
                  }}
                >
                  Clear
                </button>
              </div>
            </div>
            {formError ? (
              <div className="alert alert-error" role="alert">
                {formError}
              </div>
            ) : null}
            <ErrorBox error={classify.error} />
          </form>
          {classify.data ? <ResultCard result={classify.data} /> : null}
        </>
      ) : (
        <FhirPanel version={version} />
      )}
    </>
  );
}

export default function GrouperPage() {
  return (
    <>
      <PageHeader title="Group a case">
        MS-DRG grouping from ICD-10-CM diagnoses (principal first) and ICD-10-PCS procedures, with the CMS grouper logic. Free; nothing is stored.
      </PageHeader>
      <Suspense>
        <GrouperForm />
      </Suspense>
    </>
  );
}
