/**
 * Stage 4, "CC/MCC": each secondary diagnosis's level (Appendix C), unless the principal diagnosis excludes it (its
 * CC-exclusion list names the secondary code) or it is an MCC only for patients discharged alive and the patient
 * died. Each formula row then drops the codes on its own severity-suppression list (for example other AMI codes in
 * the AMI DRGs), and the final pass drops codes that meet HAC criteria: that part is `CaseState.sev`, evaluated when
 * a row asks for "MCC" or "CC".
 */
import { DXF_MCCALIVE } from '../compile';
import type { VersionLogic } from '../logic';
import type { CaseState } from './state';

/** CC exclusion: the secondary diagnosis (index) is on the principal diagnosis's exclusion list. */
export function excludedByPrincipal(L: VersionLogic, pdx: number, sdx: number): boolean {
  if (pdx < 0) return false;
  const t = L.t;
  const grp = t.dxExcl[pdx];
  const off = t.exclOff;
  if (grp < 0 || grp + 1 >= off.length) return false;
  const ids = t.exclDx;
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

export function secondarySeverity(L: VersionLogic, s: CaseState): void {
  const t = L.t;
  const died = s.ds === 20;
  const pdx = s.pdx;
  for (let k = 1; k < s.nDx; k++) {
    const i = s.dxIdx[k];
    s.dxHacMet[k] = 0;
    if (i < 0) {
      s.dxEff[k] = 0;
      s.dxExcl[k] = 0;
      s.dxDeath[k] = 0;
      continue;
    }
    const sev = t.dxSev[i];
    const excl = excludedByPrincipal(L, pdx, i);
    const death = died && (t.dxFlags[i] & DXF_MCCALIVE) !== 0;
    s.dxExcl[k] = excl ? 1 : 0;
    s.dxDeath[k] = death ? 1 : 0;
    s.dxEff[k] = excl || death ? 0 : sev;
  }
}
