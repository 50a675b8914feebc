import { afterEach, describe, expect, test } from "bun:test";
import Stripe from "stripe";
import { Webhook } from "standardwebhooks";
import { createHarness, type Harness } from "../support/harness";
import {
  chargeObject,
  deterministic,
  emitChargePaid,
  emitMedCreated,
  emitPaymentCompleted,
  onlyDelivery,
  register,
  startReceiver,
  type Receiver,
} from "./support";
import { hmacHex } from "../../src/lib/crypto";
import { testDb } from "../support/test-db";

const stripe = new Stripe("sk_test_x");
const receivers: Receiver[] = [];
afterEach(() => {
  while (receivers.length) receivers.pop()!.stop();
});
function receiver(respond?: Receiver["respond"]) {
  const r = startReceiver(respond);
  receivers.push(r);
  return r;
}
/** A harness whose clock starts at real time, so signature timestamps pass the libraries' tolerance. */
function realtimeHarness(): Harness {
  const h = createHarness({ webhookAllowPrivate: true }, new Date().toISOString());
  deterministic(h);
  return h;
}
/** Seeds an account, registers one endpoint for `eventType`, emits, drains, and returns the one request received. */
async function deliverOne<T>(h: Harness, eventType: string, emit: (accountId: string) => T) {
  const a = await h.seedAccount();
  const rx = receiver();
  const ep = await register(h, a.testKey, rx.url, [eventType]);
  const evt = await emit(a.accountId);
  await h.deps.jobs.drain();
  expect(rx.requests).toHaveLength(1);
  return { a, ep, evt, ...rx.requests[0]! };
}
const DELIVERY_KEYS = [
  "attempts",
  "createdAt",
  "deliveredAt",
  "endpointId",
  "eventType",
  "id",
  "lastError",
  "lastResponseBody",
  "lastStatusCode",
  "maxAttempts",
  "nextRetryAt",
  "payload",
  "status",
  "updatedAt",
];

