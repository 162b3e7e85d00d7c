/**
 * Compiling a version's tables into interned, array-based structures, and caching that compiled
 * form on disk (`cacheDir()/drg/<version>-<key>.bin`).
 *
 * Every attribute name (diagnosis lists, dxcat lists, HAC lists, procedure lists and the grouper's
 * own flags) gets a small integer id. Codes are rows in typed arrays; their attribute lists are
 * slices of one pool. Formula rows keep their source text and are compiled to predicates when the
 * grouper is instantiated (see engine.ts), which takes a few milliseconds.
 */
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import type { RawTables } from './tables';
import { parseFormula, returnCodeMarker, formulaOperands } from './formula';
import { buildCodeTable } from './codeindex';
import { Interner } from '../config/interner';

/** Bump when the compiled layout or compile logic changes: invalidates every cache file. */
export const COMPILER_VERSION = 12;

/** Flags computed by the grouper itself; they live in the procedure/flag part of the mask. */
export const SYNTHETIC_FLAGS = [
  'ANYDX',
  'ALIVE',
  'DIED',
  'AMA',
  'XFRNBA',
  'INVALID_DSTAT',
  'INVALID_PDX',
  'PDX_ECODE',
  'INVALID_SEX',
  'ONLY:incident',
  'MULTST',
  'BILATERAL',
  'FOUR_VESSELS',
  'FOUR_STENTS',
  'FOUR_DRUG_ELUTING_STENTS',
  'FOUR_NON_DRUG_ELUTING_STENTS',
  'MULTFUSE',
  'SINGLEFUSIONCTR',
  'SGLANTCTR',
  'SGLPOST1CTR',
  'SGLANTSECTXCTR',
  'SGLPOSTFUSECTR',
  'MDC_20_FALL_THRU',
] as const;

/** Significant-trauma body-site lists counted by MULTST. */
export const ST_SITES = ['sthead', 'stchest', 'stabdom', 'stkidney', 'sturin', 'stpel', 'stuplimb', 'stlolimb'];
/** Joint lists counted by BILATERAL (two or more different sites). */
export const JOINT_SITES = ['righthip', 'lefthip', 'leftknee', 'rightknee', 'leftankle', 'rightankle'];

/** dxFlags bits. */
export const DXF_ECODE = 1;
export const DXF_MCCALIVE = 2;
export const DXF_INCIDENT = 4;
export const DXF_SEXMDC = 8;

/**
 * Procedure counter bits (prCnt): bits 0-5 joint sites, 6-8 stent weight (1-4), 9 NORstent,
 * 10 NORdrugstent, 11-14 vessel weight, 15 sglantfuse, 16 sglpostfuse1, 17 sglantsectXfuse,
 * 18 sglpostfuse, 19 ORPROC (d468|d477), 20 has hac procedure list.
 */
export const PRC_NORSTENT = 1 << 9;
export const PRC_NORDRUGSTENT = 1 << 10;
export const PRC_SGLANTFUSE = 1 << 15;
export const PRC_SGLPOSTFUSE1 = 1 << 16;
export const PRC_SGLANTSECTX = 1 << 17;
export const PRC_SGLPOSTFUSE = 1 << 18;

/** Return codes a control row can produce. */
export const CONTROL_GRC: Record<string, string> = {
  INVALID_PDX: 'INVALID_PDX',
  PDX_ECODE: 'DX_CANNOT_BE_PDX',
  INVALID_SEX: 'INVALID_SEX',
  INVALID_DSTAT: 'INVALID_DISCHARGE_STATUS',
};

export interface CompiledRow {
  mdc: number;
  rank: number;
  drg: number;
  baseDrg: number;
  surgical: 'SURGICAL' | 'MEDICAL' | 'NA';
  rerouteMdc: number;
  /** Return code for control rows (drg 0, no reroute), '' otherwise. */
  grc: string;
  /** Index into suppLists (0 = no suppression). */
  supp: number;
  formula: string;
  /** True for rows that can never match (markers like `MDC05`, `xpt grc 7`). */
  inert: boolean;
  /**
   * Derived versions: a row of the base version whose DRG this version does not have. It never assigns; a case that
   * satisfies it before any other row is grouped further down and told so (see derive.ts).
   */
  ghost: boolean;
  /** Derived versions: the base DRG this row was carried over from when it was mapped to this version's DRG (0 = not mapped). */
  mappedFrom: number;
}

