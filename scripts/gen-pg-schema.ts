/**
 * `bun scripts/gen-pg-schema.ts`: writes db/schema-pg (drizzle pg-core) from db/schema (sqlite-core),
 * one file per schema file, so the PostgreSQL schema is never edited by hand. Re-run it after any
 * change to db/schema, then `bun run db:generate:pg -- --name <what>` for the PostgreSQL migration;
 * test/store/pg-schema.test.ts fails while the two schemas disagree.
 *
 * Mapping (postgres-study.md §1, §6): same table, column and index names; `integer` (epoch ms,
 * minor units, counters) -> `bigint({ mode: "number" })`; `integer({ mode: "boolean" })` ->
 * `boolean`; `integer().primaryKey({ autoIncrement: true })` -> bigint identity (by default, so
 * rows copied from SQLite keep their ids); `text` -> `text`; partial-index predicates keep their
 * text and column references. Anything else (checks, expression indexes, SQL defaults, other
 * column types) stops the generator with an error naming it, rather than being guessed.
 */
import { readdirSync, mkdirSync, writeFileSync, rmSync } from "node:fs";
import { join, basename } from "node:path";
import { Column, type SQL, StringChunk, Table, getTableColumns, is } from "drizzle-orm";
import { getTableConfig, type SQLiteTable } from "drizzle-orm/sqlite-core";

const ROOT = join(import.meta.dir, "..");
const SOURCE_DIR = join(ROOT, "db/schema");
const OUT_DIR = join(ROOT, "db/schema-pg");

/** Where one table of db/schema lives: its export name and its file (without `.ts`). */
interface Home {
  exportName: string;
  file: string;
}

/** A JS string literal. */
const str = (s: string) => JSON.stringify(s);

/** The pg-core builder call of one SQLite column, without its constraints. */
function columnType(c: Column): { call: string; builder: string } {
  switch (c.columnType) {
    case "SQLiteText": {
      const enums = (c as unknown as { enumValues?: string[] }).enumValues;
      return enums?.length
        ? { call: `text(${str(c.name)}, { enum: ${JSON.stringify(enums)} })`, builder: "text" }
        : { call: `text(${str(c.name)})`, builder: "text" };
    }
    case "SQLiteInteger":
      return { call: `bigint(${str(c.name)}, { mode: "number" })`, builder: "bigint" };
    case "SQLiteBoolean":
      return { call: `boolean(${str(c.name)})`, builder: "boolean" };
    default:
      throw new Error(`column ${c.name}: no PostgreSQL mapping for ${c.columnType}; extend scripts/gen-pg-schema.ts`);
  }
}

/** A literal default as source text; SQL defaults are refused (none exist; map them by hand here). */
function defaultLiteral(c: Column): string {
  const v = c.default;
  if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") return JSON.stringify(v);
  throw new Error(`column ${c.name}: unsupported default ${String(v)}; extend scripts/gen-pg-schema.ts`);
}

/**
 * A partial-index predicate as a `sql` template: literal text kept, column references turned into
 * `${t.<key>}` so pg-core renders them as it renders its own.
 */
function predicate(where: SQL, keyOf: Map<Column, string>, index: string): string {
  let body = "";
  for (const chunk of where.queryChunks) {
    if (is(chunk, StringChunk))
      body += chunk.value.join("").replaceAll("\\", "\\\\").replaceAll("`", "\\`").replaceAll("${", "\\${");
    else if (is(chunk, Column) && keyOf.has(chunk)) body += `\${t.${keyOf.get(chunk)}}`;
    else throw new Error(`index ${index}: unsupported predicate part ${String(chunk?.constructor?.name)}`);
  }
  return `sql\`${body}\``;
}

