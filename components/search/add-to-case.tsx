'use client';
import Link from 'next/link';
import { useState } from 'react';
import { addToStoredCase, caseHref, displayCode, type CaseState } from '@/components/case/case';

/** Which list of the case a search hit goes to: ICD-10-CM → diagnoses, 7-character ICD-10-PCS → procedures. */
export function caseKind(vocabularyId: string, code: string): 'dx' | 'pr' | null {
  if (vocabularyId === 'ICD10CM') return 'dx';
  if (vocabularyId === 'ICD10PCS' && code.replace(/\./g, '').length === 7) return 'pr';
  return null;
}

/** "Add to case": appends the code to the case kept in this browser (never replaces it) and links to the case. */
export function AddToCase({ vocabularyId, code, testId = 'add-to-case' }: { vocabularyId: string; code: string; testId?: string }) {
  const kind = caseKind(vocabularyId, code);
  const [state, setState] = useState<{ next: CaseState; msg: string } | null>(null);
  if (!kind) return null;
  if (state)
    return (
      <span className="small" role="status" data-testid="added-to-case">
        {state.msg}{' '}
        <Link href={caseHref(state.next)} className="btn btn-small" data-testid="open-case">
          Open case ({state.next.dx.length + state.next.pr.length})
        </Link>
      </span>
    );
  return (
    <button
      type="button"
      className="btn btn-small"
      data-testid={testId}
      onClick={() => {
        const r = addToStoredCase([{ code, kind }]);
        const shown = displayCode(code.replace(/\./g, '').toUpperCase(), kind);
        setState({
          next: r.next,
          msg: r.added.length ? `Added ${shown}.` : r.skipped.length ? `${shown}: the case is full (10).` : `${shown} is already in the case.`,
        });
      }}
    >
      Add to case
    </button>
  );
}
