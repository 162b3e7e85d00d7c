/**
 * Detail path: the full result of a case – per diagnosis its CC/MCC level and how it counted (the CMS grouper's
 * severity flags), HAC outcome and POA; per procedure its O.R. status and completed clusters; which codes affected
 * the DRG; the candidate DRGs; warnings in words.
 */
import { DXF_SEXMDC } from '../compile';
import type { VersionLogic } from '../logic';
import type { DxDetail, GroupInput, GroupResult, MedSurg, PrDetail, Severity, SeverityFlag } from '../types';
import type { PassOutcome } from './assignment';
import { poaChar } from './hac';
import { markPass } from './marking';
import type { CaseState } from './state';

const AFFECTS = ['NONE', 'INITIAL', 'FINAL', 'BOTH'] as const;

const PAD3 = Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, '0'));
export const pad3 = (n: number): string => (n >= 0 && n < 1000 ? PAD3[n] : String(n).padStart(3, '0'));
const NO_HAC: DxDetail['hac'] = [];
const NO_CLUSTERS: string[] = [];

/** How a diagnosis's CC/MCC counted for a grouping, with the CMS grouper's flag names. */
function severityFlag(
  L: VersionLogic,
  s: CaseState,
  k: number,
  i: number,
  sev: number,
  supp: number,
  final: boolean,
  edited: boolean,
  initOk: boolean,
): SeverityFlag {
  if (edited || k === 0 || i < 0 || sev === 0 || (final && !initOk)) return 'NEITHER';
  if (s.dxExcl[k] === 1) return sev === 2 ? 'MCC_EXCLUDED' : 'CC_EXCLUDED';
  if (s.dxDeath[k] === 1) return 'NEITHER';
  if (suppressedBy(L, s, k, i, supp)) {
    if (L.drgLogicFlags) return sev === 2 ? 'MCC_EXCLUDED_BY_DRG_LOGIC' : 'CC_EXCLUDED_BY_DRG_LOGIC';
    if (final && s.dxHacMet[k]) return 'NEITHER';
    return sev === 2 ? 'MCC' : 'CC';
  }
  if (final && s.dxHacMet[k]) return 'NEITHER';
  return sev === 2 ? 'MCC' : 'CC';
}

/** The CC/MCC is on the severity-suppression list of the row (index into suppLists; 0 = none). */
function suppressedBy(L: VersionLogic, s: CaseState, k: number, i: number, supp: number): boolean {
  return supp > 0 && k > 0 && i >= 0 && (L.t.dxSuppBits[i] & L.suppLists[supp]) !== 0;
}
export const pad2 = (n: number) => String(n).padStart(2, '0');
export const typeOf = (s: 'SURGICAL' | 'MEDICAL' | 'NA'): 'M' | 'P' | null => (s === 'SURGICAL' ? 'P' : s === 'MEDICAL' ? 'M' : null);
export const medSurgOf = (s: 'SURGICAL' | 'MEDICAL' | 'NA'): MedSurg => (s === 'NA' ? 'NONE' : s);
const sevName = (v: number): Severity | 'NONE' => (v === 2 ? 'MCC' : v === 1 ? 'CC' : v === 0 ? 'NON_CC' : 'NONE');

/** Which codes took part in the initial and final assignment (bit 1 initial, bit 2 final). */
function affects(L: VersionLogic, s: CaseState, init: PassOutcome, fin: PassOutcome): { dx: Uint8Array; pr: Uint8Array } {
  const { dx, pr } = s.marks();
  markPass(L, s, init, false, dx, pr);
  if (s.hacGrc === 'OK') markPass(L, s, fin, true, dx, pr);
  if (fin.grc === 'OK' && fin.drg !== init.drg) {
    // the HAC codes changed the DRG: they affect the final grouping
    for (let k = 1; k < s.nDx; k++) if (s.hacStatus[k]) dx[k] |= 2;
  }
  return { dx, pr };
}

/**
 * The note for a derived version when a case met a row of a DRG the version does not have (see derive.ts): the
 * case is grouped by the rows that follow, and says so.
 */
