import { afterEach, describe, expect, test } from "bun:test";
import { createHarness } from "../support/harness";
import { emitCanonical } from "../../src/domain/events/emit";
import { configureWebhookRuntime } from "../../src/domain/webhooks/runtime";
import { emitChargePaid, register, startReceiver, type Receiver } from "./support";

const receivers: Receiver[] = [];
afterEach(() => {
  while (receivers.length) receivers.pop()!.stop();
});

describe("delivery concurrency", () => {
  test("a slow endpoint holds at most its own share of workers and does not stall another endpoint", async () => {
    const h = createHarness({ webhookAllowPrivate: true }, new Date().toISOString());
    configureWebhookRuntime(h.deps, { random: () => 0.5, perTargetConcurrency: 2, slotWaitMs: 20, timeoutMs: 5000 });
    const a = await h.seedAccount();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slow = startReceiver(async () => {
      await gate;
      return new Response("ok");
    });
    const fast = startReceiver();
    receivers.push(slow, fast);
    await register(h, a.testKey, slow.url, ["charge.paid"]);
    await register(h, a.testKey, fast.url, ["charge.created"]);
    for (let i = 0; i < 5; i++) await emitChargePaid(h, a.accountId);
    await h.deps.store.tx((uow) =>
      emitCanonical(h.deps, uow, { accountId: a.accountId, livemode: false }, "charge.created", { id: "ch_x" }),
    );

    const draining = h.deps.jobs.drain();
    // Wait (bounded) until the fast delivery is recorded, not merely received (the worker records
    // the attempt after reading the answer, a few event-loop turns after the receiver saw it), and
    // until both slow slots' requests arrived (on PostgreSQL each first commits its attempt unit).
    const settled = (d: { body: { DELIVERED: number; PROCESSING: number } }) =>
      d.body.DELIVERED === 1 && d.body.PROCESSING === 2 && slow.requests.length === 2;
    let during = await h.call("GET", "/v1/webhooks/stats", { key: a.testKey });
    for (let i = 0; i < 1000 && !settled(during); i++) {
      await Bun.sleep(5);
      during = await h.call("GET", "/v1/webhooks/stats", { key: a.testKey });
    }
    expect(fast.requests).toHaveLength(1);
    expect(slow.requests).toHaveLength(2);
    expect(during.body).toMatchObject({ PROCESSING: 2, DELIVERED: 1 });
    release();
    await draining;
    // The 3 held back waited 20 ms for a slot, then were rescheduled 1 s later. Now they come due
    // together and the third must wait for one of two slots a whole attempt long: a wait that must
    // not run out on a loaded PostgreSQL run, where the clock no longer moves.
    configureWebhookRuntime(h.deps, { slotWaitMs: 5000 });
    h.clock.advance(1);
    await h.deps.jobs.drain();
    expect(slow.requests).toHaveLength(5);
    const stats = await h.call("GET", "/v1/webhooks/stats", { key: a.testKey });
    expect(stats.body).toMatchObject({ total: 6, DELIVERED: 6 });
    const attempts = await h.call("GET", "/v1/webhooks/deliveries", { key: a.testKey });
    expect(attempts.body.data.every((d: { attempts: number }) => d.attempts === 1)).toBe(true);
  });
});
