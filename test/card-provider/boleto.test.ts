/**
 * Live boletos through a Stripe connection (extensions.md "Live cards and boletos through
 * Stripe"; issue 26 §2, §5) against `cofre stripe-sim`: a boleto PaymentIntent filled from the
 * payer's name, e-mail, CPF/CNPJ and `metadata.billingAddress` (each missing one is 400 naming
 * it), the voucher's line, barcode, PDF and expiry on the payment, paid by the simulator's control
 * route -> PAID, and no refunds (400 `REFUND_NOT_SUPPORTED`).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpf } from "cpf-cnpj-validator";
import { barcodeToLine } from "../../src/formats/boleto";
import { livePayment, startCardEnv, txRow, type CardEnv } from "./support";

let env: CardEnv;
beforeAll(async () => {
  env = await startCardEnv();
});
afterAll(async () => {
  await env.stop();
});

const ADDRESS = { line1: "Rua das Flores, 100", city: "São Paulo", state: "SP", postalCode: "01001-000" };
const payer = () => ({
  customerName: "Maria Pagadora",
  customerEmail: "maria@example.com",
  customerDocument: cpf.generate(),
});
const boleto = (extra: Record<string, unknown> = {}) =>
  livePayment(env, {
    amount: 12345,
    paymentMethods: ["BOLETO"],
    ...payer(),
    metadata: { billingAddress: ADDRESS },
    ...extra,
  });
const status = async (id: string) => (await txRow(env, id))!.status;

describe("creating a live boleto", () => {
  test("fills the voucher's line, barcode, PDF and expiry from Stripe", async () => {
    const r = await boleto();
    expect(r.status).toBe(201);
    const got = await env.h.call("GET", `/v1/payments/${r.body.id}`, { key: env.account.liveKey });
    expect(got.body.status).toBe("WAITING_PAYMENT");
    expect(got.body.boletoLine).toMatch(/^\d{47}$/);
    expect(got.body.boletoBarcode).toMatch(/^\d{44}$/);
    expect(barcodeToLine(got.body.boletoBarcode)).toBe(got.body.boletoLine);
    expect(got.body.boletoPdfUrl).toMatch(new RegExp(`^${env.sim.origin}/boleto/pi_.+\\.pdf$`));
    expect(Date.parse(got.body.boletoExpiresAt)).toBeGreaterThan(env.h.clock.nowMs());
    // The checkout page shows the line and links Stripe's voucher.
    const page = await fetch(`${env.base}/c/${r.body.id}`).then((x) => x.text());
    expect(page).toContain(`href="${got.body.boletoPdfUrl}"`);
    expect(page).toContain(got.body.boletoLine);
    expect(page).toMatch(/Vencimento: <strong data-testid="boleto-due">\d{2}\/\d{2}\/\d{4}<\/strong>/);
  });

  for (const [field, body] of [
    ["customerName", { customerName: undefined }],
    ["customerEmail", { customerEmail: undefined }],
    ["customerDocument", { customerDocument: undefined }],
    ["metadata.billingAddress", { metadata: {} }],
    ["metadata.billingAddress.postalCode", { metadata: { billingAddress: { ...ADDRESS, postalCode: undefined } } }],
  ] as const)
    test(`without ${field} it is 400 naming ${field}, and nothing is created at Stripe`, async () => {
      const before = (await env.control("GET", "/_sim/state")).body.counts.payment_intent;
      const r = await boleto(body);
      expect(r.status).toBe(400);
      expect(r.body.error.param).toBe(field);
      expect((await env.control("GET", "/_sim/state")).body.counts.payment_intent).toBe(before);
    });
});

describe("paying and refunding", () => {
  test("paid at Stripe (control route) it is PAID with paidWith BOLETO", async () => {
    const r = await boleto();
    const pi = JSON.parse((await txRow(env, r.body.id))!.methodDetails).BOLETO.paymentIntent;
    expect((await env.control("POST", `/_sim/payment_intents/${pi}/pay`)).status).toBe(200);
    await env.settle(async () => (await status(r.body.id)) === "PAID");
    const got = await env.h.call("GET", `/v1/payments/${r.body.id}`, { key: env.account.liveKey });
    expect([got.body.status, got.body.paidWith]).toEqual(["PAID", "BOLETO"]);
  });

  test("a paid boleto cannot be refunded: 400 REFUND_NOT_SUPPORTED", async () => {
    const r = await boleto();
    const pi = JSON.parse((await txRow(env, r.body.id))!.methodDetails).BOLETO.paymentIntent;
    await env.control("POST", `/_sim/payment_intents/${pi}/pay`);
    await env.settle(async () => (await status(r.body.id)) === "PAID");
    const refund = await env.h.call("POST", `/v1/payments/${r.body.id}/refund`, {
      key: env.account.liveKey,
      body: { idempotencyKey: `refund-${crypto.randomUUID()}` },
    });
    expect(refund.status).toBe(400);
    expect(refund.body.error.code).toBe("REFUND_NOT_SUPPORTED");
  });

  test("a boleto that expires unpaid expires the payment", async () => {
    const r = await boleto();
    const pi = JSON.parse((await txRow(env, r.body.id))!.methodDetails).BOLETO.paymentIntent;
    expect((await env.control("POST", `/_sim/payment_intents/${pi}/fail`)).status).toBe(200);
    await env.settle(async () => (await status(r.body.id)) === "EXPIRED");
  });
});
