import { describe, expect, test } from "bun:test";
import { createHarness } from "./support/harness";

/** The skeleton end to end: health, and a strict body (unknown keys are refused, not stripped). */
describe("smoke", () => {
  test("healthz answers ok with a request id", async () => {
    const h = createHarness();
    const r = await h.call("GET", "/healthz");
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: "ok" });
    expect(r.headers.get("x-request-id")).toMatch(/^req_/);
  });
  test("clock advance needs a test key and the test clock", async () => {
    const h = createHarness({ testClock: true });
    const a = await h.seedAccount();
    const r = await h.call("POST", "/v1/test_helpers/clock/advance", { key: a.testKey, body: { seconds: 60 } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ now: "2026-11-20T12:01:00.000Z" });
    const live = await h.call("POST", "/v1/test_helpers/clock/advance", { key: a.liveKey, body: { seconds: 60 } });
    expect(live.status).toBe(403);
    expect(live.body.error.code).toBe("test_mode_only");
    const bad = await h.call("POST", "/v1/test_helpers/clock/advance", { key: a.testKey, body: { seconds: "60" } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe("seconds");
    const extra = await h.call("POST", "/v1/test_helpers/clock/advance", {
      key: a.testKey,
      body: { seconds: 60, sconds: 1 },
    });
    expect(extra.status).toBe(400);
    expect(extra.body.error).toMatchObject({ code: "invalid_request", param: "sconds" });
    const none = await h.call("POST", "/v1/test_helpers/clock/advance", { body: { seconds: 60 } });
    expect(none.status).toBe(401);
  });
});
