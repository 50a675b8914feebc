/**
 * In-process token buckets by key (issue 30 §1: provider callbacks per connection per second).
 * Each key holds up to `burst` tokens, refilled at `perSecond` tokens a second of the injected
 * clock; a hit takes one token or is refused with the seconds until the next one. Per process: on
 * PostgreSQL with N instances a key may get N times the rate. Memory is bounded: past `maxKeys`
 * keys, full buckets (which hold no information) are forgotten, then the oldest.
 */
export interface BucketDecision {
  allowed: boolean;
  /** Whole seconds until a token is available again (>= 1 when refused; 0 when allowed). */
  retryAfterSeconds: number;
}

export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  /** `perSecond` > 0 tokens a second, at most `burst` held; at most `maxKeys` keys remembered. */
  constructor(
    readonly perSecond: number,
    readonly burst: number,
    private readonly maxKeys = 10_000,
  ) {}

  /** Takes one token of `key` at `nowMs` (epoch ms). */
  hit(key: string, nowMs: number): BucketDecision {
    let b = this.buckets.get(key);
    if (!b) {
      if (this.buckets.size >= this.maxKeys) this.prune(nowMs);
      b = { tokens: this.burst, at: nowMs };
      this.buckets.set(key, b);
    } else {
      b.tokens = Math.min(this.burst, b.tokens + (Math.max(0, nowMs - b.at) * this.perSecond) / 1000);
      b.at = nowMs;
    }
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return { allowed: true, retryAfterSeconds: 0 };
    }
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - b.tokens) / this.perSecond)) };
  }

  private prune(nowMs: number): void {
    for (const [k, b] of this.buckets)
      if (b.tokens + ((nowMs - b.at) * this.perSecond) / 1000 >= this.burst) this.buckets.delete(k);
    // Still full of busy keys: forget the oldest (Map order is insertion order).
    for (const k of this.buckets.keys()) {
      if (this.buckets.size < this.maxKeys) break;
      this.buckets.delete(k);
    }
  }
}
