/**
 * Stage 2, "MDC assignment": the principal diagnosis places the case in a Major Diagnostic Category. About 70
 * principal diagnoses have one MDC for men and another for women; without a usable sex the case gets the INVALID_SEX
 * flag (the control row that tests it ends in DRG 999). An invalid principal diagnosis sets INVALID_PDX, and a
 * V/W/X/Y external-cause code sets PDX_ECODE.
 */
import { DXF_SEXMDC } from '../compile';
import type { VersionLogic } from '../logic';
import type { CaseState } from './state';

export function principalDiagnosis(L: VersionLogic, s: CaseState): void {
  const t = L.t;
  const F = L.F;
  const pdx = s.nDx > 0 ? s.dxIdx[0] : -1;
  s.pdx = pdx;
  s.pdxMdc = -1;
  if (pdx < 0) s.flag(F.INVALID_PDX);
  const c0 = s.pdxFirst;
  if (c0 === 86 || c0 === 87 || c0 === 88 || c0 === 89) s.flag(F.PDX_ECODE); // V W X Y
  if (pdx < 0) return;
  const P = s.P;
  const g = s.g;
  const ids = t.dxAttrIds;
  for (let q = t.dxAttrOff[pdx], qe = t.dxAttrOff[pdx + 1]; q < qe; q++) P[ids[q]] = g;
  let mdc = t.dxMdc[pdx];
  if (t.dxFlags[pdx] & DXF_SEXMDC) {
    const m = s.sex === 0 ? t.dxSexM[pdx] : s.sex === 1 ? t.dxSexF[pdx] : 255;
    if (m !== 255) mdc = m;
    else if (s.sex === 2) s.flag(F.INVALID_SEX);
  }
  s.pdxMdc = mdc;
  if (mdc === 20) s.flag(F.MDC_20_FALL_THRU);
}
