/**
 * Helpers of the PostgreSQL repository tests (test/store/pg-*.test.ts): the same script run on a
 * fresh SQLite store and a fresh PostgreSQL store must give equal results (the SQLite adapter is
 * the reference), and several PostgreSQL "instances" on one database, each a store on a pool of
 * ONE connection, so a test knows which session (and which write shard) runs which unit.
 */
import { afterAll, beforeAll } from "bun:test";
import { openDb } from "../../src/store/sqlite/client";
import { runMigrations } from "../../src/store/sqlite/migrations";
import { createPgStore, type PgStore } from "../../src/store/pg";
import { openPgPool } from "../../src/store/pg/pool";
import type { Store } from "../../src/store/port";
import { createSqliteStore } from "../../src/store/sqlite";
import { testDb, type TestDb } from "../support/test-db";
import { PG_START_TIMEOUT, pgDatabase, type PgDatabase } from "../support/pg";

/** A migrated in-memory SQLite store. */
export function sqliteStore(): Store {
  const db = openDb(":memory:");
  runMigrations(db);
  return createSqliteStore(db);
}

/** A store on `db` whose pool has `max` connections (no migrations: the template is migrated; no notices). */
export async function pgStoreOn(db: PgDatabase, max = 1): Promise<PgStore> {
  const store = createPgStore(openPgPool(db.url, { max }), { migrate: false, notices: false });
  await store.started;
  return store;
}

/**
 * This test file's database, created before its tests and dropped after them, with one store on
 * it per entry of `pools` (that store's pool size); `use` receives both once they are open. Stores
 * the file opens later are closed with them when it pushes them to `opened`.
 */
export function fileStores(
  pools: number[],
  use: (db: PgDatabase, stores: PgStore[]) => void,
  opened: PgStore[] = [],
): void {
  let db: PgDatabase | undefined;
  const stores: PgStore[] = [];
  beforeAll(async () => {
    db = await pgDatabase();
    for (const max of pools) stores.push(await pgStoreOn(db, max));
    use(db, stores);
  }, PG_START_TIMEOUT);
  afterAll(async () => {
    for (const s of [...stores, ...opened]) await s.close().catch(() => {});
    await db?.drop();
  });
}

/** Raw SQL on a store of either backend (test/support/test-db.ts). */
export const raw = (store: Store): TestDb => testDb({ store });

/**
 * `n` single-connection PostgreSQL stores on `db` whose sessions write distinct ledger shards
 * (`pg_backend_pid() & 1023`): a store whose shard another already has is reopened.
 */
export async function shardedInstances(db: PgDatabase, n: number): Promise<{ stores: PgStore[]; shards: number[] }> {
  const stores: PgStore[] = [];
  const shards: number[] = [];
  while (stores.length < n) {
    const s = await pgStoreOn(db, 1);
    const [{ shard }] = (await s.sql`select pg_backend_pid() & 1023 as shard`) as { shard: number }[];
    if (shards.includes(shard)) {
      await s.close();
      continue;
    }
    stores.push(s);
    shards.push(shard);
  }
  return { stores, shards };
}

/** A promise and its resolver (holding a unit open until the test lets it commit). */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** Whether `p` settles within `ms` milliseconds. */
export async function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((r) => (timer = setTimeout(() => r(false), ms)));
  const done = p.then(
    () => true as const,
    () => true as const,
  );
  try {
    return await Promise.race([done, late]);
  } finally {
    clearTimeout(timer);
  }
}

export { pgDatabase, type PgDatabase };
