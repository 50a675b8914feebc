import { describe, expect, test } from "bun:test";
import { isValidBoleto } from "@brazilian-utils/brazilian-utils";
import boletoUtils from "@mrmgomes/boleto-utils";
import fc from "fast-check";
import jsQR from "jsqr";
import { hasError, parsePix } from "pix-utils";
import { PNG } from "pngjs";
import { buildBoleto, dueDateFactor } from "../../src/formats/boleto";
import { createHarness } from "../support/harness";
import { createPayment, pay } from "./support";

/** SIBS check digits recomputed independently: 98 - (N * 100 mod 97) over entity+base+amount(8). */
function sibsIndependent(entity: string, base: string, cents: number): string {
  const n = BigInt(entity + base + String(cents).padStart(8, "0"));
  return String(98n - ((n * 100n) % 97n)).padStart(2, "0");
}

async function getPayment(h: ReturnType<typeof createHarness>, key: string, id: string) {
  const g = await h.call("GET", `/v1/payments/${id}`, { key });
  expect(g.status).toBe(200);
  return g.body;
}

describe("BOLETO", () => {
  test("barcode and line pass two independent validators with the post-2025 due-date factor", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const p = await createPayment(h, a, { amount: 123456, paymentMethods: ["BOLETO"] });
    const g = await getPayment(h, a.testKey, p.id);
    expect(g.boletoBarcode).toMatch(/^\d{44}$/);
    expect(g.boletoLine).toMatch(/^\d{47}$/);
    expect(isValidBoleto(g.boletoLine)).toBe(true);
    for (const code of [g.boletoBarcode, g.boletoLine]) {
      const v = boletoUtils.validarBoleto(code) as any;
      expect(v.sucesso).toBe(true);
      expect(v.codigoBarras).toBe(g.boletoBarcode);
      expect(v.linhaDigitavel).toBe(g.boletoLine);
      expect(v.valor).toBe(1234.56);
      expect(String(v.vencimentoComNovoFator2025.toISOString()).slice(0, 10)).toBe("2026-11-23");
    }
    expect(g.boletoExpiresAt).toBe("2026-11-24T02:59:59.999Z");
    expect(g.boletoPdfUrl).toBe(`http://localhost:3000/v1/boletos/${p.id}.pdf`);
    // a corrupted digit is caught by the independent validator
    const bad = g.boletoLine.slice(0, 46) + String((Number(g.boletoLine[46]) + 1) % 10);
    expect(isValidBoleto(bad.slice(0, 9) + String((Number(bad[9]) + 1) % 10) + bad.slice(10))).toBe(false);
  });

  test("the due-date factor restarts at 1000 on 2025-02-22", () => {
    expect(dueDateFactor("2025-02-22")).toBe(1000);
    expect(dueDateFactor("2025-02-23")).toBe(1001);
    expect(dueDateFactor("2026-11-23")).toBe(1639);
    expect(() => dueDateFactor("2025-02-21")).toThrow();
    const b = buildBoleto({
      bank: "341",
      amount: 100000,
      dueDate: "2030-01-01",
      freeField: "1234567890123456789012345",
    });
    expect(boletoUtils.validarBoleto(b.line).sucesso).toBe(true);
    expect(isValidBoleto(b.line)).toBe(true);
  });

  test("every built boleto line passes @brazilian-utils, general digit 1 included (property)", () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^\d{25}$/),
        fc.integer({ min: 0, max: 9_999_999_999 }),
        fc.integer({ min: 0, max: 8000 }),
        (free, amount, day) => {
          const due = new Date(Date.UTC(2025, 1, 22) + day * 86400000).toISOString().slice(0, 10);
          const b = buildBoleto({ bank: "001", amount, dueDate: due, freeField: free });
          expect(isValidBoleto(b.line)).toBe(true);
          expect(b.barcode.slice(5, 9)).toBe(String(1000 + day));
          expect(boletoUtils.linhaDigitavel2CodBarras(b.line)).toBe(b.barcode);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("MULTIBANCO", () => {
  test("entity has 5 digits and the reference carries SIBS check digits recomputed independently", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    for (const amount of [1, 1000, 123456, 99_999_999]) {
      const p = await createPayment(h, a, { amount, currency: "EUR", paymentMethods: ["MULTIBANCO"] });
      const g = await getPayment(h, a.testKey, p.id);
      expect(g.mbEntity).toMatch(/^\d{5}$/);
      expect(g.mbReference).toMatch(/^\d{9}$/);
      expect(g.mbReference.slice(7)).toBe(sibsIndependent(g.mbEntity, g.mbReference.slice(0, 7), amount));
      expect(g.mbExpiresAt).toBe("2026-11-23T12:00:00.000Z");
    }
  });
});

describe("PIX", () => {
  test("pixCopyPaste is a valid BR Code for pix-utils and pixQrCode decodes to it", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const p = await createPayment(h, a, { amount: 1050, paymentMethods: ["PIX", "CREDIT_CARD"] });
    const g = await getPayment(h, a.testKey, p.id);
    const parsed = parsePix(g.pixCopyPaste);
    expect(hasError(parsed)).toBe(false);
    expect((parsed as any).type).toBe("DYNAMIC");
    const png = PNG.sync.read(Buffer.from(g.pixQrCode.replace("data:image/png;base64,", ""), "base64"));
    const qr = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
    expect(qr?.data).toBe(g.pixCopyPaste);
  });
});

