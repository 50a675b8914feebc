import { describe, expect, test } from "bun:test";
import { apiKeyCacheSize } from "../../src/domain/api-keys/cache";
import { sha256Hex } from "../../src/lib/crypto";
import { authHarness, issue, PROBE, seedWithToken } from "../auth/support";
import { testDb } from "../support/test-db";

describe("api key cache: cached keys keep working", () => {
  test("a key authenticates on every request, into its own account and mode, and is resolved once", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    expect(apiKeyCacheSize(h.deps)).toBe(0);
    for (let i = 0; i < 3; i++) {
      const r = await h.call("GET", PROBE, { key: a.testKey });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ accountId: a.accountId, mode: "test", livemode: false });
      expect(apiKeyCacheSize(h.deps)).toBe(1);
    }
    expect((await h.call("GET", PROBE, { key: a.liveKey })).body).toEqual({
      accountId: a.accountId,
      mode: "live",
      livemode: true,
    });
    expect(apiKeyCacheSize(h.deps)).toBe(2);
  });

  test("a repeated request is answered from the cache (a write behind the domain's back is not seen)", async () => {
    // Documents the invariant of src/domain/api-keys/cache.ts: only domain writes invalidate.
    // Without this, the invalidation tests below could pass with a cache that never hits.
    const h = authHarness();
    const a = await seedWithToken(h);
    expect((await h.call("GET", PROBE, { key: a.testKey })).status).toBe(200);
    await testDb(h.deps).run("update api_keys set revoked_at = 1 where account_id = ?", a.accountId);
    expect((await h.call("GET", PROBE, { key: a.testKey })).status).toBe(200);
    // Never-cached keys still go to the database.
    expect((await h.call("GET", PROBE, { key: a.liveKey })).status).toBe(401);
  });

  test("cached requests are logged under the same key fingerprint as the first one", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    for (let i = 0; i < 3; i++) expect((await h.call("GET", PROBE, { key: a.testKey })).status).toBe(200);
    const r = await h.call("GET", `/v1/request-logs?fingerprint=${sha256Hex(a.testKey)}`, { bearer: a.token });
    expect(r.body.data.length).toBe(3);
    for (const e of r.body.data)
      expect([e.key_fingerprint, e.mode, e.status]).toEqual([sha256Hex(a.testKey), "test", 200]);
  });

  test("a key issued while others are cached works on its first request", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    expect((await h.call("GET", PROBE, { key: a.testKey })).status).toBe(200);
    const k = await issue(h, a.token, { test: true });
    expect((await h.call("GET", PROBE, { key: k.apiKey })).body).toEqual({
      accountId: a.accountId,
      mode: "test",
      livemode: false,
    });
    expect((await h.call("GET", PROBE, { key: a.testKey })).status).toBe(200);
  });

  test("rotating a cached key: the old key is 401 on the very next request and the new one works", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    const old = await issue(h, a.token, { test: true, label: "worker" });
    expect((await h.call("GET", PROBE, { key: old.apiKey })).status).toBe(200);
    expect((await h.call("GET", PROBE, { key: a.liveKey })).status).toBe(200);
    const r = await h.call("POST", `/v1/api-keys/${old.id}/rotate`, { bearer: a.token });
    expect(r.status).toBe(201);
    const dead = await h.call("GET", PROBE, { key: old.apiKey });
    expect([dead.status, dead.body.error.code]).toEqual([401, "unauthorized"]);
    expect((await h.call("GET", PROBE, { key: r.body.apiKey })).body).toEqual({
      accountId: a.accountId,
      mode: "test",
      livemode: false,
    });
    // Rotating again kills the successor, which was cached in between.
    const r2 = await h.call("POST", `/v1/api-keys/${r.body.id}/rotate`, { bearer: a.token });
    expect(r2.status).toBe(201);
    expect((await h.call("GET", PROBE, { key: r.body.apiKey })).status).toBe(401);
    expect((await h.call("GET", PROBE, { key: r2.body.apiKey })).status).toBe(200);
    expect((await h.call("GET", PROBE, { key: a.liveKey })).status).toBe(200);
  });

  test("the rate limit counts cached requests exactly as before, with the same headers", async () => {
    const h = authHarness({ rateLimitPerMinute: 2 });
    const a = await seedWithToken(h);
    const seen = [];
    for (let i = 0; i < 3; i++) {
      const r = await h.call("GET", PROBE, { key: a.testKey });
      seen.push([r.status, r.headers.get("x-ratelimit-limit-minute"), r.headers.get("x-ratelimit-remaining-minute")]);
    }
    expect(seen).toEqual([
      [200, "2", "1"],
      [200, "2", "0"],
      [429, "2", "0"],
    ]);
    h.clock.advance(60);
    expect((await h.call("GET", PROBE, { key: a.testKey })).status).toBe(200);
  });
});
