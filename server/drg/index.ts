/**
 * MS-DRG grouper: public API. See README.md in this folder.
 *
 *   const g = await getGrouper('v43');             // lazy load, cached per process and on disk
 *   const r = g.group({ dx: ['I21.4', 'E11.9'], pr: [], sex: 'M' });
 *   // or: const r = await groupCase('v43', input);
 *
 * Everything here is pure computation over the reference data; no database, no network.
 */
import { z } from 'zod';
import { AppError } from '../errors';
import { codeTitles, titleOf } from './codes';
import type { CoreResult, GrouperEngine } from './engine';
import { normalizeCode } from './engine';
import { loadEngine, loadStats, loadedEngine, unloadEngines, type LoadStats } from './loader';
import type { CodeInfo, CodeSuggestion, GroupInput, GroupOptions, GroupResult } from './types';
import { DEFAULT_VERSION, listVersions, normalizeVersion, UnknownVersionError, versionSpec, type VersionInfo } from './versions';

export type * from './types';
export { RETURN_CODE_NUMBER } from './types';
export { DEFAULT_VERSION, listVersions, normalizeVersion, UnknownVersionError, type VersionInfo };
export type { CoreResult, LoadStats };

/** Thrown by groupCase / Grouper.group for input that is not a case at all (not for bad codes). */
export class InvalidGroupInputError extends Error {
  readonly code = 'INVALID_INPUT' as const;
  constructor(readonly issues: string[]) {
    super(`invalid grouper input: ${issues.join('; ')}`);
    this.name = 'InvalidGroupInputError';
  }
}

const codeList = z.array(z.union([z.string(), z.number()]).transform((x) => String(x)));

/** Input schema (zod) for REST / batch callers. Codes are validated by the grouper, not here. */
export const GroupInputSchema = z.object({
  dx: codeList,
  pr: codeList.optional(),
  sex: z.string().optional(),
  alive: z.boolean().optional(),
  dischargeStatus: z.union([z.number(), z.string()]).nullable().optional(),
  poa: z.array(z.string().nullable()).optional(),
  hospitalStatus: z.string().optional(),
});

/**
 * The same rules as GroupInputSchema, checked by hand: `group()` is on the API's hot path and a zod parse per case
 * cost more than grouping it. Codes given as numbers become strings; unknown fields are dropped.
 */
export function checkGroupInput(input: unknown): GroupInput {
  const issues: string[] = [];
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new InvalidGroupInputError(['input: expected an object']);
  const o = input as Record<string, unknown>;
  const codes = (field: 'dx' | 'pr', required: boolean): string[] | undefined => {
    const v = o[field];
    if (v === undefined && !required) return undefined;
    if (!Array.isArray(v)) {
      issues.push(`${field}: expected an array of codes, received ${v === null ? 'null' : typeof v}`);
      return undefined;
    }
    let out: string[] | null = null;
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      if (typeof x === 'string') {
        if (out) out.push(x);
      } else if (typeof x === 'number') {
        out ??= (v as unknown[]).slice(0, i).map(String);
        out.push(String(x));
      } else issues.push(`${field}.${i}: expected a code (string), received ${x === null ? 'null' : typeof x}`);
    }
    return out ?? (v as string[]);
  };
  const optional = (field: string, test: (x: unknown) => boolean, what: string): void => {
    const v = o[field];
    if (v !== undefined && !test(v)) issues.push(`${field}: expected ${what}, received ${v === null ? 'null' : typeof v}`);
  };
  const dx = codes('dx', true);
  const pr = codes('pr', false);
  optional('sex', (x) => typeof x === 'string', 'a string');
  optional('alive', (x) => typeof x === 'boolean', 'a boolean');
  optional('dischargeStatus', (x) => x === null || typeof x === 'number' || typeof x === 'string', 'a number or a string');
  optional('hospitalStatus', (x) => typeof x === 'string', 'a string');
  const poa = o.poa;
  if (poa !== undefined) {
    if (!Array.isArray(poa)) issues.push(`poa: expected an array, received ${poa === null ? 'null' : typeof poa}`);
    else
      poa.forEach((x: unknown, i) => {
        if (x !== null && typeof x !== 'string') issues.push(`poa.${i}: expected a string or null, received ${typeof x}`);
      });
  }
  if (issues.length) throw new InvalidGroupInputError(issues);
  const out: GroupInput = { dx: dx as string[] };
  if (pr !== undefined) out.pr = pr;
  if (o.sex !== undefined) out.sex = o.sex as string;
  if (o.alive !== undefined) out.alive = o.alive as boolean;
  if (o.dischargeStatus !== undefined) out.dischargeStatus = o.dischargeStatus as string | number | null;
  if (poa !== undefined) out.poa = poa as Array<string | null>;
  if (o.hospitalStatus !== undefined) out.hospitalStatus = o.hospitalStatus as string;
  return out;
}

