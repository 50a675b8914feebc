/**
 * Login throttle (src/domain/auth/throttle.ts): a guesser who knows the owner's email cannot keep
 * the owner out. Driven through LoginThrottle with a ManualClock and explicit client addresses
 * (in-process requests have no socket address), plus end-to-end checks over a real socket, with
 * and without a trusted proxy in front.
 * The rules run on the run's backend: in memory, or under COFRE_TEST_PG=1 on the `login_throttle`
 * rows every instance shares (src/store/pg/login-buckets.ts).
 */
import { describe, expect, test } from "bun:test";
import { ManualClock } from "../../src/lib/clock";
import {
  ADDRESS_LIMIT,
  EMAIL_BACKOFF_MAX_SECONDS,
  EMAIL_FREE_FAILURES,
  LOGIN_WINDOW_SECONDS,
  LoginThrottle,
  MemoryLoginBuckets,
  PAIR_LIMIT,
} from "../../src/domain/auth/throttle";
import { pgStoreOf } from "../../src/store/pg";
import { PgLoginBuckets } from "../../src/store/pg/login-buckets";
import { testStore } from "../support/backend";
import { authHarness } from "./support";

/** A throttle on `clock` whose buckets live where this run keeps data (memory, or a PostgreSQL database of its own). */
function throttle(clock: ManualClock): LoginThrottle {
  const store = testStore();
  return new LoginThrottle(clock, store ? new PgLoginBuckets(pgStoreOf(store)) : new MemoryLoginBuckets());
}

const OWNER = "owner@example.com";
const HOME = "203.0.113.7";

/** `n` failed attempts on `email` from `address` (each admitted; asserts it). */
async function fail(t: LoginThrottle, email: string, address: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) expect(await t.admit(email, address)).toBe(0);
}

describe("login throttle: one guesser", () => {
  test("ten wrong passwords lock that address out of that email only, for the rest of the window", async () => {
    const clock = new ManualClock("2026-11-20T12:00:00.000Z");
    const t = throttle(clock);
    await fail(t, OWNER, "198.51.100.1", PAIR_LIMIT);
    expect(await t.admit(OWNER, "198.51.100.1")).toBe(LOGIN_WINDOW_SECONDS);
    expect(await t.admit(OWNER, HOME)).toBe(0); // the owner from home
    expect(await t.admit("other@example.com", "198.51.100.1")).toBe(0); // the same address, another email
    clock.advance(LOGIN_WINDOW_SECONDS);
    expect(await t.admit(OWNER, "198.51.100.1")).toBe(0);
  });

  test("attempts arriving at once are admitted exactly up to the limit, never past it", async () => {
    const t = throttle(new ManualClock("2026-11-20T12:00:00.000Z"));
    const waits = await Promise.all(Array.from({ length: PAIR_LIMIT + 5 }, () => t.admit(OWNER, "198.51.100.2")));
    expect(waits.filter((w) => w === 0)).toHaveLength(PAIR_LIMIT);
    expect(waits.filter((w) => w === LOGIN_WINDOW_SECONDS)).toHaveLength(5);
  });

  test("a hundred failures from one address over many emails lock the address", async () => {
    const t = throttle(new ManualClock("2026-11-20T12:00:00.000Z"));
    for (let i = 0; i < ADDRESS_LIMIT; i++) expect(await t.admit(`user${i}@example.com`, "198.51.100.9")).toBe(0);
    expect(await t.admit("fresh@example.com", "198.51.100.9")).toBe(LOGIN_WINDOW_SECONDS);
    expect(await t.admit("fresh@example.com", "198.51.100.10")).toBe(0);
  });

  test("a success clears that address's count for the email", async () => {
    const t = throttle(new ManualClock("2026-11-20T12:00:00.000Z"));
    await fail(t, OWNER, HOME, PAIR_LIMIT - 1);
    expect(await t.admit(OWNER, HOME)).toBe(0);
    await t.succeeded(OWNER, HOME);
    await fail(t, OWNER, HOME, PAIR_LIMIT);
    expect(await t.admit(OWNER, HOME)).toBeGreaterThan(0);
  });
});

