/**
 * POST /v1/test_helpers/clock/advance moves time the way time moves (src/jobs/advance.ts): work
 * scheduled by work that ran during the advance runs within it, each job at its own due time,
 * and a job that keeps rescheduling itself stops at the cap.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { getBalance } from "../../src/domain/ledger";
import { configureWebhookRuntime } from "../../src/domain/webhooks/runtime";
import { iso } from "../../src/lib/clock";
import { advanceClock } from "../../src/jobs/advance";
import { createHarness, type Harness, type SeededAccount } from "../support/harness";
import { createPayment, eventBodies, key, pay } from "../payments/support";
import { serveWithTestKey, type ServedAccount } from "../support/serve";
import { TEST_PG } from "../support/backend";
import { testDb } from "../support/test-db";

const T0 = Date.parse("2026-11-20T12:00:00.000Z");
const at = (seconds: number) => iso(T0 + seconds * 1000);

async function setup(settings: Record<string, unknown> = {}) {
  const h = createHarness({ testClock: true });
  const a = await h.seedAccount({ settings });
  const advance = async (seconds: number) => {
    const r = await h.call("POST", "/v1/test_helpers/clock/advance", { key: a.testKey, body: { seconds } });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(["now"]);
    return r.body.now as string;
  };
  return { h, a, advance };
}

/** A paid Pix payment of `amount`; returns its raw id. */
async function paidPix(h: Harness, a: SeededAccount, amount = 1000): Promise<string> {
  const p = await createPayment(h, a, { amount });
  await pay(h, a, p.id);
  return p.id;
}

