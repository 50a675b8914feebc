/**
 * A clock advance does not step through the empty periods of recurring jobs (src/jobs/advance.ts,
 * Scheduler.deferRecurring): a job registered `idle` is moved past the periods in which it has
 * nothing to do, up to the next other work, and runs again at each period once it has work; a
 * `catchUp` job (a prune by age) runs once, at its last period before the target.
 */
import { describe, expect, test } from "bun:test";
import { advanceClock } from "../../src/jobs/advance";
import { createHarness } from "../support/harness";

const T0 = Date.parse("2026-11-20T12:00:00.000Z");
const MIN = 60_000;
const HOUR = 3_600_000;

describe("an advance skips the empty periods of recurring jobs", () => {
  test("an idle job does not run while it has nothing to do, and runs at every period once another job gave it work", async () => {
    const h = createHarness({ testClock: true });
    let work = false;
    const runs: number[] = [];
    h.deps.jobs.every("test.idle_poll", MIN, () => void runs.push(h.clock.nowMs() - T0), { idle: () => !work });
    h.deps.jobs.register("test.give_work", () => {
      work = true;
    });
    await h.deps.store.tx((uow) => h.deps.jobs.enqueue(uow, { kind: "test.give_work", dueAt: T0 + 30 * MIN }));

    const r = await advanceClock(h.clock, h.deps.jobs, 3600);

    expect(h.clock.nowMs()).toBe(T0 + HOUR);
    // Without the skip it ran at every minute from 1 to 60 (and stepped 60 times).
    expect(runs).toEqual(Array.from({ length: 31 }, (_, i) => (30 + i) * MIN));
    expect(r.capped).toBe(false);
    expect(r.steps).toBeLessThanOrEqual(31);
  });

  test("an idle job with no other work due moves past the target, and is due at its next period after it", async () => {
    const h = createHarness({ testClock: true });
    const runs: number[] = [];
    h.deps.jobs.every("test.idle_poll", MIN, () => void runs.push(h.clock.nowMs() - T0), { idle: () => true });

    await advanceClock(h.clock, h.deps.jobs, 2 * 86_400);

    expect(runs).toEqual([]);
    const [row] = await h.deps.store.read.jobs.queuedByKeys(["test.idle_poll"], Number.MAX_SAFE_INTEGER);
    expect(row).toEqual({ dedupeKey: "test.idle_poll", dueAt: T0 + 2 * 86_400_000 + MIN });
  });

  test("a catch-up job runs once, at its last period before the target, when nothing else is due", async () => {
    const h = createHarness({ testClock: true });
    const runs: number[] = [];
    h.deps.jobs.every("test.prune", HOUR, () => void runs.push(h.clock.nowMs() - T0), { catchUp: true });

    await advanceClock(h.clock, h.deps.jobs, 5.5 * 3600);

    // Without the skip: at 1, 2, 3, 4 and 5 h.
    expect(runs).toEqual([5 * HOUR]);
  });

  test("a job that is not idle still runs at each of its periods", async () => {
    const h = createHarness({ testClock: true });
    const runs: number[] = [];
    h.deps.jobs.every("test.busy_poll", 10 * MIN, () => void runs.push(h.clock.nowMs() - T0), { idle: () => false });

    await advanceClock(h.clock, h.deps.jobs, 3600);

    expect(runs).toEqual([10, 20, 30, 40, 50, 60].map((m) => m * MIN));
  });
});
