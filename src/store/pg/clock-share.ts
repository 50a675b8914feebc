/**
 * The sandbox test clock shared by every instance on one PostgreSQL database (extensions.md: the
 * test clock holds across instances). The offset lives in `shared_state` row
 * `test_clock_offset_ms`. An advance on one instance moves its own clock at once (the advance
 * route runs due work on it step by step), then `publish` adds the total it moved to the shared
 * row and notifies the others, which catch up (SystemClock.catchUp wakes their schedulers). An
 * instance starting later reads the row. Offsets only grow, so concurrent advances on two
 * instances add up, and each instance ends at the sum.
 */
import type { SystemClock } from "../../lib/clock";
import type { PgStore } from "./index";
import { noticePayload, NOTICE_CHANNEL } from "./notices";

const ROW = "test_clock_offset_ms";

export class PgClockShare {
  /** The shared offset this instance has accounted for (its advances beyond it are unpublished). */
  private synced = 0;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: PgStore,
    private readonly clock: SystemClock,
  ) {
    store.onChange("clock", (payload) => {
      if (payload === null) void this.pull();
      // In line with publish: this instance's own notice must not be adopted before publish
      // has counted its delta as published (else the advance would count twice).
      else void this.serial(async () => this.adopt(Number(payload)));
    });
  }

  /** Reads the shared offset (start, and after a reconnect of the notice channel). */
  pull(): Promise<void> {
    return this.serial(async () => {
      const [row] = await this.store.sql`select value from shared_state where name = ${ROW}`;
      if (row) this.adopt(Number(row.value));
    });
  }

  /** Adds what this instance advanced since its last sync to the shared offset and tells the others. */
  publish(): Promise<void> {
    return this.serial(async () => {
      const delta = this.clock.offset - this.synced;
      if (delta <= 0) return;
      const now = Date.now();
      const value = await this.store.sql.begin(async (tx) => {
        const [row] =
          await tx`insert into shared_state (name, value, updated_at) values (${ROW}, ${String(delta)}, ${now})
          on conflict (name) do update set value = (shared_state.value::bigint + ${delta}::bigint)::text, updated_at = ${now}
          returning value`;
        await tx`select pg_notify(${NOTICE_CHANNEL}, ${noticePayload("clock", row!.value as string)})`;
        return Number(row!.value);
      });
      this.synced += delta; // published: no longer "unpublished" for adopt
      this.adopt(value);
    });
  }

  private adopt(shared: number): void {
    if (!Number.isFinite(shared)) return;
    // Local advances not yet published stay on top of the shared offset.
    const unpublished = Math.max(0, this.clock.offset - this.synced);
    if (shared > this.synced) this.synced = shared;
    this.clock.catchUp(this.synced + unpublished);
  }

  private serial(fn: () => Promise<void>): Promise<void> {
    const run = this.chain.then(fn);
    this.chain = run.catch(() => {});
    return run;
  }
}
