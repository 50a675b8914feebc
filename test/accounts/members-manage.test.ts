/** PATCH and DELETE /v1/account/members/{id}: re-role and remove members (issue 15, members and roles). */
import { describe, expect, test } from "bun:test";
import { createHarness } from "../support/harness";
import { addMember, loginToken, seedWithToken } from "../auth/support";
import { dashboardLogin } from "../dashboard/support";

const members = async (h: ReturnType<typeof createHarness>, token: string) =>
  (await h.call("GET", "/v1/account/members", { bearer: token })).body.data;

describe("changing a member's role", () => {
  test("an OWNER demotes a DEVELOPER to VIEWER: 200 {id, email, role}, the member's live token reads the new role at once", async () => {
    const h = createHarness();
    const a = await seedWithToken(h);
    const dev = await addMember(h, a.token, "DEVELOPER");
    const r = await h.call("PATCH", `/v1/account/members/${dev.id}`, { bearer: a.token, body: { role: "VIEWER" } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ id: dev.id, email: dev.email, role: "VIEWER" });
    expect((await h.call("GET", "/v1/account", { bearer: dev.token })).body.role).toBe("VIEWER");
    expect(await members(h, a.token)).toEqual([
      { id: a.userId, email: a.email, role: "OWNER" },
      { id: dev.id, email: dev.email, role: "VIEWER" },
    ]);
  });

  test("an ADMIN promotes a VIEWER to ADMIN and the change lands in the audit log with {email, from, to}", async () => {
    const h = createHarness();
    const a = await seedWithToken(h);
    const admin = await addMember(h, a.token, "ADMIN");
    const viewer = await addMember(h, a.token, "VIEWER");
    const r = await h.call("PATCH", `/v1/account/members/${viewer.id}`, {
      bearer: admin.token,
      body: { role: "ADMIN" },
    });
    expect(r.status).toBe(200);
    const audit = (await h.call("GET", "/v1/account/audit-log", { bearer: a.token })).body.data;
    expect(audit).toEqual([
      {
        id: expect.stringMatching(/^aud_/),
        action: "member.role_changed",
        actor_user_id: admin.id,
        target: viewer.id,
        status: null,
        detail: { email: viewer.email, from: "VIEWER", to: "ADMIN" },
        key_fingerprint: null,
        previous_key_id: null,
        created_at: "2026-11-20T12:00:00.000Z",
      },
    ]);
  });

  test("an OWNER hands over ownership: promotes another member to OWNER, then demotes themself", async () => {
    const h = createHarness();
    const a = await seedWithToken(h);
    const admin = await addMember(h, a.token, "ADMIN");
    expect(
      (await h.call("PATCH", `/v1/account/members/${admin.id}`, { bearer: a.token, body: { role: "OWNER" } })).status,
    ).toBe(200);
    const r = await h.call("PATCH", `/v1/account/members/${a.userId}`, {
      bearer: a.token,
      body: { role: "DEVELOPER" },
    });
    expect(r.status).toBe(200);
    expect(r.body.role).toBe("DEVELOPER");
  });
});

describe("changing a member's role: errors", () => {
  test("refuses to demote the last OWNER with 409 last_owner and changes nothing", async () => {
    const h = createHarness();
    const a = await seedWithToken(h);
    const r = await h.call("PATCH", `/v1/account/members/${a.userId}`, { bearer: a.token, body: { role: "ADMIN" } });
    expect(r.status).toBe(409);
    expect(r.body.error.type).toBe("conflict_error");
    expect(r.body.error.code).toBe("last_owner");
    expect(await members(h, a.token)).toEqual([{ id: a.userId, email: a.email, role: "OWNER" }]);
    expect((await h.call("GET", "/v1/account/audit-log", { bearer: a.token })).body.data).toEqual([]);
  });

  test("refuses an unknown role and unknown fields with 400", async () => {
    const h = createHarness();
    const a = await seedWithToken(h);
    const dev = await addMember(h, a.token, "DEVELOPER");
    for (const body of [{ role: "ROOT" }, { role: "VIEWER", email: "x@example.com" }, {}]) {
      const r = await h.call("PATCH", `/v1/account/members/${dev.id}`, { bearer: a.token, body });
      expect(r.status).toBe(400);
    }
    expect((await members(h, a.token))[1].role).toBe("DEVELOPER");
  });

  test("answers 404 for an unknown id", async () => {
    const h = createHarness();
    const a = await seedWithToken(h);
    const r = await h.call("PATCH", "/v1/account/members/user_nope", { bearer: a.token, body: { role: "VIEWER" } });
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe("not_found");
  });
});

