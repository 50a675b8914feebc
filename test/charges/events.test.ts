import { describe, expect, test } from "bun:test";
import { emitTransition } from "../../src/domain/charges/events";
import { applySettlementNotice } from "../../src/domain/charges/settlement";
import { createCharge, eventBodies, eventTypes, harness, newCharge, raw } from "./support";
import type { Harness } from "../support/harness";

async function rowOf(h: Harness, id: string) {
  return (await h.deps.store.read.charges.byId(raw(id)))!;
}

describe("emission rules of status changes", () => {
  const cases: [string, string, string[]][] = [
    ["WAITING_PAYMENT", "CANCELLED", ["charge.failed", "payment.failed"]],
    ["WAITING_PAYMENT", "REFUSED", ["charge.failed", "payment.failed"]],
    ["WAITING_PAYMENT", "EXPIRED", ["charge.expired", "payment.failed", "payment.expired"]],
    ["WAITING_PAYMENT", "PAID", ["charge.paid", "payment.completed"]],
    ["PROCESSING", "APPROVED", ["charge.paid", "payment.completed"]],
    ["PAID", "DISPUTE", ["payment.failed"]],
    ["PAID", "CHARGEBACK", ["payment.failed"]],
    ["DISPUTE", "PAID", ["payment.status_changed"]],
    ["WAITING_PAYMENT", "PROCESSING", ["payment.status_changed"]],
    ["PAID", "PAID", []],
  ];
  for (const [from, to, expected] of cases) {
    test(`${from} -> ${to} writes ${expected.join(", ") || "nothing"}`, async () => {
      const h = harness();
      const a = await h.seedAccount();
      const c = await newCharge(h, a);
      const row = { ...(await rowOf(h, c.id)), status: to, paidWith: "PIX", platformFee: 12 };
      await h.deps.store.tx((uow) => emitTransition(h.deps, uow, row, from));
      expect((await eventTypes(h, raw(c.id))).slice(2)).toEqual(expected);
      for (const type of expected.filter((e) => e.startsWith("payment."))) {
        const [legacy] = await eventBodies(h, raw(c.id), type);
        expect(legacy.data.previousStatus).toBe(from);
        expect(legacy.data.status).toBe(to);
        const paidFields = to === "PAID" || to === "APPROVED";
        expect("paidWith" in legacy.data).toBe(paidFields);
        expect("platformFee" in legacy.data).toBe(paidFields);
      }
    });
  }

  test("canonical events carry the public charge; no charge.* event for MED statuses", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const c = await newCharge(h, a);
    await h.call("POST", `/v1/test_helpers/charges/${c.id}/pay`, { key: a.testKey, body: {} });
    const [paid] = await eventBodies(h, raw(c.id), "charge.paid");
    expect(paid.object).toBe("event");
    expect(paid.type).toBe("charge.paid");
    expect(paid.id).toMatch(/^evt_/);
    expect(paid.data.object.status).toBe("paid");
    expect(paid.data.object.id).toBe(c.id);
  });
});

describe("settlement notices that do not apply are ignored", () => {
  test("an expiry notice for a paid charge, a decline for an expired one and a payment for a failed one change nothing", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const paid = await newCharge(h, a);
    await h.call("POST", `/v1/test_helpers/charges/${paid.id}/pay`, { key: a.testKey, body: {} });
    expect((await applySettlementNotice(h.deps, { transactionId: raw(paid.id), kind: "expired" })).outcome).toBe(
      "ignored",
    );
    const expired = await newCharge(h, a, { expires_in: 60 });
    h.clock.advance(60);
    await h.deps.jobs.drain();
    expect(
      (await applySettlementNotice(h.deps, { transactionId: raw(expired.id), kind: "declined", method: "PIX" }))
        .outcome,
    ).toBe("ignored");
    expect(
      (
        await applySettlementNotice(h.deps, {
          transactionId: raw(expired.id),
          kind: "paid",
          method: "PIX",
          amount: 1000,
        })
      ).outcome,
    ).toBe("ignored");
    expect((await rowOf(h, paid.id)).status).toBe("PAID");
    expect((await rowOf(h, expired.id)).status).toBe("EXPIRED");
    await expect(applySettlementNotice(h.deps, { transactionId: "0".repeat(32), kind: "expired" })).rejects.toThrow();
  });

  test("a processing notice moves a pending charge to processing and a later exact card payment is approved", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const c = await newCharge(h, a);
    // Only methods the transaction offers apply.
    expect(
      (await applySettlementNotice(h.deps, { transactionId: raw(c.id), kind: "processing", method: "CREDIT_CARD" }))
        .outcome,
    ).toBe("ignored");
    expect(
      (await applySettlementNotice(h.deps, { transactionId: raw(c.id), kind: "processing", method: "PIX" })).outcome,
    ).toBe("processing");
    expect((await h.call("GET", `/v1/charges/${c.id}`, { key: a.testKey })).body.status).toBe("processing");
  });
});

describe("Pix creation failure without faults", () => {
  test("a location longer than 77 characters makes the provider reject: the charge is failed with metadata.failure", async () => {
    const h = harness({ publicUrl: `https://${"x".repeat(40)}.example.com` });
    const a = await h.seedAccount();
    const r = await createCharge(h, a.testKey);
    expect(r.status).toBe(201);
    expect(r.body.status).toBe("failed");
    expect(r.body.pix).toBeNull();
    expect(r.body.metadata.failure).toEqual({
      reason: "provider_rejected",
      providerErrorCode: "location_too_long",
      at: "2026-11-20T12:00:00.000Z",
    });
  });
});
