/**
 * Stage 3, "claim attributes": what the formulas test. The diagnosis and procedure lists of the claim's codes are
 * stamped into the mask, with the flags the grouper computes itself:
 *
 *   ALIVE / DIED / AMA / XFRNBA / INVALID_DSTAT   from the discharge status
 *   ONLY:incident                                  every diagnosis is an "incident" code (MDC 15)
 *   MULTST                                         significant trauma in two or more body sites (MDC 24)
 *   BILATERAL                                      joint procedures on two or more different sites
 *   FOUR_VESSELS, FOUR_*STENTS                     sums of the vesselN / stentN weights
 *   MULTFUSE, SINGLEFUSIONCTR, SGL*CTR             the spinal-fusion counters
 *
 * Procedure clusters: when every choice of a cluster (a code combination, e.g. a device and its insertion) is on the
 * claim, its pseudo-code joins the claim, and its component procedures lose their own attributes in the cluster's
 * suppression MDCs (an attribute is suppressed in MDC m only if every procedure carrying it is).
 */
import { DXF_INCIDENT, PRC_NORDRUGSTENT, PRC_NORSTENT, PRC_SGLANTFUSE, PRC_SGLANTSECTX, PRC_SGLPOSTFUSE, PRC_SGLPOSTFUSE1 } from '../compile';
import type { VersionLogic } from '../logic';
import type { CaseState } from './state';

const XFRNBA_DSTAT = new Set([2, 5, 66, 82, 85, 94]);

function popcount(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** Flags from the discharge status. */
export function dischargeFlags(L: VersionLogic, s: CaseState): void {
  const F = L.F;
  const ds = s.ds;
  s.flag(F.ANYDX);
  if (ds < 0) s.flag(F.INVALID_DSTAT);
  if (ds !== 20) s.flag(F.ALIVE);
  else s.flag(F.DIED);
  if (ds === 7) s.flag(F.AMA);
  if (XFRNBA_DSTAT.has(ds)) s.flag(F.XFRNBA);
}

/** The secondary diagnoses' lists (`SDX:x`), with the trauma-site and "incident" flags. */
export function secondaryDiagnoses(L: VersionLogic, s: CaseState): void {
  const t = L.t;
  const S = s.S;
  const g = s.g;
  const off = t.dxAttrOff;
  const ids = t.dxAttrIds;
  const pdx = s.pdx;
  let stBits = pdx >= 0 ? t.dxStBits[pdx] : 0;
  let allIncident = true;
  for (let k = 1; k < s.nDx; k++) {
    const i = s.dxIdx[k];
    if (i < 0) continue;
    for (let q = off[i], qe = off[i + 1]; q < qe; q++) S[ids[q]] = g;
    stBits |= t.dxStBits[i];
    if (!(t.dxFlags[i] & DXF_INCIDENT)) allIncident = false;
  }
  if (pdx >= 0 && t.dxFlags[pdx] & DXF_INCIDENT && allIncident) s.flag(L.F['ONLY:incident']);
  if (popcount(stBits) >= 2) s.flag(L.F.MULTST);
}

/** Completed procedure clusters and the MDCs in which they suppress their components. */
function procedureClusters(L: VersionLogic, s: CaseState): void {
  const t = L.t;
  const g = s.g;
  const nPr = s.nPr;
  const cOff = t.prClusterOff;
  const cIds = t.prClusterIds;
  const cMask = t.prClusterMask;
  for (let j = 0; j < nPr; j++) {
    const p = s.prIdx[j];
    if (p < 0) continue;
    for (let q = cOff[p], qe = cOff[p + 1]; q < qe; q++) {
      const c = cIds[q];
      if (s.clStamp[c] !== g) {
        s.clStamp[c] = g;
        s.clSeen[c] = 0;
        if (s.nClCand === s.clCand.length) {
          const a = new Int32Array(s.clCand.length * 2);
          a.set(s.clCand);
          s.clCand = a;
        }
        s.clCand[s.nClCand++] = c;
      }
      s.clSeen[c] |= cMask[q];
    }
  }
  for (let x = 0; x < s.nClCand; x++) {
    const c = s.clCand[x];
    if (s.clSeen[c] !== L.clusterFull[c]) continue;
    if (s.nClSat === s.clSat.length) {
      const a = new Int32Array(s.clSat.length * 2);
      a.set(s.clSat);
      s.clSat = a;
    }
    s.clSat[s.nClSat++] = c;
    const sup = t.clusterSupp[c];
    if (sup === 0) continue;
    for (let j = 0; j < nPr; j++) {
      const p = s.prIdx[j];
      if (p < 0) continue;
      for (let q = cOff[p], qe = cOff[p + 1]; q < qe; q++) {
        if (cIds[q] === c) {
          s.prSupp[j] |= sup;
          break;
        }
      }
    }
  }
}

/** Procedure lists (with cluster suppression), the completed clusters' own lists, and the counting flags. */
export function procedures(L: VersionLogic, s: CaseState): void {
  const t = L.t;
  const nPr = s.nPr;
  s.nClCand = 0;
  s.nClSat = 0;
  if (nPr === 0) return;
  procedureClusters(L, s);
  const { B, U, g } = s;
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
    const p = s.prIdx[j];
    if (p < 0) continue;
    const sup = s.prSupp[j] | 0;
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
  for (let x = 0; x < s.nClSat; x++) {
    const c = s.clSat[x];
    for (let q = t.clusterAttrOff[c], qe = t.clusterAttrOff[c + 1]; q < qe; q++) {
      const a = t.clusterAttrIds[q];
      B[a] = g;
      U[a] = 0;
    }
  }
  const F = L.F;
  if (popcount(joints) > 1) s.flag(F.BILATERAL);
  if (stentsBare >= 4) s.flag(F.FOUR_NON_DRUG_ELUTING_STENTS);
  if (stentsDrug >= 4) s.flag(F.FOUR_DRUG_ELUTING_STENTS);
  if (stentsDrug + stentsBare >= 4) s.flag(F.FOUR_STENTS);
  if (vessels >= 4) s.flag(F.FOUR_VESSELS);
  if (sglAnt + sglPost1 > 1) s.flag(F.MULTFUSE);
  if (sglAntSectX > 1) s.flag(F.SGLANTSECTXCTR);
  if (sglPost > 1) s.flag(F.SGLPOSTFUSECTR);
  if (sglAnt + sglPost >= 3) s.flag(F.SINGLEFUSIONCTR);
  if (sglAnt >= 2) s.flag(F.SGLANTCTR);
  if (sglPost1 >= 2) s.flag(F.SGLPOST1CTR);
}
