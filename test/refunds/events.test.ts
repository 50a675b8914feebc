/**
 * Events of refunds and the canonical family's scope (extensions.md "Provider events for refunds"):
 * `charge.refunded` per confirmed refund with the charge and the refund; `charge.*` only for
 * transactions that have a charge view (they offer PIX).
 */
import { describe, expect, test } from "bun:test";
import { createHarness, type Harness, type SeededAccount } from "../support/harness";
import { REFUND_FIELDS, createPayment, eventBodies, eventTypes, key, pay } from "../payments/support";

/** Exact field set of a public Charge (interface.md "Charge"), copied here as the oracle. */
const CHARGE_FIELDS = [
  "amount",
  "checkout_url",
  "created_at",
  "currency",
  "customer",
  "id",
  "metadata",
  "object",
  "payment_method",
  "pix",
  "settlement",
  "status",
];
const ENVELOPE_FIELDS = ["api_version", "created_at", "data", "id", "object", "type"];

async function setup() {
  const h = createHarness();
  h.subscribeAllEvents = true; // the outbox keeps every event (tests read it)
  const a = await h.seedAccount();
  return { h, a };
}

function refund(h: Harness, a: SeededAccount, id: string, body: Record<string, unknown> = {}) {
  return h.call("POST", `/v1/payments/${id}/refund`, {
    key: a.testKey,
    body: { idempotencyKey: key("refund"), ...body },
  });
}

async function advance(h: Harness, a: SeededAccount, refundId: string, to: string) {
  const r = await h.call("POST", `/v1/test_helpers/refunds/${refundId}/advance`, { key: a.testKey, body: { to } });
  expect(r.status).toBe(200);
  return r.body;
}

/** A card-only payment approved through the hosted checkout with the sandbox approve card. */
async function approvedCardPayment(h: Harness, a: SeededAccount, amount = 1000) {
  const p = await createPayment(h, a, { amount, paymentMethods: ["CREDIT_CARD"] });
  const c = await h.call("POST", `/c/${p.id}/card`, { body: { number: "4242424242424242" } });
  expect(c.status).toBeLessThan(400);
  expect((await h.call("GET", `/v1/payments/${p.id}`, { key: a.testKey })).body.status).toBe("APPROVED");
  return p;
}

describe("charge.refunded", () => {
  test("a partial then a final refund of a Pix payment send two charge.refunded carrying the charge as it stands and the refund", async () => {
    const { h, a } = await setup();
    const p = await createPayment(h, a, { amount: 1000 });
    await pay(h, a, p.id);
    const r1 = (await refund(h, a, p.id, { amount: 300 })).body;
    const r2 = (await refund(h, a, p.id)).body;
    expect((await eventTypes(h, p.id)).filter((t) => t === "charge.refunded")).toEqual([]);

    await advance(h, a, r1.id, "REFUNDED");
    let sent = await eventBodies(h, p.id, "charge.refunded");
    expect(sent).toHaveLength(1);
    expect(Object.keys(sent[0]).sort()).toEqual(ENVELOPE_FIELDS);
    expect(Object.keys(sent[0].data).sort()).toEqual(["object", "refund"]);
    expect(sent[0]).toMatchObject({ object: "event", type: "charge.refunded" });
    expect(Object.keys(sent[0].data.object).sort()).toEqual(CHARGE_FIELDS);
    expect(sent[0].data.object).toMatchObject({ id: `ch_${p.id}`, status: "paid", amount: 1000 });
    expect(Object.keys(sent[0].data.refund).sort()).toEqual(REFUND_FIELDS);
    expect(sent[0].data.refund).toMatchObject({ id: r1.id, transactionId: p.id, amount: 300, status: "REFUNDED" });

    await advance(h, a, r2.id, "REFUNDED");
    sent = await eventBodies(h, p.id, "charge.refunded");
    expect(sent).toHaveLength(2);
    expect(sent[1].id).not.toBe(sent[0].id);
    expect(sent[1].data.object).toMatchObject({ id: `ch_${p.id}`, status: "refunded" });
    expect(sent[1].data.refund).toMatchObject({ id: r2.id, amount: 700, status: "REFUNDED" });
    // The charge in the event is the one GET /v1/charges/{id} answers right after.
    expect((await h.call("GET", `/v1/charges/ch_${p.id}`, { key: a.testKey })).body).toEqual(sent[1].data.object);
    const types = await eventTypes(h, p.id);
    expect(types.filter((t) => t === "payment.refunded")).toHaveLength(2);
    expect(types.slice(-3)).toEqual(["charge.refunded", "payment.refunded", "payment.status_changed"]);
  });

  test("a refund that fails sends no charge.refunded, and one moving only to IN_PROGRESS neither", async () => {
    const { h, a } = await setup();
    const p = await createPayment(h, a);
    await pay(h, a, p.id);
    const r1 = (await refund(h, a, p.id, { amount: 400 })).body;
    await advance(h, a, r1.id, "IN_PROGRESS");
    await advance(h, a, r1.id, "FAILED");
    const r2 = (await refund(h, a, p.id, { amount: 100 })).body;
    await advance(h, a, r2.id, "IN_PROGRESS");
    expect((await eventTypes(h, p.id)).filter((t) => t.includes("refund"))).toEqual([]);
  });

  test("an endpoint subscribed to charge.refunded alone gets exactly one delivery per confirmed refund", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const ep = await h.call("POST", "/v1/webhooks/endpoints", {
      key: a.testKey,
      body: { url: "https://hooks.example.com/refunds", events: ["charge.refunded"] },
    });
    expect(ep.status).toBe(201);
    const p = await createPayment(h, a);
    await pay(h, a, p.id);
    const r1 = (await refund(h, a, p.id, { amount: 600 })).body;
    const r2 = (await refund(h, a, p.id)).body;
    await advance(h, a, r1.id, "REFUNDED");
    await advance(h, a, r2.id, "REFUNDED");
    const d = await h.call("GET", "/v1/webhooks/deliveries?limit=100", { key: a.testKey });
    expect(d.body.data.map((x: { eventType: string }) => x.eventType)).toEqual(["charge.refunded", "charge.refunded"]);
    const refunds = d.body.data
      .map((x: { payload: { data: { refund: { id: string } } } }) => x.payload.data.refund.id)
      .sort();
    expect(refunds).toEqual([r1.id, r2.id].sort());
  });

  test("resending the webhook of a refunded Pix payment sends charge.refunded again with its last refund", async () => {
    const { h, a } = await setup();
    const p = await createPayment(h, a);
    await pay(h, a, p.id);
    const r = (await refund(h, a, p.id)).body;
    await advance(h, a, r.id, "REFUNDED");
    const res = await h.call("POST", `/v1/payments/${p.id}/resend-webhook`, { key: a.testKey, body: {} });
    expect(res.status).toBe(200);
    const sent = await eventBodies(h, p.id, "charge.refunded");
    expect(sent).toHaveLength(2);
    expect(sent[1].id).not.toBe(sent[0].id);
    expect(sent[1].data).toEqual(sent[0].data);
  });

  test("resending repeats the refund that completed last, not the one created last", async () => {
    const { h, a } = await setup();
    const p = await createPayment(h, a, { amount: 1000 });
    await pay(h, a, p.id);
    const first = (await refund(h, a, p.id, { amount: 300 })).body;
    h.clock.advance(1);
    const second = (await refund(h, a, p.id)).body; // the remaining 700, created later
    h.clock.advance(1);
    await advance(h, a, second.id, "REFUNDED"); // completes first: the charge is still paid
    h.clock.advance(1);
    await advance(h, a, first.id, "REFUNDED"); // completes last: this one makes it refunded
    expect((await h.call("GET", `/v1/payments/${p.id}`, { key: a.testKey })).body.status).toBe("REFUNDED");
    const before = (await eventBodies(h, p.id, "charge.refunded")).length;
    const legacyBefore = (await eventBodies(h, p.id, "payment.refunded")).length;

    const res = await h.call("POST", `/v1/payments/${p.id}/resend-webhook`, { key: a.testKey, body: {} });
    expect(res.status).toBe(200);
    const sent = await eventBodies(h, p.id, "charge.refunded");
    expect(sent).toHaveLength(before + 1);
    expect(sent.at(-1).data.refund).toMatchObject({ id: first.id, amount: 300, status: "REFUNDED" });
    expect(sent.at(-1).data.object).toMatchObject({ status: "refunded" });
    const legacy = await eventBodies(h, p.id, "payment.refunded");
    expect(legacy).toHaveLength(legacyBefore + 1);
    expect(legacy.at(-1).data).toMatchObject({
      refundId: first.id,
      refundAmount: 300,
      refundedAmount: 1000,
      status: "REFUNDED",
    });
  });
});

