/** Scheduler.enqueueNoLaterThan: one live job per dedupe key, due no later than every caller asked. */
import { describe, expect, test } from "bun:test";
import type { Deps } from "../../src/deps";
import { ManualClock } from "../../src/lib/clock";
import type { JobOutcome, JobRow } from "../../src/jobs/scheduler";
import { MARGIN_MS } from "../../src/store/pg/jobs";
import { testDeps } from "../support/backend";
import { testDb } from "../support/test-db";

const START = "2026-11-20T12:00:00.000Z";
const T0 = Date.parse(START);
const memDeps = (clock = new ManualClock(START)) =>
  testDeps({ dataDir: ":memory:", clock, config: { logLevel: "silent" } });
type Line = { id: string; due_at: number; payload: string; state: string; attempts: number };
/** enqueueNoLaterThan in a unit of its own. */
const noLaterThan = (d: Deps, input: Parameters<Deps["jobs"]["enqueueNoLaterThan"]>[1]) =>
  d.store.tx((uow) => d.jobs.enqueueNoLaterThan(uow, input));
const rows = (d: Deps, key: string) =>
  testDb(d).all<Line>("select id, due_at, payload, state, attempts from jobs where dedupe_key = ?", key);
/**
 * A fingerprint that changes with any row written: SQLite's total_changes() of the connection;
 * PostgreSQL's row versions of `jobs` (an update or insert gives a row a new xmin).
 */
const writes = async (d: Deps) => {
  const db = testDb(d);
  if (db.kind === "sqlite") return (await db.get<{ n: number }>("select total_changes() as n"))!.n;
  return (await db.get<{ v: string | null }>(
    "select string_agg(id || ':' || xmin::text, ',' order by id) as v from jobs",
  ))!.v;
};