describe("CRYPTO", () => {
  test("address, amount, network and currency are filled; fiat is quoted in USDT on TRON", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const p = await createPayment(h, a, { amount: 1000, currency: "EUR", paymentMethods: ["CRYPTO"] });
    const g = await getPayment(h, a.testKey, p.id);
    expect(g).toMatchObject({ cryptoAmount: "10.800000", cryptoNetwork: "TRON", cryptoCurrency: "USDT" });
    expect(g.cryptoAddress).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    const usdt = await createPayment(h, a, { amount: 2550, currency: "USDT", paymentMethods: ["CRYPTO"] });
    expect((await getPayment(h, a.testKey, usdt.id)).cryptoAmount).toBe("25.50");
  });
});

describe("MBWAY", () => {
  test("stays WAITING_PAYMENT with no method fields until paid", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const p = await createPayment(h, a, {
      currency: "EUR",
      paymentMethods: ["MBWAY"],
      metadata: { phone: "+351912345678" },
    });
    const g = await getPayment(h, a.testKey, p.id);
    expect(g.status).toBe("WAITING_PAYMENT");
    expect([g.pixCopyPaste, g.mbReference, g.boletoLine, g.cryptoAddress, g.cardRedirectUrl]).toEqual([
      null,
      null,
      null,
      null,
      null,
    ]);
    await pay(h, a, p.id, { method: "MBWAY" });
    const paid = await getPayment(h, a.testKey, p.id);
    expect(paid).toMatchObject({ status: "PAID", paidWith: "MBWAY", paidAt: "2026-11-20T12:00:00.000Z" });
  });

  test("expires when the 5-minute request lapses", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const p = await createPayment(h, a, {
      currency: "EUR",
      paymentMethods: ["MBWAY"],
      metadata: { phone: "+351912345678" },
    });
    h.clock.advance(299);
    await h.deps.jobs.drain();
    expect((await getPayment(h, a.testKey, p.id)).status).toBe("WAITING_PAYMENT");
    h.clock.advance(2);
    await h.deps.jobs.drain();
    expect((await getPayment(h, a.testKey, p.id)).status).toBe("EXPIRED");
  });
});