export interface CompiledMeta {
  version: string;
  fiscalYear: string;
  fidelity: 'exact' | 'derived';
  sourceKey: string;
  compilerVersion: number;
  /** v40–v41 report unrecognised procedure codes as OR; v42+ do not. */
  invalidPrIsOr: boolean;
  notes: string[];
  /** Derived versions: what the version cannot reproduce (the DRGs it cannot produce), in words. */
  fidelityNote?: string | null;
}

/** Everything the engine needs, in a form that serialises to a flat binary file. */
export interface CompiledTables {
  meta: CompiledMeta;
  attrNames: string[];
  suppNames: string[];
  /** Bit masks over suppNames, one per distinct severity-suppression list; [0] = 0 (none). */
  suppLists: number[];
  hacListNames: string[];
  hacListNum: number[];
  dxCodes: string[];
  /** Hash table of dxCodes (codeindex.ts). */
  dxTable: Int32Array;
  dxMdc: Uint8Array;
  dxSev: Uint8Array;
  dxExcl: Int32Array;
  dxSexM: Uint8Array;
  dxSexF: Uint8Array;
  dxFlags: Uint8Array;
  dxStBits: Uint8Array;
  dxSuppBits: Uint32Array;
  dxAttrOff: Uint32Array;
  dxAttrIds: Uint16Array;
  dxHacOff: Uint32Array;
  dxHacIds: Uint8Array;
  /** CC-exclusion lists: list id → sorted diagnosis indices (exclOff has maxId + 2 entries). */
  exclOff: Uint32Array;
  exclDx: Int32Array;
  prCodes: string[];
  /** Hash table of prCodes (codeindex.ts). */
  prTable: Int32Array;
  prOr: Uint8Array;
  prCnt: Uint32Array;
  prAttrOff: Uint32Array;
  prAttrIds: Uint16Array;
  prClusterOff: Uint32Array;
  prClusterIds: Uint16Array;
  /** Parallel to prClusterIds: bit k set when the procedure satisfies choice k+1 of that cluster. */
  prClusterMask: Uint32Array;
  clusterNames: string[];
  clusterSupp: Uint32Array;
  clusterAttrOff: Uint32Array;
  clusterAttrIds: Uint16Array;
  clusterChoiceOff: Uint32Array;
  choiceCodeOff: Uint32Array;
  choiceCodes: Int32Array;
  rows: CompiledRow[];
  drgs: Array<{ drg: number; title: string; type: 'SURGICAL' | 'MEDICAL' | 'NA'; mdc: number }>;
  mdcs: Array<{ mdc: number; title: string }>;
  hacFormulas: Array<{ hac: number; title: string; formula: string }>;
}

function hacListNumber(name: string): number {
  const m = name.match(/^hac(\d+)/i);
  return m ? Number(m[1]) : 0;
}

