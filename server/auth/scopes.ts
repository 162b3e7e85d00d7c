/** Scopes that may narrow an API key (SPEC §5.4). A key with no scopes holds all of them. */
export const SCOPES = ['drg:classify', 'llm:chat', 'redact', 'search'] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(s: string): s is Scope {
  return (SCOPES as readonly string[]).includes(s);
}

export function parseScopes(csv: string | undefined | null): Scope[] {
  if (!csv) return [];
  const out: Scope[] = [];
  for (const raw of csv
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    if (!isScope(raw)) throw new Error(`unknown scope '${raw}' (allowed: ${SCOPES.join(', ')})`);
    if (!out.includes(raw)) out.push(raw);
  }
  return out;
}

export const ROLES = ['admin', 'coder'] as const;
export type Role = (typeof ROLES)[number];
