// own-database: starts the PostgreSQL it tests itself (run once, by `bun run test`)
/**
 * The PostgreSQL jobs repository (src/store/pg/jobs.ts) and the scheduler across instances: two
 * stores (two pools, as two `cofre serve` processes) on one database.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { createDeps } from "../../src/deps";
import { advanceClock } from "../../src/jobs/advance";
import { Scheduler } from "../../src/jobs/scheduler";
import { ManualClock } from "../../src/lib/clock";
import { newId } from "../../src/lib/ids";
import { createLogger } from "../../src/lib/logger";
import { createPgStore, type PgStore } from "../../src/store/pg";
import { MARGIN_MS } from "../../src/store/pg/jobs";
import { openPgPool } from "../../src/store/pg/pool";
import type { NewJob } from "../../src/store/port/jobs";
import { PG_START_TIMEOUT, pgDatabase, type PgDatabase } from "../support/pg";

const T0 = Date.parse("2026-11-20T12:00:00.000Z");
const logger = createLogger("silent");
const KEY = "t.sweep";

let db: PgDatabase;
let open: PgStore[] = [];
let schedulers: Scheduler[] = [];
beforeAll(async () => {
  db = await pgDatabase();
}, PG_START_TIMEOUT);
afterAll(() => db.drop());
beforeEach(async () => {
  await db.sql`delete from jobs`;
});
afterEach(async () => {
  await Promise.all(schedulers.map((s) => s.stop()));
  await Promise.all(open.map((s) => s.close()));
  open = [];
  schedulers = [];
});

/** A store of its own (an instance) on the test database; `notices` subscribes to the channel. */
async function instance(notices = false): Promise<PgStore> {
  const s = createPgStore(openPgPool(db.url, { max: 4 }), { migrate: false, notices });
  open.push(s);
  await s.started;
  return s;
}

function scheduler(store: PgStore, clock: ManualClock, concurrency = 32): Scheduler {
  const s = new Scheduler(store, clock, logger, concurrency);
  schedulers.push(s);
  return s;
}

const job = (over: Partial<NewJob> = {}): NewJob => ({
  id: newId("job"),
  kind: "t.job",
  payload: "{}",
  dueAt: T0,
  dedupeKey: null,
  createdAt: T0,
  ...over,
});
const sweep = (dueAt: number, now = T0) => ({ ...job({ kind: KEY, dueAt, createdAt: now }), dedupeKey: KEY });

interface Line {
  id: string;
  due_at: string;
  wake_at: string | null;
  lease_until: string | null;
  state: string;
  xmin: string;
}
/** The sweep row, with its row version (`xmin` changes on every write). */
async function sweepRow(): Promise<Line | undefined> {
  const [r] =
    await db.sql`select id, due_at, wake_at, lease_until, state, xmin::text as xmin from jobs where dedupe_key = ${KEY}`;
  return r as Line | undefined;
}

