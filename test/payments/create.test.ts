import { describe, expect, test } from "bun:test";
import { createHarness } from "../support/harness";
import { CREATE_FIELDS, GET_FIELDS, createPayment, expectNoForbidden, key } from "./support";
import { testDb } from "../support/test-db";

describe("POST /v1/payments (happy paths)", () => {
  test("a PIX payment is created WAITING_PAYMENT with exactly the create fields", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const r = await h.call("POST", "/v1/payments", {
      key: a.testKey,
      body: {
        amount: 2500,
        paymentMethods: ["PIX"],
        customerName: "Ana",
        customerDocument: "12345678909",
        customerEmail: "ana@example.com",
        idempotencyKey: key(),
      },
    });
    expect(r.status).toBe(201);
    expect(Object.keys(r.body).sort()).toEqual(CREATE_FIELDS);
    expect(r.body).toMatchObject({
      status: "WAITING_PAYMENT",
      amount: 2500,
      currency: "BRL",
      paymentMethods: ["PIX"],
      customerName: "Ana",
      customerDocument: "12345678909",
      customerEmail: "ana@example.com",
      metadata: {},
      createdAt: "2026-11-20T12:00:00.000Z",
    });
    expect(r.body.id).toMatch(/^[0-9a-f]{32}$/);
    expectNoForbidden(r.body);
  });

  test("GET returns every field of the get shape, null where the method does not apply", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const p = await createPayment(h, a, { paymentMethods: ["PIX"] });
    const g = await h.call("GET", `/v1/payments/${p.id}`, { key: a.testKey });
    expect(g.status).toBe(200);
    expect(Object.keys(g.body).sort()).toEqual(GET_FIELDS);
    for (const f of [
      "paidWith",
      "cardRedirectUrl",
      "mbEntity",
      "mbReference",
      "mbExpiresAt",
      "boletoBarcode",
      "boletoLine",
      "boletoPdfUrl",
      "boletoExpiresAt",
      "cryptoAddress",
      "cryptoAmount",
      "cryptoNetwork",
      "cryptoCurrency",
      "platformFee",
      "paidAt",
    ])
      expect(g.body[f]).toBeNull();
    expect(g.body.pixQrCode).toStartWith("data:image/png;base64,");
    expect(g.body.pixCopyPaste).toStartWith("000201");
    expect(g.body.pixExpiresAt).toBe("2026-11-20T13:00:00.000Z");
    expectNoForbidden(g.body);
  });

  test("a replay of the idempotencyKey returns the original response and stores nothing new", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const body = { amount: 700, paymentMethods: ["PIX", "BOLETO"], idempotencyKey: key() };
    const first = await h.call("POST", "/v1/payments", { key: a.testKey, body });
    h.clock.advance(5);
    const again = await h.call("POST", "/v1/payments", { key: a.testKey, body });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(await testDb(h.deps).all("select id from transactions where account_id = ?", a.accountId)).toHaveLength(1);
  });

  test("currency is upper-cased and multi-currency methods accept EUR and USDT", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const eur = await createPayment(h, a, { currency: "eur", paymentMethods: ["MULTIBANCO", "CREDIT_CARD"] });
    expect(eur.currency).toBe("EUR");
    const usdt = await createPayment(h, a, { currency: "USDT", paymentMethods: ["CRYPTO"] });
    expect(usdt.currency).toBe("USDT");
  });

  test("metadata is echoed without underscore keys and webhookUrl is stored for the transaction", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const p = await createPayment(h, a, {
      paymentMethods: ["CREDIT_CARD"],
      metadata: { orderId: "A-1", returnUrl: "https://shop.example.com/done", _secret: "x" },
      webhookUrl: "https://hooks.example.com/cofre",
    });
    expect(p.metadata).toEqual({ orderId: "A-1", returnUrl: "https://shop.example.com/done" });
    const row = (await testDb(h.deps).get<{ webhook_url: string; origin: string }>(
      "select webhook_url, origin from transactions where id = ?",
      p.id,
    ))!;
    expect(row.webhook_url).toBe("https://hooks.example.com/cofre");
    expect(row.origin).toBe("payments");
  });

  test("MBWAY with an E.164 phone is accepted", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const p = await createPayment(h, a, {
      currency: "EUR",
      paymentMethods: ["MBWAY"],
      metadata: { phone: "+351912345678" },
    });
    expect(p.status).toBe("WAITING_PAYMENT");
  });

  test("the payment is the same record as the charge /v1/charges serves", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const p = await createPayment(h, a);
    const c = await h.call("GET", `/v1/charges/ch_${p.id}`, { key: a.testKey });
    expect(c.status).toBe(200);
    expect(c.body.id).toBe(`ch_${p.id}`);
    expect(c.body.status).toBe("pending");
  });
});

