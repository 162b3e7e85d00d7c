/**
 * From a query in code-title wording to a verified code: the search engine (server/search) retrieves candidates,
 * the grouper's code tables verify them (valid in the grouper version, billable), and a coverage score picks the
 * title that says what the query says and not more ("pneumonia, unspecified organism" → J18.9, not J18.1 "lobar").
 *
 * When the search index has nothing in the expected code range (or no vocabulary is imported yet), the code range
 * itself is read from the CMS code files (`suggestCodes` with the range as a code prefix) and scored the same way.
 */
import type { Database } from '../db';
import { AppError } from '../errors';
import { log } from '../log';
import { lookupCode, suggestCodes } from '../drg';
import { search } from '../search/engine';
import type { Target } from './phrasebook/types';
import { words } from './text';

export type CodeKind = 'dx' | 'pr';

export interface Resolution {
  /** Code without dots, as the grouper reads it. */
  code: string;
  kind: CodeKind;
  title: string;
  query: string;
  /** search: from the search engine's results; category: from the code range in the CMS files; titles: CMS title search. */
  via: 'search' | 'category' | 'titles';
  score: number;
  similarity: number | null;
}

export interface Candidate {
  code: string;
  kind: CodeKind;
  title: string;
  billable: boolean;
  valid: boolean;
  similarity: number | null;
}

const STOP = new Set([
  'of',
  'the',
  'a',
  'an',
  'and',
  'or',
  'to',
  'in',
  'into',
  'from',
  'by',
  'on',
  'at',
  'for',
  'as',
  'due',
  'classified',
  'elsewhere',
  'nos',
  'is',
  'e',
  'i',
]);
/** Title words that may appear without being asked for. */
const NEUTRAL = new Set([
  'unspecified',
  'initial',
  'encounter',
  'site',
  'part',
  'type',
  'organism',
  'approach',
  'specified',
  'not',
  'congestive',
  'primary',
  'essential',
  'closed',
  'fracture',
  'nonautologous',
  'percutaneous',
]);

function stem(w: string): string {
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) return w.slice(0, -1);
  return w;
}

function contentWords(s: string): string[] {
  return words(s.replace(/\[[^\]]*\]/g, ' '))
    .filter((w) => !STOP.has(w))
    .map(stem);
}

/** How well a title says what the query says: coverage of the query's words, minus words the query did not ask for. */
export function titleScore(query: string, title: string, similarity: number | null): number {
  const q = contentWords(query);
  const tw = contentWords(title);
  if (!q.length || !tw.length) return -Infinity;
  const ts = new Set(tw);
  const qs = new Set(q);
  let covered = 0;
  for (const w of qs) if (ts.has(w)) covered++;
  let extra = 0;
  for (const w of new Set(tw)) {
    if (qs.has(w)) continue;
    extra += NEUTRAL.has(w) ? 0.15 : w === 'other' ? 0.6 : w === 'with' || w === 'without' ? 0.4 : /^\d+$/.test(w) ? 0.5 : 1;
  }
  const sim = similarity === null ? 0 : Math.max(-5, Math.min(15, similarity)) / 5;
  return 4 * (covered / qs.size) - 0.7 * extra + 0.5 * sim;
}

export function coverage(query: string, title: string): number {
  const qs = new Set(contentWords(query));
  const ts = new Set(contentWords(title));
  if (!qs.size) return 0;
  let c = 0;
  for (const w of qs) if (ts.has(w)) c++;
  return c / qs.size;
}

const noDot = (c: string) => c.replace(/\./g, '').toUpperCase();

export interface ResolverOptions {
  /** Skip the search engine (tests of the fallback; the agent uses it when no vocabulary is loaded). */
  searchDisabled?: boolean;
}

/**
 * A resolver for one grouper version and database. Caches answers per query (a note mentions the same condition
 * several times, and an evaluation run repeats queries across notes).
 */
export class CodeResolver {
  private readonly cache = new Map<string, Promise<Resolution | null>>();
  private searchState: 'unknown' | 'ok' | 'unavailable';
  /** Which resolution paths were used (for the response's metadata). */
  readonly used = new Set<Resolution['via']>();

  constructor(
    private readonly db: Database | null,
    readonly version: string,
    opts: ResolverOptions = {},
  ) {
    this.searchState = opts.searchDisabled || !db ? 'unavailable' : 'unknown';
  }

  get searchAvailable(): boolean {
    return this.searchState !== 'unavailable';
  }

  /** Verified candidates for a free query from the search engine (the LLM tool `search_concepts`). */
  async candidates(query: string, kind: CodeKind, topK = 10): Promise<Candidate[]> {
    const hits = await this.searchHits(query, kind, Math.min(50, Math.max(topK * 2, 10)));
    let out: Candidate[] = [];
    if (hits) {
      for (const h of hits) {
        const info = await lookupCode(this.version, h.code);
        out.push({ code: info.code, kind: info.kind, title: info.title ?? h.title, billable: info.billable, valid: info.valid, similarity: h.similarity });
      }
    } else {
      const sugg = await suggestCodes(this.version, query, topK * 2, { kind });
      for (const s of sugg) {
        const info = await lookupCode(this.version, s.code);
        out.push({ code: info.code, kind: s.kind, title: s.title, billable: s.billable, valid: info.valid, similarity: null });
      }
    }
    out = out.filter((c) => c.kind === kind);
    return out.slice(0, topK);
  }

