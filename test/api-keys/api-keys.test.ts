import { describe, expect, test } from "bun:test";
import { sha256Hex } from "../../src/lib/crypto";
import { auditEntries } from "../support/audit";
import { authHarness, issue, PROBE, seedWithToken } from "../auth/support";
import { testDb } from "../support/test-db";

const ISSUE_KEYS = ["apiKey", "createdAt", "fingerprint", "id", "label", "mode", "prefix"];
const LIST_KEYS = ["createdAt", "id", "label", "mode", "prefix"];

describe("POST /v1/api-keys: issue", () => {
  test("issues a live key by default with exactly the issue fields; the cleartext authenticates in live mode", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    const r = await h.call("POST", "/v1/api-keys", { bearer: a.token, body: { label: "backend" } });
    expect(r.status).toBe(201);
    expect(Object.keys(r.body).sort()).toEqual(ISSUE_KEYS);
    expect(r.body.apiKey).toMatch(/^ak_live_[A-Za-z0-9_-]{32}$/);
    expect(Buffer.from(r.body.apiKey.slice(8), "base64url").length).toBe(24);
    expect(r.body.fingerprint).toBe(sha256Hex(r.body.apiKey));
    expect(r.body.prefix).toBe(r.body.apiKey.slice(0, 12));
    expect(r.body.label).toBe("backend");
    expect(r.body.mode).toBe("live");
    expect(r.body.id).toMatch(/^ak_[0-9a-f]{32}$/);
    expect(r.body.createdAt).toBe("2026-11-20T12:00:00.000Z");
    const probe = await h.call("GET", PROBE, { key: r.body.apiKey });
    expect(probe.status).toBe(200);
    expect(probe.body).toEqual({ accountId: a.accountId, mode: "live", livemode: true });
  });

  test("test: true issues an ak_test_ key in sandbox mode; no body at all issues a live key with an empty label", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    const t = await issue(h, a.token, { test: true });
    expect(t.apiKey).toMatch(/^ak_test_[A-Za-z0-9_-]{32}$/);
    expect(t.mode).toBe("test");
    expect((await h.call("GET", PROBE, { key: t.apiKey })).body.mode).toBe("test");
    const r = await h.call("POST", "/v1/api-keys", { bearer: a.token });
    expect(r.status).toBe(201);
    expect(r.body.mode).toBe("live");
    expect(r.body.label).toBe("");
  });

  test("only the fingerprint and the prefix are stored, never the cleartext", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    const k = await issue(h, a.token, { label: "x" });
    const row = (await testDb(h.deps).get<Record<string, unknown>>("select * from api_keys where id = ?", k.id))!;
    expect(row.fingerprint).toBe(k.fingerprint);
    expect(row.prefix).toBe(k.prefix);
    expect(JSON.stringify(row)).not.toContain(k.apiKey);
    expect(JSON.stringify(row)).not.toContain(k.apiKey.slice(12));
  });

  test("a label of exactly 64 characters is accepted; 65 is 400 with param label and nothing is issued", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    expect((await issue(h, a.token, { label: "x".repeat(64) })).label).toBe("x".repeat(64));
    const before = (await h.call("GET", "/v1/api-keys", { bearer: a.token })).body.data.length;
    const r = await h.call("POST", "/v1/api-keys", { bearer: a.token, body: { label: "x".repeat(65) } });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe("invalid_request");
    expect(r.body.error.param).toBe("label");
    expect((await h.call("GET", "/v1/api-keys", { bearer: a.token })).body.data.length).toBe(before);
  });

  test("the label limit counts characters, not UTF-16 units: 64 emoji or accented letters pass, 65 are 400", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    for (const ch of ["\u{1F4B0}", "\u00E7"]) {
      expect((await issue(h, a.token, { label: ch.repeat(64) })).label).toBe(ch.repeat(64));
      const r = await h.call("POST", "/v1/api-keys", { bearer: a.token, body: { label: ch.repeat(65) } });
      expect([r.status, r.body.error?.param]).toEqual([400, "label"]);
    }
    const k = await issue(h, a.token);
    const rotated = await h.call("POST", `/v1/api-keys/${k.id}/rotate`, {
      bearer: a.token,
      body: { label: "\u{1F511}".repeat(64) },
    });
    expect([rotated.status, rotated.body.label]).toEqual([201, "\u{1F511}".repeat(64)]);
  });

  test("a non-boolean test, a non-string label or an unknown field is 400", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    for (const [body, param] of [
      [{ test: "true" }, "test"],
      [{ test: 1 }, "test"],
      [{ label: 5 }, "label"],
      [{ mode: "test" }, "mode"],
    ] as const) {
      const r = await h.call("POST", "/v1/api-keys", { bearer: a.token, body });
      expect(r.status).toBe(400);
      expect(r.body.error.param).toBe(param);
    }
  });

  test("a body that is not a JSON object, or a deeply nested label, is 400 and issues nothing", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    const rows = async () => (await testDb(h.deps).get<{ n: number }>("select count(*) as n from api_keys"))!.n;
    const before = await rows();
    for (const body of [
      "[]",
      '[{"label":"x"}]',
      "null",
      "7",
      '"label"',
      `{"label":${"[".repeat(3000)}${"]".repeat(3000)}}`,
    ]) {
      const r = await h.call("POST", "/v1/api-keys", { bearer: a.token, body });
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe("invalid_request");
    }
    expect(await rows()).toBe(before);
  });
});

