/**
 * Dashboard cookie sessions (issue 15 step 1): the cookie, CSRF, Cofre-Mode, roles, logout,
 * isolation, the audit log, and API keys unchanged.
 */
import { describe, expect, test } from "bun:test";
import { getBalance } from "../../src/domain/ledger";
import { auditEntries } from "../support/audit";
import { createHarness } from "../support/harness";
import { eventBodies, key, paidPayment } from "../payments/support";
import { dashboardLogin, dashboardMember, send } from "./support";

const SESSION_FIELDS = ["account_id", "account_name", "csrf_token", "email", "object", "role", "user_id"];

async function setup(config = {}) {
  const h = createHarness(config);
  const a = await h.seedAccount({ name: "Padaria Central" });
  const owner = await dashboardLogin(h, a.email, a.password);
  return { h, a, owner };
}

describe("dashboard session: login and cookie", () => {
  test("login sets exactly an HttpOnly, SameSite=Strict, Path=/ cookie of 12 hours and answers the session fields", async () => {
    const { a, owner } = await setup();
    expect(owner.setCookie).toMatch(
      /^cofre_session=[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}; Path=\/; Max-Age=43200; HttpOnly; SameSite=Strict$/,
    );
    expect(Object.keys(owner.session).sort()).toEqual(SESSION_FIELDS);
    expect(owner.session).toMatchObject({
      object: "dashboard_session",
      account_id: a.accountId,
      account_name: "Padaria Central",
      user_id: a.userId,
      email: a.email,
      role: "OWNER",
    });
    expect(owner.csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  test("the cookie carries Secure when the public URL is https", async () => {
    const { owner } = await setup({ publicUrl: "https://pay.example.com" });
    expect(owner.setCookie.endsWith("; HttpOnly; SameSite=Strict; Secure")).toBe(true);
  });

  test("a wrong password is 401 invalid_credentials and sets no cookie", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const r = await send(h, "POST", "/v1/auth/session", {}, { email: a.email, password: "wrong password" });
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe("invalid_credentials");
    expect(r.headers.get("set-cookie")).toBeNull();
  });

  test("GET /v1/auth/session answers the same session and CSRF token; without the cookie it is 401", async () => {
    const { h, owner } = await setup();
    const r = await owner.call("GET", "/v1/auth/session");
    expect(r.status).toBe(200);
    expect(r.body).toEqual(owner.session);
    expect((await send(h, "GET", "/v1/auth/session")).status).toBe(401);
    expect(
      (
        await send(h, "GET", "/v1/auth/session", {
          cookie: "cofre_session=forged.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        })
      ).status,
    ).toBe(401);
  });

  test("GET /v1/auth/session?probe=1 answers 204 with no body when nobody is signed in (the login page logs no error), the session otherwise", async () => {
    const { h, owner } = await setup();
    for (const cookie of [undefined, "cofre_session=forged.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"]) {
      const r = await send(h, "GET", "/v1/auth/session?probe=1", cookie ? { cookie } : {});
      expect(r.status).toBe(204);
      expect(r.body).toBe("");
    }
    const r = await owner.call("GET", "/v1/auth/session?probe=1");
    expect(r.status).toBe(200);
    expect(r.body).toEqual(owner.session);
  });

  test("the session reads the API routes in test mode by default and in live mode with Cofre-Mode: live", async () => {
    const { h, a, owner } = await setup();
    const p = await paidPayment(h, a, 1500);
    const test_ = await owner.call("GET", "/v1/payments");
    expect(test_.status).toBe(200);
    expect(test_.body.data.map((x: { id: string }) => x.id)).toEqual([p.id]);
    const live = await owner.call("GET", "/v1/payments", { mode: "live" });
    expect(live.status).toBe(200);
    expect(live.body.data).toEqual([]);
    expect((await owner.call("GET", "/v1/account")).body.name).toBe("Padaria Central");
  });

  test("a Cofre-Mode other than test or live is 400 invalid_request", async () => {
    const { owner } = await setup();
    const r = await owner.call("GET", "/v1/payments", { mode: "LIVE" });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: "invalid_request", param: "Cofre-Mode" });
  });
});

describe("dashboard session: CSRF", () => {
  test("a refund without the CSRF token is 403 csrf_invalid and changes nothing; with it the refund is made", async () => {
    const { h, a, owner } = await setup();
    const p = await paidPayment(h, a, 1000);
    const body = { idempotencyKey: key("refund") };
    const before = await getBalance(h.deps.store.read, a.accountId, false, "BRL");
    for (const csrf of [false, "x".repeat(43), ""] as const) {
      const r = await owner.call("POST", `/v1/payments/${p.id}/refund`, { body, csrf });
      expect(r.status).toBe(403);
      expect(r.body.error).toEqual({
        type: "permission_error",
        code: "csrf_invalid",
        message: "Missing or wrong CSRF token (X-CSRF-Token).",
        param: "X-CSRF-Token",
      });
    }
    expect(await getBalance(h.deps.store.read, a.accountId, false, "BRL")).toEqual(before);
    expect((await owner.call("GET", `/v1/payments/${p.id}/refunds`)).body.data).toEqual([]);
    const ok = await owner.call("POST", `/v1/payments/${p.id}/refund`, { body });
    expect(ok.status).toBe(201);
    expect(await getBalance(h.deps.store.read, a.accountId, false, "BRL")).toMatchObject({
      pending: before.pending - 1000,
    });
  });

  test("another session's CSRF token does not pass", async () => {
    const { h, a, owner } = await setup();
    const other = await dashboardLogin(h, a.email, a.password);
    const r = await owner.call("POST", "/v1/webhooks/endpoints", {
      body: { url: "https://shop.example.com/hook", events: ["charge.paid"] },
      csrf: other.csrf,
    });
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe("csrf_invalid");
    expect(JSON.stringify((await owner.call("GET", "/v1/webhooks/endpoints")).body)).not.toContain("shop.example.com");
  });

  test("a bearer route (issue an API key) refuses the cookie without the CSRF token", async () => {
    const { owner } = await setup();
    const r = await owner.call("POST", "/v1/api-keys", { body: { test: true }, csrf: false });
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe("csrf_invalid");
    expect((await owner.call("POST", "/v1/api-keys", { body: { test: true } })).status).toBe(201);
  });
});

describe("dashboard session: roles", () => {
  test("a VIEWER reads payments but may not refund (403 role_forbidden, nothing refunded)", async () => {
    const { h, a } = await setup();
    const viewer = await dashboardMember(h, a, "VIEWER");
    const p = await paidPayment(h, a, 1000);
    expect((await viewer.call("GET", `/v1/payments/${p.id}`)).status).toBe(200);
    const r = await viewer.call("POST", `/v1/payments/${p.id}/refund`, { body: { idempotencyKey: key("refund") } });
    expect(r.status).toBe(403);
    expect(r.body.error).toEqual({
      type: "permission_error",
      code: "role_forbidden",
      message: "A VIEWER may only read.",
    });
    expect((await viewer.call("GET", `/v1/payments/${p.id}/refunds`)).body.data).toEqual([]);
    expect(
      (
        await viewer.call("POST", "/v1/webhooks/endpoints", {
          body: { url: "https://shop.example.com/hook", events: ["charge.paid"] },
        })
      ).status,
    ).toBe(403);
  });

  test("a DEVELOPER manages webhook endpoints but moves no money and issues no keys", async () => {
    const { h, a } = await setup();
    const dev = await dashboardMember(h, a, "DEVELOPER");
    const p = await paidPayment(h, a, 1000);
    const ep = await dev.call("POST", "/v1/webhooks/endpoints", {
      body: { url: "https://shop.example.com/hook", events: ["charge.paid"] },
    });
    expect(ep.status).toBe(201);
    expect((await dev.call("DELETE", `/v1/webhooks/endpoints/${ep.body.id}`)).status).toBe(200);
    const refund = await dev.call("POST", `/v1/payments/${p.id}/refund`, { body: { idempotencyKey: key("refund") } });
    expect(refund.status).toBe(403);
    expect(refund.body.error.code).toBe("role_forbidden");
    expect((await dev.call("POST", `/v1/payments/${p.id}/cancel`, { body: {} })).status).toBe(403);
    expect(
      (await dev.call("POST", "/v1/pix/charges", { body: { amount: 100 }, headers: { "idempotency-key": key("c") } }))
        .status,
    ).toBe(403);
    const k = await dev.call("POST", "/v1/api-keys", { body: { test: true } });
    expect(k.status).toBe(403);
    expect(k.body.error.code).toBe("API_KEY_ROLE_REQUIRED");
    expect((await dev.call("GET", "/v1/wallets/balance")).status).toBe(200);
  });

  test("a DEVELOPER resends a payment's webhook (fresh events, no money moved); a VIEWER may not", async () => {
    const h = createHarness();
    const a = await h.seedAccount({ subscribeAllEvents: true });
    const dev = await dashboardMember(h, a, "DEVELOPER");
    const viewer = await dashboardMember(h, a, "VIEWER");
    const p = await paidPayment(h, a, 1000);
    const balance = await getBalance(h.deps.store.read, a.accountId, false, "BRL");
    expect(await eventBodies(h, p.id, "charge.paid")).toHaveLength(1);
    const refused = await viewer.call("POST", `/v1/payments/${p.id}/resend-webhook`, { body: {} });
    expect([refused.status, refused.body.error.code]).toEqual([403, "role_forbidden"]);
    expect(await eventBodies(h, p.id, "charge.paid")).toHaveLength(1);
    const r = await dev.call("POST", `/v1/payments/${p.id}/resend-webhook`, { body: {} });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ resent: true, status: "PAID" });
    expect(await eventBodies(h, p.id, "charge.paid")).toHaveLength(2);
    expect(await getBalance(h.deps.store.read, a.accountId, false, "BRL")).toEqual(balance);
    expect((await auditEntries(h.deps, a.accountId)).map((e) => [e.action, e.target, e.status])).toEqual([
      ["dashboard.request", `POST /v1/payments/${p.id}/resend-webhook`, 200],
    ]);
  });

  test("an ADMIN refunds and creates charges", async () => {
    const { h, a } = await setup();
    const admin = await dashboardMember(h, a, "ADMIN");
    const p = await paidPayment(h, a, 1000);
    expect(
      (
        await admin.call("POST", `/v1/payments/${p.id}/refund`, {
          body: { idempotencyKey: key("refund"), amount: 400 },
        })
      ).status,
    ).toBe(201);
    const c = await admin.call("POST", "/v1/pix/charges", {
      body: { amount: 250 },
      headers: { "idempotency-key": key("c") },
    });
    expect(c.status).toBe(201);
    expect((await admin.call("GET", `/v1/charges/${c.body.id}`)).status).toBe(200);
    expect((await admin.call("GET", `/v1/charges/${c.body.id}`, { mode: "live" })).status).toBe(404);
  });
});

