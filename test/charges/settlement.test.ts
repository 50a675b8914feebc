import { describe, expect, test } from "bun:test";
import { E2E_RE } from "../../src/pix/ids";
import { applySettlementNotice } from "../../src/domain/charges/settlement";
import {
  awaitsExpiry,
  balance,
  CHARGE_FIELDS,
  CNPJ,
  CPF,
  CPF_2,
  eventBodies,
  eventTypes,
  harness,
  newCharge,
  raw,
} from "./support";
import { testDb } from "../support/test-db";

const pay = (h: any, key: string, id: string, body: Record<string, unknown> = {}) =>
  h.call("POST", `/v1/test_helpers/charges/${id}/pay`, { key, body });

describe("paying a charge with the exact amount", () => {
  test("the charge becomes paid with an end-to-end id, the balance is credited net of the fee and charge.paid is written", async () => {
    const h = harness();
    const a = await h.seedAccount({ settings: { pixFeeBps: 150, pixFeeFixed: 10, settlementDelaySeconds: 3600 } });
    const c = await newCharge(h, a, { amount: 10000 });
    expect(await balance(h, a.testKey)).toEqual({ available: 0, pending: 0 });
    h.clock.advance(30);
    const r = await pay(h, a.testKey, c.id);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(CHARGE_FIELDS);
    expect(r.body.status).toBe("paid");
    expect(Object.keys(r.body.settlement)).toEqual(["end_to_end_id"]);
    expect(r.body.settlement.end_to_end_id).toMatch(E2E_RE);
    expect(r.body.settlement.end_to_end_id).toHaveLength(32);
    expect(r.body.settlement.end_to_end_id.slice(9, 21)).toBe("202611201200");
    const g = await h.call("GET", `/v1/charges/${c.id}`, { key: a.testKey });
    expect(g.body).toEqual(r.body);
    // fee = 1.5% of 10000 + 10 = 160; net 9840 pending until the settlement delay passes.
    expect(await balance(h, a.testKey)).toEqual({ available: 0, pending: 9840 });
    h.clock.advance(3600);
    await h.deps.jobs.drain();
    expect(await balance(h, a.testKey)).toEqual({ available: 9840, pending: 0 });
    expect(await eventTypes(h, raw(c.id))).toEqual([
      "charge.created",
      "payment.created",
      "charge.paid",
      "payment.completed",
    ]);
    const [paid] = await eventBodies(h, raw(c.id), "charge.paid");
    expect(paid.data.object).toEqual(r.body);
    const [completed] = await eventBodies(h, raw(c.id), "payment.completed");
    expect(completed.data).toEqual({
      transactionId: raw(c.id),
      amount: 10000,
      status: "PAID",
      previousStatus: "WAITING_PAYMENT",
      paidWith: "PIX",
      platformFee: 160,
      occurredAt: "2026-11-20T12:00:30.000Z",
    });
  });

  test("a paid charge no longer expires and cannot be paid again", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const c = await newCharge(h, a, { amount: 500, expires_in: 60 });
    expect(await awaitsExpiry(h, raw(c.id))).toBe(true);
    await pay(h, a.testKey, c.id);
    expect(await awaitsExpiry(h, raw(c.id))).toBe(false);
    h.clock.advance(120);
    await h.deps.jobs.drain();
    // the sweep ran at the old expiry, found nothing waiting and removed itself
    expect(await h.deps.jobs.pending("charge.expire_due")).toBe(0);
    const g = await h.call("GET", `/v1/charges/${c.id}`, { key: a.testKey });
    expect(g.body.status).toBe("paid");
    const again = await pay(h, a.testKey, c.id);
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe("invalid_state");
    expect(await balance(h, a.testKey)).toEqual({ available: 0, pending: 500 });
  });

  test("a repeated bank notice with the same end-to-end id is ignored", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const c = await newCharge(h, a, { amount: 700 });
    const notice = {
      transactionId: raw(c.id),
      kind: "paid" as const,
      method: "PIX" as const,
      amount: 700,
      endToEndId: "E99999999202611201200abcdefghijk",
    };
    expect((await applySettlementNotice(h.deps, notice)).outcome).toBe("paid");
    expect((await applySettlementNotice(h.deps, notice)).outcome).toBe("ignored");
    expect(await balance(h, a.testKey)).toEqual({ available: 0, pending: 700 });
    expect((await eventTypes(h, raw(c.id))).filter((t) => t === "charge.paid")).toHaveLength(1);
  });
});

