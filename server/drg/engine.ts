/**
 * The grouping engine for one compiled version. It follows the Definitions Manual flow:
 *
 *   1. Edits and code validation: principal/secondary diagnoses and procedures are looked up;
 *      discharge status and sex are checked.
 *   2. Mask: the attributes of the claim (PDX:x, SDX:x, procedure lists), procedure clusters with
 *      their MDC suppression, and the grouper's own flags (ALIVE, MULTST, BILATERAL, stent and
 *      fusion counters, error flags).
 *   3. CC/MCC: each secondary diagnosis's level after CC exclusion by the principal diagnosis and
 *      the "MCC only if discharged alive" rule; each formula row then drops codes on its severity-
 *      suppression lists (and, in the final pass, codes that meet HAC criteria).
 *   4. HAC: diagnoses on a HAC list that were not present on admission and meet the HAC formula.
 *   5. Grouping, run twice (initial and final): the pre-MDC set (0) in rank order, else the set of
 *      the principal diagnosis's MDC (sex-dependent for some codes); a matching row either assigns a
 *      DRG, reroutes (→ MDC 24/25/11 from pre-MDC, → 29 for unrelated OR procedures) or ends in
 *      DRG 999 with a return code.
 *
 * Hot path: no per-case allocation beyond the result object. Attribute sets are generation-stamped
 * Int32Arrays and every formula row is a compiled predicate.
 */
import type { CompiledTables, CompiledRow } from './compile';
import {
  DXF_INCIDENT,
  DXF_MCCALIVE,
  DXF_SEXMDC,
  PRC_NORDRUGSTENT,
  PRC_NORSTENT,
  PRC_SGLANTFUSE,
  PRC_SGLANTSECTX,
  PRC_SGLPOSTFUSE,
  PRC_SGLPOSTFUSE1,
  SYNTHETIC_FLAGS,
} from './compile';
import { compileFormula, parseFormula, type FormulaNode, type Predicate } from './formula';
import type {
  DxDetail,
  GroupInput,
  GroupOptions,
  GroupResult,
  HacStatus,
  HospitalStatus,
  MedSurg,
  PrDetail,
  ReturnCode,
  Severity,
  SeverityFlag,
} from './types';

const VALID_DSTAT = new Set([
  1, 2, 3, 4, 5, 6, 7, 20, 21, 30, 43, 50, 51, 61, 62, 63, 64, 65, 66, 69, 70, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91,
  92, 93, 94, 95,
]);
const XFRNBA_DSTAT = new Set([2, 5, 66, 82, 85, 94]);
const AFFECTS = ['NONE', 'INITIAL', 'FINAL', 'BOTH'] as const;

const FLAG_NAMES = SYNTHETIC_FLAGS;
const FLAG_SET = new Set<string>(FLAG_NAMES);

/** One grouping pass (initial or final). */
export interface PassOutcome {
  drg: number;
  mdc: number;
  surgical: 'SURGICAL' | 'MEDICAL' | 'NA';
  baseDrg: number;
  grc: ReturnCode;
  /** Index of the row that assigned the DRG (-1 for errors). */
  row: number;
  /** Reroute rows that led to it (-1 when none). */
  via0: number;
  via1: number;
  /** Severity (0/1/2) the assigning row saw; -1 when none. */
  severity: number;
}

/** Compact result used by the CLI and the benchmark (no per-code detail). */
export interface CoreResult {
  drg: number;
  mdc: number;
  surgical: 'SURGICAL' | 'MEDICAL' | 'NA';
  grc: ReturnCode;
  initialDrg: number;
  initialMdc: number;
  initialSurgical: 'SURGICAL' | 'MEDICAL' | 'NA';
  initialGrc: ReturnCode;
}

function popcount(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

export function normalizeCode(code: unknown): string {
  return String(code ?? '')
    .trim()
    .replace(/\./g, '')
    .toUpperCase();
}

/** The CMS grouper's own reading of a code: upper-cased, otherwise exactly as given. */
export function strictCode(code: unknown): string {
  const s = typeof code === 'string' ? code : String(code ?? '');
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 97 && c <= 122) return s.toUpperCase();
  }
  return s;
}

/** Discharge status as the grouper uses it: a valid UB-04 code, or -1. */
export function parseDischargeStatus(ds: unknown, alive: unknown): number {
  if (ds === undefined || ds === null) return alive === false ? 20 : 1;
  const s = String(ds).trim();
  if (!/^\d{1,2}$/.test(s)) return -1;
  const n = Number(s);
  return VALID_DSTAT.has(n) ? n : -1;
}

/** POA of diagnosis k. No POA array, or no entry for k: 'Y' (as the CMS grouper's callers send). */
function poaChar(poa: GroupInput['poa'], k: number): string {
  if (!Array.isArray(poa)) return 'Y';
  const v = poa[k];
  if (v === undefined || v === null) return 'Y';
  return String(v).trim().toUpperCase().slice(0, 1);
}

function hospitalStatusOf(h: unknown): HospitalStatus {
  if (h === undefined || h === null) return 'NOT_EXEMPT';
  const s = String(h ?? '').trim().toUpperCase().replace(/[-\s]/g, '_');
  if (s === 'EXEMPT' || s === 'Y') return 'EXEMPT';
  if (s === 'UNKNOWN' || s === 'U') return 'UNKNOWN';
  return 'NOT_EXEMPT';
}

const pad3 = (n: number) => String(n).padStart(3, '0');
const pad2 = (n: number) => String(n).padStart(2, '0');
const typeOf = (s: 'SURGICAL' | 'MEDICAL' | 'NA'): 'M' | 'P' | null => (s === 'SURGICAL' ? 'P' : s === 'MEDICAL' ? 'M' : null);
const medSurgOf = (s: 'SURGICAL' | 'MEDICAL' | 'NA'): MedSurg => (s === 'NA' ? 'NONE' : s);
const sevName = (v: number): Severity | 'NONE' => (v === 2 ? 'MCC' : v === 1 ? 'CC' : v === 0 ? 'NON_CC' : 'NONE');

export class GrouperEngine {
  readonly t: CompiledTables;
  readonly version: string;
  readonly fiscalYear: string;
  readonly fidelity: 'exact' | 'derived';
  /**
   * Whether per-code severity flags name row suppression MCC/CC_EXCLUDED_BY_DRG_LOGIC (the CMS
   * grouper does so for v43; for v40/v39 it reports plain MCC/CC). Reporting only.
   */
  private readonly drgLogicFlags: boolean;
  /** Tables in the v39.1 dialect (return codes as `xpt grc N` rows). */
  private readonly v391Dialect: boolean;
  /** Marking looks at the principal procedure first even when it is not an O.R. procedure (before v42). */
  private readonly principalFirstAlways: boolean;

