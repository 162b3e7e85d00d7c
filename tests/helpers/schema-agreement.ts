import type { Queryable } from '@/server/db';

/**
 * `prisma/schema.prisma` against a database migrated from `prisma/migrations/`: tables, columns (type, nullability,
 * whether a default exists), primary keys, unique constraints, indexes and foreign keys. `schema.prisma` is the source
 * of truth; this is what keeps the SQL migrations honest to it (Prisma's own schema engine cannot run offline).
 *
 * The parser reads the subset of the Prisma schema language this project uses: models, scalar and relation fields,
 * `?` and `[]`, `@id @unique @default @map @db.* @relation @ignore`, `@@id @@unique @@index @@map @@ignore`.
 */
export interface SchemaField {
  name: string;
  column: string;
  type: string;
  optional: boolean;
  list: boolean;
  dbType: string | null;
  default: string | null;
  id: boolean;
  unique: boolean;
  /** A relation field: the columns it uses, the referenced model and columns, and onDelete. */
  relation: { fields: string[]; model: string; references: string[]; onDelete: string | null } | null;
}

export interface SchemaModel {
  name: string;
  table: string;
  fields: SchemaField[];
  id: string[];
  uniques: string[][];
  indexes: string[][];
}

const SCALARS = new Set(['String', 'Int', 'BigInt', 'Boolean', 'DateTime', 'Json', 'Float', 'Decimal', 'Bytes']);

function listArg(s: string): string[] {
  return s
    .split(',')
    .map((x) => x.trim().replace(/\(.*\)$/, '')) // createdAt(sort: Desc) -> createdAt
    .filter(Boolean);
}

/** The text inside the parentheses that open at `open` (balanced, strings respected). */
function balanced(s: string, open: number): string {
  let depth = 0;
  let inStr = false;
  for (let i = open; i < s.length; i++) {
    const c = s[i];
    if (inStr) {
      if (c === '\\') i++;
      else if (c === '"') inStr = false;
      continue;
    }
    if (c === '"') inStr = true;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return s.slice(open + 1, i);
  }
  throw new Error(`unbalanced parentheses in: ${s}`);
}

function attrArg(line: string, attr: string): string | null {
  const re = new RegExp(`${attr.replace(/[.@]/g, (c) => `\\${c}`)}\\(`);
  const m = re.exec(line);
  return m ? balanced(line, m.index + m[0].length - 1) : null;
}

export function parseSchema(text: string): SchemaModel[] {
  const models: SchemaModel[] = [];
  const noComments = text.replace(/\/\/[^\n]*/g, '');
  const blockRe = /^model\s+(\w+)\s*\{([\s\S]*?)^\}/gm;
  for (let m = blockRe.exec(noComments); m; m = blockRe.exec(noComments)) {
    const [, name, body] = m;
    const model: SchemaModel = { name: name!, table: name!, fields: [], id: [], uniques: [], indexes: [] };
    for (const raw of body!.split('\n')) {
      const line = raw.trim();
      if (!line) continue;
      if (line.startsWith('@@')) {
        const map = attrArg(line, '@@map');
        if (map) model.table = JSON.parse(map) as string;
        const id = attrArg(line, '@@id');
        if (id) model.id = listArg(id.replace(/^\[|\]$/g, ''));
        for (const [attr, into] of [
          ['@@unique', model.uniques],
          ['@@index', model.indexes],
        ] as const) {
          const arg = attrArg(line, attr);
          if (arg) into.push(listArg(/^\[([^\]]*)\]/.exec(arg.replace(/^fields:\s*/, ''))![1]!));
        }
        continue;
      }
      const fm = /^(\w+)\s+(Unsupported\("[^"]+"\)|\w+)(\[\])?(\?)?(.*)$/.exec(line);
      if (!fm) throw new Error(`cannot read schema line in model ${name}: ${line}`);
      const [, fname, ftype, list, opt, attrs = ''] = fm;
      const rel = attrArg(attrs, '@relation');
      const isScalar = SCALARS.has(ftype!) || ftype!.startsWith('Unsupported');
      if (!isScalar) {
        // a relation field: only the side holding `fields:` maps to columns (a foreign key)
        if (rel && /fields:/.test(rel)) {
          const fields = listArg(/fields:\s*\[([^\]]*)\]/.exec(rel)![1]!);
          const references = listArg(/references:\s*\[([^\]]*)\]/.exec(rel)![1]!);
          const onDelete = /onDelete:\s*(\w+)/.exec(rel)?.[1] ?? null;
          model.fields.push({
            name: fname!,
            column: '',
            type: ftype!,
            optional: !!opt,
            list: !!list,
            dbType: null,
            default: null,
            id: false,
            unique: false,
            relation: { fields, model: ftype!, references, onDelete },
          });
        }
        continue;
      }
      const map = attrArg(attrs, '@map');
      const dbm = /@db\.(\w+)(\(([^)]*)\))?/.exec(attrs);
      model.fields.push({
        name: fname!,
        column: map ? (JSON.parse(map) as string) : fname!,
        type: ftype!,
        optional: !!opt,
        list: !!list,
        dbType: dbm ? `${dbm[1]}${dbm[2] ?? ''}` : null,
        default: attrArg(attrs, '@default'),
        id: /@id\b/.test(attrs),
        unique: /@unique\b/.test(attrs),
        relation: null,
      });
    }
    const idField = model.fields.find((f) => f.id);
    if (idField) model.id = [idField.name];
    models.push(model);
  }
  return models;
}

