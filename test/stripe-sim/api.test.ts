/**
 * stripe-sim API basics through the official `stripe` client: key checks and per-account
 * isolation, Stripe's error shape for unknown parameters and URLs, `Idempotency-Key` replays and
 * mismatches, webhook endpoints (secret shown once), and the events list filters.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import type Stripe from "stripe";
import { createSession, payWithCard, type SimFixture, startFixture } from "./support";

let fx: SimFixture;
beforeEach(async () => {
  fx = await startFixture();
});
afterEach(() => fx.cleanup());

async function stripeError(p: Promise<unknown>) {
  const e = (await p.then(
    () => null,
    (err: unknown) => err,
  )) as Stripe.errors.StripeError | null;
  if (!e) throw new Error("expected a Stripe error");
  return { cls: e.constructor.name, status: e.statusCode, code: e.code, param: e.param, message: e.message };
}

test("the registered key reads its account; an unknown sk_test_ key answers 401", async () => {
  const acct = await fx.stripe.accounts.retrieveCurrent();
  expect({ id: acct.id, object: acct.object, country: acct.country, charges_enabled: acct.charges_enabled }).toEqual({
    id: fx.sim.accountId,
    object: "account",
    country: "BR",
    charges_enabled: true,
  });
  const e = await stripeError(fx.client("sk_test_0000000000000000000000abcd").accounts.retrieveCurrent());
  expect({ cls: e.cls, status: e.status, message: e.message }).toEqual({
    cls: "StripeAuthenticationError",
    status: 401,
    message: "Invalid API Key provided: sk_test_**********************abcd",
  });
});

test("a second account sees neither the first account's objects nor its events", async () => {
  const other = await fx.control("POST", "/_sim/accounts", { email: "b@example.com" });
  expect(other.status).toBe(201);
  expect(Object.keys(other.body).sort()).toEqual(["id", "secret_key"]);
  const b = fx.client(other.body.secret_key);
  expect((await b.accounts.retrieveCurrent()).id).toBe(other.body.id);
  const s = await createSession(fx);
  const e = await stripeError(b.checkout.sessions.retrieve(s.id));
  expect({ status: e.status, code: e.code, message: e.message }).toEqual({
    status: 404,
    code: "resource_missing",
    message: `No such checkout.session: '${s.id}'`,
  });
  await payWithCard(s, "4242424242424242");
  expect((await fx.stripe.events.list()).data.length).toBe(2);
  expect((await b.events.list()).data).toEqual([]);
});

test("an unknown parameter answers 400 parameter_unknown naming it; a missing one parameter_missing", async () => {
  const unknown = await stripeError(
    createSession(fx, { foo: "bar" } as unknown as Stripe.Checkout.SessionCreateParams),
  );
  expect(unknown).toEqual({
    cls: "StripeInvalidRequestError",
    status: 400,
    code: "parameter_unknown",
    param: "foo",
    message: "Received unknown parameter: foo",
  });
  const missing = await stripeError(createSession(fx, { success_url: undefined }));
  expect({ status: missing.status, code: missing.code, param: missing.param }).toEqual({
    status: 400,
    code: "parameter_missing",
    param: "success_url",
  });
  const badCurrency = await stripeError(
    createSession(fx, {
      line_items: [{ quantity: 1, price_data: { currency: "usd", unit_amount: 100, product_data: { name: "x" } } }],
    }),
  );
  expect({ status: badCurrency.status, param: badCurrency.param }).toEqual({
    status: 400,
    param: "line_items[0][price_data][currency]",
  });
  const shortExpiry = await stripeError(createSession(fx, { expires_at: Math.floor(fx.clock.nowMs() / 1000) + 60 }));
  expect({ status: shortExpiry.status, param: shortExpiry.param }).toEqual({ status: 400, param: "expires_at" });
});

test("an unknown URL answers 404 in Stripe's shape", async () => {
  const res = await fetch(`${fx.sim.origin}/v1/customers`, {
    headers: { authorization: `Bearer ${fx.sim.secretKey}` },
  });
  expect(res.status).toBe(404);
  expect(await res.json()).toEqual({
    error: {
      type: "invalid_request_error",
      message:
        "Unrecognized request URL (GET: /v1/customers). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.",
    },
  });
});

test("the same Idempotency-Key and parameters answer the first session again; other parameters answer idempotency_error", async () => {
  const first = await createSession(fx, {}, fx.stripe, { idempotencyKey: "tx_123-create" });
  const again = await createSession(fx, {}, fx.stripe, { idempotencyKey: "tx_123-create" });
  expect(again.id).toBe(first.id);
  expect(again.lastResponse.idempotencyKey).toBe("tx_123-create");
  expect((await fx.stripe.checkout.sessions.list()).data.length).toBe(1);
  const e = await stripeError(
    createSession(fx, { client_reference_id: "tx_999" }, fx.stripe, { idempotencyKey: "tx_123-create" }),
  );
  expect({ cls: e.cls, status: e.status }).toEqual({ cls: "StripeIdempotencyError", status: 400 });
  const fresh = await createSession(fx, {}, fx.stripe, { idempotencyKey: "tx_123-create-2" });
  expect(fresh.id).not.toBe(first.id);
});

test("a refund retried with its idempotency key is created once", async () => {
  const s = await createSession(fx);
  await payWithCard(s, "4242424242424242");
  const pi = (await fx.stripe.checkout.sessions.retrieve(s.id)).payment_intent as string;
  const a = await fx.stripe.refunds.create({ payment_intent: pi, amount: 1000 }, { idempotencyKey: "rf_1" });
  const b = await fx.stripe.refunds.create({ payment_intent: pi, amount: 1000 }, { idempotencyKey: "rf_1" });
  expect(b.id).toBe(a.id);
  expect(
    (await fx.stripe.charges.retrieve((await fx.stripe.paymentIntents.retrieve(pi)).latest_charge as string))
      .amount_refunded,
  ).toBe(1000);
});

test("a webhook endpoint shows its whsec secret only when created, and can be deleted", async () => {
  const ep = await fx.stripe.webhookEndpoints.create({
    url: "http://127.0.0.1:9/hook",
    enabled_events: ["checkout.session.completed"],
  });
  expect(ep.secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
  expect({ status: ep.status, enabled_events: ep.enabled_events, url: ep.url }).toEqual({
    status: "enabled",
    enabled_events: ["checkout.session.completed"],
    url: "http://127.0.0.1:9/hook",
  });
  const list = await fx.stripe.webhookEndpoints.list();
  expect(list.data.map((e) => e.id)).toEqual([ep.id]);
  expect(list.data[0]!.secret).toBeUndefined();
  const del = await fx.stripe.webhookEndpoints.del(ep.id);
  expect({ id: del.id, deleted: del.deleted }).toEqual({ id: ep.id, deleted: true });
  expect((await fx.stripe.webhookEndpoints.list()).data).toEqual([]);
  const bad = await stripeError(fx.stripe.webhookEndpoints.create({ url: "ftp://x", enabled_events: ["*"] }));
  expect({ status: bad.status, param: bad.param }).toEqual({ status: 400, param: "url" });
});

test("the events list filters by type (with wildcards) and created, newest first, with cursor pagination", async () => {
  const t0 = Math.floor(fx.clock.nowMs() / 1000);
  const s1 = await createSession(fx);
  await payWithCard(s1, "4242424242424242"); // payment_intent.succeeded, checkout.session.completed at t0
  fx.clock.advance(60);
  const s2 = await createSession(fx);
  await fx.stripe.checkout.sessions.expire(s2.id); // checkout.session.expired at t0+60
  const all = await fx.stripe.events.list({ limit: 10 });
  expect(all.data.map((e) => e.type)).toEqual([
    "checkout.session.expired",
    "checkout.session.completed",
    "payment_intent.succeeded",
  ]);
  expect((await fx.stripe.events.list({ type: "checkout.session.*" })).data.map((e) => e.type)).toEqual([
    "checkout.session.expired",
    "checkout.session.completed",
  ]);
  expect(
    (await fx.stripe.events.list({ types: ["payment_intent.succeeded", "checkout.session.expired"] })).data.length,
  ).toBe(2);
  expect((await fx.stripe.events.list({ created: { gte: t0 + 60 } })).data.map((e) => e.type)).toEqual([
    "checkout.session.expired",
  ]);
  expect((await fx.stripe.events.list({ created: { lt: t0 + 60 } })).data.length).toBe(2);
  const page1 = await fx.stripe.events.list({ limit: 2 });
  expect(page1.has_more).toBe(true);
  const page2 = await fx.stripe.events.list({ limit: 2, starting_after: page1.data[1]!.id });
  expect({ types: page2.data.map((e) => e.type), has_more: page2.has_more }).toEqual({
    types: ["payment_intent.succeeded"],
    has_more: false,
  });
  const missing = await stripeError(fx.stripe.events.retrieve("evt_nope"));
  expect({ status: missing.status, code: missing.code }).toEqual({ status: 404, code: "resource_missing" });
});

test("a replayed answer carries Idempotent-Replayed: true", async () => {
  const body =
    "mode=payment&line_items[0][quantity]=1&line_items[0][price_data][currency]=brl&line_items[0][price_data][unit_amount]=1000&line_items[0][price_data][product_data][name]=x&success_url=http://a.test/";
  const post = () =>
    fetch(`${fx.sim.origin}/v1/checkout/sessions`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${fx.sim.secretKey}`,
        "idempotency-key": "raw-1",
        "content-type": "application/x-www-form-urlencoded",
      },
      body,
    });
  const first = await post();
  const second = await post();
  expect([first.status, second.status]).toEqual([200, 200]);
  expect([first.headers.get("idempotent-replayed"), second.headers.get("idempotent-replayed")]).toEqual([null, "true"]);
  expect((await second.json()).id).toBe((await first.json()).id);
});

test("expand follows ids level by level and refuses a field that cannot be expanded", async () => {
  const s = await createSession(fx);
  await payWithCard(s, "4242424242424242");
  const pi = (await fx.stripe.checkout.sessions.retrieve(s.id)).payment_intent as string;
  const read = await fx.stripe.paymentIntents.retrieve(pi, { expand: ["latest_charge.balance_transaction"] });
  expect(((read.latest_charge as Stripe.Charge).balance_transaction as Stripe.BalanceTransaction).object).toBe(
    "balance_transaction",
  );
  const e = await stripeError(fx.stripe.paymentIntents.retrieve(pi, { expand: ["metadata"] }));
  expect({ status: e.status, param: e.param, message: e.message }).toEqual({
    status: 400,
    param: "expand",
    message: "This property cannot be expanded (metadata).",
  });
});

test("sessions list by payment_intent and by status", async () => {
  const paid = await createSession(fx);
  await payWithCard(paid, "4242424242424242");
  const open = await createSession(fx);
  const pi = (await fx.stripe.checkout.sessions.retrieve(paid.id)).payment_intent as string;
  expect((await fx.stripe.checkout.sessions.list({ payment_intent: pi })).data.map((s) => s.id)).toEqual([paid.id]);
  expect((await fx.stripe.checkout.sessions.list({ status: "open" })).data.map((s) => s.id)).toEqual([open.id]);
  expect((await fx.stripe.checkout.sessions.list()).data.map((s) => s.id)).toEqual([open.id, paid.id]);
});

test("control routes answer 404 for an unknown route or object, 409 for a wrong state and 400 for a bad body", async () => {
  expect((await fx.control("POST", "/_sim/nope")).status).toBe(404);
  expect((await fx.control("POST", "/_sim/payment_intents/pi_nope/pay")).status).toBe(404);
  expect((await fx.control("POST", "/_sim/disputes/du_nope/close", { outcome: "won" })).status).toBe(404);
  expect((await fx.control("POST", "/_sim/disputes/du_nope/close", { outcome: "maybe" })).status).toBe(400);
  expect((await fx.control("POST", "/_sim/events/drop", { count: -1 })).status).toBe(400);
  expect((await fx.control("POST", "/_sim/settings", { refund_delay: 1 })).status).toBe(400);
  const s = await createSession(fx);
  await fx.stripe.checkout.sessions.expire(s.id);
  const r = await fx.control("POST", `/_sim/checkout/sessions/${s.id}/pay`, {});
  expect(r).toEqual({
    status: 409,
    body: { error: { type: "invalid_request_error", message: `checkout.session ${s.id} is expired` } },
  });
});

test("objects, keys and settings survive a restart on the same folder", async () => {
  const s = await createSession(fx);
  await fx.control("POST", "/_sim/settings", { refund_delay_ms: 5000 });
  const key = fx.sim.secretKey;
  await fx.restart({ settings: undefined });
  expect(fx.sim.secretKey).toBe(key);
  expect((await fx.stripe.checkout.sessions.retrieve(s.id)).status).toBe("open");
  expect((await fx.control("GET", "/_sim/state")).body.settings.refund_delay_ms).toBe(5000);
});
