/**
 * The idempotency repository of the storage port: the stored responses of idempotent POSTs
 * (table `idempotency_keys`, one record per account, mode, route scope and key; issue "Runtime
 * foundation" part 6). The in-flight claims are not stored here: see ./claims.ts.
 */

/** The stored record of one key, as the claim decision reads it. */
export interface IdempotencyRecord {
  id: string;
  /** sha256 hex of the first request body's canonical JSON. */
  requestHash: string;
  /** `completed`, or `in_progress` (a claim stored by an older version or another process). */
  state: string;
  /** HTTP status of the stored response (completed records). */
  responseStatus: number | null;
  /** The stored response body as JSON text (completed records). */
  responseBody: string | null;
  /** Until when (epoch ms) an `in_progress` record blocks other requests; null once completed. */
  lockedUntil: number | null;
}

/** What identifies a record and what its first request carried (a claim of src/domain/idempotency/store.ts). */
export interface IdempotencyKeyRecord {
  id: string;
  accountId: string;
  livemode: boolean;
  /** e.g. `POST /v1/charges`. */
  scope: string;
  key: string;
  requestHash: string;
  /** When the key was first claimed (epoch ms): the retention clock. */
  createdAt: number;
}

/** Every method is asynchronous; inside `store.tx` it runs in the unit of work. */
export interface IdempotencyRepo {
  /** The record of (account, mode, scope, key), or null (unique index `idempotency_scope_uq`). */
  find(accountId: string, livemode: boolean, scope: string, key: string): Promise<IdempotencyRecord | null>;
  /**
   * Stores the response of `record` as completed: inserts it, or completes the stored record of the
   * same key (its id stays). Call it inside the business unit so both commit together.
   * `responseBody` is JSON text.
   */
  complete(record: IdempotencyKeyRecord, responseStatus: number, responseBody: string): Promise<void>;
  /** Deletes record `id` when it is still `in_progress` (a failed request's claim); completed ones stay. */
  releaseInProgress(id: string): Promise<void>;
  /** Deletes every record created before `beforeMs` (epoch ms); resolves with how many. */
  pruneBefore(beforeMs: number): Promise<number>;
}
