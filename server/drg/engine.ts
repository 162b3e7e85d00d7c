/**
 * The grouping engine of one compiled version. A case goes through the stages of the Definitions Manual flow, each
 * in its own module under `stages/`:
 *
 *   1. edits.ts       the claim as the grouper reads it: codes looked up, sex and discharge status checked
 *   2. mdc.ts         the principal diagnosis sets the MDC (sex-dependent for some codes)
 *   3. attributes.ts  the claim's lists and the grouper's own flags: trauma sites, bilateral joints, stents,
 *                     fusion counters, procedure clusters
 *   4. severity.ts    CC/MCC levels after CC exclusion and "MCC only if discharged alive"
 *   5. assignment.ts  the DRG: pre-MDC, then the MDC's formula rows in rank order, reroutes, control rows
 *   6. hac.ts         hospital-acquired conditions; the final grouping (stage 5 again) without their CC/MCC
 *
 * and, for `group()` only, the detail: marking.ts (which codes affected the DRG) and report.ts (per-code result,
 * candidates, warnings). `groupCore()` is the fast path (CLI, batches, benchmark): no allocation per case beyond
 * the two pass outcomes and the small result object.
 */
import type { CompiledTables } from './compile';
import { VersionLogic } from './logic';
import { assignDrg, errorOutcome, type PassOutcome } from './stages/assignment';
import { dischargeFlags, procedures, secondaryDiagnoses } from './stages/attributes';
import { readCodes, readPatient, spellCodes } from './stages/edits';
import { applyHacs } from './stages/hac';
import { principalDiagnosis } from './stages/mdc';
import { buildResult } from './stages/report';
import { secondarySeverity } from './stages/severity';
import { CaseState } from './stages/state';
import type { GroupInput, GroupOptions, GroupResult, ReturnCode } from './types';

export { normalizeCode, strictCode } from './codeindex';
export { parseDischargeStatus } from './stages/edits';
export type { PassOutcome } from './stages/assignment';

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
  /** Derived versions: the DRG of a base row this version lacks that the case met first (0 = none; see derive.ts). */
  ghostDrg: number;
}

export class GrouperEngine {
  readonly L: VersionLogic;
  private readonly s: CaseState;

  constructor(tables: CompiledTables) {
    this.L = new VersionLogic(tables);
    this.s = new CaseState(this.L);
  }

  get t(): CompiledTables {
    return this.L.t;
  }
  get version(): string {
    return this.L.version;
  }
  get fiscalYear(): string {
    return this.L.fiscalYear;
  }
  get fidelity(): 'exact' | 'derived' {
    return this.L.fidelity;
  }
  /** Derived versions: what the version cannot reproduce (null for exact versions). */
  get fidelityNote(): string | null {
    return this.L.fidelityNote;
  }

  dxIndexOf(code: string): number {
    return this.L.dx.indexOf(code);
  }
  prIndexOf(code: string): number {
    return this.L.pr.indexOf(code);
  }
  drgTitleOf(drg: number): string {
    return this.L.drgTitleOf(drg);
  }
  mdcTitleOf(mdc: number): string {
    return this.L.mdcTitleOf(mdc);
  }

  /** Stages 1–6: the initial and the final grouping. */
  private run(input: GroupInput, lenient: boolean): { init: PassOutcome; fin: PassOutcome } {
    const L = this.L;
    const s = this.s;
    // 1. edits
    readCodes(L, s, input, lenient);
    readPatient(s, input);
    s.nextGeneration();
    dischargeFlags(L, s);
    // 2. MDC
    principalDiagnosis(L, s);
    // 3. attributes
    secondaryDiagnoses(L, s);
    procedures(L, s);
    // 4. CC/MCC
    secondarySeverity(L, s);
    // 5. initial DRG
    const init = assignDrg(L, s, false);
    // 6. HAC, then the final DRG
    applyHacs(L, s, input, init.grc === 'OK');
    let fin: PassOutcome;
    if (s.hacGrc !== 'OK') fin = errorOutcome(s.hacGrc);
    else if (s.anyHacMet) fin = assignDrg(L, s, true);
    else fin = init;
    return { init, fin };
  }

  /** Group one case; minimal result (used by the CLI and the benchmark). */
  groupCore(input: GroupInput, lenient = false): CoreResult {
    const { init, fin } = this.run(input, lenient);
    const ghost = fin.ghost >= 0 ? fin.ghost : init.ghost;
    return {
      drg: fin.drg,
      mdc: fin.mdc,
      surgical: fin.surgical,
      grc: fin.grc,
      initialDrg: init.drg,
      initialMdc: init.mdc,
      initialSurgical: init.surgical,
      initialGrc: init.grc,
      ghostDrg: ghost >= 0 ? this.L.rows[ghost].drg : 0,
    };
  }

  /** Group one case with full detail. */
  group(input: GroupInput, opts: GroupOptions = {}): GroupResult {
    const lenient = (opts.codes ?? 'lenient') === 'lenient';
    const detail = opts.detail !== false;
    const { init, fin } = this.run(input, lenient);
    spellCodes(this.L, this.s, input, lenient);
    return buildResult(this.L, this.s, input, lenient, detail, init, fin);
  }
}