export function compileTables(raw: RawTables, meta: Omit<CompiledMeta, 'compilerVersion'>): CompiledTables {
  const attrs = new Interner();
  for (const f of SYNTHETIC_FLAGS) attrs.id(f);
  attrs.id('ORPROC');

  // --- severity suppression lists ---------------------------------------------------------
  const suppNames = new Interner();
  const suppListKeys = new Map<string, number>([['', 0]]);
  const suppLists: number[] = [0];
  for (const r of raw.formulas) {
    for (const s of r.severitySuppression) suppNames.id(s);
  }
  if (suppNames.names.length > 31) throw new Error(`too many severity-suppression names (${suppNames.names.length})`);
  const suppIdOf = (names: string[]): number => {
    const key = [...names].sort().join(',');
    let id = suppListKeys.get(key);
    if (id === undefined) {
      let m = 0;
      for (const n of names) m |= 1 << (suppNames.get(n) as number);
      id = suppLists.length;
      suppLists.push(m);
      suppListKeys.set(key, id);
    }
    return id;
  };

  // --- diagnoses ----------------------------------------------------------------------------
  const dxSorted = [...raw.dx].sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  const nDx = dxSorted.length;
  const dxIndex = new Map<string, number>();
  dxSorted.forEach((d, i) => dxIndex.set(d.code, i));
  const dxMdc = new Uint8Array(nDx);
  const dxSev = new Uint8Array(nDx);
  const dxExcl = new Int32Array(nDx);
  const dxSexM = new Uint8Array(nDx).fill(255);
  const dxSexF = new Uint8Array(nDx).fill(255);
  const dxFlags = new Uint8Array(nDx);
  const dxStBits = new Uint8Array(nDx);
  const dxSuppBits = new Uint32Array(nDx);
  const dxAttrOff = new Uint32Array(nDx + 1);
  const dxAttrPool: number[] = [];
  const dxHacOff = new Uint32Array(nDx + 1);
  const dxHacPool: number[] = [];
  const hacLists = new Interner();
  dxSorted.forEach((d, i) => {
    dxMdc[i] = d.mdc;
    dxSev[i] = d.severity === 'MCC' ? 2 : d.severity === 'CC' ? 1 : 0;
    dxExcl[i] = d.exclGroup;
    if (d.sexMdc) {
      dxFlags[i] |= DXF_SEXMDC;
      if (d.sexMdc.M >= 0) dxSexM[i] = d.sexMdc.M;
      if (d.sexMdc.F >= 0) dxSexF[i] = d.sexMdc.F;
    }
    const set = new Set<string>([...d.attributes, ...d.dxcat, ...d.hacAttributes]);
    dxAttrOff[i] = dxAttrPool.length;
    for (const a of set) dxAttrPool.push(attrs.id(a));
    for (const a of d.attributes) {
      if (a === 'ecode') dxFlags[i] |= DXF_ECODE;
      else if (a === 'mccalive' || a === 'MCCALIVE') dxFlags[i] |= DXF_MCCALIVE;
      else if (a === 'incident') dxFlags[i] |= DXF_INCIDENT;
      const st = ST_SITES.indexOf(a);
      if (st >= 0) dxStBits[i] |= 1 << st;
    }
    let sb = 0;
    for (const a of set) {
      const k = suppNames.get(a);
      if (k !== undefined) sb |= 1 << k;
    }
    dxSuppBits[i] = sb >>> 0;
    dxHacOff[i] = dxHacPool.length;
    const hl = raw.hacCodes.get(d.code) ?? [];
    const sortedHl = [...hl].sort((a, b) => hacListNumber(a) - hacListNumber(b) || (a < b ? -1 : 1));
    for (const h of sortedHl) dxHacPool.push(hacLists.id(h));
  });
  dxAttrOff[nDx] = dxAttrPool.length;
  dxHacOff[nDx] = dxHacPool.length;

  // CC exclusions: the principal diagnosis's list id (dx.excl_group) names the secondary
  // diagnoses whose CC/MCC it excludes (cc_exclusions.tsv: list id → codes).
  let maxGroup = -1;
  for (const g of raw.ccExclusions.keys()) if (g > maxGroup) maxGroup = g;
  const exclOff = new Uint32Array(maxGroup + 2);
  const exclPool: number[] = [];
  for (let g = 0; g <= maxGroup; g++) {
    exclOff[g] = exclPool.length;
    const codes = raw.ccExclusions.get(g);
    if (!codes) continue;
    const idx = [...new Set(codes.map((c) => dxIndex.get(c)).filter((x): x is number => x !== undefined))].sort((a, b) => a - b);
    exclPool.push(...idx);
  }
  exclOff[maxGroup + 1] = exclPool.length;

  // --- procedures and clusters -----------------------------------------------------------------
  const realPr = raw.pr.filter((p) => !p.code.startsWith('Z@')).sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  const pseudo = new Map(raw.pr.filter((p) => p.code.startsWith('Z@')).map((p) => [p.code, p]));
  const nPr = realPr.length;
  const prIndex = new Map<string, number>();
  realPr.forEach((p, i) => prIndex.set(p.code, i));
  const prOr = new Uint8Array(nPr);
  const prCnt = new Uint32Array(nPr);
  const prAttrOff = new Uint32Array(nPr + 1);
  const prAttrPool: number[] = [];
  const prAttrList = (p: { attributes: string[]; hacAttributes: string[] }): string[] => {
    const set = new Set<string>([...p.attributes, ...p.hacAttributes]);
    if (set.has('d468') || set.has('d477')) set.add('ORPROC');
    return [...set];
  };
  realPr.forEach((p, i) => {
    prOr[i] = p.isOr ? 1 : 0;
    const names = prAttrList(p);
    prAttrOff[i] = prAttrPool.length;
    for (const a of names) prAttrPool.push(attrs.id(a));
    let c = 0;
    for (const a of names) {
      const j = JOINT_SITES.indexOf(a);
      if (j >= 0) c |= 1 << j;
      let m: RegExpMatchArray | null;
      if ((m = a.match(/^stent([1-4])$/))) c = (c & ~(7 << 6)) | (Number(m[1]) << 6);
      else if ((m = a.match(/^vessel([1-9])$/))) c = (c & ~(15 << 11)) | (Number(m[1]) << 11);
      else if (a === 'NORstent') c |= PRC_NORSTENT;
      else if (a === 'NORdrugstent') c |= PRC_NORDRUGSTENT;
      else if (a === 'sglantfuse') c |= PRC_SGLANTFUSE;
      else if (a === 'sglpostfuse1') c |= PRC_SGLPOSTFUSE1;
      else if (a === 'sglantsectXfuse') c |= PRC_SGLANTSECTX;
      else if (a === 'sglpostfuse') c |= PRC_SGLPOSTFUSE;
    }
    prCnt[i] = c >>> 0;
  });
  prAttrOff[nPr] = prAttrPool.length;

  const clusters = raw.clusters.filter((c) => c.choices.length > 0);
  const nCl = clusters.length;
  const clusterNames = clusters.map((c) => c.id);
  const clusterSupp = new Uint32Array(nCl);
  const clusterAttrOff = new Uint32Array(nCl + 1);
  const clusterAttrPool: number[] = [];
  const clusterChoiceOff = new Uint32Array(nCl + 1);
  const choiceCodeOffArr: number[] = [];
  const choiceCodePool: number[] = [];
  const prClusters: Array<Map<number, number>> = Array.from({ length: nPr }, () => new Map());
  let nChoices = 0;
  clusters.forEach((c, ci) => {
    let m = 0;
    for (const x of c.suppressionMdcs) if (x >= 0 && x < 32) m |= 1 << x;
    clusterSupp[ci] = m >>> 0;
    clusterAttrOff[ci] = clusterAttrPool.length;
    const p = pseudo.get(c.id);
    if (p) for (const a of prAttrList(p)) clusterAttrPool.push(attrs.id(a));
    clusterChoiceOff[ci] = nChoices;
    if (c.choices.length > 31) throw new Error(`cluster ${c.id} has too many choices`);
    c.choices.forEach((choice, k) => {
      choiceCodeOffArr.push(choiceCodePool.length);
      for (const code of choice) {
        const pi = prIndex.get(code);
        if (pi === undefined) continue;
        choiceCodePool.push(pi);
        const m = prClusters[pi];
        m.set(ci, (m.get(ci) ?? 0) | (1 << k));
      }
      nChoices++;
    });
  });
  clusterAttrOff[nCl] = clusterAttrPool.length;
  clusterChoiceOff[nCl] = nChoices;
  choiceCodeOffArr.push(choiceCodePool.length);
  const prClusterOff = new Uint32Array(nPr + 1);
  const prClusterPool: number[] = [];
  const prClusterMaskPool: number[] = [];
  for (let i = 0; i < nPr; i++) {
    prClusterOff[i] = prClusterPool.length;
    for (const [ci, m] of prClusters[i]) {
      prClusterPool.push(ci);
      prClusterMaskPool.push(m);
    }
  }
  prClusterOff[nPr] = prClusterPool.length;

  // --- formula rows ------------------------------------------------------------------------------
  const sortedRows = raw.formulas
    .map((r, i) => ({ r, i }))
    .sort((a, b) => a.r.mdc - b.r.mdc || a.r.rank - b.r.rank || a.i - b.i)
    .map((x) => x.r);
  const rows: CompiledRow[] = [];
  for (const r of sortedRows) {
    const marker = returnCodeMarker(r.formula);
    let grc = '';
    let inert = false;
    if (marker !== null || r.formula === '') {
      inert = true;
    } else {
      const ops = formulaOperands(parseFormula(r.formula));
      if (r.drg === 0 && r.rerouteMdc === 0) {
        for (const [tok, code] of Object.entries(CONTROL_GRC)) if (ops.has(tok)) grc = code;
        if (!grc) inert = true; // markers such as MDC05, (ANY:ami) & (ami), "5": no-ops
      }
      for (const o of ops) if (!o.includes(':') || o.startsWith('ONLY:')) attrs.id(o);
      for (const o of ops) {
        const k = o.indexOf(':');
        if (k > 0 && !o.startsWith('ONLY:')) attrs.id(o.slice(k + 1));
      }
    }
    rows.push({
      mdc: r.mdc,
      rank: r.rank,
      drg: r.drg,
      baseDrg: r.baseDrg,
      surgical: r.surgical,
      rerouteMdc: r.rerouteMdc,
      grc,
      supp: suppIdOf(r.severitySuppression),
      formula: r.formula,
      inert,
      ghost: r.ghost === true,
      mappedFrom: r.mappedFrom ?? 0,
    });
  }
  for (const h of raw.hacFormulas) {
    for (const o of formulaOperands(parseFormula(h.formula))) {
      const k = o.indexOf(':');
      attrs.id(k > 0 ? o.slice(k + 1) : o);
    }
  }

  if (attrs.names.length > 65535) throw new Error('too many attributes');

  const drgMdc = new Map<number, number>();
  for (const r of rows) if (r.drg > 0 && !drgMdc.has(r.drg)) drgMdc.set(r.drg, r.mdc);

  return {
    meta: { ...meta, compilerVersion: COMPILER_VERSION },
    attrNames: attrs.names,
    suppNames: suppNames.names,
    suppLists,
    hacListNames: hacLists.names,
    hacListNum: hacLists.names.map(hacListNumber),
    dxCodes: dxSorted.map((d) => d.code),
    dxTable: buildCodeTable(dxSorted.map((d) => d.code)),
    dxMdc,
    dxSev,
    dxExcl,
    dxSexM,
    dxSexF,
    dxFlags,
    dxStBits,
    dxSuppBits,
    dxAttrOff,
    dxAttrIds: Uint16Array.from(dxAttrPool),
    dxHacOff,
    dxHacIds: Uint8Array.from(dxHacPool),
    exclOff,
    exclDx: Int32Array.from(exclPool),
    prCodes: realPr.map((p) => p.code),
    prTable: buildCodeTable(realPr.map((p) => p.code)),
    prOr,
    prCnt,
    prAttrOff,
    prAttrIds: Uint16Array.from(prAttrPool),
    prClusterOff,
    prClusterIds: Uint16Array.from(prClusterPool),
    prClusterMask: Uint32Array.from(prClusterMaskPool),
    clusterNames,
    clusterSupp,
    clusterAttrOff,
    clusterAttrIds: Uint16Array.from(clusterAttrPool),
    clusterChoiceOff,
    choiceCodeOff: Uint32Array.from(choiceCodeOffArr),
    choiceCodes: Int32Array.from(choiceCodePool),
    rows,
    drgs: raw.drgs.map((d) => ({ drg: d.drg, title: d.title, type: d.type, mdc: d.formulaMdcs.length === 1 ? d.formulaMdcs[0] : (drgMdc.get(d.drg) ?? -1) })),
    mdcs: [...raw.mdcs].map(([mdc, title]) => ({ mdc, title })),
    hacFormulas: raw.hacFormulas.map((h) => ({ ...h })),
  };
}