describe("CREDIT_CARD via the checkout", () => {
  const setup = async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const p = await createPayment(h, a, {
      amount: 5000,
      paymentMethods: ["CREDIT_CARD"],
      metadata: { returnUrl: "https://shop.example.com/ok" },
    });
    return { h, a, p };
  };

  test("cardRedirectUrl is the checkout link and the page offers the sandbox card form with test cards", async () => {
    const { h, a, p } = await setup();
    const g = await getPayment(h, a.testKey, p.id);
    expect(g.cardRedirectUrl).toBe(`http://localhost:3000/c/${p.id}`);
    const page = await h.call("GET", `/c/${p.id}`);
    expect(page.status).toBe(200);
    for (const s of ["data-card-form", "4242424242424242", "4000000000000002", "4000000000003220", "SANDBOX"])
      expect(page.text).toContain(s);
  });

  test("the approve card makes it APPROVED with paidWith CREDIT_CARD", async () => {
    const { h, a, p } = await setup();
    const r = await h.call("POST", `/c/${p.id}/card`, { body: { number: "4242 4242 4242 4242", cvc: "123" } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: "paid", transactionStatus: "APPROVED" });
    expect(await getPayment(h, a.testKey, p.id)).toMatchObject({ status: "APPROVED", paidWith: "CREDIT_CARD" });
  });

  test("the decline card makes it REFUSED", async () => {
    const { h, a, p } = await setup();
    const r = await h.call("POST", `/c/${p.id}/card`, { body: { number: "4000000000000002" } });
    expect(r.body).toEqual({ status: "failed", transactionStatus: "REFUSED" });
    expect((await getPayment(h, a.testKey, p.id)).status).toBe("REFUSED");
  });

  test("3DS cards go PROCESSING, then APPROVED or REFUSED when the challenge completes", async () => {
    for (const [number, final] of [
      ["4000000000003220", "APPROVED"],
      ["4000000000003063", "REFUSED"],
    ]) {
      const { h, a, p } = await setup();
      const r = await h.call("POST", `/c/${p.id}/card`, { body: { number } });
      expect(r.body.transactionStatus).toBe("PROCESSING");
      expect((await getPayment(h, a.testKey, p.id)).status).toBe("PROCESSING");
      h.clock.advance(3);
      await h.deps.jobs.drain();
      expect((await getPayment(h, a.testKey, p.id)).status).toBe(final!);
    }
  });

  test("an invalid number, a paid transaction or a non-card transaction are refused", async () => {
    const { h, a, p } = await setup();
    const bad = await h.call("POST", `/c/${p.id}/card`, { body: { number: "1234" } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe("number");
    await h.call("POST", `/c/${p.id}/card`, { body: { number: "4242424242424242" } });
    const again = await h.call("POST", `/c/${p.id}/card`, { body: { number: "4242424242424242" } });
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe("invalid_state");
    const pix = await createPayment(h, a, { paymentMethods: ["PIX"] });
    expect((await h.call("POST", `/c/${pix.id}/card`, { body: { number: "4242424242424242" } })).status).toBe(400);
    expect((await h.call("POST", `/c/${"f".repeat(32)}/card`, { body: { number: "4242424242424242" } })).status).toBe(
      404,
    );
  });

  test("the pay helper with outcome decline refuses a card payment", async () => {
    const { h, a, p } = await setup();
    await pay(h, a, p.id, { method: "CREDIT_CARD", outcome: "decline" });
    expect((await getPayment(h, a.testKey, p.id)).status).toBe("REFUSED");
  });
});

describe("sandbox simulate button of non-card methods", () => {
  test("posting {method} to the checkout pays the transaction with that method", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const p = await createPayment(h, a, { paymentMethods: ["BOLETO", "CRYPTO"] });
    const page = await h.call("GET", `/c/${p.id}`);
    expect(page.text).toContain('data-sandbox-pay="BOLETO"');
    const r = await h.call("POST", `/c/${p.id}/pay`, { body: { method: "BOLETO" } });
    expect(r.body).toEqual({ status: "paid", transactionStatus: "PAID" });
    expect((await getPayment(h, a.testKey, p.id)).paidWith).toBe("BOLETO");
  });
});

describe("checkout sections of every method", () => {
  test("the hosted page shows the boleto line, the Multibanco reference, the MB WAY request and the crypto address", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const br = await createPayment(h, a, { amount: 1234, paymentMethods: ["PIX", "BOLETO", "CRYPTO", "CREDIT_CARD"] });
    const g = (await h.call("GET", `/v1/payments/${br.id}`, { key: a.testKey })).body;
    const page = (await h.call("GET", `/c/${br.id}`)).text;
    for (const s of [
      'data-testid="boleto-line"',
      g.boletoLine.slice(0, 5),
      `/v1/boletos/${br.id}.pdf`,
      g.cryptoAddress,
      g.cryptoAmount,
      "data-card-form",
      "br-code",
    ])
      expect(page).toContain(s);
    const eu = await createPayment(h, a, {
      amount: 990,
      currency: "EUR",
      paymentMethods: ["MULTIBANCO", "MBWAY"],
      metadata: { phone: "+351912345678" },
    });
    const ge = (await h.call("GET", `/v1/payments/${eu.id}`, { key: a.testKey })).body;
    const pe = (await h.call("GET", `/c/${eu.id}`)).text;
    expect(pe).toContain(ge.mbEntity);
    expect(pe).toContain(`${ge.mbReference.slice(0, 3)} ${ge.mbReference.slice(3, 6)} ${ge.mbReference.slice(6)}`);
    expect(pe).toContain("MB WAY");
    expect(pe).toContain("*****5678");
    expect(pe).not.toContain("912345678");
  });
});
