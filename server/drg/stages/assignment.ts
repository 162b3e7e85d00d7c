/**
 * Stage 5, "DRG assignment": the pre-MDC formula set (transplants, ECMO, tracheostomy …) in rank order, else the set
 * of the principal diagnosis's MDC. The first true row either assigns its DRG, reroutes (pre-MDC → MDC 24 multiple
 * significant trauma, 25 HIV, 11 kidney transplant, where the result takes that MDC; any MDC → 29 for an O.R.
 * procedure unrelated to the principal diagnosis, DRGs 981–989, keeping the MDC), or, for a control row, ends in
 * DRG 999 with its return code. The pass runs twice: initial, and final without the CC/MCC of HAC codes.
 */
import type { VersionLogic } from '../logic';
import type { ReturnCode } from '../types';
import type { CaseState } from './state';

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
  /** Derived versions: a row of a base DRG this version lacks, met before the assigning row (-1 when none). */
  ghost: number;
}

export function errorOutcome(grc: ReturnCode, ghost = -1): PassOutcome {
  return { drg: 999, mdc: 0, surgical: 'NA', baseDrg: 999, grc, row: -1, via0: -1, via1: -1, severity: -1, ghost };
}

export function assignDrg(L: VersionLogic, s: CaseState, final: boolean): PassOutcome {
  s.beginPass(final);
  let mdc = s.pdxMdc;
  let r = L.firstRow(0, s);
  if (r < 0) {
    r = L.firstRow(mdc, s);
    if (r < 0) return errorOutcome('UNGROUPABLE', s.ghostRow);
  }
  // Follow reroutes: pre-MDC → 24/25/11 (the result takes that MDC), any MDC → 29 (keeps its MDC).
  let via0 = -1;
  let via1 = -1;
  for (let hop = 0; hop < 4; hop++) {
    const row = L.rows[r];
    if (row.grc) return errorOutcome(row.grc as ReturnCode, s.ghostRow);
    if (row.rerouteMdc === 0) break;
    if (row.mdc === 0) mdc = row.rerouteMdc;
    if (hop === 0) via0 = r;
    else via1 = r;
    const next = L.firstRow(row.rerouteMdc, s);
    if (next < 0) return errorOutcome('UNGROUPABLE', s.ghostRow);
    r = next;
  }
  const row = L.rows[r];
  if (row.drg === 0) return errorOutcome('UNGROUPABLE', s.ghostRow);
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
    severity: row.surgical === 'NA' ? -1 : s.sev(row.supp),
    ghost: s.ghostRow,
  };
}
