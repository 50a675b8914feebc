import { describe, expect, test } from "bun:test";
import { CHARGE_FIELDS, createCharge, eventBodies, eventTypes, harness, idemKey, raw } from "./support";

describe("sandbox provider faults", () => {
  test("reject: the charge is created failed with metadata.failure and charge.failed", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const set = await h.call("POST", "/v1/test_helpers/provider_faults", {
      key: a.testKey,
      body: { mode: "reject", count: 1 },
    });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ mode: "reject", remaining: 1 });
    const r = await createCharge(h, a.testKey, { metadata: { order: "1" } });
    expect(r.status).toBe(201);
    expect(Object.keys(r.body).sort()).toEqual(CHARGE_FIELDS);
    expect(r.body.status).toBe("failed");
    expect(r.body.pix).toBeNull();
    expect(r.body.metadata).toEqual({
      order: "1",
      failure: { reason: "provider_rejected", providerErrorCode: "sandbox_rejected", at: "2026-11-20T12:00:00.000Z" },
    });
    expect(await eventTypes(h, raw(r.body.id))).toEqual([
      "charge.created",
      "payment.created",
      "charge.failed",
      "payment.failed",
    ]);
    expect((await eventBodies(h, raw(r.body.id), "charge.created"))[0].data.object).toEqual(r.body);
    expect((await eventBodies(h, raw(r.body.id), "charge.failed"))[0].data.object).toEqual(r.body);
    // a rejected charge never expires: it does not schedule the expiry sweep
    expect(await h.deps.jobs.pending("charge.expire_due")).toBe(0);
    const next = await createCharge(h, a.testKey);
    expect(next.body.status).toBe("pending");
    expect(await h.deps.jobs.pending("charge.expire_due")).toBe(1);
  });

  test("unavailable: 503 service_unavailable, nothing stored, the same key succeeds once the faults are used up", async () => {
    const h = harness();
    const a = await h.seedAccount();
    await h.call("POST", "/v1/test_helpers/provider_faults", {
      key: a.testKey,
      body: { mode: "unavailable", count: 2 },
    });
    const key = idemKey();
    for (let i = 0; i < 2; i++) {
      const r = await createCharge(h, a.testKey, { amount: 4321 }, key);
      expect(r.status).toBe(503);
      expect(r.body.error.type).toBe("api_error");
      expect(r.body.error.code).toBe("service_unavailable");
    }
    expect((await h.call("GET", "/v1/charges", { key: a.testKey })).body.data).toEqual([]);
    const ok = await createCharge(h, a.testKey, { amount: 4321 }, key);
    expect(ok.status).toBe(201);
    expect(ok.body.status).toBe("pending");
    const replay = await createCharge(h, a.testKey, { amount: 4321 }, key);
    expect(replay.body.id).toBe(ok.body.id);
  });

  test("the helper is sandbox only and validates its body", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const live = await h.call("POST", "/v1/test_helpers/provider_faults", {
      key: a.liveKey,
      body: { mode: "reject", count: 1 },
    });
    expect(live.status).toBe(403);
    expect(live.body.error.code).toBe("test_mode_only");
    for (const body of [
      { mode: "explode", count: 1 },
      { mode: "reject", count: 0 },
      { mode: "reject", count: 101 },
      { mode: "reject", count: "1" },
    ]) {
      const r = await h.call("POST", "/v1/test_helpers/provider_faults", { key: a.testKey, body });
      expect(r.status).toBe(400);
    }
  });

  test("faults of one account do not touch another account", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const b = await h.seedAccount();
    await h.call("POST", "/v1/test_helpers/provider_faults", {
      key: a.testKey,
      body: { mode: "unavailable", count: 5 },
    });
    expect((await createCharge(h, b.testKey)).status).toBe(201);
  });
});
