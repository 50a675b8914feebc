/**
 * Live card payments through a Stripe connection (extensions.md "Live cards and boletos through
 * Stripe"; issue 26 §2, §5) against `cofre stripe-sim`: the Checkout Session behind a live
 * CREDIT_CARD payment, the payer's card paid through the simulator's control route (the hosted
 * page in Chromium is test/card-provider/browser.test.ts), signed events confirmed by retrieving
 * the session, decline, expiry, cancel, partial / full / failed refunds with the balance, and
 * forged webhooks that change nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { openCardConnection } from "../../src/domain/card-provider/secrets";
import { sweepCardEvents } from "../../src/domain/card-provider/events";
import { Webhook } from "standardwebhooks";
import { register, startReceiver, type Receiver } from "../webhooks/support";
import { signatureHeader } from "../../src/stripe-sim/webhooks";
import { testDb } from "../support/test-db";
import { eventsTaken, livePayment, startCardEnv, txRow, type CardEnv } from "./support";

let env: CardEnv;
let rx: Receiver;
let endpoint: { secret: string };
beforeAll(async () => {
  env = await startCardEnv();
  rx = startReceiver();
  endpoint = await register(env.h, env.account.liveKey, rx.url, ["payment.completed"]);
});
afterAll(async () => {
  rx.stop();
  await env.stop();
});

/** The card details Cofre keeps for transaction `id` (session, payment intent, charge, brand...). */
async function cardDetails(id: string): Promise<Record<string, any>> {
  return JSON.parse((await txRow(env, id))!.methodDetails).CREDIT_CARD ?? {};
}

/** A live card payment of `amount`, created and checked. */
async function createCard(amount = 5000, metadata: Record<string, unknown> = {}) {
  const r = await livePayment(env, { amount, metadata });
  expect(r.status).toBe(201);
  expect(r.body.status).toBe("WAITING_PAYMENT");
  return r.body.id as string;
}

/** Pays the session of `id` with `card` by the simulator's control route. */
async function pay(id: string, card = "4242424242424242") {
  const session = (await cardDetails(id)).session;
  return env.control("POST", `/_sim/checkout/sessions/${session}/pay`, { card });
}

const status = async (id: string) => (await txRow(env, id))!.status;
const until = (id: string, s: string) => env.settle(async () => (await status(id)) === s);
const balance = async () =>
  (await env.h.call("GET", "/v1/wallets/balance?currency=BRL", { key: env.account.liveKey })).body;
/** Events of the outbox of transaction `id`, oldest first. */
async function outboxTypes(id: string): Promise<string[]> {
  const rows = await testDb(env.h.deps).all<{ type: string }>(
    "select type from events where transaction_id = ? order by created_at, id",
    id,
  );
  return rows.map((r) => r.type);
}

describe("creating a live card payment", () => {
  test("opens a Checkout Session in BRL for the amount, referencing the transaction, and the checkout page links to it", async () => {
    const id = await createCard(4321, { returnUrl: "https://loja.example.com/obrigado", description: "Pedido 42" });
    const got = await env.h.call("GET", `/v1/payments/${id}`, { key: env.account.liveKey });
    expect(got.body.cardRedirectUrl).toBe(`${env.base}/c/${id}`);
    const d = await cardDetails(id);
    expect(d.session).toMatch(/^cs_/);
    const s = await fetch(`${env.sim.origin}/v1/checkout/sessions/${d.session}`, {
      headers: { authorization: `Bearer ${env.sim.secretKey}` },
    }).then((x) => x.json() as any);
    expect([s.mode, s.currency, s.amount_total, s.client_reference_id, s.success_url, s.cancel_url, s.status]).toEqual([
      "payment",
      "brl",
      4321,
      id,
      "https://loja.example.com/obrigado",
      `${env.base}/c/${id}`,
      "open",
    ]);
    const page = await fetch(`${env.base}/c/${id}`).then((x) => x.text());
    expect(page).toContain(`href="${d.sessionUrl}"`);
    expect(page).toContain("Pagar com cartão");
    const row = (await txRow(env, id))!;
    expect(row.providerConnectionId).toBe(env.connection.id);
    expect(row.expiresAt).toBe(s.expires_at * 1000);
  });

  test("without metadata.returnUrl the session returns the payer to the checkout page", async () => {
    const id = await createCard();
    const d = await cardDetails(id);
    const s = await fetch(`${env.sim.origin}/v1/checkout/sessions/${d.session}`, {
      headers: { authorization: `Bearer ${env.sim.secretKey}` },
    }).then((x) => x.json() as any);
    expect(s.success_url).toBe(`${env.base}/c/${id}?retorno=1`);
  });

  test("a live card payment in another currency is 400 on currency (Stripe takes BRL here)", async () => {
    const r = await livePayment(env, { currency: "EUR" });
    expect(r.status).toBe(400);
    expect(r.body.error.param).toBe("currency");
  });
});