describe("webhook delivery: envelopes and signatures", () => {
  test("a canonical event is delivered with headers both libraries verify", async () => {
    const h = realtimeHarness();
    const { a, ep, evt, headers, body } = await deliverOne(h, "charge.paid", (acc) =>
      emitChargePaid(h, acc, false, chargeObject("ch_abc")),
    );
    const envelope = JSON.parse(body);
    expect(Object.keys(envelope).sort()).toEqual(["api_version", "created_at", "data", "id", "object", "type"]);
    expect(envelope).toMatchObject({
      id: evt,
      object: "event",
      type: "charge.paid",
      data: { object: chargeObject("ch_abc") },
    });
    expect(headers["content-type"]).toBe("application/json");
    expect(headers["x-cofre-event-type"]).toBe("charge.paid");
    expect(headers["x-cofre-delivery-id"]).toMatch(/^wd_[0-9a-f]{32}$/);
    expect(headers["webhook-id"]).toBe(headers["x-cofre-delivery-id"]!);
    expect(headers["x-cofre-signature"]).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const event = await stripe.webhooks.constructEventAsync(body, headers["x-cofre-signature"]!, ep.secret);
    expect(event.id).toBe(evt);
    const wh = new Webhook(Buffer.from(ep.secret).toString("base64"));
    expect(wh.verify(body, headers)).toEqual(envelope);
    await expect(
      stripe.webhooks.constructEventAsync(body, headers["x-cofre-signature"]!, "0".repeat(64)),
    ).rejects.toThrow();
    const d = await onlyDelivery(h, a.testKey);
    expect(Object.keys(d).sort()).toEqual(DELIVERY_KEYS);
    expect(d).toMatchObject({
      id: headers["x-cofre-delivery-id"],
      endpointId: ep.id,
      eventType: "charge.paid",
      status: "DELIVERED",
      attempts: 1,
      maxAttempts: 15,
      lastStatusCode: 200,
      lastError: null,
      lastResponseBody: "ok",
      nextRetryAt: null,
    });
    expect(d.payload).toEqual(envelope);
    expect(d.deliveredAt).not.toBeNull();
  });

  test("signatures stay verifiable after the sandbox clock was advanced by days", async () => {
    const h = createHarness({ webhookAllowPrivate: true }, "2026-01-01T00:00:00.000Z");
    deterministic(h);
    h.clock.advance(3 * 86400);
    const { ep, evt, headers, body } = await deliverOne(h, "charge.paid", (acc) =>
      emitChargePaid(h, acc, false, chargeObject("ch_late")),
    );
    const event = await stripe.webhooks.constructEventAsync(body, headers["x-cofre-signature"]!, ep.secret);
    expect(event.id).toBe(evt);
    expect(() => new Webhook(Buffer.from(ep.secret).toString("base64")).verify(body, headers)).not.toThrow();
  });

  test("a legacy event carries sha256= over the raw body and the Standard Webhooks headers", async () => {
    const h = realtimeHarness();
    const { ep, headers, body } = await deliverOne(h, "payment.completed", (acc) => emitPaymentCompleted(h, acc));
    expect(JSON.parse(body)).toEqual({
      event: "payment.completed",
      data: {
        transactionId: "0193deadbeef",
        amount: 1500,
        status: "PAID",
        previousStatus: "WAITING_PAYMENT",
        paidWith: "PIX",
        platformFee: 30,
        occurredAt: "2026-11-20T12:00:00.000Z",
      },
    });
    expect(headers["x-cofre-signature"]).toBe(`sha256=${hmacHex(ep.secret, body)}`);
    expect(headers["x-cofre-event-type"]).toBe("payment.completed");
    expect(() => new Webhook(Buffer.from(ep.secret).toString("base64")).verify(body, headers)).not.toThrow();
  });

  test("a MED event uses the canonical signature scheme", async () => {
    const h = realtimeHarness();
    const { ep, headers, body } = await deliverOne(h, "med_case.created", (acc) => emitMedCreated(h, acc));
    expect(JSON.parse(body).type).toBe("med_case.created");
    expect(await stripe.webhooks.signature!.verifyHeaderAsync(body, headers["x-cofre-signature"]!, ep.secret)).toBe(
      true,
    );
  });

  test("only subscribed endpoints of the same account and mode receive an event", async () => {
    const h = realtimeHarness();
    const a = await h.seedAccount();
    const b = await h.seedAccount();
    const rx = receiver();
    await register(h, a.testKey, `${rx.url}/paid`, ["charge.paid"]);
    await register(h, a.testKey, `${rx.url}/created`, ["charge.created"]);
    await register(h, b.testKey, `${rx.url}/other-account`, ["charge.paid"]);
    await register(h, a.liveKey, "https://hooks.example.com/live", ["charge.paid"]);
    await emitChargePaid(h, a.accountId);
    await h.deps.jobs.drain();
    expect(rx.requests.map((r) => r.path)).toEqual(["/hook/paid"]);
    const live = await h.call("GET", "/v1/webhooks/deliveries", { key: a.liveKey });
    expect(live.body.total).toBe(0);
  });
});

