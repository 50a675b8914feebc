import { describe, expect, test } from "bun:test";
import { apiKeyCacheSize } from "../../src/domain/api-keys/cache";
import { authHarness, issue, PROBE, seedWithToken } from "../auth/support";
import { cleartext, insertKeyRow, keyIdOf } from "./cache-support";

describe("api key cache: revoked and unknown keys", () => {
  test("revoking a cached key (DELETE /v1/api-keys/{id}) makes its very next request 401; other keys keep working", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    const k = await issue(h, a.token, { test: true });
    expect((await h.call("GET", PROBE, { key: k.apiKey })).status).toBe(200);
    expect((await h.call("GET", PROBE, { key: a.testKey })).status).toBe(200);
    expect((await h.call("DELETE", `/v1/api-keys/${k.id}`, { bearer: a.token })).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const r = await h.call("GET", PROBE, { key: k.apiKey });
      expect([r.status, r.body.error.type, r.body.error.code]).toEqual([401, "authentication_error", "unauthorized"]);
    }
    expect((await h.call("GET", PROBE, { key: a.testKey })).status).toBe(200);
  });

  test("revoking the seeded test and live keys after use: both are 401 at once", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    for (const key of [a.testKey, a.liveKey]) expect((await h.call("GET", PROBE, { key })).status).toBe(200);
    for (const key of [a.testKey, a.liveKey]) {
      expect((await h.call("DELETE", `/v1/api-keys/${await keyIdOf(h, key)}`, { bearer: a.token })).status).toBe(200);
      expect((await h.call("GET", PROBE, { key })).status).toBe(401);
    }
  });

  test("a failed revoke or rotate of another account's key leaves the cached key working", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    const b = await seedWithToken(h);
    expect((await h.call("GET", PROBE, { key: a.testKey })).status).toBe(200);
    const id = await keyIdOf(h, a.testKey);
    expect((await h.call("DELETE", `/v1/api-keys/${id}`, { bearer: b.token })).status).toBe(404);
    expect((await h.call("POST", `/v1/api-keys/${id}/rotate`, { bearer: b.token })).status).toBe(404);
    expect((await h.call("GET", PROBE, { key: a.testKey })).body.accountId).toBe(a.accountId);
  });

  test("an unknown key is 401 and not remembered: once its row exists it works on the next request", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    const clear = cleartext("live");
    for (let i = 0; i < 2; i++) expect((await h.call("GET", PROBE, { key: clear })).status).toBe(401);
    expect(apiKeyCacheSize(h.deps)).toBe(0);
    await insertKeyRow(h, a.accountId, clear); // as `cofre init` or another writer would, outside the domain services
    expect((await h.call("GET", PROBE, { key: clear })).body).toEqual({
      accountId: a.accountId,
      mode: "live",
      livemode: true,
    });
  });

  test("malformed keys are 401 before any lookup and never cached", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    for (const key of [
      `${a.testKey}x`,
      a.testKey.slice(0, -1),
      `\u00a0${a.testKey}`,
      a.testKey.replace("ak_test_", "ak_prod_"),
    ]) {
      const r = await h.call("GET", PROBE, { key });
      expect([r.status, r.body.error.code]).toEqual([401, "unauthorized"]);
    }
    expect(apiKeyCacheSize(h.deps)).toBe(0);
  });
});
