import { describe, expect, test } from "bun:test";
import { decodeJwt, decodeProtectedHeader, SignJWT } from "jose";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../../src/app";
import { ManualClock } from "../../src/lib/clock";
import { createAccountWithOwner } from "../../src/domain/accounts/service";
import { ADDRESS_LIMIT, EMAIL_FREE_FAILURES, PAIR_LIMIT } from "../../src/domain/auth/throttle";
import { authHarness, loginToken, PROBE, seedWithToken } from "./support";
import { testDeps } from "../support/backend";
import { testDb } from "../support/test-db";

describe("login: happy path", () => {
  test("login returns exactly access_token, token_type Bearer, expires_in, account_id and role", async () => {
    const h = authHarness();
    const a = await h.seedAccount();
    const r = await h.call("POST", "/v1/auth/login", { body: { email: a.email, password: a.password } });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(["access_token", "account_id", "expires_in", "role", "token_type"]);
    expect(r.body.token_type).toBe("Bearer");
    expect(r.body.expires_in).toBe(12 * 3600);
    expect(r.body.account_id).toBe(a.accountId);
    expect(r.body.role).toBe("OWNER");
  });

  test("the token is an HS256 JWT carrying the account, user, role and a jti", async () => {
    const h = authHarness();
    const a = await h.seedAccount();
    const token = await loginToken(h, a.email, a.password);
    expect(decodeProtectedHeader(token).alg).toBe("HS256");
    const claims = decodeJwt(token);
    expect(claims.acct).toBe(a.accountId);
    expect(claims.sub).toBe(a.userId);
    expect(claims.role).toBe("OWNER");
    expect(typeof claims.jti).toBe("string");
    expect(claims.exp! - claims.iat!).toBe(12 * 3600);
    expect(claims.iat).toBe(Math.floor(h.clock.nowMs() / 1000));
  });

  test("the email is matched case-insensitively and trimmed", async () => {
    const h = authHarness();
    const a = await h.seedAccount({ email: "shop@example.com" });
    const r = await h.call("POST", "/v1/auth/login", { body: { email: "  Shop@Example.COM ", password: a.password } });
    expect(r.status).toBe(200);
  });

  test("two logins give two independent tokens; logging out one keeps the other alive", async () => {
    const h = authHarness();
    const a = await h.seedAccount();
    const t1 = await loginToken(h, a.email, a.password);
    const t2 = await loginToken(h, a.email, a.password);
    expect(t1).not.toBe(t2);
    expect((await h.call("POST", "/v1/auth/logout", { bearer: t1 })).status).toBe(204);
    expect((await h.call("GET", "/v1/account", { bearer: t1 })).status).toBe(401);
    expect((await h.call("GET", "/v1/account", { bearer: t2 })).status).toBe(200);
  });
});

describe("login: errors", () => {
  test("an unknown email and a wrong password get the same 401 invalid_credentials", async () => {
    const h = authHarness();
    const a = await h.seedAccount();
    const unknown = await h.call("POST", "/v1/auth/login", {
      body: { email: "nobody@example.com", password: a.password },
    });
    const wrong = await h.call("POST", "/v1/auth/login", { body: { email: a.email, password: "wrong password" } });
    for (const r of [unknown, wrong]) {
      expect(r.status).toBe(401);
      expect(r.body.error.type).toBe("authentication_error");
      expect(r.body.error.code).toBe("invalid_credentials");
    }
    expect(unknown.body.error).toEqual(wrong.body.error);
  });

  test("a body without a password or with non-string fields is 400", async () => {
    const h = authHarness();
    const a = await h.seedAccount();
    expect((await h.call("POST", "/v1/auth/login", { body: { email: a.email } })).status).toBe(400);
    expect((await h.call("POST", "/v1/auth/login", { body: { email: a.email, password: 12345678 } })).status).toBe(400);
    expect(
      (await h.call("POST", "/v1/auth/login", { body: { email: a.email, password: a.password, extra: 1 } })).status,
    ).toBe(400);
  });
});

describe("login: rate limits", () => {
  test("after the failed-attempt limit for an email from one address, even the right password from there gets 429 until the window passes", async () => {
    const h = authHarness();
    const a = await h.seedAccount();
    for (let i = 0; i < PAIR_LIMIT; i++)
      expect((await h.call("POST", "/v1/auth/login", { body: { email: a.email, password: `bad-${i}` } })).status).toBe(
        401,
      );
    const r = await h.call("POST", "/v1/auth/login", { body: { email: a.email, password: a.password } });
    expect(r.status).toBe(429);
    expect(r.body.error.code).toBe("rate_limited");
    expect(r.body.error.type).toBe("rate_limit_error");
    expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(r.headers.get("retry-after"))).toBeLessThanOrEqual(15 * 60);
    // another email is not affected
    const b = await h.seedAccount();
    expect((await h.call("POST", "/v1/auth/login", { body: { email: b.email, password: b.password } })).status).toBe(
      200,
    );
    h.clock.advance(15 * 60);
    expect((await h.call("POST", "/v1/auth/login", { body: { email: a.email, password: a.password } })).status).toBe(
      200,
    );
  });

  test("successful logins do not count against the limits", async () => {
    const h = authHarness();
    const a = await h.seedAccount();
    for (let i = 0; i < Math.max(PAIR_LIMIT, EMAIL_FREE_FAILURES, ADDRESS_LIMIT) + 2; i++)
      await loginToken(h, a.email, a.password);
  });

  test("one client address is limited across emails", async () => {
    const h = authHarness();
    for (let i = 0; i < ADDRESS_LIMIT; i++) {
      const r = await h.call("POST", "/v1/auth/login", { body: { email: `probe-${i}@example.com`, password: "x" } });
      expect(r.status).toBe(401);
    }
    const r = await h.call("POST", "/v1/auth/login", { body: { email: "someone-new@example.com", password: "x" } });
    expect(r.status).toBe(429);
    expect(r.headers.get("retry-after")).not.toBeNull();
  });
});