describe("GET /v1/api-keys: list", () => {
  test("lists the account's active keys newest first without cleartext or fingerprint, with access.canManage", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    h.clock.advance(1);
    const k1 = await issue(h, a.token, { label: "one" });
    h.clock.advance(1);
    const k2 = await issue(h, a.token, { label: "two", test: true });
    const r = await h.call("GET", "/v1/api-keys", { bearer: a.token });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(["access", "data"]);
    expect(r.body.access).toEqual({ canManage: true });
    expect(r.body.data.length).toBe(4); // two seeded + two issued
    for (const item of r.body.data) expect(Object.keys(item).sort()).toEqual(LIST_KEYS);
    expect(r.body.data[0]).toEqual({
      id: k2.id,
      prefix: k2.prefix,
      label: "two",
      createdAt: k2.createdAt,
      mode: "test",
    });
    expect(r.body.data[1].id).toBe(k1.id);
    expect(r.text).not.toContain(k1.apiKey);
    expect(r.text).not.toContain(k1.fingerprint);
    expect(r.text).not.toContain(a.testKey);
  });
});

describe("POST /v1/api-keys/{id}/rotate", () => {
  test("returns a new key of the same mode and label; the old key fails on the very next request and the new one works", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    const old = await issue(h, a.token, { label: "worker", test: true });
    expect((await h.call("GET", PROBE, { key: old.apiKey })).status).toBe(200);
    h.clock.advance(5);
    const r = await h.call("POST", `/v1/api-keys/${old.id}/rotate`, { bearer: a.token });
    expect(r.status).toBe(201);
    expect(Object.keys(r.body).sort()).toEqual(ISSUE_KEYS);
    expect(r.body.id).not.toBe(old.id);
    expect(r.body.apiKey).not.toBe(old.apiKey);
    expect(r.body.apiKey).toMatch(/^ak_test_/);
    expect(r.body.mode).toBe("test");
    expect(r.body.label).toBe("worker");
    expect(r.body.fingerprint).toBe(sha256Hex(r.body.apiKey));
    expect(r.body.createdAt).toBe("2026-11-20T12:00:05.000Z");
    const dead = await h.call("GET", PROBE, { key: old.apiKey });
    expect(dead.status).toBe(401);
    expect(dead.body.error.code).toBe("unauthorized");
    expect((await h.call("GET", PROBE, { key: r.body.apiKey })).body.mode).toBe("test");
    const list = await h.call("GET", "/v1/api-keys", { bearer: a.token });
    const ids = list.body.data.map((k: { id: string }) => k.id);
    expect(ids).toContain(r.body.id);
    expect(ids).not.toContain(old.id);
  });

  test("a label sent with rotate replaces the old label; an empty body keeps it; a live key stays live", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    const old = await issue(h, a.token, { label: "old label" });
    const r = await h.call("POST", `/v1/api-keys/${old.id}/rotate`, { bearer: a.token, body: { label: "new label" } });
    expect(r.status).toBe(201);
    expect(r.body.label).toBe("new label");
    expect(r.body.mode).toBe("live");
    const r2 = await h.call("POST", `/v1/api-keys/${r.body.id}/rotate`, { bearer: a.token, body: {} });
    expect(r2.body.label).toBe("new label");
  });

  test("rotating a revoked, rotated-away or unknown key is 404 and issues nothing", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    const k = await issue(h, a.token);
    await h.call("POST", `/v1/api-keys/${k.id}/rotate`, { bearer: a.token });
    const k2 = await issue(h, a.token);
    await h.call("DELETE", `/v1/api-keys/${k2.id}`, { bearer: a.token });
    const before = (await h.call("GET", "/v1/api-keys", { bearer: a.token })).body.data.length;
    for (const id of [k.id, k2.id, "ak_0000000000000000000000000000000", "nonsense"]) {
      const r = await h.call("POST", `/v1/api-keys/${id}/rotate`, { bearer: a.token });
      expect(r.status).toBe(404);
      expect(r.body.error.code).toBe("not_found");
    }
    expect((await h.call("GET", "/v1/api-keys", { bearer: a.token })).body.data.length).toBe(before);
  });

  test("a rotate label over 64 characters is 400 and the key is not revoked", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    const k = await issue(h, a.token);
    const r = await h.call("POST", `/v1/api-keys/${k.id}/rotate`, { bearer: a.token, body: { label: "y".repeat(65) } });
    expect(r.status).toBe(400);
    expect(r.body.error.param).toBe("label");
    expect((await h.call("GET", PROBE, { key: k.apiKey })).status).toBe(200);
  });
});

