/**
 * The apiKeys repository of the storage port: API key rows (only the SHA-256 fingerprint and a display prefix are
 * stored).
 */
import type { ApiKeyRow, NewApiKeyRow } from "../rows";

/** What apikey authentication needs of an active key. */
export interface ActiveKeyRef {
  id: string;
  accountId: string;
  /** "test" | "live". */
  mode: string;
  /**
   * False when the row was read inside a transaction that may still roll back on its own (one
   * opened outside the store): the cache must not remember it. True when committed, or written
   * by units that returned and await only being made durable (`Store.durable()`; a failure
   * there stops the process).
   */
  settled: boolean;
}

/**
 * Every method is asynchronous; inside `store.tx` it runs in the unit of work. Writers clear the
 * API-key cache (src/domain/api-keys/cache.ts) through `uow.afterCommit`.
 */
export interface ApiKeysRepo {
  /** The unrevoked key whose SHA-256 hex fingerprint is `fingerprint` (apikey authentication, on a cache miss). */
  activeByFingerprint(fingerprint: string): Promise<ActiveKeyRef | undefined>;
  /** The active key `id` of `accountId`, or undefined (other account, revoked or unknown). */
  activeInAccount(accountId: string, id: string): Promise<ApiKeyRow | undefined>;
  /** The active keys of `accountId`, newest first. */
  listActive(accountId: string): Promise<ApiKeyRow[]>;
  /** Inserts a key row. */
  insert(row: NewApiKeyRow): Promise<void>;
  /** Marks key `id` of `accountId` revoked at `now` (epoch ms); true when it was active. */
  revoke(accountId: string, id: string, now: number): Promise<boolean>;
}
