/**
 * GET /v1/webhooks/deliveries/{id}/attempts: each attempt of a delivery as recorded (issue 15, deliveries with
 * attempts).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { createHarness, type Harness } from "../support/harness";
import { deterministic, emitChargePaid, onlyDelivery, register, startReceiver, type Receiver } from "./support";
import { dashboardLogin } from "../dashboard/support";

const receivers: Receiver[] = [];
afterEach(() => {
  while (receivers.length) receivers.pop()!.stop();
});
const ATTEMPT_KEYS = ["attempt", "attempted_at", "duration_ms", "error", "response_body", "status_code"];

/** An account whose one delivery was answered 500 "boom" then, 5 s later, 200 "fine". */
async function retriedDelivery(h: Harness) {
  deterministic(h);
  const a = await h.seedAccount();
  const rx = startReceiver((n) => (n === 0 ? new Response("boom", { status: 500 }) : new Response("fine")));
  receivers.push(rx);
  await register(h, a.testKey, rx.url);
  await emitChargePaid(h, a.accountId);
  await h.deps.jobs.drain();
  h.clock.advance(5);
  await h.deps.jobs.drain();
  const d = await onlyDelivery(h, a.testKey);
  expect(d.status).toBe("DELIVERED");
  return { a, d };
}

describe("delivery attempts", () => {
  test("lists every attempt oldest first with exactly {attempt, status_code, error, response_body, duration_ms, attempted_at}", async () => {
    const h = createHarness({ webhookAllowPrivate: true });
    const { a, d } = await retriedDelivery(h);
    const r = await h.call("GET", `/v1/webhooks/deliveries/${d.id}/attempts`, { key: a.testKey });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(["data"]);
    for (const x of r.body.data) {
      expect(Object.keys(x).sort()).toEqual(ATTEMPT_KEYS);
      expect(Number.isInteger(x.duration_ms) && x.duration_ms >= 0).toBe(true);
    }
    expect(r.body.data.map(({ duration_ms: _, ...x }: any) => x)).toEqual([
      {
        attempt: 1,
        status_code: 500,
        error: "HTTP 500",
        response_body: "boom",
        attempted_at: "2026-11-20T12:00:00.000Z",
      },
      { attempt: 2, status_code: 200, error: null, response_body: "fine", attempted_at: "2026-11-20T12:00:05.000Z" },
    ]);
  });

  test("a delivery not attempted yet has no attempts; the response body is as stored (2048 characters)", async () => {
    const h = createHarness({ webhookAllowPrivate: true });
    deterministic(h);
    const a = await h.seedAccount();
    const rx = startReceiver(() => new Response("x".repeat(100_000), { status: 500 }));
    receivers.push(rx);
    await register(h, a.testKey, rx.url);
    await emitChargePaid(h, a.accountId);
    const pending = await onlyDelivery(h, a.testKey);
    expect((await h.call("GET", `/v1/webhooks/deliveries/${pending.id}/attempts`, { key: a.testKey })).body).toEqual({
      data: [],
    });
    await h.deps.jobs.drain();
    const r = await h.call("GET", `/v1/webhooks/deliveries/${pending.id}/attempts`, { key: a.testKey });
    expect(r.body.data).toHaveLength(1);
    expect(r.body.data[0].response_body).toBe("x".repeat(2048));
  });

  test("the OWNER reads them through a dashboard session too", async () => {
    const h = createHarness({ webhookAllowPrivate: true });
    const { a, d } = await retriedDelivery(h);
    const s = await dashboardLogin(h, a.email, a.password);
    const r = await s.call("GET", `/v1/webhooks/deliveries/${d.id}/attempts`, { mode: "test" });
    expect(r.status).toBe(200);
    expect(r.body.data.map((x: any) => x.attempt)).toEqual([1, 2]);
  });
});

describe("delivery attempts: errors and isolation", () => {
  test("another account's delivery, the other mode's key and an unknown id are 404 not_found", async () => {
    const h = createHarness({ webhookAllowPrivate: true });
    const { a, d } = await retriedDelivery(h);
    const b = await h.seedAccount();
    for (const key of [b.testKey, b.liveKey, a.liveKey]) {
      const r = await h.call("GET", `/v1/webhooks/deliveries/${d.id}/attempts`, { key });
      expect(r.status).toBe(404);
      expect(r.body.error.code).toBe("not_found");
    }
    expect((await h.call("GET", "/v1/webhooks/deliveries/wd_nope/attempts", { key: a.testKey })).status).toBe(404);
  });

  test("no key is 401", async () => {
    const h = createHarness({ webhookAllowPrivate: true });
    const { d } = await retriedDelivery(h);
    expect((await h.call("GET", `/v1/webhooks/deliveries/${d.id}/attempts`)).status).toBe(401);
  });
});
