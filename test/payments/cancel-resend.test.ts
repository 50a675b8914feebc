import { describe, expect, test } from "bun:test";
import { createHarness } from "../support/harness";
import { GET_FIELDS, createPayment, eventBodies, eventTypes, expectNoForbidden, forceStatus, pay } from "./support";

describe("POST /v1/payments/{id}/cancel", () => {
  test("a waiting transaction becomes CANCELLED with payment.failed and charge.failed", async () => {
    const h = createHarness();
    h.subscribeAllEvents = true; // tests read the outbox
    const a = await h.seedAccount();
    const p = await createPayment(h, a);
    const r = await h.call("POST", `/v1/payments/${p.id}/cancel`, { key: a.testKey });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(GET_FIELDS);
    expect(r.body.status).toBe("CANCELLED");
    expect(r.body.metadata.failure).toMatchObject({ reason: "cancelled", at: "2026-11-20T12:00:00.000Z" });
    expectNoForbidden(r.body);
    const types = await eventTypes(h, p.id);
    expect(types).toContain("payment.failed");
    expect(types).toContain("charge.failed");
    expect((await eventBodies(h, p.id, "payment.failed"))[0].data).toMatchObject({
      transactionId: p.id,
      status: "CANCELLED",
      previousStatus: "WAITING_PAYMENT",
    });
    expect((await h.call("GET", `/v1/charges/ch_${p.id}`, { key: a.testKey })).body.status).toBe("cancelled");
    // the cancelled transaction left the expiry sweep: nothing changes when the window passes
    h.clock.advance(7200);
    await h.deps.jobs.drain();
    expect((await h.call("GET", `/v1/payments/${p.id}`, { key: a.testKey })).body.status).toBe("CANCELLED");
  });

  test("PROCESSING and PENDING can be cancelled too", async () => {
    const h = createHarness();
    h.subscribeAllEvents = true; // tests read the outbox
    const a = await h.seedAccount();
    for (const s of ["PROCESSING", "PENDING"]) {
      const p = await createPayment(h, a);
      await forceStatus(h, p.id, s);
      const r = await h.call("POST", `/v1/payments/${p.id}/cancel`, { key: a.testKey });
      expect(r.status).toBe(200);
      expect(r.body.status).toBe("CANCELLED");
    }
  });

  test("a paid, expired or cancelled transaction -> 400 charge_not_cancellable", async () => {
    const h = createHarness();
    h.subscribeAllEvents = true; // tests read the outbox
    const a = await h.seedAccount();
    const paid = await createPayment(h, a);
    await pay(h, a, paid.id);
    const r = await h.call("POST", `/v1/payments/${paid.id}/cancel`, { key: a.testKey });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe("charge_not_cancellable");
    const c = await createPayment(h, a);
    await h.call("POST", `/v1/payments/${c.id}/cancel`, { key: a.testKey });
    expect((await h.call("POST", `/v1/payments/${c.id}/cancel`, { key: a.testKey })).body.error.code).toBe(
      "charge_not_cancellable",
    );
  });

  test("a Pix payment received and held by the payer lock (PROCESSING) cannot be cancelled: the payer's money is not in flight", async () => {
    const h = createHarness();
    h.subscribeAllEvents = true; // tests read the outbox
    const a = await h.seedAccount({ settings: { payerLockEnabled: true } });
    const c = await h.call("POST", "/v1/pix/charges", {
      key: a.testKey,
      headers: { "idempotency-key": "held-cancel-0001" },
      body: { amount: 700, expected_payer_tax_id: "52998224725", customer: { name: "Maria" } },
    });
    expect(c.status).toBe(201);
    const held = await h.call("POST", `/v1/test_helpers/charges/${c.body.id}/pay`, {
      key: a.testKey,
      body: { disclose_payer: false },
    });
    expect(held.body.status).toBe("processing");
    const r = await h.call("POST", `/v1/payments/${c.body.id.slice(3)}/cancel`, { key: a.testKey });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe("charge_not_cancellable");
    expect((await h.call("GET", `/v1/charges/${c.body.id}`, { key: a.testKey })).body.status).toBe("processing");
    expect(await eventTypes(h, c.body.id.slice(3))).not.toContain("charge.failed");
  });

  test("another account's transaction -> 404", async () => {
    const h = createHarness();
    h.subscribeAllEvents = true; // tests read the outbox
    const a = await h.seedAccount();
    const b = await h.seedAccount();
    const p = await createPayment(h, a);
    const r = await h.call("POST", `/v1/payments/${p.id}/cancel`, { key: b.testKey });
    expect(r.status).toBe(404);
    expect((await h.call("GET", `/v1/payments/${p.id}`, { key: a.testKey })).body.status).toBe("WAITING_PAYMENT");
  });
});

