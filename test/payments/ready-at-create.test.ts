/**
 * Method fields ready at creation (sandbox), extensions.md: POST /v1/payments answers once every
 * offered method is prepared, so its 201 and a GET right after carry every method's fields.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { isValidBoleto } from "@brazilian-utils/brazilian-utils";
import { hasError, parsePix } from "pix-utils";
import { createHarness } from "../support/harness";
import { serveWithTestKey, type ServedAccount } from "../clock/serve";
import { GET_FIELDS, expectNoForbidden, key } from "./support";

/** Fields each method fills (interface.md "Transaction" get response). */
const FIELDS: Record<string, string[]> = {
  PIX: ["pixQrCode", "pixCopyPaste", "pixExpiresAt"],
  CREDIT_CARD: ["cardRedirectUrl"],
  MULTIBANCO: ["mbEntity", "mbReference", "mbExpiresAt"],
  BOLETO: ["boletoBarcode", "boletoLine", "boletoPdfUrl", "boletoExpiresAt"],
  CRYPTO: ["cryptoAddress", "cryptoAmount", "cryptoNetwork", "cryptoCurrency"],
  MBWAY: [],
};
const BRL = { amount: 12345, currency: "BRL", paymentMethods: ["PIX", "CREDIT_CARD", "BOLETO", "CRYPTO"] };
const EUR = { amount: 4200, currency: "EUR", paymentMethods: ["MULTIBANCO", "CREDIT_CARD", "MBWAY", "CRYPTO"], metadata: { phone: "+351912345678" } };

/** Asserts `body` has the get shape with every field of `methods` filled and the others null. */
function expectReady(body: Record<string, unknown>, methods: string[]): void {
  expect(Object.keys(body).sort()).toEqual(GET_FIELDS);
  const filled = methods.flatMap((m) => FIELDS[m]!);
  for (const f of filled) expect({ f, v: typeof body[f] === "string" && body[f] !== "" }).toEqual({ f, v: true });
  for (const f of Object.values(FIELDS).flat().filter((f) => !filled.includes(f))) expect({ f, v: body[f] }).toEqual({ f, v: null });
  expectNoForbidden(body);
}

describe("method fields ready at creation (sandbox)", () => {
  for (const [name, input] of [["BRL with PIX, card, boleto and crypto", BRL], ["EUR with Multibanco, card, MB WAY and crypto", EUR]] as const) {
    test(`the 201 of a payment in ${name} carries every method's fields, and a GET right after answers the same`, async () => {
      const h = createHarness();
      const a = await h.seedAccount();
      const r = await h.call("POST", "/v1/payments", { key: a.testKey, body: { ...input, idempotencyKey: key() } });
      expect(r.status).toBe(201);
      expect(r.body.status).toBe("WAITING_PAYMENT");
      expectReady(r.body, input.paymentMethods);
      const g = await h.call("GET", `/v1/payments/${r.body.id}`, { key: a.testKey });
      expect(g.status).toBe(200);
      expect(g.body).toEqual(r.body);
    });
  }

  test("the fields in the 201 are the real ones: a BR Code and a boleto line that independent parsers accept", async () => {
    const h = createHarness({ publicUrl: "https://pay.cofre.test" });
    const a = await h.seedAccount();
    const r = await h.call("POST", "/v1/payments", { key: a.testKey, body: { ...BRL, idempotencyKey: key() } });
    const pix = parsePix(r.body.pixCopyPaste);
    expect(hasError(pix)).toBe(false);
    expect(isValidBoleto(r.body.boletoLine)).toBe(true);
    expect(r.body.pixQrCode).toStartWith("data:image/png;base64,");
  });

  test("a replay of the idempotencyKey answers the same full body, QR image included", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const body = { ...BRL, idempotencyKey: key() };
    const first = await h.call("POST", "/v1/payments", { key: a.testKey, body });
    h.clock.advance(30);
    const again = await h.call("POST", "/v1/payments", { key: a.testKey, body });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.body.pixQrCode).toStartWith("data:image/png;base64,");
  });
});

describe("method fields ready at creation, through a running server", () => {
  let served: ServedAccount | undefined;
  afterAll(async () => served?.close());

  test("an immediate GET after POST /v1/payments on `serve` shows pixCopyPaste, boletoLine, mbReference and the others", async () => {
    served = await serveWithTestKey();
    for (const input of [BRL, EUR]) {
      const created = await served.call("POST", "/v1/payments", { ...input, idempotencyKey: key() });
      expect(created.status).toBe(201);
      const got = await served.call("GET", `/v1/payments/${created.body.id}`);
      expect(got.status).toBe(200);
      expectReady(created.body, input.paymentMethods);
      expectReady(got.body, input.paymentMethods);
      expect(got.body).toEqual(created.body);
    }
  }, 40_000);
});
