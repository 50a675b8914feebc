/**
 * stripe-sim boletos through the official `stripe` client: a confirmed boleto PaymentIntent
 * answers `requires_action` with a well-formed voucher (number, hosted page, PDF, expiry), a
 * missing payer field answers 400 naming it, the control route pays it (`payment_intent.succeeded`,
 * boleto fee) or expires it (`payment_intent.payment_failed`), a paid boleto cannot be refunded,
 * and a boleto chosen on the hosted Checkout page completes the session unpaid and then sends
 * `checkout.session.async_payment_succeeded` when paid.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import boletoUtils from "@mrmgomes/boleto-utils";
import type Stripe from "stripe";
import {
  boletoParams,
  createSession,
  listen,
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

function html_due(html: string): string | undefined {
  return /id="due">([^<]+)</.exec(html)?.[1];
}

async function stripeError(p: Promise<unknown>) {
  const e = (await p.then(
    () => null,
    (err: unknown) => err,
  )) as Stripe.errors.StripeError | null;
  if (!e) throw new Error("expected a Stripe error");
  return { status: e.statusCode, code: e.code, param: e.param };
}

test("a confirmed boleto PaymentIntent waits for payment with a valid voucher", async () => {
  const pi = await fx.stripe.paymentIntents.create(boletoParams(25000));
  expect({
    status: pi.status,
    amount: pi.amount,
    payment_method_types: pi.payment_method_types,
    metadata: pi.metadata,
  }).toEqual({
    status: "requires_action",
    amount: 25000,
    payment_method_types: ["boleto"],
    metadata: { transaction_id: "tx_boleto" },
  });
  const d = pi.next_action!.boleto_display_details!;
  expect(pi.next_action!.type).toBe("boleto_display_details");
  expect(d.number).toMatch(/^\d{47}$/);
  expect(boletoUtils.validarBoleto(d.number!).sucesso).toBe(true);
  // START is 2026-11-20 09:00 in São Paulo: due 2026-11-23, expiring at 23:59:59 there.
  expect(d.expires_at).toBe(Date.parse("2026-11-24T02:59:59Z") / 1000);
  expect(html_due(await (await fetch(d.hosted_voucher_url!)).text())).toBe("23/11/2026");
  expect(d.hosted_voucher_url).toBe(`${fx.sim.origin}/boleto/${pi.id}`);
  const html = await (await fetch(d.hosted_voucher_url!)).text();
  expect(html).toContain(d.number!);
  const pdf = await fetch(d.pdf!);
  expect(pdf.status).toBe(200);
  expect(pdf.headers.get("content-type")).toBe("application/pdf");
  expect(new TextDecoder().decode((await pdf.arrayBuffer()).slice(0, 8))).toBe("%PDF-1.4");
});

test("a boleto without the payer's address line answers 400 parameter_missing naming it", async () => {
  const params = boletoParams();
  delete (params.payment_method_data!.billing_details!.address as { line1?: string }).line1;
  expect(await stripeError(fx.stripe.paymentIntents.create(params))).toEqual({
    status: 400,
    code: "parameter_missing",
    param: "payment_method_data[billing_details][address][line1]",
  });
  const badTax = boletoParams();
  badTax.payment_method_data!.boleto = { tax_id: "123" };
  expect(await stripeError(fx.stripe.paymentIntents.create(badTax))).toEqual({
    status: 400,
    code: "invalid_tax_id",
    param: "payment_method_data[boleto][tax_id]",
  });
});

test("paying the boleto by control route succeeds it with the boleto fee; it cannot be refunded", async () => {
  const pi = await fx.stripe.paymentIntents.create(boletoParams(25000));
  const r = await fx.control("POST", `/_sim/payment_intents/${pi.id}/pay`);
  expect({ status: r.status, pi: r.body.status }).toEqual({ status: 200, pi: "succeeded" });
  const ev = await verify(fx, await rx.next("payment_intent.succeeded"), secret);
  expect((ev.data.object as Stripe.PaymentIntent).id).toBe(pi.id);
  const read = await fx.stripe.paymentIntents.retrieve(pi.id, { expand: ["latest_charge.balance_transaction"] });
  const ch = read.latest_charge as Stripe.Charge;
  expect({
    type: ch.payment_method_details!.type,
    tax_id: ch.payment_method_details!.boleto!.tax_id,
    fee: (ch.balance_transaction as Stripe.BalanceTransaction).fee,
  }).toEqual({ type: "boleto", tax_id: "52998224725", fee: 345 });
  expect(await stripeError(fx.stripe.refunds.create({ payment_intent: pi.id }))).toEqual({
    status: 400,
    code: "charge_not_refundable",
    param: "payment_intent",
  });
  expect((await fx.control("POST", `/_sim/payment_intents/${pi.id}/pay`)).status).toBe(409);
});

test("a boleto that expires unpaid goes back to requires_payment_method with payment_intent.payment_failed", async () => {
  const pi = await fx.stripe.paymentIntents.create(boletoParams());
  expect((await fx.control("POST", `/_sim/payment_intents/${pi.id}/fail`)).status).toBe(200);
  const ev = await verify(fx, await rx.next("payment_intent.payment_failed"), secret);
  expect((ev.data.object as Stripe.PaymentIntent).status).toBe("requires_payment_method");
});

test("a boleto still unpaid after its due date fails at the sweep", async () => {
  const pi = await fx.stripe.paymentIntents.create(boletoParams());
  const expiresAt = pi.next_action!.boleto_display_details!.expires_at!;
  fx.clock.advance(expiresAt - 1 - Math.floor(fx.clock.nowMs() / 1000));
  expect((await fx.control("POST", "/_sim/sweep")).body).toEqual({ expired: 0, boletos_failed: 0 });
  fx.clock.advance(1);
  expect((await fx.control("POST", "/_sim/sweep")).body).toEqual({ expired: 0, boletos_failed: 1 });
  const ev = await verify(fx, await rx.next("payment_intent.payment_failed"), secret);
  expect({
    id: (ev.data.object as Stripe.PaymentIntent).id,
    status: (ev.data.object as Stripe.PaymentIntent).status,
  }).toEqual({ id: pi.id, status: "requires_payment_method" });
  expect((await fx.control("POST", "/_sim/sweep")).body).toEqual({ expired: 0, boletos_failed: 0 });
});

test("a waiting boleto can be canceled; a paid one cannot", async () => {
  const pi = await fx.stripe.paymentIntents.create(boletoParams());
  const canceled = await fx.stripe.paymentIntents.cancel(pi.id);
  expect({ status: canceled.status, canceled_at: canceled.canceled_at }).toEqual({
    status: "canceled",
    canceled_at: Math.floor(fx.clock.nowMs() / 1000),
  });
  const other = await fx.stripe.paymentIntents.create(boletoParams());
  await fx.control("POST", `/_sim/payment_intents/${other.id}/pay`);
  expect(await stripeError(fx.stripe.paymentIntents.cancel(other.id))).toEqual({
    status: 400,
    code: "payment_intent_unexpected_state",
    param: undefined,
  });
});

test("a boleto chosen on the hosted page completes the session unpaid, then async_payment_succeeded when paid", async () => {
  const s = await createSession(fx, { allowed_payment_method_types: ["card", "boleto"] });
  const page = await (await fetch(s.url!)).text();
  expect(page).toContain('id="boleto-form"');
  const r = await postForm(s.url!, {
    method: "boleto",
    name: "Maria Silva",
    email: "maria@example.com",
    tax_id: "529.982.247-25",
    line1: "Rua A, 10",
    city: "São Paulo",
    state: "SP",
    postal_code: "01001-000",
  });
  expect(r.status).toBe(303);
  expect(r.location).toStartWith("/boleto/pi_");
  const completed = await verify(fx, await rx.next("checkout.session.completed"), secret);
  const cs = completed.data.object as Stripe.Checkout.Session;
  expect({ status: cs.status, payment_status: cs.payment_status }).toEqual({
    status: "complete",
    payment_status: "unpaid",
  });
  const pi = cs.payment_intent as string;
  expect((await fx.stripe.paymentIntents.retrieve(pi)).status).toBe("requires_action");
  await fx.control("POST", `/_sim/payment_intents/${pi}/pay`);
  const asyncPaid = await verify(fx, await rx.next("checkout.session.async_payment_succeeded"), secret);
  expect((asyncPaid.data.object as Stripe.Checkout.Session).payment_status).toBe("paid");
});

test("a boleto chosen on the hosted page that expires unpaid sends checkout.session.async_payment_failed", async () => {
  const s = await createSession(fx, { allowed_payment_method_types: ["boleto"] });
  const page = await (await fetch(s.url!)).text();
  expect(page).toContain('id="boleto-form"');
  const card = await postForm(s.url!, { method: "card", number: "4242424242424242", exp: "12/34", cvc: "123" });
  expect({ status: card.status, refused: card.html.includes("Esta sessão não aceita cartão.") }).toEqual({
    status: 400,
    refused: true,
  });
  const missing = await postForm(s.url!, {
    method: "boleto",
    name: "Maria Silva",
    email: "maria@example.com",
    tax_id: "52998224725",
  });
  expect({ status: missing.status, says: missing.html.includes("Preencha todos os campos do boleto.") }).toEqual({
    status: 400,
    says: true,
  });
  await postForm(s.url!, {
    method: "boleto",
    name: "Maria Silva",
    email: "maria@example.com",
    tax_id: "52998224725",
    line1: "Rua A, 10",
    city: "São Paulo",
    state: "SP",
    postal_code: "01001-000",
  });
  const pi = (await fx.stripe.checkout.sessions.retrieve(s.id)).payment_intent as string;
  expect((await fx.control("POST", `/_sim/payment_intents/${pi}/fail`)).status).toBe(200);
  const ev = await verify(fx, await rx.next("checkout.session.async_payment_failed"), secret);
  expect({
    id: (ev.data.object as Stripe.Checkout.Session).id,
    payment_status: (ev.data.object as Stripe.Checkout.Session).payment_status,
  }).toEqual({ id: s.id, payment_status: "unpaid" });
});
