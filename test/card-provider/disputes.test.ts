/**
 * Card disputes through a Stripe connection (extensions.md "Live cards and boletos through
 * Stripe"; issue 26 §2, §5) against `cofre stripe-sim`: `charge.dispute.created` (confirmed by
 * retrieving the dispute) opens a MED case of type `dispute` holding the amount and moves the
 * payment to DISPUTE; a dispute won returns the money and the payment to APPROVED (case `closed`,
 * `refunded_to_merchant`); a dispute lost makes it CHARGEBACK (case `rejected`, `money_outcome`
 * `lost`). The balance is read before and after each step.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { livePayment, startCardEnv, txRow, type CardEnv } from "./support";

let env: CardEnv;
beforeAll(async () => {
  env = await startCardEnv();
});
afterAll(async () => {
  await env.stop();
});

const status = async (id: string) => (await txRow(env, id))!.status;
/** available + pending, centavos. */
const total = async () => {
  const b = (await env.h.call("GET", "/v1/wallets/balance?currency=BRL", { key: env.account.liveKey })).body;
  return b.available + b.pending;
};
const cases = async () => (await env.h.call("GET", "/v1/med/cases", { key: env.account.liveKey })).body.data as any[];

/** A paid card payment of `amount` with the card that is later disputed; its PaymentIntent id. */
async function paidDisputable(amount: number): Promise<{ id: string; pi: string }> {
  const r = await livePayment(env, { amount });
  expect(r.status).toBe(201);
  const session = JSON.parse((await txRow(env, r.body.id))!.methodDetails).CREDIT_CARD.session;
  expect(
    (await env.control("POST", `/_sim/checkout/sessions/${session}/pay`, { card: "4000000000000259" })).body.outcome,
  ).toBe("paid");
  await env.settle(async () => (await status(r.body.id)) === "APPROVED");
  const pi = JSON.parse((await txRow(env, r.body.id))!.methodDetails).CREDIT_CARD.paymentIntent as string;
  return { id: r.body.id, pi };
}

/** Opens a dispute at Stripe on `pi`, waits for Cofre's case; returns Stripe's dispute id and the case. */
async function dispute(id: string, pi: string) {
  const d = await env.control("POST", `/_sim/payment_intents/${pi}/dispute`, { reason: "fraudulent" });
  expect(d.status).toBe(200);
  const disputeId = (d.body.dispute ?? d.body).id as string;
  const c = await env.settle(async () => (await cases()).find((x) => x.charge_id === `ch_${id}`));
  return { disputeId, medCase: c };
}

describe("a dispute", () => {
  test("opening holds the amount in a MED case of type dispute and the payment becomes DISPUTE", async () => {
    const { id, pi } = await paidDisputable(7000);
    const before = await total();
    const { medCase } = await dispute(id, pi);
    await env.settle(async () => (await status(id)) === "DISPUTE");
    expect([medCase.type, medCase.status, medCase.amount]).toEqual(["dispute", "open", 7000]);
    expect((await total()) - before).toBe(-7000);
    const got = await env.h.call("GET", `/v1/payments/${id}`, { key: env.account.liveKey });
    expect(got.body.status).toBe("DISPUTE");
  });

  test("a dispute won returns the money: the case is closed refunded_to_merchant and the payment APPROVED again", async () => {
    const { id, pi } = await paidDisputable(4000);
    const before = await total();
    const { disputeId, medCase } = await dispute(id, pi);
    await env.settle(async () => (await status(id)) === "DISPUTE");
    expect((await total()) - before).toBe(-4000);
    expect((await env.control("POST", `/_sim/disputes/${disputeId}/close`, { outcome: "won" })).status).toBe(200);
    await env.settle(async () => (await status(id)) === "APPROVED");
    const c = (await cases()).find((x) => x.id === medCase.id);
    expect([c.status, c.money_outcome]).toEqual(["closed", "refunded_to_merchant"]);
    expect(await total()).toBe(before);
  });

  test("a dispute lost is a chargeback: the case is rejected with money_outcome lost, the payment CHARGEBACK, the money gone", async () => {
    const { id, pi } = await paidDisputable(3000);
    const before = await total();
    const { disputeId, medCase } = await dispute(id, pi);
    await env.settle(async () => (await status(id)) === "DISPUTE");
    expect((await env.control("POST", `/_sim/disputes/${disputeId}/close`, { outcome: "lost" })).status).toBe(200);
    await env.settle(async () => (await status(id)) === "CHARGEBACK");
    const c = (await cases()).find((x) => x.id === medCase.id);
    expect([c.status, c.money_outcome]).toEqual(["rejected", "lost"]);
    expect((await total()) - before).toBe(-3000);
  });

  test("a dispute whose created event was dropped still opens and closes from the closed event", async () => {
    const { id, pi } = await paidDisputable(2500);
    await env.control("POST", "/_sim/events/drop", { count: 1 });
    const d = await env.control("POST", `/_sim/payment_intents/${pi}/dispute`, {});
    const disputeId = (d.body.dispute ?? d.body).id as string;
    expect((await env.control("POST", `/_sim/disputes/${disputeId}/close`, { outcome: "lost" })).status).toBe(200);
    await env.settle(async () => (await status(id)) === "CHARGEBACK");
  });
});