  private readonly dxIndex = new Map<string, number>();
  private readonly prIndex = new Map<string, number>();
  private readonly rows: CompiledRow[];
  private readonly preds: Predicate[];
  private readonly rowInert: Uint8Array;
  private readonly rowSupp: Uint8Array;
  private readonly setStart = new Int32Array(100).fill(-1);
  private readonly setEnd = new Int32Array(100).fill(-1);
  private readonly hacPreds = new Map<number, Predicate>();
  private readonly drgTitle = new Map<number, string>();
  private readonly mdcTitle = new Map<number, string>();
  private readonly suppLists: Int32Array;
  private readonly clusterFull: Uint32Array;

  /** Attribute id of every name (tooling); the flags the engine sets are in `F`. */
  private readonly A = new Map<string, number>();
  /** Ids of the grouper's own flags (-1 when the version's formulas never test them). */
  private readonly F: Record<(typeof FLAG_NAMES)[number], number>;

  // --- scratch (reused by every case; the engine is synchronous) ---
  private readonly P: Int32Array;
  private readonly S: Int32Array;
  private readonly B: Int32Array;
  private readonly U: Int32Array;
  private g = 0;
  private readonly clStamp: Int32Array;
  private readonly clSeen: Uint32Array;
  private clCand: Int32Array = new Int32Array(64);
  private nClCand = 0;
  private clSat: Int32Array = new Int32Array(64);
  private nClSat = 0;
  private cap = 0;
  private dxIdx: Int32Array = new Int32Array(0);
  private dxEff: Uint8Array = new Uint8Array(0);
  private dxExclF: Uint8Array = new Uint8Array(0);
  private dxDeath: Uint8Array = new Uint8Array(0);
  private dxHacMet: Uint8Array = new Uint8Array(0);
  private prCap = 0;
  private prIdx: Int32Array = new Int32Array(0);
  private prSupp: Uint32Array = new Uint32Array(0);
  private nDx = 0;
  private nPr = 0;
  private pdx = -1;
  private pdxMdc = -1;
  private finalPass = false;
  private sevStamp: Int32Array;
  private sevVal: Int8Array;
  private sevGen = 0;

  constructor(tables: CompiledTables) {
    this.t = tables;
    this.version = tables.meta.version;
    this.fiscalYear = tables.meta.fiscalYear;
    this.fidelity = tables.meta.fidelity;
    this.drgLogicFlags = Number(/^v(\d+)/.exec(this.version)?.[1] ?? 0) >= 41;
    this.v391Dialect = tables.rows.some((r) => /^xpt\s+grc/.test(r.formula));
    this.principalFirstAlways = Number(/^v(\d+)/.exec(this.version)?.[1] ?? 99) < 42;
    tables.dxCodes.forEach((c, i) => this.dxIndex.set(c, i));
    tables.prCodes.forEach((c, i) => this.prIndex.set(c, i));
    const idOf = new Map<string, number>();
    tables.attrNames.forEach((n, i) => idOf.set(n, i));
    for (const n of tables.attrNames) this.A.set(n, idOf.get(n) as number);
    const f = {} as Record<(typeof FLAG_NAMES)[number], number>;
    for (const n of FLAG_NAMES) f[n] = idOf.get(n) ?? -1;
    this.F = f;
    const synthetic = new Set<string>(FLAG_NAMES);
    const resolver = { id: (n: string) => idOf.get(n) ?? -1, isSynthetic: (n: string) => synthetic.has(n) };
    this.rows = tables.rows;
    this.preds = [];
    this.rowInert = new Uint8Array(this.rows.length);
    this.rowSupp = new Uint8Array(this.rows.length);
    const never: Predicate = () => false;
    this.rows.forEach((r, i) => {
      this.rowInert[i] = r.inert ? 1 : 0;
      this.rowSupp[i] = r.supp;
      this.preds.push(r.inert ? never : compileFormula(parseFormula(r.formula), resolver, r.mdc));
      if (r.mdc >= 0 && r.mdc < 100) {
        if (this.setStart[r.mdc] < 0) this.setStart[r.mdc] = i;
        this.setEnd[r.mdc] = i + 1;
      }
    });
    for (const h of tables.hacFormulas) this.hacPreds.set(h.hac, compileFormula(parseFormula(h.formula), resolver, -1));
    for (const d of tables.drgs) this.drgTitle.set(d.drg, d.title);
    for (const m of tables.mdcs) this.mdcTitle.set(m.mdc, m.title);
    this.suppLists = Int32Array.from(tables.suppLists);
    const n = tables.attrNames.length;
    this.P = new Int32Array(n);
    this.S = new Int32Array(n);
    this.B = new Int32Array(n);
    this.U = new Int32Array(n);
    const nCl = tables.clusterNames.length;
    this.clStamp = new Int32Array(nCl);
    this.clSeen = new Uint32Array(nCl);
    this.clusterFull = new Uint32Array(nCl);
    for (let c = 0; c < nCl; c++) {
      const k = tables.clusterChoiceOff[c + 1] - tables.clusterChoiceOff[c];
      this.clusterFull[c] = k >= 32 ? 0xffffffff : ((1 << k) - 1) >>> 0;
    }
    this.sevStamp = new Int32Array(tables.suppLists.length);
    this.sevVal = new Int8Array(tables.suppLists.length);
    this.ensure(32, 32);
  }

  private ensure(nDx: number, nPr: number): void {
    if (nDx > this.cap) {
      this.cap = Math.max(nDx, this.cap * 2);
      this.dxIdx = new Int32Array(this.cap);
      this.dxEff = new Uint8Array(this.cap);
      this.dxExclF = new Uint8Array(this.cap);
      this.dxDeath = new Uint8Array(this.cap);
      this.dxHacMet = new Uint8Array(this.cap);
    }
    if (nPr > this.prCap) {
      this.prCap = Math.max(nPr, this.prCap * 2);
      this.prIdx = new Int32Array(this.prCap);
      this.prSupp = new Uint32Array(this.prCap);
    }
  }

  private nextGen(): number {
    if (this.g >= 0x7ffffff0) {
      this.P.fill(0);
      this.S.fill(0);
      this.B.fill(0);
      this.clStamp.fill(0);
      this.g = 0;
    }
    return ++this.g;
  }

