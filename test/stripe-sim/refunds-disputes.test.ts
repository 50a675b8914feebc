/**
 * stripe-sim refunds and disputes through the official `stripe` client: partial and full refunds
 * (pending, then succeeded after the delay or failed by control route, with `charge.refunded` and
 * `charge.refund.updated`), the refundable rest enforced, a boleto refused, and disputes opened
 * by the 0259 card or a control route and closed won or lost (`charge.dispute.created|closed`).
 */
import { afterEach, expect, test } from "bun:test";
import type Stripe from "stripe";
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

async function setup(
  settings: { refund_delay_ms: number | null; dispute_delay_ms: number | null } = {
    refund_delay_ms: null,
    dispute_delay_ms: null,
  },
) {
  fx = await startFixture({ settings });
  rx = startReceiver();
  return listen(fx, rx);
}

async function paid(number = "4242424242424242"): Promise<Stripe.PaymentIntent> {
  const s = await createSession(fx);
  expect((await payWithCard(s, number)).status).toBe(303);
  const done = await fx.stripe.checkout.sessions.retrieve(s.id, { expand: ["payment_intent"] });
  return done.payment_intent as Stripe.PaymentIntent;
}

async function stripeError(
  p: Promise<unknown>,
): Promise<{ status?: number; type: string; code?: string; param?: string; message: string }> {
  const e = (await p.then(
    () => null,
    (err: unknown) => err,
  )) as Stripe.errors.StripeError | null;
  if (!e) throw new Error("expected a Stripe error");
  return { status: e.statusCode, type: e.type, code: e.code, param: e.param, message: e.message };
}

test("a partial refund is pending, counted on the charge at once, and succeeds after the refund delay", async () => {
  const secret = await setup({ refund_delay_ms: 50, dispute_delay_ms: null });
  const pi = await paid();
  const re = await fx.stripe.refunds.create(
    { payment_intent: pi.id, amount: 5000, metadata: { refund_id: "rf_1" } },
    { idempotencyKey: "rf_1" },
  );
  expect({
    object: re.object,
    status: re.status,
    amount: re.amount,
    payment_intent: re.payment_intent,
    charge: re.charge,
    metadata: re.metadata,
  }).toEqual({
    object: "refund",
    status: "pending",
    amount: 5000,
    payment_intent: pi.id,
    charge: pi.latest_charge,
    metadata: { refund_id: "rf_1" },
  });
  const refunded = await verify(fx, await rx.next("charge.refunded"), secret);
  const ch = refunded.data.object as Stripe.Charge;
  expect({ id: ch.id, amount_refunded: ch.amount_refunded, refunded: ch.refunded }).toEqual({
    id: pi.latest_charge as string,
    amount_refunded: 5000,
    refunded: false,
  });
  const updated = await verify(fx, await rx.next("charge.refund.updated"), secret);
  expect({
    id: (updated.data.object as Stripe.Refund).id,
    status: (updated.data.object as Stripe.Refund).status,
  }).toEqual({ id: re.id, status: "succeeded" });
  const after = await fx.stripe.refunds.retrieve(re.id);
  expect(after.status).toBe("succeeded");
  expect(typeof after.balance_transaction).toBe("string");
});

test("a full refund leaves nothing to refund: another answers 400 charge_already_refunded", async () => {
  await setup();
  const pi = await paid();
  const re = await fx.stripe.refunds.create({ payment_intent: pi.id });
  expect(re.amount).toBe(15000);
  const ch = await fx.stripe.charges.retrieve(pi.latest_charge as string);
  expect({ amount_refunded: ch.amount_refunded, refunded: ch.refunded }).toEqual({
    amount_refunded: 15000,
    refunded: true,
  });
  expect(await stripeError(fx.stripe.refunds.create({ payment_intent: pi.id, amount: 1 }))).toEqual({
    status: 400,
    type: "StripeInvalidRequestError",
    code: "charge_already_refunded",
    param: undefined,
    message: `Charge ${ch.id} has already been refunded.`,
  });
});

test("a refund above the unrefunded rest answers 400 amount_too_large naming amount", async () => {
  await setup();
  const pi = await paid();
  await fx.stripe.refunds.create({ payment_intent: pi.id, amount: 10000 });
  const e = await stripeError(fx.stripe.refunds.create({ payment_intent: pi.id, amount: 5001 }));
  expect({ status: e.status, code: e.code, param: e.param }).toEqual({
    status: 400,
    code: "amount_too_large",
    param: "amount",
  });
});

test("a refund failed by control route returns its amount to the charge and sends charge.refund.updated failed", async () => {
  const secret = await setup();
  const pi = await paid();
  const re = await fx.stripe.refunds.create({ payment_intent: pi.id, amount: 15000 });
  const r = await fx.control("POST", `/_sim/refunds/${re.id}/fail`, { failure_reason: "expired_or_canceled_card" });
  expect(r.status).toBe(200);
  expect({ status: r.body.status, failure_reason: r.body.failure_reason }).toEqual({
    status: "failed",
    failure_reason: "expired_or_canceled_card",
  });
  const ev = await verify(fx, await rx.next("charge.refund.updated"), secret);
  expect((ev.data.object as Stripe.Refund).status).toBe("failed");
  const ch = await fx.stripe.charges.retrieve(pi.latest_charge as string);
  expect({ amount_refunded: ch.amount_refunded, refunded: ch.refunded }).toEqual({
    amount_refunded: 0,
    refunded: false,
  });
  expect((await fx.control("POST", `/_sim/refunds/${re.id}/succeed`)).status).toBe(409);
  expect((await fx.stripe.refunds.create({ payment_intent: pi.id })).amount).toBe(15000);
});

