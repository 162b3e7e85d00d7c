/**
 * Versions without complete tables (v36–v38, and v39 when `tables/v391` is absent) are derived:
 *
 *   base version's tables (the nearest complete version: v39.1, else v40)
 *   + that version's Definitions Manual appendices (msdrg/definitions-manual/vNN):
 *       A  – DRG list: titles and M/P type; formula rows of DRGs the version does not have are dropped
 *       F  – non-extensive O.R. procedures (d477, DRGs 987–989); other O.R. procedures become d468
 *       G  – CC list, H – MCC list (Part 2: "MCC only if discharged alive" → mccalive)
 *       I  – HAC lists (diagnoses and procedures)
 *   + the fiscal year's CMS code files for validity (FY2019 = v36, FY2020 = v37, FY2021 = v38).
 *
 * Codes valid in the derived year but unknown to the base take MDC, lists and CC-exclusion links
 * from their closest relative in the base (longest common code prefix). What the appendices do not
 * carry – the MDC assignment of unchanged codes, CC-exclusion lists and the DRG logic itself – is the
 * base version's. `scripts/derive-eval.ts` measures the method by deriving v39.1 from v40.
 */
import fs from 'node:fs';
import path from 'node:path';
import { dataDir } from '../config/paths';
import { codeZipPath, parseOrderFile, readOrderFile } from './codes';
import { readTables, TABLE_FILES, type RawDrg, type RawDx, type RawFormulaRow, type RawPr, type RawTables } from './tables';
import { versionSpec, type VersionSpec } from './versions';

export interface ManualData {
  drgs: Array<{ drg: number; mdc: number | null; type: 'M' | 'P' | null; title: string }>;
  /** Appendix F: non-extensive O.R. procedures (d477). */
  nonExtensiveOr: Set<string>;
  cc: Set<string>;
  mcc: Set<string>;
  mccAlive: Set<string>;
  /** Appendix I: HAC list names per diagnosis code (HAC05, hac06_sdx, hac06_show, hac11_sdx, hac11_pdx …). */
  hacDx: Map<string, Set<string>>;
  /** Appendix I: HAC procedure lists per code (hac08_proc …). */
  hacPr: Map<string, Set<string>>;
}

export function manualDir(v: string): string {
  return path.join(dataDir(), 'msdrg', 'definitions-manual', v);
}

/** Appendix A: `DRG MDC MS Description` in fixed columns (001, 4–5 MDC, 8 M/P, 11– title). */
export function parseAppendixA(text: string): ManualData['drgs'] {
  const out: ManualData['drgs'] = [];
  for (let line of text.split('\n')) {
    line = line.replace(/\r$/, '');
    const m = line.match(/^(\d{3})\s(..)\s\s(.)\s\s(.*)$/) ?? line.match(/^(\d{3})\s+()()(.*)$/);
    if (!m) continue;
    const mdc = m[2] && m[2].trim() ? Number(m[2]) : null;
    const type = m[3] === 'M' || m[3] === 'P' ? m[3] : null;
    out.push({ drg: Number(m[1]), mdc, type, title: m[4].trim() });
  }
  return out;
}

