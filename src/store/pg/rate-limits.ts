/**
 * Rate-limit counters shared by every instance on one PostgreSQL database (src/store/port/
 * rate-limit.ts; table `rate_limit_windows`). `hit` stays synchronous (it is on every
 * authenticated request): each instance counts locally and, every SYNC_MS, adds its new counts to
 * the shared rows in one statement that returns the totals of every instance. A decision is
 * (shared total at the last sync) + (this instance's count since). Hence with N instances a key
 * can pass its limit by at most what the other N-1 instances admitted in one SYNC_MS (250 ms):
 * a per-request round trip would cost more than the request itself and make each key's row a
 * row every request must lock.
 */
import type { SQL } from "bun";
import type { Logger } from "../../lib/logger";
import type { RateHit, RateLimitStore } from "../port/rate-limit";

/** How often local counts are added to the shared rows (ms). */
export const SYNC_MS = 250;

export class PgRateLimits implements RateLimitStore {
  private window = -1;
  /** Shared totals as of the last sync, by `k:<key id>` / `a:<account id>`. */
  private shared = new Map<string, number>();
  /** This instance's counts since the last sync. */
  private local = new Map<string, number>();
  private timer: ReturnType<typeof setInterval> | null = null;
  private syncing: Promise<void> = Promise.resolve();
  /** The window whose older rows were last deleted. */
  private pruned = -1;

  constructor(
    private readonly pool: SQL,
    private readonly logger?: Pick<Logger, "error">,
  ) {}

  hit(window: number, keyId: string, keyLimit: number, accountId: string, accountLimit: number): RateHit {
    if (window !== this.window) {
      this.window = window;
      this.shared.clear();
      this.local.clear();
    }
    const k = `k:${keyId}`;
    const a = `a:${accountId}`;
    const keyCount = this.count(k) + 1;
    const allowed = keyCount <= keyLimit && this.count(a) + 1 <= accountLimit;
    if (allowed) {
      this.local.set(k, (this.local.get(k) ?? 0) + 1);
      this.local.set(a, (this.local.get(a) ?? 0) + 1);
      if (!this.timer) {
        this.timer = setInterval(() => void this.sync(), SYNC_MS);
        this.timer.unref?.();
      }
    }
    return { allowed, keyCount };
  }

  /**
   * Adds the local counts to the shared rows and learns every instance's totals. Runs on the
   * timer; tests call it to make the counts of two instances meet now. Never rejects (a failed
   * sync is logged and its counts are kept for the next one).
   */
  sync(): Promise<void> {
    this.syncing = this.syncing.then(() => this.syncOnce());
    return this.syncing;
  }

  /** Stops the timer (nothing left to sync; the next counted hit starts it again). */
  private stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private count(key: string): number {
    return (this.shared.get(key) ?? 0) + (this.local.get(key) ?? 0);
  }

  private async syncOnce(): Promise<void> {
    const window = this.window;
    const batch = this.local;
    if (batch.size === 0) {
      this.stop();
      return;
    }
    this.local = new Map();
    const keys = [...batch.keys()];
    try {
      const rows = await this.pool`insert into rate_limit_windows (key, minute, count)
          select k, ${window}::int8, c from unnest(${keys}::text[], ${keys.map((k) => batch.get(k)!)}::int8[]) as t(k, c)
        on conflict (key, minute) do update set count = rate_limit_windows.count + excluded.count
        returning key, count`;
      if (window !== this.window) return; // a new minute began meanwhile: these totals are history
      for (const r of rows) this.shared.set(r.key as string, Number(r.count));
      // Forget windows older than the previous minute (once a minute per instance; the table holds two minutes of keys).
      if (this.pruned !== window) {
        this.pruned = window;
        await this.pool`delete from rate_limit_windows where minute < ${window - 1}`;
      }
    } catch (err) {
      this.logger?.error({ err }, "rate-limit sync failed; counts kept for the next one");
      if (window === this.window) for (const [k, c] of batch) this.local.set(k, (this.local.get(k) ?? 0) + c);
    }
  }
}
