import { describe, expect, test } from "bun:test";
import { hasError, parsePix } from "pix-utils";
import { getPixPayloadInfo, isValidPixPayload } from "@brazilian-utils/brazilian-utils";
import {
  CHARGE_FIELDS,
  CNPJ,
  CNPJ_ALNUM,
  CPF,
  CPF_2,
  createCharge,
  eventBodies,
  eventTypes,
  harness,
  idemKey,
  raw,
} from "./support";
import { testDb } from "../support/test-db";

describe("creating a Pix charge: happy paths", () => {
  test("POST /v1/pix/charges answers 201 with exactly the public Charge fields", async () => {
    const h = harness();
    const a = await h.seedAccount({ name: "Padaria São João" });
    const r = await createCharge(h, a.testKey, {
      amount: 1234,
      description: "Pão",
      customer: { name: "Maria", document: "529.982.247-25", email: "m@example.com", phone: "+5511999999999" },
    });
    expect(r.status).toBe(201);
    expect(Object.keys(r.body).sort()).toEqual(CHARGE_FIELDS);
    const c = r.body;
    expect(c.id).toMatch(/^ch_[0-9a-f]{32}$/);
    expect(c.object).toBe("charge");
    expect(c.amount).toBe(1234);
    expect(c.currency).toBe("BRL");
    expect(c.status).toBe("pending");
    expect(c.payment_method).toBe("pix");
    expect(c.customer).toEqual({ name: "Maria", document: CPF });
    expect(Object.keys(c.pix).sort()).toEqual(["br_code", "expires_at", "qr_code_url", "txid"]);
    expect(c.pix.txid).toMatch(/^[a-zA-Z0-9]{26,35}$/);
    expect(c.pix.txid).not.toBe(c.id);
    expect(c.pix.txid).not.toBe(raw(c.id));
    expect(c.pix.qr_code_url).toBe(`https://pay.cofre.test/v1/qr/${raw(c.id)}.png`);
    expect(c.pix.expires_at).toBe("2026-11-20T13:00:00.000Z");
    expect(c.pix.br_code).toContain("5916Padaria Sao Joao");
    expect(c.pix.br_code).toContain(`pay.cofre.test/v1/pix/loc/${c.pix.txid}`);
    expect(c.checkout_url).toBe(`https://pay.cofre.test/c/${raw(c.id)}`);
    expect(c.settlement).toEqual({});
    expect(c.metadata).toEqual({ description: "Pão" });
    expect(c.created_at).toBe("2026-11-20T12:00:00.000Z");
    // The produced BR Code parses with two independent libraries.
    const parsed = parsePix(c.pix.br_code) as any;
    expect(hasError(parsed)).toBe(false);
    expect(parsed.type).toBe("DYNAMIC");
    expect(parsed.url).toBe(`pay.cofre.test/v1/pix/loc/${c.pix.txid}`);
    expect(parsed.merchantName).toBe("Padaria Sao Joao");
    expect(isValidPixPayload(c.pix.br_code)).toBe(true);
    expect(JSON.stringify(getPixPayloadInfo(c.pix.br_code))).toContain(c.pix.txid);
  });

  test("POST /v1/charges with payment_method pix returns the same shape and GET returns it by ch_ or raw id", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const r = await createCharge(h, a.testKey, { payment_method: "pix" }, idemKey(), "/v1/charges");
    expect(r.status).toBe(201);
    expect(Object.keys(r.body).sort()).toEqual(CHARGE_FIELDS);
    const byId = await h.call("GET", `/v1/charges/${r.body.id}`, { key: a.testKey });
    const byRaw = await h.call("GET", `/v1/charges/${raw(r.body.id)}`, { key: a.testKey });
    expect(byId.status).toBe(200);
    expect(byRaw.status).toBe(200);
    expect(byId.body).toEqual(r.body);
    expect(byRaw.body).toEqual(r.body);
  });

  test("expires_in sets pix.expires_at, values above 86400 are capped and the default is the account window", async () => {
    const h = harness();
    const a = await h.seedAccount({ settings: { defaultExpiresIn: 900 } });
    const short = await createCharge(h, a.testKey, { expires_in: 60 });
    expect(short.body.pix.expires_at).toBe("2026-11-20T12:01:00.000Z");
    const capped = await createCharge(h, a.testKey, { expires_in: 999999 });
    expect(capped.status).toBe(201);
    expect(capped.body.pix.expires_at).toBe("2026-11-21T12:00:00.000Z");
    const dflt = await createCharge(h, a.testKey);
    expect(dflt.body.pix.expires_at).toBe("2026-11-20T12:15:00.000Z");
  });

  test("metadata is echoed without reserved, underscore and prototype keys; description wins over metadata.description", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const body = JSON.parse(
      '{"amount":500,"description":"from field","metadata":{"order":"42","nested":{"__proto__":{"x":1},"ok":true},"_secret":"x","failure":{"reason":"fake"},"med":{},"__proto__":{"polluted":true},"constructor":"c","prototype":"p","description":"from metadata"}}',
    );
    const r = await createCharge(h, a.testKey, body);
    expect(r.status).toBe(201);
    expect(r.body.metadata).toEqual({ order: "42", nested: { ok: true }, description: "from field" });
    expect(({} as any).polluted).toBeUndefined();
  });

  test("currency defaults to BRL and lower-case brl is accepted", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const r = await createCharge(h, a.testKey, { currency: "brl" });
    expect(r.status).toBe(201);
    expect(r.body.currency).toBe("BRL");
  });

  test("charge.created and payment.created are written with the creation", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const r = await createCharge(h, a.testKey);
    expect(await eventTypes(h, raw(r.body.id))).toEqual(["charge.created", "payment.created"]);
    const [evt] = await eventBodies(h, raw(r.body.id), "charge.created");
    expect(Object.keys(evt).sort()).toEqual(["api_version", "created_at", "data", "id", "object", "type"]);
    expect(evt.data.object).toEqual(r.body);
    const [legacy] = await eventBodies(h, raw(r.body.id), "payment.created");
    expect(legacy).toEqual({
      event: "payment.created",
      data: {
        transactionId: raw(r.body.id),
        amount: 1000,
        status: "WAITING_PAYMENT",
        previousStatus: "PENDING",
        occurredAt: "2026-11-20T12:00:00.000Z",
      },
    });
  });
});

