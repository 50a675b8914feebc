import { describe, expect, test } from "bun:test";
import { getBalance } from "../../src/domain/ledger";
import { createHarness } from "../support/harness";
import {
  REFUND_FIELDS,
  createPayment,
  eventBodies,
  eventTypes,
  expectNoForbidden,
  forceStatus,
  key,
  paidPayment,
  pay,
} from "../payments/support";

const setup = async (amount = 1000, settings = {}) => {
  const h = createHarness();
  h.subscribeAllEvents = true; // tests read the outbox
  const a = await h.seedAccount({ settings });
  const p = await paidPayment(h, a, amount);
  const refund = (body: Record<string, unknown> = {}, id = p.id) =>
    h.call("POST", `/v1/payments/${id}/refund`, { key: a.testKey, body: { idempotencyKey: key("refund"), ...body } });
  const balance = () => getBalance(h.deps.store.read, a.accountId, false, "BRL");
  const tx = async () => (await h.call("GET", `/v1/payments/${p.id}`, { key: a.testKey })).body;
  const advance = (id: string, to: string) =>
    h.call("POST", `/v1/test_helpers/refunds/${id}/advance`, { key: a.testKey, body: { to } });
  return { h, a, p, refund, balance, tx, advance };
};

describe("refunds (happy paths)", () => {
  test("a full refund is PENDING with the refund fields, debits the balance, and REFUNDED makes the transaction REFUNDED with payment.refunded", async () => {
    const { h, a, p, refund, balance, tx, advance } = await setup(1000);
    expect(await balance()).toMatchObject({ available: 0, pending: 1000 });
    const r = await refund({ reason: "customer asked" });
    expect(r.status).toBe(201);
    expect(Object.keys(r.body).sort()).toEqual(REFUND_FIELDS);
    expect(r.body).toMatchObject({
      transactionId: p.id,
      amount: 1000,
      currency: "BRL",
      status: "PENDING",
      reason: "customer asked",
      createdAt: "2026-11-20T12:00:00.000Z",
    });
    expect(r.body.id).toMatch(/^re_[0-9a-f]{32}$/);
    expectNoForbidden(r.body);
    expect(await balance()).toMatchObject({ available: 0, pending: 0 });
    expect((await tx()).status).toBe("PAID");
    expect((await advance(r.body.id, "IN_PROGRESS")).body.status).toBe("IN_PROGRESS");
    const done = await advance(r.body.id, "REFUNDED");
    expect(done.status).toBe(200);
    expect(done.body.status).toBe("REFUNDED");
    expect((await tx()).status).toBe("REFUNDED");
    expect(await eventTypes(h, p.id)).toContain("payment.refunded");
    const ev = (await eventBodies(h, p.id, "payment.refunded"))[0];
    expect(ev.data).toMatchObject({
      transactionId: p.id,
      status: "REFUNDED",
      previousStatus: "PAID",
      refundId: r.body.id,
      refundAmount: 1000,
      refundedAmount: 1000,
    });
    const charge = await h.call("GET", `/v1/charges/ch_${p.id}`, { key: a.testKey });
    expect(charge.body.status).toBe("refunded");
  });

  test("a refund addressed by the ch_ id refunds the same transaction, like GET /v1/payments/{id}/refunds", async () => {
    const { h, a, p, refund, balance } = await setup(1000);
    const r = await refund({ amount: 300 }, `ch_${p.id}`);
    expect(r.status).toBe(201);
    expect(r.body.transactionId).toBe(p.id);
    expect(await balance()).toMatchObject({ available: 0, pending: 700 });
    const list = await h.call("GET", `/v1/payments/ch_${p.id}/refunds`, { key: a.testKey });
    expect(list.body.data.map((x: { id: string }) => x.id)).toEqual([r.body.id]);
  });

  test("sandbox refunds advance by themselves: IN_PROGRESS after 2 s, REFUNDED after 4 s", async () => {
    const { h, a, p, refund } = await setup(1000);
    const r = await refund({ amount: 400 });
    const list = async () =>
      (await h.call("GET", `/v1/payments/${p.id}/refunds`, { key: a.testKey })).body.data[0].status;
    expect(await list()).toBe("PENDING");
    h.clock.advance(2);
    await h.deps.jobs.drain();
    expect(await list()).toBe("IN_PROGRESS");
    h.clock.advance(2);
    await h.deps.jobs.drain();
    expect(await list()).toBe("REFUNDED");
    expect(r.body.status).toBe("PENDING");
  });

  test("several partial refunds up to the amount; the transaction stays PAID until fully refunded", async () => {
    const { h, a, p, refund, balance, tx, advance } = await setup(1000);
    const r1 = await refund({ amount: 300 });
    const r2 = await refund({ amount: 500 });
    expect([r1.status, r2.status]).toEqual([201, 201]);
    expect((await balance()).pending).toBe(200);
    await advance(r1.body.id, "REFUNDED");
    expect((await tx()).status).toBe("PAID");
    const over = await refund({ amount: 201 });
    expect(over.status).toBe(400);
    expect(over.body.error.code).toBe("refund_amount_exceeds_remaining");
    const rest = await refund({});
    expect(rest.body.amount).toBe(200);
    await advance(r2.body.id, "REFUNDED");
    expect((await tx()).status).toBe("PAID");
    await advance(rest.body.id, "REFUNDED");
    expect((await tx()).status).toBe("REFUNDED");
    const listed = await h.call("GET", `/v1/payments/${p.id}/refunds`, { key: a.testKey });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((r: any) => r.id)).toEqual([rest.body.id, r2.body.id, r1.body.id]);
    for (const r of listed.body.data) expect(Object.keys(r).sort()).toEqual(REFUND_FIELDS);
    expect(await balance()).toMatchObject({ available: 0, pending: 0 });
  });

  test("a FAILED refund restores the balance and the refundable remainder", async () => {
    const { refund, balance, advance } = await setup(1000);
    const r = await refund({ amount: 600 });
    expect((await balance()).pending).toBe(400);
    const failed = await advance(r.body.id, "FAILED");
    expect(failed.body.status).toBe("FAILED");
    expect((await balance()).pending).toBe(1000);
    const again = await refund({ amount: 1000 });
    expect(again.status).toBe(201);
  });

  test("a replayed idempotencyKey returns the original refund and refunds once", async () => {
    const { h, a, p, balance } = await setup(1000);
    const body = { idempotencyKey: key("r"), amount: 250 };
    const first = await h.call("POST", `/v1/payments/${p.id}/refund`, { key: a.testKey, body });
    const second = await h.call("POST", `/v1/payments/${p.id}/refund`, { key: a.testKey, body });
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect((await balance()).pending).toBe(750);
    const changed = await h.call("POST", `/v1/payments/${p.id}/refund`, {
      key: a.testKey,
      body: { ...body, amount: 100 },
    });
    expect(changed.status).toBe(409);
    expect(changed.body.error.code).toBe("idempotency_key_reused");
  });

  test("a cashout with passFeeToTenant debits the payout fee (payout_fee_fixed, not the Pix fee) from the available balance", async () => {
    const { h, refund, balance } = await setup(10000, {
      pixFeeBps: 100,
      payoutFeeFixed: 75,
      settlementDelaySeconds: 60,
    });
    h.clock.advance(61);
    await h.deps.jobs.drain();
    expect(await balance()).toMatchObject({ available: 9900, pending: 0 });
    const r = await refund({
      amount: 5000,
      strategy: "cashout",
      passFeeToTenant: true,
      destinationKey: "+5511999998888",
    });
    expect(r.status).toBe(201);
    expect((await balance()).available).toBe(9900 - 5000 - 75);
  });

  test("a devolution refund is accepted for PIX", async () => {
    const { refund } = await setup(1000);
    const r = await refund({ strategy: "devolution" });
    expect(r.status).toBe(201);
    expect(r.body.amount).toBe(1000);
  });

  test("a card payment can be refunded", async () => {
    const h = createHarness();
    h.subscribeAllEvents = true; // tests read the outbox
    const a = await h.seedAccount();
    const p = await createPayment(h, a, { paymentMethods: ["CREDIT_CARD"] });
    await h.call("POST", `/c/${p.id}/card`, { body: { number: "4242424242424242" } });
    const r = await h.call("POST", `/v1/payments/${p.id}/refund`, { key: a.testKey, body: { idempotencyKey: key() } });
    expect(r.status).toBe(201);
  });
});