/** Appendices F–I. */
export function parseAppendixFJ(text: string): Omit<ManualData, 'drgs'> {
  const nonExtensiveOr = new Set<string>();
  const cc = new Set<string>();
  const mcc = new Set<string>();
  const mccAlive = new Set<string>();
  const hacDx = new Map<string, Set<string>>();
  const hacPr = new Map<string, Set<string>>();
  let section = '';
  let hac = 0;
  let sub = '';
  const add = (m: Map<string, Set<string>>, code: string, list: string) => {
    let s = m.get(code);
    if (!s) m.set(code, (s = new Set()));
    s.add(list);
  };
  for (let line of text.split('\n')) {
    line = line.replace(/\r$/, '');
    if (/\|\s*Appendix F\b/.test(line)) section = 'F';
    else if (/\|\s*Appendix G\b/.test(line)) section = 'G';
    else if (/\|\s*Appendix H\b/.test(line)) section = 'H1';
    else if (/^Appendix H Part 2/i.test(line)) section = 'H2';
    else if (/\|\s*Appendix I\b/.test(line)) section = 'I';
    if (section === 'I') {
      const h = line.match(/^HAC (\d+):/);
      if (h) {
        hac = Number(h[1]);
        sub = '';
        continue;
      }
      if (/^(NON-OPERATING ROOM )?PROCEDURES/.test(line)) sub = 'pr';
      else if (/^SECONDARY DIAGNOS/.test(line)) sub = 'sdx';
      else if (/^PRINCIPAL DIAGNOS/.test(line)) sub = 'pdx';
      else if (/^IN ADDITION/.test(line)) sub = 'show';
      const m = line.match(/^\s*([0-9A-Z]{3,7})\*?\s+(?:(CC|MCC)\s+)?\S/);
      if (!m || !hac || !sub) continue;
      const nn = String(hac).padStart(2, '0');
      const code = m[1];
      if (sub === 'pr') add(hacPr, code, `hac${nn}_proc`);
      else if (sub === 'pdx') add(hacDx, code, `hac${nn}_pdx`);
      else if (sub === 'show') add(hacDx, code, `hac${nn}_show`);
      else if (hac === 6 || hac === 11) add(hacDx, code, `hac${nn}_sdx`);
      else add(hacDx, code, `HAC${nn}`);
      continue;
    }
    const m = line.match(/^\s{2}([0-9A-Z]{3,7})\s/);
    if (!m) continue;
    if (section === 'F' && m[1].length === 7) nonExtensiveOr.add(m[1]);
    else if (section === 'G') cc.add(m[1]);
    else if (section === 'H1') mcc.add(m[1]);
    else if (section === 'H2') {
      mcc.add(m[1]);
      mccAlive.add(m[1]);
    }
  }
  return { nonExtensiveOr, cc, mcc, mccAlive, hacDx, hacPr };
}

export function readManual(v: string): ManualData {
  const dir = manualDir(v);
  return {
    drgs: parseAppendixA(fs.readFileSync(path.join(dir, 'appendix_A.txt'), 'latin1')),
    ...parseAppendixFJ(fs.readFileSync(path.join(dir, 'appendix_F_J.txt'), 'latin1')),
  };
}

/** Billable codes of a fiscal year's CMS order file. */
export function billableCodes(year: number, kind: 'dx' | 'pr'): string[] {
  const text = readOrderFile(year, kind);
  if (!text) throw new Error(`missing CMS ${kind} code file for FY${year} (${codeZipPath(year, kind)})`);
  return parseOrderFile(text)
    .filter((r) => r.billable)
    .map((r) => r.code);
}

/** Closest relative of a code among sorted base codes: longest common prefix (ties: the earlier). */
export function closestRelative(sorted: string[], code: string): string | null {
  if (sorted.length === 0) return null;
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < code) lo = mid + 1;
    else hi = mid;
  }
  const lcp = (a: string) => {
    let i = 0;
    while (i < a.length && i < code.length && a[i] === code[i]) i++;
    return i;
  };
  const cands = [sorted[lo - 1], sorted[lo]].filter((x): x is string => x !== undefined);
  let best: string | null = null;
  let bestLen = -1;
  for (const c of cands) {
    const l = lcp(c);
    if (l > bestLen) {
      best = c;
      bestLen = l;
    }
  }
  return best;
}

/** The severity split a DRG title names: "with MCC", "with CC", "with CC/MCC", "without CC/MCC", "without MCC". */
export type SeveritySplit = 'MCC' | 'CC' | 'CC_MCC' | 'NONE' | 'NOT_MCC';

const SPLIT = /\s+(WITH|WITHOUT)\s+(CC\/MCC|MCC|CC)\b(.*)$/;

/** A DRG title → its family (the title without the severity split) and the split. */
export function familyOf(title: string): { family: string; split: SeveritySplit | null; rest: string } {
  const t = title.toUpperCase().replace(/\s+/g, ' ').trim();
  const m = SPLIT.exec(t);
  if (!m) return { family: t, split: null, rest: '' };
  const split: SeveritySplit = m[1] === 'WITH' ? (m[2] === 'CC/MCC' ? 'CC_MCC' : (m[2] as 'MCC' | 'CC')) : m[2] === 'MCC' ? 'NOT_MCC' : 'NONE';
  return { family: t.slice(0, m.index).trim(), split, rest: m[3]!.trim() };
}

/** Whether a DRG split `to` holds every case of split `from` (e.g. "with CC/MCC" holds "with MCC" and "with CC"). */
function covers(to: SeveritySplit | null, from: SeveritySplit | null): boolean {
  if (to === null || from === null) return to === from;
  const holds: Record<SeveritySplit, SeveritySplit[]> = {
    MCC: ['MCC'],
    CC: ['CC'],
    CC_MCC: ['MCC', 'CC', 'CC_MCC'],
    NONE: ['NONE'],
    NOT_MCC: ['CC', 'NONE', 'NOT_MCC'],
  };
  return holds[to].includes(from);
}

