import { describe, expect, test } from "bun:test";
import { authHarness, addMember, loginToken, seedWithToken } from "../auth/support";
import { testDb } from "../support/test-db";

const DEFAULT_SETTINGS = {
  payer_lock_enabled: false,
  default_expires_in: 3600,
  pix_fee_bps: 0,
  pix_fee_fixed: 0,
  settlement_delay_seconds: 86400,
  customer_velocity_max: null,
  account_velocity_max: null,
  velocity_window_seconds: 3600,
  legal_name: null,
  tax_id: null,
  payout_fee_fixed: 0,
  payout_daily_limit: null,
  payout_delay_seconds: 0,
};

async function userCount(h: ReturnType<typeof authHarness>): Promise<number> {
  return (await testDb(h.deps).get<{ n: number }>("select count(*) as n from users"))!.n;
}

describe("GET /v1/account", () => {
  test("returns exactly id, name, role and the default settings of the caller's account", async () => {
    const h = authHarness();
    const a = await seedWithToken(h, { name: "Padaria Central" });
    const r = await h.call("GET", "/v1/account", { bearer: a.token });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(["id", "name", "role", "settings"]);
    expect(r.body).toEqual({ id: a.accountId, name: "Padaria Central", role: "OWNER", settings: DEFAULT_SETTINGS });
  });

  test("a member sees the account with their own role", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    const viewer = await addMember(h, a.token, "VIEWER");
    const r = await h.call("GET", "/v1/account", { bearer: viewer.token });
    expect(r.status).toBe(200);
    expect(r.body.id).toBe(a.accountId);
    expect(r.body.role).toBe("VIEWER");
  });

  test("without a token it is 401", async () => {
    const h = authHarness();
    const r = await h.call("GET", "/v1/account");
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe("unauthorized");
  });
});

describe("POST /v1/account/members: happy path", () => {
  test("an OWNER adds a member of each role; each answers exactly {id, email, role} and can log in", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    for (const role of ["OWNER", "ADMIN", "DEVELOPER", "VIEWER"]) {
      const email = `New.${role}@Example.com`;
      const r = await h.call("POST", "/v1/account/members", {
        bearer: a.token,
        body: { email, password: "member password", role },
      });
      expect(r.status).toBe(201);
      expect(Object.keys(r.body).sort()).toEqual(["email", "id", "role"]);
      expect(r.body.email).toBe(email.toLowerCase());
      expect(r.body.role).toBe(role);
      expect(r.body.id).toMatch(/^usr_/);
      const login = await h.call("POST", "/v1/auth/login", { body: { email, password: "member password" } });
      expect(login.status).toBe(200);
      expect(login.body.account_id).toBe(a.accountId);
      expect(login.body.role).toBe(role);
    }
  });

  test("an ADMIN may add ADMIN, DEVELOPER and VIEWER members", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    const admin = await addMember(h, a.token, "ADMIN");
    for (const role of ["ADMIN", "DEVELOPER", "VIEWER"]) await addMember(h, admin.token, role);
  });

  test("the stored password is an argon2id hash, never the cleartext", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    const m = await addMember(h, a.token, "DEVELOPER");
    const row = (await testDb(h.deps).get<{ password_hash: string }>(
      "select password_hash from users where id = ?",
      m.id,
    ))!;
    expect(row.password_hash.startsWith("$argon2id$")).toBe(true);
    expect(row.password_hash).not.toContain(m.password);
  });
});