describe("the payer-tax-id lock at creation", () => {
  test("with the lock off the field is accepted and not echoed", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const r = await createCharge(h, a.testKey, { expected_payer_tax_id: CPF, customer: { name: "Maria" } });
    expect(r.status).toBe(201);
    expect(Object.keys(r.body).sort()).toEqual(CHARGE_FIELDS);
    expect(JSON.stringify(r.body)).not.toContain(CPF);
  });

  test("with the lock on the normalized document is echoed, alphanumeric CNPJ included", async () => {
    const h = harness();
    const a = await h.seedAccount({ settings: { payerLockEnabled: true } });
    const r = await createCharge(h, a.testKey, {
      expected_payer_tax_id: "12.abc.345/01de-35",
      customer: { name: "Empresa", document: CNPJ_ALNUM },
    });
    expect(r.status).toBe(201);
    expect(Object.keys(r.body).sort()).toEqual([...CHARGE_FIELDS, "expected_payer_tax_id"].sort());
    expect(r.body.expected_payer_tax_id).toBe(CNPJ_ALNUM);
    const g = await h.call("GET", `/v1/charges/${r.body.id}`, { key: a.testKey });
    expect(g.body.expected_payer_tax_id).toBe(CNPJ_ALNUM);
  });

  test("a charge without expected_payer_tax_id on a locked account does not echo the field", async () => {
    const h = harness();
    const a = await h.seedAccount({ settings: { payerLockEnabled: true } });
    const r = await createCharge(h, a.testKey, { customer: { name: "X", document: CNPJ } });
    expect(Object.keys(r.body).sort()).toEqual(CHARGE_FIELDS);
  });

  test("expected_payer_tax_id needs a valid document, customer.name and equality with customer.document", async () => {
    const h = harness();
    const a = await h.seedAccount({ settings: { payerLockEnabled: true } });
    const bad = await createCharge(h, a.testKey, { expected_payer_tax_id: "52998224724", customer: { name: "M" } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("invalid_tax_id");
    expect(bad.body.error.param).toBe("expected_payer_tax_id");
    const noName = await createCharge(h, a.testKey, { expected_payer_tax_id: CPF });
    expect(noName.status).toBe(400);
    expect(noName.body.error.param).toBe("customer.name");
    const differs = await createCharge(h, a.testKey, {
      expected_payer_tax_id: CPF,
      customer: { name: "M", document: CPF_2 },
    });
    expect(differs.status).toBe(400);
    expect(differs.body.error.param).toBe("expected_payer_tax_id");
    const same = await createCharge(h, a.testKey, {
      expected_payer_tax_id: CPF,
      customer: { name: "M", document: "529.982.247-25" },
    });
    expect(same.status).toBe(201);
  });
});

describe("creating a Pix charge: validation errors", () => {
  const cases: [string, Record<string, unknown>, string, string][] = [
    ["amount 0", { amount: 0 }, "invalid_amount", "amount"],
    ["negative amount", { amount: -5 }, "invalid_amount", "amount"],
    ["amount as a string", { amount: "100" }, "invalid_amount", "amount"],
    ["fractional amount", { amount: 10.5 }, "invalid_amount", "amount"],
    ["currency USD", { currency: "USD" }, "invalid_currency", "currency"],
    ["payment_method card", { payment_method: "card" }, "invalid_request", "payment_method"],
    ["description of 501 characters", { description: "x".repeat(501) }, "invalid_request", "description"],
    ["expires_in 59", { expires_in: 59 }, "invalid_request", "expires_in"],
    ["expires_in as a string", { expires_in: "600" }, "invalid_request", "expires_in"],
    ["invalid customer.document", { customer: { document: "12345678900" } }, "invalid_tax_id", "customer.document"],
    ["unknown top-level field", { colour: "red" }, "invalid_request", "colour"],
    ["invalid customer.email", { customer: { email: "not-an-email" } }, "invalid_request", "customer.email"],
    ["unknown customer field", { customer: { nickname: "x" } }, "invalid_request", "customer.nickname"],
  ];
  for (const [name, body, code, param] of cases) {
    test(`${name} -> 400 ${code} naming ${param}`, async () => {
      const h = harness();
      const a = await h.seedAccount();
      const r = await createCharge(h, a.testKey, body);
      expect(r.status).toBe(400);
      expect(r.body.error.type).toBe("invalid_request_error");
      expect(r.body.error.code).toBe(code);
      expect(r.body.error.param).toBe(param);
    });
  }

  test("POST /v1/charges without payment_method -> 400", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const r = await createCharge(h, a.testKey, {}, idemKey(), "/v1/charges");
    expect(r.status).toBe(400);
    expect(r.body.error.param).toBe("payment_method");
  });

  test("a description of exactly 500 characters is accepted", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const r = await createCharge(h, a.testKey, { description: "é".repeat(500) });
    expect(r.status).toBe(201);
  });

  test("a missing or short Idempotency-Key -> 400 and nothing is created", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const none = await h.call("POST", "/v1/pix/charges", { key: a.testKey, body: { amount: 100 } });
    expect(none.status).toBe(400);
    expect(none.body.error.code).toBe("idempotency_key_missing");
    const short = await createCharge(h, a.testKey, {}, "short");
    expect(short.status).toBe(400);
    expect(short.body.error.code).toBe("invalid_idempotency_key");
    const list = await h.call("GET", "/v1/charges", { key: a.testKey });
    expect(list.body.data).toEqual([]);
  });
});

