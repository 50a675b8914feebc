/**
 * Which database a test's Deps use: SQLite (the default run, `bun run test`) or, under
 * COFRE_TEST_PG=1 (`bun run test:pg`), PostgreSQL: a database of its own per Deps, copied from
 * the migrated template. Tests build Deps through `testDeps` (or createHarness, which uses it),
 * never `createDeps` directly, so the same test runs on both backends.
 *
 * A test that "restarts" Cofre builds a second Deps with the same `dataDir`: on PostgreSQL that
 * maps to the same database (the first Deps of a folder creates it).
 */
import { createDeps, type Deps, type DepsOptions } from "../../src/deps";
import type { Logger } from "../../src/lib/logger";
import { createPgStore, type PgStore } from "../../src/store/pg";
import { openPgPool } from "../../src/store/pg/pool";
import type { Store } from "../../src/store/port";
import { pgDatabaseSync } from "./pg";
import { TEST_PG } from "./pg-preload";

export { TEST_PG };

/** Database URL per data folder, so a second Deps of the same folder reopens the same PostgreSQL database. */
const urlByDir = new Map<string, string>();

/** Options of `testStore`. */
export interface TestStoreOptions {
  /** The data folder the Deps use (":memory:" or absent: always a fresh database). */
  dataDir?: string;
  logger?: Logger;
  /** Subscribe to cross-instance notices (tests of several instances on one database). */
  notices?: boolean;
}

/**
 * Under COFRE_TEST_PG=1 a PostgreSQL store (see the module header); else undefined (createDeps
 * then opens SQLite in the data folder). Pool connections idle for 1 s close, so the hundreds
 * of harnesses of a run never hold more than a few connections each.
 */
export function testStore(opts: TestStoreOptions = {}): Store | undefined {
  if (!TEST_PG) return undefined;
  const dir = opts.dataDir && opts.dataDir !== ":memory:" ? opts.dataDir : undefined;
  const url = dir ? pgUrlOfDir(dir) : pgDatabaseSync().url;
  return createPgStore(openPgPool(url, { max: 8, idleTimeout: 1 }), {
    migrate: false,
    notices: opts.notices ?? false,
    logger: opts.logger,
  });
}

/** The PostgreSQL database URL of data folder `dataDir` (created on first use); only under COFRE_TEST_PG=1. */
export function pgUrlOfDir(dataDir: string): string {
  let url = urlByDir.get(dataDir);
  if (!url) urlByDir.set(dataDir, (url = pgDatabaseSync().url));
  return url;
}

/**
 * The environment a child `cofre` process (serve, init, migrate, ledger verify) needs for data
 * folder `dataDir` on this run's backend: COFRE_DATA_DIR, plus under COFRE_TEST_PG=1 the
 * COFRE_DATABASE_URL of the folder's database (the same one `testDeps` of that folder uses).
 */
export function serverEnv(dataDir: string): Record<string, string> {
  return TEST_PG ? { COFRE_DATA_DIR: dataDir, COFRE_DATABASE_URL: pgUrlOfDir(dataDir) } : { COFRE_DATA_DIR: dataDir };
}

/** createDeps on the backend of this run (see the module header). */
export function testDeps(opts: DepsOptions & { notices?: boolean } = {}): Deps {
  const dataDir = opts.dataDir ?? opts.config?.dataDir;
  return createDeps({
    ...opts,
    store: opts.store ?? testStore({ dataDir, logger: opts.logger, notices: opts.notices }),
  });
}

/** The PostgreSQL store under `deps` (tests that reach PostgreSQL directly); throws on SQLite. */
export function pgOf(deps: Pick<Deps, "store">): PgStore {
  if (deps.store.kind !== "postgres") throw new Error("not a PostgreSQL store");
  return deps.store as PgStore;
}