describe("POST /v1/account/members: errors", () => {
  test("an email already in use, in any letter case or any account, is 409 email_taken and adds nobody", async () => {
    const h = authHarness();
    const a = await seedWithToken(h, { email: "taken@example.com" });
    const b = await seedWithToken(h);
    const before = await userCount(h);
    for (const [token, email] of [
      [a.token, "TAKEN@example.com"],
      [b.token, "taken@example.com"],
    ] as const) {
      const r = await h.call("POST", "/v1/account/members", {
        bearer: token,
        body: { email, password: "member password", role: "VIEWER" },
      });
      expect(r.status).toBe(409);
      expect(r.body.error.type).toBe("conflict_error");
      expect(r.body.error.code).toBe("email_taken");
    }
    expect(await userCount(h)).toBe(before);
  });

  test("DEVELOPER and VIEWER get 403 API_KEY_ROLE_REQUIRED whatever the body, and nobody is added", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    for (const role of ["DEVELOPER", "VIEWER"]) {
      const m = await addMember(h, a.token, role);
      const before = await userCount(h);
      for (const body of [
        { email: "x@example.com", password: "member password", role: "VIEWER" },
        { nonsense: true },
      ]) {
        const r = await h.call("POST", "/v1/account/members", { bearer: m.token, body });
        expect(r.status).toBe(403);
        expect(r.body.error.type).toBe("permission_error");
        expect(r.body.error.code).toBe("API_KEY_ROLE_REQUIRED");
      }
      expect(await userCount(h)).toBe(before);
    }
  });

  test("an ADMIN cannot add an OWNER (403 forbidden)", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    const admin = await addMember(h, a.token, "ADMIN");
    const r = await h.call("POST", "/v1/account/members", {
      bearer: admin.token,
      body: { email: "boss@example.com", password: "member password", role: "OWNER" },
    });
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe("forbidden");
  });

  test("bad role, email, password or unknown fields are 400 naming the field", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    const before = await userCount(h);
    const cases: [Record<string, unknown>, string][] = [
      [{ email: "a@example.com", password: "member password", role: "SUPERUSER" }, "role"],
      [{ email: "a@example.com", password: "member password", role: "owner" }, "role"],
      [{ email: "not-an-email", password: "member password", role: "VIEWER" }, "email"],
      [{ email: "a@example.com", password: "short", role: "VIEWER" }, "password"],
      [{ email: "a@example.com", password: "member password" }, "role"],
      [{ email: "a@example.com", password: "member password", role: "VIEWER", is_admin: true }, "is_admin"],
    ];
    for (const [body, param] of cases) {
      const r = await h.call("POST", "/v1/account/members", { bearer: a.token, body });
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe("invalid_request");
      expect(r.body.error.param).toBe(param);
    }
    expect(await userCount(h)).toBe(before);
  });
});

describe("accounts: security", () => {
  test("a member added by account A belongs to A only; account B's token never sees A", async () => {
    const h = authHarness();
    const a = await seedWithToken(h, { name: "Shop A" });
    const b = await seedWithToken(h, { name: "Shop B" });
    const m = await addMember(h, a.token, "DEVELOPER");
    const rb = await h.call("GET", "/v1/account", { bearer: b.token });
    expect(rb.body.id).toBe(b.accountId);
    expect(rb.text).not.toContain(a.accountId);
    expect(rb.text).not.toContain("Shop A");
    const rm = await h.call("GET", "/v1/account", { bearer: m.token });
    expect(rm.body.id).toBe(a.accountId);
  });

  test("no account or member response contains a password or a password hash", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    const texts: string[] = [];
    const r1 = await h.call("POST", "/v1/account/members", {
      bearer: a.token,
      body: { email: "m@example.com", password: "member password", role: "ADMIN" },
    });
    texts.push(r1.text, (await h.call("GET", "/v1/account", { bearer: a.token })).text);
    texts.push(
      (
        await h.call("POST", "/v1/account/members", {
          bearer: a.token,
          body: { email: "m@example.com", password: "member password", role: "ADMIN" },
        })
      ).text,
    );
    const hashes = (await testDb(h.deps).all<{ password_hash: string }>("select password_hash from users")).map(
      (r) => r.password_hash,
    );
    for (const t of texts) {
      expect(t).not.toContain("member password");
      expect(t).not.toContain(a.password);
      expect(t).not.toContain("$argon2");
      for (const hash of hashes) expect(t).not.toContain(hash);
    }
    expect(await loginToken(h, "m@example.com", "member password")).toBeTruthy();
  });
});