describe("POST /v1/payments/{id}/resend-webhook", () => {
  test("re-emits the current status as fresh events: {resent, status}", async () => {
    const h = createHarness();
    h.subscribeAllEvents = true; // tests read the outbox
    const a = await h.seedAccount();
    const p = await createPayment(h, a);
    await pay(h, a, p.id);
    const before = await eventBodies(h, p.id, "payment.completed");
    expect(before).toHaveLength(1);
    const r = await h.call("POST", `/v1/payments/${p.id}/resend-webhook`, { key: a.testKey });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ resent: true, status: "PAID" });
    const after = await eventBodies(h, p.id, "payment.completed");
    expect(after).toHaveLength(2);
    expect(after[1].data).toMatchObject({
      transactionId: p.id,
      status: "PAID",
      previousStatus: "WAITING_PAYMENT",
      paidWith: "PIX",
    });
    const canonical = await eventBodies(h, p.id, "charge.paid");
    expect(canonical).toHaveLength(2);
    expect(canonical[0].id).not.toBe(canonical[1].id);
  });

  test("a waiting transaction re-emits its creation events", async () => {
    const h = createHarness();
    h.subscribeAllEvents = true; // tests read the outbox
    const a = await h.seedAccount();
    const p = await createPayment(h, a);
    const r = await h.call("POST", `/v1/payments/${p.id}/resend-webhook`, { key: a.testKey });
    expect(r.body).toEqual({ resent: true, status: "WAITING_PAYMENT" });
    expect(await eventBodies(h, p.id, "payment.created")).toHaveLength(2);
  });

  test("another account's transaction -> 404 and nothing emitted", async () => {
    const h = createHarness();
    h.subscribeAllEvents = true; // tests read the outbox
    const a = await h.seedAccount();
    const b = await h.seedAccount();
    const p = await createPayment(h, a);
    expect((await h.call("POST", `/v1/payments/${p.id}/resend-webhook`, { key: b.testKey })).status).toBe(404);
    expect(await eventBodies(h, p.id, "payment.created")).toHaveLength(1);
  });
});

describe("resend-webhook of a refunded transaction", () => {
  test("re-emits payment.refunded with the refunded amount", async () => {
    const h = createHarness();
    h.subscribeAllEvents = true; // tests read the outbox
    const a = await h.seedAccount();
    const p = await createPayment(h, a, { amount: 800 });
    await pay(h, a, p.id);
    const rf = await h.call("POST", `/v1/payments/${p.id}/refund`, {
      key: a.testKey,
      body: { idempotencyKey: "resend-refund-1" },
    });
    await h.call("POST", `/v1/test_helpers/refunds/${rf.body.id}/advance`, {
      key: a.testKey,
      body: { to: "REFUNDED" },
    });
    const r = await h.call("POST", `/v1/payments/${p.id}/resend-webhook`, { key: a.testKey });
    expect(r.body).toEqual({ resent: true, status: "REFUNDED" });
    const refunded = await eventBodies(h, p.id, "payment.refunded");
    expect(refunded).toHaveLength(2);
    expect(refunded[1].data).toMatchObject({
      transactionId: p.id,
      status: "REFUNDED",
      previousStatus: "PAID",
      refundedAmount: 800,
    });
  });
});
