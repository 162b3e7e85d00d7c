/** The UI's base URL for next-auth when NEXTAUTH_URL is unset: PUBLIC_BASE_URL, else this server's host and port. */
export function nextAuthUrl(publicBaseUrl: string | undefined, host: string, port: number): string {
  if (publicBaseUrl) return publicBaseUrl.replace(/\/$/, '');
  const h = host === '0.0.0.0' || host === '::' || host === '' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${h}:${port}`;
}