/** A promise and the function that resolves it. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open!: () => void;
  const wait = new Promise<void>((r) => (open = r));
  return { wait, open };
}

async function until(cond: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  const end = performance.now() + ms;
  while (!(await cond())) {
    if (performance.now() > end) throw new Error("condition not met in time");
    await Bun.sleep(5);
  }
}

describe("claims", () => {
  test("two instances claiming at once lease disjoint jobs, and a leased job is not claimed again", async () => {
    const [a, b] = [await instance(), await instance()];
    await a.tx((u) => u.jobs.enqueueMany(Array.from({ length: 10 }, (_, i) => job({ dueAt: T0 + i }))));
    const held = gate();
    const req = { now: T0 + 100, limit: 6, running: new Map(), leaseMs: () => 60_000 };
    let first: string[] = [];
    const pending = a.tx(async (u) => {
      first = (await u.jobs.claimDue(req)).map((j) => j.id);
      await held.wait;
    });
    await until(() => first.length > 0);
    const second = await b.tx((u) => u.jobs.claimDue({ ...req, limit: 10 }));
    held.open();
    await pending;
    expect(first).toHaveLength(6);
    expect(second).toHaveLength(4);
    expect(new Set([...first, ...second.map((j) => j.id)]).size).toBe(10);
    // Oldest due first, attempts counted, leased until now + leaseMs.
    expect(second.map((j) => j.dueAt)).toEqual([T0 + 6, T0 + 7, T0 + 8, T0 + 9]);
    expect(second.every((j) => j.attempts === 1)).toBe(true);
    const leases = await db.sql`select distinct lease_until::float8 as l from jobs`;
    expect(leases.map((r: { l: number }) => r.l)).toEqual([T0 + 100 + 60_000]);
    expect(await b.tx((u) => u.jobs.claimDue({ ...req, limit: 10 }))).toEqual([]);
  });

  test("jobs running in this process are skipped even past their lease", async () => {
    const a = await instance();
    const [j1, j2] = [job(), job({ dueAt: T0 + 1 })];
    await a.tx((u) => u.jobs.enqueueMany([j1, j2]));
    const running = new Map([[j1.id, null]]);
    const got = await a.tx((u) => u.jobs.claimDue({ now: T0 + 5, limit: 5, running, leaseMs: () => 10 }));
    expect(got.map((j) => j.id)).toEqual([j2.id]);
    // Past its lease the other one is claimable again, by anyone not running it.
    const again = await a.tx((u) =>
      u.jobs.claimDue({ now: T0 + 100, limit: 5, running: new Map(), leaseMs: () => 10 }),
    );
    expect(again.map((j) => [j.id, j.attempts])).toEqual([
      [j1.id, 1],
      [j2.id, 2],
    ]);
  });

  test("two schedulers on one database run every job exactly once", async () => {
    const [a, b] = [await instance(true), await instance(true)];
    const clock = new ManualClock(new Date(T0));
    const runs = new Map<string, number>();
    const [sa, sb] = [scheduler(a, clock, 8), scheduler(b, clock, 8)];
    for (const s of [sa, sb])
      s.register("t.job", async (j) => {
        runs.set(j.id, (runs.get(j.id) ?? 0) + 1);
        await Bun.sleep(1);
      });
    const ids = Array.from({ length: 200 }, () => newId("job"));
    await a.tx((u) => u.jobs.enqueueMany(ids.map((id, i) => job({ id, dueAt: T0 - i }))));
    sa.start();
    sb.start();
    await until(async () => runs.size === ids.length && (await a.read.jobs.countQueued()) === 0, 15_000);
    expect([...runs.values()].every((n) => n === 1)).toBe(true);
    expect(sa.started + sb.started).toBe(ids.length);
    expect(sa.started).toBeGreaterThan(0);
    expect(sb.started).toBeGreaterThan(0);
  });
});

describe("notices", () => {
  test("every insert notifies its due time (the earliest of a batch); a duplicate notifies nothing", async () => {
    const [a, b] = [await instance(), await instance(true)];
    const heard: (string | null)[] = [];
    b.onChange("jobs", (p) => heard.push(p));
    await a.tx((u) => u.jobs.enqueue(job({ dueAt: T0 + 5, dedupeKey: "k" })));
    await a.tx((u) =>
      u.jobs.enqueueMany([job({ dueAt: T0 + 9 }), job({ dueAt: T0 + 7 }), job({ dueAt: T0 + 1, dedupeKey: "k" })]),
    );
    await a.tx((u) => u.jobs.enqueue(job({ dueAt: T0 + 3, dedupeKey: "k" })));
    await a.tx((u) => u.jobs.enqueueNoLaterThan(sweep(T0 + 50)));
    await a.tx((u) => u.jobs.enqueueNoLaterThan(sweep(T0 + 40_000 + MARGIN_MS)));
    await a.tx((u) => u.jobs.enqueueNoLaterThan(sweep(T0 + 20))); // pulled earlier
    await a.tx((u) => u.jobs.enqueueMany([job({ dueAt: T0, dedupeKey: "k" })]));
    await until(() => heard.length >= 4);
    await Bun.sleep(50);
    expect(heard).toEqual([`${T0 + 5}`, `${T0 + 7}`, `${T0 + 50}`, `${T0 + 20}`]);
  });

  test("a rolled-back insert notifies nothing", async () => {
    const [a, b] = [await instance(), await instance(true)];
    const heard: (string | null)[] = [];
    b.onChange("jobs", (p) => heard.push(p));
    await expect(
      a.tx(async (u) => {
        await u.jobs.enqueue(job());
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    await a.tx((u) => u.jobs.enqueue(job({ dueAt: T0 + 1 })));
    await until(() => heard.length >= 1);
    expect(heard).toEqual([`${T0 + 1}`]);
  });

  test("a job queued on one instance wakes another instance's loop, which runs it (Deps wire the notice)", async () => {
    const [a, b] = [await instance(true), await instance(true)];
    const clock = new ManualClock(new Date(T0));
    const sa = scheduler(a, clock);
    const deps = createDeps({ store: b, clock, dataDir: ":memory:", config: { logLevel: "silent" } });
    await deps.startup;
    const sb = deps.jobs;
    schedulers.push(sb);
    const ran: string[] = [];
    for (const s of [sa, sb]) s.register("t.job", (j) => void ran.push(j.id));
    sb.start();
    await sb.drain(); // B looked at the empty table and armed no timer (claims run one after another)
    await a.tx((u) => sa.enqueue(u, { kind: "t.job", payload: { n: 1 } }));
    await until(() => ran.length === 1);
    expect(sb.started).toBe(1);
    expect(sa.started).toBe(0);
  });

  test("hint without a time looks at the table (after a reconnect notices may be lost)", async () => {
    const [a, b] = [await instance(), await instance()];
    const clock = new ManualClock(new Date(T0));
    const sb = scheduler(b, clock);
    let ran = 0;
    sb.register("t.job", () => void ran++);
    sb.start();
    await sb.drain(); // B's first look (at the empty table) is over before A enqueues
    await a.tx((u) => u.jobs.enqueue(job()));
    await Bun.sleep(20);
    expect(ran).toBe(0);
    sb.hint();
    await until(() => ran === 1);
  });
});

describe("enqueueNoLaterThan on a shared sweep row", () => {
  test("inserts, pulls earlier, never later, and a dead job stays dead", async () => {
    const a = await instance();
    await a.tx((u) => u.jobs.enqueueNoLaterThan(sweep(T0 + 600_000)));
    expect(await sweepRow()).toMatchObject({ due_at: `${T0 + 600_000}`, wake_at: null, state: "queued" });
    await a.tx((u) => u.jobs.enqueueNoLaterThan(sweep(T0 + 900_000)));
    expect((await sweepRow())!.due_at).toBe(`${T0 + 600_000}`);
    await a.tx((u) => u.jobs.enqueueNoLaterThan(sweep(T0 + 300_000)));
    expect((await sweepRow())!.due_at).toBe(`${T0 + 300_000}`);
    await db.sql`update jobs set state = 'dead'`;
    await a.tx((u) => u.jobs.enqueueNoLaterThan(sweep(T0)));
    expect(await sweepRow()).toMatchObject({ due_at: `${T0 + 300_000}`, state: "dead", wake_at: null });
  });

  test("writes nothing when the sweep is already due earlier and not soon", async () => {
    const a = await instance();
    await a.tx((u) => u.jobs.enqueueNoLaterThan(sweep(T0 + 2 * MARGIN_MS)));
    const before = await sweepRow();
    for (let i = 0; i < 5; i++) await a.tx((u) => u.jobs.enqueueNoLaterThan(sweep(T0 + 3 * MARGIN_MS + i)));
    expect(await sweepRow()).toEqual(before!);
  });

  test("a sweep due soon is marked once (wake_at), then later asks write nothing", async () => {
    const a = await instance();
    await a.tx((u) => u.jobs.enqueueNoLaterThan(sweep(T0 + 1000)));
    await a.tx((u) => u.jobs.enqueueNoLaterThan(sweep(T0 + 900_000)));
    const marked = (await sweepRow())!;
    expect(marked).toMatchObject({ due_at: `${T0 + 1000}`, wake_at: `${T0 + 900_000}` });
    await a.tx((u) => u.jobs.enqueueNoLaterThan(sweep(T0 + 950_000)));
    expect(await sweepRow()).toEqual(marked);
    await a.tx((u) => u.jobs.enqueueNoLaterThan(sweep(T0 + 800_000)));
    expect((await sweepRow())!.wake_at).toBe(`${T0 + 800_000}`);
  });

  test("asked while another instance runs it: the run's outcome requeues it no later than asked", async () => {
    const [a, b] = [await instance(), await instance()];
    const claim = (s: PgStore) =>
      s.tx((u) => u.jobs.claimDue({ now: T0, limit: 1, running: new Map(), leaseMs: () => 60_000 }));
    const ask = (s: PgStore, x: number) => s.tx((u) => u.jobs.enqueueNoLaterThan(sweep(x)));
    // reschedule later than asked
    await ask(a, T0);
    const [run] = await claim(a);
    await ask(b, T0 + 5000);
    expect(await sweepRow()).toMatchObject({ due_at: `${T0}`, wake_at: `${T0 + 5000}`, lease_until: `${T0 + 60_000}` });
    await a.tx((u) => u.jobs.reschedule(run!.id, T0 + 600_000));
    expect(await sweepRow()).toMatchObject({ due_at: `${T0 + 5000}`, wake_at: null, lease_until: null });
    // complete: requeued at the asked time instead of deleted
    await db.sql`update jobs set due_at = ${T0}`;
    const [run2] = await claim(a);
    await ask(b, T0 + 7000);
    await a.tx((u) => u.jobs.complete(run2!.id));
    expect(await sweepRow()).toMatchObject({ due_at: `${T0 + 7000}`, wake_at: null, lease_until: null });
    // a failed run retried later than asked
    await db.sql`update jobs set due_at = ${T0}`;
    const [run3] = await claim(a);
    await ask(b, T0 + 8000);
    await a.tx((u) => u.jobs.recordFailure(run3!.id, "boom", "queued", T0 + 60_000));
    expect(await sweepRow()).toMatchObject({ due_at: `${T0 + 8000}`, wake_at: null, state: "queued" });
    // and with no mark, complete deletes
    await db.sql`update jobs set due_at = ${T0}`;
    const [run4] = await claim(a);
    await a.tx((u) => u.jobs.complete(run4!.id));
    expect(await sweepRow()).toBeUndefined();
  });

  test("an outcome recorded while the asking unit is still open waits for it and honours its mark", async () => {
    const [a, b] = [await instance(), await instance()];
    await a.tx((u) => u.jobs.enqueueNoLaterThan(sweep(T0)));
    const [run] = await a.tx((u) => u.jobs.claimDue({ now: T0, limit: 1, running: new Map(), leaseMs: () => 60_000 }));
    for (const outcome of ["complete", "reschedule"] as const) {
      const held = gate();
      let asked = false;
      const asking = b.tx(async (u) => {
        await u.jobs.enqueueNoLaterThan(sweep(T0 + 3000));
        asked = true;
        await held.wait;
      });
      await until(() => asked);
      let recorded = false;
      const recording = a
        .tx((u) => (outcome === "complete" ? u.jobs.complete(run!.id) : u.jobs.reschedule(run!.id, T0 + 900_000)))
        .then(() => (recorded = true));
      await Bun.sleep(50);
      expect(recorded).toBe(false); // waits for the asking unit's row lock
      held.open();
      await Promise.all([asking, recording]);
      expect(await sweepRow()).toMatchObject({ due_at: `${T0 + 3000}`, wake_at: null, lease_until: null });
      await db.sql`update jobs set lease_until = ${T0 + 60_000}`; // running again for the next round
    }
  });

  test("an ask covered by another unit's mark makes the run's outcome wait until it commits, so the outcome cannot consume the mark before the ask's charge is visible", async () => {
    const [a, b, c] = [await instance(), await instance(), await instance()];
    await a.tx((u) => u.jobs.enqueueNoLaterThan(sweep(T0)));
    const [run] = await a.tx((u) => u.jobs.claimDue({ now: T0, limit: 1, running: new Map(), leaseMs: () => 60_000 }));
    await b.tx((u) => u.jobs.enqueueNoLaterThan(sweep(T0 + 2000))); // the mark: wake_at = T0 + 2000
    const held = gate();
    let asked = false;
    // A later charge (x = T0 + 5000 >= the mark): covered by the mark, so it writes nothing...
    const asking = c.tx(async (u) => {
      await u.jobs.enqueueNoLaterThan(sweep(T0 + 5000));
      asked = true;
      await held.wait;
    });
    await until(() => asked);
    expect(await sweepRow()).toMatchObject({ wake_at: `${T0 + 2000}` });
    // ...but the run's outcome, which consumes the mark, waits until that unit committed.
    let recorded = false;
    const recording = a.tx((u) => u.jobs.reschedule(run!.id, T0 + 900_000)).then(() => (recorded = true));
    await Bun.sleep(50);
    expect(recorded).toBe(false);
    held.open();
    await Promise.all([asking, recording]);
    expect(await sweepRow()).toMatchObject({ due_at: `${T0 + 2000}`, wake_at: null, lease_until: null });
  });

  test("a due sweep is claimed while asks covered by its mark are still open (they lock no row a claim would skip)", async () => {
    const [a, b, c] = [await instance(), await instance(), await instance()];
    await a.tx((u) => u.jobs.enqueueNoLaterThan(sweep(T0))); // due at T0
    await b.tx((u) => u.jobs.enqueueNoLaterThan(sweep(T0 + 2000))); // due soon and not later: the mark wake_at = T0 + 2000
    expect(await sweepRow()).toMatchObject({ due_at: `${T0}`, wake_at: `${T0 + 2000}`, lease_until: null });
    const held = gate();
    let asked = false;
    const asking = c.tx(async (u) => {
      await u.jobs.enqueueNoLaterThan(sweep(T0 + 5000)); // covered by the mark
      asked = true;
      await held.wait;
    });
    await until(() => asked);
    const claimed = await a.tx((u) =>
      u.jobs.claimDue({ now: T0, limit: 1, running: new Map(), leaseMs: () => 60_000 }),
    );
    expect(claimed.map((r) => r.dedupeKey)).toEqual([KEY]);
    held.open();
    await asking;
  });

  test("two instances inserting the missing row at once: one row, due at the earlier time", async () => {
    const [a, b] = [await instance(), await instance()];
    const held = gate();
    let inserted = false;
    const first = a.tx(async (u) => {
      await u.jobs.enqueueNoLaterThan(sweep(T0 + 600_000));
      inserted = true;
      await held.wait;
    });
    await until(() => inserted);
    const second = b.tx((u) => u.jobs.enqueueNoLaterThan(sweep(T0 + 300_000))); // waits on the unique key, then pulls
    await Bun.sleep(30);
    held.open();
    await Promise.all([first, second]);
    const rows = await db.sql`select due_at from jobs`;
    expect(rows.map((r: { due_at: string }) => r.due_at)).toEqual([`${T0 + 300_000}`]);
  });

  test("a run completing while the ask waits re-inserts the row", async () => {
    const [a, b] = [await instance(), await instance()];
    await a.tx((u) => u.jobs.enqueueNoLaterThan(sweep(T0 + 600_000)));
    const [run] = await a.tx((u) =>
      u.jobs.claimDue({ now: T0 + 600_000, limit: 1, running: new Map(), leaseMs: () => 60_000 }),
    );
    // The run's outcome unit deletes the row but has not committed when the ask comes.
    const held = gate();
    let deleted = false;
    const completing = a.tx(async (u) => {
      await u.jobs.complete(run!.id);
      deleted = true;
      await held.wait;
    });
    await until(() => deleted);
    const asking = b.tx((u) => u.jobs.enqueueNoLaterThan(sweep(T0 + 650_000, T0 + 600_000)));
    await Bun.sleep(30);
    held.open();
    await Promise.all([completing, asking]);
    expect(await sweepRow()).toMatchObject({ due_at: `${T0 + 650_000}`, lease_until: null, wake_at: null });
  });

  test("schedulers: a charge asked on B while A runs the sweep is swept at its time", async () => {
    const [a, b] = [await instance(true), await instance(true)];
    const clock = new ManualClock(new Date(T0));
    const [sa, sb] = [scheduler(a, clock), scheduler(b, clock)];
    const running = gate();
    const release = gate();
    const runs: number[] = [];
    // A's sweep computed its next due time (far) before B's charge committed.
    sa.register(KEY, async () => {
      runs.push(clock.nowMs());
      running.open();
      await release.wait;
      return runs.length === 1 ? undefined : { retryAt: T0 + 3_600_000 };
    });
    sb.register(KEY, () => void runs.push(clock.nowMs()));
    await a.tx((u) => sa.enqueueNoLaterThan(u, { kind: KEY, dedupeKey: KEY, dueAt: T0 }));
    sa.start();
    await running.wait;
    await b.tx((u) => sb.enqueueNoLaterThan(u, { kind: KEY, dedupeKey: KEY, dueAt: T0 + 30_000 }));
    release.open();
    await until(async () => (await sweepRow())?.lease_until === null);
    expect(await sweepRow()).toMatchObject({ due_at: `${T0 + 30_000}`, wake_at: null });
  });
});

describe("the clock advance across instances", () => {
  test("waits for a due job another instance is running, then runs what it queued", async () => {
    const [a, b] = [await instance(true), await instance(true)];
    const clock = new ManualClock(new Date(T0));
    const [sa, sb] = [scheduler(a, clock), scheduler(b, clock)];
    const started = gate();
    const log: string[] = [];
    sa.register("t.slow", async () => {
      started.open();
      await Bun.sleep(150);
      log.push("slow done");
      await a.tx((u) => sa.enqueue(u, { kind: "t.next" }));
    });
    sb.register("t.slow", () => {
      throw new Error("B must not run it");
    });
    for (const s of [sa, sb]) s.register("t.next", () => void log.push("next ran"));
    await a.tx((u) => sa.enqueue(u, { kind: "t.slow" }));
    sa.start();
    await started.wait;
    const r = await advanceClock(clock, sb, 1);
    log.push("advance answered");
    expect(log).toEqual(["slow done", "next ran", "advance answered"]);
    expect(r.now).toBe(T0 + 1000);
  });
});