// ---------------------------------------------------------------------------------------------
// Binary cache: "DRGC" magic, u32 header length, JSON header, then 8-byte aligned typed arrays.

const TYPED: Record<string, { new (b: ArrayBuffer, o: number, n: number): ArrayLike<number>; BYTES_PER_ELEMENT: number }> = {
  Uint8Array,
  Uint16Array,
  Uint32Array,
  Int32Array,
};

type TypedArray = Uint8Array | Uint16Array | Uint32Array | Int32Array;

function isTyped(v: unknown): v is TypedArray {
  return v instanceof Uint8Array || v instanceof Uint16Array || v instanceof Uint32Array || v instanceof Int32Array;
}

export function serializeCompiled(t: CompiledTables): Buffer {
  const header: Record<string, unknown> = {};
  const arrays: Array<{ key: string; type: string; offset: number; length: number; data: TypedArray }> = [];
  let offset = 0;
  for (const [k, v] of Object.entries(t)) {
    if (isTyped(v)) {
      arrays.push({ key: k, type: v.constructor.name, offset, length: v.length, data: v });
      offset += Math.ceil(v.byteLength / 8) * 8;
    } else if (k === 'dxCodes' || k === 'prCodes') {
      header[k] = (v as string[]).join('\n');
    } else {
      header[k] = v;
    }
  }
  header.__arrays = arrays.map(({ key, type, offset: o, length }) => ({ key, type, offset: o, length }));
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const headLen = 8 + json.length;
  const pad = (8 - (headLen % 8)) % 8;
  const out = Buffer.alloc(headLen + pad + offset);
  out.write('DRGC', 0, 'latin1');
  out.writeUInt32LE(json.length, 4);
  json.copy(out, 8);
  const base = headLen + pad;
  for (const a of arrays) {
    Buffer.from(a.data.buffer, a.data.byteOffset, a.data.byteLength).copy(out, base + a.offset);
  }
  return out;
}