describe("enqueueNoLaterThan", () => {
  test("inserts the job when none has the key, then only ever moves its due time earlier", async () => {
    const d = memDeps();
    d.jobs.register("t.sweep", () => {});
    await noLaterThan(d, { kind: "t.sweep", dedupeKey: "sweep", dueAt: T0 + 60_000, payload: { v: 1 } });
    const [first] = await rows(d, "sweep");
    expect(first).toMatchObject({ due_at: T0 + 60_000, payload: '{"v":1}', state: "queued" });
    await noLaterThan(d, { kind: "t.sweep", dedupeKey: "sweep", dueAt: T0 + 90_000, payload: { v: 2 } });
    expect(await rows(d, "sweep")).toEqual([first]);
    await noLaterThan(d, { kind: "t.sweep", dedupeKey: "sweep", dueAt: new Date(T0 + 30_000), payload: { v: 3 } });
    expect(await rows(d, "sweep")).toEqual([{ ...first, due_at: T0 + 30_000 }]);
  });

  test("writes nothing when the job is already due earlier (no row change at all)", async () => {
    const d = memDeps();
    // Due well past PostgreSQL's margin: a job due within MARGIN_MS of now gets one wake_at mark by
    // design there (src/store/pg/jobs.ts), so a peer's run cannot miss this ask.
    const due = T0 + MARGIN_MS + 60_000;
    await noLaterThan(d, { kind: "t.sweep", dedupeKey: "sweep", dueAt: due });
    const before = await writes(d);
    for (let i = 0; i < 10; i++) await noLaterThan(d, { kind: "t.sweep", dedupeKey: "sweep", dueAt: due + 1000 + i });
    expect(await writes(d)).toBe(before);
  });

  test("rolls back with the caller's transaction", async () => {
    const d = memDeps();
    await expect(
      d.store.tx(async (uow) => {
        await d.jobs.enqueueNoLaterThan(uow, { kind: "t.sweep", dedupeKey: "sweep", dueAt: T0 });
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    expect(await rows(d, "sweep")).toEqual([]);
  });

  test("a dead job with the key stays dead", async () => {
    const d = memDeps();
    await noLaterThan(d, { kind: "t.sweep", dedupeKey: "sweep", dueAt: T0 + 60_000 });
    await testDb(d).exec("update jobs set state = 'dead'");
    await noLaterThan(d, { kind: "t.sweep", dedupeKey: "sweep", dueAt: T0 });
    expect((await rows(d, "sweep")).map((r) => [r.state, r.due_at])).toEqual([["dead", T0 + 60_000]]);
  });

  test("the loop wakes at the asked time once started", async () => {
    const d = memDeps();
    let ran = 0;
    d.jobs.register("t.sweep", () => void ran++);
    d.jobs.start();
    try {
      // The system-time timer fires after the manual clock's delay, which here is 0.
      await noLaterThan(d, { kind: "t.sweep", dedupeKey: "sweep", dueAt: T0 });
      for (let i = 0; i < 2500 && ran === 0; i++) await Bun.sleep(2); // up to 5 s on a loaded machine
      expect(ran).toBe(1);
    } finally {
      await d.jobs.stop();
    }
  });
});

describe("asked while the job runs", () => {
  /** Registers `t.sweep` whose handler calls `during()` before finishing with `outcome`. */
  function racing(d: Deps, outcome: () => JobOutcome, during: () => unknown) {
    const ran: JobRow[] = [];
    d.jobs.register(
      "t.sweep",
      async (job) => {
        ran.push(job);
        const out = outcome();
        await Promise.resolve();
        if (ran.length === 1) await during();
        return out;
      },
      { backoff: () => 600 },
    );
    return ran;
  }

  test("a later retryAt from the handler does not postpone the earlier asked time", async () => {
    const clock = new ManualClock(START);
    const d = memDeps(clock);
    const ask = (ms: number) => noLaterThan(d, { kind: "t.sweep", dedupeKey: "sweep", dueAt: ms });
    const ran = racing(
      d,
      () => ({ retryAt: T0 + 3_600_000 }),
      async () => {
        await ask(T0 + 120_000);
        await ask(T0 + 240_000); // later than the first ask: ignored
      },
    );
    await ask(T0);
    await d.jobs.drain();
    expect(ran).toHaveLength(1);
    expect((await rows(d, "sweep")).map((r) => r.due_at)).toEqual([T0 + 120_000]);
  });

  test("an earlier retryAt from the handler wins over the asked time", async () => {
    const d = memDeps();
    racing(
      d,
      () => ({ retryAt: T0 + 10_000 }),
      () => noLaterThan(d, { kind: "t.sweep", dedupeKey: "sweep", dueAt: T0 + 120_000 }),
    );
    await noLaterThan(d, { kind: "t.sweep", dedupeKey: "sweep", dueAt: T0 });
    await d.jobs.drain();
    expect((await rows(d, "sweep")).map((r) => r.due_at)).toEqual([T0 + 10_000]);
  });

  test("a finished handler's job is kept for the asked time instead of deleted", async () => {
    const clock = new ManualClock(START);
    const d = memDeps(clock);
    const ran = racing(
      d,
      () => undefined,
      () => noLaterThan(d, { kind: "t.sweep", dedupeKey: "sweep", dueAt: T0 + 60_000 }),
    );
    await noLaterThan(d, { kind: "t.sweep", dedupeKey: "sweep", dueAt: T0 });
    await d.jobs.drain();
    expect((await rows(d, "sweep")).map((r) => [r.due_at, r.attempts])).toEqual([[T0 + 60_000, 0]]);
    clock.advance(60);
    await d.jobs.drain();
    expect(ran).toHaveLength(2);
    expect(await rows(d, "sweep")).toEqual([]);
  });

  test("a failed handler retries at the asked time when it comes before its backoff", async () => {
    const d = memDeps();
    racing(
      d,
      () => {
        throw new Error("boom");
      },
      () => {},
    );
    // The handler throws before `during`, so ask from a concurrent microtask instead.
    await noLaterThan(d, { kind: "t.sweep", dedupeKey: "sweep", dueAt: T0 });
    const draining = d.jobs.drain();
    await noLaterThan(d, { kind: "t.sweep", dedupeKey: "sweep", dueAt: T0 + 30_000 });
    await draining;
    expect((await rows(d, "sweep")).map((r) => [r.due_at, r.state])).toEqual([[T0 + 30_000, "queued"]]);
  });

  test("a job without a dedupe key and other keys are not affected", async () => {
    const d = memDeps();
    racing(
      d,
      () => ({ retryAt: T0 + 3_600_000 }),
      () => noLaterThan(d, { kind: "t.other", dedupeKey: "other", dueAt: T0 + 60_000 }),
    );
    await noLaterThan(d, { kind: "t.sweep", dedupeKey: "sweep", dueAt: T0 });
    await d.jobs.drain();
    expect((await rows(d, "sweep")).map((r) => r.due_at)).toEqual([T0 + 3_600_000]);
    expect((await rows(d, "other")).map((r) => r.due_at)).toEqual([T0 + 60_000]);
  });
});
