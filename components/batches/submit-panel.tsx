'use client';
import { useMemo, useRef, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '@/components/trpc';
import { ErrorBox } from '@/components/ui';
import { describeCaseFileErrors, parseCaseFile, type ParsedCaseFile } from '@/server/batch/case-file';
import { MAX_CASE_FILE_BYTES, MAX_CASES } from '@/server/batch/limits';

/**
 * Paste JSON or pick a CSV/JSONL/JSON file; the cases are parsed and checked here in the browser, then submitted
 * over tRPC with a fresh idempotency key. The key stays the same while the input does, so a repeated click re-uses
 * the job the first click created instead of starting a second one. The version list is the server's
 * (`drg.versions`, the same list every endpoint accepts).
 */

const EXAMPLE = JSON.stringify(
  [
    { case_ref: 'enc-1001', dx_codes: ['I21.4', 'I50.21', 'E11.9'], pr_codes: ['027034Z'], gender: 'M', is_alive: true },
    { case_ref: 'enc-1002', dx_codes: ['J44.1', 'J96.01'], pr_codes: [], gender: 'F', is_alive: true },
    { case_ref: 'enc-1003', dx_codes: ['A41.9', 'N17.9'], pr_codes: [], gender: 'M', is_alive: false },
    { case_ref: 'enc-1004', dx_codes: ['ZZZ.99'], pr_codes: [], gender: 'F', is_alive: true },
  ],
  null,
  2,
);

function newKey(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `ui-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

export function SubmitPanel({ onSubmitted }: { onSubmitted: (jobId: string) => void }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [mode, setMode] = useState<'paste' | 'file'>('paste');
  const [text, setText] = useState('');
  const [file, setFile] = useState<{ name: string; text: string } | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const versions = useQuery(trpc.drg.versions.queryOptions());
  const [chosenVersion, setVersion] = useState<string | null>(null);
  const version = chosenVersion ?? versions.data?.default ?? 'v40';
  const [keyState, setKeyState] = useState<{ basis: string; key: string }>({ basis: '', key: newKey() });

  const srcText = mode === 'paste' ? text : (file?.text ?? '');
  const srcName = mode === 'paste' ? null : (file?.name ?? null);
  // maxCases: a file with thousands of rows stops parsing at case 1001 instead of freezing the tab.
  const parsed: ParsedCaseFile | null = useMemo(
    () => (srcText.trim() ? parseCaseFile(srcText, { filename: srcName, maxCases: MAX_CASES }) : null),
    [srcText, srcName],
  );

  // One idempotency key per distinct submission: a new key whenever the input or version changes.
  const basis = `${mode}|${srcName ?? ''}|${srcText}|${version}`;
  const idempotencyKey = keyState.basis === basis ? keyState.key : null;
  const ensureKey = () => {
    if (idempotencyKey) return idempotencyKey;
    const key = newKey();
    setKeyState({ basis, key });
    return key;
  };

  // What was submitted from this browser, by input: the same cases again ask before a second (billed) job is created,
  // also after a reload. Kept in localStorage by a fingerprint of the input, never the input itself.
  // (read once on the client; nothing rendered depends on it before a click, so server and client markup agree)
  const [submitted, setSubmitted] = useState<Record<string, string>>(() => (typeof window === 'undefined' ? {} : readSubmitted()));
  const [confirming, setConfirming] = useState(false);
  // The server's own guard (409 duplicate_batch): the same input finished as another job, e.g. submitted from another
  // browser or through the API. The error names the earlier job; the confirm below then sends allow_duplicate.
  const [serverDuplicate, setServerDuplicate] = useState<{ basis: string; job: string } | null>(null);
  const submit = useMutation(
    trpc.batch.submit.mutationOptions({
      onSuccess: (job) => {
        void qc.invalidateQueries({ queryKey: trpc.batch.list.queryKey() });
        setSubmitted((m) => rememberSubmitted(m, submittedBasis.current, job.job_id));
        setKeyState({ basis: '', key: newKey() });
        setConfirming(false);
        onSubmitted(job.job_id);
      },
    }),
  );
  const submittedBasis = useRef('');
  const previousJob = submitted[fingerprint(basis)] ?? (serverDuplicate?.basis === fingerprint(basis) ? serverDuplicate.job : undefined);
  const duplicateRefused = (submit.error?.data as { app?: { error?: string } } | undefined)?.app?.error === 'duplicate_batch';

  const tooMany = parsed?.tooManyCases === true;
  const ready = parsed !== null && parsed.errors.length === 0 && parsed.cases.length > 0 && !tooMany && (mode === 'paste' || !fileError);

  /** again: the coder confirmed a second job for an input that already finished; the server's guard is told so. */
  function send(again = false) {
    if (!ready || !parsed) return;
    const fp = fingerprint(basis);
    submittedBasis.current = fp;
    submit.mutate(
      { cases: parsed.cases, version, source_dialect: 'icd10cm', idempotency_key: ensureKey(), ...(again ? { allow_duplicate: true } : {}) },
      {
        onError: (err) => {
          const app = (err.data as { app?: { error?: string; extra?: { job_id?: unknown } } } | undefined)?.app;
          if (app?.error === 'duplicate_batch' && typeof app.extra?.job_id === 'string') {
            setServerDuplicate({ basis: fp, job: app.extra.job_id });
            setConfirming(true);
          }
        },
      },
    );
  }

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!ready || !parsed) return;
    if (previousJob && !confirming) return setConfirming(true);
    send();
  }

  return (
    <form className="card batch-submit" onSubmit={onSubmit} aria-label="New batch">
      <h2>New batch</h2>
      <div className="tabs" role="tablist">
        <button type="button" role="tab" aria-selected={mode === 'paste'} className={mode === 'paste' ? 'tab active' : 'tab'} onClick={() => setMode('paste')}>
          Paste JSON
        </button>
        <button type="button" role="tab" aria-selected={mode === 'file'} className={mode === 'file' ? 'tab active' : 'tab'} onClick={() => setMode('file')}>
          Upload CSV or JSONL
        </button>
      </div>

      {mode === 'paste' ? (
        <label>
          Cases (JSON array, or a request body with &quot;cases&quot;)
          <textarea
            name="cases"
            rows={10}
            value={text}
            onChange={(e) => setText(e.target.value)}
            spellCheck={false}
            className="mono"
            placeholder='[{"case_ref": "enc-1", "dx_codes": ["I21.4"], "pr_codes": [], "gender": "M", "is_alive": true}]'
          />
          <span>
            <button type="button" className="btn btn-small" onClick={() => setText(EXAMPLE)}>
              Load example
            </button>
          </span>
        </label>
      ) : (
        <label>
          Case file (.csv, .jsonl or .json)
          <input
            type="file"
            name="case-file"
            accept=".csv,.jsonl,.ndjson,.json,.txt,text/csv,application/json"
            onChange={(e) => {
              const f = e.target.files?.[0];
              setFileError(null);
              if (!f) return setFile(null);
              if (f.size > MAX_CASE_FILE_BYTES) {
                // Not even read: no file of at most 1000 cases is this large.
                setFile(null);
                setFileError(
                  `${f.name} is ${(f.size / (1024 * 1024)).toFixed(1)} MiB; a case file holds at most ${MAX_CASES} cases and ${MAX_CASE_FILE_BYTES / (1024 * 1024)} MiB.`,
                );
                return;
              }
              void f.text().then((t) => setFile({ name: f.name, text: t }));
            }}
          />
        </label>
      )}

      <details className="batch-format">
        <summary>File formats</summary>
        <p>
          <strong>CSV</strong>: a header row, then one case per row. Columns <code>case_ref</code>, <code>dx_codes</code>, <code>pr_codes</code> (may be empty),{' '}
          <code>gender</code> (<code>F</code> or <code>M</code>), <code>is_alive</code> (<code>true</code>/<code>false</code>, <code>yes</code>/<code>no</code>,{' '}
          <code>1</code>/<code>0</code>); optional <code>discharge_status</code> and <code>poa</code>. Codes inside a cell are separated by <code>;</code> or
          spaces, with or without dots, principal diagnosis first:
        </p>
        <pre className="json">{'case_ref,dx_codes,pr_codes,gender,is_alive\nenc-1,I21.4;I50.21,027034Z,M,true\nenc-2,J44.1 J96.01,,F,false'}</pre>
        <p>
          <strong>JSONL</strong>: one case object per line, with the same fields (<code>dx_codes</code> as an array or a <code>;</code>-separated string).{' '}
          <strong>JSON</strong>: an array of cases. At most {MAX_CASES} cases per batch; <code>case_ref</code> must be unique. Codes are ICD-10-CM diagnoses and
          ICD-10-PCS procedures (<code>source_dialect</code> icd10cm).
        </p>
      </details>

      <div className="batch-submit-row">
        <label>
          MS-DRG version
          <select value={version} onChange={(e) => setVersion(e.target.value)} disabled={!versions.data}>
            {(versions.data?.versions ?? [{ version, label: version }]).map((v) => (
              <option key={v.version} value={v.version}>
                {v.label}
              </option>
            ))}
          </select>
        </label>
        <div className="batch-parse" data-testid="parse-status" aria-live="polite">
          {mode === 'file' && fileError ? (
            <span className="batch-parse-errors">{fileError}</span>
          ) : parsed === null ? (
            <span className="muted">No cases yet.</span>
          ) : tooMany ? (
            <span className="batch-parse-errors">
              More than {MAX_CASES} cases: a batch holds at most {MAX_CASES}; split the file.
            </span>
          ) : parsed.errors.length ? (
            <span className="batch-parse-errors">
              {parsed.errors.length} problem{parsed.errors.length > 1 ? 's' : ''} in the {parsed.format.toUpperCase()}: {describeCaseFileErrors(parsed)}
            </span>
          ) : (
            <span>
              {parsed.cases.length} case{parsed.cases.length === 1 ? '' : 's'} ready ({parsed.format.toUpperCase()}).
            </span>
          )}
        </div>
        <button className="btn btn-primary" type="submit" disabled={!ready || submit.isPending}>
          {submit.isPending ? 'Submitting…' : 'Submit batch'}
        </button>
      </div>
      {previousJob && confirming ? (
        <div className="alert alert-warn" role="alertdialog" aria-label="Submit again?" data-testid="resubmit-confirm">
          <p>
            These {parsed?.cases.length ?? 0} cases were already submitted with {version} as job <code>{previousJob}</code>. Submitting again creates a second
            job, billed again per case.
          </p>
          <button
            type="button"
            className="btn"
            onClick={() => {
              setConfirming(false);
              onSubmitted(previousJob);
            }}
          >
            Open the earlier job
          </button>{' '}
          <button type="button" className="btn btn-danger" onClick={() => send(true)} disabled={submit.isPending}>
            Submit again (new billed job)
          </button>{' '}
          <button type="button" className="btn btn-ghost" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      ) : null}
      <ErrorBox error={(duplicateRefused && previousJob && confirming ? null : submit.error) ?? versions.error} />
    </form>
  );
}

const SUBMITTED_KEY = 'cg.batches.submitted';
const SUBMITTED_MAX = 50;

/** A 64-bit FNV-1a fingerprint of a submission (two 32-bit halves): what the browser keeps instead of the cases. */
export function fingerprint(s: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x5bd1e995) >>> 0;
  }
  return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
}

function readSubmitted(): Record<string, string> {
  try {
    const v = JSON.parse(window.localStorage.getItem(SUBMITTED_KEY) ?? '{}') as unknown;
    if (!v || typeof v !== 'object' || Array.isArray(v)) return {};
    return Object.fromEntries(
      Object.entries(v as Record<string, unknown>).filter((e): e is [string, string] => /^[0-9a-f]{16}$/.test(e[0]) && typeof e[1] === 'string'),
    );
  } catch {
    return {};
  }
}

/** Add one submission; the newest SUBMITTED_MAX are kept in this browser. */
function rememberSubmitted(m: Record<string, string>, key: string, jobId: string): Record<string, string> {
  const next = Object.fromEntries([...Object.entries(m).filter(([k]) => k !== key), [key, jobId]].slice(-SUBMITTED_MAX));
  try {
    window.localStorage.setItem(SUBMITTED_KEY, JSON.stringify(next));
  } catch {
    /* storage full or disabled: the check still works until the page is left */
  }
  return next;
}
