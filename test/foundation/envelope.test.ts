/** Error envelope and X-Request-Id on every status the shell produces (interface.md "Errors"). */
import { describe, expect, test } from "bun:test";
import { expectEnvelope, foundationHarness, keys } from "./fixtures";

describe("every response carries X-Request-Id and every error the one envelope", () => {
  const h = foundationHarness({ rateLimitPerMinute: 3 });
  let key = "";
  test("seed", async () => {
    key = (await h.seedAccount()).testKey;
  });

  test("200 carries a generated request id", async () => {
    const r = await h.call("GET", "/healthz");
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: "ok" });
    expect(r.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{32}$/);
  });

  test("two requests get different generated ids", async () => {
    const a = await h.call("GET", "/healthz");
    const b = await h.call("GET", "/healthz");
    expect(a.headers.get("x-request-id")).not.toBe(b.headers.get("x-request-id"));
  });

  test("400 validation failure is invalid_request_error with details and the request id", async () => {
    const r = await h.call("POST", "/t/amount", { body: { amount: 100, note: "far too long" } });
    const e = expectEnvelope(r, 400, "invalid_request_error", "invalid_request");
    expect(e.param).toBe("note");
    expect(Array.isArray(e.details)).toBe(true);
    for (const d of e.details) expect(keys(d)).toEqual(["message", "param"]);
  });

  test("401 for a missing key", async () => {
    const r = await h.call("GET", "/v1/ping");
    expectEnvelope(r, 401, "authentication_error", "unauthorized");
  });

  test("401 for a well-formed but unknown key", async () => {
    const r = await h.call("GET", "/v1/ping", { key: "ak_test_" + "x".repeat(32) });
    expectEnvelope(r, 401, "authentication_error", "unauthorized");
  });

  test("404 for an unknown route", async () => {
    const r = await h.call("GET", "/v1/nothing/here");
    const e = expectEnvelope(r, 404, "not_found_error", "not_found");
    expect(e.param).toBeUndefined();
  });

  test("404 for a known path with an unknown method", async () => {
    const r = await h.call("DELETE", "/healthz");
    expectEnvelope(r, 404, "not_found_error", "not_found");
  });

  test("409 for an idempotency key reused with another body", async () => {
    const headers = { "idempotency-key": "envelope-409-key" };
    expect((await h.call("POST", "/t/pay", { key, headers, body: { amount: 100 } })).status).toBe(201);
    const r = await h.call("POST", "/t/pay", { key, headers, body: { amount: 200 } });
    expectEnvelope(r, 409, "conflict_error", "idempotency_key_reused");
  });

  test("413 for a body over the configured maximum", async () => {
    const big = JSON.stringify({ amount: 1, note: "x".repeat(2 * 1024 * 1024) });
    const r = await h.call("POST", "/t/amount", { body: big });
    const e = expectEnvelope(r, 413, "invalid_request_error", "payload_too_large");
    expect(r.text.length).toBeLessThan(1000);
    expect(e.details).toBeUndefined();
  });

  test("413 also without a Content-Length header (streamed body)", async () => {
    const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream({
      pull(c) {
        if (sent++ < 20) c.enqueue(chunk);
        else c.close();
      },
    });
    const res = await h.app.handle(
      new Request("http://localhost/t/amount", { method: "POST", headers: { "content-type": "application/json" }, body: stream }),
    );
    expect(res.status).toBe(413);
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect((await res.json()).error.code).toBe("payload_too_large");
  });

  test("413 from the declared Content-Length alone, before the body is read", async () => {
    const res = await h.app.handle(
      new Request("http://localhost/t/amount", {
        method: "POST",
        headers: { "content-type": "application/json", "content-length": String(5 * 1024 * 1024), "x-request-id": "len-1" },
        body: '{"amount":1}',
      }),
    );
    expect(res.status).toBe(413);
    expect(res.headers.get("x-request-id")).toBe("len-1");
    expect(await res.json()).toEqual({
      error: { type: "invalid_request_error", code: "payload_too_large", message: "The request body is too large." },
      request_id: "len-1",
    });
  });

  test("a body just under the maximum is accepted", async () => {
    const h2 = foundationHarness({ maxBodyBytes: 100 });
    const body = JSON.stringify({ amount: 1, note: "abc" });
    expect((await h2.call("POST", "/t/amount", { body })).status).toBe(200);
    const over = JSON.stringify({ amount: 1, note: "abc", pad: "p".repeat(100) });
    expect((await h2.call("POST", "/t/amount", { body: over })).status).toBe(413);
  });

  test("over real HTTP, a 20 MiB body still gets the envelope and the request id", async () => {
    const h2 = foundationHarness();
    h2.app.listen({ port: 0, hostname: "127.0.0.1" });
    try {
      const res = await fetch(`http://127.0.0.1:${h2.app.server!.port}/t/amount`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-request-id": "big-1" },
        body: "x".repeat(20 * 1024 * 1024),
      });
      expect(res.status).toBe(413);
      expect(res.headers.get("x-request-id")).toBe("big-1");
      expect(((await res.json()) as any).error.code).toBe("payload_too_large");
    } finally {
      await h2.app.stop(true);
    }
  });

  test("415 for a non-JSON content type", async () => {
    const r = await h.call("POST", "/t/amount", { body: "amount=100", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expectEnvelope(r, 415, "invalid_request_error", "unsupported_media_type");
  });

  test("429 over the rate limit", async () => {
    let last;
    for (let i = 0; i < 4; i++) last = await h.call("GET", "/v1/ping", { key });
    expectEnvelope(last!, 429, "rate_limit_error", "rate_limited");
  });

  test("500 for an unexpected failure, with no internals in the body", async () => {
    const r = await h.call("GET", "/boom", { headers: { "x-request-id": "boom-1" } });
    const e = expectEnvelope(r, 500, "api_error", "internal_error");
    expect(r.body.request_id).toBe("boom-1");
    expect(keys(e)).toEqual(["code", "message", "type"]);
    for (const leak of ["secret", "SELECT", "api_keys", "/work/", ".ts", "Error", "stack"]) expect(r.text).not.toContain(leak);
  });
});