describe("DELETE /v1/api-keys/{id}: revoke", () => {
  test("answers exactly {revoked: true}; the key fails on the very next request and for good", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    const k = await issue(h, a.token, { test: true });
    expect((await h.call("GET", PROBE, { key: k.apiKey })).status).toBe(200);
    const r = await h.call("DELETE", `/v1/api-keys/${k.id}`, { bearer: a.token });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ revoked: true });
    expect((await h.call("GET", PROBE, { key: k.apiKey })).status).toBe(401);
    h.clock.advance(3600);
    expect((await h.call("GET", PROBE, { key: k.apiKey })).status).toBe(401);
    const again = await h.call("DELETE", `/v1/api-keys/${k.id}`, { bearer: a.token });
    expect(again.status).toBe(404);
    const list = await h.call("GET", "/v1/api-keys", { bearer: a.token });
    expect(list.body.data.map((x: { id: string }) => x.id)).not.toContain(k.id);
  });

  test("revoking one key leaves the account's other keys working", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    const k = await issue(h, a.token);
    await h.call("DELETE", `/v1/api-keys/${k.id}`, { bearer: a.token });
    expect((await h.call("GET", PROBE, { key: a.testKey })).status).toBe(200);
    expect((await h.call("GET", PROBE, { key: a.liveKey })).status).toBe(200);
  });
});

describe("audit log", () => {
  test("issue, rotate and revoke each write an entry with the acting user's id and the key fingerprint", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    const k = await issue(h, a.token, { label: "audited" });
    const rot = (await h.call("POST", `/v1/api-keys/${k.id}/rotate`, { bearer: a.token })).body;
    await h.call("DELETE", `/v1/api-keys/${rot.id}`, { bearer: a.token });
    const entries = await auditEntries(h.deps, a.accountId);
    expect(entries.map((e) => e.action)).toEqual(["api_key.issued", "api_key.rotated", "api_key.revoked"]);
    for (const e of entries) expect(e.actorUserId).toBe(a.userId);
    expect(entries[0]).toMatchObject({ keyId: k.id, keyFingerprint: k.fingerprint });
    expect(entries[1]).toMatchObject({
      keyId: rot.id,
      keyFingerprint: rot.fingerprint,
      previousKeyId: k.id,
      previousKeyFingerprint: k.fingerprint,
    });
    expect(entries[2]).toMatchObject({ keyId: rot.id, keyFingerprint: rot.fingerprint });
    expect(JSON.stringify(entries)).not.toContain(k.apiKey);
    expect(JSON.stringify(entries)).not.toContain(rot.apiKey);
  });

  test("a refused operation (404, 403, 400) writes no audit entry", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    await h.call("POST", "/v1/api-keys/ak_missing/rotate", { bearer: a.token });
    await h.call("DELETE", "/v1/api-keys/ak_missing", { bearer: a.token });
    await h.call("POST", "/v1/api-keys", { bearer: a.token, body: { label: "z".repeat(65) } });
    expect(await auditEntries(h.deps, a.accountId)).toEqual([]);
  });
});

describe("apikey header: exact comparison", () => {
  test("a key wrapped in or mixed with other characters is 401, and the exact key works", async () => {
    const h = authHarness();
    const a = await h.seedAccount();
    const k = a.testKey;
    const variants = [
      `\u00a0${k}`,
      `${k}\u00a0`,
      `${k}x`,
      k.slice(0, -1),
      `${k.slice(0, 10)} ${k.slice(10)}`,
      k.toUpperCase(),
      `ak_test_${k}`,
      `${k},${k}`,
      "",
    ];
    for (const key of variants) {
      const r = await h.call("GET", PROBE, { key });
      expect(r.status).toBe(401);
      expect(r.body.error.type).toBe("authentication_error");
      expect(r.body.error.code).toBe("unauthorized");
    }
    expect((await h.call("GET", PROBE)).status).toBe(401);
    expect((await h.call("GET", PROBE, { key: k })).status).toBe(200);
  });

  test("a well-formed key that was never issued is 401", async () => {
    const h = authHarness();
    await h.seedAccount();
    const r = await h.call("GET", PROBE, { key: `ak_live_${"A".repeat(32)}` });
    expect(r.status).toBe(401);
  });
});
