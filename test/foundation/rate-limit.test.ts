/** Per-key and per-account minute windows (issue "Runtime foundation" part 7). */
import { describe, expect, test } from "bun:test";
import { RateLimiter } from "../../src/domain/api-keys/rate-limit";
import { MemoryRateLimits } from "../../src/store/memory/rate-limits";
import { ManualClock } from "../../src/lib/clock";
import { expectEnvelope, foundationHarness } from "./fixtures";

describe("rate limit headers", () => {
  test("every authenticated response carries the limit and what remains of it", async () => {
    const h = foundationHarness({ rateLimitPerMinute: 10 });
    const { testKey } = await h.seedAccount();
    const ok = await h.call("GET", "/v1/ping", { key: testKey });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("x-ratelimit-limit-minute")).toBe("10");
    expect(ok.headers.get("x-ratelimit-remaining-minute")).toBe("9");
    const invalid = await h.call("POST", "/t/pay", {
      key: testKey,
      body: { amount: "1" },
      headers: { "idempotency-key": "rl-key-0001" },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get("x-ratelimit-limit-minute")).toBe("10");
    expect(invalid.headers.get("x-ratelimit-remaining-minute")).toBe("8");
    const missingKey = await h.call("POST", "/t/pay", { key: testKey, body: { amount: 1 } });
    expect(missingKey.status).toBe(400);
    expect(missingKey.headers.get("x-ratelimit-remaining-minute")).toBe("7");
  });

  test("unauthenticated and rejected-key responses carry no rate limit headers", async () => {
    const h = foundationHarness({ rateLimitPerMinute: 10 });
    for (const r of [await h.call("GET", "/healthz"), await h.call("GET", "/v1/ping", { key: "ak_test_nope" })]) {
      expect(r.headers.get("x-ratelimit-limit-minute")).toBeNull();
      expect(r.headers.get("x-ratelimit-remaining-minute")).toBeNull();
    }
  });
});

describe("over the limit", () => {
  test("the request after the last allowed one is 429 rate_limited with Retry-After until the window resets", async () => {
    const h = foundationHarness({ rateLimitPerMinute: 3 });
    const { testKey } = await h.seedAccount();
    h.clock.advance(15);
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await h.call("GET", "/v1/ping", { key: testKey });
      expect(r.status).toBe(200);
      remaining.push(r.headers.get("x-ratelimit-remaining-minute")!);
    }
    expect(remaining).toEqual(["2", "1", "0"]);
    const over = await h.call("GET", "/v1/ping", { key: testKey });
    expectEnvelope(over, 429, "rate_limit_error", "rate_limited");
    expect(over.headers.get("retry-after")).toBe("45");
    expect(over.headers.get("x-ratelimit-limit-minute")).toBe("3");
    expect(over.headers.get("x-ratelimit-remaining-minute")).toBe("0");
  });

  test("the limit applies before the body is validated or the handler runs", async () => {
    const h = foundationHarness({ rateLimitPerMinute: 1 });
    const { testKey } = await h.seedAccount();
    await h.call("GET", "/v1/ping", { key: testKey });
    const r = await h.call("POST", "/t/pay", {
      key: testKey,
      body: { amount: 5 },
      headers: { "idempotency-key": "rl-key-0002" },
    });
    expect(r.status).toBe(429);
    expect(h.effects()).toBe(0);
  });

  test("a new minute window lets requests through again", async () => {
    const h = foundationHarness({ rateLimitPerMinute: 1 });
    const { testKey } = await h.seedAccount();
    expect((await h.call("GET", "/v1/ping", { key: testKey })).status).toBe(200);
    expect((await h.call("GET", "/v1/ping", { key: testKey })).status).toBe(429);
    h.clock.advance(60);
    const r = await h.call("GET", "/v1/ping", { key: testKey });
    expect(r.status).toBe(200);
    expect(r.headers.get("x-ratelimit-remaining-minute")).toBe("0");
  });

  test("each key has its own window: another key of the account still passes", async () => {
    const h = foundationHarness({ rateLimitPerMinute: 1 });
    const a = await h.seedAccount();
    expect((await h.call("GET", "/v1/ping", { key: a.testKey })).status).toBe(200);
    expect((await h.call("GET", "/v1/ping", { key: a.testKey })).status).toBe(429);
    expect((await h.call("GET", "/v1/ping", { key: a.liveKey })).status).toBe(200);
  });

  test("the account-wide window is four times the key limit", () => {
    const limiter = new RateLimiter(new ManualClock(), 2, new MemoryRateLimits());
    const allowed = Array.from({ length: 6 }, (_, i) => [limiter.hit(`k${i}`, "acct"), limiter.hit(`k${i}`, "acct")])
      .flat()
      .filter((d) => d.allowed).length;
    expect(allowed).toBe(8);
    expect(limiter.hit("other-key", "other-acct").allowed).toBe(true);
  });

  test("limiters sharing one counter store share the windows (the seam for several instances)", () => {
    const clock = new ManualClock();
    const counters = new MemoryRateLimits();
    const a = new RateLimiter(clock, 2, counters);
    const b = new RateLimiter(clock, 2, counters);
    expect([a.hit("k", "acct"), b.hit("k", "acct"), a.hit("k", "acct")].map((d) => [d.allowed, d.remaining])).toEqual([
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    clock.advance(60);
    expect(b.hit("k", "acct").allowed).toBe(true);
  });

  test("COFRE_RATE_LIMIT_PER_MINUTE=0 disables the limiter and its headers", async () => {
    const h = foundationHarness({ rateLimitPerMinute: 0 });
    const { testKey } = await h.seedAccount();
    for (let i = 0; i < 20; i++) {
      const r = await h.call("GET", "/v1/ping", { key: testKey });
      expect(r.status).toBe(200);
      expect(r.headers.get("x-ratelimit-limit-minute")).toBeNull();
    }
  });
});

describe("authentication order", () => {
  test("a bad key is 401 whatever the body", async () => {
    const h = foundationHarness();
    const r = await h.call("POST", "/t/pay", { key: `ak_test_${"z".repeat(30)}`, body: { amount: "bad" } });
    expectEnvelope(r, 401, "authentication_error", "unauthorized");
  });

  test("a valid key with anything appended or inside it is 401", async () => {
    const h = foundationHarness();
    const { testKey } = await h.seedAccount();
    for (const bad of [`${testKey}x`, `${testKey}\tx`, testKey.slice(0, -1), testKey.toUpperCase()]) {
      expect((await h.call("GET", "/v1/ping", { key: bad })).status).toBe(401);
    }
    expect((await h.call("GET", "/v1/ping", { key: testKey })).status).toBe(200);
  });
});
