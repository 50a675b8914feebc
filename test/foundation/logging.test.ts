/** Access log: one pino JSON line per request, never a secret (issue "Runtime foundation" part 8). */
import { describe, expect, test } from "bun:test";
import { createLogger } from "../../src/lib/logger";
import { sha256Hex } from "../../src/lib/crypto";
import { foundationHarness } from "./fixtures";

function capture() {
  const lines: string[] = [];
  const logger = createLogger("info", { write: (s: string) => void lines.push(s) });
  const records = () => lines.map((l) => JSON.parse(l) as Record<string, any>);
  // The harness fetches /docs/json once per process (its OpenAPI checker): not a request of the test.
  const requests = () => records().filter((r) => r.msg === "request" && r.route !== "/docs/json");
  return { logger, lines, records, requests };
}

const settle = () => Bun.sleep(5);

describe("access log", () => {
  test("one JSON line per request with request id, method, route, status and duration", async () => {
    const log = capture();
    const h = foundationHarness({}, log.logger);
    const r = await h.call("GET", "/healthz", { headers: { "x-request-id": "log-1" } });
    await settle();
    const reqs = log.requests();
    expect(reqs).toHaveLength(1);
    const line = reqs[0];
    expect(line).toMatchObject({ level: 30, request_id: "log-1", method: "GET", route: "/healthz", status: 200 });
    expect(typeof line.duration_ms).toBe("number");
    expect(line.duration_ms).toBeGreaterThanOrEqual(0);
    expect(line.key_fingerprint).toBeUndefined();
    expect(r.headers.get("x-request-id")).toBe("log-1");
    for (const l of log.lines) expect(l.endsWith("\n")).toBe(true);
  });

  test("the route is the path template, not the concrete path", async () => {
    const log = capture();
    const h = foundationHarness({}, log.logger);
    await h.call("GET", "/t/items/it_123");
    await settle();
    expect(log.requests()[0].route).toBe("/t/items/:id");
  });

  test("error responses are logged with their real status", async () => {
    const log = capture();
    const h = foundationHarness({}, log.logger);
    await h.call("GET", "/nope");
    await h.call("GET", "/v1/ping");
    await h.call("POST", "/t/amount", { body: { amount: "1" } });
    await h.call("POST", "/t/amount", { body: "{" });
    await h.call("GET", "/boom");
    await h.call("POST", "/t/amount", { body: "{}", headers: { "content-length": String(1 << 30) } });
    await settle();
    expect(log.requests().map((l) => l.status)).toEqual([404, 401, 400, 400, 500, 413]);
    expect(log.requests().map((l) => l.route)).toEqual([
      "/nope",
      "/v1/ping",
      "/t/amount",
      "/t/amount",
      "/boom",
      "/t/amount",
    ]);
    const errors = log.records().filter((r) => r.level >= 50);
    expect(errors).toHaveLength(1);
    expect(errors[0].request_id).toBe(log.requests()[4].request_id);
  });

  test("an authenticated request logs the key fingerprint and never the key", async () => {
    const log = capture();
    const h = foundationHarness({}, log.logger);
    const { testKey } = await h.seedAccount();
    await h.call("GET", "/v1/ping", { key: testKey });
    await h.call("POST", "/t/pay", {
      key: testKey,
      body: { amount: 13 },
      headers: { "idempotency-key": "log-key-0001" },
    });
    await settle();
    const reqs = log.requests();
    expect(reqs).toHaveLength(2);
    expect(reqs[0]).toMatchObject({ route: "/v1/ping", status: 200, key_fingerprint: sha256Hex(testKey) });
    expect(reqs[1]).toMatchObject({ route: "/t/pay", status: 500, key_fingerprint: sha256Hex(testKey) });
    const all = log.lines.join("");
    expect(all).not.toContain(testKey);
    expect(all).not.toContain(testKey.slice(8));
  });

  test("a rejected key is neither logged nor fingerprinted", async () => {
    const log = capture();
    const h = foundationHarness({}, log.logger);
    const wrong = `ak_live_${"w".repeat(30)}`;
    await h.call("GET", "/v1/ping", { key: wrong });
    await settle();
    expect(log.requests()[0].status).toBe(401);
    expect(log.requests()[0].key_fingerprint).toBeUndefined();
    expect(log.lines.join("")).not.toContain("w".repeat(30));
  });

  test("secrets passed to the logger by mistake are redacted", () => {
    const log = capture();
    log.logger.info(
      {
        password: "hunter2-pass",
        apikey: "ak_test_secretsecret",
        user: { password: "p2-secret" },
        token: "tok-secret",
      },
      "oops",
    );
    const all = log.lines.join("");
    for (const s of ["hunter2-pass", "ak_test_secretsecret", "p2-secret", "tok-secret"]) expect(all).not.toContain(s);
    expect(all).toContain("[redacted]");
  });
});
