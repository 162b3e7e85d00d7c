'use client';
import { Suspense, useEffect, useState, type FormEvent } from 'react';
import { usePathname, useSearchParams } from 'next/navigation';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/components/trpc';
import { ErrorBox, PageHeader } from '@/components/ui';
import { CodePicker } from '@/components/grouper/code-picker';
import { ResultCard } from '@/components/grouper/result-card';
import { FhirPanel } from '@/components/grouper/fhir-panel';
import {
  caseFromParams,
  caseKey,
  caseToParams,
  DISCHARGE_STATUSES,
  EMPTY_CASE,
  hasCaseParams,
  MAX_CODES,
  queryString,
  readStoredCase,
  storeCase,
  type CaseState,
} from '@/components/case/case';

function GrouperForm() {
  const trpc = useTRPC();
  const params = useSearchParams();
  const pathname = usePathname();
  const versions = useQuery(trpc.drg.versions.queryOptions());
  const [tab, setTabState] = useState<'codes' | 'fhir'>(params.get('tab') === 'fhir' ? 'fhir' : 'codes');
  // The case arrives in the URL (a shared link, Back, reload) or, without one, from the last case kept in this browser.
  // After that this state is the truth; every change is written to the URL (replaceState) and to storage at once.
  const [c, setCase] = useState<CaseState>(() => caseFromParams(params));
  const key = caseKey(c);
  const [age, setAge] = useState('');
  const [dischargeDate, setDischargeDate] = useState('');
  const [titles, setTitles] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [groupedKey, setGroupedKey] = useState<string | null>(null);

  const write = (next: CaseState, nextTab: 'codes' | 'fhir') => {
    const q = caseToParams(next);
    if (nextTab === 'fhir') q.set('tab', 'fhir');
    const s = queryString(q);
    window.history.replaceState(null, '', s ? `${pathname}?${s}` : pathname);
    storeCase(next);
  };
  useEffect(() => {
    if (hasCaseParams(params)) return storeCase(c);
    const stored = readStoredCase();
    if (caseKey(stored) === caseKey(EMPTY_CASE)) return;
    // eslint-disable-next-line react-hooks/set-state-in-effect -- read once after hydration: storage is not available on the server
    setCase(stored);
    write(stored, tab);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const update = (patch: Partial<CaseState>) => {
    const next = { ...c, ...patch };
    setCase(next);
    write(next, tab);
  };
  const setTab = (t: 'codes' | 'fhir') => {
    setTabState(t);
    write(c, t);
  };
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
  const stale = classify.data && groupedKey !== key;

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!c.dx.length) return setFormError('Add at least the principal diagnosis.');
    if (!c.sex) return setFormError("Choose the patient's sex: it can change the DRG.");
    setFormError(null);
    const years = age.trim() === '' ? undefined : Number(age);
    if (years !== undefined && !(Number.isInteger(years) && years >= 0)) return setFormError('Age: whole years, 0 or more.');
    setGroupedKey(key);
    classify.mutate({
      dx_codes: c.dx,
      pr_codes: c.pr,
      gender: c.sex,
      is_alive: c.status !== 20,
      discharge_status: c.status,
      ...(c.poa.some(Boolean) ? { poa: c.dx.map((_, i) => c.poa[i] ?? '') } : {}),
      version: c.version,
      ...(years !== undefined ? { age: years } : {}),
      ...(dischargeDate ? { discharge_date: dischargeDate } : {}),
    });
  }

  return (
    <>
      <div className="tabs">
        <div role="tablist" aria-label="Input" style={{ display: 'contents' }}>
          <button type="button" role="tab" aria-selected={tab === 'codes'} className={tab === 'codes' ? 'tab active' : 'tab'} onClick={() => setTab('codes')}>
            Codes
          </button>
          <button type="button" role="tab" aria-selected={tab === 'fhir'} className={tab === 'fhir' ? 'tab active' : 'tab'} onClick={() => setTab('fhir')}>
            FHIR
          </button>
        </div>
        <label className="inline tabs-version">
          Version
          <select value={c.version} onChange={(e) => update({ version: e.target.value })} aria-label="Grouper version">
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
              <CodePicker
                kind="dx"
                label="Diagnoses (ICD-10-CM)"
                version={c.version}
                codes={c.dx}
                poa={c.poa}
                max={MAX_CODES}
                onChange={(dx, poa) => update({ dx, poa })}
                titles={titles}
                onTitle={onTitle}
              />
              <CodePicker
                kind="pr"
                label="Procedures (ICD-10-PCS)"
                version={c.version}
                codes={c.pr}
                max={MAX_CODES}
                onChange={(pr) => update({ pr })}
                titles={titles}
                onTitle={onTitle}
              />
            </div>
            <div className="grouper-patient">
              <fieldset>
                <legend>Sex</legend>
                <label className="inline">
                  <input type="radio" name="gender" value="F" checked={c.sex === 'F'} onChange={() => update({ sex: 'F' })} /> Female
                </label>
                <label className="inline">
                  <input type="radio" name="gender" value="M" checked={c.sex === 'M'} onChange={() => update({ sex: 'M' })} /> Male
                </label>
              </fieldset>
              <fieldset>
                <legend>Discharge</legend>
                <label className="inline">
                  Status{' '}
                  <select
                    value={c.status}
                    onChange={(e) => update({ status: Number(e.target.value) })}
                    aria-label="Discharge status"
                    data-testid="discharge-status"
                  >
                    {DISCHARGE_STATUSES.map(([n, label]) => (
                      <option key={n} value={n}>
                        {String(n).padStart(2, '0')} · {label}
                      </option>
                    ))}
                  </select>
                </label>
              </fieldset>
              <fieldset>
                <legend>Claim edits (optional)</legend>
                <label className="inline">
                  Age{' '}
                  <input
                    type="number"
                    min={0}
                    max={999}
                    value={age}
                    onChange={(e) => setAge(e.target.value)}
                    aria-label="Age in years"
                    style={{ width: '5em' }}
                  />
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
                    update({ ...EMPTY_CASE, version: c.version });
                    classify.reset();
                  }}
                >
                  Clear case
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
          {classify.data ? <ResultCard result={classify.data} stale={Boolean(stale)} /> : null}
        </>
      ) : (
        <FhirPanel version={c.version} theCase={c} />
      )}
    </>
  );
}

export default function GrouperPage() {
  return (
    <>
      <PageHeader title="Group a case">
        MS-DRG grouping from ICD-10-CM diagnoses (principal first) and ICD-10-PCS procedures, with the CMS grouper logic. Free; nothing is stored on the server.
        The case (codes only) stays in this page&apos;s address and in this browser, and follows you to Search and the DRG agent.
      </PageHeader>
      <Suspense>
        <GrouperForm />
      </Suspense>
    </>
  );
}
