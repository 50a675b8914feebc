/**
 * Per-minute request limits per API key and per account (issue "Runtime foundation" part 7).
 * In memory: Cofre is one process. Fixed windows aligned to the clock's minute.
 */
import type { Clock } from "../../lib/clock";

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets (for Retry-After). */
  resetIn: number;
}

export class RateLimiter {
  private window = -1;
  /** Requests counted in the current window, by key id and by account id (two maps: no per-request key strings). */
  private readonly keyCounts = new Map<string, number>();
  private readonly accountCounts = new Map<string, number>();

  /** `perMinute` = 0 disables limiting. The account-wide limit is `accountFactor` x the key limit. */
  constructor(
    private readonly clock: Clock,
    private readonly perMinute: number,
    private readonly accountFactor = 4,
  ) {}

  get enabled(): boolean {
    return this.perMinute > 0;
  }

  /** Counts one request for `keyId` within `accountId` and says whether it may proceed. */
  hit(keyId: string, accountId: string): RateDecision {
    const now = this.clock.nowMs();
    const window = Math.floor(now / 60_000);
    if (window !== this.window) {
      this.window = window;
      this.keyCounts.clear();
      this.accountCounts.clear();
    }
    const resetIn = Math.max(1, Math.ceil(((window + 1) * 60_000 - now) / 1000));
    if (!this.enabled) return { allowed: true, limit: 0, remaining: 0, resetIn };
    const keyCount = (this.keyCounts.get(keyId) ?? 0) + 1;
    const acctCount = (this.accountCounts.get(accountId) ?? 0) + 1;
    const allowed = keyCount <= this.perMinute && acctCount <= this.perMinute * this.accountFactor;
    if (allowed) {
      this.keyCounts.set(keyId, keyCount);
      this.accountCounts.set(accountId, acctCount);
    }
    const remaining = Math.max(0, this.perMinute - (allowed ? keyCount : keyCount - 1));
    return { allowed, limit: this.perMinute, remaining, resetIn };
  }
}