describe("the canonical family only for transactions with a charge view", () => {
  test("a card-only payment approved and refunded sends the legacy family alone", async () => {
    const { h, a } = await setup();
    const p = await approvedCardPayment(h, a);
    expect((await h.call("GET", `/v1/charges/ch_${p.id}`, { key: a.testKey })).status).toBe(404);
    const r = await refund(h, a, p.id);
    expect(r.status).toBe(201);
    await advance(h, a, r.body.id, "REFUNDED");
    expect((await h.call("GET", `/v1/payments/${p.id}`, { key: a.testKey })).body.status).toBe("REFUNDED");
    const types = await eventTypes(h, p.id);
    expect(types).toEqual(["payment.created", "payment.completed", "payment.refunded", "payment.status_changed"]);
    await h.call("POST", `/v1/payments/${p.id}/resend-webhook`, { key: a.testKey, body: {} });
    expect((await eventTypes(h, p.id)).filter((t) => t.startsWith("charge."))).toEqual([]);
  });

  test("a boleto-only payment cancelled sends payment.failed and no charge.failed", async () => {
    const { h, a } = await setup();
    const p = await createPayment(h, a, { paymentMethods: ["BOLETO"] });
    expect((await h.call("POST", `/v1/payments/${p.id}/cancel`, { key: a.testKey, body: {} })).status).toBe(200);
    expect(await eventTypes(h, p.id)).toEqual(["payment.created", "payment.failed"]);
  });

  test("a payment offering PIX and card, paid by card, sends the canonical family too", async () => {
    const { h, a } = await setup();
    const p = await createPayment(h, a, { paymentMethods: ["PIX", "CREDIT_CARD"] });
    await h.call("POST", `/c/${p.id}/card`, { body: { number: "4242424242424242" } });
    expect((await h.call("GET", `/v1/charges/ch_${p.id}`, { key: a.testKey })).status).toBe(200);
    expect(await eventTypes(h, p.id)).toEqual([
      "charge.created",
      "payment.created",
      "charge.paid",
      "payment.completed",
    ]);
    const r = await refund(h, a, p.id);
    await advance(h, a, r.body.id, "REFUNDED");
    const [ev] = await eventBodies(h, p.id, "charge.refunded");
    expect(ev.data.object).toMatchObject({ id: `ch_${p.id}`, status: "refunded" });
    expect(ev.data.refund).toMatchObject({ id: r.body.id, amount: 1000 });
  });
});
