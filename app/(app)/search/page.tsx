'use client';
import { useState, type FormEvent } from 'react';
import Link from 'next/link';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/components/trpc';
import { CopyButton, ErrorBox, PageHeader } from '@/components/ui';
import { ConceptDrawer, grouperHref } from '@/components/search/concept-drawer';

type Mode = 'hybrid' | 'graph' | 'mapping' | 'explore';

/** The coder's search: text box, filters, a results table with scores, parents and bridges, and a concept drawer. */
export default function SearchPage() {
  const trpc = useTRPC();
  const lists = useQuery(trpc.search.vocabularies.queryOptions({}));
  const [query, setQuery] = useState('');
  const [vocabs, setVocabs] = useState<string[]>([]);
  const [domain, setDomain] = useState('');
  const [mode, setMode] = useState<Mode>('hybrid');
  const [topK, setTopK] = useState(20);
  const [trail, setTrail] = useState<number[]>([]);
  // an index still being built answers 503 at once ("not ready yet"): the page retries for up to a minute
  const run = useMutation(
    trpc.search.search.mutationOptions({
      retry: (count, err) => count < 30 && /not ready yet/.test(err instanceof Error ? err.message : ''),
      retryDelay: 2000,
    }),
  );

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!query.trim()) return;
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

  const toggleVocab = (v: string) => setVocabs((cur) => (cur.includes(v) ? cur.filter((x) => x !== v) : [...cur, v]));
  const open = (id: number) => setTrail((t) => [...t, id]);
  const data = run.data;
  const graph = data?.metadata.search_mode === 'graph';

  return (
    <div className={trail.length ? 'search-page with-drawer' : 'search-page'}>
      <div className="search-main">
        <PageHeader title="Search">Find codes across ICD-10-CM/PCS, ICD-9, WHO ICD-10, SNOMED, RxNorm, HCPCS, CPT4 and more, by words, lay terms, abbreviations or codes.</PageHeader>
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
              <table className="table search-results" data-testid="search-results">
                <thead>
                  <tr>
                    <th>Code</th>
                    <th>Name</th>
                    <th>Vocabulary</th>
                    <th title="Reranker logit: above 0 is relevant">Score</th>
                    {graph ? <th title="Normalised graph proximity">Graph</th> : null}
                    <th>Parents</th>
                    <th />
                  </tr>
                </thead>
                <tbody>
                  {data.results.map((r) => {
                    const g = grouperHref(r.vocabulary_id, r.concept_code);
                    return (
                      <tr key={r.concept_id} data-testid="search-row">
                        <td>
                          <button type="button" className="link-button" onClick={() => open(r.concept_id)} data-testid="result-code">
                            <code>{r.concept_code}</code>
                          </button>
                          {r.is_bridge ? <span className="badge badge-or" data-testid="bridge-badge"> bridge</span> : null}
                        </td>
                        <td>{r.concept_name}</td>
                        <td>
                          <span className="badge">{r.vocabulary_id}</span> <span className="muted small">{r.concept_class_id}</span>
                        </td>
                        <td className={r.similarity !== null && r.similarity >= 0 ? 'search-score good' : 'search-score'}>{r.similarity?.toFixed(1)}</td>
                        {graph ? <td>{r.graph_score?.toFixed(2)}</td> : null}
                        <td className="small">
                          {(r.parents ?? []).map((p) => (
                            <button key={p.parent_concept_id} type="button" className="link-button" onClick={() => open(p.parent_concept_id)}>
                              <code>{p.parent_concept_code}</code> {p.parent_concept_name}
                            </button>
                          ))}
                        </td>
                        <td className="search-row-actions">
                          <CopyButton text={r.concept_code} label="Copy" />
                          {g ? (
                            <Link className="btn btn-small" href={g}>
                              Grouper
                            </Link>
                          ) : null}
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            ) : null}
          </section>
        ) : null}
      </div>
      {trail.length ? (
        <ConceptDrawer
          conceptId={trail[trail.length - 1]!}
          onOpen={open}
          onClose={() => setTrail([])}
          onBack={() => setTrail((t) => t.slice(0, -1))}
          canGoBack={trail.length > 1}
        />
      ) : null}
    </div>
  );
}
