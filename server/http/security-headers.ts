/**
 * Security headers. The API's responses are data (JSON, markdown, SSE, FHIR), never documents: nothing may load from
 * them, frame them or sniff them into HTML, and none may be cached (they can carry PHI or a redaction mapping:
 * redact, agent, chat, search, batch results, FHIR, receipts…). Pages get their own policy (next.config.ts, which
 * keeps the same frame-ancestors, nosniff and referrer rules).
 */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

/**
 * Every API response: the headers above, and `Cache-Control: no-store` unless the route chose a cache policy itself
 * (only the OpenAPI document does: it holds no caller data).
 */
export function applyApiSecurityHeaders(headers: Headers): void {
  for (const [k, v] of Object.entries(API_SECURITY_HEADERS)) headers.set(k, v);
  if (!headers.has('cache-control')) headers.set('cache-control', 'no-store');
}