describe("login throttle: many addresses against one email", () => {
  /** `n` failures from distinct attacker addresses, each sent as soon as the throttle admits it. */
  async function spread(t: LoginThrottle, clock: ManualClock, n: number): Promise<void> {
    for (let i = 0; i < n; i++) {
      const address = `192.0.2.${i}`;
      for (let wait = await t.admit(OWNER, address); wait > 0; wait = await t.admit(OWNER, address))
        clock.advance(wait);
    }
  }

  test("after twenty failures a new address waits 1, 2, 4... seconds after the last failure, never more than 60", async () => {
    const clock = new ManualClock("2026-11-20T12:00:00.000Z");
    const t = throttle(clock);
    await spread(t, clock, EMAIL_FREE_FAILURES);
    const waits: number[] = [];
    for (let k = 0; k < 9; k++) {
      const wait = await t.admit(OWNER, `192.0.2.${100 + k}`);
      waits.push(wait);
      clock.advance(wait);
      expect(await t.admit(OWNER, `192.0.2.${100 + k}`)).toBe(0);
    }
    expect(waits).toEqual([
      1,
      2,
      4,
      8,
      16,
      32,
      EMAIL_BACKOFF_MAX_SECONDS,
      EMAIL_BACKOFF_MAX_SECONDS,
      EMAIL_BACKOFF_MAX_SECONDS,
    ]);
  });

  test("the owner's usual address is never slowed by strangers' failures", async () => {
    const clock = new ManualClock("2026-11-20T12:00:00.000Z");
    const t = throttle(clock);
    expect(await t.admit(OWNER, HOME)).toBe(0);
    await t.succeeded(OWNER, HOME);
    await spread(t, clock, 30);
    expect(await t.admit(OWNER, "192.0.2.250")).toBe(EMAIL_BACKOFF_MAX_SECONDS);
    expect(await t.admit(OWNER, HOME)).toBe(0);
    await t.succeeded(OWNER, HOME);
  });

  test("an owner on a new address waits at most a minute, and logging in from there ends the wait for it", async () => {
    const clock = new ManualClock("2026-11-20T12:00:00.000Z");
    const t = throttle(clock);
    await spread(t, clock, 30);
    const wait = await t.admit(OWNER, "198.51.100.77");
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(EMAIL_BACKOFF_MAX_SECONDS);
    clock.advance(wait);
    expect(await t.admit(OWNER, "198.51.100.77")).toBe(0);
    await t.succeeded(OWNER, "198.51.100.77");
    expect(await t.admit(OWNER, "198.51.100.77")).toBe(0);
  });

  test("the per-email count ends with its window", async () => {
    const clock = new ManualClock("2026-11-20T12:00:00.000Z");
    const t = throttle(clock);
    await spread(t, clock, 30);
    clock.advance(LOGIN_WINDOW_SECONDS);
    expect(await t.admit(OWNER, "198.51.100.5")).toBe(0);
  });
});

describe("login throttle over HTTP", () => {
  test("ten wrong passwords from one socket address answer 429 there whatever X-Forwarded-For says, and the owner elsewhere still logs in", async () => {
    const h = authHarness();
    const a = await h.seedAccount();
    h.app.listen({ port: 0, hostname: "127.0.0.1" });
    try {
      const url = `http://127.0.0.1:${h.app.server!.port}/v1/auth/login`;
      const post = (password: string, forwardedFor = "203.0.113.99") =>
        fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json", "x-forwarded-for": forwardedFor },
          body: JSON.stringify({ email: a.email, password }),
        });
      for (let i = 0; i < PAIR_LIMIT; i++) expect((await post(`wrong-${i}`)).status).toBe(401);
      const locked = await post(a.password);
      expect(locked.status).toBe(429);
      expect(Number(locked.headers.get("retry-after"))).toBe(LOGIN_WINDOW_SECONDS);
      // X-Forwarded-For is not trusted (no trusted-proxy setting): another claimed address is the same socket.
      expect((await post(a.password, "198.51.100.200")).status).toBe(429);
      // In-process requests have another client address ("unknown"): the socket's 127.0.0.1 was locked, not the email.
      expect((await h.call("POST", "/v1/auth/login", { body: { email: a.email, password: a.password } })).status).toBe(
        200,
      );
    } finally {
      await h.app.stop(true);
    }
  });
});

