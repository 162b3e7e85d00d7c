/**
 * The scratch of one case, reused by every case of a version (grouping is synchronous). Nothing here is cleared
 * between cases: the attribute mask is generation-stamped (an entry counts when it equals the current `g`), and the
 * per-code arrays are overwritten for the codes of the case.
 *
 *   P[a] = g   the principal diagnosis has attribute a
 *   S[a] = g   some secondary diagnosis has it
 *   B[a] = g   some procedure has it, or the grouper set flag a; U[a] = MDCs (bit n = MDC n) in which every
 *              procedure that contributed a is suppressed by a procedure cluster
 */
import type { HacStatus, ReturnCode } from '../types';
import type { VersionLogic } from '../logic';

export class CaseState {
  readonly P: Int32Array;
  readonly S: Int32Array;
  readonly B: Int32Array;
  readonly U: Int32Array;
  g = 0;

  // Codes of the case
  nDx = 0;
  nPr = 0;
  /** Diagnosis index per position (-1 = not a code of the version). */
  dxIdx = new Int32Array(0);
  /** Procedure index per position (-1 = not a code of the version). */
  prIdx = new Int32Array(0);
  /** MDCs in which procedure j's attributes are suppressed by a completed cluster. */
  prSupp = new Uint32Array(0);
  /** Spelling of the codes as looked up (detail path only; see spellCodes). */
  dxCodes: string[] = [];
  prCodes: string[] = [];
  /** First character of the principal diagnosis as spelled (for PDX_ECODE), 0 when none. */
  pdxFirst = 0;

  // Patient
  /** 0 male, 1 female, 2 unknown. */
  sex = 2;
  /** Discharge status used (-1 = invalid). */
  ds = 1;

  // Principal diagnosis
  pdx = -1;
  pdxMdc = -1;

  // Secondary diagnoses: effective CC/MCC level (0, 1 CC, 2 MCC) after CC exclusion and "MCC only if alive"
  dxEff = new Uint8Array(0);
  dxExcl = new Uint8Array(0);
  dxDeath = new Uint8Array(0);
  dxHacMet = new Uint8Array(0);

  // Procedure clusters
  clStamp: Int32Array;
  clSeen: Uint32Array;
  clCand = new Int32Array(64);
  nClCand = 0;
  /** Completed clusters of the case. */
  clSat = new Int32Array(64);
  nClSat = 0;

  // Severity per suppression list, cached per grouping pass
  finalPass = false;
  private readonly sevStamp: Int32Array;
  private readonly sevVal: Int8Array;
  private sevGen = 0;

  // HAC
  hacStatus: Array<HacStatus[] | null> = [];
  hacGrc: ReturnCode = 'OK';
  anyHacMet = false;

  // Detail path: orders used by marking, computed once per case (stamped with the case's generation)
  clinicalOrder: number[] = [];
  clinicalOrderGen = -1;
  procedureOrder: number[] = [];
  procedureOrderGen = -1;

  /** Derived versions: first ghost row (a base DRG this version lacks) the current pass met before assigning. */
  ghostRow = -1;

  private cap = 0;
  private prCap = 0;
  private dxMarks = new Uint8Array(32);
  private prMarks = new Uint8Array(32);

  /** Cleared per-code marks for the detail path (bit 1 initial, bit 2 final), valid until the next case. */
  marks(): { dx: Uint8Array; pr: Uint8Array } {
    if (this.dxMarks.length < this.nDx) this.dxMarks = new Uint8Array(this.nDx * 2);
    if (this.prMarks.length < this.nPr) this.prMarks = new Uint8Array(this.nPr * 2);
    this.dxMarks.fill(0, 0, this.nDx);
    this.prMarks.fill(0, 0, this.nPr);
    return { dx: this.dxMarks, pr: this.prMarks };
  }

  constructor(private readonly L: VersionLogic) {
    const n = L.t.attrNames.length;
    this.P = new Int32Array(n);
    this.S = new Int32Array(n);
    this.B = new Int32Array(n);
    this.U = new Int32Array(n);
    const nCl = L.t.clusterNames.length;
    this.clStamp = new Int32Array(nCl);
    this.clSeen = new Uint32Array(nCl);
    this.sevStamp = new Int32Array(L.t.suppLists.length);
    this.sevVal = new Int8Array(L.t.suppLists.length);
    this.ensure(32, 32);
  }

  /** Room for a case with nDx diagnoses and nPr procedures. */
  ensure(nDx: number, nPr: number): void {
    if (nDx > this.cap) {
      this.cap = Math.max(nDx, this.cap * 2);
      this.dxIdx = new Int32Array(this.cap);
      this.dxEff = new Uint8Array(this.cap);
      this.dxExcl = new Uint8Array(this.cap);
      this.dxDeath = new Uint8Array(this.cap);
      this.dxHacMet = new Uint8Array(this.cap);
    }
    if (nPr > this.prCap) {
      this.prCap = Math.max(nPr, this.prCap * 2);
      this.prIdx = new Int32Array(this.prCap);
      this.prSupp = new Uint32Array(this.prCap);
    }
  }

  /** A new generation of the mask: everything stamped for the previous case stops counting. */
  nextGeneration(): number {
    if (this.g >= 0x7ffffff0) {
      this.P.fill(0);
      this.S.fill(0);
      this.B.fill(0);
      this.clStamp.fill(0);
      this.g = 0;
    }
    return ++this.g;
  }

  /** Set one of the grouper's own flags in the mask. */
  flag(id: number): void {
    if (id >= 0) {
      this.B[id] = this.g;
      this.U[id] = 0;
    }
  }

  /** Start a grouping pass: severities are recomputed (the final pass leaves out HAC codes). */
  beginPass(final: boolean): void {
    this.finalPass = final;
    this.ghostRow = -1;
    if (++this.sevGen > 0x7ffffff0) {
      this.sevGen = 1;
      this.sevStamp.fill(0);
    }
  }

  /**
   * The highest secondary-diagnosis level (0, 1 CC, 2 MCC) a formula row sees: codes on the row's severity-
   * suppression list do not count, nor, in the final pass, codes that meet HAC criteria. Cached per pass and list.
   */
  sev(supp: number): number {
    if (this.sevStamp[supp] === this.sevGen) return this.sevVal[supp];
    const m = this.L.suppLists[supp];
    const bits = this.L.t.dxSuppBits;
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
}