/** A loaded version. All methods are synchronous. */
export interface Grouper {
  readonly version: string;
  readonly fiscal_year: string;
  readonly fidelity: 'exact' | 'derived';
  /** Derived versions: what the version cannot reproduce, in words (null for exact versions). */
  readonly fidelity_note: string | null;
  /** Group one case with full detail. Throws InvalidGroupInputError only for malformed input. */
  group(input: GroupInput, options?: GroupOptions): GroupResult;
  /** Fast path without per-code detail (batch use). `codes` as in GroupOptions, default strict. */
  groupCore(input: GroupInput, codes?: 'strict' | 'lenient'): CoreResult;
  /** Whether the grouper accepts a code in this version (either kind). */
  isValidCode(code: string, kind?: 'dx' | 'pr'): boolean;
  /** The DRG's title in this version ('' when the version has no such DRG). */
  drgTitle(drg: number): string;
}

class GrouperHandle implements Grouper {
  constructor(private readonly engine: GrouperEngine) {}
  get version() {
    return this.engine.version;
  }
  get fiscal_year() {
    return this.engine.fiscalYear;
  }
  get fidelity() {
    return this.engine.fidelity;
  }
  get fidelity_note() {
    return this.engine.fidelityNote;
  }
  group(input: GroupInput, options?: GroupOptions): GroupResult {
    return this.engine.group(checkGroupInput(input), options);
  }
  groupCore(input: GroupInput, codes: 'strict' | 'lenient' = 'strict'): CoreResult {
    return this.engine.groupCore(input, codes === 'lenient');
  }
  isValidCode(code: string, kind?: 'dx' | 'pr'): boolean {
    const c = normalizeCode(code);
    if (kind !== 'pr' && this.engine.dxIndexOf(c) >= 0) return true;
    if (kind !== 'dx' && this.engine.prIndexOf(c) >= 0) return true;
    return false;
  }
  drgTitle(drg: number): string {
    return this.engine.drgTitleOf(drg);
  }
}

const handles = new Map<string, GrouperHandle>();

/**
 * The grouper for a version (any spelling normalizeVersion accepts; default v40). The first call
 * for a version loads it: from the compiled cache (~0.1 s) or by compiling its tables (~1 s).
 */
export async function getGrouper(version?: string): Promise<Grouper> {
  const v = normalizeVersion(version);
  const hit = handles.get(v);
  if (hit) return hit;
  const h = new GrouperHandle(await loadEngine(v));
  handles.set(v, h);
  return h;
}

/** Group one case. Version: any accepted spelling; undefined → default (v40). */
export async function groupCase(version: string | undefined, input: GroupInput, options?: GroupOptions): Promise<GroupResult> {
  return (await getGrouper(version)).group(input, options);
}

/** Load statistics of a version (cold compile vs cache, milliseconds), once it is loaded. */
export function grouperLoadStats(version?: string): LoadStats | undefined {
  return loadStats(version);
}

/** Forget loaded versions (tests and benchmarks; the disk cache stays). */
export function resetGroupers(): void {
  handles.clear();
  unloadEngines();
}

/**
 * Look up a code for a version: kind, whether the grouper accepts it, whether it is billable, and its
 * title from the CMS code files of the version's fiscal year. Dots, case and blanks are ignored.
 * A code that is neither a diagnosis nor a procedure comes back with valid=false and title=null.
 */
export async function lookupCode(version: string | undefined, code: string): Promise<CodeInfo> {
  const spec = versionSpec(version);
  const engine = loadedEngine(spec.version) ?? (await loadEngine(spec.version));
  const c = normalizeCode(code);
  const isDx = engine.dxIndexOf(c) >= 0;
  const isPr = engine.prIndexOf(c) >= 0;
  let kind: 'dx' | 'pr';
  if (isDx) kind = 'dx';
  else if (isPr) kind = 'pr';
  else {
    // Not accepted by the grouper: guess the kind from the code files (headers are dx or pr).
    const inDx = codeTitles(spec.codeYear, 'dx')?.index.has(c) ?? false;
    const inPr = !inDx && (codeTitles(spec.codeYear, 'pr')?.index.has(c) ?? false);
    kind = inPr || (!inDx && /^[0-9A-HJ-NP-Z]{7}$/.test(c) && /^[0-9BCDFGHX]/.test(c) && !/^[A-Z]\d/.test(c)) ? 'pr' : 'dx';
  }
  const valid = kind === 'dx' ? isDx : isPr;
  const t = titleOf(spec.codeYear, kind, c);
  return { code: c, kind, valid, billable: t.found ? t.billable : valid, title: t.title };
}

/**
 * Autocomplete over codes and titles of the version's fiscal year. A query that looks like a code
 * (letters/digits, optional dot) matches code prefixes; otherwise every word must occur in the title
 * (the last word as a prefix). Billable codes first, then by code. `kind` limits to dx or pr.
 */