describe("webhook delivery: retries", () => {
  test("a receiver answering 500 then 200 is retried after the scheduled delay", async () => {
    const h = realtimeHarness();
    const a = await h.seedAccount();
    const rx = receiver((n) => (n === 0 ? new Response("boom", { status: 500 }) : new Response("fine")));
    await register(h, a.testKey, rx.url);
    await emitChargePaid(h, a.accountId);
    await h.deps.jobs.drain();
    let d = await onlyDelivery(h, a.testKey);
    expect(d).toMatchObject({
      status: "PENDING",
      attempts: 1,
      lastStatusCode: 500,
      lastError: "HTTP 500",
      lastResponseBody: "boom",
    });
    expect(Date.parse(d.nextRetryAt) - h.clock.nowMs()).toBe(5000);
    h.clock.advance(4);
    await h.deps.jobs.drain();
    expect(rx.requests).toHaveLength(1);
    h.clock.advance(1);
    await h.deps.jobs.drain();
    expect(rx.requests).toHaveLength(2);
    expect(rx.requests[1]!.headers["x-cofre-delivery-id"]).toBe(rx.requests[0]!.headers["x-cofre-delivery-id"]!);
    expect(rx.requests[1]!.body).toBe(rx.requests[0]!.body);
    d = await onlyDelivery(h, a.testKey);
    expect(d).toMatchObject({
      status: "DELIVERED",
      attempts: 2,
      lastStatusCode: 200,
      lastError: null,
      nextRetryAt: null,
    });
    const attempts = await h.deps.store.read.webhooks.attemptsOf(d.id);
    expect(attempts.map((x) => [x.attempt, x.status, x.outcome, x.statusCode])).toEqual([
      [1, "failed", "http_error", 500],
      [2, "succeeded", "delivered", 200],
    ]);
    expect(attempts[0]!.nextAttemptAt).toBe(Date.parse(d.createdAt) + 5000);
  });

  test("a 429 with Retry-After is rescheduled after exactly that many seconds", async () => {
    const h = realtimeHarness();
    const a = await h.seedAccount();
    const rx = receiver((n) =>
      n === 0 ? new Response("slow down", { status: 429, headers: { "Retry-After": "120" } }) : new Response("ok"),
    );
    await register(h, a.testKey, rx.url);
    await emitChargePaid(h, a.accountId);
    await h.deps.jobs.drain();
    const d = await onlyDelivery(h, a.testKey);
    expect(d).toMatchObject({ status: "PENDING", lastStatusCode: 429 });
    expect(Date.parse(d.nextRetryAt) - h.clock.nowMs()).toBe(120_000);
    h.clock.advance(119);
    await h.deps.jobs.drain();
    expect(rx.requests).toHaveLength(1);
    h.clock.advance(1);
    await h.deps.jobs.drain();
    expect((await onlyDelivery(h, a.testKey)).status).toBe("DELIVERED");
  });

  test("an absurd Retry-After is capped at 24 hours", async () => {
    const h = realtimeHarness();
    const a = await h.seedAccount();
    const rx = receiver(() => new Response("", { status: 429, headers: { "Retry-After": "99999999" } }));
    await register(h, a.testKey, rx.url);
    await emitChargePaid(h, a.accountId);
    await h.deps.jobs.drain();
    const d = await onlyDelivery(h, a.testKey);
    expect(Date.parse(d.nextRetryAt) - h.clock.nowMs()).toBe(86_400_000);
  });

  test("a receiver slower than the timeout is a failed attempt", async () => {
    const h = realtimeHarness();
    deterministic(h, 150);
    const a = await h.seedAccount();
    const rx = receiver(async () => {
      await Bun.sleep(600);
      return new Response("late");
    });
    await register(h, a.testKey, rx.url);
    await emitChargePaid(h, a.accountId);
    await h.deps.jobs.drain();
    const d = await onlyDelivery(h, a.testKey);
    expect(d.status).toBe("PENDING");
    expect(d.lastStatusCode).toBeNull();
    expect(d.lastError).toMatch(/^timeout/);
  });

  test("a redirect is not followed and counts as a failure", async () => {
    const h = realtimeHarness();
    const a = await h.seedAccount();
    const target = receiver();
    const rx = receiver(() => new Response(null, { status: 302, headers: { Location: target.url } }));
    await register(h, a.testKey, rx.url);
    await emitChargePaid(h, a.accountId);
    await h.deps.jobs.drain();
    const d = await onlyDelivery(h, a.testKey);
    expect(d).toMatchObject({ status: "PENDING", lastStatusCode: 302 });
    expect(d.lastError).toContain("redirects are not followed");
    expect(target.requests).toHaveLength(0);
  });

  test("a closed port is a failed attempt with a network error", async () => {
    const h = realtimeHarness();
    const a = await h.seedAccount();
    const rx = receiver();
    const url = rx.url;
    rx.stop();
    await register(h, a.testKey, url);
    await emitChargePaid(h, a.accountId);
    await h.deps.jobs.drain();
    const d = await onlyDelivery(h, a.testKey);
    expect(d.status).toBe("PENDING");
    expect(d.lastError).toMatch(/^network error/);
  });

  test("the stored response body is truncated to 2048 characters", async () => {
    const h = realtimeHarness();
    const a = await h.seedAccount();
    const rx = receiver(() => new Response("x".repeat(100_000), { status: 500 }));
    await register(h, a.testKey, rx.url);
    await emitChargePaid(h, a.accountId);
    await h.deps.jobs.drain();
    expect((await onlyDelivery(h, a.testKey)).lastResponseBody).toBe("x".repeat(2048));
  });

  test("a dead endpoint reaches FAILED after 15 attempts over about three days, then a manual retry delivers it", async () => {
    const h = realtimeHarness();
    const a = await h.seedAccount();
    let up = false;
    const rx = receiver(() => (up ? new Response("back") : new Response("down", { status: 503 })));
    await register(h, a.testKey, rx.url);
    await emitChargePaid(h, a.accountId);
    const start = h.clock.nowMs();
    await h.deps.jobs.drain();
    for (let i = 0; i < 40 && (await onlyDelivery(h, a.testKey)).status !== "FAILED"; i++) {
      const d = await onlyDelivery(h, a.testKey);
      h.clock.advance((Date.parse(d.nextRetryAt) - h.clock.nowMs()) / 1000);
      await h.deps.jobs.drain();
    }
    const dead = await onlyDelivery(h, a.testKey);
    expect(dead).toMatchObject({
      status: "FAILED",
      attempts: 15,
      maxAttempts: 15,
      nextRetryAt: null,
      lastStatusCode: 503,
    });
    expect(rx.requests).toHaveLength(15);
    expect(new Set(rx.requests.map((r) => r.headers["x-cofre-delivery-id"])).size).toBe(1);
    expect((h.clock.nowMs() - start) / 86_400_000).toBeCloseTo(3.07, 1);
    h.clock.advance(86_400 * 30);
    await h.deps.jobs.drain();
    expect(rx.requests).toHaveLength(15);
    expect((await h.call("GET", "/v1/webhooks/stats", { key: a.testKey })).body).toEqual({
      total: 1,
      PENDING: 0,
      PROCESSING: 0,
      DELIVERED: 0,
      FAILED: 1,
      CANCELLED: 0,
    });

    up = true;
    const r = await h.call("POST", `/v1/webhooks/deliveries/${dead.id}/retry`, { key: a.testKey });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(DELIVERY_KEYS);
    expect(r.body).toMatchObject({ id: dead.id, status: "PENDING", attempts: 15, maxAttempts: 16 });
    await h.deps.jobs.drain();
    expect(await onlyDelivery(h, a.testKey)).toMatchObject({ status: "DELIVERED", attempts: 16, lastStatusCode: 200 });
    expect(rx.requests).toHaveLength(16);
    expect((await h.deps.store.read.webhooks.attemptsOf(dead.id)).at(-1)).toMatchObject({
      attempt: 16,
      trigger: "manual",
      status: "succeeded",
    });
    const again = await h.call("POST", `/v1/webhooks/deliveries/${dead.id}/retry`, { key: a.testKey });
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe("invalid_state");
  });
});

