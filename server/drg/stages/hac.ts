/**
 * Stage 6, "hospital-acquired conditions" (Appendix I), after the initial grouping and only when it ended without
 * an edit error. A secondary diagnosis on a HAC list meets the criteria when it was not present on admission (POA not
 * Y or W), is not CC-excluded by the principal diagnosis, and the HAC's formula holds (e.g. `SDX:HAC10 & hac10_proc`).
 * Its CC/MCC then does not count in the final grouping. Hospitals exempt from POA reporting skip the HAC logic.
 *
 * Return codes that end the final grouping in DRG 999:
 *   NOT_EXEMPT hospital: a met HAC code, or any HAC-list code, with a POA other than Y/W/N/U → HAC_MISSING_ONE_POA;
 *   UNKNOWN hospital POA status: two or more secondary diagnoses on the claim → HAC_STATUS_INVALID_MULT_HACS_POA_NOT_Y_W
 *   (whatever their POA: 452 of 452 such claims of the CMS-graded peer claims); otherwise the HAC code's POA N or U →
 *   HAC_STATUS_INVALID_POA_N_OR_U, anything else → HAC_STATUS_INVALID_POA_INVALID_OR_1.
 */
import type { VersionLogic } from '../logic';
import type { GroupInput, HacStatus, HospitalStatus } from '../types';
import type { CaseState } from './state';

/** POA of diagnosis k. No POA array, or no entry for k: 'Y' (as the CMS grouper's callers send). */
export function poaChar(poa: GroupInput['poa'], k: number): string {
  if (!Array.isArray(poa)) return 'Y';
  const v = poa[k];
  if (v === undefined || v === null) return 'Y';
  if (v === 'Y' || v === 'N' || v === 'U' || v === 'W') return v;
  return String(v).trim().toUpperCase().slice(0, 1);
}

export function hospitalStatusOf(h: unknown): HospitalStatus {
  if (h === undefined || h === null) return 'NOT_EXEMPT';
  const s = String(h ?? '')
    .trim()
    .toUpperCase()
    .replace(/[-\s]/g, '_');
  if (s === 'EXEMPT' || s === 'Y') return 'EXEMPT';
  if (s === 'UNKNOWN' || s === 'U') return 'UNKNOWN';
  return 'NOT_EXEMPT';
}

export function applyHacs(L: VersionLogic, s: CaseState, input: GroupInput, applicable: boolean): void {
  const t = L.t;
  s.anyHacMet = false;
  s.hacGrc = 'OK';
  const hs = s.hacStatus;
  const nDx = s.nDx;
  hs.length = nDx;
  for (let k = 0; k < nDx; k++) hs[k] = null;
  if (!applicable) return;
  // Most cases have no secondary diagnosis on any HAC list: find out before reading the hospital status.
  let onList = false;
  for (let k = 1; k < nDx && !onList; k++) {
    const i = s.dxIdx[k];
    if (i >= 0 && t.dxHacOff[i] !== t.dxHacOff[i + 1]) onList = true;
  }
  if (!onList) return;
  const hosp = hospitalStatusOf(input.hospitalStatus);
  let invalidPoaOnClaim = false;
  let firstMetK = -1;
  let metWithInvalidPoa = false;
  let hac6SdxMet = false;
  for (let k = 1; k < nDx; k++) {
    const i = s.dxIdx[k];
    if (i < 0) continue;
    const h0 = t.dxHacOff[i];
    const h1 = t.dxHacOff[i + 1];
    if (h0 === h1) continue;
    const st: HacStatus[] = [];
    const poa = poaChar(input.poa, k);
    for (let q = h0; q < h1; q++) {
      const list = t.hacListNames[t.dxHacIds[q]];
      if (list.endsWith('_pdx')) {
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
      if (s.dxExcl[k]) {
        // CC-excluded by the principal diagnosis: the HAC does not apply
        st.push('HAC_NOT_APPLICABLE_EXCLUSION');
        continue;
      }
      const num = t.hacListNum[t.dxHacIds[q]];
      const pred = L.hacPreds.get(num);
      const met = pred ? pred(s.P, s.S, s.B, s.U, s.g, 0) : false;
      st.push(met ? 'HAC_CRITERIA_MET' : 'HAC_CRITERIA_NOT_MET');
      if (met && num === 6 && list !== 'hac06_show') hac6SdxMet = true;
    }
    if (!st.some((x) => x !== 'NOT_ON_HAC_LIST')) continue;
    if (hosp !== 'EXEMPT' && !s.dxExcl[k] && poa !== 'Y' && poa !== 'W' && poa !== 'N' && poa !== 'U') invalidPoaOnClaim = true;
    hs[k] = st;
  }
  // A code on the CAUTI "show" list counts only together with a catheter-associated UTI code.
  if (!hac6SdxMet) {
    for (let k = 1; k < nDx; k++) {
      const st = hs[k];
      if (!st) continue;
      const i = s.dxIdx[k];
      for (let q = t.dxHacOff[i], x = 0; q < t.dxHacOff[i + 1]; q++, x++) {
        if (t.hacListNames[t.dxHacIds[q]] === 'hac06_show' && st[x] === 'HAC_CRITERIA_MET') st[x] = 'HAC_CRITERIA_NOT_MET';
      }
    }
  }
  for (let k = 1; k < nDx; k++) {
    const st = hs[k];
    if (!st || !st.includes('HAC_CRITERIA_MET')) continue;
    s.dxHacMet[k] = 1;
    s.anyHacMet = true;
    if (firstMetK < 0) firstMetK = k;
    const poa = poaChar(input.poa, k);
    if (poa !== 'N' && poa !== 'U') metWithInvalidPoa = true;
  }
  if (!s.anyHacMet) return;
  if (hosp === 'NOT_EXEMPT') {
    if (metWithInvalidPoa || invalidPoaOnClaim) s.hacGrc = 'HAC_MISSING_ONE_POA';
  } else if (hosp === 'UNKNOWN') {
    const p = poaChar(input.poa, firstMetK);
    if (nDx - 1 >= 2) s.hacGrc = 'HAC_STATUS_INVALID_MULT_HACS_POA_NOT_Y_W';
    else if (p === 'N' || p === 'U') s.hacGrc = 'HAC_STATUS_INVALID_POA_N_OR_U';
    else s.hacGrc = 'HAC_STATUS_INVALID_POA_INVALID_OR_1';
  }
}
