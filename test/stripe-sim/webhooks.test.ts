/**
 * stripe-sim event delivery: signatures that `stripe.webhooks.constructEventAsync` accepts with
 * the endpoint's secret and refuses with another, `enabled_events` filtering, retries with the
 * configured backoff until a 2xx (or the schedule runs out: `failed`), dropped and delayed events
 * (listed by the events API either way), and pending deliveries resumed after a restart.
 */
import { afterEach, expect, test } from "bun:test";
import Stripe from "stripe";
import {
  createSession,
  listen,
  payWithCard,
  type Receiver,
  type SimFixture,
  startFixture,
  startReceiver,
  verify,
} from "./support";

let fx: SimFixture;
let rx: Receiver;
afterEach(async () => {
  rx.stop();
  await fx.cleanup();
});

async function start(retrySchedule = [30, 60]) {
  fx = await startFixture({ retrySchedule });
  rx = startReceiver();
}

async function settled(predicate: () => Promise<boolean>, ms = 3000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await predicate())) {
    if (Date.now() > until) throw new Error("condition not reached");
    await Bun.sleep(10);
  }
}

function simEvents() {
  return fx.control("GET", "/_sim/events").then(
    (r) =>
      r.body.data as {
        id: string;
        type: string;
        dropped: boolean;
        deliveries: { status: string; attempts: { http_status: number | null }[] }[];
      }[],
  );
}

test("a delivery verifies with its endpoint's secret and not with another one", async () => {
  await start();
  const secret = await listen(fx, rx);
  const s = await createSession(fx);
  await fx.stripe.checkout.sessions.expire(s.id);
  const d = await rx.next("checkout.session.expired");
  expect(d.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
  expect(d.headers.get("content-type")).toBe("application/json; charset=utf-8");
  expect((await verify(fx, d, secret)).type).toBe("checkout.session.expired");
  const forged = await verify(fx, d, "whsec_not_the_secret").then(
    () => null,
    (e: unknown) => e,
  );
  expect(forged).toBeInstanceOf(Stripe.errors.StripeSignatureVerificationError);
  const tampered = await verify(fx, { ...d, raw: d.raw.replace("expired", "complete") }, secret).then(
    () => null,
    (e: unknown) => e,
  );
  expect(tampered).toBeInstanceOf(Stripe.errors.StripeSignatureVerificationError);
});

test("an endpoint receives only its enabled event types", async () => {
  await start();
  const ep = await fx.stripe.webhookEndpoints.create({ url: rx.url, enabled_events: ["checkout.session.completed"] });
  const s = await createSession(fx);
  await payWithCard(s, "4242424242424242"); // payment_intent.succeeded, then checkout.session.completed
  const d = await rx.next();
  expect((await verify(fx, d, ep.secret!)).type).toBe("checkout.session.completed");
  await fx.control("POST", "/_sim/events/flush");
  expect(rx.received.length).toBe(1);
});

test("a failing endpoint is retried with the backoff until it answers 2xx", async () => {
  await start([20, 40]);
  const secret = await listen(fx, rx);
  rx.answer = (_d, n) => (n < 3 ? 500 : 200);
  const s = await createSession(fx);
  await fx.stripe.checkout.sessions.expire(s.id);
  const d = await rx.next("checkout.session.expired");
  expect((await verify(fx, d, secret)).type).toBe("checkout.session.expired");
  expect(rx.received.length).toBe(3);
  await settled(async () => (await simEvents())[0]!.deliveries[0]!.status === "succeeded");
  const [ev] = await simEvents();
  expect(ev!.deliveries[0]!.attempts.map((a) => a.http_status)).toEqual([500, 500, 200]);
  expect(new Set(rx.received.map((r) => r.raw)).size).toBe(1);
});

test("a delivery that fails every attempt of the schedule ends failed", async () => {
  await start([10]);
  await listen(fx, rx);
  rx.answer = 503;
  const s = await createSession(fx);
  await fx.stripe.checkout.sessions.expire(s.id);
  await settled(async () => (await simEvents())[0]?.deliveries[0]?.status === "failed");
  const [ev] = await simEvents();
  expect(ev!.deliveries[0]!.attempts.map((a) => a.http_status)).toEqual([503, 503]);
});

test("a dropped event is never delivered but the events API lists it", async () => {
  await start();
  const secret = await listen(fx, rx);
  expect((await fx.control("POST", "/_sim/events/drop", { count: 1 })).body.drop_remaining).toBe(1);
  const s1 = await createSession(fx);
  await fx.stripe.checkout.sessions.expire(s1.id);
  const s2 = await createSession(fx);
  await fx.stripe.checkout.sessions.expire(s2.id);
  const d = await rx.next("checkout.session.expired");
  expect(((await verify(fx, d, secret)).data.object as Stripe.Checkout.Session).id).toBe(s2.id);
  await fx.control("POST", "/_sim/events/flush");
  expect(rx.received.length).toBe(1);
  const listed = await fx.stripe.events.list({ type: "checkout.session.expired" });
  expect(listed.data.map((e) => (e.data.object as Stripe.Checkout.Session).id)).toEqual([s2.id, s1.id]);
  expect((await simEvents()).map((e) => e.dropped)).toEqual([true, false]);
});

test("delayed events wait, and a flush delivers them at once", async () => {
  await start();
  await listen(fx, rx);
  await fx.control("POST", "/_sim/events/delay", { ms: 60_000 });
  const s = await createSession(fx);
  await fx.stripe.checkout.sessions.expire(s.id);
  await Bun.sleep(50);
  expect(rx.received.length).toBe(0);
  expect((await fx.control("POST", "/_sim/events/flush")).body).toEqual({ ran: 1 });
  expect(rx.received.length).toBe(1);
});

test("a delivery still pending at a restart is attempted after it", async () => {
  await start();
  const secret = await listen(fx, rx);
  await fx.control("POST", "/_sim/events/delay", { ms: 60_000 });
  const s = await createSession(fx);
  await fx.stripe.checkout.sessions.expire(s.id);
  await fx.restart();
  expect(rx.received.length).toBe(0);
  await fx.control("POST", "/_sim/events/flush");
  expect((await verify(fx, await rx.next(), secret)).type).toBe("checkout.session.expired");
  expect((await fx.stripe.checkout.sessions.retrieve(s.id)).status).toBe("expired");
});
