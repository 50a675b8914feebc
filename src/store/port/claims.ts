/**
 * The in-flight idempotency claims (src/domain/idempotency/store.ts): which request currently
 * runs under a key. Process-wide state behind a small interface, so a store shared by several
 * instances can give a cross-instance version; the SQLite adapter keeps them in memory
 * (src/store/sqlite/claims.ts: Cofre on SQLite is one process, and claiming costs no commit).
 * Synchronous on purpose: `acquire` is on the path of every idempotent create.
 */

/** Who holds a claim: the request's hash (to tell "in use" from "reused with another body"). */
export interface HeldClaim {
  requestHash: string;
}

export interface IdempotencyClaims {
  /**
   * Takes `key` for `owner` until `lockedUntil` (epoch ms), unless another owner holds it past
   * `now` or holds it (even expired) for another request hash: returns null when taken, else the
   * current holder. An expired hold of the same request is taken over.
   */
  acquire(key: string, owner: object, requestHash: string, now: number, lockedUntil: number): HeldClaim | null;
  /** Frees `key` when `owner` still holds it (else does nothing). */
  release(key: string, owner: object): void;
  /** Drops every hold expired at `now` (epoch ms): claims of requests that died mid-flight. */
  sweep(now: number): void;
}
