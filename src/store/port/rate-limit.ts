/**
 * The counters of the per-minute rate limits (src/domain/api-keys/rate-limit.ts keeps the
 * policy: limits, windows, what the headers say). Process-wide state behind a small interface, so several
 * instances can later share one version; the SQLite adapter counts in memory
 * (src/store/memory/rate-limits.ts). Synchronous: it is on every authenticated request's path.
 */

/** What one hit did. */
export interface RateHit {
  /** True when the request was counted (both counts stayed within their limits). */
  allowed: boolean;
  /** The key's count in the window including this request, counted or not. */
  keyCount: number;
}

export interface RateLimitStore {
  /**
   * Counts one request of `keyId` (and of its `accountId`) in the fixed window `window` (minutes
   * since the epoch) unless the key's count would pass `keyLimit` or the account's `accountLimit`.
   * Counts of earlier windows are forgotten.
   */
  hit(window: number, keyId: string, keyLimit: number, accountId: string, accountLimit: number): RateHit;
}
