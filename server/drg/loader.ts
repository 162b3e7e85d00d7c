/**
 * Loading a version: compiled form from the cache when it is fresh, otherwise compiled from the
 * TSV tables (exact versions) or derived from a base version plus Definitions Manual appendices
 * (v36–v38, see derive.ts). Engines are kept per version for the life of the process.
 */
import path from 'node:path';
import { cacheDir, dataDir } from '../config/paths';
import { cacheFile, compileTables, readCachedCompiled, sourceKey, writeCachedCompiled, type CompiledTables } from './compile';
import { GrouperEngine } from './engine';
import { readTables, TABLE_FILES, type RawTables } from './tables';
import { versionSpec, type VersionSpec } from './versions';

export interface LoadStats {
  version: string;
  fromCache: boolean;
  ms: number;
  file: string;
}

const engines = new Map<string, GrouperEngine>();
const stats = new Map<string, LoadStats>();

export function tablesDir(spec: VersionSpec): string {
  if (!spec.tableDir) throw new Error(`${spec.version} has no tables`);
  return path.join(dataDir(), 'msdrg', 'tables', spec.tableDir);
}

export function grouperCacheDir(): string {
  return path.join(cacheDir(), 'drg');
}

/** The raw (source) tables of a version: read from TSV, or derived (then also what it cannot reproduce). */
export async function rawTablesFor(spec: VersionSpec): Promise<{ raw: RawTables; fidelityNote: string | null }> {
  if (spec.tableDir) return { raw: readTables(tablesDir(spec)), fidelityNote: null };
  const { deriveRawTables } = await import('./derive');
  const report: { fidelityNote?: string } = {};
  const raw = await deriveRawTables(spec, report);
  return { raw, fidelityNote: report.fidelityNote || null };
}

function exactSourceFiles(spec: VersionSpec): string[] {
  const dir = tablesDir(spec);
  return TABLE_FILES.map((f) => path.join(dir, f));
}

function metaFor(spec: VersionSpec, key: string, notes: string[] = [], fidelityNote: string | null = null) {
  return {
    version: spec.version,
    fiscalYear: spec.fiscal_year,
    fidelity: (spec.tableDir ? 'exact' : 'derived') as 'exact' | 'derived',
    sourceKey: key,
    invalidPrIsOr: spec.major < 42,
    notes,
    fidelityNote,
  };
}

/** Files whose content determines a version's compiled form (the cache key). */
async function sourceFilesFor(spec: VersionSpec): Promise<string[]> {
  if (spec.tableDir) return exactSourceFiles(spec);
  const { derivationSourceFiles } = await import('./derive');
  return derivationSourceFiles(spec);
}

/** Compiled tables for a version, from the disk cache when fresh. */
export async function compiledTablesFor(spec: VersionSpec): Promise<{ tables: CompiledTables; fromCache: boolean; file: string }> {
  const key = sourceKey(await sourceFilesFor(spec), spec.tableDir ? 'exact' : `derived-from=${spec.derivedFrom}`);
  const folder = grouperCacheDir();
  const file = cacheFile(folder, spec.version, key);
  const cached = readCachedCompiled(folder, spec.version, key);
  if (cached) return { tables: cached, fromCache: true, file };
  const { raw, fidelityNote } = await rawTablesFor(spec);
  const notes = spec.tableDir
    ? []
    : [`derived from ${spec.derivedFrom} tables, the ${spec.manualDir} Definitions Manual appendices and the FY${spec.codeYear} code files`];
  const tables = compileTables(raw, metaFor(spec, key, notes, fidelityNote));
  writeCachedCompiled(folder, spec.version, key, tables);
  return { tables, fromCache: false, file };
}

const pending = new Map<string, Promise<GrouperEngine>>();

/** Engine for a version (lazy load + in-process cache). Accepts any spelling normalizeVersion accepts. */
export async function loadEngine(version?: string): Promise<GrouperEngine> {
  const spec = versionSpec(version);
  const hit = engines.get(spec.version);
  if (hit) return hit;
  let p = pending.get(spec.version);
  if (!p) {
    p = (async () => {
      const t0 = performance.now();
      const { tables, fromCache, file } = await compiledTablesFor(spec);
      const engine = new GrouperEngine(tables);
      engines.set(spec.version, engine);
      stats.set(spec.version, { version: spec.version, fromCache, ms: performance.now() - t0, file });
      return engine;
    })();
    pending.set(spec.version, p);
    p.finally(() => pending.delete(spec.version)).catch(() => undefined);
  }
  return p;
}

/** Already-loaded engine, or undefined (no I/O). */
export function loadedEngine(version?: string): GrouperEngine | undefined {
  return engines.get(versionSpec(version).version);
}

export function loadStats(version?: string): LoadStats | undefined {
  return stats.get(versionSpec(version).version);
}

/** Drop in-process engines (tests, benchmarks). The disk cache is kept. */
export function unloadEngines(): void {
  engines.clear();
  stats.clear();
}