describe("refunds (errors)", () => {
  test("a transaction that is not settled -> 400 charge_not_refundable", async () => {
    const h = createHarness();
    h.subscribeAllEvents = true; // tests read the outbox
    const a = await h.seedAccount();
    const p = await createPayment(h, a);
    const r = await h.call("POST", `/v1/payments/${p.id}/refund`, { key: a.testKey, body: { idempotencyKey: key() } });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe("charge_not_refundable");
  });

  test("a disputed transaction -> 400 charge_disputed", async () => {
    const { h, p, refund } = await setup();
    for (const s of ["DISPUTE", "CHARGEBACK"]) {
      await forceStatus(h, p.id, s);
      const r = await refund();
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe("charge_disputed");
    }
  });

  test("an amount above the remaining refundable -> 400 refund_amount_exceeds_remaining", async () => {
    const { refund, balance } = await setup(1000);
    const r = await refund({ amount: 1001 });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe("refund_amount_exceeds_remaining");
    expect((await balance()).pending).toBe(1000);
  });

  test("methods whose provider has no refunds -> REFUND_NOT_SUPPORTED", async () => {
    for (const [method, currency] of [
      ["BOLETO", "BRL"],
      ["MULTIBANCO", "EUR"],
      ["CRYPTO", "USDT"],
    ] as const) {
      const h = createHarness();
      h.subscribeAllEvents = true; // tests read the outbox
      const a = await h.seedAccount();
      const p = await createPayment(h, a, { paymentMethods: [method], currency });
      await pay(h, a, p.id, { method });
      const r = await h.call("POST", `/v1/payments/${p.id}/refund`, {
        key: a.testKey,
        body: { idempotencyKey: key() },
      });
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe("REFUND_NOT_SUPPORTED");
    }
  });

  test("strategy and cashout options are refused where they do not apply", async () => {
    const { refund } = await setup(1000);
    const bad = [
      [{ strategy: "wire" }, "strategy"],
      [{ strategy: "devolution", passFeeToTenant: true }, "passFeeToTenant"],
      [{ strategy: "devolution", destinationKey: "a@b.com" }, "destinationKey"],
      [{ reason: "x".repeat(501) }, "reason"],
      [{ amount: "100" }, "amount"],
      [{ amount: 0 }, "amount"],
      [{ idempotencyKey: "short" }, "idempotencyKey"],
      [{ passFeeToTenant: "true" }, "passFeeToTenant"],
      [{ extra: 1 }, "extra"],
    ] as const;
    for (const [body, param] of bad) {
      const r = await refund(body as Record<string, unknown>);
      expect(r.status).toBe(400);
      expect(JSON.stringify(r.body.error)).toContain(param);
    }
    const ok = await refund({ reason: "x".repeat(500) });
    expect(ok.status).toBe(201);
  });

  test("strategy on a card refund -> 400", async () => {
    const h = createHarness();
    h.subscribeAllEvents = true; // tests read the outbox
    const a = await h.seedAccount();
    const p = await createPayment(h, a, { paymentMethods: ["CREDIT_CARD"] });
    await h.call("POST", `/c/${p.id}/card`, { body: { number: "4242424242424242" } });
    const r = await h.call("POST", `/v1/payments/${p.id}/refund`, {
      key: a.testKey,
      body: { idempotencyKey: key(), strategy: "cashout" },
    });
    expect(r.status).toBe(400);
    expect(r.body.error.param).toBe("strategy");
  });

  test("concurrent refunds never exceed the amount", async () => {
    const { h, a, p, balance } = await setup(1000);
    const results = await Promise.all(
      Array.from({ length: 12 }, () =>
        h.call("POST", `/v1/payments/${p.id}/refund`, {
          key: a.testKey,
          body: { idempotencyKey: key("c"), amount: 300 },
        }),
      ),
    );
    const ok = results.filter((r) => r.status === 201);
    expect(ok).toHaveLength(3);
    for (const r of results.filter((r) => r.status !== 201))
      expect(r.body.error.code).toBe("refund_amount_exceeds_remaining");
    expect((await balance()).pending).toBe(100);
    const full = await Promise.all(
      Array.from({ length: 5 }, () =>
        h.call("POST", `/v1/payments/${p.id}/refund`, { key: a.testKey, body: { idempotencyKey: key("f") } }),
      ),
    );
    expect(full.filter((r) => r.status === 201).map((r) => r.body.amount)).toEqual([100]);
    expect((await balance()).pending).toBe(0);
  });

  test("the advance helper refuses moves out of a final status and live keys", async () => {
    const { a, refund, advance, h } = await setup();
    const r = await refund();
    await advance(r.body.id, "REFUNDED");
    const again = await advance(r.body.id, "FAILED");
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe("invalid_state");
    const live = await h.call("POST", `/v1/test_helpers/refunds/${r.body.id}/advance`, {
      key: a.liveKey,
      body: { to: "FAILED" },
    });
    expect(live.status).toBe(403);
    expect(live.body.error.code).toBe("test_mode_only");
    const bad = await advance(r.body.id, "PENDING");
    expect(bad.status).toBe(400);
  });
});

describe("refunds (security)", () => {
  test("another account cannot refund, list or advance the refunds of a transaction (404)", async () => {
    const { h, p, refund } = await setup();
    const other = await h.seedAccount();
    const r = await refund();
    const post = await h.call("POST", `/v1/payments/${p.id}/refund`, {
      key: other.testKey,
      body: { idempotencyKey: key() },
    });
    expect(post.status).toBe(404);
    expect((await h.call("GET", `/v1/payments/${p.id}/refunds`, { key: other.testKey })).status).toBe(404);
    const adv = await h.call("POST", `/v1/test_helpers/refunds/${r.body.id}/advance`, {
      key: other.testKey,
      body: { to: "FAILED" },
    });
    expect(adv.status).toBe(404);
  });

  test("the live key of the same account does not see test transactions", async () => {
    const { h, a, p } = await setup();
    const r = await h.call("POST", `/v1/payments/${p.id}/refund`, { key: a.liveKey, body: { idempotencyKey: key() } });
    expect(r.status).toBe(404);
  });
});