  dxIndexOf(code: string): number {
    return this.dxIndex.get(code) ?? -1;
  }
  prIndexOf(code: string): number {
    return this.prIndex.get(code) ?? -1;
  }
  drgTitleOf(drg: number): string {
    return this.drgTitle.get(drg) ?? '';
  }
  mdcTitleOf(mdc: number): string {
    return this.mdcTitle.get(mdc) ?? '';
  }

  /** Set one of the grouper's own flags in the mask. */
  private flag(id: number): void {
    if (id >= 0) {
      this.B[id] = this.g;
      this.U[id] = 0;
    }
  }

  /** CC exclusion: the secondary diagnosis is on the principal diagnosis's exclusion list. */
  private excludedByPdx(sdx: number): boolean {
    const pdx = this.pdx;
    if (pdx < 0) return false;
    const grp = this.t.dxExcl[pdx];
    const off = this.t.exclOff;
    if (grp < 0 || grp + 1 >= off.length) return false;
    const ids = this.t.exclDx;
    let lo = off[grp];
    let hi = off[grp + 1] - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = ids[mid];
      if (v === sdx) return true;
      if (v < sdx) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }

  /** Highest secondary-diagnosis severity for a suppression list, cached per pass. */
  private severity(supp: number): number {
    if (this.sevStamp[supp] === this.sevGen) return this.sevVal[supp];
    const m = this.suppLists[supp];
    const bits = this.t.dxSuppBits;
    let max = 0;
    for (let k = 1; k < this.nDx; k++) {
      const e = this.dxEff[k];
      if (e <= max) continue;
      if (m !== 0 && (bits[this.dxIdx[k]] & m) !== 0) continue;
      if (this.finalPass && this.dxHacMet[k]) continue;
      max = e;
      if (max === 2) break;
    }
    this.sevStamp[supp] = this.sevGen;
    this.sevVal[supp] = max;
    return max;
  }

  /** First matching row of a formula set, or -1. */
  private evalSet(mdc: number): number {
    if (mdc < 0 || mdc >= 100) return -1;
    const s = this.setStart[mdc];
    if (s < 0) return -1;
    const e = this.setEnd[mdc];
    const { P, S, B, U, g } = this;
    for (let r = s; r < e; r++) {
      if (this.rowInert[r]) continue;
      const v = this.severity(this.rowSupp[r]);
      if (this.preds[r](P, S, B, U, g, v)) return r;
    }
    return -1;
  }

  /** Every row of a set from `from` on (inclusive) that assigns a DRG and is true. */
  private candidatesFrom(from: number): number[] {
    const r0 = this.rows[from];
    const e = this.setEnd[r0.mdc];
    const out: number[] = [];
    const { P, S, B, U, g } = this;
    for (let r = from; r < e; r++) {
      if (this.rowInert[r] || this.rows[r].drg === 0) continue;
      const v = this.severity(this.rowSupp[r]);
      if (this.preds[r](P, S, B, U, g, v)) out.push(r);
    }
    return out;
  }

  private error(grc: ReturnCode): PassOutcome {
    return { drg: 999, mdc: 0, surgical: 'NA', baseDrg: 999, grc, row: -1, via0: -1, via1: -1, severity: -1 };
  }

  private pass(final: boolean): PassOutcome {
    this.finalPass = final;
    this.sevGen++;
    if (this.sevGen > 0x7ffffff0) {
      this.sevGen = 1;
      this.sevStamp.fill(0);
    }
    let r = this.evalSet(0);
    let mdc: number;
    if (r >= 0) {
      mdc = this.pdxMdc;
    } else {
      mdc = this.pdxMdc;
      r = this.evalSet(mdc);
      if (r < 0) return this.error('UNGROUPABLE');
    }
    // Follow reroutes: pre-MDC → 24/25/11 (the result takes that MDC), any MDC → 29 (keeps its MDC).
    let via0 = -1;
    let via1 = -1;
    for (let hop = 0; hop < 4; hop++) {
      const row = this.rows[r];
      if (row.grc) return this.error(row.grc as ReturnCode);
      if (row.rerouteMdc === 0) break;
      if (row.mdc === 0) mdc = row.rerouteMdc;
      if (hop === 0) via0 = r;
      else via1 = r;
      const next = this.evalSet(row.rerouteMdc);
      if (next < 0) return this.error('UNGROUPABLE');
      r = next;
    }
    const row = this.rows[r];
    if (row.drg === 0) return this.error('UNGROUPABLE');
    return {
      drg: row.drg,
      mdc,
      surgical: row.surgical,
      baseDrg: row.baseDrg,
      grc: 'OK',
      row: r,
      via0,
      via1,
      // DRG 998 (principal diagnosis invalid as discharge diagnosis) has no severity level.
      severity: row.surgical === 'NA' ? -1 : this.severity(row.supp),
    };
  }

  // ------------------------------------------------------------------------------------------
  // Case setup

  private codes: string[] = [];
  private prCodesIn: string[] = [];
  private sexCode = 2;
  private ds = 1;