const d3 = (n: number) => String(n).padStart(3, '0');

/** Consecutive numbers as ranges: [129, 130, 133] → "129-130, 133". */
function ranges(ns: number[]): string {
  const out: string[] = [];
  for (let i = 0; i < ns.length;) {
    let j = i;
    while (j + 1 < ns.length && ns[j + 1] === ns[j]! + 1) j++;
    out.push(j > i ? `${d3(ns[i]!)}-${d3(ns[j]!)}` : d3(ns[i]!));
    i = j + 1;
  }
  return out.join(', ');
}

function fidelityNote(rep: DeriveReport, manual: ManualData, baseTitles: Map<number, string>): string {
  const title = new Map(manual.drgs.map((d) => [d.drg, d.title]));
  const parts: string[] = [];
  if (rep.unproducible.length) {
    parts.push(
      `This derived version cannot produce DRG${rep.unproducible.length > 1 ? 's' : ''} ${ranges(rep.unproducible)} (${[...new Set(rep.unproducible.map((d) => familyOf(title.get(d) ?? '').family.toLowerCase()))].join('; ')}): the reference data (Definitions Manual appendices and MDC 08-11 diffs) does not hold their logic.`,
    );
  }
  if (rep.mapped.length) {
    const byTo = new Map<number, number[]>();
    for (const [from, to] of rep.mapped) byTo.set(to, [...(byTo.get(to) ?? []), from]);
    const devices = [...byTo.keys()].filter((to) => familyOf(title.get(to) ?? '').rest);
    parts.push(
      `DRGs ${ranges([...byTo.keys()].sort((a, b) => a - b))} take the base version's logic of DRGs ${ranges(rep.mapped.map(([f]) => f))} (the same Appendix A family, split by severity as this version's titles say)` +
        (devices.length
          ? `; the extra criteria of DRG ${devices.map((d) => `${d3(d)} ("${familyOf(title.get(d) ?? '').rest.toLowerCase()}")`).join(', ')} are not in the reference data and are not applied`
          : '') +
        '.',
    );
  }
  if (rep.ghosts.length) {
    parts.push(
      `The base version's DRGs ${ranges(rep.ghosts)} (${[...new Set(rep.ghosts.map((d) => familyOf(baseTitles.get(d) ?? '').family.toLowerCase()))].join('; ')}) do not exist in this version: a case their logic would take is grouped by the rows that follow, and its warnings say so.`,
    );
  }
  if (parts.length === 0) parts.push("Every DRG of this version's Appendix A has logic in the base version.");
  parts.push("What the appendices do not carry (MDC assignment of unchanged codes, CC exclusions, the DRG logic) is the base version's.");
  return parts.join(' ');
}

const HAC_ATTRS: Record<string, string[]> = {
  hac06_sdx: ['HAC06', 'hac06_sdx'],
  hac06_show: ['HAC06', 'hac06_show'],
  hac11_sdx: ['HAC11', 'hac11_sdx'],
  hac11_pdx: ['hac11_pdx'],
};

export interface DeriveReport {
  /** What the derived version cannot reproduce, in words (the response's fidelity note). */
  fidelityNote: string;
  /** Appendix A DRGs no row can assign (the reference data does not hold their logic). */
  unproducible: number[];
  /** Base DRGs carried over to this version's DRG of the same family: base → derived. */
  mapped: Array<[number, number]>;
  /** Base DRGs this version does not have, kept as ghost rows (a case that needs one says so). */
  ghosts: number[];
  dxValid: number;
  dxNew: number;
  dxDropped: number;
  prValid: number;
  prNew: number;
  prDropped: number;
  rowsDropped: number;
  severityChanged: number;
  orChanged: number;
}

/**
 * Apply a version's appendices and code files to a base version's raw tables (pure function).
 */