describe("webhook delivery: endpoint lifecycle", () => {
  test("an INACTIVE endpoint gets no new deliveries", async () => {
    const h = realtimeHarness();
    const a = await h.seedAccount();
    const rx = receiver();
    const ep = await register(h, a.testKey, rx.url);
    await h.call("PATCH", `/v1/webhooks/endpoints/${ep.id}`, { key: a.testKey, body: { status: "INACTIVE" } });
    await emitChargePaid(h, a.accountId);
    await h.deps.jobs.drain();
    expect(rx.requests).toHaveLength(0);
    expect((await h.call("GET", "/v1/webhooks/deliveries", { key: a.testKey })).body.total).toBe(0);
    await h.call("PATCH", `/v1/webhooks/endpoints/${ep.id}`, { key: a.testKey, body: { status: "ACTIVE" } });
    await emitChargePaid(h, a.accountId);
    await h.deps.jobs.drain();
    expect(rx.requests).toHaveLength(1);
  });

  test("a pending retry of an endpoint made INACTIVE is cancelled, not sent", async () => {
    const h = realtimeHarness();
    const a = await h.seedAccount();
    const rx = receiver(() => new Response("", { status: 500 }));
    const ep = await register(h, a.testKey, rx.url);
    await emitChargePaid(h, a.accountId);
    await h.deps.jobs.drain();
    await h.call("PATCH", `/v1/webhooks/endpoints/${ep.id}`, { key: a.testKey, body: { status: "INACTIVE" } });
    h.clock.advance(3600);
    await h.deps.jobs.drain();
    expect(rx.requests).toHaveLength(1);
    expect(await onlyDelivery(h, a.testKey)).toMatchObject({
      status: "CANCELLED",
      lastError: "endpoint inactive",
      attempts: 1,
    });
  });

  test("deleting an endpoint cancels its pending deliveries and they are never sent", async () => {
    const h = realtimeHarness();
    const a = await h.seedAccount();
    const rx = receiver();
    const ep = await register(h, a.testKey, rx.url);
    await emitChargePaid(h, a.accountId);
    await emitChargePaid(h, a.accountId);
    const del = await h.call("DELETE", `/v1/webhooks/endpoints/${ep.id}`, { key: a.testKey });
    expect(del.body).toEqual({ deleted: true });
    await h.deps.jobs.drain();
    h.clock.advance(86_400);
    await h.deps.jobs.drain();
    expect(rx.requests).toHaveLength(0);
    const list = await h.call("GET", "/v1/webhooks/deliveries", { key: a.testKey });
    expect(list.body.data.map((d: { status: string; endpointId: string }) => [d.status, d.endpointId])).toEqual([
      ["CANCELLED", ep.id],
      ["CANCELLED", ep.id],
    ]);
    const retry = await h.call("POST", `/v1/webhooks/deliveries/${list.body.data[0].id}/retry`, { key: a.testKey });
    expect(retry.status).toBe(400);
    expect(retry.body.error.code).toBe("invalid_state");
  });

  test("after rotation the next attempt is signed with the new secret only", async () => {
    const h = realtimeHarness();
    const a = await h.seedAccount();
    const rx = receiver((n) => (n === 0 ? new Response("", { status: 500 }) : new Response("ok")));
    const ep = await register(h, a.testKey, rx.url);
    await emitChargePaid(h, a.accountId);
    await h.deps.jobs.drain();
    const rot = await h.call("POST", `/v1/webhooks/endpoints/${ep.id}/rotate-secret`, {
      key: a.testKey,
      body: { id: ep.id },
    });
    h.clock.advance(5);
    await h.deps.jobs.drain();
    expect(rx.requests).toHaveLength(2);
    const first = rx.requests[0]!;
    const second = rx.requests[1]!;
    expect(
      await stripe.webhooks.signature!.verifyHeaderAsync(first.body, first.headers["x-cofre-signature"]!, ep.secret),
    ).toBe(true);
    await expect(
      stripe.webhooks.constructEventAsync(second.body, second.headers["x-cofre-signature"]!, ep.secret),
    ).rejects.toThrow();
    const verified = await stripe.webhooks.constructEventAsync(
      second.body,
      second.headers["x-cofre-signature"]!,
      rot.body.secret,
    );
    expect(String(verified.type)).toBe("charge.paid");
    expect(() => new Webhook(Buffer.from(ep.secret).toString("base64")).verify(second.body, second.headers)).toThrow();
    expect(() =>
      new Webhook(Buffer.from(rot.body.secret).toString("base64")).verify(second.body, second.headers),
    ).not.toThrow();
  });
});