export function deserializeCompiled(buf: Buffer): CompiledTables {
  if (buf.toString('latin1', 0, 4) !== 'DRGC') throw new Error('not a compiled grouper file');
  const jsonLen = buf.readUInt32LE(4);
  const header = JSON.parse(buf.toString('utf8', 8, 8 + jsonLen)) as Record<string, unknown>;
  const headLen = 8 + jsonLen;
  const base = headLen + ((8 - (headLen % 8)) % 8);
  // One aligned copy of the data section; typed arrays view into it.
  const data = new ArrayBuffer(buf.length - base);
  new Uint8Array(data).set(buf.subarray(base));
  const out: Record<string, unknown> = { ...header };
  for (const a of header.__arrays as Array<{ key: string; type: string; offset: number; length: number }>) {
    const Ctor = TYPED[a.type];
    out[a.key] = new Ctor(data, a.offset, a.length);
  }
  delete out.__arrays;
  out.dxCodes = (header.dxCodes as string) === '' ? [] : (header.dxCodes as string).split('\n');
  out.prCodes = (header.prCodes as string) === '' ? [] : (header.prCodes as string).split('\n');
  return out as unknown as CompiledTables;
}

/** A key for a set of source files: names, sizes and modification times, plus the compiler version. */
export function sourceKey(files: string[], extra = ''): string {
  const h = crypto.createHash('sha256');
  h.update(`compiler=${COMPILER_VERSION};${extra};`);
  for (const f of files) {
    try {
      const st = fs.statSync(f);
      h.update(`${f}|${st.size}|${st.mtimeMs};`);
    } catch {
      h.update(`${f}|missing;`);
    }
  }
  return h.digest('hex').slice(0, 16);
}