/** Source of one pgTable declaration; adds what it needs to `imports` and `refs`. */
function tableSource(
  table: SQLiteTable,
  exportName: string,
  homes: Map<Table, Home>,
  file: string,
  imports: Set<string>,
  refs: Map<string, Set<string>>,
): string {
  const cfg = getTableConfig(table);
  if (cfg.checks.length || cfg.uniqueConstraints.length)
    throw new Error(`table ${cfg.name}: checks and table unique constraints are not mapped`);
  const columns = getTableColumns(table) as Record<string, Column>;
  const keyOf = new Map<Column, string>(Object.entries(columns).map(([k, c]) => [c, k]));
  const key = (c: Column) => {
    const k = keyOf.get(c);
    if (k === undefined) throw new Error(`table ${cfg.name}: column ${c.name} is not one of its own`);
    return k;
  };
  imports.add("pgTable");

  const cols: string[] = [];
  for (const [k, c] of Object.entries(columns)) {
    const { call, builder } = columnType(c);
    imports.add(builder);
    let src = call;
    if (c.primary) src += ".primaryKey()";
    // sqlite-core marks an AUTOINCREMENT key as having a default (the rowid); identity replaces both.
    const identity = (c as unknown as { autoIncrement?: boolean }).autoIncrement === true;
    if (identity) src += ".generatedByDefaultAsIdentity()";
    else if (c.notNull && !c.primary) src += ".notNull()";
    if (c.hasDefault && !identity) src += `.default(${defaultLiteral(c)})`;
    if (c.isUnique) src += `.unique(${str(c.uniqueName ?? `${cfg.name}_${c.name}_unique`)})`;
    cols.push(`    ${k}: ${src},`);
  }

  const extras: string[] = [];
  for (const pk of cfg.primaryKeys) {
    imports.add("primaryKey");
    extras.push(`primaryKey({ columns: [${pk.columns.map((c) => `t.${key(c)}`).join(", ")}] })`);
  }
  for (const idx of cfg.indexes) {
    const { name, columns: on, unique, where } = idx.config;
    const builder = unique ? "uniqueIndex" : "index";
    imports.add(builder);
    const parts = on.map((c) => {
      if (!is(c, Column)) throw new Error(`index ${name}: expression columns are not mapped`);
      return `t.${key(c)}`;
    });
    let src = `${builder}(${str(name)}).on(${parts.join(", ")})`;
    if (where) {
      src += `.where(${predicate(where, keyOf, name)})`;
      refs.set("drizzle-orm", (refs.get("drizzle-orm") ?? new Set()).add("sql"));
    }
    extras.push(src);
  }
  for (const fk of cfg.foreignKeys) {
    const r = fk.reference();
    const home = homes.get(r.foreignTable as unknown as Table);
    if (!home) throw new Error(`foreign key ${fk.getName()}: its table is not exported from db/schema`);
    const foreignCols = getTableColumns(r.foreignTable) as Record<string, Column>;
    const fkey = (c: Column) => Object.entries(foreignCols).find(([, fc]) => fc === c)![0];
    if (home.file !== file) refs.set(`./${home.file}`, (refs.get(`./${home.file}`) ?? new Set()).add(home.exportName));
    imports.add("foreignKey");
    let src = `foreignKey({ name: ${str(fk.getName())}, columns: [${r.columns.map((c) => `t.${key(c)}`).join(", ")}], foreignColumns: [${r.foreignColumns.map((c) => `${home.exportName}.${fkey(c)}`).join(", ")}] })`;
    if (fk.onDelete && fk.onDelete !== "no action") src += `.onDelete(${str(fk.onDelete)})`;
    if (fk.onUpdate && fk.onUpdate !== "no action") src += `.onUpdate(${str(fk.onUpdate)})`;
    extras.push(src);
  }

  const head = `export const ${exportName} = pgTable(\n  ${str(cfg.name)},\n  {\n${cols.join("\n")}\n  }`;
  if (!extras.length) return `${head},\n);\n`;
  return `${head},\n  (t) => [\n${extras.map((e) => `    ${e},`).join("\n")}\n  ],\n);\n`;
}

/** Every schema file of `dir` (index.ts excepted) with its exported tables, in file order. */
async function sources(dir: string): Promise<{ file: string; tables: [string, SQLiteTable][] }[]> {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".ts") && f !== "index.ts")
    .sort();
  const out = [];
  for (const f of files) {
    const mod = (await import(join(dir, f))) as Record<string, unknown>;
    const tables = Object.entries(mod).filter((e): e is [string, SQLiteTable] => is(e[1], Table));
    out.push({ file: basename(f, ".ts"), tables });
  }
  return out;
}

/**
 * Renders every db/schema-pg file (file name -> source text) from the sqlite-core schema files of
 * `sourceDir` (db/schema by default). Throws on a construct it does not map.
 */
export async function renderPgSchema(sourceDir: string = SOURCE_DIR): Promise<Map<string, string>> {
  const groups = await sources(sourceDir);
  const homes = new Map<Table, Home>();
  for (const g of groups)
    for (const [exportName, t] of g.tables) homes.set(t as unknown as Table, { exportName, file: g.file });

  const files = new Map<string, string>();
  for (const g of groups) {
    const imports = new Set<string>();
    const refs = new Map<string, Set<string>>();
    const bodies = g.tables.map(([name, t]) => tableSource(t, name, homes, g.file, imports, refs));
    const lines = [
      `/** GENERATED by scripts/gen-pg-schema.ts from db/schema/${g.file}.ts (documented there): do not edit. */`,
    ];
    for (const [from, names] of [...refs].sort(([a], [b]) => a.localeCompare(b))) {
      if (from === "drizzle-orm") lines.push(`import { ${[...names].sort().join(", ")} } from "drizzle-orm";`);
    }
    lines.push(`import { ${[...imports].sort().join(", ")} } from "drizzle-orm/pg-core";`);
    for (const [from, names] of [...refs].sort(([a], [b]) => a.localeCompare(b))) {
      if (from !== "drizzle-orm") lines.push(`import { ${[...names].sort().join(", ")} } from ${str(from)};`);
    }
    files.set(`${g.file}.ts`, `${lines.join("\n")}\n\n${bodies.join("\n")}`);
  }
  const index = groups.map((g) => `export * from "./${g.file}";`).join("\n");
  files.set(
    "index.ts",
    `/** GENERATED by scripts/gen-pg-schema.ts: every table of db/schema, on pg-core (drizzle-kit reads this file). */\n${index}\n`,
  );
  return files;
}

if (import.meta.main) {
  const files = await renderPgSchema();
  rmSync(OUT_DIR, { recursive: true, force: true });
  mkdirSync(OUT_DIR, { recursive: true });
  for (const [name, text] of files) writeFileSync(join(OUT_DIR, name), text);
  console.log(`wrote ${files.size} files to db/schema-pg`);
}
