/**
 * stripe-sim Checkout through the official `stripe` client: a session is created and retrieved,
 * the hosted page takes the test cards (paid, declined, 3-D Secure approved and failed), a paid
 * session sends signed `checkout.session.completed` and `payment_intent.succeeded` events that
 * `stripe.webhooks.constructEvent` accepts, and an expired session sends
 * `checkout.session.expired`.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import Stripe from "stripe";
import {
  createSession,
  listen,
  payWithCard,
  postForm,
  type Receiver,
  type SimFixture,
  startFixture,
  startReceiver,
  verify,
} from "./support";

let fx: SimFixture;
let rx: Receiver;
let secret: string;

beforeEach(async () => {
  fx = await startFixture();
  rx = startReceiver();
  secret = await listen(fx, rx);
});
afterEach(async () => {
  rx.stop();
  await fx.cleanup();
});

test("a created session is open, unpaid, priced from its line items and points at the hosted page", async () => {
  const s = await createSession(fx);
  expect(s.id).toStartWith("cs_test_");
  expect({
    object: s.object,
    mode: s.mode,
    status: s.status,
    payment_status: s.payment_status,
    amount_total: s.amount_total,
    currency: s.currency,
    client_reference_id: s.client_reference_id,
    metadata: s.metadata,
    payment_intent: s.payment_intent,
    livemode: s.livemode,
  }).toEqual({
    object: "checkout.session",
    mode: "payment",
    status: "open",
    payment_status: "unpaid",
    amount_total: 15000,
    currency: "brl",
    client_reference_id: "tx_123",
    metadata: { transaction_id: "tx_123" },
    payment_intent: null,
    livemode: false,
  });
  expect(s.url).toBe(`${fx.sim.origin}/pay/${s.id}`);
  expect(s.expires_at).toBe(Math.floor(fx.clock.nowMs() / 1000) + 86_400);
  expect(await fx.stripe.checkout.sessions.retrieve(s.id)).toEqual(s);
  const page = await fetch(s.url!);
  expect(page.status).toBe(200);
  expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
  const html = await page.text();
  expect(html).toContain('name="number"');
  expect(html).toContain("R$ 150,00");
});

test("the 4242 card pays: redirect to success_url, session complete and paid, signed events", async () => {
  const s = await createSession(fx);
  const r = await payWithCard(s, "4242 4242 4242 4242");
  expect(r.status).toBe(303);
  expect(r.location).toBe(`http://shop.test/ok?session=${s.id}`);
  const done = await fx.stripe.checkout.sessions.retrieve(s.id, {
    expand: ["payment_intent.latest_charge.balance_transaction"],
  });
  expect({ status: done.status, payment_status: done.payment_status }).toEqual({
    status: "complete",
    payment_status: "paid",
  });
  const pi = done.payment_intent as Stripe.PaymentIntent;
  expect({ status: pi.status, amount: pi.amount, amount_received: pi.amount_received }).toEqual({
    status: "succeeded",
    amount: 15000,
    amount_received: 15000,
  });
  const ch = pi.latest_charge as Stripe.Charge;
  expect(ch.payment_method_details!.card!.last4).toBe("4242");
  expect(ch.payment_method_details!.card!.brand).toBe("visa");
  const bt = ch.balance_transaction as Stripe.BalanceTransaction;
  expect({ amount: bt.amount, fee: bt.fee, net: bt.net }).toEqual({ amount: 15000, fee: 599 + 39, net: 15000 - 638 });

  const completed = await verify(fx, await rx.next("checkout.session.completed"), secret);
  expect(completed.type).toBe("checkout.session.completed");
  const obj = completed.data.object as Stripe.Checkout.Session;
  expect({
    id: obj.id,
    payment_status: obj.payment_status,
    payment_intent: obj.payment_intent,
    client_reference_id: obj.client_reference_id,
  }).toEqual({ id: s.id, payment_status: "paid", payment_intent: pi.id, client_reference_id: "tx_123" });
  const succeeded = await verify(fx, await rx.next("payment_intent.succeeded"), secret);
  expect((succeeded.data.object as Stripe.PaymentIntent).id).toBe(pi.id);
  expect<unknown>(await fx.stripe.events.retrieve(completed.id)).toEqual(completed);
});

test("a paid session's page no longer offers the form", async () => {
  const s = await createSession(fx);
  await payWithCard(s, "4242424242424242");
  const html = await (await fetch(s.url!)).text();
  expect(html).toContain('id="complete"');
  expect(html).not.toContain('name="number"');
});

test("the 0002 card is declined: the page says so, the session stays open and a payment_failed event is sent", async () => {
  const s = await createSession(fx);
  const r = await payWithCard(s, "4000 0000 0000 0002");
  expect(r.status).toBe(200);
  expect(r.html).toContain("Cartão recusado");
  expect(r.html).toContain('name="number"');
  const after = await fx.stripe.checkout.sessions.retrieve(s.id, { expand: ["payment_intent"] });
  expect({ status: after.status, payment_status: after.payment_status }).toEqual({
    status: "open",
    payment_status: "unpaid",
  });
  const pi = after.payment_intent as Stripe.PaymentIntent;
  expect({
    status: pi.status,
    code: pi.last_payment_error?.code,
    decline_code: pi.last_payment_error?.decline_code,
  }).toEqual({ status: "requires_payment_method", code: "card_declined", decline_code: "generic_decline" });
  const failed = await verify(fx, await rx.next("payment_intent.payment_failed"), secret);
  expect((failed.data.object as Stripe.PaymentIntent).id).toBe(pi.id);
  // The same session can still be paid, with the same PaymentIntent.
  expect((await payWithCard(s, "4242424242424242")).status).toBe(303);
  const paid = await fx.stripe.checkout.sessions.retrieve(s.id);
  expect({ status: paid.status, payment_intent: paid.payment_intent }).toEqual({
    status: "complete",
    payment_intent: pi.id,
  });
});

test("a card number that fails the Luhn check re-shows the form with 400 and changes nothing", async () => {
  const s = await createSession(fx);
  const r = await payWithCard(s, "4242 4242 4242 4241");
  expect(r.status).toBe(400);
  expect(r.html).toContain("Número de cartão inválido.");
  expect((await fx.stripe.checkout.sessions.retrieve(s.id)).payment_intent).toBeNull();
});

test("the 3184 card asks for 3-D Secure; approving pays", async () => {
  const s = await createSession(fx);
  const r = await payWithCard(s, "4000 0027 6000 3184");
  expect(r.status).toBe(303);
  expect(r.location).toBe(`/pay/${s.id}/3ds`);
  const challenge = await (await fetch(`${fx.sim.origin}${r.location}`)).text();
  expect(challenge).toContain('id="approve"');
  expect(challenge).toContain("3184");
  const mid = await fx.stripe.checkout.sessions.retrieve(s.id, { expand: ["payment_intent"] });
  expect({ status: mid.status, pi: (mid.payment_intent as Stripe.PaymentIntent).status }).toEqual({
    status: "open",
    pi: "requires_action",
  });
  const approved = await postForm(`${fx.sim.origin}${r.location}`, { action: "approve" });
  expect(approved.status).toBe(303);
  expect(approved.location).toBe(`http://shop.test/ok?session=${s.id}`);
  expect((await fx.stripe.checkout.sessions.retrieve(s.id)).payment_status).toBe("paid");
});

test("failing the 3-D Secure step declines the card and leaves the session payable", async () => {
  const s = await createSession(fx);
  const r = await payWithCard(s, "4000002760003184");
  const failed = await postForm(`${fx.sim.origin}${r.location}`, { action: "fail" });
  expect(failed.status).toBe(200);
  expect(failed.html).toContain("3-D Secure falhou");
  const after = await fx.stripe.checkout.sessions.retrieve(s.id, { expand: ["payment_intent"] });
  const pi = after.payment_intent as Stripe.PaymentIntent;
  expect({ status: after.status, pi: pi.status, code: pi.last_payment_error?.code }).toEqual({
    status: "open",
    pi: "requires_payment_method",
    code: "payment_intent_authentication_failure",
  });
  expect((await verify(fx, await rx.next("payment_intent.payment_failed"), secret)).type).toBe(
    "payment_intent.payment_failed",
  );
});

test("expiring an open session through the API sends checkout.session.expired and closes the page", async () => {
  const s = await createSession(fx);
  const expired = await fx.stripe.checkout.sessions.expire(s.id);
  expect({ status: expired.status, url: expired.url }).toEqual({ status: "expired", url: null });
  const ev = await verify(fx, await rx.next("checkout.session.expired"), secret);
  expect((ev.data.object as Stripe.Checkout.Session).id).toBe(s.id);
  const page = await fetch(s.url!);
  expect(page.status).toBe(410);
  expect((await payWithCard(s, "4242424242424242")).status).toBe(410);
  const again = await fx.stripe.checkout.sessions.expire(s.id).catch((e: unknown) => e);
  expect(again).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
  expect({
    status: (again as Stripe.errors.StripeError).statusCode,
    code: (again as Stripe.errors.StripeError).code,
  }).toEqual({ status: 400, code: "checkout_session_not_open" });
});

test("a session past expires_at expires at the next sweep, with its declined PaymentIntent canceled", async () => {
  const s = await createSession(fx, { expires_at: Math.floor(fx.clock.nowMs() / 1000) + 1800 });
  await payWithCard(s, "4000000000000002");
  expect((await fx.control("POST", "/_sim/sweep")).body).toEqual({ expired: 0, boletos_failed: 0 });
  fx.clock.advance(1800);
  expect((await fx.control("POST", "/_sim/sweep")).body).toEqual({ expired: 1, boletos_failed: 0 });
  const after = await fx.stripe.checkout.sessions.retrieve(s.id, { expand: ["payment_intent"] });
  expect({ status: after.status, pi: (after.payment_intent as Stripe.PaymentIntent).status }).toEqual({
    status: "expired",
    pi: "canceled",
  });
  expect((await verify(fx, await rx.next("checkout.session.expired"), secret)).type).toBe("checkout.session.expired");
});

test("the control route pays a session like the hosted page, 3-D Secure answered by its body", async () => {
  const declined = await createSession(fx);
  const d = await fx.control("POST", `/_sim/checkout/sessions/${declined.id}/pay`, { card: "4000000000000002" });
  expect({ status: d.status, outcome: d.body.outcome, session: d.body.session.status }).toEqual({
    status: 200,
    outcome: "declined",
    session: "open",
  });
  const failed3ds = await fx.control("POST", `/_sim/checkout/sessions/${declined.id}/pay`, {
    card: "4000002760003184",
    three_d_secure: "fail",
  });
  expect(failed3ds.body.outcome).toBe("declined");
  const ok = await fx.control("POST", `/_sim/checkout/sessions/${declined.id}/pay`, { card: "4000002760003184" });
  expect({
    outcome: ok.body.outcome,
    status: ok.body.session.status,
    payment_status: ok.body.session.payment_status,
  }).toEqual({ outcome: "paid", status: "complete", payment_status: "paid" });
  expect((await fx.control("POST", `/_sim/checkout/sessions/${declined.id}/pay`, {})).status).toBe(409);
});
