/**
 * The Athena vocabulary format: eight tab-separated files with a header row, named as Athena names them
 * (CONCEPT.csv … although they are tab-separated). The starter-bundle builder writes exactly this shape and the
 * importer reads it, so a real Athena download and our public bundle take the same path.
 */
export type ColumnType = 'int' | 'text' | 'date';

export interface AthenaColumn {
  name: string;
  type: ColumnType;
  /** NOT NULL in OMOP's DDL; an empty value is still accepted for text and stored as NULL only when nullable. */
  nullable?: boolean;
}

export interface AthenaTable {
  /** Table name in the database (OMOP CDM name). */
  table: string;
  /** File name in an Athena download. */
  file: string;
  columns: AthenaColumn[];
}

const c = (name: string, type: ColumnType, nullable = false): AthenaColumn => ({ name, type, nullable });

/** In load order: small reference tables first, then concepts, then the tables that point at concepts. */
export const ATHENA_TABLES: AthenaTable[] = [
  {
    table: 'vocabulary',
    file: 'VOCABULARY.csv',
    columns: [
      c('vocabulary_id', 'text'),
      c('vocabulary_name', 'text'),
      c('vocabulary_reference', 'text', true),
      c('vocabulary_version', 'text', true),
      c('vocabulary_concept_id', 'int'),
    ],
  },
  { table: 'domain', file: 'DOMAIN.csv', columns: [c('domain_id', 'text'), c('domain_name', 'text'), c('domain_concept_id', 'int')] },
  {
    table: 'concept_class',
    file: 'CONCEPT_CLASS.csv',
    columns: [c('concept_class_id', 'text'), c('concept_class_name', 'text'), c('concept_class_concept_id', 'int')],
  },
  {
    table: 'relationship',
    file: 'RELATIONSHIP.csv',
    columns: [
      c('relationship_id', 'text'),
      c('relationship_name', 'text'),
      c('is_hierarchical', 'text'),
      c('defines_ancestry', 'text'),
      c('reverse_relationship_id', 'text'),
      c('relationship_concept_id', 'int'),
    ],
  },
  {
    table: 'concept',
    file: 'CONCEPT.csv',
    columns: [
      c('concept_id', 'int'),
      c('concept_name', 'text'),
      c('domain_id', 'text'),
      c('vocabulary_id', 'text'),
      c('concept_class_id', 'text'),
      c('standard_concept', 'text', true),
      c('concept_code', 'text'),
      c('valid_start_date', 'date'),
      c('valid_end_date', 'date'),
      c('invalid_reason', 'text', true),
    ],
  },
  {
    table: 'concept_synonym',
    file: 'CONCEPT_SYNONYM.csv',
    columns: [c('concept_id', 'int'), c('concept_synonym_name', 'text'), c('language_concept_id', 'int')],
  },
  {
    table: 'concept_relationship',
    file: 'CONCEPT_RELATIONSHIP.csv',
    columns: [
      c('concept_id_1', 'int'),
      c('concept_id_2', 'int'),
      c('relationship_id', 'text'),
      c('valid_start_date', 'date'),
      c('valid_end_date', 'date'),
      c('invalid_reason', 'text', true),
    ],
  },
  {
    table: 'concept_ancestor',
    file: 'CONCEPT_ANCESTOR.csv',
    columns: [c('ancestor_concept_id', 'int'), c('descendant_concept_id', 'int'), c('min_levels_of_separation', 'int'), c('max_levels_of_separation', 'int')],
  },
];

/** Athena writes dates as YYYYMMDD; some exports use YYYY-MM-DD. */
export function parseAthenaDate(v: string): string | null {
  const s = v.trim();
  if (/^\d{8}$/.test(s)) return `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}`;
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) return s;
  return null;
}

export const ENGLISH_LANGUAGE_CONCEPT_ID = 4180186;

/** A field must not carry the separators of the format. */
export function cleanField(v: string): string {
  return v.replace(/[\t\r\n]+/g, ' ').trim();
}

export function tsvLine(values: Array<string | number | null | undefined>): string {
  return values.map((v) => (v === null || v === undefined ? '' : cleanField(String(v)))).join('\t') + '\n';
}

export class AthenaFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AthenaFormatError';
  }
}

/**
 * Check a header row against the table's columns: same names (case-insensitive), same order, tab-separated.
 * Returns the column order; throws with a message that says what is wrong with the file.
 */
export function checkHeader(table: AthenaTable, headerLine: string, fileName: string): void {
  const line = headerLine.replace(/^\uFEFF/, '').replace(/\r$/, '');
  if (!line.includes('\t')) {
    const hint = line.includes(',') ? ' It looks comma-separated; Athena files are tab-separated.' : '';
    throw new AthenaFormatError(`${fileName}: the header row has no tab separators.${hint} Expected: ${table.columns.map((x) => x.name).join(', ')}.`);
  }
  const got = line.split('\t').map((h) => h.trim().toLowerCase());
  const want = table.columns.map((x) => x.name);
  if (got.length !== want.length || got.some((g, i) => g !== want[i])) {
    throw new AthenaFormatError(
      `${fileName}: unexpected header. Expected the ${table.table.toUpperCase()} columns ${want.join(', ')}; found ${got.join(', ')}.`,
    );
  }
}
