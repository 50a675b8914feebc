import { describe, expect, test } from "bun:test";
import { createHarness } from "../support/harness";
import { FORBIDDEN, createPayment, expectNoForbidden, key, pay } from "./support";
import { testDb } from "../support/test-db";

describe("never-returned fields (interface.md Versioning 4)", () => {
  test("no /v1/payments route returns provider, tenant, fee or secret fields, even when the row carries such data", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const all = ["PIX", "CREDIT_CARD", "BOLETO", "CRYPTO"];
    const p = await createPayment(h, a, { paymentMethods: all, metadata: { note: "x" } });
    // internal data that must never leak (provider ids in method details)
    const row = (await testDb(h.deps).get<{ method_details: string }>(
      "select method_details from transactions where id = ?",
      p.id,
    ))!;
    const details = JSON.parse(row.method_details);
    details.CREDIT_CARD = {
      ...details.CREDIT_CARD,
      cardClientSecret: "cs_secret",
      providerTransactionId: "prov_1",
      provider: "acme",
    };
    await testDb(h.deps).run("update transactions set method_details = ? where id = ?", JSON.stringify(details), p.id);
    expectNoForbidden(p);
    const w = await createPayment(h, a);
    const responses = [
      await h.call("GET", `/v1/payments/${p.id}`, { key: a.testKey }),
      await h.call("GET", `/v1/payments`, { key: a.testKey }),
      await h.call("GET", `/v1/payments/stats`, { key: a.testKey }),
      await h.call("GET", `/v1/payments/metrics`, { key: a.testKey }),
      await h.call("POST", `/v1/payments/${w.id}/cancel`, { key: a.testKey }),
      await h.call("POST", `/v1/payments/${w.id}/resend-webhook`, { key: a.testKey }),
    ];
    await pay(h, a, p.id);
    const refund = await h.call("POST", `/v1/payments/${p.id}/refund`, {
      key: a.testKey,
      body: { idempotencyKey: key() },
    });
    responses.push(refund);
    responses.push(await h.call("GET", `/v1/payments/${p.id}/refunds`, { key: a.testKey }));
    responses.push(
      await h.call("POST", `/v1/test_helpers/refunds/${refund.body.id}/advance`, {
        key: a.testKey,
        body: { to: "IN_PROGRESS" },
      }),
    );
    responses.push(await h.call("GET", `/v1/payments/${p.id}/receipt`, { key: a.testKey }));
    for (const r of responses) {
      expect(r.status).toBeLessThan(300);
      expectNoForbidden(r.body);
      for (const f of FORBIDDEN) expect(r.text).not.toContain(`"${f}"`);
      expect(r.text).not.toContain("cs_secret");
    }
    // the receipt PDF does not carry them either
    const pdf = Buffer.from(responses.at(-1)!.body.base64, "base64").toString("latin1");
    expect(pdf).not.toContain("cs_secret");
  });
});

describe("authentication and scoping of every route", () => {
  const routes = (id: string): [string, string, unknown?][] => [
    ["POST", "/v1/payments", { amount: 100, paymentMethods: ["PIX"], idempotencyKey: key() }],
    ["GET", "/v1/payments"],
    ["GET", "/v1/payments/stats"],
    ["GET", "/v1/payments/metrics"],
    ["GET", `/v1/payments/${id}`],
    ["POST", `/v1/payments/${id}/cancel`],
    ["POST", `/v1/payments/${id}/refund`, { idempotencyKey: key() }],
    ["GET", `/v1/payments/${id}/refunds`],
    ["POST", `/v1/payments/${id}/resend-webhook`],
    ["GET", `/v1/payments/${id}/receipt`],
  ];

  test("without a key or with a wrong key every route answers 401", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const p = await createPayment(h, a);
    for (const [method, path, body] of routes(p.id)) {
      for (const k of [undefined, "ak_test_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", a.testKey.slice(0, -1)]) {
        const r = await h.call(method, path, { body, ...(k === undefined ? {} : { key: k }) });
        expect(r.status).toBe(401);
        expect(r.body.error.code).toBe("unauthorized");
      }
    }
  });

  test("another account's id answers 404 on every per-transaction route and changes nothing", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const b = await h.seedAccount();
    const p = await createPayment(h, a);
    for (const [method, path, body] of routes(p.id).slice(4)) {
      for (const k of [b.testKey, a.liveKey]) {
        const r = await h.call(method, path, { key: k, body });
        expect(r.status).toBe(404);
        expect(r.body.error.code).toBe("not_found");
      }
    }
    expect((await h.call("GET", `/v1/payments/${p.id}`, { key: a.testKey })).body.status).toBe("WAITING_PAYMENT");
  });

  test("a ch_ prefix is tolerated; a malformed or unknown id answers 404 No such transaction on every per-transaction route", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const p = await createPayment(h, a);
    expect((await h.call("GET", `/v1/payments/ch_${p.id}`, { key: a.testKey })).body.id).toBe(p.id);
    for (const id of ["not-an-id", p.id.toUpperCase(), "0".repeat(32), `ch_${"0".repeat(32)}`]) {
      for (const [method, path, body] of routes(id).slice(4)) {
        const r = await h.call(method, path, { key: a.testKey, body });
        expect(r.status).toBe(404);
        expect(r.body.error).toMatchObject({ code: "not_found", message: "No such transaction." });
      }
    }
  });

  test("the sandbox checkout endpoints do not exist for unknown ids", async () => {
    const h = createHarness();
    const none = "a".repeat(32);
    expect((await h.call("POST", `/c/${none}/card`, { body: { number: "4242424242424242" } })).status).toBe(404);
    expect((await h.call("POST", `/c/${none}/pay`, { body: { method: "PIX" } })).status).toBe(404);
    expect((await h.call("POST", `/c/not-an-id/pay`, { body: { method: "PIX" } })).status).toBe(404);
  });
});
