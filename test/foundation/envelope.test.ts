/** Error envelope and X-Request-Id on every status the shell produces (interface.md "Errors"). */
import { beforeAll, describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { expectEnvelope, foundationHarness, keys } from "./fixtures";

describe("every response carries X-Request-Id and every error the one envelope", () => {
  const h = foundationHarness({ rateLimitPerMinute: 3 });
  let key = "";
  beforeAll(async () => {
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
    const r = await h.call("GET", "/v1/ping", { key: `ak_test_${"x".repeat(32)}` });
    expectEnvelope(r, 401, "authentication_error", "unauthorized");
  });

  test("404 for an unknown route", async () => {
    const r = await h.call("GET", "/v1/nothing/here");
    const e = expectEnvelope(r, 404, "not_found_error", "not_found");
    expect(e.param).toBeUndefined();
  });

  test("405 method_not_allowed with Allow for a known path with another method", async () => {
    const r = await h.call("DELETE", "/healthz", { headers: { "x-request-id": "wrong-method-1" } });
    const e = expectEnvelope(r, 405, "invalid_request_error", "method_not_allowed");
    expect(r.headers.get("allow")).toBe("GET, HEAD");
    expect(e.message).toBe("DELETE is not allowed on this path; allowed: GET, HEAD.");
    expect(r.body.request_id).toBe("wrong-method-1");
    expect(keys(e)).toEqual(["code", "message", "type"]);
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
      new Request("http://localhost/t/amount", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: stream,
      }),
    );
    expect(res.status).toBe(413);
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect((await res.json()).error.code).toBe("payload_too_large");
  });

  test("413 from the declared Content-Length alone, before the body is read", async () => {
    const res = await h.app.handle(
      new Request("http://localhost/t/amount", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "content-length": String(5 * 1024 * 1024),
          "x-request-id": "len-1",
        },
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
    const r = await h.call("POST", "/t/amount", {
      body: "amount=100",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
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
    for (const leak of ["secret", "SELECT", "api_keys", "/work/", ".ts", "Error", "stack"])
      expect(r.text).not.toContain(leak);
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

describe('wrong method versus unknown path (extensions.md "Wrong method")', () => {
  const h = foundationHarness();

  for (const [method, path, allow] of [
    ["PUT", "/v1/charges", "GET, HEAD, POST"],
    ["DELETE", "/v1/payments/ch_anything", "GET, HEAD"],
    ["GET", "/v1/payments/ch_anything/refund", "POST"],
    ["POST", "/v1/webhooks/endpoints/wh_x", "DELETE, PATCH"],
    ["OPTIONS", "/v1/pix/charges", "POST"],
    ["HEAD", "/v1/auth/login", "POST"],
    ["PATCH", "/v1/payments/stats", "GET, HEAD"],
  ] as const)
    test(`${method} ${path} is 405 with Allow: ${allow}`, async () => {
      const res = await h.app.handle(new Request(`http://localhost${path}`, { method }));
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe(allow);
      expect(res.headers.get("x-request-id")).toMatch(/^req_/);
      if (method !== "HEAD") expect(((await res.json()) as any).error.code).toBe("method_not_allowed");
    });

  test("the right method on those paths still reaches the route (401 without a key, not 405)", async () => {
    expect((await h.call("GET", "/v1/charges")).status).toBe(401);
    expect((await h.call("POST", "/v1/payments/ch_anything/refund", { body: {} })).status).toBe(401);
  });

  for (const path of ["/v1/nothing/here", "/v1/payments/ch_x/nothing", "/v1/charges/ch_x/extra/segments", "/healthzz"])
    test(`an unknown path (${path}) is 404 whatever the method, with no Allow`, async () => {
      for (const method of ["GET", "DELETE"]) {
        const r = await h.call(method, path);
        expectEnvelope(r, 404, "not_found_error", "not_found");
        expect(r.headers.get("allow")).toBeNull();
      }
    });

  test("a route mounted after the first unmatched request is known to the 405 check", async () => {
    const h2 = foundationHarness();
    expect((await h2.call("GET", "/t/late")).status).toBe(404);
    (h2.app as unknown as Elysia).use(new Elysia().put("/t/late", () => ({ ok: true })));
    const r = await h2.call("GET", "/t/late");
    expect(r.status).toBe(405);
    expect(r.headers.get("allow")).toBe("PUT");
  });

  test("a path with bad percent-encoding is 400 invalid_request, not a 500", async () => {
    for (const bad of ["%ZZ", "%ED%A0%80", "%E2%82"]) {
      const r = await h.call("GET", `/t/items/${bad}`);
      const e = expectEnvelope(r, 400, "invalid_request_error", "invalid_request");
      expect(e.message).toBe("The URL path is not valid percent-encoded UTF-8.");
    }
    expect((await h.call("GET", "/t/items/caf%C3%A9")).body).toEqual({ id: "café" });
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
    const escaped = await h.call("POST", "/t/amount", { body: `{"amount":5,"note":"\\"{{"}` });
    expect(escaped.status).toBe(200);
  });

  test("a missing body on a route that needs one is a validation failure", async () => {
    const r = await h.call("POST", "/t/amount");
    expectEnvelope(r, 400, "invalid_request_error", "invalid_amount");
  });
});

describe("media types: only application/json is JSON", () => {
  const h = foundationHarness();
  let key = "";
  beforeAll(async () => {
    key = (await h.seedAccount()).testKey;
  });

  for (const ct of [
    "application/jsonx",
    "application/json-seq",
    "application/merge-patch+json",
    "application/vnd.api+json",
    "text/json",
    "application/json; charset=latin1",
    'application/json;charset="iso-8859-1"',
    "xapplication/json",
  ])
    test(`Content-Type ${ct} is 415 and nothing is written`, async () => {
      const before = h.effects();
      const r = await h.call("POST", "/t/pay", {
        key,
        headers: { "content-type": ct, "idempotency-key": `media-${ct.length}-${ct.charCodeAt(14)}` },
        body: { amount: 100 },
      });
      const e = expectEnvelope(r, 415, "invalid_request_error", "unsupported_media_type");
      expect(e.message).toBe("Request bodies must be JSON (Content-Type: application/json).");
      expect(h.effects()).toBe(before);
    });

  for (const ct of [
    "application/json",
    "Application/JSON",
    "application/json; charset=utf-8",
    "application/json;charset=UTF-8",
    'application/json; charset="utf-8"',
    "application/json ; foo=bar",
  ])
    test(`Content-Type ${ct} is JSON`, async () => {
      const r = await h.call("POST", "/t/amount", { headers: { "content-type": ct }, body: { amount: 7 } });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ ok: true, amount: 7 });
    });
});

describe("text must be valid Unicode", () => {
  const h = foundationHarness();

  test("a lone UTF-16 surrogate in a string is 400 invalid_request naming the field, and nothing is written", async () => {
    const { testKey } = await h.seedAccount();
    for (const [body, param] of [
      ['{"amount":1,"note":"\\ud800"}', "note"],
      ['{"amount":1,"note":"ok\\udfff"}', "note"],
      ['{"amount":1,"meta":{"tags":["a","\\udc00x"]}}', "meta.tags.1"],
      ['{"amount":1,"\\ud83d":1}', "body"],
    ] as const) {
      const r = await h.call("POST", "/t/amount", { body });
      const e = expectEnvelope(r, 400, "invalid_request_error", "invalid_request");
      expect({ body, param: e.param }).toEqual({ body, param });
      expect(e.message).toBe(`${param} contains a lone UTF-16 surrogate; text must be valid Unicode.`);
    }
    const before = h.effects();
    const r = await h.call("POST", "/t/pay", {
      key: testKey,
      headers: { "idempotency-key": "surrogate-0001" },
      body: '{"amount":100,"note":"\\udbff"}',
    });
    expect(r.status).toBe(400);
    expect(h.effects()).toBe(before);
  });

  test("a well-formed surrogate pair and other escapes are accepted", async () => {
    const r = await h.call("POST", "/t/amount", { body: '{"amount":1,"note":"\\ud83d\\ude00\\u00e9"}' });
    expect(r.status).toBe(200);
  });
});

/**
 * Sends `head` then `body` one byte every `everyMs` over a raw socket to `port` and resolves with
 * the raw response text once the server closes the connection (or `giveUpMs` passes).
 */
async function trickle(
  port: number,
  head: string,
  body: string,
  everyMs: number,
  giveUpMs = 5000,
): Promise<{ response: string; bytesSent: number; closed: boolean }> {
  let response = "";
  let closed = false;
  let sent = 0;
  let done!: () => void;
  const finished = new Promise<void>((r) => (done = r));
  const socket = await Bun.connect({
    hostname: "127.0.0.1",
    port,
    socket: {
      data(_s, d) {
        response += new TextDecoder().decode(d);
      },
      close() {
        closed = true;
        done();
      },
      error() {
        done();
      },
    },
  });
  socket.write(head);
  const timer = setInterval(() => {
    if (closed || sent >= body.length) return;
    socket.write(body[sent++]!);
  }, everyMs);
  const giveUp = setTimeout(done, giveUpMs);
  await finished;
  clearInterval(timer);
  clearTimeout(giveUp);
  if (!closed) socket.end();
  return { response, bytesSent: sent, closed };
}

describe("a body that trickles in gets 408 after the body deadline", () => {
  test("a Content-Length body sent one byte at a time is answered 408 request_timeout in the envelope, the socket closed, nothing written", async () => {
    const h = foundationHarness({ bodyTimeoutMs: 200 });
    const { testKey } = await h.seedAccount();
    h.app.listen({ port: 0, hostname: "127.0.0.1" });
    try {
      const body = JSON.stringify({ amount: 100 }).padEnd(60, " ");
      const head = `POST /t/pay HTTP/1.1\r\nHost: 127.0.0.1\r\napikey: ${testKey}\r\nidempotency-key: trickle-0001\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nx-request-id: slow-1\r\n\r\n`;
      const started = performance.now();
      const r = await trickle(h.app.server!.port!, head, body, 40);
      const elapsed = performance.now() - started;
      expect(r.response).toStartWith("HTTP/1.1 408");
      expect(r.response.toLowerCase()).toContain("connection: close");
      const json = JSON.parse(r.response.slice(r.response.indexOf("\r\n\r\n") + 4));
      expect(json).toEqual({
        error: {
          type: "invalid_request_error",
          code: "request_timeout",
          message: "The request body did not arrive within 0.2 seconds; send it in full and retry.",
        },
        request_id: "slow-1",
      });
      expect(r.closed).toBe(true);
      expect(r.bytesSent).toBeLessThan(body.length);
      expect(elapsed).toBeLessThan(3000);
      expect(h.effects()).toBe(0);
    } finally {
      await h.app.stop(true);
    }
  });

  test("a chunked body without Content-Length that trickles is answered 408 as well", async () => {
    const h = foundationHarness({ bodyTimeoutMs: 200 });
    h.app.listen({ port: 0, hostname: "127.0.0.1" });
    try {
      const head =
        "POST /t/amount HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n";
      const chunks = `${[...'{"amount":1}'].map((c) => `1\r\n${c}\r\n`).join("")}0\r\n\r\n`;
      const r = await trickle(h.app.server!.port!, head, chunks, 40);
      expect(r.response).toStartWith("HTTP/1.1 408");
      expect(r.response).toContain('"code":"request_timeout"');
    } finally {
      await h.app.stop(true);
    }
  });

  test("a body that arrives within the deadline is served as usual", async () => {
    // 14 bytes 5 ms apart (~70 ms) against 2 s: a loaded box stretches the timers, not 28 times.
    const h = foundationHarness({ bodyTimeoutMs: 2000 });
    h.app.listen({ port: 0, hostname: "127.0.0.1" });
    try {
      const body = JSON.stringify({ amount: 5 });
      const head = `POST /t/amount HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n`;
      const r = await trickle(h.app.server!.port!, head, body, 5);
      expect(r.response).toStartWith("HTTP/1.1 200");
      expect(r.response).toEndWith('{"ok":true,"amount":5}');
    } finally {
      await h.app.stop(true);
    }
  });

  test("the deadline defaults to 30 seconds and COFRE_BODY_TIMEOUT_SECONDS sets it", async () => {
    const { loadConfig } = await import("../../src/config");
    expect(loadConfig({}).bodyTimeoutMs).toBe(30_000);
    expect(loadConfig({ COFRE_BODY_TIMEOUT_SECONDS: "5" }).bodyTimeoutMs).toBe(5_000);
    expect(() => loadConfig({ COFRE_BODY_TIMEOUT_SECONDS: "0" })).toThrow(
      "COFRE_BODY_TIMEOUT_SECONDS must be between 1 and 3600, got 0",
    );
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

  for (const body of ['{"amount":"100"}', '{"amount":10.5}', '{"amount":"1e3"}'])
    test(`${body} is told that amounts are integers in centavos`, async () => {
      const r = await h.call("POST", "/t/amount", { body });
      const e = expectEnvelope(r, 400, "invalid_request_error", "invalid_amount");
      const message = "amount must be an integer number of centavos (R$ 10,00 = 1000).";
      expect(e.message).toBe(message);
      expect(e.details).toEqual([{ param: "amount", message }]);
    });

  test("an amount out of range keeps the range message", async () => {
    const r = await h.call("POST", "/t/amount", { body: { amount: 0 } });
    expect(r.body.error.details).toEqual([
      { param: "amount", message: "Expected integer to be greater or equal to 1" },
    ]);
  });
});
