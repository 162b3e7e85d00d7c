/**
 * Paths the API door answers (server/main.ts routes them to `serveApi`; everything else goes to Next.js): everything
 * under /api in any letter case — so /API/V1/…, /api/v2/… and unknown /api paths get the door's JSON 404 instead of
 * an HTML page — except next-auth's own /api/auth/…, plus /login.
 */
export function isApiPath(pathname: string): boolean {
  if (/^\/api\/auth(\/|$)/.test(pathname)) return false;
  return /^\/api(\/|$)/i.test(pathname) || pathname === '/login' || pathname === '/login/';
}
