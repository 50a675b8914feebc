/**
 * In-memory cache of resolved API keys, one per database: the hot path of `apikey` authentication.
 *
 * Why: every apikey request used to hash the key (SHA-256) and run a SQLite lookup; in WAL mode a
 * statement outside a transaction also takes and releases SQLite's read lock (a few syscalls).
 * Together ~5-7 us of a ~45 us `GET /v1/charges/{id}` (issue 5 target: 30,000 reads/s on 2 cores).
 * A hit here is one Map lookup by the cleartext key.
 *
 * What is cached: cleartext key -> {id, accountId, mode, livemode, fingerprint}, only for keys
 * the database says are active (positive results only). An unknown, revoked or malformed key is
 * never cached, so it always reaches the database: a key created a moment ago (by this process or
 * any other) works at once, and junk keys cannot fill the cache. Bounded at API_KEY_CACHE_MAX
 * entries per database; when full the oldest entry is dropped (it is simply read again on its
 * next use). Rows are remembered when read outside any transaction, or inside the turn's group
 * (group commit, src/db/group-commit.ts, where every API request reads): a group whose COMMIT
 * fails stops the process, and `tx()` callbacks, whose savepoints can roll back alone, never
 * authenticate. A row read inside any other open transaction is not kept (it could be rolled back).
 *
 * INVARIANT (the whole point): a cached entry may be served only while its row is unchanged.
 * Every code path that updates or deletes `api_keys` rows, or otherwise makes a key unusable,
 * calls `invalidateApiKeyCache(db)` synchronously in the same call, so a revoked or rotated key
 * fails with 401 on the very next request, exactly as without the cache. Today those paths are
 * `revokeKey` and `rotateKey` (src/domain/api-keys/service.ts, via `markRevoked` in repo.ts);
 * `issueKey` also clears (it only inserts, but one rule for every write is easier to keep). No
 * other code writes `api_keys`: the operator API changes account settings only, which are not
 * part of an entry; no code deletes accounts or users' keys; the dashboard never edits a key in
 * place. A new write path MUST invalidate here. Writes made behind the domain's back (raw SQL in
 * a test or a shell) are not seen until the entry is evicted or the process restarts.
 *
 * Other processes: Cofre serves from one process. The CLI (`cofre init`, `cofre ledger verify`,
 * `cofre migrate`) never revokes, rotates or deletes keys (`init` inserts an account and its
 * OWNER only), so no other process can make a cached key stale; keys inserted elsewhere are found
 * by the miss path.
 *
 * The cache holds cleartext keys in process memory, as every request already does; the entry is
 * found by Map hashing, whose timing reveals no more than the indexed SQLite lookup it replaces.
 */
import type { Db } from "../../db/client";
import { sha256Hex } from "../../lib/crypto";
import { lookupActiveKey } from "./repo";
import { committed } from "../../db/group-commit";

/** An active key as authentication needs it. Shared between requests: never mutate. */
export interface ResolvedApiKey {
  readonly id: string;
  readonly accountId: string;
  readonly mode: "test" | "live";
  /** true for `ak_live_` keys. */
  readonly livemode: boolean;
  /** SHA-256 hex of the cleartext key (request logs and audit). */
  readonly fingerprint: string;
}

/** Most entries kept per database. */
export const API_KEY_CACHE_MAX = 10_000;

const caches = new WeakMap<Db, Map<string, ResolvedApiKey>>();

/**
 * The active key whose cleartext is `raw`, or undefined (unknown or revoked). Served from the
 * cache of `db` when present, else read from the database (and remembered when active and
 * committed). `raw` should already have the key shape: callers reject malformed keys first.
 */
export function resolveApiKey(db: Db, raw: string): ResolvedApiKey | undefined {
  let cache = caches.get(db);
  const hit = cache?.get(raw);
  if (hit) return hit;
  const fingerprint = sha256Hex(raw);
  const row = lookupActiveKey(db, fingerprint);
  if (!row) return undefined;
  const mode = row.mode as "test" | "live";
  const key: ResolvedApiKey = { id: row.id, accountId: row.accountId, mode, livemode: mode === "live", fingerprint };
  if (!db.$client.inTransaction || committed(db.$client) !== null) {
    if (!cache) caches.set(db, (cache = new Map()));
    if (cache.size >= API_KEY_CACHE_MAX) cache.delete(cache.keys().next().value!);
    cache.set(raw, key);
  }
  return key;
}

/**
 * Forgets every cached key of `db`. Call synchronously from every code path that updates or
 * deletes `api_keys` rows (see the invariant above); cheap, and key changes are rare.
 */
export function invalidateApiKeyCache(db: Db): void {
  caches.get(db)?.clear();
}

/** How many keys of `db` are cached (tests and diagnostics). */
export function apiKeyCacheSize(db: Db): number {
  return caches.get(db)?.size ?? 0;
}