describe("paying", () => {
  test("a paid card lands APPROVED with payment.completed, card brand and last four kept, Stripe's fee stored and never returned", async () => {
    const before = await balance();
    const id = await createCard(10000);
    const r = await pay(id);
    expect(r.body.outcome).toBe("paid");
    await until(id, "APPROVED");
    const got = await env.h.call("GET", `/v1/payments/${id}`, { key: env.account.liveKey });
    expect([got.body.status, got.body.paidWith]).toEqual(["APPROVED", "CREDIT_CARD"]);
    expect(got.body.card).toEqual({ brand: "visa", last4: "4242", installments: null });
    expect(got.text).not.toContain("providerFee");
    expect(got.text).not.toContain("pi_");
    const d = await cardDetails(id);
    expect([d.brand, d.last4, typeof d.providerFee, d.paymentIntent.startsWith("pi_")]).toEqual([
      "visa",
      "4242",
      "number",
      true,
    ]);
    expect(d.providerFee).toBe(Math.round(10000 * 0.0399) + 39);
    expect(await outboxTypes(id)).toContain("payment.completed");
    // The merchant's endpoint receives payment.completed signed (Standard Webhooks headers).
    const got2 = await env.settle(async () => rx.requests.find((q) => q.body.includes(id)));
    const wh = new Webhook(Buffer.from(endpoint.secret).toString("base64"));
    const event = wh.verify(got2.body, got2.headers) as {
      event: string;
      data: { transactionId: string; status: string };
    };
    expect([event.event, event.data.transactionId, event.data.status]).toEqual(["payment.completed", id, "APPROVED"]);
    const after = await balance();
    expect(after.available + after.pending - (before.available + before.pending)).toBe(
      10000 - (got.body.platformFee ?? 0),
    );
  });

  test("a declined card leaves the payment payable, and a good card then pays it", async () => {
    const id = await createCard();
    const r = await pay(id, "4000000000000002");
    expect(r.body.outcome).toBe("declined");
    // The decline's event is taken (and confirmed by retrieving the session: still open).
    await env.settle(async () => (await eventsTaken(env, "payment_intent.payment_failed")) > 0);
    expect(await status(id)).toBe("WAITING_PAYMENT");
    // Hints pull a payment's check to now at most once a second (notifications.ts HINT_CHECK_INTERVAL_MS).
    env.h.clock.advance(1);
    await pay(id);
    await until(id, "APPROVED");
  });

  test("a card with a 3-D Secure challenge that passes is APPROVED", async () => {
    const id = await createCard();
    const r = await pay(id, "4000002760003184");
    expect(r.body.outcome).toBe("paid");
    await until(id, "APPROVED");
  });

  test("a session that expires unpaid expires the payment", async () => {
    const id = await createCard();
    const session = (await cardDetails(id)).session;
    expect((await env.control("POST", `/_sim/checkout/sessions/${session}/expire`)).status).toBe(200);
    await until(id, "EXPIRED");
  });

  test("cancelling the payment expires its session at Stripe", async () => {
    const id = await createCard();
    const r = await env.h.call("POST", `/v1/payments/${id}/cancel`, { key: env.account.liveKey });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe("CANCELLED");
    const session = (await cardDetails(id)).session;
    const s = await fetch(`${env.sim.origin}/v1/checkout/sessions/${session}`, {
      headers: { authorization: `Bearer ${env.sim.secretKey}` },
    }).then((x) => x.json() as any);
    expect(s.status).toBe("expired");
  });

  test("a missed webhook is caught by the periodic list of Stripe's recent events", async () => {
    const id = await createCard();
    expect((await env.control("POST", "/_sim/events/drop", { count: 10 })).status).toBe(200);
    await pay(id);
    expect((await env.control("POST", "/_sim/events/drop", { count: 0 })).status).toBe(200);
    expect(await status(id)).toBe("WAITING_PAYMENT");
    expect(await sweepCardEvents(env.h.deps)).toBeGreaterThan(0);
    await until(id, "APPROVED");
    // A second sweep lists the same events again and takes none of them twice.
    expect(await sweepCardEvents(env.h.deps)).toBe(0);
  });

  test("a missed webhook is caught by the status poll", async () => {
    const id = await createCard();
    expect((await env.control("POST", "/_sim/events/drop", { count: 10 })).status).toBe(200);
    await pay(id);
    expect((await env.control("POST", "/_sim/events/drop", { count: 0 })).status).toBe(200);
    expect(await status(id)).toBe("WAITING_PAYMENT");
    env.h.clock.advance(61);
    await until(id, "APPROVED");
  });
});

