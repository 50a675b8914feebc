/** The one injectable clock: every timestamp and every due time in Cofre comes from here. */

/** A source of "now". `advance` moves it forward (test clock and sandbox only). */
export interface Clock {
  /** Current instant. */
  now(): Date;
  /** Current instant in epoch milliseconds. */
  nowMs(): number;
  /** Moves the clock forward by `seconds` (> 0) and notifies listeners. */
  advance(seconds: number): void;
  /** Registers a listener called after every `advance`; returns an unsubscribe function. */
  onAdvance(listener: () => void): () => void;
}

abstract class BaseClock implements Clock {
  private listeners = new Set<() => void>();
  abstract nowMs(): number;
  protected abstract shift(ms: number): void;
  now(): Date {
    return new Date(this.nowMs());
  }
  advance(seconds: number): void {
    if (!(seconds > 0)) throw new RangeError("advance takes a positive number of seconds");
    this.shift(Math.round(seconds * 1000));
    for (const l of this.listeners) l();
  }
  onAdvance(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** Wall clock plus an offset that `advance` grows (COFRE_TEST_CLOCK=1 uses the offset). */
export class SystemClock extends BaseClock {
  private offsetMs = 0;
  nowMs(): number {
    return Date.now() + this.offsetMs;
  }
  protected shift(ms: number): void {
    this.offsetMs += ms;
  }
  /** How far (ms) the clock has been advanced past the wall clock. */
  get offset(): number {
    return this.offsetMs;
  }
  /**
   * Moves the offset to `ms` when that is later (another instance advanced the shared test clock:
   * src/store/pg/clock-share.ts) and notifies listeners as `advance` does; never moves it back.
   */
  catchUp(ms: number): void {
    if (ms > this.offsetMs) this.advance((ms - this.offsetMs) / 1000);
  }
}

/** A frozen clock for tests: time moves only when `advance` or `set` is called. */
export class ManualClock extends BaseClock {
  private ms: number;
  constructor(start: Date | string = "2026-11-20T12:00:00.000Z") {
    super();
    this.ms = new Date(start).getTime();
  }
  nowMs(): number {
    return this.ms;
  }
  protected shift(ms: number): void {
    this.ms += ms;
  }
}

/** ISO 8601 UTC string of a Date or epoch-ms value (`2026-11-20T12:00:00.000Z`). */
export function iso(t: Date | number): string {
  return new Date(t).toISOString();
}
