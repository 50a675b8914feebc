import { describe, expect, test } from "bun:test";
import { sha256Hex } from "../../src/lib/crypto";
import { authHarness, addMember, issue, PROBE, seedWithToken } from "./support";

const ENTRY_KEYS = [
  "created_at",
  "duration_ms",
  "id",
  "key_fingerprint",
  "method",
  "mode",
  "path",
  "request_id",
  "status",
];
const CLOCK = "/v1/test_helpers/clock/advance";

describe("request log: recording", () => {
  test("every apikey request is recorded with time, method, path, status, request id and key fingerprint", async () => {
    const h = authHarness({ testClock: true });
    const a = await seedWithToken(h);
    const ok = await h.call("GET", `${PROBE}?x=1`, { key: a.testKey, headers: { "x-request-id": "my-req-1" } });
    const forbidden = await h.call("POST", CLOCK, { key: a.liveKey, body: { seconds: 1 } });
    const invalid = await h.call("POST", CLOCK, { key: a.testKey, body: { seconds: "1" } });
    expect([ok.status, forbidden.status, invalid.status]).toEqual([200, 403, 400]);
    const r = await h.call("GET", "/v1/request-logs", { bearer: a.token });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(["data", "has_more", "next_cursor", "object"]);
    expect(r.body.object).toBe("list");
    expect(r.body.has_more).toBe(false);
    expect(r.body.next_cursor).toBeNull();
    expect(r.body.data.length).toBe(3);
    for (const e of r.body.data) expect(Object.keys(e).sort()).toEqual(ENTRY_KEYS);
    const [e3, e2, e1] = r.body.data;
    expect(e1).toMatchObject({
      method: "GET",
      path: PROBE,
      status: 200,
      request_id: "my-req-1",
      key_fingerprint: sha256Hex(a.testKey),
      mode: "test",
      created_at: "2026-11-20T12:00:00.000Z",
    });
    expect(e2).toMatchObject({
      method: "POST",
      path: CLOCK,
      status: 403,
      key_fingerprint: sha256Hex(a.liveKey),
      mode: "live",
      request_id: forbidden.headers.get("x-request-id"),
    });
    expect(e3).toMatchObject({
      method: "POST",
      path: CLOCK,
      status: 400,
      request_id: invalid.headers.get("x-request-id"),
    });
    expect(typeof e1.duration_ms).toBe("number");
  });

  test("requests refused for a missing or invalid key, and dashboard requests, are not recorded", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    await h.call("GET", PROBE);
    await h.call("GET", PROBE, { key: `ak_test_${"B".repeat(32)}` });
    await h.call("GET", "/v1/api-keys", { bearer: a.token });
    const r = await h.call("GET", "/v1/request-logs", { bearer: a.token });
    expect(r.body.data).toEqual([]);
  });

  test("a rate-limited request (429) is recorded with its status", async () => {
    const h = authHarness({ rateLimitPerMinute: 1 });
    const a = await seedWithToken(h);
    expect((await h.call("GET", PROBE, { key: a.testKey })).status).toBe(200);
    expect((await h.call("GET", PROBE, { key: a.testKey })).status).toBe(429);
    const r = await h.call("GET", "/v1/request-logs", { bearer: a.token });
    expect(r.body.data.map((e: { status: number }) => e.status)).toEqual([429, 200]);
  });

  test("the fingerprint an issued key returns is the one its requests are logged under", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    const k = await issue(h, a.token, { test: true });
    await h.call("GET", PROBE, { key: k.apiKey });
    const r = await h.call("GET", `/v1/request-logs?fingerprint=${k.fingerprint}`, { bearer: a.token });
    expect(r.body.data.length).toBe(1);
    expect(r.body.data[0].key_fingerprint).toBe(k.fingerprint);
  });
});

