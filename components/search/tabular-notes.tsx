'use client';
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/components/trpc';

const KIND_LABEL: Record<string, string> = {
  inclusionTerm: 'Inclusion terms',
  includes: 'Includes',
  excludes1: 'Excludes1 (never coded together)',
  excludes2: 'Excludes2 (not included here; may be coded together)',
  codeFirst: 'Code first',
  useAdditionalCode: 'Use additional code',
  codeAlso: 'Code also',
  notes: 'Notes',
};

const LEVEL_LABEL: Record<string, string> = {
  chapter: 'Chapter',
  section: 'Section',
  category: 'Category',
  subcategory: 'Subcategory',
  code: 'Code',
};

/** I214 → I21.4; chapter and section ranges (I00-I99, I20-I25) stay as they are. */
const shown = (code: string) => (/^[A-Z]\d[0-9A-Z]{2,}$/.test(code) ? `${code.slice(0, 3)}.${code.slice(3)}` : code);

/** ICD-10-CM tabular notes of a code and the levels above it, with the source year (tRPC tabular.notes). */
export function TabularNotes({ code }: { code: string }) {
  const trpc = useTRPC();
  const q = useQuery(trpc.tabular.notes.queryOptions({ code }));
  const t = q.data;
  if (!t) return null;
  const levels = t.levels.filter((l) => Object.keys(l.notes).length);
  return (
    <section data-testid="tabular-notes" aria-label="Tabular notes">
      <h3>
        Tabular notes <span className="muted small">(ICD-10-CM tabular, FY{t.source.fiscal_year})</span>
      </h3>
      {!t.found && !levels.length ? (
        <p className="muted small">Not in the FY{t.source.fiscal_year} tabular (a code added later, or not a tabular code).</p>
      ) : null}
      {levels.map((l) => (
        <div key={`${l.level}:${l.code}`} className="tabular-level" data-testid={`tabular-level-${l.level}`} data-level={l.level}>
          <div className="small">
            <span className="tabular-level-label">
              {LEVEL_LABEL[l.level] ?? l.level} · FY{t.source.fiscal_year}
            </span>{' '}
            <strong>
              <code>{shown(l.code)}</code>
            </strong>{' '}
            {l.desc}
            {l.level === 'chapter' || l.level === 'section' ? <span className="muted"> (applies to every code in the {l.level})</span> : null}
          </div>
          {Object.entries(l.notes).map(([kind, notes]) => (
            <div key={kind} className="small tabular-kind" data-testid={`tabular-${kind}`}>
              <em>{KIND_LABEL[kind] ?? kind}:</em>
              <ul className="search-list">
                {(notes ?? []).map((n, i) => (
                  <li key={i}>{n}</li>
                ))}
              </ul>
            </div>
          ))}
        </div>
      ))}
      {t.seventh ? (
        <div className="small" data-testid="tabular-seventh">
          <em>7th character (from {t.seventh.from}):</em>
          <ul className="search-list">
            {Object.entries(t.seventh.characters).map(([ch, meaning]) => (
              <li key={ch}>
                <code>{ch}</code> {meaning}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
