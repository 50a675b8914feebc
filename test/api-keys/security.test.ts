import { describe, expect, test } from "bun:test";
import { auditEntries } from "../support/audit";
import { authHarness, addMember, issue, PROBE, seedWithToken, type Member } from "../auth/support";
import type { Harness } from "../support/harness";
import { testDb } from "../support/test-db";

async function twoAccounts() {
  const h = authHarness();
  const a = await seedWithToken(h, { name: "Account A" });
  const b = await seedWithToken(h, { name: "Account B" });
  return { h, a, b };
}

function keyRows(h: Harness) {
  return testDb(h.deps).all("select id, revoked_at from api_keys order by id");
}

describe("api keys: cross-account ids", () => {
  test("rotating or revoking another account's key is 404 and nothing is revoked, issued or audited", async () => {
    const { h, a, b } = await twoAccounts();
    const ka = await issue(h, a.token, { label: "A key" });
    const rowsBefore = await keyRows(h);
    const auditBefore =
      (await auditEntries(h.deps, a.accountId)).length + (await auditEntries(h.deps, b.accountId)).length;
    for (const [method, path] of [
      ["POST", `/v1/api-keys/${ka.id}/rotate`],
      ["DELETE", `/v1/api-keys/${ka.id}`],
    ] as const) {
      const r = await h.call(method, path, {
        bearer: b.token,
        body: method === "POST" ? { label: "stolen" } : undefined,
      });
      expect(r.status).toBe(404);
      expect(r.body.error.code).toBe("not_found");
      expect(r.text).not.toContain(ka.prefix);
    }
    expect(await keyRows(h)).toEqual(rowsBefore);
    expect((await auditEntries(h.deps, a.accountId)).length + (await auditEntries(h.deps, b.accountId)).length).toBe(
      auditBefore,
    );
    expect((await h.call("GET", PROBE, { key: ka.apiKey })).status).toBe(200);
    expect((await h.call("GET", PROBE, { key: a.testKey })).body.accountId).toBe(a.accountId);
  });

  test("each account lists only its own keys", async () => {
    const { h, a, b } = await twoAccounts();
    const ka = await issue(h, a.token);
    const kb = await issue(h, b.token);
    const la = await h.call("GET", "/v1/api-keys", { bearer: a.token });
    const lb = await h.call("GET", "/v1/api-keys", { bearer: b.token });
    const idsA = la.body.data.map((k: { id: string }) => k.id);
    const idsB = lb.body.data.map((k: { id: string }) => k.id);
    expect(idsA).toContain(ka.id);
    expect(idsA).not.toContain(kb.id);
    expect(idsB).toContain(kb.id);
    expect(idsB).not.toContain(ka.id);
    expect(lb.text).not.toContain(ka.prefix);
    expect(lb.text).not.toContain(a.accountId);
  });

  test("a key authenticates into its own account only, and in its own mode only", async () => {
    const { h, a, b } = await twoAccounts();
    expect((await h.call("GET", PROBE, { key: a.testKey })).body).toEqual({
      accountId: a.accountId,
      mode: "test",
      livemode: false,
    });
    expect((await h.call("GET", PROBE, { key: a.liveKey })).body).toEqual({
      accountId: a.accountId,
      mode: "live",
      livemode: true,
    });
    expect((await h.call("GET", PROBE, { key: b.liveKey })).body.accountId).toBe(b.accountId);
  });
});

describe("api keys: roles", () => {
  const ROLES = ["OWNER", "ADMIN", "DEVELOPER", "VIEWER"] as const;

  for (const role of ROLES) {
    const manages = role === "OWNER" || role === "ADMIN";
    test(`${role}: list 200 (canManage ${manages}); issue, rotate and revoke ${manages ? "succeed" : "are 403 API_KEY_ROLE_REQUIRED and change nothing"}`, async () => {
      const h = authHarness();
      const owner = await seedWithToken(h);
      const member: Pick<Member, "token"> = role === "OWNER" ? owner : await addMember(h, owner.token, role);
      const target = await issue(h, owner.token, { label: "target" });
      const target2 = await issue(h, owner.token, { label: "target2" });

      const list = await h.call("GET", "/v1/api-keys", { bearer: member.token });
      expect(list.status).toBe(200);
      expect(list.body.access).toEqual({ canManage: manages });
      expect(list.body.data.length).toBe(4);

      const rowsBefore = await keyRows(h);
      const issued = await h.call("POST", "/v1/api-keys", { bearer: member.token, body: { label: "by member" } });
      const rotated = await h.call("POST", `/v1/api-keys/${target.id}/rotate`, { bearer: member.token });
      const revoked = await h.call("DELETE", `/v1/api-keys/${target2.id}`, { bearer: member.token });
      if (manages) {
        expect(issued.status).toBe(201);
        expect(rotated.status).toBe(201);
        expect(revoked.status).toBe(200);
        expect((await h.call("GET", PROBE, { key: target.apiKey })).status).toBe(401);
        expect((await h.call("GET", PROBE, { key: target2.apiKey })).status).toBe(401);
      } else {
        for (const r of [issued, rotated, revoked]) {
          expect(r.status).toBe(403);
          expect(r.body.error.type).toBe("permission_error");
          expect(r.body.error.code).toBe("API_KEY_ROLE_REQUIRED");
        }
        // the role check comes before the body: an invalid body still gets 403
        const bad = await h.call("POST", "/v1/api-keys", {
          bearer: member.token,
          body: { label: "x".repeat(100), bogus: 1 },
        });
        expect(bad.status).toBe(403);
        expect(await keyRows(h)).toEqual(rowsBefore);
        expect((await h.call("GET", PROBE, { key: target.apiKey })).status).toBe(200);
        expect((await h.call("GET", PROBE, { key: target2.apiKey })).status).toBe(200);
      }
    });
  }

  test("a demoted role takes effect on the next request without a new login", async () => {
    const h = authHarness();
    const owner = await seedWithToken(h);
    const admin = await addMember(h, owner.token, "ADMIN");
    expect((await h.call("POST", "/v1/api-keys", { bearer: admin.token })).status).toBe(201);
    await testDb(h.deps).run("update users set role = 'VIEWER' where id = ?", admin.id);
    expect((await h.call("POST", "/v1/api-keys", { bearer: admin.token })).status).toBe(403);
  });
});

