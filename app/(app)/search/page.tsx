'use client';
import { Suspense, useEffect, useRef, useState, type FormEvent } from 'react';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/components/trpc';
import { CopyButton, ErrorBox, PageHeader } from '@/components/ui';
import { ConceptDrawer } from '@/components/search/concept-drawer';
import { AddToCase } from '@/components/search/add-to-case';

type Mode = 'hybrid' | 'graph' | 'mapping' | 'explore';
const MODES: Mode[] = ['hybrid', 'graph', 'mapping', 'explore'];
const PRESETS: Array<{ label: string; vocabs: string[] }> = [
  { label: 'ICD-10-CM + PCS', vocabs: ['ICD10CM', 'ICD10PCS'] },
  { label: 'ICD-10-CM', vocabs: ['ICD10CM'] },
  { label: 'ICD-10-PCS', vocabs: ['ICD10PCS'] },
  { label: 'SNOMED', vocabs: ['SNOMED'] },
  { label: 'All (default)', vocabs: [] },
];

/** What the address holds: the submitted query, its filters and the concept open in the drawer. */
function readParams(p: URLSearchParams) {
  const mode = p.get('mode') as Mode | null;
  const k = Number(p.get('k'));
  const c = Number(p.get('concept'));
  return {
    q: p.get('q') ?? '',
    vocabs: (p.get('vocab') ?? '').split(',').filter(Boolean),
    domain: p.get('domain') ?? '',
    mode: mode && MODES.includes(mode) ? mode : 'hybrid',
    topK: [10, 20, 50, 100].includes(k) ? k : 20,
    concept: Number.isInteger(c) && c > 0 ? c : null,
  };
}

