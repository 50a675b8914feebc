/**
 * Method fields ready at creation (sandbox), extensions.md: POST /v1/payments answers once every
 * offered method is prepared, so a GET right after its 201 carries every method's fields. The 201
 * itself stays the contract's create shape (interface.md "POST /v1/payments"), as in live mode.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { isValidBoleto } from "@brazilian-utils/brazilian-utils";
import { hasError, parsePix } from "pix-utils";
import { createHarness } from "../support/harness";
import { serveWithTestKey, type ServedAccount } from "../support/serve";
import { CREATE_FIELDS, GET_FIELDS, expectNoForbidden, key } from "./support";

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
const EUR = {
  amount: 4200,
  currency: "EUR",
  paymentMethods: ["MULTIBANCO", "CREDIT_CARD", "MBWAY", "CRYPTO"],
  metadata: { phone: "+351912345678" },
};

/** Asserts `body` has the get shape with every field of `methods` filled and the others null. */
function expectReady(body: Record<string, unknown>, methods: string[]): void {
  expect(Object.keys(body).sort()).toEqual(GET_FIELDS);
  const filled = methods.flatMap((m) => FIELDS[m]!);
  for (const f of filled) expect({ f, v: typeof body[f] === "string" && body[f] !== "" }).toEqual({ f, v: true });
  for (const f of Object.values(FIELDS)
    .flat()
    .filter((f) => !filled.includes(f)))
    expect({ f, v: body[f] }).toEqual({ f, v: null });
  expectNoForbidden(body);
}

describe("method fields ready at creation (sandbox)", () => {
  for (const [name, input] of [
    ["BRL with PIX, card, boleto and crypto", BRL],
    ["EUR with Multibanco, card, MB WAY and crypto", EUR],
  ] as const) {
    test(`a GET right after the 201 of a payment in ${name} carries every method's fields`, async () => {
      const h = createHarness();
      const a = await h.seedAccount();
      const r = await h.call("POST", "/v1/payments", { key: a.testKey, body: { ...input, idempotencyKey: key() } });
      expect(r.status).toBe(201);
      expect(Object.keys(r.body).sort()).toEqual(CREATE_FIELDS);
      expect(r.body.status).toBe("WAITING_PAYMENT");
      const g = await h.call("GET", `/v1/payments/${r.body.id}`, { key: a.testKey });
      expect(g.status).toBe(200);
      expectReady(g.body, input.paymentMethods);
      for (const f of CREATE_FIELDS) expect({ f, v: g.body[f] }).toEqual({ f, v: r.body[f] });
    });
  }

  test("the fields are the real ones: a BR Code and a boleto line that independent parsers accept", async () => {
    const h = createHarness({ publicUrl: "https://pay.cofre.test" });
    const a = await h.seedAccount();
    const r = await h.call("POST", "/v1/payments", { key: a.testKey, body: { ...BRL, idempotencyKey: key() } });
    const g = await h.call("GET", `/v1/payments/${r.body.id}`, { key: a.testKey });
    const pix = parsePix(g.body.pixCopyPaste);
    expect(hasError(pix)).toBe(false);
    expect(isValidBoleto(g.body.boletoLine)).toBe(true);
    expect(g.body.pixQrCode).toStartWith("data:image/png;base64,");
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
      expect(Object.keys(created.body).sort()).toEqual(CREATE_FIELDS);
      expectReady(got.body, input.paymentMethods);
    }
  }, 40_000);
});