describe("logout and token lifetime", () => {
  test("logout answers 204 with no body and the token fails on the very next request", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    const r = await h.call("POST", "/v1/auth/logout", { bearer: a.token });
    expect(r.status).toBe(204);
    expect(r.text).toBe("");
    expect((await h.call("GET", "/v1/account", { bearer: a.token })).status).toBe(401);
    expect((await h.call("GET", "/v1/api-keys", { bearer: a.token })).status).toBe(401);
    expect((await h.call("POST", "/v1/auth/logout", { bearer: a.token })).status).toBe(401);
  });

  test("logout without a token is 401", async () => {
    const h = authHarness();
    const r = await h.call("POST", "/v1/auth/logout");
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe("unauthorized");
  });

  test("a token stops working once 12 hours have passed", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    h.clock.advance(12 * 3600 - 1);
    expect((await h.call("GET", "/v1/account", { bearer: a.token })).status).toBe(200);
    h.clock.advance(1);
    expect((await h.call("GET", "/v1/account", { bearer: a.token })).status).toBe(401);
  });

  test("a token survives a restart on the same data directory, and is refused by another data directory", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cofre-auth-"));
    const other = mkdtempSync(join(tmpdir(), "cofre-auth-"));
    try {
      const clock = new ManualClock();
      const cfg = { logLevel: "silent" };
      const d1 = testDeps({ dataDir: dir, clock, config: cfg });
      await createAccountWithOwner(d1, { email: "restart@example.com", password: "restart password" });
      const login = await createApp(d1).handle(
        new Request("http://localhost/v1/auth/login", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email: "restart@example.com", password: "restart password" }),
        }),
      );
      const { access_token } = (await login.json()) as { access_token: string };
      await d1.store.close();
      const get = (app: ReturnType<typeof createApp>) =>
        app.handle(
          new Request("http://localhost/v1/account", { headers: { authorization: `Bearer ${access_token}` } }),
        );
      const d2 = testDeps({ dataDir: dir, clock, config: cfg });
      expect((await get(createApp(d2))).status).toBe(200);
      await d2.store.close();
      const d3 = testDeps({ dataDir: other, clock, config: cfg });
      expect((await get(createApp(d3))).status).toBe(401);
      await d3.store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(other, { recursive: true, force: true });
    }
  });
});

describe("bearer authentication: security", () => {
  test("malformed, tampered, unsigned and foreign-signed tokens are all 401 unauthorized", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    const [hdr, payload, sig] = a.token.split(".");
    const claims = decodeJwt(a.token);
    const forgedPayload = Buffer.from(JSON.stringify({ ...claims, role: "OWNER", acct: "acct_other" })).toString(
      "base64url",
    );
    const none = `${Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url")}.${payload}.`;
    const foreign = await new SignJWT({ ...claims })
      .setProtectedHeader({ alg: "HS256" })
      .sign(new TextEncoder().encode("x".repeat(32)));
    const cases: Record<string, string>[] = [
      {},
      { authorization: "Bearer" },
      { authorization: `bearer ${a.token}` },
      { authorization: `Token ${a.token}` },
      { authorization: `Bearer ${hdr}.${forgedPayload}.${sig}` },
      { authorization: `Bearer ${none}` },
      { authorization: `Bearer ${foreign}` },
      { authorization: `Bearer ${a.token}x` },
      { authorization: `Bearer ${a.token} ${a.token}` },
    ];
    for (const headers of cases) {
      const r = await h.call("GET", "/v1/account", { headers });
      expect(r.status).toBe(401);
      expect(r.body.error.code).toBe("unauthorized");
      expect(r.body.error.type).toBe("authentication_error");
    }
    expect((await h.call("GET", "/v1/account", { bearer: a.token })).status).toBe(200);
  });

  test("an apikey header on a bearer route is 401 even alongside a valid token", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    for (const [method, path] of [
      ["GET", "/v1/account"],
      ["GET", "/v1/api-keys"],
      ["POST", "/v1/api-keys"],
      ["GET", "/v1/request-logs"],
      ["POST", "/v1/auth/logout"],
    ] as const) {
      const onlyKey = await h.call(method, path, { key: a.testKey });
      expect(onlyKey.status).toBe(401);
      const both = await h.call(method, path, { key: a.testKey, bearer: a.token });
      expect(both.status).toBe(401);
      expect(both.body.error.code).toBe("unauthorized");
    }
    // the token was not logged out by the refused logout
    expect((await h.call("GET", "/v1/account", { bearer: a.token })).status).toBe(200);
  });

  test("a dashboard token is not an API key: apikey routes refuse it", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    expect((await h.call("GET", PROBE, { bearer: a.token })).status).toBe(401);
    expect((await h.call("GET", PROBE, { key: a.token })).status).toBe(401);
  });

  test("the login response never contains the password, its hash or the signing secret", async () => {
    const h = authHarness();
    const a = await h.seedAccount();
    const r = await h.call("POST", "/v1/auth/login", { body: { email: a.email, password: a.password } });
    const secret = (await testDb(h.deps).get<{ value: string }>("select value from service_secrets"))!;
    const hash = (await testDb(h.deps).get<{ password_hash: string }>(
      "select password_hash from users where id = ?",
      a.userId,
    ))!;
    expect(r.text).not.toContain(a.password);
    expect(r.text).not.toContain(hash.password_hash);
    expect(r.text).not.toContain(secret.value);
    expect(Buffer.from(r.body.access_token.split(".")[1], "base64url").toString()).not.toContain("argon2");
  });
});