describe("idempotency of charge creation", () => {
  test("the same key and body replays the same charge with Idempotent-Replayed", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const key = idemKey();
    const first = await createCharge(h, a.testKey, { amount: 700 }, key);
    const second = await createCharge(h, a.testKey, { amount: 700 }, key);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const list = await h.call("GET", "/v1/charges", { key: a.testKey });
    expect(list.body.data).toHaveLength(1);
  });

  test("the shortcut and /v1/charges share one key space: the same key replays the first charge", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const key = idemKey();
    const first = await h.call("POST", "/v1/pix/charges", {
      key: a.testKey,
      headers: { "idempotency-key": key },
      body: { amount: 900 },
    });
    const second = await h.call("POST", "/v1/charges", {
      key: a.testKey,
      headers: { "idempotency-key": key },
      body: { amount: 900, payment_method: "pix" },
    });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body.id).toBe(first.body.id);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    const list = await h.call("GET", "/v1/charges", { key: a.testKey });
    expect(list.body.data).toHaveLength(1);
  });

  test("the same key with another body -> 409 idempotency_key_reused", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const key = idemKey();
    await createCharge(h, a.testKey, { amount: 700 }, key);
    const r = await createCharge(h, a.testKey, { amount: 701 }, key);
    expect(r.status).toBe(409);
    expect(r.body.error.code).toBe("idempotency_key_reused");
  });
});

describe("creating a Pix charge: security and modes", () => {
  test("without an API key -> 401", async () => {
    const h = harness();
    const r = await h.call("POST", "/v1/pix/charges", {
      headers: { "idempotency-key": idemKey() },
      body: { amount: 100 },
    });
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe("unauthorized");
  });

  test("a live key with no live Pix provider -> 422 unprocessable_entity and nothing stored", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const r = await createCharge(h, a.liveKey);
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe("unprocessable_entity");
    expect(r.body.error.type).toBe("invalid_request_error");
    const list = await h.call("GET", "/v1/charges", { key: a.liveKey });
    expect(list.body.data).toEqual([]);
  });

  test("another account's charge, or the other mode's, is 404 by ch_ and raw id", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const b = await h.seedAccount();
    const r = await createCharge(h, a.testKey);
    for (const id of [r.body.id, raw(r.body.id)]) {
      const other = await h.call("GET", `/v1/charges/${id}`, { key: b.testKey });
      expect(other.status).toBe(404);
      expect(other.body.error.code).toBe("not_found");
      const live = await h.call("GET", `/v1/charges/${id}`, { key: a.liveKey });
      expect(live.status).toBe(404);
    }
    const junk = await h.call("GET", "/v1/charges/ch_nothing", { key: a.testKey });
    expect(junk.status).toBe(404);
  });

  test("the response never carries fees, provider data or internal ids", async () => {
    const h = harness();
    const a = await h.seedAccount();
    await testDb(h.deps).run("update accounts set pix_fee_bps = 100 where id = ?", a.accountId);
    const r = await createCharge(h, a.testKey);
    const text = JSON.stringify(r.body);
    for (const word of ["fee", "provider", a.accountId, "livemode", "origin", 'location"'])
      expect(text).not.toContain(word);
  });
});
