/**
 * Login attempt limits (issue 3): per email at most EMAIL_LIMIT, per client address at most
 * ADDRESS_LIMIT failed attempts per window; over a limit every attempt (even with the right
 * password) is refused until the window ends. Successful logins are not counted, so members
 * behind one proxy address are not locked out by each other's normal use. In memory (Cofre is
 * one process); fixed windows starting at the first counted failure.
 */
import type { Clock } from "../../lib/clock";

export const LOGIN_WINDOW_SECONDS = 15 * 60;
export const EMAIL_LIMIT = 10;
export const ADDRESS_LIMIT = 100;

interface Bucket {
  count: number;
  resetAt: number;
}

export class LoginThrottle {
  private buckets = new Map<string, Bucket>();
  constructor(private readonly clock: Clock) {}

  /** Seconds to wait when `email` or `address` is over its limit, else 0. */
  retryAfter(email: string, address: string): number {
    const now = this.clock.nowMs();
    let wait = 0;
    for (const [key, limit] of [[`e:${email}`, EMAIL_LIMIT], [`a:${address}`, ADDRESS_LIMIT]] as const) {
      const b = this.live(key, now);
      if (b && b.count >= limit) wait = Math.max(wait, Math.ceil((b.resetAt - now) / 1000));
    }
    return wait;
  }

  /** Counts one attempt; only failed ones count against `email` and `address`. */
  record(email: string, address: string, failed: boolean): void {
    if (!failed) return;
    const now = this.clock.nowMs();
    this.bump(`a:${address}`, now);
    this.bump(`e:${email}`, now);
    if (this.buckets.size > 50_000) for (const [k, b] of this.buckets) if (b.resetAt <= now) this.buckets.delete(k);
  }

  private live(key: string, now: number): Bucket | undefined {
    const b = this.buckets.get(key);
    if (b && b.resetAt <= now) {
      this.buckets.delete(key);
      return undefined;
    }
    return b;
  }

  private bump(key: string, now: number): void {
    const b = this.live(key, now);
    if (b) b.count++;
    else this.buckets.set(key, { count: 1, resetAt: now + LOGIN_WINDOW_SECONDS * 1000 });
  }
}
