/**
 * Word rules of the Group a case autocomplete (pure; no HTTP, no database).
 *
 * The search engine matches names, synonyms and index terms with spelling correction; an autocomplete a coder can
 * trust must not offer a title only because a query word sits inside one of its words ("tent" in "Latent yaws").
 */

/** Text a coder types as a code: `I21`, `i21.4`, `0SR`, `02703DZ` (letters/digits with one optional dot, a digit in it). */
export function looksLikeCode(q: string): boolean {
  const t = q.trim();
  return /^[A-Za-z0-9]{1,3}\.?[A-Za-z0-9]{0,4}$/.test(t) && /\d/.test(t);
}

const words = (s: string) =>
  s
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/**
 * True when some query word occurs in the title only inside a word (a fragment) and never at the start of one.
 * A query word absent from the title is fine: the engine matched a synonym or index term.
 */
export function fragmentOnly(title: string, query: string): boolean {
  const t = words(title);
  for (const w of words(query)) {
    if (w.length < 2) continue;
    const starts = t.some((x) => x.startsWith(w));
    const inside = t.some((x) => x.includes(w) && !x.startsWith(w));
    if (inside && !starts) return true;
  }
  return false;
}