  /** Steps 1–3: validation, mask, CC/MCC levels. Returns nothing; state lives in scratch. */
  private prepare(input: GroupInput, lenient: boolean): void {
    const t = this.t;
    const dxIn = Array.isArray(input.dx) ? input.dx : [];
    const prIn = Array.isArray(input.pr) ? input.pr : [];
    const nDx = dxIn.length;
    const nPr = prIn.length;
    this.ensure(nDx + 1, nPr + 1);
    this.nDx = nDx;
    this.nPr = nPr;
    const codes = this.codes;
    codes.length = nDx;
    for (let k = 0; k < nDx; k++) {
      const raw = dxIn[k];
      const c = lenient ? normalizeCode(raw) : strictCode(raw);
      codes[k] = c;
      this.dxIdx[k] = this.dxIndex.get(c) ?? -1;
    }
    const prCodes = this.prCodesIn;
    prCodes.length = nPr;
    for (let j = 0; j < nPr; j++) {
      const raw = prIn[j];
      const c = lenient ? normalizeCode(raw) : strictCode(raw);
      prCodes[j] = c;
      this.prIdx[j] = this.prIndex.get(c) ?? -1;
      this.prSupp[j] = 0;
    }
    const sx = typeof input.sex === 'string' ? input.sex.trim().toUpperCase() : '';
    this.sexCode = sx === 'M' || sx === 'MALE' || sx === '1' ? 0 : sx === 'F' || sx === 'FEMALE' || sx === '2' ? 1 : 2;
    const ds = parseDischargeStatus(input.dischargeStatus, input.alive);
    this.ds = ds;
    const died = ds === 20;

    const g = this.nextGen();
    const { P, S, B, U, F } = this;
    this.flag(F.ANYDX);
    if (ds < 0) this.flag(F.INVALID_DSTAT);
    if (!died) this.flag(F.ALIVE);
    else this.flag(F.DIED);
    if (ds === 7) this.flag(F.AMA);
    if (XFRNBA_DSTAT.has(ds)) this.flag(F.XFRNBA);

    // Principal diagnosis
    const pdx = nDx > 0 ? this.dxIdx[0] : -1;
    this.pdx = pdx;
    this.pdxMdc = -1;
    const pc = nDx > 0 ? codes[0] : '';
    if (pdx < 0) this.flag(F.INVALID_PDX);
    const c0 = pc.charCodeAt(0);
    if (c0 === 86 || c0 === 87 || c0 === 88 || c0 === 89) this.flag(F.PDX_ECODE); // V W X Y
    const aOff = t.dxAttrOff;
    const aIds = t.dxAttrIds;
    let stBits = 0;
    if (pdx >= 0) {
      for (let q = aOff[pdx], qe = aOff[pdx + 1]; q < qe; q++) P[aIds[q]] = g;
      let mdc = t.dxMdc[pdx];
      if (t.dxFlags[pdx] & DXF_SEXMDC) {
        const m = this.sexCode === 0 ? t.dxSexM[pdx] : this.sexCode === 1 ? t.dxSexF[pdx] : 255;
        if (m !== 255) mdc = m;
        else if (this.sexCode === 2) this.flag(F.INVALID_SEX);
      }
      this.pdxMdc = mdc;
      if (mdc === 20) this.flag(F.MDC_20_FALL_THRU);
      stBits = t.dxStBits[pdx];
    }

    // Secondary diagnoses
    let allIncident = true;
    for (let k = 1; k < nDx; k++) {
      const i = this.dxIdx[k];
      this.dxHacMet[k] = 0;
      if (i < 0) {
        this.dxEff[k] = 0;
        this.dxExclF[k] = 0;
        this.dxDeath[k] = 0;
        continue;
      }
      for (let q = aOff[i], qe = aOff[i + 1]; q < qe; q++) S[aIds[q]] = g;
      stBits |= t.dxStBits[i];
      const fl = t.dxFlags[i];
      if (!(fl & DXF_INCIDENT)) allIncident = false;
      const excl = this.excludedByPdx(i);
      const death = died && (fl & DXF_MCCALIVE) !== 0;
      this.dxExclF[k] = excl ? 1 : 0;
      this.dxDeath[k] = death ? 1 : 0;
      this.dxEff[k] = excl || death ? 0 : t.dxSev[i];
    }
    if (pdx >= 0 && t.dxFlags[pdx] & DXF_INCIDENT && allIncident) this.flag(F['ONLY:incident']);
    if (popcount(stBits) >= 2) this.flag(F.MULTST);

    // Procedure clusters: a cluster is satisfied when every choice has a code on the claim. Its
    // pseudo-code joins the claim; its components lose their attributes in the cluster's MDCs.
    this.nClCand = 0;
    this.nClSat = 0;
    const cOff = t.prClusterOff;
    const cIds = t.prClusterIds;
    const cMask = t.prClusterMask;
    for (let j = 0; j < nPr; j++) {
      const p = this.prIdx[j];
      if (p < 0) continue;
      for (let q = cOff[p], qe = cOff[p + 1]; q < qe; q++) {
        const c = cIds[q];
        if (this.clStamp[c] !== g) {
          this.clStamp[c] = g;
          this.clSeen[c] = 0;
          if (this.nClCand === this.clCand.length) {
            const a = new Int32Array(this.clCand.length * 2);
            a.set(this.clCand);
            this.clCand = a;
          }
          this.clCand[this.nClCand++] = c;
        }
        this.clSeen[c] |= cMask[q];
      }
    }
    for (let x = 0; x < this.nClCand; x++) {
      const c = this.clCand[x];
      if (this.clSeen[c] !== this.clusterFull[c]) continue;
      if (this.nClSat === this.clSat.length) {
        const a = new Int32Array(this.clSat.length * 2);
        a.set(this.clSat);
        this.clSat = a;
      }
      this.clSat[this.nClSat++] = c;
      const sup = t.clusterSupp[c];
      if (sup === 0) continue;
      for (let j = 0; j < nPr; j++) {
        const p = this.prIdx[j];
        if (p < 0) continue;
        for (let q = cOff[p], qe = cOff[p + 1]; q < qe; q++) {
          if (cIds[q] === c) {
            this.prSupp[j] |= sup;
            break;
          }
        }
      }
    }

    // Procedure attributes and the counting flags.
    const pOff = t.prAttrOff;
    const pIds = t.prAttrIds;
    let joints = 0;
    let stentsDrug = 0;
    let stentsBare = 0;
    let vessels = 0;
    let sglAnt = 0;
    let sglPost1 = 0;
    let sglAntSectX = 0;
    let sglPost = 0;
    for (let j = 0; j < nPr; j++) {
      const p = this.prIdx[j];
      if (p < 0) continue;
      const sup = this.prSupp[j] | 0;
      for (let q = pOff[p], qe = pOff[p + 1]; q < qe; q++) {
        const a = pIds[q];
        if (B[a] !== g) {
          B[a] = g;
          U[a] = sup;
        } else U[a] &= sup;
      }
      const c = t.prCnt[p];
      if (c !== 0) {
        joints |= c & 63;
        const sw = (c >>> 6) & 7;
        if (c & PRC_NORDRUGSTENT) stentsDrug += sw;
        if (c & PRC_NORSTENT) stentsBare += sw;
        vessels += (c >>> 11) & 15;
        if (c & PRC_SGLANTFUSE) sglAnt++;
        if (c & PRC_SGLPOSTFUSE1) sglPost1++;
        if (c & PRC_SGLANTSECTX) sglAntSectX++;
        if (c & PRC_SGLPOSTFUSE) sglPost++;
      }
    }
    for (let x = 0; x < this.nClSat; x++) {
      const c = this.clSat[x];
      for (let q = t.clusterAttrOff[c], qe = t.clusterAttrOff[c + 1]; q < qe; q++) {
        const a = t.clusterAttrIds[q];
        B[a] = g;
        U[a] = 0;
      }
    }
    if (popcount(joints) > 1) this.flag(F.BILATERAL);
    if (stentsBare >= 4) this.flag(F.FOUR_NON_DRUG_ELUTING_STENTS);
    if (stentsDrug >= 4) this.flag(F.FOUR_DRUG_ELUTING_STENTS);
    if (stentsDrug + stentsBare >= 4) this.flag(F.FOUR_STENTS);
    if (vessels >= 4) this.flag(F.FOUR_VESSELS);
    if (sglAnt + sglPost1 > 1) this.flag(F.MULTFUSE);
    if (sglAntSectX > 1) this.flag(F.SGLANTSECTXCTR);
    if (sglPost > 1) this.flag(F.SGLPOSTFUSECTR);
    if (sglAnt + sglPost >= 3) this.flag(F.SINGLEFUSIONCTR);
    if (sglAnt >= 2) this.flag(F.SGLANTCTR);
    if (sglPost1 >= 2) this.flag(F.SGLPOST1CTR);
  }