describe("server bugs", () => {
  test("a response outside its own schema is 500, not a validation error, and shows nothing of it", async () => {
    const h = foundationHarness();
    const r = await h.call("GET", "/t/bad-response");
    expectEnvelope(r, 500, "api_error", "internal_error");
    expect(r.text).not.toContain("secret-shape");
    expect(r.text).not.toContain("wrongField");
  });
});

describe("X-Request-Id from the caller", () => {
  const h = foundationHarness();

  test("a sane id is echoed unchanged, on success and on error", async () => {
    const ok = await h.call("GET", "/healthz", { headers: { "x-request-id": "client-abc_123.XYZ" } });
    expect(ok.headers.get("x-request-id")).toBe("client-abc_123.XYZ");
    const nf = await h.call("GET", "/nope", { headers: { "x-request-id": "client-404" } });
    expect(nf.headers.get("x-request-id")).toBe("client-404");
    expect(nf.body.request_id).toBe("client-404");
  });

  test("an id of 200 characters is kept", async () => {
    const id = "a".repeat(200);
    const r = await h.call("GET", "/healthz", { headers: { "x-request-id": id } });
    expect(r.headers.get("x-request-id")).toBe(id);
  });

  test("a too long id is replaced by a generated one", async () => {
    const r = await h.call("GET", "/nope", { headers: { "x-request-id": "a".repeat(201) } });
    expect(r.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{32}$/);
    expect(r.body.request_id).toBe(r.headers.get("x-request-id")!);
  });

  test("an id with spaces or non-ASCII characters is replaced", async () => {
    for (const bad of ["has space", "caf\u00e9", "tab\there"]) {
      const r = await h.call("GET", "/healthz", { headers: { "x-request-id": bad } });
      expect(r.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{32}$/);
    }
  });
});