describe("dashboard session: logout, isolation, audit, API keys", () => {
  test("logout needs the CSRF token, then ends the session at once and clears the cookie", async () => {
    const { owner } = await setup();
    const refused = await owner.call("DELETE", "/v1/auth/session", { csrf: false });
    expect(refused.status).toBe(403);
    expect((await owner.call("GET", "/v1/payments")).status).toBe(200);
    const out = await owner.call("DELETE", "/v1/auth/session");
    expect(out.status).toBe(204);
    expect(out.headers.get("set-cookie")).toBe("cofre_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict");
    for (const path of ["/v1/payments", "/v1/account", "/v1/auth/session"])
      expect((await owner.call("GET", path)).status).toBe(401);
  });

  test("another account's payment is 404 through a session, in both modes", async () => {
    const { h, a } = await setup();
    const b = await h.seedAccount({ name: "Outra Loja" });
    const other = await dashboardLogin(h, b.email, b.password);
    const p = await paidPayment(h, a, 1000);
    for (const mode of ["test", "live"]) {
      expect((await other.call("GET", `/v1/payments/${p.id}`, { mode })).status).toBe(404);
      expect(
        (await other.call("POST", `/v1/payments/${p.id}/refund`, { mode, body: { idempotencyKey: key("refund") } }))
          .status,
      ).toBe(404);
    }
    expect((await other.call("GET", "/v1/payments")).body.data).toEqual([]);
  });

  test("a state-changing session request lands in the audit log with the user; reads and refusals do not", async () => {
    const { h, a, owner } = await setup();
    const p = await paidPayment(h, a, 1000);
    await owner.call("GET", `/v1/payments/${p.id}`);
    await owner.call("POST", `/v1/payments/${p.id}/refund`, { body: { idempotencyKey: key("refund") }, csrf: false });
    expect(await auditEntries(h.deps, a.accountId)).toEqual([]);
    await owner.call("POST", `/v1/payments/${p.id}/refund`, { body: { idempotencyKey: key("refund"), amount: 100 } });
    const entries = await auditEntries(h.deps, a.accountId);
    expect(entries.map((e) => [e.action, e.actorUserId, e.target, e.status, e.keyId, e.keyFingerprint])).toEqual([
      ["dashboard.request", a.userId, `POST /v1/payments/${p.id}/refund`, 201, null, null],
    ]);
    expect(JSON.parse(entries[0]!.detail!)).toEqual({ mode: "test", request_id: expect.any(String) });
  });

  test("API keys work unchanged, and a key wins over a cookie of another account", async () => {
    const { h, a } = await setup();
    const b = await h.seedAccount();
    const other = await dashboardLogin(h, b.email, b.password);
    const p = await paidPayment(h, a, 1000);
    const r = await send(h, "GET", `/v1/payments/${p.id}`, { apikey: a.testKey, cookie: other.cookie });
    expect(r.status).toBe(200);
    expect(r.body.id).toBe(p.id);
    const bad = await send(h, "GET", `/v1/payments/${p.id}`, { apikey: "ak_test_nope", cookie: other.cookie });
    expect(bad.status).toBe(401);
    const refund = await send(
      h,
      "POST",
      `/v1/payments/${p.id}/refund`,
      { apikey: a.testKey },
      { idempotencyKey: key("refund") },
    );
    expect(refund.status).toBe(201);
  });
});
