/**
 * MS-DRG grouper versions: names, fiscal years, where their logic comes from.
 *
 * Canonical names are `v36` … `v43.1`. A `.0` release is named without the suffix (`v40` = v40.0).
 * `normalizeVersion` accepts the usual spellings (see its doc comment) and throws
 * `UnknownVersionError` for anything else.
 */
import fs from 'node:fs';
import path from 'node:path';
import { dataDir } from '../config/paths';

export type Fidelity = 'exact' | 'derived';

export interface VersionSpec {
  /** Canonical name, e.g. `v40`, `v40.1`, `v39`. */
  version: string;
  /** CMS fiscal year the version is effective for, e.g. `FY2023`. */
  fiscal_year: string;
  /** Major version number (36–43). */
  major: number;
  /** Minor (0 = October release, 1 = April update). */
  minor: number;
  /** Directory under `msdrg/tables/` (e.g. `v400`), when the version has complete tables. */
  tableDir: string | null;
  /** `v36`–`v38`: derived from this base version plus Definitions Manual appendices. */
  derivedFrom: string | null;
  /** Definitions Manual appendix folder used for derivation (`msdrg/definitions-manual/vNN`). */
  manualDir: string | null;
  /** Calendar year of the CMS ICD-10 code files for this version (FY2019 → 2019). */
  codeYear: number;
}

export interface VersionInfo {
  version: string;
  fiscal_year: string;
  fidelity: Fidelity;
  default: boolean;
}

export const DEFAULT_VERSION = 'v40';

export class UnknownVersionError extends Error {
  readonly code = 'UNKNOWN_VERSION' as const;
  readonly input: string;
  readonly known: string[];
  constructor(input: string, known: string[]) {
    super(`unknown MS-DRG version "${input}" (known: ${known.join(', ')})`);
    this.name = 'UnknownVersionError';
    this.input = input;
    this.known = known;
  }
}

const FY_BY_MAJOR: Record<number, number> = { 36: 2019, 37: 2020, 38: 2021, 39: 2022, 40: 2023, 41: 2024, 42: 2025, 43: 2026 };

function tablesRoot(): string {
  return path.join(dataDir(), 'msdrg', 'tables');
}

function hasTables(dir: string): boolean {
  try {
    return fs.statSync(path.join(tablesRoot(), dir, 'drg_formulas.tsv')).isFile();
  } catch {
    return false;
  }
}

let specsCache: { root: string; specs: VersionSpec[] } | null = null;

/** All versions this installation can serve, oldest first. Reads the data directory once. */
export function versionSpecs(): VersionSpec[] {
  const root = tablesRoot();
  if (specsCache && specsCache.root === root) return specsCache.specs;
  const specs: VersionSpec[] = [];
  const exact: Array<[number, number]> = [
    [40, 0],
    [40, 1],
    [41, 0],
    [41, 1],
    [42, 0],
    [42, 1],
    [43, 0],
    [43, 1],
  ];
  const has391 = hasTables('v391');
  const base = has391 ? 'v39' : 'v40';
  for (const major of [36, 37, 38]) {
    specs.push({
      version: `v${major}`,
      fiscal_year: `FY${FY_BY_MAJOR[major]}`,
      major,
      minor: 0,
      tableDir: null,
      derivedFrom: base,
      manualDir: `v${major}`,
      codeYear: FY_BY_MAJOR[major],
    });
  }
  // v39 (= v39.1, the April 2022 update): exact when its tables are present, else derived from v40.
  specs.push({
    version: 'v39',
    fiscal_year: 'FY2022',
    major: 39,
    minor: 1,
    tableDir: has391 ? 'v391' : null,
    derivedFrom: has391 ? null : 'v40',
    manualDir: has391 ? null : 'v39',
    codeYear: 2022,
  });
  for (const [major, minor] of exact) {
    const dir = `v${major}${minor}`;
    if (!hasTables(dir)) continue;
    specs.push({
      version: minor === 0 ? `v${major}` : `v${major}.${minor}`,
      fiscal_year: `FY${FY_BY_MAJOR[major]}`,
      major,
      minor,
      tableDir: dir,
      derivedFrom: null,
      manualDir: null,
      codeYear: FY_BY_MAJOR[major],
    });
  }
  specsCache = { root, specs };
  return specs;
}

/** Public list: `[{version, fiscal_year, fidelity, default}]`, oldest first. */
export function listVersions(): VersionInfo[] {
  return versionSpecs().map((s) => ({
    version: s.version,
    fiscal_year: s.fiscal_year,
    fidelity: s.tableDir ? 'exact' : 'derived',
    default: s.version === DEFAULT_VERSION,
  }));
}

/**
 * Canonical version name for a user-supplied spelling. Case and surrounding blanks are ignored and
 * the leading `v` / `ms-drg` is optional. Accepted:
 * - `v40`, `40`, `v40.0`, `40.0`, `v400`, `400` → `v40`
 * - `v40.1`, `40.1`, `v401`, `401` → `v40.1` (three digits are the table-folder spelling `vMMm`)
 * - `v39`, `v39.1`, `v391` → `v39` (the only v39 release we have is 39.1)
 * - `v36`, `v37`, `v38` (derived versions); `v36.0` etc. too.
 * - empty / undefined → the default (`v40`).
 * Anything else throws `UnknownVersionError`.
 */
export function normalizeVersion(input?: string | number | null): string {
  if (input === undefined || input === null || String(input).trim() === '') return DEFAULT_VERSION;
  const raw = String(input).trim();
  const s = raw
    .toLowerCase()
    .replace(/^ms-?drg\s*/, '')
    .replace(/^v/, '');
  let major: number;
  let minor: number;
  let m: RegExpMatchArray | null;
  if ((m = s.match(/^(\d\d)(?:\.(\d))?$/))) {
    major = Number(m[1]);
    minor = m[2] === undefined ? 0 : Number(m[2]);
  } else if ((m = s.match(/^(\d\d)(\d)$/))) {
    major = Number(m[1]);
    minor = Number(m[2]);
  } else {
    throw new UnknownVersionError(
      raw,
      versionSpecs().map((x) => x.version),
    );
  }
  const specs = versionSpecs();
  let spec: VersionSpec | undefined;
  if (major === 39 && (minor === 0 || minor === 1)) spec = specs.find((x) => x.major === 39);
  else spec = specs.find((x) => x.major === major && (x.major < 39 ? minor === 0 : x.minor === minor));
  if (!spec)
    throw new UnknownVersionError(
      raw,
      specs.map((x) => x.version),
    );
  return spec.version;
}

export function versionSpec(input?: string | number | null): VersionSpec {
  const v = normalizeVersion(input);
  const spec = versionSpecs().find((x) => x.version === v);
  if (!spec)
    throw new UnknownVersionError(
      String(input),
      versionSpecs().map((x) => x.version),
    );
  return spec;
}