describe("one advance runs chains of work at their own times", () => {
  test("a sandbox refund goes PENDING -> IN_PROGRESS -> REFUNDED within one advance of 600 s, its events stamped at each step", async () => {
    const { h, advance } = await setup();
    const b = await h.seedAccount({ subscribeAllEvents: true }); // the outbox keeps its events
    const id = await paidPix(h, b, 1000);
    const r = await h.call("POST", `/v1/payments/${id}/refund`, {
      key: b.testKey,
      body: { idempotencyKey: key("refund") },
    });
    expect(r.body.status).toBe("PENDING");
    const before = await getBalance(h.deps.store.read, b.accountId, false, "BRL");
    expect(await advance(600)).toBe(at(600));
    const list = await h.call("GET", `/v1/payments/${id}/refunds`, { key: b.testKey });
    expect(list.body.data.map((x: { status: string }) => x.status)).toEqual(["REFUNDED"]);
    expect((await h.call("GET", `/v1/payments/${id}`, { key: b.testKey })).body.status).toBe("REFUNDED");
    expect(await getBalance(h.deps.store.read, b.accountId, false, "BRL")).toEqual(before);
    // IN_PROGRESS at +2 s, REFUNDED at +4 s (SANDBOX_REFUND_STEP_SECONDS): not at the target time.
    const [refunded] = await eventBodies(h, id, "charge.refunded");
    expect(refunded.created_at).toBe(at(4));
    expect((await eventBodies(h, id, "payment.refunded"))[0].data.occurredAt).toBe(at(4));
    expect(await h.deps.jobs.pending("refund.advance")).toBe(0);
  });

  test("a webhook delivery failing four times is retried on its schedule within one advance, each attempt at its own due time", async () => {
    const { h, a, advance } = await setup();
    const sent: number[] = [];
    configureWebhookRuntime(h.deps, {
      random: () => 0.5, // no jitter: 5, 30, 120, 300 s between attempts
      lookup: async () => [{ address: "93.184.216.34", family: 4 }],
      fetch: async () => {
        sent.push(h.clock.nowMs());
        return sent.length < 5 ? new Response("down", { status: 503 }) : new Response("ok");
      },
    });
    const ep = await h.call("POST", "/v1/webhooks/endpoints", {
      key: a.testKey,
      body: { url: "https://hooks.example.com/paid", events: ["charge.paid"] },
    });
    expect(ep.status).toBe(201);
    await paidPix(h, a);
    expect(await advance(600)).toBe(at(600));
    expect(sent.map(iso)).toEqual([at(0), at(5), at(35), at(155), at(455)]);
    const d = (await h.call("GET", "/v1/webhooks/deliveries", { key: a.testKey })).body.data;
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({
      status: "DELIVERED",
      attempts: 5,
      lastStatusCode: 200,
      nextRetryAt: null,
      deliveredAt: at(455),
    });
    const attempts = await h.deps.store.read.webhooks.attemptsOf(d[0].id);
    expect(
      attempts.map((x) => [
        x.attempt,
        x.status,
        iso(x.startedAt),
        x.nextAttemptAt === null ? null : iso(x.nextAttemptAt),
      ]),
    ).toEqual([
      [1, "failed", at(0), at(5)],
      [2, "failed", at(5), at(35)],
      [3, "failed", at(35), at(155)],
      [4, "failed", at(155), at(455)],
      [5, "succeeded", at(455), null],
    ]);
  });

  test("a pending balance tranche is released by one advance, at its release time", async () => {
    const { h, a, advance } = await setup({ settlementDelaySeconds: 3600 });
    await paidPix(h, a, 2500);
    const wallet = async () => (await h.call("GET", "/v1/wallets/balance?currency=BRL", { key: a.testKey })).body;
    expect(await wallet()).toMatchObject({
      available: 0,
      pending: 2500,
      next_release_at: at(3600),
      next_release_amount: 2500,
    });
    await advance(3599);
    expect(await wallet()).toMatchObject({ available: 0, pending: 2500 });
    await advance(86_400);
    expect(await wallet()).toMatchObject({
      available: 2500,
      pending: 0,
      next_release_at: null,
      next_release_amount: null,
    });
    const tranche = (await testDb(h.deps).get<{ released_at: number | null }>(
      "select released_at from ledger_tranches where account_id = ?",
      a.accountId,
    ))!;
    expect(iso(tranche.released_at!)).toBe(at(3600));
  });

  test("jobs of different kinds run in due order, one due exactly at the target runs and one due after it does not", async () => {
    const { h, advance } = await setup();
    const ran: string[] = [];
    h.deps.jobs.register(
      "t.mark",
      (job) => void ran.push(`${(job.payload as { n: string }).n}@${iso(h.clock.nowMs())}`),
    );
    for (const [n, s] of [
      ["c", 300],
      ["a", 10],
      ["late", 301],
      ["b", 200],
    ] as const)
      await h.deps.store.tx((uow) =>
        h.deps.jobs.enqueue(uow, { kind: "t.mark", payload: { n }, dueAt: T0 + s * 1000 }),
      );
    expect(await advance(300)).toBe(at(300));
    expect(ran).toEqual([`a@${at(10)}`, `b@${at(200)}`, `c@${at(300)}`]);
    await advance(1);
    expect(ran.at(-1)).toBe(`late@${at(301)}`);
  });

  test("two advances sent at once run one after the other and add up", async () => {
    const { h, a } = await setup();
    const ran: string[] = [];
    h.deps.jobs.register("t.tick", () => {
      ran.push(iso(h.clock.nowMs()));
      return ran.length < 10 ? { retryAt: h.clock.nowMs() + 30_000 } : undefined;
    });
    await h.deps.store.tx((uow) => h.deps.jobs.enqueue(uow, { kind: "t.tick", dueAt: T0 + 30_000 }));
    const call = (seconds: number) =>
      h.call("POST", "/v1/test_helpers/clock/advance", { key: a.testKey, body: { seconds } });
    const [r1, r2] = await Promise.all([call(120), call(120)]);
    expect([r1.status, r2.status]).toEqual([200, 200]);
    expect([r1.body.now, r2.body.now].sort()).toEqual([at(120), at(240)]);
    expect(ran).toEqual([30, 60, 90, 120, 150, 180, 210, 240].map(at));
  });
});

describe("with leases and a running loop", () => {
  test("a job leased by a worker that died runs just past its lease, within the advance", async () => {
    const { h, advance } = await setup();
    const ran: string[] = [];
    h.deps.jobs.register("t.orphan", () => void ran.push(iso(h.clock.nowMs())));
    await h.deps.store.tx((uow) => h.deps.jobs.enqueue(uow, { kind: "t.orphan", dueAt: T0 }));
    await testDb(h.deps).run("update jobs set lease_until = ?, attempts = 1 where kind = 't.orphan'", T0 + 120_000);
    await advance(600);
    expect(ran).toEqual([iso(T0 + 120_001)]);
  });

  test("with the scheduler loop running (as under serve) the refund chain still completes within one advance", async () => {
    const { h, advance } = await setup();
    const b = await h.seedAccount({ subscribeAllEvents: true });
    const id = await paidPix(h, b);
    await h.call("POST", `/v1/payments/${id}/refund`, {
      key: b.testKey,
      body: { idempotencyKey: key("refund"), amount: 400 },
    });
    h.deps.jobs.start();
    try {
      await advance(600);
      const list = await h.call("GET", `/v1/payments/${id}/refunds`, { key: b.testKey });
      expect(list.body.data.map((x: { status: string }) => x.status)).toEqual(["REFUNDED"]);
      expect((await eventBodies(h, id, "charge.refunded")).map((e) => e.created_at)).toEqual([at(4)]);
    } finally {
      await h.deps.jobs.stop();
    }
  });
});