describe("changing a member's role: security", () => {
  test("a DEVELOPER or VIEWER is refused with 403 API_KEY_ROLE_REQUIRED, even on themself", async () => {
    const h = createHarness();
    const a = await seedWithToken(h);
    for (const role of ["DEVELOPER", "VIEWER"]) {
      const m = await addMember(h, a.token, role);
      const r = await h.call("PATCH", `/v1/account/members/${m.id}`, { bearer: m.token, body: { role: "ADMIN" } });
      expect(r.status).toBe(403);
      expect(r.body.error.code).toBe("API_KEY_ROLE_REQUIRED");
    }
  });

  test("an ADMIN may neither demote an OWNER nor make one (403 forbidden)", async () => {
    const h = createHarness();
    const a = await seedWithToken(h);
    await addMember(h, a.token, "OWNER");
    const admin = await addMember(h, a.token, "ADMIN");
    const dev = await addMember(h, a.token, "DEVELOPER");
    const demote = await h.call("PATCH", `/v1/account/members/${a.userId}`, {
      bearer: admin.token,
      body: { role: "VIEWER" },
    });
    expect(demote.status).toBe(403);
    expect(demote.body.error.code).toBe("forbidden");
    const promote = await h.call("PATCH", `/v1/account/members/${dev.id}`, {
      bearer: admin.token,
      body: { role: "OWNER" },
    });
    expect(promote.status).toBe(403);
    expect(promote.body.error.code).toBe("forbidden");
  });

  test("another account's member is 404 and unchanged; an API key is 401", async () => {
    const h = createHarness();
    const a = await seedWithToken(h);
    const b = await seedWithToken(h);
    const bDev = await addMember(h, b.token, "DEVELOPER");
    const r = await h.call("PATCH", `/v1/account/members/${bDev.id}`, { bearer: a.token, body: { role: "VIEWER" } });
    expect(r.status).toBe(404);
    expect((await members(h, b.token))[1].role).toBe("DEVELOPER");
    expect(
      (await h.call("PATCH", `/v1/account/members/${bDev.id}`, { key: a.testKey, body: { role: "VIEWER" } })).status,
    ).toBe(401);
  });
});

