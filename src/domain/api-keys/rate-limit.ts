/**
 * Per-minute request limits per API key and per account (issue "Runtime foundation" part 7): the
 * policy (limits, fixed windows aligned to the clock's minute, what the headers say; the HTTP
 * plugins src/http/plugins/api-key-auth.ts and session-auth.ts apply it). The
 * counters live in a `RateLimitStore` (src/store/port/rate-limit.ts; in memory on SQLite).
 */
import type { Clock } from "../../lib/clock";
import type { RateLimitStore } from "../../store/port/rate-limit";

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets (for Retry-After). */
  resetIn: number;
}

export class RateLimiter {
  /**
   * `perMinute` = 0 disables limiting. The account-wide limit is `accountFactor` x the key limit.
   * `counters` keeps the counts (built in createDeps).
   */
  constructor(
    private readonly clock: Clock,
    private readonly perMinute: number,
    private readonly counters: RateLimitStore,
    private readonly accountFactor = 4,
  ) {}

  get enabled(): boolean {
    return this.perMinute > 0;
  }

  /** Counts one request for `keyId` within `accountId` and says whether it may proceed. */
  hit(keyId: string, accountId: string): RateDecision {
    const now = this.clock.nowMs();
    const window = Math.floor(now / 60_000);
    const resetIn = Math.max(1, Math.ceil(((window + 1) * 60_000 - now) / 1000));
    if (!this.enabled) return { allowed: true, limit: 0, remaining: 0, resetIn };
    const h = this.counters.hit(window, keyId, this.perMinute, accountId, this.perMinute * this.accountFactor);
    const remaining = Math.max(0, this.perMinute - (h.allowed ? h.keyCount : h.keyCount - 1));
    return { allowed: h.allowed, limit: this.perMinute, remaining, resetIn };
  }
}
