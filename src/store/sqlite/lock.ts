/**
 * The unit-of-work lock of one SQLite connection: units of work run one at a time, in arrival
 * order, so no statement of another unit (or a read) ever lands between two awaits of a unit.
 * Measured by the postgres study: about +1 us per transaction over the synchronous `tx()`.
 */

/** A waiter gives up after this long: only a `store.tx` nested inside a unit can wait that long. */
export const LOCK_WAIT_LIMIT_MS = 3_000;

export class UnitLock {
  private held = false;
  /** @param waitLimitMs how long a waiter waits before failing (tests shorten it). */
  constructor(private readonly waitLimitMs = LOCK_WAIT_LIMIT_MS) {}

  private readonly waiters: (() => void)[] = [];

  /** True while a unit of work runs. */
  get busy(): boolean {
    return this.held;
  }

  /**
   * Takes the lock: synchronously (null) when free, else a promise resolved when it is handed
   * over. Rejects after `waitLimitMs`: a unit that opens another unit (or reads
   * through `store.read`) waits for itself forever, and the message says so.
   */
  acquire(): Promise<void> | null {
    if (!this.held) {
      this.held = true;
      return null;
    }
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        const i = this.waiters.indexOf(grant);
        if (i >= 0) this.waiters.splice(i, 1);
        reject(
          new Error(
            `waited ${this.waitLimitMs} ms for the SQLite unit-of-work lock: store.tx or store.read called inside a unit of work? (use the uow)`,
          ),
        );
      }, this.waitLimitMs);
      const grant = () => {
        clearTimeout(timer);
        resolve();
      };
      this.waiters.push(grant);
    });
  }

  /** Hands the lock to the next waiter (it stays held) or frees it. */
  release(): void {
    const next = this.waiters.shift();
    if (next) next();
    else this.held = false;
  }
}
