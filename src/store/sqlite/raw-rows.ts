/**
 * Raw prepared statements for whole rows of a drizzle table (CONVENTIONS.md "Hot paths": drizzle's
 * builder costs several times the query): the select list with camelCase aliases, the insert
 * statement over every column, and the mapping back (0/1 -> booleans).
 */
import { getTableColumns, type Table } from "drizzle-orm";

/** The statements and mappers of `table`'s whole rows. */
export function rawRows<Row>(table: Table, name: string) {
  const cols = Object.entries(getTableColumns(table)).map(([key, col]) => ({
    key,
    name: col.name,
    bool: col.dataType === "boolean",
    /** Schema default, used when a row leaves the column undefined. */
    dflt:
      col.hasDefault && ["string", "number", "boolean"].includes(typeof col.default)
        ? (col.default as unknown)
        : undefined,
  }));
  const bools = cols.filter((c) => c.bool).map((c) => c.key);
  return {
    /** `select <every column as "camelKey"> from <name>` (add the where clause). */
    select: `select ${cols.map((c) => `"${c.name}" as "${c.key}"`).join(", ")} from ${name}`,
    insert: `insert into ${name} (${cols.map((c) => `"${c.name}"`).join(", ")}) values (${cols.map(() => "?").join(", ")})`,
    /** The insert's parameters of `row` (undefined -> the schema default, booleans -> 0/1). */
    values(row: object): (string | number | null)[] {
      const r = row as Record<string, unknown>;
      return cols.map((c) => {
        const v = r[c.key] === undefined ? c.dflt : r[c.key];
        if (v === undefined || v === null) return null;
        return typeof v === "boolean" ? (v ? 1 : 0) : (v as string | number);
      });
    },
    /** A selected row as the port's row type (undefined for none). */
    row(raw: unknown): Row | undefined {
      if (!raw) return undefined;
      const r = raw as Record<string, unknown>;
      for (const k of bools) r[k] = r[k] === 1 || r[k] === true;
      return r as Row;
    },
  };
}
