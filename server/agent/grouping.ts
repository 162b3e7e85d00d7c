/**
 * The DRG of a coded case: the deterministic grouper (server/drg) always computes it, in both engines, from the
 * verified codes. The model never states a DRG that the agent returns.
 */
import { groupCase, type GroupResult } from '../drg';
import type { CodingResult } from './types';

export const MAX_DX = 25;
export const MAX_PR = 25;

/** Group the case and write each code's CC/MCC level and O.R. flag (as the grouper sees them) back into it. */
export async function groupCoding(coding: CodingResult, version: string): Promise<GroupResult | null> {
  if (!coding.principal) return null;
  const dxCodes = [coding.principal, ...coding.secondary].slice(0, MAX_DX);
  const prCodes = coding.procedures.slice(0, MAX_PR);
  const r = await groupCase(
    version,
    {
      dx: dxCodes.map((c) => c.code),
      pr: prCodes.map((c) => c.code),
      sex: coding.patient.sex ?? undefined,
      alive: coding.patient.alive,
      dischargeStatus: coding.patient.discharge_status,
    },
    { codes: 'lenient', detail: true },
  );
  r.dx.forEach((d, i) => {
    const c = dxCodes[i];
    if (c) c.cc_mcc = d.principal ? null : d.severity;
  });
  r.pr.forEach((p, i) => {
    const c = prCodes[i];
    if (c) c.is_or = p.valid ? p.is_or : null;
  });
  return r;
}