  // ------------------------------------------------------------------------------------------
  // HAC (hospital-acquired conditions)

  private hacStatus: Array<HacStatus[] | null> = [];
  private hacGrc: ReturnCode = 'OK';
  private anyHacMet = false;

  /**
   * HAC logic (after the initial grouping; skipped when that ended in an edit error). A secondary
   * diagnosis on a HAC list meets the criteria when it was not present on admission (POA not Y/W)
   * and the HAC's formula holds. Its CC/MCC then does not count in the final grouping. Missing or
   * invalid POA on such codes, or an UNKNOWN hospital status, make the final DRG 999.
   */
  private evaluateHacs(input: GroupInput, applicable: boolean): void {
    const t = this.t;
    const hosp = hospitalStatusOf(input.hospitalStatus);
    this.anyHacMet = false;
    this.hacGrc = 'OK';
    const hs = this.hacStatus;
    hs.length = this.nDx;
    if (!applicable) {
      for (let k = 0; k < this.nDx; k++) hs[k] = null;
      return;
    }
    let invalidPoaOnClaim = false;
    let firstMetK = -1;
    let metWithInvalidPoa = false;
    let hac6SdxMet = false;
    for (let k = 0; k < this.nDx; k++) hs[k] = null;
    for (let k = 1; k < this.nDx; k++) {
      const i = this.dxIdx[k];
      if (i < 0) continue;
      const h0 = t.dxHacOff[i];
      const h1 = t.dxHacOff[i + 1];
      if (h0 === h1) continue;
      const st: HacStatus[] = [];
      const poa = poaChar(input.poa, k);
      for (let q = h0; q < h1; q++) {
        if (t.hacListNames[t.dxHacIds[q]].endsWith('_pdx')) {
          // a principal-diagnosis list (HAC 11): not a HAC list for a secondary diagnosis
          st.push('NOT_ON_HAC_LIST');
          continue;
        }
        if (hosp === 'EXEMPT') {
          st.push('HAC_NOT_APPLICABLE_EXEMPT');
          continue;
        }
        if (poa === 'Y' || poa === 'W') {
          st.push('HAC_CRITERIA_NOT_MET');
          continue;
        }
        if (this.dxExclF[k]) {
          // CC-excluded by the principal diagnosis: the HAC does not apply
          st.push('HAC_NOT_APPLICABLE_EXCLUSION');
          continue;
        }
        const num = t.hacListNum[t.dxHacIds[q]];
        const pred = this.hacPreds.get(num);
        const met = pred ? pred(this.P, this.S, this.B, this.U, this.g, 0) : false;
        st.push(met ? 'HAC_CRITERIA_MET' : 'HAC_CRITERIA_NOT_MET');
        if (met && num === 6 && t.hacListNames[t.dxHacIds[q]] !== 'hac06_show') hac6SdxMet = true;
      }
      if (!st.some((x) => x !== 'NOT_ON_HAC_LIST')) continue;
      if (hosp !== 'EXEMPT' && !this.dxExclF[k] && poa !== 'Y' && poa !== 'W' && poa !== 'N' && poa !== 'U') invalidPoaOnClaim = true;
      hs[k] = st;
    }
    // A code on the CAUTI "show" list counts only together with a catheter-associated UTI code.
    if (!hac6SdxMet) {
      for (let k = 1; k < this.nDx; k++) {
        const st = hs[k];
        if (!st) continue;
        const i = this.dxIdx[k];
        for (let q = t.dxHacOff[i], x = 0; q < t.dxHacOff[i + 1]; q++, x++) {
          if (t.hacListNames[t.dxHacIds[q]] === 'hac06_show' && st[x] === 'HAC_CRITERIA_MET') st[x] = 'HAC_CRITERIA_NOT_MET';
        }
      }
    }
    for (let k = 1; k < this.nDx; k++) {
      const st = hs[k];
      if (!st || !st.includes('HAC_CRITERIA_MET')) continue;
      this.dxHacMet[k] = 1;
      this.anyHacMet = true;
      if (firstMetK < 0) firstMetK = k;
      const poa = poaChar(input.poa, k);
      if (poa !== 'N' && poa !== 'U') metWithInvalidPoa = true;
    }
    if (!this.anyHacMet) return;
    if (hosp === 'NOT_EXEMPT') {
      if (metWithInvalidPoa || invalidPoaOnClaim) this.hacGrc = 'HAC_MISSING_ONE_POA';
    } else if (hosp === 'UNKNOWN') {
      // The CMS grouper names the "multiple" code whenever the claim has two or more secondary
      // diagnoses, whatever their POA (peer_claims_cms: 452 of 452 such claims).
      const p = poaChar(input.poa, firstMetK);
      if (this.nDx - 1 >= 2) this.hacGrc = 'HAC_STATUS_INVALID_MULT_HACS_POA_NOT_Y_W';
      else if (p === 'N' || p === 'U') this.hacGrc = 'HAC_STATUS_INVALID_POA_N_OR_U';
      else this.hacGrc = 'HAC_STATUS_INVALID_POA_INVALID_OR_1';
    }
  }


  // ------------------------------------------------------------------------------------------
  // Marking: which codes affected a grouping (detail path only, never on the hot path)

  private readonly astCache = new Map<number, FormulaNode>();

  private ast(row: number): FormulaNode {
    let a = this.astCache.get(row);
    if (!a) {
      a = parseFormula(this.rows[row].formula);
      this.astCache.set(row, a);
    }
    return a;
  }