describe("request bodies", () => {
  const h = foundationHarness();

  test("malformed JSON is 400 invalid_json and does not echo the body", async () => {
    const r = await h.call("POST", "/t/amount", { body: '{"amount": 100, "note": "SECRETVALUE"' });
    const e = expectEnvelope(r, 400, "invalid_request_error", "invalid_json");
    expect(r.text).not.toContain("SECRETVALUE");
    expect(e.details).toBeUndefined();
  });

  test("a JSON body that is not an object is a validation failure", async () => {
    const r = await h.call("POST", "/t/amount", { body: "[1,2]" });
    expect(r.status).toBe(400);
    expect(r.body.error.type).toBe("invalid_request_error");
    expect(r.body.error.details.length).toBeGreaterThan(0);
  });

  test("a validation failure never echoes the submitted values", async () => {
    const r = await h.call("POST", "/t/amount", { body: { amount: 5, note: "SECRET-4111111111111111" } });
    expectEnvelope(r, 400, "invalid_request_error", "invalid_request");
    expect(r.text).not.toContain("SECRET");
    expect(r.text).not.toContain("4111111111111111");
    const r2 = await h.call("POST", "/t/amount", { body: { amount: "SECRET-77" } });
    expect(r2.status).toBe(400);
    expect(r2.text).not.toContain("SECRET-77");
    const r3 = await h.call("POST", "/t/amount", { body: { amount: 5, note: 41111111111 } });
    expect(r3.status).toBe(400);
    expect(r3.text).not.toContain("41111111111");
    expect(r3.body.error.details).toEqual([{ param: "note", message: "Expected string" }]);
  });

  test("a body nested deeper than 32 levels is refused before parsing, however deep", async () => {
    for (const depth of [33, 100_000]) {
      const body = `{"amount":${"[".repeat(depth - 1)}${"]".repeat(depth - 1)}}`;
      const r = await h.call("POST", "/t/amount", { body });
      const e = expectEnvelope(r, 400, "invalid_request_error", "invalid_request");
      expect(e.message).toContain("32");
    }
    const ok = await h.call("POST", "/t/amount", { body: `{"amount":${"[".repeat(31)}${"]".repeat(31)}}` });
    expect(ok.body.error.code).toBe("invalid_amount");
  });

  test("brackets inside strings do not count as nesting", async () => {
    const r = await h.call("POST", "/t/amount", { body: JSON.stringify({ amount: 5, note: "[[[[" }) });
    expect(r.status).toBe(200);
    const escaped = await h.call("POST", "/t/amount", { body: `{"amount":5,"note":"\\\"{{"}` });
    expect(escaped.status).toBe(200);
  });

  test("a missing body on a route that needs one is a validation failure", async () => {
    const r = await h.call("POST", "/t/amount");
    expectEnvelope(r, 400, "invalid_request_error", "invalid_amount");
  });
});

describe("amounts are strict integers", () => {
  const h = foundationHarness();

  test("an integer amount is accepted as is", async () => {
    const r = await h.call("POST", "/t/amount", { body: { amount: 100 } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ok: true, amount: 100 });
  });

  for (const [label, body] of [
    ["a numeric string", '{"amount":"100"}'],
    ["a fraction", '{"amount":1.5}'],
    ["an exponent string", '{"amount":"1e3"}'],
    ["zero", '{"amount":0}'],
    ["a negative number", '{"amount":-5}'],
    ["a boolean", '{"amount":true}'],
    ["null", '{"amount":null}'],
    ["an amount above 10^12", '{"amount":1000000000001}'],
  ] as const) {
    test(`${label} is rejected with invalid_amount naming the field`, async () => {
      const r = await h.call("POST", "/t/amount", { body });
      const e = expectEnvelope(r, 400, "invalid_request_error", "invalid_amount");
      expect(e.param).toBe("amount");
      expect(e.details.map((d: any) => d.param)).toContain("amount");
    });
  }
});
