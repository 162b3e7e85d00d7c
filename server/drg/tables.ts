/**
 * Reading the grouper's TSV tables (`msdrg/tables/vNNN/*.tsv`, see its README) into plain objects.
 * This is the "source" form; `compile.ts` turns it into the fast structures the engine uses.
 */
import fs from 'node:fs';
import path from 'node:path';

export type SeverityLevel = 'MCC' | 'CC' | 'NCC';

export interface RawDx {
  code: string;
  mdc: number;
  severity: SeverityLevel;
  /** CC-exclusion list id, or -1 when never excluded. */
  exclGroup: number;
  attributes: string[];
  dxcat: string[];
  hacAttributes: string[];
  /** MDC by sex for the ~74 sex-dependent principal diagnoses. */
  sexMdc: { M: number; F: number } | null;
}

export interface RawPr {
  code: string;
  isOr: boolean;
  attributes: string[];
  hacAttributes: string[];
}

export interface RawCluster {
  id: string;
  suppressionMdcs: number[];
  /** choices[k] = codes that satisfy choice k+1. */
  choices: string[][];
}

export interface RawFormulaRow {
  mdc: number;
  rank: number;
  drg: number;
  baseDrg: number;
  surgical: 'SURGICAL' | 'MEDICAL' | 'NA';
  rerouteMdc: number;
  drgSeverity: number;
  severitySuppression: string[];
  formula: string;
  /** Derived versions only: a base row whose DRG the version does not have (kept to notice cases that need it). */
  ghost?: boolean;
  /** Derived versions only: the base DRG this row was mapped from. */
  mappedFrom?: number;
}

export interface RawDrg {
  drg: number;
  type: 'SURGICAL' | 'MEDICAL' | 'NA';
  formulaMdcs: number[];
  baseDrg: number;
  title: string;
}

export interface RawHacFormula {
  hac: number;
  title: string;
  formula: string;
}

export interface RawTables {
  dx: RawDx[];
  /** Real ICD-10-PCS codes and cluster pseudo-codes (`Z@nnnn`). */
  pr: RawPr[];
  clusters: RawCluster[];
  /** CC-exclusion list id → principal diagnoses that exclude it. */
  ccExclusions: Map<number, string[]>;
  formulas: RawFormulaRow[];
  drgs: RawDrg[];
  mdcs: Map<number, string>;
  hacFormulas: RawHacFormula[];
  /** HAC list names per code (`hac_codes.tsv`), e.g. T8141XA → [HAC12, HAC13, hac11_sdx]. */
  hacCodes: Map<string, string[]>;
}

export const TABLE_FILES = [
  'dx.tsv',
  'pr.tsv',
  'clusters.tsv',
  'cc_exclusions.tsv',
  'drg_formulas.tsv',
  'drgs.tsv',
  'mdcs.tsv',
  'hac_formulas.tsv',
  'hac_codes.tsv',
];

function list(cell: string | undefined): string[] {
  if (!cell) return [];
  const out: string[] = [];
  for (const x of cell.split(',')) {
    const t = x.trim();
    if (t) out.push(t);
  }
  return out;
}

/** Rows of a TSV file without its header line. */
export function readTsv(file: string): string[][] {
  const text = fs.readFileSync(file, 'utf8');
  const lines = text.split('\n');
  const rows: string[][] = [];
  for (let i = 1; i < lines.length; i++) {
    let line = lines[i];
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (line === '') continue;
    rows.push(line.split('\t'));
  }
  return rows;
}

function num(s: string | undefined, dflt = 0): number {
  if (s === undefined || s.trim() === '') return dflt;
  const n = Number(s);
  return Number.isFinite(n) ? n : dflt;
}

function surgical(s: string | undefined): 'SURGICAL' | 'MEDICAL' | 'NA' {
  return s === 'SURGICAL' || s === 'MEDICAL' ? s : 'NA';
}

function parseSexMdc(cell: string | undefined): { M: number; F: number } | null {
  if (!cell) return null;
  const out = { M: -1, F: -1 };
  for (const part of cell.split(',')) {
    const [k, v] = part.split(':');
    if (k === 'M') out.M = num(v, -1);
    if (k === 'F') out.F = num(v, -1);
  }
  return out;
}

export function readTables(dir: string): RawTables {
  const f = (name: string) => path.join(dir, name);

  const dx: RawDx[] = readTsv(f('dx.tsv')).map((r) => ({
    code: r[0],
    mdc: num(r[1]),
    severity: (r[2] === 'MCC' || r[2] === 'CC' ? r[2] : 'NCC') as SeverityLevel,
    exclGroup: num(r[3], -1),
    attributes: list(r[4]),
    dxcat: list(r[5]),
    hacAttributes: list(r[6]),
    sexMdc: parseSexMdc(r[7]),
  }));

  const pr: RawPr[] = readTsv(f('pr.tsv')).map((r) => ({
    code: r[0],
    isOr: r[1] === '1',
    attributes: list(r[3]),
    hacAttributes: list(r[5]),
  }));

  const clusterMap = new Map<string, RawCluster>();
  for (const r of readTsv(f('clusters.tsv'))) {
    let c = clusterMap.get(r[0]);
    if (!c) {
      c = { id: r[0], suppressionMdcs: list(r[1]).map((x) => num(x)), choices: [] };
      clusterMap.set(r[0], c);
    }
    const k = num(r[2], 1) - 1;
    while (c.choices.length <= k) c.choices.push([]);
    c.choices[k].push(...list(r[3]));
  }

  const ccExclusions = new Map<number, string[]>();
  for (const r of readTsv(f('cc_exclusions.tsv'))) {
    const g = num(r[0], -1);
    let a = ccExclusions.get(g);
    if (!a) ccExclusions.set(g, (a = []));
    a.push(r[1]);
  }

  const formulas: RawFormulaRow[] = readTsv(f('drg_formulas.tsv')).map((r) => ({
    mdc: num(r[0]),
    rank: num(r[1]),
    drg: num(r[2]),
    baseDrg: num(r[3]),
    surgical: surgical(r[4]),
    rerouteMdc: num(r[5]),
    drgSeverity: num(r[6]),
    severitySuppression: list(r[8]),
    formula: (r[9] ?? '').trim(),
  }));

  const drgs: RawDrg[] = readTsv(f('drgs.tsv')).map((r) => ({
    drg: num(r[0]),
    formulaMdcs: list(r[1]).map((x) => num(x)),
    type: surgical(r[2]),
    baseDrg: num(r[3]),
    title: r[4] ?? '',
  }));

  const mdcs = new Map<number, string>();
  for (const r of readTsv(f('mdcs.tsv'))) mdcs.set(num(r[0]), r[1] ?? '');

  const hacFormulas: RawHacFormula[] = readTsv(f('hac_formulas.tsv')).map((r) => ({
    hac: num(r[0]),
    title: r[1] ?? '',
    formula: (r[2] ?? '').trim(),
  }));

  const hacCodes = new Map<string, string[]>();
  for (const r of readTsv(f('hac_codes.tsv'))) {
    if (r[1] === 'dx') hacCodes.set(r[0], list(r[2]));
  }

  return { dx, pr, clusters: [...clusterMap.values()], ccExclusions, formulas, drgs, mdcs, hacFormulas, hacCodes };
}
