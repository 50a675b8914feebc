/**
 * The in-flight idempotency claims (src/domain/idempotency/store.ts): which request currently
 * runs under a key. Process-wide state behind a small interface with one version per adapter:
 * SQLite keeps them in memory (src/store/memory/claims.ts: Cofre on SQLite is one process, and
 * claiming costs no commit); PostgreSQL stores each claim as an `in_progress` row of
 * `idempotency_keys` (src/store/pg/claims.ts), so two instances never run one key twice.
 */
import type { IdempotencyKeyRecord } from "./idempotency";

/** Who holds a claim: the request's hash (to tell "in use" from "reused with another body"). */
export interface HeldClaim {
  requestHash: string;
}

/**
 * What a claim is taken for: the record of one key and its first request (./idempotency.ts). Its
 * `id` is the record the claim will complete; a durable claim may replace it with the stored row's id.
 */
export type ClaimRef = IdempotencyKeyRecord;

export interface IdempotencyClaims {
  /**
   * True when a successful `acquire` is itself the stored record of the key (PostgreSQL: the
   * `in_progress` row), so no completed record can exist beside it and the caller need not read one.
   */
  readonly durable: boolean;
  /**
   * Takes `key` (a string naming `claim`'s account, mode, scope and key) for `claim` until
   * `lockedUntil` (epoch ms), unless another claim holds it past `now`, holds it (even expired)
   * for another request hash, or (durable claims) the key already has a completed record:
   * returns null when taken, else the current holder. An expired hold of the same request is
   * taken over. A durable claim sets `claim.id` to the id of the row it holds.
   */
  acquire(key: string, claim: ClaimRef, now: number, lockedUntil: number): HeldClaim | null | Promise<HeldClaim | null>;
  /** Frees `key` when `claim` still holds it (else does nothing). Durable claims: the caller deletes the row. */
  release(key: string, claim: ClaimRef): void;
  /** Drops every hold expired at `now` (epoch ms): claims of requests that died mid-flight. */
  sweep(now: number): void;
}