/** The PostgreSQL type a scalar field maps to, as `format_type()` writes it. */
export function expectedSqlType(f: SchemaField): string {
  const unsupported = /^Unsupported\("([^"]+)"\)$/.exec(f.type);
  if (unsupported) return unsupported[1]!;
  const db = f.dbType;
  let base: string;
  if (db === 'Uuid') base = 'uuid';
  else if (db === 'Date') base = 'date';
  else if (db?.startsWith('Timestamptz')) base = `timestamp${/\((\d+)\)/.exec(db)?.[0] ?? ''} with time zone`;
  else if (db?.startsWith('VarChar')) base = `character varying${/\((\d+)\)/.exec(db)?.[0] ?? ''}`;
  else if (db) throw new Error(`@db.${db} is not known to the agreement check; add it`);
  else {
    const byType: Record<string, string> = {
      String: 'text',
      Int: 'integer',
      BigInt: 'bigint',
      Boolean: 'boolean',
      DateTime: 'timestamp(3) without time zone',
      Json: 'jsonb',
      Float: 'double precision',
      Decimal: 'numeric(65,30)',
      Bytes: 'bytea',
    };
    base = byType[f.type] ?? '?';
  }
  return f.list ? `${base}[]` : base;
}

export interface DbColumn {
  table: string;
  column: string;
  type: string;
  nullable: boolean;
  default: string | null;
}
export interface DbIndex {
  table: string;
  name: string;
  unique: boolean;
  primary: boolean;
  /** Column names in order; null when the index has an expression or a WHERE clause (Prisma cannot declare it). */
  columns: string[] | null;
  definition: string;
}
export interface DbForeignKey {
  table: string;
  columns: string[];
  refTable: string;
  refColumns: string[];
  onDelete: string;
}
export interface DbShape {
  tables: string[];
  columns: DbColumn[];
  indexes: DbIndex[];
  foreignKeys: DbForeignKey[];
}

