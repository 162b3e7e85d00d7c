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
