/**
 * The scheduler's one wake-up timer (Scheduler.armAt, Scheduler.rearm): capped at a minute, the next turn when due now.
 */
const MAX_TIMER_MS = 60_000;

export class WakeTimer {
  private handle: ReturnType<typeof setTimeout> | { immediate: ReturnType<typeof setImmediate> } | null = null;
  /** Epoch ms the timer is set for (Infinity once it fired). */
  at = Infinity;

  constructor(private readonly onFire: () => void) {}

  /** True while a timer is set and has not fired. */
  get armed(): boolean {
    return this.handle !== null;
  }

  /** Sets the timer for `next` (epoch ms; `now` the clock's time), replacing the one set. */
  set(next: number, now: number): void {
    this.clear();
    const delay = Math.max(0, Math.min(next - now, MAX_TIMER_MS));
    this.at = next;
    const fire = () => {
      this.handle = null;
      this.at = Infinity;
      this.onFire();
    };
    // Due now (a job enqueued due at once, e.g. a payout with no delay): the next turn instead of
    // setTimeout's 1 ms floor (measured in docs/performance.md "Payouts"). Still one wake-up.
    this.handle = delay === 0 ? { immediate: setImmediate(fire) } : setTimeout(fire, delay);
  }

  clear(): void {
    const t = this.handle;
    if (!t) return;
    if ("immediate" in t) clearImmediate(t.immediate);
    else clearTimeout(t);
    this.handle = null;
  }
}
