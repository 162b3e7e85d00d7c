/**
 * The ICD-10-CM Alphabetic Index we hold is the FY2017 edition; the tabular is current (FY2026). An index entry names
 * the default code for its term ("Attack, heart → Infarct, myocardium → I21.3"). Coding conventions, applied here as
 * general rules over the two tabulars (never per term):
 *
 * 1. The index points to a code that has been expanded since 2017 (M54.5 → M54.50/51/59; T81.4 → T81.40…T81.49):
 *    the default is its default billable descendant — the "unspecified" child, the unspecified side, initial
 *    encounter (7th character A). Headers the index names with a dash ("S52.50-") are left to the engine, which
 *    applies the same order at query time (and the named side's code when the query names one).
 * 2. The index points to a billable "unspecified" code of 2017 (I21.3 *STEMI of unspecified site*, F32.9), and the
 *    category has since gained its own "unspecified" code (I21.9 *Acute myocardial infarction, unspecified*, new in
 *    FY2023; F32.A *Depression, unspecified*): when the entry's words name nothing of what the old code specifies (I21.3 says "ST elevation (STEMI)"; "Attack, heart" does not), the default is the new
 *    unspecified code.
 */
export interface TabularEntry {
  title: string;
  billable: boolean;
}

const FILLER = new Set([
  'of',
  'the',
  'and',
  'or',
  'with',
  'without',
  'in',
  'to',
  'for',
  'by',
  'due',
  'on',
  'a',
  'an',
  'as',
  'not',
  'elsewhere',
  'classified',
  'unspecified',
  'other',
  'specified',
  'site',
  'sites',
  'nec',
  'nos',
  'type',
  'part',
  'region',
  'acute',
  'chronic',
]);

function words(s: string): string[] {
  return s
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w && !FILLER.has(w));
}

/** A crude common stem, enough to tell "myocardial" from "stemi" (not to match inflections precisely). */
const stem = (w: string) => w.slice(0, 6);

/** How much a billable code reads as the default of its header (the engine's ordering, applied to the tabular). */
export function defaultPreference(code: string, title: string, depth: number): number {
  let pref = -depth;
  const unspec = (title.match(/unspecified/gi) ?? []).length;
  if (unspec) pref += 2 + 0.75 * (unspec - 1) + (/^unspecified\b/i.test(title) ? 0.75 : 0);
  if (/\b(other|specified)\b/i.test(title) && !/unspecified/i.test(title)) pref -= 0.5;
  const body = code.length >= 7 && /[A-Z]$/.test(code) ? code.slice(0, -1) : code;
  if (/9X*$/.test(body)) pref += 0.5;
  if (code.length >= 7 && /[A-Z]$/.test(code) && /^[STV-Y]/.test(code)) pref += code.endsWith('A') ? 1 : -3;
  return pref;
}

export interface IndexDefaults {
  /** The current code (undotted) an index entry's code stands for, or null to leave the entry where it is. */
  defaultFor(codeUndotted: string, entryText: string): string | null;
}

/**
 * @param current the current tabular, undotted code → title and billability
 * @param codes2017 the codes (undotted) of the 2017 tabular the index was written against
 */
export function indexDefaults(current: Map<string, TabularEntry>, codes2017: Set<string>): IndexDefaults {
  const children = new Map<string, string[]>();
  const sorted = [...current.keys()].sort();
  for (const code of sorted) {
    for (let n = code.length - 1; n >= 3; n--) {
      const parent = code.slice(0, n);
      if (current.has(parent)) {
        (children.get(parent) ?? children.set(parent, []).get(parent)!).push(code);
        break;
      }
    }
  }
  const had2017Children = new Set<string>();
  for (const code of codes2017) for (let n = code.length - 1; n >= 3; n--) had2017Children.add(code.slice(0, n));
  const defaultCache = new Map<string, string | null>();
  const defaultDescendant = (h: string): string | null => {
    const hit = defaultCache.get(h);
    if (hit !== undefined) return hit;
    let best: string | null = null;
    let bestPref = -Infinity;
    const walk = (c: string, depth: number) => {
      for (const ch of children.get(c) ?? []) {
        const e = current.get(ch)!;
        if (e.billable) {
          const p = defaultPreference(ch, e.title, depth);
          if (p > bestPref || (p === bestPref && best !== null && ch < best)) {
            bestPref = p;
            best = ch;
          }
        }
        if (depth < 5) walk(ch, depth + 1);
      }
    };
    walk(h, 1);
    defaultCache.set(h, best);
    return best;
  };
  // categories that gained their own "unspecified" code after 2017 (a direct child of the 3-character category)
  const newUnspecified = new Map<string, string>();
  for (const [cat, kids] of children) {
    if (cat.length !== 3) continue;
    const fresh = kids.filter((k) => current.get(k)!.billable && !codes2017.has(k) && /\bunspecified\b/i.test(current.get(k)!.title));
    const catWords = new Set(words(current.get(cat)!.title).map(stem));
    // the category's own unspecified code: its words are the category's ("Acute myocardial infarction, unspecified")
    const own = fresh.filter((k) => words(current.get(k)!.title).every((w) => catWords.has(stem(w))));
    if (own.length === 1) newUnspecified.set(cat, own[0]!);
  }
  return {
    defaultFor(code, entryText) {
      const e = current.get(code);
      if (!e) return null;
      if (!e.billable) {
        // expanded since 2017: a leaf then, with children now that are more than 7th-character extensions. Headers
        // the index names on purpose ("S52.50-": side and encounter to be chosen) are left to the engine, which
        // ranks their default descendants for unsided queries and the named side's code otherwise.
        if (!codes2017.has(code) || had2017Children.has(code)) return null;
        if (!(children.get(code) ?? []).some((k) => k.length < 7)) return null;
        return defaultDescendant(code);
      }
      const u = newUnspecified.get(code.slice(0, 3));
      // only where the old code was itself the unspecified default (I21.3 "…of unspecified site"), not a specified
      // sibling (I21.4 NSTEMI keeps "subendocardial")
      if (!u || u === code || !codes2017.has(code) || !/\bunspecified\b/i.test(e.title)) return null;
      // what the old default specifies beyond the new unspecified code; the entry must name none of it
      const uWords = new Set(words(current.get(u)!.title).map(stem));
      const specific = new Set(
        words(e.title)
          .map(stem)
          .filter((w) => !uWords.has(w)),
      );
      if (!specific.size) return null;
      const entry = words(entryText).map(stem);
      return entry.some((w) => specific.has(w)) ? null : u;
    },
  };
}

/** The codes (undotted) of an ICD-10-CM tabular XML (`<diag><name>I21.3</name>`). */
export function tabularCodes(xml: string): Set<string> {
  const out = new Set<string>();
  for (const m of xml.matchAll(/<name>([A-Z][0-9][0-9A-Z](?:\.[0-9A-Z]{1,4})?)<\/name>/g)) out.add(m[1]!.replace('.', ''));
  return out;
}
