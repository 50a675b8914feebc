/**
 * Where the login throttle (src/domain/auth/throttle.ts) keeps its counts: small named buckets,
 * read and written together under one lock per attempt, so the limits hold exactly even when
 * attempts for one email arrive at several instances at once. In memory on SQLite
 * (MemoryLoginBuckets, src/domain/auth/throttle.ts), the `login_throttle` table on PostgreSQL
 * (src/store/pg/login-buckets.ts). Times are epoch ms.
 */

/** One bucket: `count` events until `resetAt`; `lastAt` the last counted one. */
export interface LoginBucket {
  count: number;
  resetAt: number;
  lastAt: number;
}

/** The buckets one attempt reads and writes (only the keys it was opened with). */
export interface LoginBucketView {
  get(key: string): LoginBucket | undefined;
  set(key: string, bucket: LoginBucket): void;
  delete(key: string): void;
}

export interface LoginBucketStore {
  /**
   * Runs `fn` on the buckets `keys` (at most a handful) with nobody else changing them meanwhile,
   * then keeps what it set or deleted; returns what `fn` returned. `lockKeys` (e.g. the email and
   * the address) serialise concurrent attempts that share any of them. `now` lets a store forget
   * buckets expired by then.
   */
  transact<T>(lockKeys: string[], keys: string[], now: number, fn: (view: LoginBucketView) => T): T | Promise<T>;
}
