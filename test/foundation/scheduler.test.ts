/** Durable job scheduler (issue "Runtime foundation" part 5). */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Deps } from "../../src/deps";
import { ManualClock, SystemClock } from "../../src/lib/clock";
import type { EnqueueInput, JobRow, Scheduler } from "../../src/jobs/scheduler";
import { testDeps } from "../support/backend";
import { testDb } from "../support/test-db";

const START = "2026-11-20T12:00:00.000Z";
const memDeps = (clock = new ManualClock(START)) =>
  testDeps({ dataDir: ":memory:", clock, config: { logLevel: "silent" } });
/** Enqueues `input` on `jobs` (d's scheduler unless given) in a unit of its own. */
const enqueue = (d: Deps, input: EnqueueInput, jobs: Scheduler = d.jobs) =>
  d.store.tx((uow) => jobs.enqueue(uow, input));
/** The columns of a `jobs` row these tests read, camelCase. */
type Job = {
  id: string;
  kind: string;
  state: string;
  dueAt: number;
  leaseUntil: number | null;
  attempts: number;
  lastError: string | null;
};
const JOB = `select id, kind, state, due_at as "dueAt", lease_until as "leaseUntil", attempts, last_error as "lastError" from jobs`;
const row = (d: Deps, id: string) => testDb(d).get<Job>(`${JOB} where id = ?`, id);
const onlyJob = (d: Deps, kind: string) => testDb(d).get<Job>(`${JOB} where kind = ?`, kind);
/** Counts calls of the scheduler's private `fill` (its loop turns) from now on; returns the counter. */
function countFills(scheduler: object): () => number {
  const sched = scheduler as { fill: () => void };
  const original = sched.fill.bind(scheduler);
  let fills = 0;
  sched.fill = () => {
    fills++;
    original();
  };
  return () => fills;
}

