/**
 * The SQLite handle under a test's Deps, for tests of SQLite's own machinery (files marked
 * `// sqlite-only:`, or a `kind === "sqlite"` branch). Every other test reads and pokes tables
 * through test/support/test-db.ts `testDb`, which works on both backends.
 */
import type { Deps } from "../../src/deps";
import type { Db } from "../../src/store/sqlite/client";
import { sqliteDbOf } from "../../src/store/sqlite";

/** `deps`'s drizzle handle (tests are outside the layering rules; the domain never sees it); throws on PostgreSQL. */
export function dbOf(deps: Pick<Deps, "store">): Db {
  return sqliteDbOf(deps.store);
}