describe("concurrent payments", () => {
  test("ten simultaneous pay calls credit the charge exactly once", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const c = await newCharge(h, a, { amount: 1500 });
    const results = await Promise.all(Array.from({ length: 10 }, () => pay(h, a.testKey, c.id)));
    expect(results.filter((r) => r.status === 200 && r.body.status === "paid").length).toBeGreaterThanOrEqual(1);
    for (const r of results) expect([200, 400]).toContain(r.status);
    expect(await balance(h, a.testKey)).toEqual({ available: 0, pending: 1500 });
    expect((await eventTypes(h, raw(c.id))).filter((t) => t === "charge.paid")).toHaveLength(1);
  });
});

describe("underpayment and overpayment", () => {
  test("a different amount is returned by the bank: the charge stays pending and nothing is credited", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const c = await newCharge(h, a, { amount: 1000 });
    for (const amount of [999, 1001]) {
      const r = await pay(h, a.testKey, c.id, { amount });
      expect(r.status).toBe(200);
      expect(r.body.status).toBe("pending");
      expect(r.body.settlement).toEqual({});
    }
    expect(await balance(h, a.testKey)).toEqual({ available: 0, pending: 0 });
    expect(await eventTypes(h, raw(c.id))).toEqual(["charge.created", "payment.created"]);
    const ok = await pay(h, a.testKey, c.id);
    expect(ok.body.status).toBe("paid");
  });
});

describe("the payer-tax-id lock at settlement", () => {
  test("lock on, the expected payer pays -> paid and credited", async () => {
    const h = harness();
    const a = await h.seedAccount({ settings: { payerLockEnabled: true } });
    const c = await newCharge(h, a, { amount: 800, expected_payer_tax_id: CPF, customer: { name: "Maria" } });
    const r = await pay(h, a.testKey, c.id, { payer_tax_id: "529.982.247-25" });
    expect(r.body.status).toBe("paid");
    expect(r.body.expected_payer_tax_id).toBe(CPF);
    expect(await balance(h, a.testKey)).toEqual({ available: 0, pending: 800 });
  });

  test("lock on, another payer's document -> refunded, returned by end-to-end id, not credited", async () => {
    const h = harness();
    const a = await h.seedAccount({ settings: { payerLockEnabled: true } });
    const c = await newCharge(h, a, { amount: 800, expected_payer_tax_id: CPF, customer: { name: "Maria" } });
    const r = await pay(h, a.testKey, c.id, { payer_tax_id: CPF_2 });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe("refunded");
    expect(r.body.settlement).toEqual({});
    expect(JSON.stringify(r.body)).not.toContain(CPF_2);
    expect(await balance(h, a.testKey)).toEqual({ available: 0, pending: 0 });
    const row = (await testDb(h.deps).get(
      "select method_details, end_to_end_id from transactions where id = ?",
      raw(c.id),
    ))!;
    const ret = JSON.parse(row.method_details).PIX.return;
    expect(ret.endToEndId).toBe(row.end_to_end_id);
    expect(ret.id).toMatch(/^D\d{20}[a-zA-Z0-9]{11}$/);
    expect(ret.amount).toBe(800);
    expect(await eventTypes(h, raw(c.id))).not.toContain("charge.paid");
    expect(await awaitsExpiry(h, raw(c.id))).toBe(false);
  });

  test("lock on, the bank does not disclose the payer -> processing (held), not credited", async () => {
    const h = harness();
    const a = await h.seedAccount({ settings: { payerLockEnabled: true } });
    const c = await newCharge(h, a, { amount: 800, expected_payer_tax_id: CNPJ, customer: { name: "Empresa" } });
    const r = await pay(h, a.testKey, c.id, { disclose_payer: false });
    expect(r.body.status).toBe("processing");
    expect(r.body.settlement).toEqual({});
    expect(await balance(h, a.testKey)).toEqual({ available: 0, pending: 0 });
    h.clock.advance(7200);
    await h.deps.jobs.drain();
    const g = await h.call("GET", `/v1/charges/${c.id}`, { key: a.testKey });
    expect(g.body.status).toBe("processing");
  });

  test("lock off, anybody may pay a charge carrying expected_payer_tax_id, disclosed or not", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const c1 = await newCharge(h, a, { amount: 300, expected_payer_tax_id: CPF, customer: { name: "Maria" } });
    const c2 = await newCharge(h, a, { amount: 200, expected_payer_tax_id: CPF, customer: { name: "Maria" } });
    expect((await pay(h, a.testKey, c1.id, { payer_tax_id: CPF_2 })).body.status).toBe("paid");
    expect((await pay(h, a.testKey, c2.id, { disclose_payer: false })).body.status).toBe("paid");
    expect(await balance(h, a.testKey)).toEqual({ available: 0, pending: 500 });
  });

  test("lock on, customer.document alone locks nothing", async () => {
    const h = harness();
    const a = await h.seedAccount({ settings: { payerLockEnabled: true } });
    const c = await newCharge(h, a, { amount: 300, customer: { name: "Maria", document: CPF } });
    expect((await pay(h, a.testKey, c.id, { payer_tax_id: CPF_2 })).body.status).toBe("paid");
  });
});