export async function suggestCodes(
  version: string | undefined,
  prefixOrText: string,
  limit = 20,
  options: { kind?: 'dx' | 'pr'; billableOnly?: boolean } = {},
): Promise<CodeSuggestion[]> {
  const spec = versionSpec(version);
  const q = String(prefixOrText ?? '').trim();
  const max = Math.max(1, Math.min(500, Math.floor(limit) || 20));
  if (!q) return [];
  const kinds: Array<'dx' | 'pr'> = options.kind ? [options.kind] : ['dx', 'pr'];
  const out: CodeSuggestion[] = [];
  const codeLike = /^[A-Za-z0-9]{1,3}\.?[A-Za-z0-9]{0,4}$/.test(q) && /\d/.test(q);
  if (codeLike) {
    const p = normalizeCode(q);
    for (const kind of kinds) {
      const t = codeTitles(spec.codeYear, kind);
      if (!t) continue;
      const hits: number[] = [];
      for (let i = 0; i < t.codes.length; i++) {
        if (t.codes[i].startsWith(p) && (!options.billableOnly || t.billable[i])) hits.push(i);
      }
      hits.sort((a, b) => t.codes[a].length - t.codes[b].length || (t.codes[a] < t.codes[b] ? -1 : 1));
      for (const i of hits.slice(0, max)) out.push({ code: t.codes[i], kind, title: t.titles[i], billable: t.billable[i] === 1 });
    }
    out.sort((a, b) => a.code.length - b.code.length || (a.code < b.code ? -1 : 1));
    return out.slice(0, max);
  }
  const words = q
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  if (words.length === 0) return [];
  const scored: Array<{ s: number; c: CodeSuggestion }> = [];
  for (const kind of kinds) {
    const t = codeTitles(spec.codeYear, kind);
    if (!t) continue;
    for (let i = 0; i < t.lower.length; i++) {
      const title = t.lower[i];
      let ok = true;
      for (const w of words) {
        if (!title.includes(w)) {
          ok = false;
          break;
        }
      }
      if (!ok || (options.billableOnly && !t.billable[i])) continue;
      // rank: billable, title starting with the first word, shorter titles
      const s = (t.billable[i] ? 0 : 1000) + (title.startsWith(words[0]) ? 0 : 500) + Math.min(title.length, 400);
      scored.push({ s, c: { code: t.codes[i], kind, title: t.titles[i], billable: t.billable[i] === 1 } });
    }
  }
  scored.sort((a, b) => a.s - b.s || (a.c.code < b.c.code ? -1 : 1));
  return scored.slice(0, max).map((x) => x.c);
}

/* ---------- API edge: the versions the API accepts ---------- */

/**
 * Versions the API may serve (SPEC §2.4 lists v36-v40 and v43; v40.1, v41, v41.1, v42, v42.1 and v43.1 are served as
 * an extension beyond it when their CMS tables are in the data folder).
 */
export const API_VERSIONS = ['v36', 'v37', 'v38', 'v39', 'v40', 'v40.1', 'v41', 'v41.1', 'v42', 'v42.1', 'v43', 'v43.1'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];

/** The versions the SPEC names; the others in API_VERSIONS are extensions. */
export const SPEC_VERSIONS: readonly string[] = ['v36', 'v37', 'v38', 'v39', 'v40', 'v43'];

/** Installed versions the API accepts (API_VERSIONS ∩ what the data folder holds), oldest first, with a label. */
export function apiVersions(): Array<VersionInfo & { label: string; extension: boolean }> {
  const allowed = new Set<string>(API_VERSIONS);
  return listVersions()
    .filter((v) => allowed.has(v.version))
    .map((v) => ({
      ...v,
      extension: !SPEC_VERSIONS.includes(v.version),
      label: `${v.version} (${v.fiscal_year}${v.fidelity === 'derived' ? ', derived' : ''}${v.default ? ', default' : ''})`,
    }));
}

/**
 * The one version check of the API (classify, codes, batches, FHIR, agent): a requested version → its canonical
 * name. Empty or missing → the default (v40). Any spelling `normalizeVersion` reads (`V43`, `43`, `v39.1`) of an
 * installed version in API_VERSIONS is accepted; anything else is 400 `invalid_version` listing the accepted ones.
 */
export function resolveApiVersion(input: string | null | undefined): ApiVersion {
  if (input === undefined || input === null || input.trim() === '') return DEFAULT_VERSION as ApiVersion;
  const accepted = apiVersions().map((v) => v.version);
  let canonical: string | null = null;
  try {
    canonical = normalizeVersion(input);
  } catch (err) {
    if (!(err instanceof UnknownVersionError)) throw err;
  }
  if (canonical !== null && accepted.includes(canonical)) return canonical as ApiVersion;
  throw new AppError('invalid_version', `version: '${input.slice(0, 20)}' is not available on this server; accepted versions: ${accepted.join(', ')}.`, {
    accepted_versions: accepted,
  });
}