/** Introspect the public schema from pg_catalog (same query on PostgreSQL and PGlite). */
export async function introspect(q: Queryable): Promise<DbShape> {
  const tables = (
    await q.query<{ t: string }>(
      `SELECT c.relname AS t FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') ORDER BY 1`,
    )
  ).map((r) => r.t);
  const columns = await q.query<{ table: string; column: string; type: string; nullable: boolean; default: string | null }>(
    `SELECT c.relname AS "table", a.attname AS "column", format_type(a.atttypid, a.atttypmod) AS type, NOT a.attnotnull AS nullable,
            pg_get_expr(d.adbin, d.adrelid) AS "default"
       FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
       LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped`,
  );
  const idx = await q.query<{
    table: string;
    name: string;
    unique: boolean;
    primary: boolean;
    cols: string | null;
    exprs: boolean;
    partial: boolean;
    definition: string;
  }>(
    `SELECT t.relname AS "table", i.relname AS name, x.indisunique AS "unique", x.indisprimary AS "primary",
            x.indexprs IS NOT NULL AS exprs, x.indpred IS NOT NULL AS partial, pg_get_indexdef(x.indexrelid) AS definition,
            (SELECT string_agg(a.attname, ',' ORDER BY k.ord) FROM unnest(x.indkey::int2[]) WITH ORDINALITY k(attnum, ord)
               JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum) AS cols
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace WHERE n.nspname = 'public'`,
  );
  const fks = await q.query<{ table: string; cols: string; ref_table: string; ref_cols: string; on_delete: string }>(
    `SELECT t.relname AS "table", r.relname AS ref_table, c.confdeltype AS on_delete,
            (SELECT string_agg(a.attname, ',' ORDER BY k.ord) FROM unnest(c.conkey) WITH ORDINALITY k(attnum, ord) JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum) AS cols,
            (SELECT string_agg(a.attname, ',' ORDER BY k.ord) FROM unnest(c.confkey) WITH ORDINALITY k(attnum, ord) JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum) AS ref_cols
       FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_class r ON r.oid = c.confrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace WHERE n.nspname = 'public' AND c.contype = 'f'`,
  );
  const ON_DELETE: Record<string, string> = { a: 'NoAction', r: 'Restrict', c: 'Cascade', n: 'SetNull', d: 'SetDefault' };
  return {
    tables,
    columns: columns.map((c) => ({ ...c, nullable: !!c.nullable })),
    indexes: idx.map((i) => ({
      table: i.table,
      name: i.name,
      unique: !!i.unique,
      primary: !!i.primary,
      columns: i.exprs || i.partial || !i.cols ? null : i.cols.split(','),
      definition: i.definition,
    })),
    foreignKeys: fks.map((f) => ({
      table: f.table,
      columns: f.cols.split(','),
      refTable: f.ref_table,
      refColumns: f.ref_cols.split(','),
      onDelete: ON_DELETE[f.on_delete] ?? f.on_delete,
    })),
  };
}

/**
 * What the migrations create that the Prisma schema language cannot declare (expression and partial indexes), and
 * tables that are not records. Each is named, so a new one must be added here on purpose.
 */
export const NOT_EXPRESSIBLE = {
  tables: new Set(['_prisma_migrations']),
  indexes: new Set([
    'organizations_name_lower_key', // unique on lower(name): names are unique regardless of case
    'llm_models_scope_name_key', // unique on (COALESCE(org_id, zero uuid), name): one name per scope
    'drg_batches_parked_idx', // partial: WHERE status = 'parked'
    'drg_batch_cases_pending_idx', // partial: WHERE status = 'pending'
  ]),
};