  /** Interpreted evaluation of one node against the current mask (same semantics as the predicate). */
  private evalNode(n: FormulaNode, bit: number, v: number): boolean {
    switch (n.kind) {
      case 'or':
        return n.items.some((x) => this.evalNode(x, bit, v));
      case 'and':
        return n.items.every((x) => this.evalNode(x, bit, v));
      case 'not':
        return !this.evalNode(n.item, bit, v);
      case 'const':
        return n.value;
      case 'operand': {
        if (n.prefix === '' && n.name === 'MCC') return v === 2;
        if (n.prefix === '' && n.name === 'CC') return v === 1;
        const id = this.A.get(n.prefix === 'ONLY' ? `ONLY:${n.name}` : n.name);
        if (id === undefined) return false;
        const g = this.g;
        if (n.prefix === 'PDX') return this.P[id] === g;
        if (n.prefix === 'SDX') return this.S[id] === g;
        if (n.prefix === 'ANY') return this.P[id] === g || this.S[id] === g;
        return this.B[id] === g && (bit === 0 || (this.U[id] & bit) === 0);
      }
    }
  }

  /** Operands that make a true formula true: every child of an AND, the true children of an OR. */
  private collectMatched(n: FormulaNode, bit: number, v: number, out: string[]): boolean {
    if (!this.evalNode(n, bit, v)) return false;
    switch (n.kind) {
      case 'and':
        for (const x of n.items) this.collectMatched(x, bit, v, out);
        break;
      case 'or':
        // short-circuit: the first true alternative is the one that counts
        for (const x of n.items) if (this.collectMatched(x, bit, v, out)) break;
        break;
      case 'operand': {
        const k = n.prefix ? `${n.prefix}:${n.name}` : n.name;
        if (!out.includes(k)) out.push(k);
        break;
      }
      default:
        break;
    }
    return true;
  }

  private hasDxAttr(i: number, name: string): boolean {
    const id = this.A.get(name);
    if (id === undefined) return false;
    const t = this.t;
    for (let q = t.dxAttrOff[i]; q < t.dxAttrOff[i + 1]; q++) if (t.dxAttrIds[q] === id) return true;
    return false;
  }

  private hasPrAttr(p: number, name: string): boolean {
    const id = this.A.get(name);
    if (id === undefined) return false;
    const t = this.t;
    for (let q = t.prAttrOff[p]; q < t.prAttrOff[p + 1]; q++) if (t.prAttrIds[q] === id) return true;
    return false;
  }

  /**
   * Marking ("affects DRG"), as the CMS grouper reports it. For every row of the chain that produced
   * the DRG (reroute rows and the assigning row) the operands that made it true are collected (all
   * children of an AND, the first true alternative of an OR). Secondary diagnoses are visited in
   * clinical-significance order (MCC, CC, others; then by code); each takes the first remaining operand
   * it supplies: an `SDX:`/`ANY:` list it has (ANY only when the principal diagnosis lacks it), or the
   * row's CC/MCC level when its own level counts (not excluded, not suppressed by the row). MULTST
   * marks the codes with a significant-trauma site. In MDC 15 a non-"incident" secondary diagnosis
   * that kept the case out of DRG 795 is marked. Procedures: the first one carrying all the row's
   * procedure lists, else per list the first one carrying it, else the components of a cluster.
   */
  private markPass(out: PassOutcome, final: boolean, dxMarks: Uint8Array, prMarks: Uint8Array): void {
    const bitMark = final ? 2 : 1;
    if (out.grc !== 'OK') return;
    dxMarks[0] |= bitMark;
    if (out.row < 0) return;
    for (const r of [out.via0, out.via1, out.row]) {
      // the assigning row, and a pre-MDC reroute row (multiple trauma, HIV, kidney transplant)
      if (r < 0 || (r !== out.row && this.rows[r].mdc !== 0)) continue;
      this.markRow(r, r === out.row ? out.severity : this.severity(this.rows[r].supp), bitMark, dxMarks, prMarks);
    }
    const row = this.rows[out.row];
    const t = this.t;
    const inc = this.F['ONLY:incident'];
    if (row.mdc === 15 && row.drg !== 795 && inc >= 0 && this.pdx >= 0 && t.dxFlags[this.pdx] & DXF_INCIDENT && this.B[inc] !== this.g) {
      for (const k of this.clinicalOrder()) {
        if (!(t.dxFlags[this.dxIdx[k]] & DXF_INCIDENT)) {
          dxMarks[k] |= bitMark;
          break;
        }
      }
    }
  }

  /** Valid secondary diagnoses in clinical-significance order: MCC, CC, the rest; then by code. */
  private clinicalOrder(): number[] {
    const t = this.t;
    const order: number[] = [];
    for (let k = 1; k < this.nDx; k++) if (this.dxIdx[k] >= 0) order.push(k);
    order.sort((a, b) => t.dxSev[this.dxIdx[b]] - t.dxSev[this.dxIdx[a]] || (this.codes[a] < this.codes[b] ? -1 : this.codes[a] > this.codes[b] ? 1 : a - b));
    return order;
  }

