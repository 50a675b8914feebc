/** What every SQLite repository is built on: the drizzle handle, the driver, cached statements. */
import type { Database, Statement } from "bun:sqlite";
import type { Db } from "./client";

/**
 * The adapter's connection. One per store: repositories keep no module-level state (the 21
 * `WeakMap`s of statements before the port became `stmt`).
 */
export interface SqliteContext {
  /** drizzle over the connection, for builder queries off the hot path. */
  db: Db;
  /** The bun:sqlite connection: inside a unit of work every statement runs in its transaction. */
  client: Database;
  /** The prepared statement for `sql`, prepared once per connection (hot paths). */
  stmt(sql: string): Statement;
}

/** Builds the context of `db`. */
export function sqliteContext(db: Db): SqliteContext {
  const statements = new Map<string, Statement>();
  return {
    db,
    client: db.$client,
    stmt(sql) {
      let st = statements.get(sql);
      if (!st) statements.set(sql, (st = db.$client.prepare(sql)));
      return st;
    },
  };
}
