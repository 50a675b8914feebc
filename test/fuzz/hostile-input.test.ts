/**
 * Hostile input reproduced from issue 13 section 8, one named case each (the generic sweeps live
 * in api.test.ts): lone surrogates in validated emails, prototype member names as keys chosen by
 * the caller, `__proto__` in an idempotency fingerprint.
 */
import { describe, expect, test } from "bun:test";
import { createHarness } from "../support/harness";
import { isEmailAddress } from "../../src/lib/email";
import { canonicalJson } from "../../src/lib/crypto";
import { countDiff, tableDigests } from "./surface";

const LONE = "a\ud800@example.com";

describe("a lone UTF-16 surrogate in an email is 400 and writes nothing", () => {
  test("the email validator answers false instead of throwing URIError", () => {
    for (const bad of [LONE, "user@exa\udfffmple.com", "\ud83d"]) expect(isEmailAddress(bad)).toBe(false);
    expect(isEmailAddress("user@example.com")).toBe(true);
    expect(isEmailAddress("用户@example.com")).toBe(true);
  });

  test("customer.email of POST /v1/pix/charges", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const before = await tableDigests(h);
    const r = await h.call("POST", "/v1/pix/charges", {
      key: a.testKey,
      headers: { "idempotency-key": "surrogate-pix-01" },
      body: { amount: 100, customer: { name: "Ana", email: LONE } },
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({
      type: "invalid_request_error",
      code: "invalid_request",
      param: "customer.email",
    });
    expect(r.text).not.toContain("safe to retry");
    expect(countDiff(before, await tableDigests(h))).toEqual([]);
  });

  test("customerEmail of POST /v1/payments", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const before = await tableDigests(h);
    const r = await h.call("POST", "/v1/payments", {
      key: a.testKey,
      body: {
        idempotencyKey: "surrogate-pay-01",
        amount: 100,
        currency: "BRL",
        paymentMethods: ["PIX"],
        customerEmail: LONE,
      },
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: "invalid_request", param: "customerEmail" });
    expect(countDiff(before, await tableDigests(h))).toEqual([]);
  });

  test("a member's email of POST /v1/account/members, and the login email", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const login = await h.call("POST", "/v1/auth/login", { body: { email: a.email, password: a.password } });
    const before = await tableDigests(h);
    const r = await h.call("POST", "/v1/account/members", {
      bearer: login.body.access_token,
      body: { email: LONE, password: "member password 1", role: "VIEWER" },
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: "invalid_request", param: "email" });
    const l = await h.call("POST", "/v1/auth/login", { body: { email: LONE, password: "whatever1" } });
    expect(l.status).toBe(400);
    expect(countDiff(before, await tableDigests(h))).toEqual([]);
  });
});

describe("prototype member names chosen by the caller", () => {
  for (const name of ["constructor", "__proto__", "toString", "valueOf", "hasOwnProperty"])
    test(`GET /v1/payments?sortBy=${name} is 400 naming sortBy`, async () => {
      const h = createHarness();
      const a = await h.seedAccount();
      const r = await h.call("GET", `/v1/payments?sortBy=${name}`, { key: a.testKey });
      expect(r.status).toBe(400);
      expect(r.body.error).toMatchObject({ type: "invalid_request_error", code: "invalid_request", param: "sortBy" });
    });

  test("a query parameter named constructor is an unknown parameter, not a repeated one", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const r = await h.call("GET", "/v1/payments?constructor=1", { key: a.testKey });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toStartWith("Unknown query parameter constructor;");
    expect((await h.call("GET", "/v1/payments?sortBy=amount&sortOrder=asc", { key: a.testKey })).status).toBe(200);
  });

  test("a __proto__ key is part of the idempotency fingerprint (it is data, not a prototype)", () => {
    const withProto = JSON.parse('{"a":1,"__proto__":{"b":2}}');
    expect(canonicalJson(withProto)).toBe('{"__proto__":{"b":2},"a":1}');
    expect(canonicalJson(withProto)).not.toBe(canonicalJson({ a: 1 }));
  });
});