describe("api keys: authentication of the key routes", () => {
  test("the key routes refuse the apikey header (401) even with a valid bearer, and change nothing", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    const k = await issue(h, a.token);
    const before = keyRows(h);
    for (const [method, path] of [
      ["GET", "/v1/api-keys"],
      ["POST", "/v1/api-keys"],
      ["POST", `/v1/api-keys/${k.id}/rotate`],
      ["DELETE", `/v1/api-keys/${k.id}`],
    ] as const) {
      for (const opts of [{ key: a.liveKey }, { key: k.apiKey, bearer: a.token }]) {
        const r = await h.call(method, path, opts);
        expect(r.status).toBe(401);
        expect(r.body.error.code).toBe("unauthorized");
      }
    }
    expect(keyRows(h)).toEqual(before);
  });

  test("a logged-out token can no longer issue, rotate or revoke", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    const k = await issue(h, a.token);
    await h.call("POST", "/v1/auth/logout", { bearer: a.token });
    expect((await h.call("POST", "/v1/api-keys", { bearer: a.token })).status).toBe(401);
    expect((await h.call("POST", `/v1/api-keys/${k.id}/rotate`, { bearer: a.token })).status).toBe(401);
    expect((await h.call("DELETE", `/v1/api-keys/${k.id}`, { bearer: a.token })).status).toBe(401);
    expect((await h.call("GET", PROBE, { key: k.apiKey })).status).toBe(200);
  });
});

describe("api keys: rotation and revocation are immediate", () => {
  test("a fresh key rotated between two requests fails on the very next one; its successor works at once", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    let current = await issue(h, a.token, { test: true });
    for (let i = 0; i < 3; i++) {
      expect((await h.call("GET", PROBE, { key: current.apiKey })).status).toBe(200);
      const next = (await h.call("POST", `/v1/api-keys/${current.id}/rotate`, { bearer: a.token })).body;
      expect((await h.call("GET", PROBE, { key: current.apiKey })).status).toBe(401);
      expect((await h.call("GET", PROBE, { key: next.apiKey })).status).toBe(200);
      current = next;
    }
  });

  test("rotate is atomic: exactly one key revoked and one issued, in the same instant", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    const k = await issue(h, a.token);
    h.clock.advance(7);
    const n = (await h.call("POST", `/v1/api-keys/${k.id}/rotate`, { bearer: a.token })).body;
    const old = (await testDb(h.deps).get<{ revoked_at: number }>(
      "select revoked_at from api_keys where id = ?",
      k.id,
    ))!;
    const fresh = (await testDb(h.deps).get<{ created_at: number; revoked_at: number | null }>(
      "select created_at, revoked_at from api_keys where id = ?",
      n.id,
    ))!;
    expect(old.revoked_at).toBe(h.clock.nowMs());
    expect(fresh.created_at).toBe(old.revoked_at);
    expect(fresh.revoked_at).toBeNull();
  });
});

describe("api keys: no secrets in responses", () => {
  test("no key-route response contains a stored secret, a password hash or another account's data", async () => {
    const { h, a, b } = await twoAccounts();
    const texts: string[] = [];
    const kb = await issue(h, b.token, { label: "B secret" });
    const ka = await issue(h, a.token, { label: "A" });
    texts.push((await h.call("GET", "/v1/api-keys", { bearer: a.token })).text);
    const rot = await h.call("POST", `/v1/api-keys/${ka.id}/rotate`, { bearer: a.token });
    texts.push(rot.text);
    texts.push((await h.call("DELETE", `/v1/api-keys/${rot.body.id}`, { bearer: a.token })).text);
    texts.push((await h.call("POST", `/v1/api-keys/${kb.id}/rotate`, { bearer: a.token })).text);
    texts.push((await h.call("DELETE", `/v1/api-keys/${kb.id}`, { bearer: a.token })).text);
    texts.push((await h.call("GET", "/v1/api-keys", { bearer: a.token })).text);
    const hashes = (await testDb(h.deps).all<{ password_hash: string }>("select password_hash from users")).map(
      (r) => r.password_hash,
    );
    const secret = (await testDb(h.deps).get<{ value: string }>("select value from service_secrets"))!.value;
    for (const t of texts) {
      for (const hash of hashes) expect(t).not.toContain(hash);
      expect(t).not.toContain("$argon2");
      expect(t).not.toContain(secret);
      expect(t).not.toContain(b.accountId);
      expect(t).not.toContain(kb.apiKey);
      expect(t).not.toContain(kb.fingerprint);
      expect(t).not.toContain(kb.prefix);
      expect(t).not.toContain("B secret");
      expect(t).not.toContain(a.testKey);
      expect(t).not.toContain(ka.apiKey);
    }
  });
});
