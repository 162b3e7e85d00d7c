import { AppError } from '../errors';

/** SPEC §4.1: the supported vocabularies and domains. DRG and OPCS4 are searched only when named. */
export const SUPPORTED_VOCABULARIES = [
  'ICD10',
  'ICD10CM',
  'ICD10PCS',
  'ICD9CM',
  'ICD9Proc',
  'SNOMED',
  'CPT4',
  'HCPCS',
  'RxNorm',
  'RxNorm Extension',
  'OPCS4',
  'DRG',
] as const;
export const ONLY_WHEN_NAMED = new Set(['DRG', 'OPCS4']);
export const DEFAULT_VOCABULARIES = SUPPORTED_VOCABULARIES.filter((v) => !ONLY_WHEN_NAMED.has(v));
export const SUPPORTED_DOMAINS = ['Condition', 'Procedure', 'Drug', 'Measurement', 'Observation', 'Device', 'Specimen'] as const;

const keyOf = (s: string) =>
  s
    .trim()
    .toUpperCase()
    .replace(/[\s_-]+/g, '');

/**
 * Case-insensitive vocabulary names → their normalised casing. Vocabularies imported from an Athena download beyond
 * the supported list (LOINC, …) are accepted too, by name.
 */
export function normalizeVocabularies(requested: string[] | undefined, loaded: string[]): string[] {
  if (!requested || requested.length === 0) return [...DEFAULT_VOCABULARIES];
  const known = new Map<string, string>();
  for (const v of [...SUPPORTED_VOCABULARIES, ...loaded]) known.set(keyOf(v), v);
  const out: string[] = [];
  const bad: string[] = [];
  for (const r of requested) {
    const v = known.get(keyOf(r));
    if (!v) bad.push(r);
    else if (!out.includes(v)) out.push(v);
  }
  if (bad.length) {
    throw new AppError(
      'invalid_vocabulary',
      `Unknown vocabular${bad.length > 1 ? 'ies' : 'y'} ${bad.map((b) => `'${b}'`).join(', ')}. Supported: ${[...known.values()].join(', ')}.`,
      {
        supported: [...new Set(known.values())],
      },
    );
  }
  return out;
}

export function normalizeDomain(requested: string | undefined, loaded: string[]): string | null {
  if (requested === undefined) return null;
  const known = new Map<string, string>();
  for (const d of [...SUPPORTED_DOMAINS, ...loaded]) if (d) known.set(keyOf(d), d);
  const d = known.get(keyOf(requested));
  if (!d)
    throw new AppError('invalid_domain', `Unknown domain '${requested}'. Supported: ${SUPPORTED_DOMAINS.join(', ')}.`, { supported: [...SUPPORTED_DOMAINS] });
  return d;
}

export function listVocabularies(loaded: string[]): string[] {
  return [...new Set([...SUPPORTED_VOCABULARIES, ...loaded.filter((v) => !!v)])];
}

export function listDomains(loaded: string[]): string[] {
  return [...new Set([...SUPPORTED_DOMAINS, ...loaded.filter((d) => SUPPORTED_DOMAINS.includes(d as (typeof SUPPORTED_DOMAINS)[number]))])];
}