describe("due jobs run", () => {
  test("a job runs once it is due, not before, and its row is then deleted", async () => {
    const clock = new ManualClock(START);
    const d = memDeps(clock);
    const ran: JobRow[] = [];
    d.jobs.register("t.run", (job) => void ran.push(job));
    await enqueue(d, { kind: "t.run", payload: { n: 1 }, dueAt: clock.nowMs() + 30_000 });
    await d.jobs.drain();
    expect(ran).toHaveLength(0);
    clock.advance(29);
    await d.jobs.drain();
    expect(ran).toHaveLength(0);
    clock.advance(1);
    await d.jobs.drain();
    expect(ran.map((j) => [j.kind, j.payload, j.attempts])).toEqual([["t.run", { n: 1 }, 1]]);
    expect(await d.jobs.pending("t.run")).toBe(0);
  });

  test("a job enqueued in a rolled-back transaction never runs", async () => {
    const d = memDeps();
    let ran = 0;
    d.jobs.register("t.rollback", () => void ran++);
    await expect(
      d.store.tx(async (uow) => {
        await d.jobs.enqueue(uow, { kind: "t.rollback" });
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    await d.jobs.drain();
    expect(ran).toBe(0);
  });

  test("a dedupe key keeps a single queued job, and cancel removes it", async () => {
    const d = memDeps();
    let ran = 0;
    d.jobs.register("t.dedupe", () => void ran++);
    await enqueue(d, { kind: "t.dedupe", dedupeKey: "once" });
    await enqueue(d, { kind: "t.dedupe", dedupeKey: "once" });
    expect(await d.jobs.pending("t.dedupe")).toBe(1);
    await d.store.tx((uow) => d.jobs.cancel(uow, "once"));
    expect(await d.jobs.pending("t.dedupe")).toBe(0);
    await enqueue(d, { kind: "t.dedupe", dedupeKey: "once" });
    await enqueue(d, { kind: "t.dedupe", dedupeKey: "once" });
    await d.jobs.drain();
    expect(ran).toBe(1);
  });

  test("drain also runs the jobs that running jobs make due", async () => {
    const d = memDeps();
    const seen: number[] = [];
    d.jobs.register("t.chain", async (job) => {
      const n = (job.payload as { n: number }).n;
      seen.push(n);
      if (n < 3) await enqueue(d, { kind: "t.chain", payload: { n: n + 1 } });
    });
    await enqueue(d, { kind: "t.chain", payload: { n: 1 } });
    await d.jobs.drain();
    expect(seen).toEqual([1, 2, 3]);
  });

  test("drain with a budget starts at most that many jobs, reports how many, and leaves the rest queued", async () => {
    const d = memDeps();
    let ran = 0;
    d.jobs.register("t.again", async () => {
      ran++;
      await enqueue(d, { kind: "t.again" });
    });
    await enqueue(d, { kind: "t.again" });
    expect(await d.jobs.drain(7)).toBe(7);
    expect(ran).toBe(7);
    expect(await d.jobs.pending("t.again")).toBe(1);
    expect(d.jobs.started).toBeGreaterThanOrEqual(7);
  });

  test("nextDueAt is the earliest queued due time, 1 ms past a lease a dead worker still holds, or null", async () => {
    const clock = new ManualClock(START);
    const d = memDeps(clock);
    await d.jobs.pending(); // writes the recurring jobs registered by createDeps
    await testDb(d).run("delete from jobs"); // the recurring prune jobs registered by createDeps
    expect(await d.jobs.nextDueAt()).toBeNull();
    const t0 = clock.nowMs();
    await enqueue(d, { kind: "t.later", dueAt: t0 + 60_000 });
    await enqueue(d, { kind: "t.sooner", dueAt: t0 + 30_000 });
    expect(await d.jobs.nextDueAt()).toBe(t0 + 30_000);
    await enqueue(d, { kind: "t.orphan", dueAt: t0 });
    await testDb(d).run("update jobs set lease_until = ?, attempts = 1 where kind = ?", t0 + 10_000, "t.orphan");
    expect(await d.jobs.nextDueAt()).toBe(t0 + 10_001);
  });

  test("a handler returning retryAt runs again at that time with attempts reset", async () => {
    const clock = new ManualClock(START);
    const d = memDeps(clock);
    const attempts: number[] = [];
    d.jobs.register("t.poll", (job) => {
      attempts.push(job.attempts);
      if (attempts.length < 3) return { retryAt: clock.nowMs() + 10_000 };
    });
    await enqueue(d, { kind: "t.poll" });
    await d.jobs.drain();
    clock.advance(10);
    await d.jobs.drain();
    clock.advance(10);
    await d.jobs.drain();
    expect(attempts).toEqual([1, 1, 1]);
    expect(await d.jobs.pending("t.poll")).toBe(0);
  });
});

describe("an outcome recorded in the handler's own unit (JobRow.finish)", () => {
  test("commits with the handler's writes; what the handler returns or throws afterwards is not recorded again", async () => {
    const clock = new ManualClock(START);
    const d = memDeps(clock);
    const runs: number[] = [];
    d.jobs.register("t.finish", async (job) => {
      runs.push(clock.nowMs());
      const n = runs.length;
      await d.store.tx((uow) => job.finish!(uow, n === 1 ? { retryAt: clock.nowMs() + 10_000 } : undefined));
      if (n === 1) return { retryAt: clock.nowMs() + 99_000 }; // ignored: the outcome is recorded
      throw new Error("after the outcome"); // only logged: the job is done
    });
    await enqueue(d, { kind: "t.finish", dedupeKey: "t.finish" });
    await d.jobs.drain();
    expect(await d.store.read.jobs.queuedByKeys(["t.finish"], Number.MAX_SAFE_INTEGER)).toEqual([
      { dedupeKey: "t.finish", dueAt: clock.nowMs() + 10_000 },
    ]);
    clock.advance(10);
    await d.jobs.drain();
    expect(runs).toEqual([clock.nowMs() - 10_000, clock.nowMs()]);
    expect(await d.jobs.pending("t.finish")).toBe(0);
    expect(await testDb(d).all("select id from jobs where kind = 't.finish'")).toEqual([]);
  });

  test("a unit that rolled back records nothing: the scheduler records what the handler returns", async () => {
    const clock = new ManualClock(START);
    const d = memDeps(clock);
    let runs = 0;
    d.jobs.register("t.finish", async (job) => {
      runs++;
      await d.store
        .tx(async (uow) => {
          await job.finish!(uow, undefined);
          throw new Error("rolled back");
        })
        .catch(() => {});
      if (runs === 1) return { retryAt: clock.nowMs() + 5_000 };
    });
    await enqueue(d, { kind: "t.finish", dedupeKey: "t.finish" });
    await d.jobs.drain();
    expect(await d.store.read.jobs.queuedByKeys(["t.finish"], Number.MAX_SAFE_INTEGER)).toEqual([
      { dedupeKey: "t.finish", dueAt: clock.nowMs() + 5_000 },
    ]);
    clock.advance(5);
    await d.jobs.drain();
    expect(runs).toBe(2);
    expect(await d.jobs.pending("t.finish")).toBe(0);
  });
});

describe("failures", () => {
  test("a throwing job is retried with backoff and its error recorded", async () => {
    const clock = new ManualClock(START);
    const d = memDeps(clock);
    const runs: number[] = [];
    d.jobs.register(
      "t.flaky",
      (job) => {
        runs.push(job.attempts);
        if (job.attempts < 3) throw new Error(`boom ${job.attempts}`);
      },
      { backoff: (n) => 10 * n },
    );
    await enqueue(d, { kind: "t.flaky" });
    await d.jobs.drain();
    expect(runs).toEqual([1]);
    const j = (await onlyJob(d, "t.flaky"))!;
    expect(j.lastError).toBe("boom 1");
    expect(j.dueAt).toBe(clock.nowMs() + 10_000);
    expect(j.leaseUntil).toBeNull();
    clock.advance(9);
    await d.jobs.drain();
    expect(runs).toEqual([1]);
    clock.advance(1);
    await d.jobs.drain();
    expect(runs).toEqual([1, 2]);
    expect((await onlyJob(d, "t.flaky"))!.dueAt).toBe(clock.nowMs() + 20_000);
    clock.advance(20);
    await d.jobs.drain();
    expect(runs).toEqual([1, 2, 3]);
    expect(await d.jobs.pending("t.flaky")).toBe(0);
  });

  test("the default backoff doubles: 2 s, 4 s, 8 s", async () => {
    const clock = new ManualClock(START);
    const d = memDeps(clock);
    d.jobs.register("t.fail", () => {
      throw new Error("always");
    });
    await enqueue(d, { kind: "t.fail" });
    const delays: number[] = [];
    for (let i = 0; i < 3; i++) {
      await d.jobs.drain();
      const due = (await onlyJob(d, "t.fail"))!.dueAt;
      delays.push((due - clock.nowMs()) / 1000);
      clock.advance((due - clock.nowMs()) / 1000);
    }
    expect(delays).toEqual([2, 4, 8]);
  });

  test("after maxAttempts failures the job is kept as dead and not run again", async () => {
    const clock = new ManualClock(START);
    const d = memDeps(clock);
    let runs = 0;
    d.jobs.register(
      "t.dead",
      () => {
        runs++;
        throw new Error("nope");
      },
      { maxAttempts: 2, backoff: () => 1 },
    );
    await enqueue(d, { kind: "t.dead" });
    for (let i = 0; i < 4; i++) {
      await d.jobs.drain();
      clock.advance(1);
    }
    expect(runs).toBe(2);
    expect((await onlyJob(d, "t.dead"))!.state).toBe("dead");
    expect(await d.jobs.pending("t.dead")).toBe(0);
  });

  test("a job whose lease expired (its runner died) is claimed and run again", async () => {
    const clock = new ManualClock(START);
    const d = memDeps(clock);
    const runs: number[] = [];
    d.jobs.register("t.lease", (job) => void runs.push(job.attempts), { leaseSeconds: 30 });
    await enqueue(d, { kind: "t.lease" });
    const id = (await onlyJob(d, "t.lease"))!.id;
    // A runner that died mid-job left this lease behind.
    await testDb(d).run("update jobs set lease_until = ?, attempts = 1 where id = ?", clock.nowMs() + 30_000, id);
    await d.jobs.drain();
    expect(runs).toEqual([]);
    clock.advance(31);
    await d.jobs.drain();
    expect(runs).toEqual([2]);
    expect(await row(d, id)).toBeUndefined();
  });

  test("a slow job still running past its lease is not started a second time", async () => {
    const clock = new ManualClock(START);
    const d = memDeps(clock);
    let runs = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    d.jobs.register(
      "t.slow",
      async () => {
        runs++;
        await gate;
      },
      { leaseSeconds: 5 },
    );
    await enqueue(d, { kind: "t.slow" });
    const first = d.jobs.drain();
    await Bun.sleep(1);
    clock.advance(10);
    const second = d.jobs.drain();
    await Bun.sleep(1);
    release();
    await Promise.all([first, second]);
    expect(runs).toBe(1);
  });
});

describe("the loop", () => {
  test("started, it runs a job enqueued for now without any drain", async () => {
    const d = memDeps();
    let resolve!: () => void;
    const ran = new Promise<void>((r) => (resolve = r));
    d.jobs.register("t.loop", () => resolve());
    d.jobs.start();
    try {
      await enqueue(d, { kind: "t.loop" });
      await Promise.race([ran, Bun.sleep(5000).then(() => Promise.reject(new Error("job did not run")))]);
    } finally {
      await d.jobs.stop();
    }
  });

  test("started with a manual clock, advancing the clock runs what became due", async () => {
    const clock = new ManualClock(START);
    const d = memDeps(clock);
    let resolve!: () => void;
    const ran = new Promise<void>((r) => (resolve = r));
    d.jobs.register("t.advance", () => resolve());
    await enqueue(d, { kind: "t.advance", dueAt: clock.nowMs() + 3600_000 });
    d.jobs.start();
    try {
      clock.advance(3600);
      await Promise.race([ran, Bun.sleep(5000).then(() => Promise.reject(new Error("job did not run")))]);
    } finally {
      await d.jobs.stop();
    }
  });

  test("with the wall clock it sleeps until the due time, with no polling lag", async () => {
    const d = memDeps(new SystemClock() as unknown as ManualClock);
    let ranAt = 0;
    let resolve!: () => void;
    const ran = new Promise<void>((r) => (resolve = r));
    let ranAtWall = 0;
    d.jobs.register("t.timer", () => {
      ranAt = performance.now();
      ranAtWall = Date.now();
      resolve();
    });
    d.jobs.start();
    const t0 = performance.now();
    const dueAt = Date.now() + 150;
    try {
      await enqueue(d, { kind: "t.timer", dueAt });
      await Promise.race([ran, Bun.sleep(3000).then(() => Promise.reject(new Error("job did not run")))]);
    } finally {
      await d.jobs.stop();
    }
    expect(ranAt - t0).toBeGreaterThanOrEqual(140);
    // The lag is counted from the due time, so the enqueue's own round trip is not part of it.
    expect(ranAtWall - dueAt).toBeLessThan(1000);
  });
});

describe("the loop after a start", () => {
  test("a job already queued for later runs at its due time without any new enqueue", async () => {
    const d = memDeps(new SystemClock() as unknown as ManualClock);
    let ranAt = 0;
    let resolve!: () => void;
    const ran = new Promise<void>((r) => (resolve = r));
    d.jobs.register("t.queued", () => {
      ranAt = Date.now();
      resolve();
    });
    // Measured against the due time itself, not the start: on a loaded machine the enqueue
    // (a PostgreSQL round trip) can take most of the 150 ms by itself.
    const dueAt = Date.now() + 150;
    await enqueue(d, { kind: "t.queued", dueAt });
    expect(await d.jobs.pending("t.queued")).toBe(1);
    d.jobs.start();
    try {
      await Promise.race([ran, Bun.sleep(3000).then(() => Promise.reject(new Error("job did not run")))]);
    } finally {
      await d.jobs.stop();
    }
    expect(ranAt).toBeGreaterThanOrEqual(dueAt);
  });
});

describe("no busy waiting", () => {
  test("a job running past its lease does not make the loop spin", async () => {
    const clock = new ManualClock(START);
    const d = memDeps(clock);
    let entered!: () => void;
    const running = new Promise<void>((r) => (entered = r));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    d.jobs.register(
      "t.long",
      async () => {
        entered();
        await gate;
      },
      { leaseSeconds: 1 },
    );
    await enqueue(d, { kind: "t.long" });
    d.jobs.start();
    try {
      await running;
      clock.advance(5);
      const fills = countFills(d.jobs);
      await Bun.sleep(200);
      expect(fills()).toBeLessThanOrEqual(2);
    } finally {
      release();
      await d.jobs.stop();
    }
  });

  test("with every slot busy, more due jobs do not make the loop spin", async () => {
    const { Scheduler } = await import("../../src/jobs/scheduler");
    const clock = new ManualClock(START);
    const d = memDeps(clock);
    const jobsOne = new Scheduler(d.store, clock, d.logger, 1);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let runs = 0;
    let entered!: () => void;
    const running = new Promise<void>((r) => (entered = r));
    jobsOne.register("t.busy", async () => {
      runs++;
      entered();
      await gate;
    });
    await enqueue(d, { kind: "t.busy" }, jobsOne);
    await enqueue(d, { kind: "t.busy" }, jobsOne);
    jobsOne.start();
    try {
      await running;
      await Bun.sleep(20);
      const fills = countFills(jobsOne);
      await Bun.sleep(200);
      expect(fills()).toBeLessThanOrEqual(2);
      expect(runs).toBe(1);
      release();
      for (let i = 0; i < 500 && runs < 2; i++) await Bun.sleep(10);
      expect(runs).toBe(2);
    } finally {
      release();
      await jobsOne.stop();
    }
  });
});

describe("restarts", () => {
  const dir = mkdtempSync(join(tmpdir(), "cofre-jobs-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("a job due while the process was down runs after a restart", async () => {
    const dataDir = join(dir, "a");
    const clock1 = new ManualClock(START);
    const d1 = testDeps({ dataDir, clock: clock1, config: { logLevel: "silent" } });
    d1.jobs.register("t.durable", () => {
      throw new Error("must not run in the first process");
    });
    await enqueue(d1, { kind: "t.durable", payload: { order: 42 }, dueAt: clock1.nowMs() + 60_000 });
    await d1.jobs.stop();
    await d1.store.close();

    const clock2 = new ManualClock("2026-11-20T13:00:00.000Z");
    const d2 = testDeps({ dataDir, clock: clock2, config: { logLevel: "silent" } });
    const ran: unknown[] = [];
    d2.jobs.register("t.durable", (job) => void ran.push(job.payload));
    await d2.jobs.drain();
    expect(ran).toEqual([{ order: 42 }]);
    await d2.store.close();
  });

  test("a job whose process died mid-run runs again after a restart once its lease expired", async () => {
    const dataDir = join(dir, "b");
    const clock1 = new ManualClock(START);
    const d1 = testDeps({ dataDir, clock: clock1, config: { logLevel: "silent" } });
    let started!: () => void;
    const isRunning = new Promise<void>((r) => (started = r));
    d1.jobs.register(
      "t.crash",
      () => {
        started();
        return new Promise(() => {}); // never finishes: the process "dies" with the job leased
      },
      { leaseSeconds: 120 },
    );
    await enqueue(d1, { kind: "t.crash", payload: { n: 7 } });
    void d1.jobs.drain();
    await isRunning;
    expect((await onlyJob(d1, "t.crash"))!.leaseUntil).toBe(clock1.nowMs() + 120_000);
    await d1.store.close();

    const clock2 = new ManualClock(START);
    const d2 = testDeps({ dataDir, clock: clock2, config: { logLevel: "silent" } });
    const ran: JobRow[] = [];
    d2.jobs.register("t.crash", (job) => void ran.push(job), { leaseSeconds: 120 });
    await d2.jobs.drain();
    expect(ran).toHaveLength(0);
    clock2.advance(121);
    await d2.jobs.drain();
    expect(ran.map((j) => [j.payload, j.attempts])).toEqual([[{ n: 7 }, 2]]);
    await d2.store.close();
  });
});

describe("the clock advance helper", () => {
  test("POST /v1/test_helpers/clock/advance runs what became due, at its own due time, before it answers", async () => {
    const { createHarness } = await import("../support/harness");
    const h = createHarness({ testClock: true });
    const a = await h.seedAccount();
    const ran: string[] = [];
    h.deps.jobs.register("t.helper", () => void ran.push(h.clock.now().toISOString()));
    await h.deps.store.tx((uow) => h.deps.jobs.enqueue(uow, { kind: "t.helper", dueAt: h.clock.nowMs() + 90_000 }));
    const r1 = await h.call("POST", "/v1/test_helpers/clock/advance", { key: a.testKey, body: { seconds: 60 } });
    expect(r1.status).toBe(200);
    expect(ran).toEqual([]);
    const r2 = await h.call("POST", "/v1/test_helpers/clock/advance", { key: a.testKey, body: { seconds: 60 } });
    expect(r2.body).toEqual({ now: "2026-11-20T12:02:00.000Z" });
    expect(ran).toEqual(["2026-11-20T12:01:30.000Z"]);
  });
});
