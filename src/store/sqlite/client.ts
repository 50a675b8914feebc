/** Opens the SQLite database (bun:sqlite + drizzle) with the pragmas measured in DESIGN.md. */
import { Database } from "bun:sqlite";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import * as schema from "../../../db/schema";
import { enterGroup } from "./group-commit";

export type Db = BunSQLiteDatabase<typeof schema> & { $client: Database };
/** The handle passed to code running inside `tx(db, fn)`: same query API as Db. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
/** Either the database or an open transaction: repo functions accept both. */
export type DbOrTx = Db | Tx;

/**
 * Opens `<dataDir>/cofre.db` (created with its folder when missing), or an in-memory database
 * when `dataDir` is ":memory:". Pragmas: WAL, synchronous=NORMAL, busy_timeout=5000, foreign_keys=ON.
 */
export function openDb(dataDir: string): Db {
  let path = ":memory:";
  if (dataDir !== ":memory:") {
    mkdirSync(dataDir, { recursive: true });
    path = join(dataDir, "cofre.db");
  }
  const sqlite = new Database(path, { create: true, strict: true });
  // busy_timeout first: switching to WAL waits for a connection that is closing (e.g. a backup's) instead of failing.
  sqlite.exec("PRAGMA busy_timeout = 5000");
  sqlite.exec("PRAGMA journal_mode = WAL");
  sqlite.exec("PRAGMA synchronous = NORMAL");
  sqlite.exec("PRAGMA foreign_keys = ON");
  return drizzle({ client: sqlite, schema }) as Db;
}

/**
 * Runs `fn` in one `BEGIN IMMEDIATE` transaction and returns its result. `fn` must be
 * synchronous: drizzle does not roll back an async callback that throws after an await
 * (DESIGN.md). Throwing inside `fn` rolls everything back and rethrows. Under group commit
 * (src/store/sqlite/group-commit.ts, `serve`) it runs as a savepoint of the turn's group and commits with it.
 */
export function tx<T>(db: Db, fn: (t: Tx) => T): T {
  let runner = runners.get(db);
  if (!runner) runners.set(db, (runner = txRunner(db)));
  enterGroup(db.$client);
  return runner(fn) as T;
}

/**
 * What `db.transaction(fn, {behavior: "immediate"})` does, minus its per-call cost: drizzle builds
 * a new transaction object (with a relational query builder per table) and a new bun:sqlite
 * transaction function on every call. The transaction handle is stateless at the top level, so
 * one is taken once from drizzle and reused; bun:sqlite's transaction function nests with
 * savepoints exactly as before. Hot path of every write.
 */
function txRunner(db: Db): <T>(fn: (t: Tx) => T) => T {
  let handle: Tx | undefined;
  db.transaction((t) => {
    handle = t;
  });
  const native = db.$client.transaction((fn: (t: Tx) => unknown, t: Tx) => fn(t));
  return <T>(fn: (t: Tx) => T) => native.immediate(fn, handle!) as T;
}
const runners = new WeakMap<Db, <T>(fn: (t: Tx) => T) => T>();