test("a refund of a PaymentIntent that is not paid answers 400 payment_intent_unexpected_state", async () => {
  await setup();
  const s = await createSession(fx);
  await payWithCard(s, "4000000000000002");
  const pi = (await fx.stripe.checkout.sessions.retrieve(s.id)).payment_intent as string;
  const e = await stripeError(fx.stripe.refunds.create({ payment_intent: pi }));
  expect({ status: e.status, code: e.code, param: e.param }).toEqual({
    status: 400,
    code: "payment_intent_unexpected_state",
    param: "payment_intent",
  });
  const missing = await stripeError(fx.stripe.refunds.create({ payment_intent: "pi_nope" }));
  expect({ status: missing.status, code: missing.code, param: missing.param, message: missing.message }).toEqual({
    status: 404,
    code: "resource_missing",
    param: "payment_intent",
    message: "No such payment_intent: 'pi_nope'",
  });
});

test("the 0259 card pays and a dispute opens after the dispute delay; closing it lost sends charge.dispute.closed", async () => {
  const secret = await setup({ refund_delay_ms: null, dispute_delay_ms: 30 });
  const pi = await paid("4000 0000 0000 0259");
  const created = await verify(fx, await rx.next("charge.dispute.created"), secret);
  const du = created.data.object as Stripe.Dispute;
  expect({
    status: du.status,
    amount: du.amount,
    charge: du.charge,
    payment_intent: du.payment_intent,
    reason: du.reason,
  }).toEqual({
    status: "needs_response",
    amount: 15000,
    charge: pi.latest_charge as string,
    payment_intent: pi.id,
    reason: "fraudulent",
  });
  expect((await fx.stripe.charges.retrieve(pi.latest_charge as string)).disputed).toBe(true);
  const e = await stripeError(fx.stripe.refunds.create({ payment_intent: pi.id }));
  expect({ status: e.status, code: e.code }).toEqual({ status: 400, code: "charge_disputed" });
  expect((await fx.control("POST", `/_sim/disputes/${du.id}/close`, { outcome: "lost" })).status).toBe(200);
  const closed = await verify(fx, await rx.next("charge.dispute.closed"), secret);
  expect((closed.data.object as Stripe.Dispute).status).toBe("lost");
  const read = await fx.stripe.disputes.retrieve(du.id);
  expect({ status: read.status, balance_transactions: read.balance_transactions.map((b) => b.amount) }).toEqual({
    status: "lost",
    balance_transactions: [-15000],
  });
  expect((await fx.control("POST", `/_sim/disputes/${du.id}/close`, { outcome: "won" })).status).toBe(409);
});

test("a dispute opened by control route and won reinstates the amount", async () => {
  const secret = await setup();
  const pi = await paid();
  const opened = await fx.control("POST", `/_sim/payment_intents/${pi.id}/dispute`, { reason: "product_not_received" });
  expect(opened.status).toBe(200);
  expect((await verify(fx, await rx.next("charge.dispute.created"), secret)).type).toBe("charge.dispute.created");
  expect((await fx.control("POST", `/_sim/payment_intents/${pi.id}/dispute`, {})).status).toBe(409);
  const won = await fx.control("POST", `/_sim/disputes/${opened.body.id}/close`, { outcome: "won" });
  expect({ status: won.body.status, reason: won.body.reason }).toEqual({
    status: "won",
    reason: "product_not_received",
  });
  const closed = await verify(fx, await rx.next("charge.dispute.closed"), secret);
  const du = closed.data.object as Stripe.Dispute;
  expect({ status: du.status, amounts: du.balance_transactions.map((b) => b.amount) }).toEqual({
    status: "won",
    amounts: [-15000, 15000],
  });
});

test("a refund still pending at a restart succeeds after it", async () => {
  const secret = await setup({ refund_delay_ms: 150, dispute_delay_ms: null });
  const pi = await paid();
  const re = await fx.stripe.refunds.create({ payment_intent: pi.id, amount: 100 });
  await fx.restart({ settings: undefined });
  const ev = await verify(fx, await rx.next("charge.refund.updated"), secret);
  expect({ id: (ev.data.object as Stripe.Refund).id, status: (ev.data.object as Stripe.Refund).status }).toEqual({
    id: re.id,
    status: "succeeded",
  });
});

test("refunds list by payment_intent, newest first, paginated, and only the key's own", async () => {
  await setup();
  const pi = await paid();
  const other = await paid();
  const a = await fx.stripe.refunds.create({
    payment_intent: pi.id,
    amount: 100,
    metadata: { cofre_refund_id: "rf_a" },
  });
  const b = await fx.stripe.refunds.create({
    payment_intent: pi.id,
    amount: 200,
    metadata: { cofre_refund_id: "rf_b" },
  });
  await fx.stripe.refunds.create({ payment_intent: other.id, amount: 300 });
  const page = await fx.stripe.refunds.list({ payment_intent: pi.id, limit: 1 });
  expect({ ids: page.data.map((r) => r.id), has_more: page.has_more }).toEqual({ ids: [b.id], has_more: true });
  const all: string[] = [];
  for await (const r of fx.stripe.refunds.list({ payment_intent: pi.id, limit: 1 }))
    all.push(r.metadata!.cofre_refund_id!);
  expect(all).toEqual(["rf_b", "rf_a"]);
  expect((await fx.stripe.refunds.list({ charge: pi.latest_charge as string })).data.map((r) => r.id)).toEqual([
    b.id,
    a.id,
  ]);
  expect((await fx.stripe.refunds.list()).data.length).toBe(3);
  const stranger = await fx.control("POST", "/_sim/accounts", {});
  expect((await fx.client(stranger.body.secret_key).refunds.list({ payment_intent: pi.id })).data).toEqual([]);
});