describe("expiry", () => {
  test("at pix.expires_at the charge becomes expired with metadata.failure, charge.expired and legacy twins", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const c = await newCharge(h, a, { expires_in: 600, metadata: { order: "7" } });
    h.clock.advance(599);
    await h.deps.jobs.drain();
    expect((await h.call("GET", `/v1/charges/${c.id}`, { key: a.testKey })).body.status).toBe("pending");
    h.clock.advance(1);
    await h.deps.jobs.drain();
    const g = await h.call("GET", `/v1/charges/${c.id}`, { key: a.testKey });
    expect(g.body.status).toBe("expired");
    expect(g.body.metadata).toEqual({
      order: "7",
      failure: { reason: "expired", providerErrorCode: null, ttlSeconds: 600, at: "2026-11-20T12:10:00.000Z" },
    });
    expect(await eventTypes(h, raw(c.id))).toEqual([
      "charge.created",
      "payment.created",
      "charge.expired",
      "payment.failed",
      "payment.expired",
    ]);
    const [evt] = await eventBodies(h, raw(c.id), "charge.expired");
    expect(evt.data.object).toEqual(g.body);
    const after = await pay(h, a.testKey, c.id);
    expect(after.status).toBe(400);
    expect(after.body.error.code).toBe("invalid_state");
    expect(await balance(h, a.testKey)).toEqual({ available: 0, pending: 0 });
  });

  test("a Pix payment arriving after pix.expires_at, before the expiry job ran, is refused and the charge becomes expired", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const c = await newCharge(h, a, { expires_in: 60 });
    h.clock.advance(61);
    const r = await pay(h, a.testKey, c.id);
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe("invalid_state");
    const g = await h.call("GET", `/v1/charges/${c.id}`, { key: a.testKey });
    expect(g.body.status).toBe("expired");
    expect(g.body.settlement).toEqual({});
    expect(await balance(h, a.testKey)).toEqual({ available: 0, pending: 0 });
    await h.deps.jobs.drain();
    expect(await eventTypes(h, raw(c.id))).toEqual([
      "charge.created",
      "payment.created",
      "charge.expired",
      "payment.failed",
      "payment.expired",
    ]);
  });

  test("the expiry job is durable: the sweep job row is in the jobs table, due at pix.expires_at", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const c = await newCharge(h, a, { expires_in: 60 });
    expect(await h.deps.jobs.pending("charge.expire_due")).toBe(1);
    const job = (await testDb(h.deps).get<{ due_at: number }>(
      "select due_at from jobs where kind = 'charge.expire_due'",
    ))!;
    expect(new Date(job.due_at).toISOString()).toBe(c.pix.expires_at);
  });

  test("the clock-advance helper expires charges too", async () => {
    const h = harness({ testClock: true });
    const a = await h.seedAccount();
    const c = await newCharge(h, a, { expires_in: 60 });
    const r = await h.call("POST", "/v1/test_helpers/clock/advance", { key: a.testKey, body: { seconds: 61 } });
    expect(r.status).toBe(200);
    expect((await h.call("GET", `/v1/charges/${c.id}`, { key: a.testKey })).body.status).toBe("expired");
  });
});