describe("webhook delivery: endpoint changes apply to the next attempt", () => {
  test("a URL changed by PATCH receives the pending retry", async () => {
    const h = realtimeHarness();
    const a = await h.seedAccount();
    const old = receiver(() => new Response("", { status: 500 }));
    const fresh = receiver();
    const ep = await register(h, a.testKey, old.url);
    await emitChargePaid(h, a.accountId);
    await h.deps.jobs.drain();
    await h.call("PATCH", `/v1/webhooks/endpoints/${ep.id}`, { key: a.testKey, body: { url: fresh.url } });
    h.clock.advance(5);
    await h.deps.jobs.drain();
    expect([old.requests.length, fresh.requests.length]).toEqual([1, 1]);
    expect(await onlyDelivery(h, a.testKey)).toMatchObject({ status: "DELIVERED", attempts: 2 });
  });

  test("a dead-lettered delivery of an INACTIVE endpoint cannot be re-sent until it is ACTIVE again", async () => {
    const h = realtimeHarness();
    const a = await h.seedAccount();
    const rx = receiver((n) => (n === 0 ? new Response("", { status: 500 }) : new Response("ok")));
    const ep = await register(h, a.testKey, rx.url);
    await emitChargePaid(h, a.accountId);
    await h.deps.jobs.drain();
    const d = await onlyDelivery(h, a.testKey);
    await testDb(h.deps).run(
      "update webhook_deliveries set status = 'FAILED', next_retry_at = null where id = ?",
      d.id,
    );
    await h.call("PATCH", `/v1/webhooks/endpoints/${ep.id}`, { key: a.testKey, body: { status: "INACTIVE" } });
    const refused = await h.call("POST", `/v1/webhooks/deliveries/${d.id}/retry`, { key: a.testKey });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe("invalid_state");
    await h.call("PATCH", `/v1/webhooks/endpoints/${ep.id}`, { key: a.testKey, body: { status: "ACTIVE" } });
    expect((await h.call("POST", `/v1/webhooks/deliveries/${d.id}/retry`, { key: a.testKey })).status).toBe(200);
    await h.deps.jobs.drain();
    expect(await onlyDelivery(h, a.testKey)).toMatchObject({ status: "DELIVERED", attempts: 2, maxAttempts: 2 });
  });
});

