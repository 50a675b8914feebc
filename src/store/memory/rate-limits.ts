/** In-memory rate-limit counters (src/store/port/rate-limit.ts): one process serves one SQLite database. */
import type { RateHit, RateLimitStore } from "../port/rate-limit";

/**
 * Fixed-window counters of the current window only, by key id and by account id (two maps: no per-request key strings).
 */
export class MemoryRateLimits implements RateLimitStore {
  private window = -1;
  private readonly keyCounts = new Map<string, number>();
  private readonly accountCounts = new Map<string, number>();

  hit(window: number, keyId: string, keyLimit: number, accountId: string, accountLimit: number): RateHit {
    if (window !== this.window) {
      this.window = window;
      this.keyCounts.clear();
      this.accountCounts.clear();
    }
    const keyCount = (this.keyCounts.get(keyId) ?? 0) + 1;
    const acctCount = (this.accountCounts.get(accountId) ?? 0) + 1;
    const allowed = keyCount <= keyLimit && acctCount <= accountLimit;
    if (allowed) {
      this.keyCounts.set(keyId, keyCount);
      this.accountCounts.set(accountId, acctCount);
    }
    return { allowed, keyCount };
  }
}
