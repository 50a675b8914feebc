/** The SQLite store behind a `Store` (for the adapter's own wiring: serve, the request-log file). */
import type { Store } from "../port";
import type { SqliteStore } from "./index";

/** `store` as the SQLite store it is; throws when it is another adapter's. */
export function sqliteStoreOf(store: Store): SqliteStore {
  if (store.kind !== "sqlite" || !("ctx" in store)) throw new Error(`not a SQLite store (${store.kind})`);
  return store as SqliteStore;
}