/** Every disagreement between the schema and the migrated database, as readable lines (empty = they agree). */
export function compareSchema(models: SchemaModel[], db: DbShape): string[] {
  const problems: string[] = [];
  const byTable = new Map(models.map((m) => [m.table, m]));
  const colOf = (m: SchemaModel, field: string) => m.fields.find((f) => f.name === field)?.column ?? `?${field}`;
  for (const t of db.tables) if (!byTable.has(t) && !NOT_EXPRESSIBLE.tables.has(t)) problems.push(`table ${t}: in the migrations, not in schema.prisma`);
  for (const m of models) {
    if (!db.tables.includes(m.table)) {
      problems.push(`table ${m.table} (model ${m.name}): in schema.prisma, not in the migrations`);
      continue;
    }
    const dbCols = new Map(db.columns.filter((c) => c.table === m.table).map((c) => [c.column, c]));
    const scalar = m.fields.filter((f) => !f.relation);
    for (const f of scalar) {
      const c = dbCols.get(f.column);
      const where = `${m.table}.${f.column}`;
      if (!c) {
        problems.push(`column ${where}: in schema.prisma, not in the migrations`);
        continue;
      }
      const want = expectedSqlType(f);
      if (c.type !== want) problems.push(`column ${where}: type ${c.type} in the migrations, ${want} in schema.prisma`);
      if (c.nullable !== f.optional)
        problems.push(`column ${where}: ${c.nullable ? 'nullable' : 'NOT NULL'} in the migrations, ${f.optional ? 'optional' : 'required'} in schema.prisma`);
      // uuid() and cuid() defaults are made by Prisma Client, not the database
      const clientSide = f.default !== null && /^(uuid|cuid|nanoid|ulid)\(/.test(f.default);
      if (!clientSide && (f.default !== null) !== (c.default !== null)) {
        problems.push(`column ${where}: default ${c.default ?? 'none'} in the migrations, ${f.default ?? 'none'} in schema.prisma`);
      }
      if (f.default === 'autoincrement()' && !/^nextval\(/.test(c.default ?? ''))
        problems.push(`column ${where}: autoincrement in schema.prisma, default ${c.default ?? 'none'} in the migrations`);
      if (f.default === 'now()' && !/CURRENT_TIMESTAMP|now\(\)/i.test(c.default ?? ''))
        problems.push(`column ${where}: now() in schema.prisma, default ${c.default ?? 'none'} in the migrations`);
      if (f.default !== null && /^-?\d+$/.test(f.default) && (c.default ?? '').replace(/::\w+.*$/, '').replace(/^'|'$/g, '') !== f.default) {
        problems.push(`column ${where}: default ${c.default ?? 'none'} in the migrations, ${f.default} in schema.prisma`);
      }
      if ((f.default === 'true' || f.default === 'false') && c.default !== f.default)
        problems.push(`column ${where}: default ${c.default ?? 'none'} in the migrations, ${f.default} in schema.prisma`);
    }
    for (const c of dbCols.keys()) if (!scalar.some((f) => f.column === c)) problems.push(`column ${m.table}.${c}: in the migrations, not in schema.prisma`);

    const idx = db.indexes.filter((i) => i.table === m.table && !NOT_EXPRESSIBLE.indexes.has(i.name));
    const key = (cols: string[]) => cols.join(',');
    const pk = idx.find((i) => i.primary);
    const wantPk = m.id.map((f) => colOf(m, f));
    if (key(pk?.columns ?? []) !== key(wantPk))
      problems.push(`table ${m.table}: primary key (${key(pk?.columns ?? [])}) in the migrations, (${key(wantPk)}) in schema.prisma`);
    const wantUnique = [...m.fields.filter((f) => f.unique).map((f) => [f.column]), ...m.uniques.map((u) => u.map((f) => colOf(m, f)))].map(key);
    const wantIndex = m.indexes.map((u) => key(u.map((f) => colOf(m, f))));
    const haveUnique = idx.filter((i) => i.unique && !i.primary).map((i) => (i.columns ? key(i.columns) : `expression index ${i.name}`));
    const haveIndex = idx.filter((i) => !i.unique).map((i) => (i.columns ? key(i.columns) : `expression index ${i.name}`));
    for (const u of wantUnique) if (!haveUnique.includes(u)) problems.push(`table ${m.table}: unique (${u}) in schema.prisma, not in the migrations`);
    for (const u of haveUnique) if (!wantUnique.includes(u)) problems.push(`table ${m.table}: unique (${u}) in the migrations, not in schema.prisma`);
    for (const u of wantIndex) if (!haveIndex.includes(u)) problems.push(`table ${m.table}: index (${u}) in schema.prisma, not in the migrations`);
    for (const u of haveIndex) if (!wantIndex.includes(u)) problems.push(`table ${m.table}: index (${u}) in the migrations, not in schema.prisma`);

    const wantFks = m.fields
      .filter((f) => f.relation)
      .map((f) => {
        const target = models.find((x) => x.name === f.relation!.model);
        return `(${key(f.relation!.fields.map((x) => colOf(m, x)))}) -> ${target?.table ?? f.relation!.model}(${key(f.relation!.references.map((x) => (target ? colOf(target, x) : x)))}) on delete ${f.relation!.onDelete ?? (f.optional ? 'SetNull' : 'Restrict')}`;
      });
    const haveFks = db.foreignKeys
      .filter((k) => k.table === m.table)
      .map((k) => `(${key(k.columns)}) -> ${k.refTable}(${key(k.refColumns)}) on delete ${k.onDelete}`);
    for (const k of wantFks) if (!haveFks.includes(k)) problems.push(`table ${m.table}: foreign key ${k} in schema.prisma, not in the migrations`);
    for (const k of haveFks) if (!wantFks.includes(k)) problems.push(`table ${m.table}: foreign key ${k} in the migrations, not in schema.prisma`);
  }
  return problems;
}
