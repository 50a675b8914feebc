/**
 * The cache of resolved API keys, an explicit object of `Deps` (`deps.apiKeyCache`, built in
 * createDeps): the hot path of `apikey` authentication. Behind the small `ApiKeyCache` interface so
 * a deployment of several instances can give it a cross-instance version (issue 16, next phase).
 *
 * Why: every apikey request used to hash the key (SHA-256) and run a SQLite lookup; together
 * ~5-7 us of a ~45 us `GET /v1/charges/{id}` (issue 5 target: 30,000 reads/s on 2 cores). A hit
 * here is one Map lookup by the cleartext key, answered synchronously (no await of the store).
 *
 * What is cached: cleartext key -> {id, accountId, mode, livemode, fingerprint}, only for keys
 * the store says are active (positive results only). An unknown, revoked or malformed key is
 * never cached, so it always reaches the store: a key created a moment ago (by this process or
 * any other) works at once, and junk keys cannot fill the cache. Bounded at API_KEY_CACHE_MAX
 * entries; when full the oldest entry is dropped (it is simply read again on its next use). Misses
 * read through `store.read`, which never sees half a unit of work; a row is remembered only when
 * the store calls it settled (committed, or only awaiting `store.durable()`, whose failure stops
 * the process), never when read inside a transaction opened outside the store that may roll back.
 *
 * INVARIANT (the whole point): a cached entry may be served only while its row is unchanged.
 * Every unit of work that updates or deletes `api_keys` rows, or otherwise makes a key unusable,
 * clears the cache in `uow.afterCommit` (which runs before any later read), so a revoked or
 * rotated key fails with 401 on the very next request, exactly as without the cache. Today those
 * units are `revokeKey` and `rotateKey` (src/domain/api-keys/service.ts); `writeIssuedKey` also
 * clears (it only inserts, but one rule for every write is easier to keep). A miss whose read
 * started before a clear is not remembered (the cache's epoch moved), so a read racing a revoke
 * cannot put the revoked key back. No other code writes `api_keys`. Several instances on one
 * PostgreSQL database: a revocation's unit sends a notice on commit and every instance clears its
 * cache when it arrives (milliseconds later), with a TTL as backstop (src/deps.ts). Writes made
 * behind the domain's back (raw SQL in a test or a shell) are not seen until the entry is evicted or the
 * process restarts. The CLI (`cofre init`) only inserts keys, so no other process makes an
 * entry stale.
 *
 * The cache holds cleartext keys in process memory, as every request already does; the entry is
 * found by Map hashing, whose timing reveals no more than the indexed lookup it replaces.
 */
import type { Store } from "../../store/port";
import { sha256Hex } from "../../lib/crypto";

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

/** Most entries kept. */
export const API_KEY_CACHE_MAX = 10_000;

/** Where resolved keys are kept (one per `Deps`). */
export interface ApiKeyCache {
  /** The entry of cleartext `raw`, or undefined. */
  get(raw: string): ResolvedApiKey | undefined;
  /**
   * A counter that moves on every `clear`: a miss remembers its answer only if it has not moved since the read began.
   */
  epoch(): number;
  /** Keeps `key` for `raw` unless the cache was cleared since `epoch` (then the answer may be stale). */
  remember(raw: string, key: ResolvedApiKey, epoch: number): void;
  /** Forgets every entry (after any unit of work that writes `api_keys`). */
  clear(): void;
  /** Number of entries (tests and diagnostics). */
  readonly size: number;
}

/**
 * The in-process ApiKeyCache: a Map bounded at `max` entries, oldest dropped first. With `ttlMs`
 * (several instances on PostgreSQL) an entry is also served for at most that long: the backstop
 * should a revocation's notice from another instance be lost (src/deps.ts clears the cache on
 * every notice and after every reconnect of the notice channel).
 */
export class MemoryApiKeyCache implements ApiKeyCache {
  private readonly entries = new Map<string, ResolvedApiKey>();
  /** When each entry was remembered (performance.now() ms); kept only with a TTL. */
  private readonly since = new Map<string, number>();
  private generation = 0;
  constructor(
    private readonly max = API_KEY_CACHE_MAX,
    private readonly ttlMs?: number,
  ) {}
  get(raw: string): ResolvedApiKey | undefined {
    const hit = this.entries.get(raw);
    if (hit && this.ttlMs !== undefined && performance.now() - this.since.get(raw)! > this.ttlMs) {
      this.entries.delete(raw);
      this.since.delete(raw);
      return undefined;
    }
    return hit;
  }
  epoch(): number {
    return this.generation;
  }
  remember(raw: string, key: ResolvedApiKey, epoch: number): void {
    if (epoch !== this.generation) return;
    if (this.entries.size >= this.max) {
      const oldest = this.entries.keys().next().value!;
      this.entries.delete(oldest);
      this.since.delete(oldest);
    }
    this.entries.set(raw, key);
    if (this.ttlMs !== undefined) this.since.set(raw, performance.now());
  }
  clear(): void {
    this.generation++;
    this.entries.clear();
    this.since.clear();
  }
  get size(): number {
    return this.entries.size;
  }
}

/** What resolving a key needs. */
export interface ApiKeyDeps {
  store: Store;
  apiKeyCache: ApiKeyCache;
}

/**
 * The active key whose cleartext is `raw`, or undefined (unknown or revoked). A cache hit is
 * answered synchronously; a miss returns a Promise of the store's answer (remembered when
 * active). `raw` should already have the key shape: callers reject malformed keys first.
 */
export function resolveApiKey(
  deps: ApiKeyDeps,
  raw: string,
): ResolvedApiKey | undefined | Promise<ResolvedApiKey | undefined> {
  const hit = deps.apiKeyCache.get(raw);
  return hit ?? resolveMiss(deps, raw);
}

async function resolveMiss(deps: ApiKeyDeps, raw: string): Promise<ResolvedApiKey | undefined> {
  const fingerprint = sha256Hex(raw);
  const epoch = deps.apiKeyCache.epoch();
  const row = await deps.store.read.apiKeys.activeByFingerprint(fingerprint);
  if (!row) return undefined;
  const mode = row.mode as "test" | "live";
  const key: ResolvedApiKey = { id: row.id, accountId: row.accountId, mode, livemode: mode === "live", fingerprint };
  if (row.settled) deps.apiKeyCache.remember(raw, key, epoch);
  return key;
}

/** Forgets every cached key (see the invariant above); cheap, and key changes are rare. */
export function invalidateApiKeyCache(deps: Pick<ApiKeyDeps, "apiKeyCache">): void {
  deps.apiKeyCache.clear();
}

/** How many keys are cached (tests and diagnostics). */
export function apiKeyCacheSize(deps: Pick<ApiKeyDeps, "apiKeyCache">): number {
  return deps.apiKeyCache.size;
}