export function deriveFromBase(base: RawTables, manual: ManualData, codes: { dx: string[]; pr: string[] }, report?: Partial<DeriveReport>): RawTables {
  const rep: DeriveReport = {
    fidelityNote: '',
    unproducible: [],
    mapped: [],
    ghosts: [],
    dxValid: 0,
    dxNew: 0,
    dxDropped: 0,
    prValid: 0,
    prNew: 0,
    prDropped: 0,
    rowsDropped: 0,
    severityChanged: 0,
    orChanged: 0,
  };

  // --- diagnoses ---------------------------------------------------------------------------
  const baseDx = new Map(base.dx.map((d) => [d.code, d]));
  const baseDxSorted = [...baseDx.keys()].sort();
  const groupsOfCode = new Map<string, number[]>();
  for (const [g, list] of base.ccExclusions) {
    for (const c of list) {
      let a = groupsOfCode.get(c);
      if (!a) groupsOfCode.set(c, (a = []));
      a.push(g);
    }
  }
  const ccExclusions = new Map<number, string[]>();
  for (const [g, list] of base.ccExclusions) ccExclusions.set(g, [...list]);
  const dxValid = new Set(codes.dx);
  const dx: RawDx[] = [];
  const hacCodes = new Map<string, string[]>();
  for (const code of codes.dx) {
    let b = baseDx.get(code);
    if (!b) {
      const rel = closestRelative(baseDxSorted, code);
      b = rel ? baseDx.get(rel) : undefined;
      rep.dxNew++;
      if (rel) for (const g of groupsOfCode.get(rel) ?? []) ccExclusions.get(g)?.push(code);
    }
    const severity = manual.mcc.has(code) ? 'MCC' : manual.cc.has(code) ? 'CC' : 'NCC';
    if (baseDx.has(code) && b && b.severity !== severity) rep.severityChanged++;
    const attributes = (b?.attributes ?? []).filter((a) => a !== 'mccalive' && a !== 'MCCALIVE');
    if (manual.mccAlive.has(code)) attributes.push('mccalive');
    const lists = [...(manual.hacDx.get(code) ?? [])];
    const hacAttributes = new Set<string>();
    for (const l of lists) for (const a of HAC_ATTRS[l] ?? [l]) hacAttributes.add(a);
    if (lists.length) hacCodes.set(code, lists);
    dx.push({
      code,
      mdc: b?.mdc ?? 0,
      severity,
      exclGroup: b?.exclGroup ?? -1,
      attributes,
      dxcat: [...(b?.dxcat ?? [])],
      hacAttributes: [...hacAttributes],
      sexMdc: b?.sexMdc ? { ...b.sexMdc } : null,
    });
  }
  rep.dxValid = dx.length;
  rep.dxDropped = base.dx.filter((d) => !dxValid.has(d.code)).length;

  // --- procedures ----------------------------------------------------------------------------
  const basePr = new Map(base.pr.filter((p) => !p.code.startsWith('Z@')).map((p) => [p.code, p]));
  const basePrSorted = [...basePr.keys()].sort();
  const prValid = new Set(codes.pr);
  const pr: RawPr[] = [];
  for (const code of codes.pr) {
    let b = basePr.get(code);
    if (!b) {
      const rel = closestRelative(basePrSorted, code);
      b = rel ? basePr.get(rel) : undefined;
      rep.prNew++;
    }
    let attributes = (b?.attributes ?? []).filter((a) => !/^hac\d+_proc$/.test(a));
    let isOr = b?.isOr ?? false;
    const wasNonExt = attributes.includes('d477');
    if (manual.nonExtensiveOr.has(code)) {
      attributes = attributes.filter((a) => a !== 'd468');
      if (!attributes.includes('d477')) attributes.push('d477');
      isOr = true;
    } else if (wasNonExt) {
      // O.R. in the base but not on this version's non-extensive list: extensive O.R.
      attributes = attributes.filter((a) => a !== 'd477');
      attributes.push('d468');
    }
    if (wasNonExt !== attributes.includes('d477')) rep.orChanged++;
    const hp = [...(manual.hacPr.get(code) ?? [])];
    attributes.push(...hp);
    pr.push({ code, isOr, attributes, hacAttributes: hp });
  }
  for (const p of base.pr) if (p.code.startsWith('Z@')) pr.push({ ...p, attributes: [...p.attributes], hacAttributes: [...p.hacAttributes] });
  rep.prValid = codes.pr.length;
  rep.prDropped = [...basePr.keys()].filter((c) => !prValid.has(c)).length;

  // --- DRGs and formula rows ----------------------------------------------------------------
  // A base DRG this version does not have is carried over to this version's DRG of the same family (the same Appendix
  // A title without its severity split) when the family has no rows of its own; otherwise its rows stay as ghosts: they
  // never assign, but a case that meets one first is told that this version's DRG for it is not known.
  const known = new Set(manual.drgs.map((d) => d.drg));
  const baseTitles = new Map(base.drgs.map((d) => [d.drg, d.title]));
  const withRows = new Set(base.formulas.filter((r) => known.has(r.drg)).map((r) => r.drg));
  const families = new Map<string, Array<{ drg: number; split: SeveritySplit | null }>>();
  for (const d of manual.drgs) {
    if (withRows.has(d.drg)) continue;
    const { family, split } = familyOf(d.title);
    const list = families.get(family) ?? [];
    list.push({ drg: d.drg, split });
    families.set(family, list);
  }
  const mappedTo = new Map<number, number>();
  const formulas: RawFormulaRow[] = [];
  for (const r of base.formulas) {
    if (r.drg === 0 || r.drg === 999 || known.has(r.drg)) {
      formulas.push(r);
      continue;
    }
    let to = mappedTo.get(r.drg);
    if (to === undefined) {
      const { family, split } = familyOf(baseTitles.get(r.drg) ?? '');
      const candidates = families.get(family) ?? [];
      const fits = candidates.filter((c) => covers(c.split, split));
      to = fits.length === 1 ? fits[0]!.drg : 0;
      mappedTo.set(r.drg, to);
    }
    rep.rowsDropped++;
    if (to) {
      const familyBase = Math.min(...(families.get(familyOf(baseTitles.get(r.drg) ?? '').family) ?? []).map((c) => c.drg));
      formulas.push({ ...r, drg: to, baseDrg: familyBase, mappedFrom: r.drg });
    } else formulas.push({ ...r, ghost: true });
  }
  const baseDrgs = new Map(base.drgs.map((d) => [d.drg, d]));
  const drgs: RawDrg[] = manual.drgs.map((d) => {
    const b = baseDrgs.get(d.drg);
    return {
      drg: d.drg,
      type: d.type === 'P' ? 'SURGICAL' : d.type === 'M' ? 'MEDICAL' : 'NA',
      formulaMdcs: b?.formulaMdcs ?? (d.mdc !== null ? [d.mdc] : []),
      baseDrg: b?.baseDrg ?? d.drg,
      title: d.title,
    };
  });
  const assigning = new Set(formulas.filter((r) => !r.ghost).map((r) => r.drg));
  rep.unproducible = manual.drgs.map((d) => d.drg).filter((d) => d > 0 && d !== 998 && d !== 999 && !assigning.has(d));
  rep.mapped = [...mappedTo].filter(([, to]) => to > 0).sort((a, b) => a[0] - b[0]);
  rep.ghosts = [...mappedTo]
    .filter(([, to]) => to === 0)
    .map(([from]) => from)
    .sort((a, b) => a - b);
  rep.fidelityNote = fidelityNote(rep, manual, baseTitles);

  if (report) Object.assign(report, rep);
  return {
    dx,
    pr,
    clusters: base.clusters.map((c) => ({ ...c, choices: c.choices.map((x) => [...x]) })),
    ccExclusions,
    formulas,
    drgs,
    mdcs: new Map(base.mdcs),
    hacFormulas: base.hacFormulas.map((h) => ({ ...h })),
    hacCodes,
  };
}

