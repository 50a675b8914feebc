/**
 * One dialect-free shape of a schema, so that db/schema (sqlite-core), db/schema-pg (pg-core) and a
 * live PostgreSQL catalog can be compared field by field (test/store/pg-schema.test.ts,
 * pg-migrations.test.ts): per table its columns (type family, nullability, literal default,
 * identity), primary key, indexes (columns in order, uniqueness, partial predicate; a column-level
 * UNIQUE counts as a unique index of its constraint name, as drizzle-kit creates it on SQLite) and
 * foreign keys. `diffShapes` lists every difference as one readable line.
 */
import { Column, SQL, StringChunk, Table, getTableColumns, getTableName, is } from "drizzle-orm";
import { getTableConfig as sqliteConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import { getTableConfig as pgConfig, IndexedColumn, PgTable } from "drizzle-orm/pg-core";

/** `int64` covers SQLite `integer` and PostgreSQL `bigint`; anything else is named as found. */
export type TypeFamily = "text" | "int64" | "boolean" | string;

export interface ColumnShape {
  type: TypeFamily;
  notNull: boolean;
  /** JSON of a literal default (`false`, `0`, `"{}"`), null when none (identity columns: null). */
  default: string | null;
  /** SQLite AUTOINCREMENT, PostgreSQL identity. */
  identity: boolean;
}

export interface IndexShape {
  columns: string[];
  unique: boolean;
  /** Partial-index predicate as text (columns bare, whitespace collapsed); null when total. */
  where: string | null;
}

export interface ForeignKeyShape {
  columns: string[];
  foreignTable: string;
  foreignColumns: string[];
}

export interface TableShape {
  columns: Record<string, ColumnShape>;
  primaryKey: string[];
  indexes: Record<string, IndexShape>;
  foreignKeys: Record<string, ForeignKeyShape>;
}

/** Table name -> shape. */
export type SchemaShape = Record<string, TableShape>;

/** The drizzle tables exported by a schema module (`import * as schema`). */
export function tablesOf(mod: Record<string, unknown>): Table[] {
  return Object.values(mod).filter((v): v is Table => is(v, Table));
}

/** A predicate's text: literal parts as written, column references as bare names, spaces collapsed. */
export function predicateText(where: SQL): string {
  let out = "";
  for (const chunk of where.queryChunks) {
    if (is(chunk, StringChunk)) out += chunk.value.join("");
    else if (is(chunk, Column)) out += chunk.name;
    else throw new Error(`unsupported predicate part ${String((chunk as object)?.constructor?.name)}`);
  }
  return out.replace(/\s+/g, " ").trim();
}

const SQLITE_TYPES: Record<string, TypeFamily> = {
  SQLiteText: "text",
  SQLiteInteger: "int64",
  SQLiteBoolean: "boolean",
};
const PG_TYPES: Record<string, TypeFamily> = { PgText: "text", PgBigInt53: "int64", PgBoolean: "boolean" };

function literal(c: Column, identity: boolean): string | null {
  if (!c.hasDefault || identity) return null;
  if (is(c.default, SQL)) return `sql:${predicateText(c.default as SQL)}`;
  return JSON.stringify(c.default);
}

type AnyConfig = ReturnType<typeof sqliteConfig> | ReturnType<typeof pgConfig>;

function shapeOf(
  table: Table,
  config: AnyConfig,
  types: Record<string, TypeFamily>,
  identityOf: (c: Column) => boolean,
): TableShape {
  const columns: Record<string, ColumnShape> = {};
  const indexes: Record<string, IndexShape> = {};
  const primaryKey: string[] = [];
  for (const c of Object.values(getTableColumns(table)) as Column[]) {
    const identity = identityOf(c);
    columns[c.name] = {
      type: types[c.columnType] ?? c.columnType,
      notNull: c.notNull,
      default: literal(c, identity),
      identity,
    };
    if (c.primary) primaryKey.push(c.name);
    if (c.isUnique)
      indexes[c.uniqueName ?? `${config.name}_${c.name}_unique`] = { columns: [c.name], unique: true, where: null };
  }
  for (const pk of config.primaryKeys) primaryKey.push(...pk.columns.map((c) => c.name));
  for (const idx of config.indexes) {
    const { name, columns: on, unique, where } = idx.config;
    if (!name) throw new Error(`table ${config.name}: an index without a name`);
    indexes[name] = {
      columns: on.map((c) => (is(c, Column) || is(c, IndexedColumn) ? c.name! : `expr:${predicateText(c as SQL)}`)),
      unique: unique === true,
      where: where ? predicateText(where) : null,
    };
  }
  if (config.uniqueConstraints.length)
    throw new Error(`table ${config.name}: table-level unique constraints are not shaped`);
  const foreignKeys: Record<string, ForeignKeyShape> = {};
  for (const fk of config.foreignKeys) {
    const r = fk.reference();
    foreignKeys[fk.getName()] = {
      columns: r.columns.map((c) => c.name),
      foreignTable: getTableName(r.foreignTable),
      foreignColumns: r.foreignColumns.map((c) => c.name),
    };
  }
  return { columns, primaryKey, indexes, foreignKeys };
}

/** The shape of sqlite-core tables (db/schema). */
export function sqliteShape(tables: Table[]): SchemaShape {
  const out: SchemaShape = {};
  for (const t of tables) {
    if (!is(t, SQLiteTable)) throw new Error("not a sqlite-core table");
    const config = sqliteConfig(t);
    out[config.name] = shapeOf(
      t,
      config,
      SQLITE_TYPES,
      (c) => (c as unknown as { autoIncrement?: boolean }).autoIncrement === true,
    );
  }
  return out;
}

/** The shape of pg-core tables (db/schema-pg). */
export function pgShape(tables: Table[]): SchemaShape {
  const out: SchemaShape = {};
  for (const t of tables) {
    if (!is(t, PgTable)) throw new Error("not a pg-core table");
    const config = pgConfig(t);
    out[config.name] = shapeOf(
      t,
      config,
      PG_TYPES,
      (c) => (c as unknown as { generatedIdentity?: unknown }).generatedIdentity !== undefined,
    );
  }
  return out;
}

const show = (v: unknown) => JSON.stringify(v);

/** Every difference between `expected` and `actual`, one line each (`table.column: ...`); empty when equal. */
export function diffShapes(expected: SchemaShape, actual: SchemaShape): string[] {
  const out: string[] = [];
  const keys = (a: object, b: object) => [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  for (const t of keys(expected, actual)) {
    const e = expected[t];
    const a = actual[t];
    if (!a) out.push(`${t}: table missing`);
    else if (!e) out.push(`${t}: table not in the expected schema`);
    if (!a || !e) continue;
    for (const c of keys(e.columns, a.columns)) {
      const ec = e.columns[c];
      const ac = a.columns[c];
      if (!ac) out.push(`${t}.${c}: column missing`);
      else if (!ec) out.push(`${t}.${c}: column not in the expected schema`);
      else
        for (const f of ["type", "notNull", "default", "identity"] as const)
          if (ec[f] !== ac[f]) out.push(`${t}.${c}: ${f} ${show(ac[f])}, expected ${show(ec[f])}`);
    }
    if (show(e.primaryKey) !== show(a.primaryKey))
      out.push(`${t}: primary key ${show(a.primaryKey)}, expected ${show(e.primaryKey)}`);
    for (const i of keys(e.indexes, a.indexes)) {
      const ei = e.indexes[i];
      const ai = a.indexes[i];
      if (!ai) out.push(`${t}: index ${i} missing`);
      else if (!ei) out.push(`${t}: index ${i} not in the expected schema`);
      else
        for (const f of ["columns", "unique", "where"] as const)
          if (show(ei[f]) !== show(ai[f])) out.push(`${t}: index ${i} ${f} ${show(ai[f])}, expected ${show(ei[f])}`);
    }
    for (const k of keys(e.foreignKeys, a.foreignKeys)) {
      const ek = e.foreignKeys[k];
      const ak = a.foreignKeys[k];
      if (!ak) out.push(`${t}: foreign key ${k} missing`);
      else if (!ek) out.push(`${t}: foreign key ${k} not in the expected schema`);
      else if (show(ek) !== show(ak)) out.push(`${t}: foreign key ${k} ${show(ak)}, expected ${show(ek)}`);
    }
  }
  return out;
}
