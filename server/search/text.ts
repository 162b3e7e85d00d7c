/**
 * Text normalisation shared by the in-memory index and query processing. Words are lower-cased, stripped of
 * diacritics and split on anything that is not a letter or digit. Words inside parentheses or brackets are marked
 * optional: ICD titles put non-essential modifiers there ("Hypertension (arterial) (benign)").
 */
export interface Word {
  text: string;
  optional: boolean;
  /** Punctuation (other than a hyphen or apostrophe) separates this word from the previous one. */
  brk: boolean;
}

export function foldText(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

export function tokenize(s: string, limit = 200): Word[] {
  const out: Word[] = [];
  const t = foldText(s);
  let depth = 0;
  let cur = '';
  let brk = false;
  const push = () => {
    if (cur) {
      out.push({ text: cur, optional: depth > 0, brk });
      cur = '';
      brk = false;
    }
  };
  for (let i = 0; i < t.length && out.length < limit; i++) {
    const ch = t[i]!;
    if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9')) {
      cur += ch;
      continue;
    }
    push();
    if (ch !== ' ' && ch !== '-' && ch !== "'" && ch !== '\u2019') brk = true;
    if (ch === '(' || ch === '[') depth++;
    else if ((ch === ')' || ch === ']') && depth > 0) depth--;
  }
  push();
  return out;
}

/** British → American spellings common in clinical text, tried when a word is not in the vocabulary's lexicon. */
export function americanSpelling(w: string): string {
  let s = w;
  if (s.length > 4) s = s.replace(/ae/g, 'e').replace(/oe/g, 'e');
  s = s
    .replace(/isation/g, 'ization')
    .replace(/ise$/, 'ize')
    .replace(/ised$/, 'ized');
  if (s.length > 5) s = s.replace(/our$/, 'or').replace(/ours$/, 'ors');
  if (s.length > 4) s = s.replace(/tre$/, 'ter');
  return s;
}

/** Optimal-string-alignment distance (Levenshtein plus adjacent transpositions), with an early exit above `max`. */
export function editDistance(a: string, b: string, max = 3): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev2 = new Array<number>(b.length + 1).fill(0);
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  let cur = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2]! + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[b.length]!;
}

/** Does the string look like a code rather than words (I21.9, 0DTJ4ZZ, E11, 99213, J1100)? */
export function looksLikeCode(q: string): boolean {
  const s = q.trim();
  return (
    /^[A-Za-z]?\d[0-9A-Za-z]{1,6}(\.[0-9A-Za-z]{1,4})?$/.test(s) ||
    /^[A-Za-z]\d{2}(\.[0-9A-Za-z]{0,4})?$/.test(s) ||
    /^[0-9A-HJ-NP-Z]{7}$/.test(s.toUpperCase())
  );
}