export function cacheFile(cacheFolder: string, name: string, key: string): string {
  return path.join(cacheFolder, `${name}-${key}.bin`);
}

/** The cached compiled form if it exists and matches the key; null otherwise (never throws). */
export function readCachedCompiled(cacheFolder: string, name: string, key: string): CompiledTables | null {
  try {
    const t = deserializeCompiled(fs.readFileSync(cacheFile(cacheFolder, name, key)));
    if (t.meta.sourceKey === key && t.meta.compilerVersion === COMPILER_VERSION) return t;
  } catch {
    // missing or unreadable: compile from source
  }
  return null;
}

/**
 * Store a compiled form, replacing stale files of the same version. Cache problems never fail
 * grouping: an unwritable cache folder only means compiling again next time.
 */
export function writeCachedCompiled(cacheFolder: string, name: string, key: string, tables: CompiledTables): void {
  const file = cacheFile(cacheFolder, name, key);
  try {
    fs.mkdirSync(cacheFolder, { recursive: true });
    for (const f of fs.readdirSync(cacheFolder)) {
      if (f.startsWith(`${name}-`) && f.endsWith('.bin') && f !== path.basename(file)) fs.rmSync(path.join(cacheFolder, f), { force: true });
    }
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, serializeCompiled(tables));
    fs.renameSync(tmp, file);
  } catch {
    // read-only cache dir: keep going with the in-memory form
  }
}
