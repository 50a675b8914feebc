/**
 * Raw SQL for tests, on either backend (test/support/backend.ts): set-up and assertions that
 * read or poke tables directly. Write SQL both databases accept: `?` placeholders (numbered
 * `$n` for PostgreSQL here), `true`/`false` for booleans, no SQLite- or PostgreSQL-only syntax
 * (branch on `db.kind` where a test must). Results come back as SQLite gives them: snake_case
 * columns, booleans as 0/1 and integers as numbers (PostgreSQL's int8, numeric and boolean are
 * converted by the result's column types).
 *
 *   const db = testDb(h.deps);
 *   const row = await db.get<{ status: string }>("select status from transactions where id = ?", id);
 */
import type { Deps } from "../../src/deps";
import type { SQL } from "bun";
import { sqliteDbOf } from "../../src/store/sqlite";
import type { PgStore } from "../../src/store/pg";

export interface TestDb {
  readonly kind: "sqlite" | "postgres";
  /** Every row of `sql` with `params` bound to its `?` placeholders. */
  all<T = Record<string, any>>(sql: string, ...params: unknown[]): Promise<T[]>;
  /** The first row, or undefined. */
  get<T = Record<string, any>>(sql: string, ...params: unknown[]): Promise<T | undefined>;
  /** Runs a statement; resolves with the number of rows it changed. */
  run(sql: string, ...params: unknown[]): Promise<number>;
  /** Runs one or more statements without parameters. */
  exec(sql: string): Promise<void>;
}

/** PostgreSQL type OIDs converted to numbers: int8, int4, int2, numeric, float8. */
const NUMBERS = new Set([20, 21, 23, 1700, 701]);
const BOOL = 16;

/** `?` placeholders (outside string literals) as `$1`, `$2`, ... */
export function numbered(sql: string): string {
  let n = 0;
  let out = "";
  let quoted = false;
  for (const ch of sql) {
    if (ch === "'") quoted = !quoted;
    out += ch === "?" && !quoted ? `$${++n}` : ch;
  }
  return out;
}

function normalise(result: any): Record<string, any>[] {
  const cols: { name: string; type: number }[] = result.columns ?? [];
  const conv = cols.map((c) => (NUMBERS.has(c.type) ? "n" : c.type === BOOL ? "b" : ""));
  return [...result].map((raw: Record<string, any>) => {
    const row: Record<string, any> = {};
    cols.forEach((c, j) => {
      const v = raw[c.name];
      row[c.name] = v === null || v === undefined ? v : conv[j] === "n" ? Number(v) : conv[j] === "b" ? (v ? 1 : 0) : v;
    });
    return row;
  });
}

/** The raw-SQL helper over `deps`'s database. */
export function testDb(deps: Pick<Deps, "store">): TestDb {
  if (deps.store.kind === "postgres") {
    const pool: SQL = (deps.store as PgStore).sql;
    const all = async (q: string, ...params: unknown[]) => normalise(await pool.unsafe(numbered(q), params as any[]));
    return {
      kind: "postgres",
      all: all as TestDb["all"],
      get: (async (q: string, ...params: unknown[]) => (await all(q, ...params))[0]) as TestDb["get"],
      async run(q, ...params) {
        return (await pool.unsafe(numbered(q), params as any[])).count ?? 0;
      },
      async exec(q) {
        await pool.unsafe(q);
      },
    };
  }
  const client = sqliteDbOf(deps.store).$client;
  const bind = (params: unknown[]) => params.map((p) => (typeof p === "boolean" ? (p ? 1 : 0) : p)) as any[];
  return {
    kind: "sqlite",
    all: (async (q: string, ...params: unknown[]) => client.query(q).all(...bind(params))) as TestDb["all"],
    get: (async (q: string, ...params: unknown[]) =>
      client.query(q).get(...bind(params)) ?? undefined) as TestDb["get"],
    async run(q, ...params) {
      return client.query(q).run(...bind(params)).changes;
    },
    async exec(q) {
      client.exec(q);
    },
  };
}
