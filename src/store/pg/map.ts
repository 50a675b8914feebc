/**
 * Rows between PostgreSQL and the port's plain row types (src/store/rows/): result columns in
 * snake_case become camelCase keys, and `bigint` (int8) and `numeric` values, which Bun.SQL
 * returns as strings, become numbers (epoch ms, centavos and counters all fit in 2^53). Booleans
 * and text pass through. Written the other way, `toColumns` turns a camelCase row or patch into
 * the snake_case object `sql(obj)` inserts or sets. Column names follow db/schema exactly
 * (`pixBrCode` <-> `pix_br_code`; checked for every column by test/store/pg-map.test.ts).
 */

/** PostgreSQL type OIDs whose text form is a number: int8 (bigint, count(*)) and numeric (sum of bigint). */
const NUMERIC_OIDS = new Set([20, 1700]);

const camelCache = new Map<string, string>();
/** `pix_br_code` -> `pixBrCode` (memoised: a few dozen distinct names). */
export function camel(name: string): string {
  let c = camelCache.get(name);
  if (c === undefined) {
    c = name.replace(/_([a-z0-9])/g, (_, ch: string) => ch.toUpperCase());
    camelCache.set(name, c);
  }
  return c;
}

const snakeCache = new Map<string, string>();
/** `pixBrCode` -> `pix_br_code` (memoised). */
export function snake(key: string): string {
  let s = snakeCache.get(key);
  if (s === undefined) {
    s = key.replace(/[A-Z]/g, (ch) => `_${ch.toLowerCase()}`);
    snakeCache.set(key, s);
  }
  return s;
}

/** What a Bun.SQL result carries besides its rows. */
interface Described {
  columns?: readonly { name: string; type: number }[];
}

/**
 * The rows of a Bun.SQL result as the port's plain row type `T`: camelCase keys, int8 and numeric
 * as numbers (null stays null). Columns aliased in camelCase (`as "dueAt"`) keep their alias.
 */
export function rowsOf<T>(result: readonly Record<string, unknown>[] & Described): T[] {
  const n = result.length;
  if (n === 0) return [];
  const cols = result.columns ?? Object.keys(result[0]!).map((name) => ({ name, type: 0 }));
  const names = cols.map((c) => c.name);
  const keys = names.map(camel);
  const numeric = cols.map((c) => NUMERIC_OIDS.has(c.type));
  const out = new Array<T>(n);
  for (let i = 0; i < n; i++) {
    const raw = result[i]!;
    const row: Record<string, unknown> = {};
    for (let j = 0; j < names.length; j++) {
      const v = raw[names[j]!];
      row[keys[j]!] = numeric[j] && v !== null && v !== undefined ? Number(v) : v;
    }
    out[i] = row as T;
  }
  return out;
}

/** The first row of a result as `T` (see `rowsOf`), or undefined when there is none. */
export function rowOf<T>(result: readonly Record<string, unknown>[] & Described): T | undefined {
  return result.length === 0 ? undefined : rowsOf<T>(result)[0];
}

/** A single numeric value (`count(*)`, `sum(...)`, `min(...)`) of the first row's first column; null when absent or NULL. */
export function numberOf(result: readonly Record<string, unknown>[]): number | null {
  const row = result[0];
  if (!row) return null;
  const v = Object.values(row)[0];
  return v === null || v === undefined ? null : Number(v);
}

/**
 * `row` (camelCase keys) as the snake_case object `sql(obj)` writes: keys whose value is
 * undefined are left out (a patch sets only what it names; an insert lets column defaults apply).
 */
export function toColumns(row: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) if (v !== undefined) out[snake(k)] = v;
  return out;
}