  private markRow(r: number, sev: number, bitMark: number, dxMarks: Uint8Array, prMarks: Uint8Array): void {
    const row = this.rows[r];
    const t = this.t;
    const setMdc = row.mdc === 0 ? this.pdxMdc : row.mdc;
    const bit = setMdc > 0 && setMdc < 31 ? 1 << setMdc : 0;
    const keys: string[] = [];
    this.collectMatched(this.ast(r), bit, sev, keys);
    const pdx = this.pdx;
    const remaining = new Set(keys);
    const supp = this.suppLists[row.supp];
    if (remaining.delete('MULTST')) {
      for (let k = 1; k < this.nDx; k++) if (this.dxIdx[k] >= 0 && t.dxStBits[this.dxIdx[k]] !== 0) dxMarks[k] |= bitMark;
    }
    for (const k of this.clinicalOrder()) {
      const i = this.dxIdx[k];
      for (const key of remaining) {
        if (!key.includes(':') && pdx >= 0 && this.hasDxAttr(pdx, key)) continue;
        if (key === 'MCC' || key === 'CC') {
          // (the v39.1 logic also skips HAC codes in the final marking; later versions do not)
          const blocked =
            this.dxExclF[k] || this.dxDeath[k] || (supp !== 0 && (t.dxSuppBits[i] & supp) !== 0) || (bitMark === 2 && this.v391Dialect && this.dxHacMet[k]);
          if (!blocked && t.dxSev[i] === (key === 'MCC' ? 2 : 1)) {
            dxMarks[k] |= bitMark;
            remaining.delete(key);
            break;
          }
          continue;
        }
        let name: string | null = null;
        if (key.startsWith('SDX:')) name = key.slice(4);
        else if (key.startsWith('ANY:')) name = pdx >= 0 && this.hasDxAttr(pdx, key.slice(4)) ? null : key.slice(4); // the PDX satisfies it
        else if (!key.includes(':')) name = key;
        if (name !== null && this.hasDxAttr(i, name)) {
          dxMarks[k] |= bitMark;
          remaining.delete(key);
          break;
        }
      }
    }
    // Procedures
    if (this.nPr === 0) return;
    // Counting flags mark the procedures they counted.
    const counted = (mask: number, test: (c: number) => boolean) => {
      for (let j = 0; j < this.nPr; j++) {
        const p = this.prIdx[j];
        if (p >= 0 && (t.prCnt[p] & mask) !== 0 && test(t.prCnt[p])) prMarks[j] |= bitMark;
      }
    };
    for (const key of keys) {
      if (key === 'BILATERAL') counted(63, () => true);
      else if (key === 'FOUR_VESSELS') counted(15 << 11, () => true);
      else if (key === 'FOUR_STENTS') counted(7 << 6, (c) => (c & (PRC_NORSTENT | PRC_NORDRUGSTENT)) !== 0);
      else if (key === 'FOUR_DRUG_ELUTING_STENTS') counted(7 << 6, (c) => (c & PRC_NORDRUGSTENT) !== 0);
      else if (key === 'FOUR_NON_DRUG_ELUTING_STENTS') counted(7 << 6, (c) => (c & PRC_NORSTENT) !== 0);
      else if (key === 'SINGLEFUSIONCTR') counted(PRC_SGLANTFUSE | PRC_SGLPOSTFUSE, () => true);
      else if (key === 'MULTFUSE') counted(PRC_SGLANTFUSE | PRC_SGLPOSTFUSE1, () => true);
      else if (key === 'SGLANTCTR') counted(PRC_SGLANTFUSE, () => true);
      else if (key === 'SGLPOST1CTR') counted(PRC_SGLPOSTFUSE1, () => true);
      else if (key === 'SGLANTSECTXCTR') counted(PRC_SGLANTSECTX, () => true);
      else if (key === 'SGLPOSTFUSECTR') counted(PRC_SGLPOSTFUSE, () => true);
    }
    const prKeys = keys.filter((k) => !k.includes(':') && k !== 'MCC' && k !== 'CC' && this.A.has(k) && !FLAG_SET.has(k));
    if (prKeys.length === 0) return;
    const usable = (j: number) => this.prIdx[j] >= 0 && (bit === 0 || (this.prSupp[j] & bit) === 0);
    const hasAll = (j: number) => prKeys.every((k) => this.hasPrAttr(this.prIdx[j], k));
    // Search order: the principal (first-listed) procedure (from v42 on only when it is an O.R.
    // procedure), then the others by code (then a non-O.R. principal procedure).
    const order: number[] = [];
    for (let j = 1; j < this.nPr; j++) order.push(j);
    order.sort((a, b) => (this.prCodesIn[a] < this.prCodesIn[b] ? -1 : this.prCodesIn[a] > this.prCodesIn[b] ? 1 : a - b));
    if (this.prIdx[0] >= 0 && (this.principalFirstAlways || t.prOr[this.prIdx[0]] === 1)) order.unshift(0);
    else order.push(0);
    for (const j of order) {
      if (usable(j) && hasAll(j)) {
        prMarks[j] |= bitMark;
        return;
      }
    }
    const markCluster = (key: string): boolean => {
      const id = this.A.get(key);
      for (let x = 0; x < this.nClSat; x++) {
        const c = this.clSat[x];
        let has = false;
        for (let q = t.clusterAttrOff[c]; q < t.clusterAttrOff[c + 1]; q++) if (t.clusterAttrIds[q] === id) has = true;
        if (!has) continue;
        for (let j = 0; j < this.nPr; j++) {
          const p = this.prIdx[j];
          if (p < 0) continue;
          for (let q = t.prClusterOff[p]; q < t.prClusterOff[p + 1]; q++) if (t.prClusterIds[q] === c) prMarks[j] |= bitMark;
        }
        return true;
      }
      return false;
    };
    for (const key of prKeys) {
      let done = false;
      for (const j of order) {
        if (done) break;
        if (usable(j) && this.hasPrAttr(this.prIdx[j], key)) {
          prMarks[j] |= bitMark;
          done = true;
        }
      }
      if (!done) markCluster(key);
    }
  }

  // ------------------------------------------------------------------------------------------
  // Public entry points

  /** Group one case; minimal result (used by the CLI and the benchmark). */
  groupCore(input: GroupInput, lenient = false): CoreResult {
    this.prepare(input, lenient);
    const init = this.pass(false);
    this.evaluateHacs(input, init.grc === 'OK');
    let fin: PassOutcome;
    if (this.hacGrc !== 'OK') fin = this.error(this.hacGrc);
    else if (this.anyHacMet) fin = this.pass(true);
    else fin = init;
    return {
      drg: fin.drg,
      mdc: fin.mdc,
      surgical: fin.surgical,
      grc: fin.grc,
      initialDrg: init.drg,
      initialMdc: init.mdc,
      initialSurgical: init.surgical,
      initialGrc: init.grc,
    };
  }

