import { createHmac } from 'node:crypto';

/**
 * What is stored (and returned) for a caller's filename: never the name itself, which can carry PHI
 * ("ahmad_bin_ali_850101-14-5673.pdf"), but `upload-<hash>.<extension>`: the extension (letters and digits, at most
 * 10, lower-cased; consumers such as batch case files read the format from it) and the first 16 hex digits of an
 * HMAC-SHA256 of the sanitised name under a server secret. Keyed, so the hash cannot be reversed by trying likely
 * names (an identity number has few enough candidates to enumerate an unkeyed hash); stable, so the same name gives the
 * same stored name within a deployment.
 */
export function storedFilename(input: string, secret: string): string {
  const clean = sanitizeFilename(input);
  const dot = clean.lastIndexOf('.');
  const ext = dot > 0 ? clean.slice(dot + 1) : '';
  const hash = createHmac('sha256', secret).update(`upload-filename|${clean}`).digest('hex').slice(0, 16);
  return /^[A-Za-z0-9]{1,10}$/.test(ext) ? `upload-${hash}.${ext.toLowerCase()}` : `upload-${hash}`;
}

/**
 * Filenames from callers are untrusted: keep only the last path component, drop control and reserved characters,
 * forbid leading dots, and cap the length at 200 bytes while keeping the extension. Never returns an empty name.
 */
const RESERVED = /[<>:"|?*\\/\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g;

export function sanitizeFilename(input: string): string {
  let name = String(input ?? '').normalize('NFC');
  // Last component of either separator: "../../etc/passwd" → "passwd", "C:\\x\\y.csv" → "y.csv".
  const parts = name.split(/[\\/]+/);
  name = parts[parts.length - 1] ?? '';
  name = name.replace(RESERVED, '_').replace(/\s+/g, ' ').trim();
  name = name.replace(/^[.\s_]+/, ''); // no hidden files, no "." or ".."
  name = name.replace(/\.{2,}/g, '.');
  if (!name || name === '.' || /^_+$/.test(name)) name = 'upload';
  const enc = new TextEncoder();
  if (enc.encode(name).length > 200) {
    const dot = name.lastIndexOf('.');
    const ext = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
    let base = ext ? name.slice(0, dot) : name;
    while (enc.encode(base + ext).length > 200) base = base.slice(0, -1);
    name = base + ext;
  }
  return name;
}
