import { describe, expect, test } from "bun:test";
import {
  API_KEY_CACHE_MAX,
  apiKeyCacheSize,
  invalidateApiKeyCache,
  MemoryApiKeyCache,
  resolveApiKey,
  type ResolvedApiKey,
} from "../../src/domain/api-keys/cache";
import { revokeKey } from "../../src/domain/api-keys/service";
import { sha256Hex } from "../../src/lib/crypto";
import { newId } from "../../src/lib/ids";
import { authHarness, issue, PROBE, seedWithToken } from "../auth/support";
import { cleartext, insertKeyRow, keyIdOf } from "./cache-support";
import { testDb } from "../support/test-db";

describe("api key cache: isolation between databases", () => {
  test("a key cached in one database is 401 in another", async () => {
    const h1 = authHarness();
    const h2 = authHarness();
    const a = await seedWithToken(h1);
    await seedWithToken(h2);
    expect((await h1.call("GET", PROBE, { key: a.testKey })).status).toBe(200);
    expect(apiKeyCacheSize(h1.deps)).toBe(1);
    const r = await h2.call("GET", PROBE, { key: a.testKey });
    expect([r.status, r.body.error.code]).toEqual([401, "unauthorized"]);
    expect(apiKeyCacheSize(h2.deps)).toBe(0);
  });

  test("the same cleartext in two databases resolves to each one's own account; revoking in one leaves the other", async () => {
    const h1 = authHarness();
    const h2 = authHarness();
    const a1 = await seedWithToken(h1);
    const a2 = await seedWithToken(h2);
    const clear = cleartext("test");
    await insertKeyRow(h1, a1.accountId, clear);
    const id2 = await insertKeyRow(h2, a2.accountId, clear);
    expect((await h1.call("GET", PROBE, { key: clear })).body.accountId).toBe(a1.accountId);
    expect((await h2.call("GET", PROBE, { key: clear })).body.accountId).toBe(a2.accountId);
    expect((await h2.call("DELETE", `/v1/api-keys/${id2}`, { bearer: a2.token })).status).toBe(200);
    expect((await h2.call("GET", PROBE, { key: clear })).status).toBe(401);
    expect((await h1.call("GET", PROBE, { key: clear })).body.accountId).toBe(a1.accountId);
  });
});

describe("api key cache: only committed rows are remembered", () => {
  test("a resolved key carries exactly id, accountId, mode, livemode and the SHA-256 fingerprint", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    const k = await issue(h, a.token);
    for (let i = 0; i < 2; i++)
      expect(await resolveApiKey(h.deps, k.apiKey)).toEqual({
        id: k.id,
        accountId: a.accountId,
        mode: "live",
        livemode: true,
        fingerprint: sha256Hex(k.apiKey),
      });
    invalidateApiKeyCache(h.deps);
    expect(apiKeyCacheSize(h.deps)).toBe(0);
  });
});

describe("api key cache: eviction", () => {
  test("the cache stays bounded, drops the oldest entry first, and evicted or revoked keys stay correct", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    const keys = Array.from({ length: API_KEY_CACHE_MAX + 5 }, () => cleartext("test"));
    for (let i = 0; i < keys.length; i += 1000) {
      const chunk = keys.slice(i, i + 1000);
      await testDb(h.deps).run(
        `insert into api_keys (id, account_id, mode, fingerprint, prefix, label, created_at) values ${chunk.map(() => "(?, ?, 'test', ?, ?, '', 0)").join(", ")}`,
        ...chunk.flatMap((k) => [newId("apiKey"), a.accountId, sha256Hex(k), k.slice(0, 12)]),
      );
    }
    const revocable = await issue(h, a.token, { test: true });
    expect((await h.call("GET", PROBE, { key: revocable.apiKey })).status).toBe(200);
    for (const k of keys) expect((await resolveApiKey(h.deps, k))?.accountId).toBe(a.accountId);
    expect(apiKeyCacheSize(h.deps)).toBe(API_KEY_CACHE_MAX);
    // The first-cached key was evicted: it is read again from the database and still works.
    expect((await h.call("GET", PROBE, { key: revocable.apiKey })).status).toBe(200);
    expect(apiKeyCacheSize(h.deps)).toBe(API_KEY_CACHE_MAX);
    // A revoke after eviction and re-caching is still seen at once.
    expect((await h.call("DELETE", `/v1/api-keys/${revocable.id}`, { bearer: a.token })).status).toBe(200);
    expect((await h.call("GET", PROBE, { key: revocable.apiKey })).status).toBe(401);
    expect((await h.call("GET", PROBE, { key: keys[0]! })).status).toBe(200);
  });
});

describe("api key cache: the store behind it", () => {
  test("a cache hit is answered synchronously, without reading the store", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    const first = resolveApiKey(h.deps, a.testKey);
    expect(first).toBeInstanceOf(Promise);
    const key = await first;
    const read = h.deps.store.read.apiKeys;
    const original = read.activeByFingerprint;
    let reads = 0;
    read.activeByFingerprint = (fp) => {
      reads++;
      return original(fp);
    };
    try {
      const hit = resolveApiKey(h.deps, a.testKey);
      expect(hit).not.toBeInstanceOf(Promise);
      expect(hit).toBe(key);
      expect((await h.call("GET", PROBE, { key: a.testKey })).status).toBe(200);
      expect(reads).toBe(0);
      expect(await resolveApiKey(h.deps, a.liveKey)).toMatchObject({ accountId: a.accountId, mode: "live" });
      expect(reads).toBe(1);
    } finally {
      read.activeByFingerprint = original;
    }
  });

  test("an answer read before a clear is not remembered after it", () => {
    const cache = new MemoryApiKeyCache(10);
    const key: ResolvedApiKey = {
      id: "ak_1",
      accountId: "acct_1",
      mode: "test",
      livemode: false,
      fingerprint: "f".repeat(64),
    };
    const before = cache.epoch();
    cache.clear();
    cache.remember("ak_test_x", key, before);
    expect([cache.size, cache.get("ak_test_x")]).toEqual([0, undefined]);
    cache.remember("ak_test_x", key, cache.epoch());
    expect([cache.size, cache.get("ak_test_x")]).toEqual([1, key]);
  });

  test("a lookup whose answer arrives after a revoke committed does not put the revoked key in the cache", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    const id = await keyIdOf(h, a.testKey);
    const read = h.deps.store.read.apiKeys;
    const original = read.activeByFingerprint;
    let answer!: () => void;
    const held = new Promise<void>((r) => (answer = r));
    let rowRead!: () => void;
    const wasRead = new Promise<void>((r) => (rowRead = r));
    // A slow store: the row is read (still active) first, but the answer reaches the cache later.
    read.activeByFingerprint = async (fp) => {
      const row = await original(fp);
      rowRead();
      await held;
      return row;
    };
    try {
      const lookup = resolveApiKey(h.deps, a.testKey);
      await wasRead; // the revoke commits after the read (on PostgreSQL the read is a round trip of its own)
      expect(await revokeKey(h.deps, { accountId: a.accountId, userId: a.userId, role: "OWNER" }, id)).toEqual({
        revoked: true,
      });
      answer();
      expect(await lookup).toMatchObject({ id, accountId: a.accountId });
    } finally {
      read.activeByFingerprint = original;
    }
    expect(apiKeyCacheSize(h.deps)).toBe(0);
    expect(await resolveApiKey(h.deps, a.testKey)).toBeUndefined();
    expect((await h.call("GET", PROBE, { key: a.testKey })).status).toBe(401);
  });
});
