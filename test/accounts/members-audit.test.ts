/** GET /v1/account/members and GET /v1/account/audit-log (the dashboard's Developers page). */
import { describe, expect, test } from "bun:test";
import { createHarness } from "../support/harness";
import { addMember, issue, loginToken, seedWithToken } from "../auth/support";
import { dashboardLogin } from "../dashboard/support";

describe("account members list", () => {
  test("lists exactly the account's members as {id, email, role}, oldest first, for any member", async () => {
    const h = createHarness();
    const a = await seedWithToken(h);
    const viewer = await addMember(h, a.token, "VIEWER");
    const other = await seedWithToken(h);
    await addMember(h, other.token, "ADMIN");
    const r = await h.call("GET", "/v1/account/members", { bearer: viewer.token });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      data: [
        { id: a.userId, email: a.email, role: "OWNER" },
        { id: viewer.id, email: viewer.email, role: "VIEWER" },
      ],
    });
    expect((await h.call("GET", "/v1/account/members", { key: a.testKey })).status).toBe(401);
  });
});

describe("account audit log", () => {
  test("an OWNER reads the newest entries with the acting user; a VIEWER or DEVELOPER is refused; other accounts never appear", async () => {
    const h = createHarness();
    const a = await seedWithToken(h);
    const b = await seedWithToken(h);
    const k = await issue(h, a.token, { test: true });
    await issue(h, b.token, { test: true });
    const r = await h.call("GET", "/v1/account/audit-log", { bearer: a.token });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual([
      {
        id: expect.stringMatching(/^aud_/),
        action: "api_key.issued",
        actor_user_id: a.userId,
        target: k.id,
        status: null,
        detail: null,
        key_fingerprint: k.fingerprint,
        previous_key_id: null,
        created_at: "2026-11-20T12:00:00.000Z",
      },
    ]);
    for (const role of ["VIEWER", "DEVELOPER"]) {
      const m = await addMember(h, a.token, role);
      const refused = await h.call("GET", "/v1/account/audit-log", { bearer: m.token });
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe("API_KEY_ROLE_REQUIRED");
    }
  });
});

describe("account audit log: the role refusal", () => {
  test("a VIEWER or DEVELOPER reading it gets 403 API_KEY_ROLE_REQUIRED whose message names the route and the role it needs, not API keys", async () => {
    const h = createHarness();
    const a = await seedWithToken(h);
    for (const role of ["VIEWER", "DEVELOPER"]) {
      const m = await addMember(h, a.token, role);
      const refused = await h.call("GET", "/v1/account/audit-log", { bearer: m.token });
      expect([refused.status, refused.body.error.type, refused.body.error.code, refused.body.error.message]).toEqual([
        403,
        "permission_error",
        "API_KEY_ROLE_REQUIRED",
        `Reading the audit log requires the OWNER or ADMIN role; yours is ${role}.`,
      ]);
    }
  });

  test("a VIEWER adding a member is told adding members needs OWNER or ADMIN", async () => {
    const h = createHarness();
    const a = await seedWithToken(h);
    const m = await addMember(h, a.token, "VIEWER");
    const refused = await h.call("POST", "/v1/account/members", {
      bearer: m.token,
      body: { email: "x@example.com", password: "uma senha longa 123", role: "VIEWER" },
    });
    expect([refused.status, refused.body.error.code, refused.body.error.message]).toEqual([
      403,
      "API_KEY_ROLE_REQUIRED",
      "Adding members requires the OWNER or ADMIN role; yours is VIEWER.",
    ]);
  });
});

describe("account audit log: dashboard actions", () => {
  test("a dashboard write appears with its method and path as target, its status and {mode, request_id}, and no key fields", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const owner = await dashboardLogin(h, a.email, a.password);
    const created = await owner.call("POST", "/v1/account/members", {
      mode: "live",
      body: { email: "dev@example.com", password: "senha do dev 12345", role: "DEVELOPER" },
    });
    expect(created.status).toBe(201);
    const r = await h.call("GET", "/v1/account/audit-log", { bearer: await loginToken(h, a.email, a.password) });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual([
      {
        id: expect.stringMatching(/^aud_/),
        action: "dashboard.request",
        actor_user_id: a.userId,
        target: "POST /v1/account/members",
        status: 201,
        detail: { mode: null, request_id: created.headers.get("x-request-id") },
        key_fingerprint: null,
        previous_key_id: null,
        created_at: "2026-11-20T12:00:00.000Z",
      },
    ]);
  });
});
