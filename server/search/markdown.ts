import type { SearchResponse } from './schema';

/** `response_format=llm`: compact markdown tables a language model reads cheaply (SPEC §4.1). */
const cell = (v: unknown): string => (v === null || v === undefined ? '' : String(v)).replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();
const num = (v: number | null | undefined): string => (v === null || v === undefined ? '' : String(Math.round(v * 100) / 100));

export function searchToMarkdown(out: unknown): string {
  const r = out as SearchResponse;
  const m = r.metadata;
  const graph = m.search_mode === 'graph';
  const lines: string[] = [];
  lines.push(`## Search: ${cell(m.query)}`);
  const meta = [
    `mode ${m.search_mode}${m.requested_search_mode !== m.search_mode ? ` (requested ${m.requested_search_mode})` : ''}`,
    `profile ${m.profile ?? '-'}`,
    `vocabularies ${m.vocabularies_searched.join(', ')}`,
    `domain ${m.domain_id ?? 'any'}`,
    `results ${m.total_results}`,
  ];
  lines.push(meta.join(' · '));
  if (m.fallback_reason) lines.push(`fallback: ${cell(m.fallback_reason)}`);
  lines.push('');
  if (!r.results.length) {
    lines.push('No results.');
    return lines.join('\n') + '\n';
  }
  const withParents = m.find_relationship;
  const head = [
    '#',
    'vocabulary',
    'code',
    'name',
    'class',
    'similarity',
    ...(graph ? ['graph_score', 'bridge'] : []),
    ...(withParents ? ['parents'] : []),
    'concept_id',
  ];
  lines.push(`| ${head.join(' | ')} |`);
  lines.push(`|${head.map(() => '---').join('|')}|`);
  r.results.forEach((c, i) => {
    const row = [
      String(i + 1),
      cell(c.vocabulary_id),
      cell(c.concept_code),
      cell(c.concept_name),
      cell(c.concept_class_id),
      num(c.similarity),
      ...(graph ? [num(c.graph_score), c.is_bridge ? 'yes' : ''] : []),
      ...(withParents ? [cell((c.parents ?? []).map((p) => `${p.parent_concept_code} ${p.parent_concept_name}`).join('; '))] : []),
      String(c.concept_id),
    ];
    lines.push(`| ${row.join(' | ')} |`);
  });
  return lines.join('\n') + '\n';
}

export function listToMarkdown(out: unknown): string {
  const r = out as { vocabularies?: string[]; domains?: string[] };
  const lines: string[] = [];
  if (r.vocabularies) {
    lines.push('## Vocabularies', '', '| vocabulary_id |', '|---|', ...r.vocabularies.map((v) => `| ${cell(v)} |`), '');
  }
  if (r.domains) lines.push('## Domains', '', '| domain_id |', '|---|', ...r.domains.map((d) => `| ${cell(d)} |`), '');
  return lines.join('\n');
}