describe("POST /v1/payments (validation errors)", () => {
  const cases: [string, Record<string, unknown>, string, string?][] = [
    ["no paymentMethods", { paymentMethods: undefined }, "paymentMethods"],
    ["empty paymentMethods", { paymentMethods: [] }, "paymentMethods"],
    ["an unknown method", { paymentMethods: ["PAYPAL"] }, "paymentMethods"],
    ["a repeated method", { paymentMethods: ["PIX", "PIX"] }, "paymentMethods"],
    ["a 2-character currency", { currency: "BR", paymentMethods: ["CRYPTO"] }, "currency"],
    ["a 9-character currency", { currency: "ABCDEFGHI", paymentMethods: ["CRYPTO"] }, "currency"],
    ["PIX in EUR", { currency: "EUR" }, "currency", "invalid_currency"],
    ["BOLETO in USD", { currency: "USD", paymentMethods: ["BOLETO"] }, "currency", "invalid_currency"],
    ["an invalid customerEmail", { customerEmail: "not an email" }, "customerEmail"],
    ["an email with two @", { customerEmail: "a@b@example.com" }, "customerEmail"],
    ["MBWAY without a phone", { currency: "EUR", paymentMethods: ["MBWAY"] }, "metadata.phone"],
    [
      "MBWAY with a national phone",
      { currency: "EUR", paymentMethods: ["MBWAY"], metadata: { phone: "912345678" } },
      "metadata.phone",
    ],
    [
      "MBWAY with an impossible number",
      { currency: "EUR", paymentMethods: ["MBWAY"], metadata: { phone: "+3510000" } },
      "metadata.phone",
    ],
    [
      "a returnUrl that is not http(s)",
      { paymentMethods: ["CREDIT_CARD"], metadata: { returnUrl: "javascript:alert(1)" } },
      "metadata.returnUrl",
    ],
    ["a webhookUrl that is not a URL", { webhookUrl: "not a url" }, "webhookUrl", "invalid_url"],
    ["no idempotencyKey", { idempotencyKey: undefined }, "idempotencyKey"],
    ["a 7-character idempotencyKey", { idempotencyKey: "1234567" }, "idempotencyKey"],
    ["an amount as a string", { amount: "100" }, "amount", "invalid_amount"],
    ["a zero amount", { amount: 0 }, "amount", "invalid_amount"],
    ["a fractional amount", { amount: 10.5 }, "amount", "invalid_amount"],
    ["an unknown field", { tenantId: "t1" }, "tenantId"],
  ];
  for (const [name, patch, param, code] of cases) {
    test(`${name} -> 400 naming ${param}`, async () => {
      const h = createHarness();
      const a = await h.seedAccount();
      const body: Record<string, unknown> = { amount: 1000, paymentMethods: ["PIX"], idempotencyKey: key(), ...patch };
      for (const k of Object.keys(body)) if (body[k] === undefined) delete body[k];
      const r = await h.call("POST", "/v1/payments", { key: a.testKey, body });
      expect(r.status).toBe(400);
      expect(r.body.error.type).toBe("invalid_request_error");
      if (code) expect(r.body.error.code).toBe(code);
      expect(JSON.stringify(r.body.error)).toContain(param);
      expect(await testDb(h.deps).all("select id from transactions")).toHaveLength(0);
    });
  }

  test("the same idempotencyKey with a different body -> 409 idempotency_key_reused", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const k = key();
    await createPayment(h, a, { idempotencyKey: k });
    const r = await h.call("POST", "/v1/payments", {
      key: a.testKey,
      body: { amount: 999, paymentMethods: ["PIX"], idempotencyKey: k },
    });
    expect(r.status).toBe(409);
    expect(r.body.error.code).toBe("idempotency_key_reused");
  });

  test("a live key with no provider for the method -> 422 unprocessable_entity and nothing stored", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    for (const m of ["PIX", "CREDIT_CARD", "MULTIBANCO", "BOLETO", "CRYPTO"]) {
      const r = await h.call("POST", "/v1/payments", {
        key: a.liveKey,
        body: {
          amount: 1000,
          currency: m === "MULTIBANCO" ? "EUR" : "BRL",
          paymentMethods: [m],
          idempotencyKey: key(),
        },
      });
      expect(r.status).toBe(422);
      expect(r.body.error.code).toBe("unprocessable_entity");
    }
    expect(await testDb(h.deps).all("select id from transactions")).toHaveLength(0);
  });

  test("without an API key -> 401", async () => {
    const h = createHarness();
    const r = await h.call("POST", "/v1/payments", {
      body: { amount: 1000, paymentMethods: ["PIX"], idempotencyKey: key() },
    });
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe("unauthorized");
  });
});

describe("POST /v1/payments with sandbox provider faults", () => {
  test("a rejecting provider creates the transaction REFUSED; an unreachable one gives 503 and the same key succeeds later", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    await h.call("POST", "/v1/test_helpers/provider_faults", { key: a.testKey, body: { mode: "reject", count: 1 } });
    const rejected = await h.call("POST", "/v1/payments", {
      key: a.testKey,
      body: { amount: 100, paymentMethods: ["BOLETO"], idempotencyKey: key() },
    });
    expect(rejected.status).toBe(201);
    expect(rejected.body.status).toBe("REFUSED");
    expect(rejected.body.metadata.failure).toMatchObject({ reason: "provider_rejected" });
    await h.call("POST", "/v1/test_helpers/provider_faults", {
      key: a.testKey,
      body: { mode: "unavailable", count: 1 },
    });
    const body = { amount: 100, paymentMethods: ["CRYPTO"], idempotencyKey: key() };
    const down = await h.call("POST", "/v1/payments", { key: a.testKey, body });
    expect(down.status).toBe(503);
    expect(down.body.error.code).toBe("service_unavailable");
    const retry = await h.call("POST", "/v1/payments", { key: a.testKey, body });
    expect(retry.status).toBe(201);
    expect(retry.body.status).toBe("WAITING_PAYMENT");
  });
});