function ghostWarning(L: VersionLogic, out: PassOutcome): string | null {
  if (out.ghost < 0) return null;
  const g = L.rows[out.ghost];
  const base = /derived from (v[\d.]+)/.exec(L.t.meta.notes.join(' '))?.[1] ?? 'the base version';
  return (
    `${L.version} is derived: in ${base}'s logic this case goes to DRG ${pad3(g.drg)}, which ${L.version} does not have, and ` +
    `the reference data does not hold the ${L.version} logic for it; it was grouped by the rows that follow instead (DRG ${pad3(out.drg)}). ` +
    'Treat this DRG as uncertain.'
  );
}

export function buildResult(
  L: VersionLogic,
  s: CaseState,
  input: GroupInput,
  lenient: boolean,
  detail: boolean,
  init: PassOutcome,
  fin: PassOutcome,
): GroupResult {
  const t = L.t;
  const warnings: string[] = [];
  // After an edit error the CMS grouper reports no CC/MCC use; the v39.1 logic still marks the
  // secondary diagnoses' levels when the error is INVALID_SEX (checked after the pre-MDC rows).
  const edited = init.grc !== 'OK' && !(L.v391Dialect && init.grc === 'INVALID_SEX');
  const initSupp = init.row >= 0 ? L.rows[init.row].supp : -1;
  // The final row's suppression list; when HAC logic ended in DRG 999 the initial row's is reported.
  const finalPassRan = fin !== init && s.hacGrc === 'OK';
  const finSupp = finalPassRan ? (fin.row >= 0 ? L.rows[fin.row].supp : -1) : initSupp;
  const cands = detail && fin.row >= 0 && s.hacGrc === 'OK' ? L.rowsFrom(fin.row, s) : [];
  const marks = detail ? affects(L, s, init, fin) : s.marks();

  const dx: DxDetail[] = new Array<DxDetail>(s.nDx);
  const pr: PrDetail[] = new Array<PrDetail>(s.nPr);
  let driver: string | null = null;
  const dxIn = Array.isArray(input.dx) ? input.dx : [];
  const prIn = Array.isArray(input.pr) ? input.pr : [];
  if (dxIn.length === 0) warnings.push('no diagnoses: the principal diagnosis is missing');
  const initOk = init.grc === 'OK';
  for (let k = 0; k < s.nDx; k++) {
    const i = s.dxIdx[k];
    const code = s.dxCodes[k];
    const raw = dxIn[k];
    const inputCode = typeof raw === 'string' ? raw : String(raw ?? '');
    if (i < 0) warnings.push(`${k === 0 ? 'principal diagnosis' : 'diagnosis'} "${inputCode}" is not a valid ICD-10-CM code in ${L.version}`);
    else if (lenient && code !== inputCode) warnings.push(`diagnosis "${inputCode}" read as ${code}`);
    const principal = k === 0;
    const sev = i >= 0 ? t.dxSev[i] : 0;
    const finalFlag = severityFlag(L, s, k, i, sev, finSupp, true, edited, initOk);
    if (!principal && driver === null && fin.severity > 0 && s.dxEff[k] === fin.severity && (finalFlag === 'MCC' || finalFlag === 'CC')) driver = code;
    let hl: DxDetail['hac'] = NO_HAC;
    const st = s.hacStatus[k];
    if (i >= 0 && st) {
      hl = [];
      for (let q = t.dxHacOff[i], x = 0; q < t.dxHacOff[i + 1]; q++, x++) {
        hl.push({ list: t.hacListNames[t.dxHacIds[q]], hac: t.hacListNum[t.dxHacIds[q]], status: st[x] });
      }
    }
    dx[k] = {
      code,
      input: inputCode,
      principal,
      valid: i >= 0,
      severity: sev === 2 ? 'MCC' : sev === 1 ? 'CC' : null,
      excluded_by_pdx: !principal && i >= 0 && s.dxExcl[k] === 1,
      excluded_died: !principal && i >= 0 && s.dxDeath[k] === 1,
      suppressed: suppressedBy(L, s, k, i, finSupp),
      hac: hl,
      hac_met: !principal && s.dxHacMet[k] === 1,
      poa: input.poa ? poaChar(input.poa, k) || null : null,
      initial_severity_flag: severityFlag(L, s, k, i, sev, initSupp, false, edited, initOk),
      final_severity_flag: finalFlag,
      affects: AFFECTS[marks.dx[k]],
    };
  }
  for (let j = 0; j < s.nPr; j++) {
    const p = s.prIdx[j];
    const code = s.prCodes[j];
    const raw = prIn[j];
    const inputCode = typeof raw === 'string' ? raw : String(raw ?? '');
    if (p < 0) warnings.push(`procedure "${inputCode}" is not a valid ICD-10-PCS code in ${L.version}`);
    else if (lenient && code !== inputCode) warnings.push(`procedure "${inputCode}" read as ${code}`);
    let cl: string[] = NO_CLUSTERS;
    if (p >= 0 && s.nClSat > 0) {
      cl = [];
      for (let q = t.prClusterOff[p]; q < t.prClusterOff[p + 1]; q++) {
        const c = t.prClusterIds[q];
        for (let x = 0; x < s.nClSat; x++) {
          if (s.clSat[x] === c) {
            cl.push(t.clusterNames[c]);
            break;
          }
        }
      }
    }
    pr[j] = { code, input: inputCode, valid: p >= 0, is_or: p >= 0 ? t.prOr[p] === 1 : t.meta.invalidPrIsOr, clusters: cl, affects: AFFECTS[marks.pr[j]] };
  }
  if (s.ds < 0) warnings.push(`discharge status "${String(input.dischargeStatus)}" is not a valid UB-04 code`);
  if (s.sex === 2 && s.pdx >= 0 && t.dxFlags[s.pdx] & DXF_SEXMDC)
    warnings.push(`principal diagnosis ${s.dxCodes[0]} needs the patient's sex to choose its MDC`);
  const ghost = ghostWarning(L, fin) ?? (fin !== init ? ghostWarning(L, init) : null);
  if (ghost) warnings.push(ghost);
  if (fin.row >= 0 && L.rows[fin.row].mappedFrom) {
    warnings.push(
      `${L.version} is derived: DRG ${pad3(fin.drg)} comes from ${pad3(L.rows[fin.row].mappedFrom)}, the base version's DRG of the same family (Appendix A titles); ${L.version}'s own split of that family may differ (see fidelity_note).`,
    );
  }

  const hacStatus: GroupResult['hac_status'] = !s.anyHacMet
    ? 'NOT_APPLICABLE'
    : s.hacGrc !== 'OK'
      ? 'FINAL_DRG_UNGROUPABLE'
      : fin.drg === init.drg
        ? 'FINAL_DRG_NO_CHANGE'
        : 'FINAL_DRG_CHANGES';
  const candList = [pad3(fin.drg)];
  if (fin.drg !== 999 && fin.row >= 0) {
    for (const r of cands) {
      const d = pad3(L.rows[r].drg);
      if (!candList.includes(d)) candList.push(d);
    }
  }

  return {
    version: L.version,
    fiscal_year: L.fiscalYear,
    fidelity: L.fidelity,
    fidelity_note: L.fidelityNote,
    drg: pad3(fin.drg),
    mdc: pad2(fin.mdc),
    type: typeOf(fin.surgical),
    med_surg: medSurgOf(fin.surgical),
    return_code: fin.grc,
    description: L.drgTitleOf(fin.drg),
    mdc_description: L.mdcTitleOf(fin.mdc),
    base_drg: pad3(fin.baseDrg),
    severity: sevName(fin.severity),
    severity_driver: driver,
    initial_drg: pad3(init.drg),
    initial_mdc: pad2(init.mdc),
    initial_type: typeOf(init.surgical),
    initial_return_code: init.grc,
    initial_severity: sevName(init.severity),
    hac_status: hacStatus,
    discharge_status: s.ds,
    all_candidates: candList,
    dx: detail ? dx : [],
    pr: detail ? pr : [],
    warnings,
  };
}