function baseSpecOf(spec: VersionSpec): VersionSpec {
  if (!spec.derivedFrom) throw new Error(`${spec.version} is not a derived version`);
  const b = versionSpec(spec.derivedFrom);
  if (!b.tableDir) throw new Error(`base ${b.version} of ${spec.version} has no tables`);
  return b;
}

/** Every file a derived version is built from (for the cache key). */
export function derivationSourceFiles(spec: VersionSpec): string[] {
  const b = baseSpecOf(spec);
  const dir = path.join(dataDir(), 'msdrg', 'tables', b.tableDir as string);
  return [
    ...TABLE_FILES.map((f) => path.join(dir, f)),
    path.join(manualDir(spec.manualDir as string), 'appendix_A.txt'),
    path.join(manualDir(spec.manualDir as string), 'appendix_F_J.txt'),
    codeZipPath(spec.codeYear, 'dx'),
    codeZipPath(spec.codeYear, 'pr'),
  ];
}

export async function deriveRawTables(spec: VersionSpec, report?: Partial<DeriveReport>): Promise<RawTables> {
  const b = baseSpecOf(spec);
  const base = readTables(path.join(dataDir(), 'msdrg', 'tables', b.tableDir as string));
  const manual = readManual(spec.manualDir as string);
  return deriveFromBase(base, manual, { dx: billableCodes(spec.codeYear, 'dx'), pr: billableCodes(spec.codeYear, 'pr') }, report);
}