describe("metadata.failure fields (interface.md: reason, providerErrorCode, ttlSeconds unless no expiry, at)", () => {
  test("a cancelled Pix charge carries reason, providerErrorCode null, its ttlSeconds and at", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const c = await newCharge(h, a, { expires_in: 900 });
    const r = await h.call("POST", `/v1/payments/${raw(c.id)}/cancel`, { key: a.testKey });
    expect(r.status).toBe(200);
    const g = await h.call("GET", `/v1/charges/${c.id}`, { key: a.testKey });
    expect(g.body.status).toBe("cancelled");
    expect(g.body.metadata.failure).toEqual({
      reason: "cancelled",
      providerErrorCode: null,
      ttlSeconds: 900,
      at: "2026-11-20T12:00:00.000Z",
    });
  });

  test("a declined Pix charge carries the Pix QR lifetime as ttlSeconds", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const c = await newCharge(h, a, { expires_in: 120 });
    const r = await pay(h, a.testKey, c.id, { outcome: "decline" });
    expect(r.body.metadata.failure).toEqual({
      reason: "declined",
      providerErrorCode: "sandbox_declined",
      ttlSeconds: 120,
      at: "2026-11-20T12:00:00.000Z",
    });
  });

  test("a declined card transaction without expiry has no ttlSeconds", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const p = await h.call("POST", "/v1/payments", {
      key: a.testKey,
      body: { amount: 500, paymentMethods: ["CREDIT_CARD"], idempotencyKey: "card-decline-1" },
    });
    expect(p.status).toBe(201);
    await pay(h, a.testKey, p.body.id, { method: "CREDIT_CARD", outcome: "decline" });
    const g = await h.call("GET", `/v1/payments/${p.body.id}`, { key: a.testKey });
    expect(g.body.status).toBe("REFUSED");
    expect(g.body.metadata.failure).toEqual({
      reason: "declined",
      providerErrorCode: "sandbox_declined",
      at: "2026-11-20T12:00:00.000Z",
    });
  });
});

describe("declines and the pay helper's rules", () => {
  test("outcome decline -> failed with metadata.failure, charge.failed and payment.failed", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const c = await newCharge(h, a);
    const r = await pay(h, a.testKey, c.id, { outcome: "decline" });
    expect(r.body.status).toBe("failed");
    expect(r.body.metadata.failure).toEqual({
      reason: "declined",
      providerErrorCode: "sandbox_declined",
      ttlSeconds: 3600,
      at: "2026-11-20T12:00:00.000Z",
    });
    expect(await eventTypes(h, raw(c.id))).toEqual([
      "charge.created",
      "payment.created",
      "charge.failed",
      "payment.failed",
    ]);
    expect(await awaitsExpiry(h, raw(c.id))).toBe(false);
  });

  test("a live key gets 403 test_mode_only from every sandbox helper even when its body is invalid", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const calls = [
      await pay(h, a.liveKey, "ch_00000000000000000000000000000000", { amount: "x" }),
      await h.call("POST", "/v1/test_helpers/provider_faults", { key: a.liveKey, body: { mode: "nope" } }),
      await h.call("POST", "/v1/test_helpers/refunds/re_x/advance", { key: a.liveKey, body: {} }),
      await h.call("POST", "/v1/test_helpers/refunds/re_x/advance", {
        key: a.liveKey,
        body: { to: "REFUNDED", extra: 1 },
      }),
      await h.call("POST", "/v1/test_helpers/refunds/re_x/advance", { key: a.liveKey }),
      await h.call("POST", "/v1/test_helpers/provider_faults", { key: a.liveKey }),
    ];
    for (const r of calls) {
      expect(r.status).toBe(403);
      expect(r.body.error).toMatchObject({ type: "permission_error", code: "test_mode_only" });
    }
    const unauth = await h.call("POST", "/v1/test_helpers/provider_faults", { body: { mode: "nope" } });
    expect(unauth.status).toBe(401);
  });

  test("a live key -> 403 test_mode_only; another account -> 404; a method not offered -> 400", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const b = await h.seedAccount();
    const c = await newCharge(h, a);
    const live = await pay(h, a.liveKey, c.id);
    expect(live.status).toBe(403);
    expect(live.body.error.code).toBe("test_mode_only");
    const other = await pay(h, b.testKey, c.id);
    expect(other.status).toBe(404);
    const card = await pay(h, a.testKey, c.id, { method: "CREDIT_CARD" });
    expect(card.status).toBe(400);
    expect(card.body.error.param).toBe("method");
    const strAmount = await pay(h, a.testKey, c.id, { amount: "1000" });
    expect(strAmount.status).toBe(400);
    expect((await h.call("GET", `/v1/charges/${c.id}`, { key: a.testKey })).body.status).toBe("pending");
  });
});