describe("refunds", () => {
  /** A paid card payment of `amount`. */
  async function paidCard(amount: number) {
    const id = await createCard(amount);
    await pay(id);
    await until(id, "APPROVED");
    return id;
  }
  /** Stripe's refunds of the payment's charge. */
  async function stripeRefunds(id: string): Promise<any[]> {
    const charge = (await cardDetails(id)).charge;
    const c = await fetch(`${env.sim.origin}/v1/charges/${charge}`, {
      headers: { authorization: `Bearer ${env.sim.secretKey}` },
    }).then((x) => x.json() as any);
    return c.refunds.data;
  }
  const refund = (id: string, body: Record<string, unknown>) =>
    env.h.call("POST", `/v1/payments/${id}/refund`, {
      key: env.account.liveKey,
      body: { idempotencyKey: `refund-${crypto.randomUUID()}`, ...body },
    });
  const refundStatus = async (refundId: string) => (await env.h.deps.store.read.refunds.byId(refundId))!.status;

  test("a partial then a full refund reach REFUNDED, each one Stripe refund keyed by the refund id", async () => {
    const id = await paidCard(8000);
    const a = await refund(id, { amount: 3000 });
    expect(a.status).toBe(201);
    await env.settle(async () => (await refundStatus(a.body.id)) === "IN_PROGRESS");
    const [sr] = await stripeRefunds(id);
    expect([sr.amount, sr.status, sr.metadata.cofre_refund_id]).toEqual([3000, "pending", a.body.id]);
    await env.control("POST", `/_sim/refunds/${sr.id}/succeed`);
    await env.settle(async () => (await refundStatus(a.body.id)) === "REFUNDED");
    expect(await status(id)).toBe("APPROVED");
    const b = await refund(id, {});
    expect([b.status, b.body.amount]).toEqual([201, 5000]);
    await env.settle(async () => (await stripeRefunds(id)).length === 2);
    const second = (await stripeRefunds(id)).find((r) => r.metadata.cofre_refund_id === b.body.id);
    await env.control("POST", `/_sim/refunds/${second.id}/succeed`);
    await env.settle(async () => (await refundStatus(b.body.id)) === "REFUNDED");
    await until(id, "REFUNDED");
  });

  test("a refund Stripe fails is FAILED and the balance is restored", async () => {
    const id = await paidCard(6000);
    const before = await balance();
    const a = await refund(id, { amount: 2000 });
    expect(a.status).toBe(201);
    const during = await balance();
    expect(during.available + during.pending - (before.available + before.pending)).toBe(-2000);
    await env.settle(async () => (await refundStatus(a.body.id)) === "IN_PROGRESS");
    const [sr] = await stripeRefunds(id);
    await env.control("POST", `/_sim/refunds/${sr.id}/fail`, { failure_reason: "expired_or_canceled_card" });
    await env.settle(async () => (await refundStatus(a.body.id)) === "FAILED");
    const after = await balance();
    expect(after.available + after.pending).toBe(before.available + before.pending);
    expect(await status(id)).toBe("APPROVED");
  });

  test("cashout options do not apply to a card refund: 400 REFUND_NOT_SUPPORTED", async () => {
    const id = await paidCard(1500);
    const r = await refund(id, { strategy: "cashout" });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe("REFUND_NOT_SUPPORTED");
  });
});

describe("forged webhooks", () => {
  const hook = () => `${env.base}/v1/provider-webhooks/stripe/${env.connection.id}`;

  test("a bad signature is 400 and changes nothing", async () => {
    const id = await createCard();
    const body = JSON.stringify({
      id: "evt_forged",
      object: "event",
      type: "checkout.session.completed",
      data: {
        object: {
          id: "cs_x",
          object: "checkout.session",
          client_reference_id: id,
          payment_status: "paid",
          status: "complete",
        },
      },
    });
    const r = await fetch(hook(), {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "stripe-signature": signatureHeader(body, "whsec_wrong", Math.floor(env.h.clock.nowMs() / 1000)),
      },
      body,
    });
    expect(r.status).toBe(400);
    const none = await fetch(hook(), { method: "POST", headers: { "content-type": "application/json" }, body });
    expect(none.status).toBe(400);
    await env.h.deps.jobs.drain();
    expect(await status(id)).toBe("WAITING_PAYMENT");
  });

  test("an event Stripe never sent, signed with the right secret, is only a hint: the session is still open, so nothing changes", async () => {
    const id = await createCard();
    const row = (await env.h.deps.store.read.cardProvider.byId(env.connection.id))!;
    const spec = await openCardConnection(await env.h.deps.secretsKey, row);
    const body = JSON.stringify({
      id: "evt_unknown_1",
      object: "event",
      type: "checkout.session.completed",
      created: 1,
      data: {
        object: {
          id: "cs_x",
          object: "checkout.session",
          client_reference_id: id,
          payment_status: "paid",
          status: "complete",
        },
      },
    });
    const r = await fetch(hook(), {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "stripe-signature": signatureHeader(body, spec.webhookSecret, Math.floor(env.h.clock.nowMs() / 1000)),
      },
      body,
    });
    expect(r.status).toBe(200);
    await env.h.deps.jobs.drain();
    expect(await status(id)).toBe("WAITING_PAYMENT");
  });

  test("an unknown connection is 404", async () => {
    const r = await fetch(`${env.base}/v1/provider-webhooks/stripe/cpc_00000000000000000000000000000000`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(r.status).toBe(404);
  });
});