describe("request log: listing", () => {
  test("cursor pagination walks every entry newest first without repeats", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await h.call("GET", PROBE, { key: a.testKey })).headers.get("x-request-id")!);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const q: string = cursor ? `?limit=2&starting_after=${cursor}` : "?limit=2";
      const r = await h.call("GET", `/v1/request-logs${q}`, { bearer: a.token });
      expect(r.status).toBe(200);
      expect(r.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...r.body.data.map((e: { request_id: string }) => e.request_id));
      cursor = r.body.next_cursor;
      expect(r.body.has_more).toBe(cursor !== null);
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].reverse());
  });

  test("filters by status and by fingerprint", async () => {
    const h = authHarness({ testClock: true });
    const a = await seedWithToken(h);
    await h.call("GET", PROBE, { key: a.testKey });
    await h.call("GET", PROBE, { key: a.liveKey });
    await h.call("POST", CLOCK, { key: a.liveKey, body: { seconds: 1 } });
    const byStatus = await h.call("GET", "/v1/request-logs?status=403", { bearer: a.token });
    expect(byStatus.body.data.map((e: { status: number }) => e.status)).toEqual([403]);
    const byKey = await h.call("GET", `/v1/request-logs?fingerprint=${sha256Hex(a.liveKey)}`, { bearer: a.token });
    expect(byKey.body.data.length).toBe(2);
    const both = await h.call("GET", `/v1/request-logs?fingerprint=${sha256Hex(a.liveKey)}&status=200`, {
      bearer: a.token,
    });
    expect(both.body.data.length).toBe(1);
  });

  test("bad limit, status, fingerprint or cursor values are 400", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    for (const q of ["limit=0", "limit=101", "limit=abc", "limit=1.5", "status=abc", "status=99", "fingerprint=xyz"]) {
      const r = await h.call("GET", `/v1/request-logs?${q}`, { bearer: a.token });
      expect(r.status).toBe(400);
      expect(r.body.error.type).toBe("invalid_request_error");
    }
    const c = await h.call("GET", "/v1/request-logs?starting_after=req_unknown", { bearer: a.token });
    expect(c.status).toBe(400);
    expect(c.body.error.code).toBe("invalid_cursor");
    expect(c.body.error.param).toBe("starting_after");
  });

  test("any member may read the log (VIEWER included); an apikey may not", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    await h.call("GET", PROBE, { key: a.testKey });
    const viewer = await addMember(h, a.token, "VIEWER");
    const r = await h.call("GET", "/v1/request-logs", { bearer: viewer.token });
    expect(r.status).toBe(200);
    expect(r.body.data.length).toBe(1);
    expect((await h.call("GET", "/v1/request-logs", { key: a.testKey })).status).toBe(401);
    expect((await h.call("GET", "/v1/request-logs")).status).toBe(401);
  });
});

describe("request log: security", () => {
  test("an account sees only its own entries, and another account's entry id is not a valid cursor", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    const b = await seedWithToken(h);
    await h.call("GET", PROBE, { key: a.testKey });
    await h.call("GET", PROBE, { key: b.liveKey });
    const la = await h.call("GET", "/v1/request-logs", { bearer: a.token });
    const lb = await h.call("GET", "/v1/request-logs", { bearer: b.token });
    expect(la.body.data.length).toBe(1);
    expect(lb.body.data.length).toBe(1);
    expect(la.body.data[0].key_fingerprint).toBe(sha256Hex(a.testKey));
    expect(lb.text).not.toContain(sha256Hex(a.testKey));
    expect(la.text).not.toContain(a.testKey);
    const cross = await h.call("GET", `/v1/request-logs?starting_after=${la.body.data[0].id}`, { bearer: b.token });
    expect(cross.status).toBe(400);
    expect(cross.body.error.code).toBe("invalid_cursor");
    expect(cross.text).not.toContain(a.accountId);
    const byOtherKey = await h.call("GET", `/v1/request-logs?fingerprint=${sha256Hex(a.testKey)}`, { bearer: b.token });
    expect(byOtherKey.body.data).toEqual([]);
  });
});
