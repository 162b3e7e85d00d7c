import { z } from 'zod';
import type { GroupInput } from '../../drg';

/**
 * The DRG request resource (SPEC §2.4, §2.5, §4.4, §8), shared by classify, batch cases and the UI.
 *
 * Codes are accepted with or without dots and in any case (`i21.4` = `I214`). `gender` and `is_alive` are required:
 * both can change the DRG (sex-specific MDCs, expired AMI DRGs, "MCC only if discharged alive"), and a silently
 * assumed value could change what a hospital is paid. `version` defaults to v40; it is checked by
 * `resolveApiVersion()` (server/drg), the one version check of the API (400 `invalid_version`).
 */

/**
 * A code as typed: dots dropped, upper-cased. A diagnosis code that is no ICD-10-CM code (too long, unknown) is not a
 * shape error: the grouper grades it invalid, as the official CMS grouper does (an invalid principal diagnosis is DRG
 * 999). Only text that cannot be a code at all (empty, over 16 characters) is refused. ICD-10-PCS codes have exactly
 * 7 characters (SPEC §8).
 */
export const MAX_CODE_CHARS = 16;
const code = z
  .string()
  .trim()
  .min(1, 'a code cannot be empty')
  .max(MAX_CODE_CHARS, `a code has at most ${MAX_CODE_CHARS} characters`)
  .transform((s) => s.replace(/\./g, '').toUpperCase())
  .refine((s) => s.length >= 1, 'a code cannot be empty');

export const DxCodes = z
  .array(code)
  .min(1, 'at least one diagnosis code is required (the first is the principal diagnosis)')
  .max(10, 'at most 10 diagnosis codes');
export const PrCodes = z
  .array(code.refine((s) => s.length === 7, { message: 'an ICD-10-PCS code has exactly 7 characters' }))
  .max(10, 'at most 10 procedure codes');
export const Gender = z
  .string()
  .transform((s) => s.trim().toUpperCase())
  .pipe(z.enum(['F', 'M'], { message: "gender must be 'F' or 'M'" }));
/**
 * A requested MS-DRG version; resolved (and refused with 400 `invalid_version`) by `resolveApiVersion()` in
 * server/drg, which holds the list (API_VERSIONS). Only types are imported from there: this file is also bundled
 * for the browser (the Batches page's case-file parser), and server/drg reads files.
 */
export const VersionField = z
  .string()
  .optional()
  .describe(
    'MS-DRG grouper version, default v40. SPEC §2.4 versions: v36, v37, v38, v39, v40, v43; v40.1, v41, v41.1, v42, v42.1, v43.1 are served as an extension beyond SPEC §2.4 when their CMS tables are installed (GET /drg/versions/ lists what this server has). Other values get 400 invalid_version.',
  );

/** A calendar date `YYYY-MM-DD` that exists (2026-02-30 does not). */
const IsoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date YYYY-MM-DD')
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
  }, 'not a calendar date');

/**
 * Fields of one encounter. Extensions beyond the spec: discharge_status and poa (HAC logic), and what the Medicare
 * Code Editor needs beside the grouper: discharge_date, age, length_of_stay, admit_dx. Without them the edits that
 * need them are reported as not checked (and codes are checked for the grouper version's fiscal year).
 */
export const EncounterShape = {
  dx_codes: DxCodes,
  pr_codes: PrCodes.default([]),
  gender: Gender,
  is_alive: z.boolean(),
  /** CMS patient discharge status (e.g. 1 home, 2 short-term hospital, 7 against advice, 20 expired). Overrides is_alive when it says expired. */
  discharge_status: z.number().int().min(1).max(99).optional(),
  /** Present-on-admission indicator per diagnosis, aligned with dx_codes (Y, N, U, W, 1 or empty). */
  poa: z
    .array(z.enum(['Y', 'N', 'U', 'W', '1', '']))
    .max(10)
    .optional(),
  /** Discharge date (YYYY-MM-DD): the date the Medicare Code Editor checks the codes for. */
  discharge_date: IsoDate.optional(),
  /** Age in years at admission (Medicare Code Editor: age conflicts, invalid age over 124, age-based coverage). */
  age: z.number().int().min(0).max(999).optional(),
  /** Length of stay in days (Medicare Code Editor: procedures that need a longer stay). */
  length_of_stay: z.number().int().min(0).max(99999).optional(),
  /** Admitting diagnosis (ICD-10-CM; Medicare Code Editor: invalid admitting diagnosis). */
  admit_dx: code.optional(),
};

export const ClassifyRequest = z.strictObject({ ...EncounterShape, version: VersionField });
export type ClassifyRequest = z.output<typeof ClassifyRequest>;

export const BatchCase = z.strictObject({ case_ref: z.string().min(1).max(128), ...EncounterShape });
export type BatchCase = z.output<typeof BatchCase>;

/** API fields → the Medicare Code Editor's inputs beside the grouper's (server/drg/mce.ts). */
export function toEditInput(e: {
  dx_codes: string[];
  pr_codes?: string[];
  gender: 'F' | 'M' | null;
  discharge_status?: number;
  discharge_date?: string;
  age?: number;
  length_of_stay?: number;
  admit_dx?: string;
}) {
  return {
    dx: e.dx_codes,
    pr: e.pr_codes ?? [],
    sex: e.gender,
    age: e.age ?? null,
    dischargeDate: e.discharge_date ?? null,
    dischargeStatus: e.discharge_status ?? null,
    los: e.length_of_stay ?? null,
    admitDx: e.admit_dx ?? null,
  };
}

/** API fields → grouper input. */
export function toGroupInput(e: {
  dx_codes: string[];
  pr_codes?: string[];
  gender: 'F' | 'M';
  is_alive: boolean;
  discharge_status?: number;
  poa?: string[];
}): GroupInput {
  return {
    dx: e.dx_codes,
    pr: e.pr_codes ?? [],
    sex: e.gender,
    alive: e.discharge_status === 20 ? false : e.is_alive,
    dischargeStatus: e.discharge_status ?? (e.is_alive ? 1 : 20),
    poa: e.poa,
  };
}