describe("the bound of one advance", () => {
  test("a self-rescheduling job stops at the cap; the clock still reaches the target and the job runs on afterwards", async () => {
    const h = createHarness({ testClock: true });
    const ran: number[] = [];
    h.deps.jobs.register("t.forever", () => {
      ran.push(h.clock.nowMs());
      return { retryAt: h.clock.nowMs() + 1000 };
    });
    await h.deps.store.tx((uow) => h.deps.jobs.enqueue(uow, { kind: "t.forever", dueAt: T0 + 1000 }));
    const r = await advanceClock(h.clock, h.deps.jobs, 3600, 50);
    expect(r).toEqual({ now: T0 + 3_600_000, steps: 50, jobs: 50, capped: true });
    expect(ran).toHaveLength(50);
    expect(ran.at(-1)).toBe(T0 + 50_000);
    expect(h.clock.nowMs()).toBe(T0 + 3_600_000);
    // The remaining due work runs normally afterwards: once now, then again on its own schedule.
    const job = (await testDb(h.deps).get<{ due_at: number }>("select due_at from jobs where kind = 't.forever'"))!;
    expect(job.due_at).toBe(T0 + 51_000);
    await h.deps.jobs.drain();
    expect(ran).toHaveLength(51);
    expect(ran.at(-1)).toBe(T0 + 3_600_000);
    const next = await advanceClock(h.clock, h.deps.jobs, 5, 50);
    expect(next).toEqual({ now: T0 + 3_605_000, steps: 5, jobs: 5, capped: false });
    expect(ran.slice(-5)).toEqual([1, 2, 3, 4, 5].map((s) => T0 + 3_600_000 + s * 1000));
  });

  test(
    "the route stops a job rescheduling itself every millisecond at 10,000 runs and still answers with the target time",
    async () => {
      const { h, advance } = await setup();
      let runs = 0;
      h.deps.jobs.register("t.spin", () => {
        runs++;
        return { retryAt: h.clock.nowMs() + 1 };
      });
      await h.deps.store.tx((uow) => h.deps.jobs.enqueue(uow, { kind: "t.spin", dueAt: T0 + 1 }));
      expect(await advance(60)).toBe(at(60));
      expect(runs).toBe(10_000);
    },
    TEST_PG ? 180_000 : undefined,
  ); // 10,000 claim-and-finish units: ~3 s on SQLite, ~70 s on PostgreSQL on the shared 2-core box

  test("seconds must be a positive integer; nothing moves otherwise", async () => {
    const { h, a } = await setup();
    for (const seconds of [0, -5, 1.5, "60", null]) {
      const r = await h.call("POST", "/v1/test_helpers/clock/advance", { key: a.testKey, body: { seconds } });
      expect(r.status).toBe(400);
      expect(r.body.error.type).toBe("invalid_request_error");
    }
    expect(h.clock.nowMs()).toBe(T0);
    expect(() => advanceClock(h.clock, h.deps.jobs, 0)).toThrow(RangeError);
  });
});

describe("on a running server (wall clock with an offset, group commit, the loop running)", () => {
  let served: ServedAccount | undefined;
  afterAll(async () => served?.close());

  test("one advance of 600 s takes a sandbox refund to REFUNDED and the transaction with it", async () => {
    served = await serveWithTestKey({ COFRE_TEST_CLOCK: "1" });
    const { call } = served;
    const p = await call("POST", "/v1/payments", { amount: 1000, paymentMethods: ["PIX"], idempotencyKey: key() });
    expect(p.status).toBe(201);
    expect((await call("POST", `/v1/test_helpers/charges/${p.body.id}/pay`, {})).status).toBe(200);
    const r = await call("POST", `/v1/payments/${p.body.id}/refund`, { idempotencyKey: key("refund") });
    expect(r.body.status).toBe("PENDING");
    const before = Date.now();
    const adv = await call("POST", "/v1/test_helpers/clock/advance", { seconds: 600 });
    expect(adv.status).toBe(200);
    expect(Date.parse(adv.body.now) - before).toBeGreaterThanOrEqual(600_000);
    const list = await call("GET", `/v1/payments/${p.body.id}/refunds`);
    expect(list.body.data.map((x: { status: string }) => x.status)).toEqual(["REFUNDED"]);
    expect((await call("GET", `/v1/payments/${p.body.id}`)).body.status).toBe("REFUNDED");
  }, 40_000);
});
