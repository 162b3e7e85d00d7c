'use client';
import { ENTITY_LABELS, mappingRows, type EntityOffset } from './entities';

/**
 * The placeholder → original mapping. It exists only in this page's memory: never written to storage, never sent
 * back to the server (the server does not keep it either).
 */
export function MappingTable({ mapping, entities }: { mapping: Record<string, string>; entities: readonly EntityOffset[] }) {
  const rows = mappingRows(mapping, entities);
  if (!rows.length) return <p className="muted small">Nothing was replaced.</p>;
  return (
    <table className="table redact-mapping" data-testid="mapping-table">
      <thead>
        <tr>
          <th>Placeholder</th>
          <th>Type</th>
          <th>Original</th>
          <th>Occurrences</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.placeholder} data-placeholder={r.placeholder}>
            <td>
              <code className={`redact-chip redact-type-${r.type}`}>{r.placeholder}</code>
            </td>
            <td>{ENTITY_LABELS[r.type] ?? r.type}</td>
            <td className="redact-original">
              {r.original}
              {r.refersTo ? <span className="muted small"> (same person as {r.refersTo}?)</span> : null}
            </td>
            <td>{r.count}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
