/** The SQLite handle under a test's Deps, for setup and assertions that read tables directly. */
import type { Deps } from "../../src/deps";
import type { Db } from "../../src/db/client";
import { sqliteDbOf } from "../../src/store/sqlite";

/** `deps`'s drizzle handle (tests are outside the layering rules; the domain never sees it). */
export function dbOf(deps: Pick<Deps, "store">): Db {
  return sqliteDbOf(deps.store);
}