describe("webhook deliveries API", () => {
  test("filters, pagination and stats", async () => {
    const h = realtimeHarness();
    const a = await h.seedAccount();
    const ok = receiver();
    const bad = receiver(() => new Response("", { status: 500 }));
    const e1 = await register(h, a.testKey, ok.url, ["charge.paid", "payment.completed"]);
    const e2 = await register(h, a.testKey, bad.url, ["charge.paid"]);
    await emitChargePaid(h, a.accountId);
    await emitPaymentCompleted(h, a.accountId);
    h.clock.advance(1);
    await emitChargePaid(h, a.accountId);
    await h.deps.jobs.drain();
    const all = await h.call("GET", "/v1/webhooks/deliveries", { key: a.testKey });
    expect(all.status).toBe(200);
    expect(Object.keys(all.body).sort()).toEqual(["data", "limit", "offset", "total"]);
    expect(all.body).toMatchObject({ total: 5, limit: 25, offset: 0 });
    const byEndpoint = await h.call("GET", `/v1/webhooks/deliveries?endpointId=${e2.id}`, { key: a.testKey });
    expect(byEndpoint.body.total).toBe(2);
    expect(byEndpoint.body.data.every((d: { status: string }) => d.status === "PENDING")).toBe(true);
    const legacy = await h.call("GET", "/v1/webhooks/deliveries?eventType=payment.completed", { key: a.testKey });
    expect(legacy.body.data.map((d: { endpointId: string }) => d.endpointId)).toEqual([e1.id]);
    const delivered = await h.call("GET", "/v1/webhooks/deliveries?status=DELIVERED&limit=2&offset=1", {
      key: a.testKey,
    });
    expect(delivered.body).toMatchObject({ total: 3, limit: 2, offset: 1 });
    expect(delivered.body.data).toHaveLength(2);
    const stats = await h.call("GET", "/v1/webhooks/stats", { key: a.testKey });
    expect(stats.body).toEqual({ total: 5, PENDING: 2, PROCESSING: 0, DELIVERED: 3, FAILED: 0, CANCELLED: 0 });
    expect((await h.call("GET", "/v1/webhooks/stats", { key: a.liveKey })).body.total).toBe(0);
  });

  test("bad filter values are 400, never ignored", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    for (const q of [
      "limit=0",
      "limit=101",
      "limit=abc",
      "limit=1.5",
      "offset=-1",
      "status=DONE",
      "eventType=charge.disputed",
    ]) {
      const r = await h.call("GET", `/v1/webhooks/deliveries?${q}`, { key: a.testKey });
      expect({ q, status: r.status }).toEqual({ q, status: 400 });
    }
    expect((await h.call("GET", "/v1/webhooks/deliveries?limit=100", { key: a.testKey })).status).toBe(200);
  });

  test("retrying another account's delivery is 404 and retrying a pending one is 400", async () => {
    const h = realtimeHarness();
    const a = await h.seedAccount();
    const b = await h.seedAccount();
    const rx = receiver(() => new Response("", { status: 500 }));
    await register(h, a.testKey, rx.url);
    await emitChargePaid(h, a.accountId);
    await h.deps.jobs.drain();
    const d = await onlyDelivery(h, a.testKey);
    expect((await h.call("POST", `/v1/webhooks/deliveries/${d.id}/retry`, { key: b.testKey })).status).toBe(404);
    expect((await h.call("POST", `/v1/webhooks/deliveries/${d.id}/retry`, { key: a.liveKey })).status).toBe(404);
    const r = await h.call("POST", `/v1/webhooks/deliveries/${d.id}/retry`, { key: a.testKey });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe("invalid_state");
    expect((await h.call("GET", "/v1/webhooks/deliveries", { key: b.testKey })).body.total).toBe(0);
  });
});