/** The coder's search: text box, filters, a results table with scores, parents and bridges, and a concept drawer. */
function SearchInner() {
  const trpc = useTRPC();
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const url = readParams(params);
  const lists = useQuery(trpc.search.vocabularies.queryOptions({}));
  const [query, setQuery] = useState(url.q);
  const [vocabs, setVocabs] = useState<string[]>(url.vocabs);
  const [domain, setDomain] = useState(url.domain);
  const [mode, setMode] = useState<Mode>(url.mode);
  const [topK, setTopK] = useState(url.topK);
  const [trail, setTrail] = useState<number[]>(url.concept ? [url.concept] : []);
  // an index still being built answers 503 at once ("not ready yet"): the page retries for up to a minute
  const run = useMutation(
    trpc.search.search.mutationOptions({
      retry: (count, err) => count < 30 && /not ready yet/.test(err instanceof Error ? err.message : ''),
      retryDelay: 2000,
    }),
  );
  const opener = useRef<HTMLElement | null>(null);

  const searchKey = JSON.stringify([url.q, url.vocabs, url.domain, url.mode, url.topK]);
  // The search that the address describes runs on load, on Back/Forward and after each submit.
  useEffect(() => {
    if (!url.q.trim()) return;
    const profile = url.mode === 'mapping' || url.mode === 'explore' ? url.mode : undefined;
    run.mutate({
      query: url.q.trim(),
      vocabularies: url.vocabs.length ? url.vocabs : undefined,
      domain_id: url.domain || undefined,
      search_mode: profile ? undefined : url.mode,
      profile,
      top_k: url.topK,
      find_relationship: true,
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [searchKey]);

  function href(over: { concept?: number | null; q?: string; vocabs?: string[] } = {}) {
    const p = new URLSearchParams();
    const q = over.q ?? url.q;
    const v = over.vocabs ?? url.vocabs;
    if (q) p.set('q', q);
    if (v.length) p.set('vocab', v.join(','));
    if (url.domain) p.set('domain', url.domain);
    if (url.mode !== 'hybrid') p.set('mode', url.mode);
    if (url.topK !== 20) p.set('k', String(url.topK));
    const c = over.concept === undefined ? url.concept : over.concept;
    if (c) p.set('concept', String(c));
    const s = p.toString();
    return s ? `${pathname}?${s}` : pathname;
  }

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!query.trim()) return;
    const p = new URLSearchParams();
    p.set('q', query.trim());
    if (vocabs.length) p.set('vocab', vocabs.join(','));
    if (domain) p.set('domain', domain);
    if (mode !== 'hybrid') p.set('mode', mode);
    if (topK !== 20) p.set('k', String(topK));
    const next = `${pathname}?${p.toString()}`;
    // Same search again: run it again (the address does not change, so the effect would not).
    if (next === href({ concept: null })) run.reset();
    setTrail([]);
    router.push(next, { scroll: false });
    if (next === href({ concept: null }) && url.q) {
      const profile = mode === 'mapping' || mode === 'explore' ? mode : undefined;
      run.mutate({
        query: query.trim(),
        vocabularies: vocabs.length ? vocabs : undefined,
        domain_id: domain || undefined,
        search_mode: profile ? undefined : mode,
        profile,
        top_k: topK,
        find_relationship: true,
      });
    }
  }

  const toggleVocab = (v: string) => setVocabs((cur) => (cur.includes(v) ? cur.filter((x) => x !== v) : [...cur, v]));
  const open = (id: number, from?: HTMLElement | null) => {
    if (from && !trail.length) opener.current = from;
    setTrail((t) => [...t, id]);
    router.replace(href({ concept: id }), { scroll: false });
  };
  const close = () => {
    setTrail([]);
    router.replace(href({ concept: null }), { scroll: false });
    // Focus goes back to where the drawer was opened from.
    setTimeout(() => opener.current?.focus(), 0);
  };
  const back = () => {
    const t = trail.slice(0, -1);
    setTrail(t);
    router.replace(href({ concept: t[t.length - 1] ?? null }), { scroll: false });
  };
  const data = run.data;
  const graph = data?.metadata.search_mode === 'graph';
  const samePreset = (v: string[]) => v.length === vocabs.length && v.every((x) => vocabs.includes(x));

  return (
    <div className={trail.length ? 'search-page with-drawer' : 'search-page'}>
      <div className="search-main">
        <PageHeader title="Search">
          Find codes across ICD-10-CM/PCS, ICD-9, WHO ICD-10, SNOMED, RxNorm, HCPCS, CPT4 and more, by words, lay terms, abbreviations or codes.
        </PageHeader>
        <form className="search-form" onSubmit={onSubmit} role="search">
          <div className="search-box">
            <input
              type="search"
              aria-label="Search text"
              placeholder="e.g. heart attack, T2DM, lap chole, I21.9"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              autoFocus
            />
            <button type="submit" className="btn btn-primary" disabled={run.isPending}>
              {run.isPending ? 'Searching…' : 'Search'}
            </button>
          </div>
          <div className="search-filters">
            <label>
              Mode{' '}
              <select aria-label="Mode" value={mode} onChange={(e) => setMode(e.target.value as Mode)}>
                <option value="hybrid">Hybrid (text)</option>
                <option value="graph">Graph</option>
                <option value="mapping">Mapping profile</option>
                <option value="explore">Explore profile</option>
              </select>
            </label>
            <label>
              Domain{' '}
              <select aria-label="Domain" value={domain} onChange={(e) => setDomain(e.target.value)}>
                <option value="">Any</option>
                {(lists.data?.domains ?? []).map((d) => (
                  <option key={d} value={d}>
                    {d}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Results{' '}
              <select aria-label="Results" value={topK} onChange={(e) => setTopK(Number(e.target.value))}>
                {[10, 20, 50, 100].map((n) => (
                  <option key={n} value={n}>
                    {n}
                  </option>
                ))}
              </select>
            </label>
          </div>
          <fieldset className="search-vocabs">
            <legend>Vocabularies {vocabs.length ? '' : <span className="muted small">(default: all but DRG and OPCS4)</span>}</legend>
            <div className="vocab-presets" role="group" aria-label="Vocabulary presets">
              <span className="muted small">Presets:</span>
              {PRESETS.map((p) => (
                <button
                  key={p.label}
                  type="button"
                  className={samePreset(p.vocabs) ? 'btn btn-small btn-primary' : 'btn btn-small'}
                  aria-pressed={samePreset(p.vocabs)}
                  onClick={() => setVocabs(p.vocabs)}
                >
                  {p.label}
                </button>
              ))}
            </div>
            {(lists.data?.vocabularies ?? []).map((v) => (
              <label key={v} className="search-chip">
                <input type="checkbox" checked={vocabs.includes(v)} onChange={() => toggleVocab(v)} /> {v}
              </label>
            ))}
          </fieldset>
        </form>

        {run.error ? <ErrorBox error={run.error} /> : null}
        {data ? (
          <section aria-label="Results">
            <p className="muted small" data-testid="search-summary">
              {data.metadata.total_results} result{data.metadata.total_results === 1 ? '' : 's'} · {data.metadata.search_mode}
              {data.metadata.profile ? ` (${data.metadata.profile})` : ''} · {data.metadata.vocabularies_searched.join(', ')}
              {data.metadata.fallback_reason ? <span className="badge badge-parked"> fell back: {data.metadata.fallback_reason}</span> : null}
            </p>
            {data.results.length === 0 ? <p className="muted">No matching concepts. Try other words, or switch to the Explore profile.</p> : null}
            {data.results.length ? (
              <div className="table-scroll">
                <table className="table search-results" data-testid="search-results">
                  <thead>
                    <tr>
                      <th>Code</th>
                      <th>Name</th>
                      <th>Vocabulary</th>
                      <th title="Reranker logit: above 0 is relevant">Score</th>
                      {graph ? <th title="Normalised graph proximity">Graph</th> : null}
                      <th>Parents</th>
                      <th>
                        <span className="sr-only">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.results.map((r) => (
                      <tr key={r.concept_id} data-testid="search-row" className={trail[0] === r.concept_id ? 'row-selected' : undefined}>
                        <td>
                          <button
                            type="button"
                            className="link-button"
                            onClick={(e) => open(r.concept_id, e.currentTarget)}
                            data-testid="result-code"
                            aria-label={`Details of ${r.concept_code}`}
                          >
                            <code>{r.concept_code}</code>
                          </button>
                          {r.is_bridge ? (
                            <span className="badge badge-or" data-testid="bridge-badge">
                              {' '}
                              bridge
                            </span>
                          ) : null}
                        </td>
                        <td>{r.concept_name}</td>
                        <td>
                          <span className="badge">{r.vocabulary_id}</span> <span className="muted small">{r.concept_class_id}</span>
                        </td>
                        <td className={r.similarity !== null && r.similarity >= 0 ? 'search-score good' : 'search-score'}>{r.similarity?.toFixed(1)}</td>
                        {graph ? <td>{r.graph_score?.toFixed(2)}</td> : null}
                        <td className="small">
                          {(r.parents ?? []).map((p) => (
                            <button key={p.parent_concept_id} type="button" className="link-button" onClick={(e) => open(p.parent_concept_id, e.currentTarget)}>
                              <code>{p.parent_concept_code}</code> {p.parent_concept_name}
                            </button>
                          ))}
                        </td>
                        <td className="search-row-actions">
                          <CopyButton text={r.concept_code} label="Copy" />
                          <AddToCase vocabularyId={r.vocabulary_id} code={r.concept_code} />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            ) : null}
          </section>
        ) : null}
      </div>
      {trail.length ? (
        <ConceptDrawer conceptId={trail[trail.length - 1]!} onOpen={(id) => open(id)} onClose={close} onBack={back} canGoBack={trail.length > 1} />
      ) : null}
    </div>
  );
}

export default function SearchPage() {
  return (
    <Suspense>
      <SearchInner />
    </Suspense>
  );
}