  /** Group one case with full detail. */
  group(input: GroupInput, opts: GroupOptions = {}): GroupResult {
    const lenient = (opts.codes ?? 'lenient') === 'lenient';
    const detail = opts.detail !== false;
    const warnings: string[] = [];
    this.prepare(input, lenient);
    const init = this.pass(false);
    this.evaluateHacs(input, init.grc === 'OK');
    // After an edit error the CMS grouper reports no CC/MCC use; the v39.1 logic still marks the
    // secondary diagnoses' levels when the error is INVALID_SEX (checked after the pre-MDC rows).
    const edited = init.grc !== 'OK' && !(this.v391Dialect && init.grc === 'INVALID_SEX');
    const initSupp = init.row >= 0 ? this.rows[init.row].supp : -1;
    const initCands = detail && init.row >= 0 ? this.candidatesFrom(init.row) : [];
    let fin: PassOutcome;
    let finSupp = initSupp;
    let cands = initCands;
    if (this.hacGrc !== 'OK') {
      fin = this.error(this.hacGrc);
      cands = [];
    } else if (this.anyHacMet) {
      fin = this.pass(true);
      finSupp = fin.row >= 0 ? this.rows[fin.row].supp : -1;
      cands = detail && fin.row >= 0 ? this.candidatesFrom(fin.row) : [];
    } else fin = init;

    const t = this.t;
    const dx: DxDetail[] = [];
    const pr: PrDetail[] = [];
    const dxMarks = new Uint8Array(this.nDx);
    const prMarks = new Uint8Array(this.nPr);
    if (detail) {
      this.markPass(init, false, dxMarks, prMarks);
      if (this.hacGrc === 'OK') this.markPass(fin, true, dxMarks, prMarks);
      if (fin.grc === 'OK' && fin.drg !== init.drg) {
        // the HAC codes changed the DRG: they affect the final grouping
        for (let k = 1; k < this.nDx; k++) if (this.hacStatus[k]) dxMarks[k] |= 2;
      }
    }
    let driver: string | null = null;
    const dxIn = Array.isArray(input.dx) ? input.dx : [];
    const prIn = Array.isArray(input.pr) ? input.pr : [];
    if (dxIn.length === 0) warnings.push('no diagnoses: the principal diagnosis is missing');
    for (let k = 0; k < this.nDx; k++) {
      const i = this.dxIdx[k];
      const code = this.codes[k];
      const inputCode = String(dxIn[k] ?? '');
      if (lenient && code !== inputCode && i >= 0) warnings.push(`diagnosis "${inputCode}" read as ${code}`);
      if (i < 0) warnings.push(`${k === 0 ? 'principal diagnosis' : 'diagnosis'} "${inputCode}" is not a valid ICD-10-CM code in ${this.version}`);
      const sev = i >= 0 ? t.dxSev[i] : 0;
      const principal = k === 0;
      const excl = !principal && i >= 0 && this.dxExclF[k] === 1;
      const died = !principal && i >= 0 && this.dxDeath[k] === 1;
      const suppressedBy = (supp: number) =>
        supp > 0 && !principal && i >= 0 && (t.dxSuppBits[i] & this.suppLists[supp]) !== 0;
      const flag = (supp: number, final: boolean): SeverityFlag => {
        if (edited || principal || i < 0 || sev === 0 || (final && init.grc !== 'OK')) return 'NEITHER';
        if (excl) return sev === 2 ? 'MCC_EXCLUDED' : 'CC_EXCLUDED';
        if (died) return 'NEITHER';
        if (suppressedBy(supp)) {
          if (this.drgLogicFlags) return sev === 2 ? 'MCC_EXCLUDED_BY_DRG_LOGIC' : 'CC_EXCLUDED_BY_DRG_LOGIC';
          if (final && this.dxHacMet[k]) return 'NEITHER';
          return sev === 2 ? 'MCC' : 'CC';
        }
        if (final && this.dxHacMet[k]) return 'NEITHER';
        return sev === 2 ? 'MCC' : 'CC';
      };
      const hl: DxDetail['hac'] = [];
      const st = this.hacStatus[k];
      if (i >= 0 && st) {
        for (let q = t.dxHacOff[i], x = 0; q < t.dxHacOff[i + 1]; q++, x++) {
          hl.push({ list: t.hacListNames[t.dxHacIds[q]], hac: t.hacListNum[t.dxHacIds[q]], status: st[x] });
        }
      }
      const finalFlag = flag(finSupp, true);
      if (!principal && driver === null && fin.severity > 0 && this.dxEff[k] === fin.severity && (finalFlag === 'MCC' || finalFlag === 'CC'))
        driver = code;
      dx.push({
        code,
        input: inputCode,
        principal,
        valid: i >= 0,
        severity: i < 0 ? null : sev === 2 ? 'MCC' : sev === 1 ? 'CC' : null,
        excluded_by_pdx: excl,
        excluded_died: died,
        suppressed: suppressedBy(finSupp),
        hac: hl,
        hac_met: !principal && this.dxHacMet[k] === 1,
        poa: input.poa ? (poaChar(input.poa, k) || null) : null,
        initial_severity_flag: flag(initSupp, false),
        final_severity_flag: finalFlag,
        affects: AFFECTS[dxMarks[k]],
      });
    }
    const satisfiedClusters = new Set<number>();
    for (let x = 0; x < this.nClSat; x++) satisfiedClusters.add(this.clSat[x]);
    for (let j = 0; j < this.nPr; j++) {
      const p = this.prIdx[j];
      const code = this.prCodesIn[j];
      const inputCode = String(prIn[j] ?? '');
      if (lenient && code !== inputCode && p >= 0) warnings.push(`procedure "${inputCode}" read as ${code}`);
      if (p < 0) warnings.push(`procedure "${inputCode}" is not a valid ICD-10-PCS code in ${this.version}`);
      const cl: string[] = [];
      if (p >= 0) {
        for (let q = t.prClusterOff[p]; q < t.prClusterOff[p + 1]; q++) {
          const c = t.prClusterIds[q];
          if (satisfiedClusters.has(c)) cl.push(t.clusterNames[c]);
        }
      }
      pr.push({ code, input: inputCode, valid: p >= 0, is_or: p >= 0 ? t.prOr[p] === 1 : t.meta.invalidPrIsOr, clusters: cl, affects: AFFECTS[prMarks[j]] });
    }
    if (this.ds < 0) warnings.push(`discharge status "${String(input.dischargeStatus)}" is not a valid UB-04 code`);
    if (this.sexCode === 2 && this.pdx >= 0 && t.dxFlags[this.pdx] & DXF_SEXMDC)
      warnings.push(`principal diagnosis ${this.codes[0]} needs the patient's sex to choose its MDC`);

    const hacStatus: GroupResult['hac_status'] = !this.anyHacMet
      ? 'NOT_APPLICABLE'
      : this.hacGrc !== 'OK'
        ? 'FINAL_DRG_UNGROUPABLE'
        : fin.drg === init.drg
          ? 'FINAL_DRG_NO_CHANGE'
          : 'FINAL_DRG_CHANGES';
    const candList = fin.drg === 999 || fin.row < 0 ? [pad3(fin.drg)] : [...new Set(cands.map((r) => pad3(this.rows[r].drg)))];
    if (candList[0] !== pad3(fin.drg)) candList.unshift(pad3(fin.drg));

    return {
      version: this.version,
      fiscal_year: this.fiscalYear,
      fidelity: this.fidelity,
      drg: pad3(fin.drg),
      mdc: pad2(fin.mdc),
      type: typeOf(fin.surgical),
      med_surg: medSurgOf(fin.surgical),
      return_code: fin.grc,
      description: this.drgTitleOf(fin.drg),
      mdc_description: this.mdcTitleOf(fin.mdc),
      base_drg: pad3(fin.baseDrg),
      severity: sevName(fin.severity),
      severity_driver: driver,
      initial_drg: pad3(init.drg),
      initial_mdc: pad2(init.mdc),
      initial_type: typeOf(init.surgical),
      initial_return_code: init.grc,
      initial_severity: sevName(init.severity),
      hac_status: hacStatus,
      discharge_status: this.ds,
      all_candidates: candList,
      dx: detail ? dx : [],
      pr: detail ? pr : [],
      warnings,
    };
  }
}