describe("login throttle behind a trusted proxy (COFRE_TRUSTED_PROXIES)", () => {
  test("counts failures per client address the proxy forwarded: the guesser is locked, another client of the same proxy still logs in, on both login routes", async () => {
    const h = authHarness({ trustedProxies: ["127.0.0.0/8"] });
    const a = await h.seedAccount();
    h.app.listen({ port: 0, hostname: "127.0.0.1" });
    try {
      const base = `http://127.0.0.1:${h.app.server!.port}`;
      const post = (path: string, password: string, forwardedFor: string) =>
        fetch(`${base}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-forwarded-for": forwardedFor },
          body: JSON.stringify({ email: a.email, password }),
        });
      for (let i = 0; i < PAIR_LIMIT; i++)
        expect((await post("/v1/auth/login", `wrong-${i}`, "203.0.113.99")).status).toBe(401);
      expect((await post("/v1/auth/login", a.password, "203.0.113.99")).status).toBe(429);
      expect((await post("/v1/auth/session", a.password, "203.0.113.99")).status).toBe(429);
      // The guesser cannot step around the lock by writing another address left of the one the proxy appended.
      expect((await post("/v1/auth/login", a.password, "198.51.100.1, 203.0.113.99")).status).toBe(429);
      // Another client behind the same proxy is another address: the socket's 127.0.0.1 is not locked.
      expect((await post("/v1/auth/login", a.password, "198.51.100.200")).status).toBe(200);
      expect((await post("/v1/auth/session", a.password, "198.51.100.201")).status).toBe(200);
    } finally {
      await h.app.stop(true);
    }
  });
});

describe("login throttle as a Deps object", () => {
  test("login and the dashboard's cookie login ask deps.loginThrottle, which may answer asynchronously, and report a success to it", async () => {
    const h = authHarness();
    const a = await h.seedAccount();
    const calls: string[] = [];
    let wait = 7;
    h.deps.loginThrottle = {
      admit: async (email, address) => {
        calls.push(`admit ${email} ${address}`);
        return wait;
      },
      succeeded: async (email, address) => void calls.push(`succeeded ${email} ${address}`),
    };
    const body = { email: `  ${a.email.toUpperCase()} `, password: a.password };
    for (const path of ["/v1/auth/login", "/v1/auth/session"]) {
      const refused = await h.call("POST", path, { body });
      expect([refused.status, refused.body.error.code, refused.headers.get("retry-after")]).toEqual([
        429,
        "rate_limited",
        "7",
      ]);
    }
    expect(calls).toEqual([`admit ${a.email} unknown`, `admit ${a.email} unknown`]);
    wait = 0;
    calls.length = 0;
    expect((await h.call("POST", "/v1/auth/login", { body })).status).toBe(200);
    expect(calls).toEqual([`admit ${a.email} unknown`, `succeeded ${a.email} unknown`]);
  });

  test("each Deps has its own throttle: failures in one service instance do not limit another", async () => {
    const h1 = authHarness();
    const h2 = authHarness();
    const a = await h1.seedAccount();
    const b = await h2.seedAccount({ email: a.email, password: a.password });
    for (let i = 0; i < PAIR_LIMIT; i++)
      expect(
        (await h1.call("POST", "/v1/auth/login", { body: { email: a.email, password: `wrong-${i}` } })).status,
      ).toBe(401);
    expect((await h1.call("POST", "/v1/auth/login", { body: { email: a.email, password: a.password } })).status).toBe(
      429,
    );
    const other = await h2.call("POST", "/v1/auth/login", { body: { email: b.email, password: b.password } });
    expect([other.status, other.body.account_id]).toEqual([200, b.accountId]);
  });
});