describe("removing a member", () => {
  test("an OWNER removes a DEVELOPER: 204, gone from the list, the member's token, cookie session and login stop working at once", async () => {
    const h = createHarness();
    const a = await seedWithToken(h);
    const dev = await addMember(h, a.token, "DEVELOPER");
    const browser = await dashboardLogin(h, dev.email, dev.password);
    expect((await browser.call("GET", "/v1/account")).status).toBe(200);
    const r = await h.call("DELETE", `/v1/account/members/${dev.id}`, { bearer: a.token });
    expect(r.status).toBe(204);
    expect(await members(h, a.token)).toEqual([{ id: a.userId, email: a.email, role: "OWNER" }]);
    expect((await h.call("GET", "/v1/account", { bearer: dev.token })).status).toBe(401);
    expect((await browser.call("GET", "/v1/account")).status).toBe(401);
    expect(
      (await h.call("POST", "/v1/auth/login", { body: { email: dev.email, password: dev.password } })).status,
    ).toBe(401);
    const audit = (await h.call("GET", "/v1/account/audit-log", { bearer: a.token })).body.data;
    expect(audit.map((e: any) => [e.action, e.actor_user_id, e.target, e.detail])).toEqual([
      ["member.removed", a.userId, dev.id, { email: dev.email, role: "DEVELOPER" }],
    ]);
  });

  test("an OWNER removes another OWNER; the remaining OWNER can then not remove themself (409 last_owner)", async () => {
    const h = createHarness();
    const a = await seedWithToken(h);
    const other = await addMember(h, a.token, "OWNER");
    expect((await h.call("DELETE", `/v1/account/members/${other.id}`, { bearer: a.token })).status).toBe(204);
    const r = await h.call("DELETE", `/v1/account/members/${a.userId}`, { bearer: a.token });
    expect(r.status).toBe(409);
    expect(r.body.error.code).toBe("last_owner");
    expect((await h.call("GET", "/v1/account", { bearer: a.token })).status).toBe(200);
  });

  test("a removed member's email can be added again as a new member", async () => {
    const h = createHarness();
    const a = await seedWithToken(h);
    const dev = await addMember(h, a.token, "DEVELOPER");
    await h.call("DELETE", `/v1/account/members/${dev.id}`, { bearer: a.token });
    const again = await h.call("POST", "/v1/account/members", {
      bearer: a.token,
      body: { email: dev.email, password: dev.password, role: "VIEWER" },
    });
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(dev.id);
    expect(await loginToken(h, dev.email, dev.password)).toBeString();
  });
});

describe("removing a member: errors and security", () => {
  test("a VIEWER or DEVELOPER is refused with 403 API_KEY_ROLE_REQUIRED and nobody is removed", async () => {
    const h = createHarness();
    const a = await seedWithToken(h);
    const viewer = await addMember(h, a.token, "VIEWER");
    const dev = await addMember(h, a.token, "DEVELOPER");
    for (const [who, target] of [
      [viewer, dev],
      [dev, viewer],
    ] as const) {
      const r = await h.call("DELETE", `/v1/account/members/${target.id}`, { bearer: who.token });
      expect(r.status).toBe(403);
      expect(r.body.error.code).toBe("API_KEY_ROLE_REQUIRED");
    }
    expect((await members(h, a.token)).length).toBe(3);
  });

  test("an ADMIN may not remove an OWNER (403 forbidden) but may remove another ADMIN", async () => {
    const h = createHarness();
    const a = await seedWithToken(h);
    const admin = await addMember(h, a.token, "ADMIN");
    const admin2 = await addMember(h, a.token, "ADMIN");
    const r = await h.call("DELETE", `/v1/account/members/${a.userId}`, { bearer: admin.token });
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe("forbidden");
    expect((await h.call("GET", "/v1/account", { bearer: a.token })).status).toBe(200);
    expect((await h.call("DELETE", `/v1/account/members/${admin2.id}`, { bearer: admin.token })).status).toBe(204);
  });

  test("another account's member is 404 and keeps working; an unknown id is 404", async () => {
    const h = createHarness();
    const a = await seedWithToken(h);
    const b = await seedWithToken(h);
    const bDev = await addMember(h, b.token, "DEVELOPER");
    const r = await h.call("DELETE", `/v1/account/members/${bDev.id}`, { bearer: a.token });
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe("not_found");
    expect((await h.call("GET", "/v1/account", { bearer: bDev.token })).status).toBe(200);
    expect((await h.call("DELETE", "/v1/account/members/user_nope", { bearer: a.token })).status).toBe(404);
  });

  test("through a dashboard session the removal needs the CSRF token (403 csrf_invalid without it)", async () => {
    const h = createHarness();
    const a = await seedWithToken(h);
    const dev = await addMember(h, a.token, "DEVELOPER");
    const owner = await dashboardLogin(h, a.email, a.password);
    const forged = await owner.call("DELETE", `/v1/account/members/${dev.id}`, { csrf: false });
    expect(forged.status).toBe(403);
    expect(forged.body.error.code).toBe("csrf_invalid");
    expect((await owner.call("DELETE", `/v1/account/members/${dev.id}`)).status).toBe(204);
  });
});
