/**
 * Payout events (interface.md "Events", extensions.md "Payouts (money out)"): canonical
 * `payout.*` carry the Payout exactly as GET /v1/payouts/{id} returns it; legacy `withdrawal.*`
 * carry `{transactionId, amount, status, previousStatus, occurredAt}`, with
 * `withdrawal.status_changed` on every change; deliveries verify with the independent libraries.
 */
import { afterEach, describe, expect, test } from "bun:test";
import Stripe from "stripe";
import { Webhook } from "standardwebhooks";
import { createHarness } from "../support/harness";
import { hmacHex } from "../../src/lib/crypto";
import { deterministic, register, startReceiver, type Receiver } from "../webhooks/support";
import { PAYOUT_FIELDS, destination, eventBodies, eventTypes, fund, payout, setup } from "./support";

const ENVELOPE_FIELDS = ["api_version", "created_at", "data", "id", "object", "type"];
const LEGACY_FIELDS = ["amount", "occurredAt", "previousStatus", "status", "transactionId"];

describe("payout events in the outbox", () => {
  test("a paid payout sends payout.created and payout.paid with the Payout, and the legacy family with PENDING -> PROCESSING -> COMPLETED", async () => {
    const { h, a } = await setup();
    await fund(h, a, 5_000);
    const po = (await payout(h, a.testKey, { amount: 1_234, destination_id: (await destination(h, a)).id })).body;
    const [created] = await eventBodies(h, po.id, "payout.created");
    expect(Object.keys(created).sort()).toEqual(ENVELOPE_FIELDS);
    expect(Object.keys(created.data)).toEqual(["object"]);
    expect(created).toMatchObject({ object: "event", type: "payout.created", data: { object: po } });
    expect(Object.keys(created.data.object).sort()).toEqual(PAYOUT_FIELDS);
    const [legacyCreated] = await eventBodies(h, po.id, "withdrawal.created");
    expect(legacyCreated).toEqual({
      event: "withdrawal.created",
      data: {
        transactionId: po.id,
        amount: 1_234,
        status: "PENDING",
        previousStatus: "PENDING",
        occurredAt: "2026-11-20T12:00:00.000Z",
      },
    });

    await h.deps.jobs.drain();
    h.clock.advance(10);
    await h.deps.jobs.drain();
    const now = (await h.call("GET", `/v1/payouts/${po.id}`, { key: a.testKey })).body;
    const [paid] = await eventBodies(h, po.id, "payout.paid");
    expect(paid.data.object).toEqual(now);
    expect(paid.id).not.toBe(created.id);
    const changes = await eventBodies(h, po.id, "withdrawal.status_changed");
    expect(changes.map((e) => Object.keys(e.data).sort())).toEqual([LEGACY_FIELDS, LEGACY_FIELDS]);
    expect(changes.map((e) => [e.data.previousStatus, e.data.status])).toEqual([
      ["PENDING", "PROCESSING"],
      ["PROCESSING", "COMPLETED"],
    ]);
    const [completed] = await eventBodies(h, po.id, "withdrawal.completed");
    expect(completed.data).toEqual({
      transactionId: po.id,
      amount: 1_234,
      status: "COMPLETED",
      previousStatus: "PROCESSING",
      occurredAt: "2026-11-20T12:00:10.000Z",
    });
    expect(await eventBodies(h, po.id, "payout.failed")).toEqual([]);
  });

  test("failed and cancelled payouts send payout.failed and withdrawal.failed (FAILED, CANCELLED)", async () => {
    const { h, a } = await setup({ payoutDelaySeconds: 60 });
    await fund(h, a, 5_000);
    const d = await destination(h, a);
    const failed = (await payout(h, a.testKey, { amount: 100, destination_id: d.id })).body;
    const cancelled = (await payout(h, a.testKey, { amount: 200, destination_id: d.id })).body;
    await h.call("POST", `/v1/test_helpers/payouts/${failed.id}/fail`, {
      key: a.testKey,
      body: { failure_code: "invalid_key" },
    });
    await h.call("POST", `/v1/payouts/${cancelled.id}/cancel`, { key: a.testKey, body: {} });
    expect(await eventTypes(h, failed.id)).toEqual([
      "payout.created",
      "withdrawal.created",
      "payout.failed",
      "withdrawal.failed",
      "withdrawal.status_changed",
    ]);
    expect((await eventBodies(h, failed.id, "payout.failed"))[0].data.object).toMatchObject({
      status: "failed",
      failure_code: "invalid_key",
    });
    expect((await eventBodies(h, failed.id, "withdrawal.failed"))[0].data).toMatchObject({
      status: "FAILED",
      previousStatus: "PENDING",
    });
    expect((await eventBodies(h, cancelled.id, "payout.failed"))[0].data.object).toMatchObject({ status: "cancelled" });
    expect((await eventBodies(h, cancelled.id, "withdrawal.failed"))[0].data).toMatchObject({
      status: "CANCELLED",
      previousStatus: "PENDING",
      amount: 200,
    });
  });
});

const receivers: Receiver[] = [];
afterEach(() => {
  while (receivers.length) receivers.pop()!.stop();
});

describe("payout events delivered", () => {
  test("payout.created and withdrawal.created reach a subscribed endpoint with signatures the libraries verify", async () => {
    // A clock at real time, so the signature timestamps pass the libraries' tolerance.
    const { h, a } = await setup({}, createHarness({ webhookAllowPrivate: true }, new Date().toISOString()));
    h.subscribeAllEvents = false;
    deterministic(h);
    const rx = startReceiver();
    receivers.push(rx);
    const ep = await register(h, a.testKey, rx.url, ["payout.created", "withdrawal.created"]);
    await fund(h, a, 1_000);
    const po = (await payout(h, a.testKey, { amount: 100, destination_id: (await destination(h, a)).id })).body;
    await h.deps.jobs.drain();
    const byType = Object.fromEntries(rx.requests.map((r) => [r.headers["x-cofre-event-type"], r]));
    expect(Object.keys(byType).sort()).toEqual(["payout.created", "withdrawal.created"]);
    const wh = new Webhook(Buffer.from(ep.secret).toString("base64"));
    const canonical = byType["payout.created"]!;
    expect(wh.verify(canonical.body, canonical.headers)).toMatchObject({
      type: "payout.created",
      data: { object: { id: po.id, status: "pending" } },
    });
    const event = await new Stripe("sk_test_x").webhooks.constructEventAsync(
      canonical.body,
      canonical.headers["x-cofre-signature"]!,
      ep.secret,
    );
    expect(event.type as string).toBe("payout.created");
    const legacy = byType["withdrawal.created"]!;
    expect(wh.verify(legacy.body, legacy.headers)).toMatchObject({
      event: "withdrawal.created",
      data: { transactionId: po.id, status: "PENDING" },
    });
    expect(legacy.headers["x-cofre-signature"]).toBe(`sha256=${hmacHex(ep.secret, legacy.body)}`);
  });
});