  /** The best verified code for a target (a query in title wording and the code ranges it must fall in). */
  resolve(target: Target, kind: CodeKind): Promise<Resolution | null> {
    const within = target.within.map(noDot);
    const key = `${kind}|${target.query}|${within.join(',')}`;
    let p = this.cache.get(key);
    if (!p) {
      p = this.doResolve(target.query, within, kind);
      this.cache.set(key, p);
    }
    return p;
  }

  /**
   * Free text from a diagnosis list that no phrasebook concept matched ("Kawasaki disease", "Rhabdomyolysis"). Here the
   * search engine's synonyms and ICD-10-CM index terms decide: its top billable hit is taken when the reranker is
   * confident (a high logit, clearly ahead of the best hit of another category) or the title says the same words.
   * Without a search index, only a title that covers the words is accepted.
   */
  async resolveFreeText(text: string, kind: CodeKind): Promise<Resolution | null> {
    const key = `free|${kind}|${text}`;
    let p = this.cache.get(key);
    if (!p) {
      p = (async () => {
        // status, history, external causes and symptoms are never guessed from free text
        const allowed = (code: string) => kind !== 'dx' || !/^[RVWXYZ]/.test(code);
        const hits = await this.searchHits(text, kind, 15);
        if (!hits) {
          const best = await this.doResolve(text, [], kind);
          return best && allowed(best.code) && coverage(text, best.title) >= 0.67 ? best : null;
        }
        const cands: Resolution[] = [];
        for (const h of hits) {
          const info = await lookupCode(this.version, h.code);
          if (!info.valid || !info.billable || info.kind !== kind || !info.title) continue;
          cands.push({ code: info.code, kind, title: info.title, query: text, via: 'search', similarity: h.similarity, score: h.similarity ?? 0 });
        }
        const a = cands[0];
        if (!a || !allowed(a.code)) return null;
        const sim = a.similarity ?? -99;
        const other = cands.find((c) => c.code.slice(0, 3) !== a.code.slice(0, 3));
        const margin = other ? sim - (other.similarity ?? -99) : 99;
        const ok = (sim >= 4 && margin >= 1) || (sim >= 2 && margin >= 2.5) || (sim >= 2 && coverage(text, a.title) >= 0.67);
        if (!ok) return null;
        this.used.add('search');
        return a;
      })();
      this.cache.set(key, p);
    }
    return p;
  }

  private async searchHits(query: string, kind: CodeKind, topK: number): Promise<Array<{ code: string; title: string; similarity: number | null }> | null> {
    if (this.searchState === 'unavailable' || !this.db) return null;
    try {
      const r = await search(this.db, { query, vocabularies: [kind === 'dx' ? 'ICD10CM' : 'ICD10PCS'], top_k: topK, min_relevance: null });
      this.searchState = 'ok';
      return r.results.map((x) => ({ code: noDot(x.concept_code), title: x.concept_name, similarity: x.similarity }));
    } catch (err) {
      if (err instanceof AppError && (err.type === 'vocabulary_unavailable' || err.status === 503)) {
        this.searchState = 'unavailable';
        log.warn('agent: search index unavailable, resolving codes from the CMS code files', { type: err.type });
        return null;
      }
      if (err instanceof AppError && err.status === 400) return [];
      throw err;
    }
  }

  private async doResolve(query: string, within: string[], kind: CodeKind): Promise<Resolution | null> {
    const inRange = (code: string) => within.length === 0 || within.some((w) => code.startsWith(w));
    const scored: Resolution[] = [];
    const seen = new Set<string>();
    const consider = async (code: string, similarity: number | null, via: Resolution['via']) => {
      if (seen.has(code) || !inRange(code)) return;
      seen.add(code);
      const info = await lookupCode(this.version, code);
      if (!info.valid || !info.billable || info.kind !== kind || !info.title) return;
      scored.push({ code: info.code, kind, title: info.title, query, via, similarity, score: titleScore(query, info.title, similarity) });
    };

    const hits = await this.searchHits(query, kind, 25);
    for (const h of hits ?? []) await consider(h.code, h.similarity, 'search');
    const exact = scored.some((r) => coverage(query, r.title) >= 0.999);
    if (!exact && within.length) {
      for (const w of within) {
        for (const s of await suggestCodes(this.version, w, 400, { kind, billableOnly: true })) await consider(noDot(s.code), null, 'category');
      }
    }
    if (!scored.length && !within.length && !hits) {
      for (const s of await suggestCodes(this.version, query, 50, { kind, billableOnly: true })) await consider(noDot(s.code), null, 'titles');
    }
    if (!scored.length) return null;
    scored.sort((a, b) => b.score - a.score || a.code.localeCompare(b.code));
    const best = scored[0]!;
    if (coverage(query, best.title) < 0.5) return null;
    this.used.add(best.via);
    return best;
  }
}

/** `I214` → `I21.4`; PCS codes have no dot. */
export function displayCode(code: string, kind: CodeKind): string {
  return kind === 'dx' && code.length > 3 ? `${code.slice(0, 3)}.${code.slice(3)}` : code;
}
