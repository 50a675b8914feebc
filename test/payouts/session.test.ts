/**
 * The dashboard's way in (the "Saques" page): the session cookie with its CSRF token reaches the
 * same payout routes. OWNER registers destinations and pays out; a DEVELOPER moves no money
 * (403 API_KEY_ROLE_REQUIRED on destinations, role_forbidden on payouts) but reads; the mode is
 * the session's `Cofre-Mode`.
 */
import { describe, expect, test } from "bun:test";
import { dashboardLogin, dashboardMember } from "../dashboard/support";
import { available, fund, idem, setup } from "./support";

const DEST = { type: "pix_key", pix_key_type: "evp", pix_key: "123e4567-e89b-42d3-a456-426614174000" };

describe("payouts from a dashboard session", () => {
  test("the owner registers a destination and pays out with the session cookie; without the CSRF token it is 403", async () => {
    const { h, a } = await setup();
    await fund(h, a, 2_000);
    const s = await dashboardLogin(h, a.email, a.password);
    expect((await s.call("POST", "/v1/payout_destinations", { body: DEST, csrf: false })).status).toBe(403);
    const d = await s.call("POST", "/v1/payout_destinations", { body: DEST });
    expect(d.status).toBe(201);
    expect((await s.call("GET", "/v1/payout_destinations")).body.data).toEqual([d.body]);
    const p = await s.call("POST", "/v1/payouts", {
      body: { amount: 500, destination_id: d.body.id },
      headers: { "idempotency-key": idem() },
    });
    expect([p.status, p.body.status, p.body.livemode]).toEqual([201, "pending", false]);
    expect((await s.call("GET", `/v1/payouts/${p.body.id}`)).body.id).toBe(p.body.id);
    expect((await s.call("GET", "/v1/payouts", { mode: "live" })).body.data).toEqual([]);
    expect((await s.call("POST", `/v1/payouts/${p.body.id}/cancel`, { body: {} })).body.status).toBe("cancelled");
    expect(await available(h, a.testKey)).toBe(2_000);
  });

  test("a DEVELOPER reads destinations and payouts but can neither register one nor pay out", async () => {
    const { h, a } = await setup();
    await fund(h, a, 2_000);
    const dev = await dashboardMember(h, a, "DEVELOPER");
    const reg = await dev.call("POST", "/v1/payout_destinations", { body: DEST });
    expect([reg.status, reg.body.error.code]).toEqual([403, "API_KEY_ROLE_REQUIRED"]);
    const owner = await dashboardLogin(h, a.email, a.password);
    const d = (await owner.call("POST", "/v1/payout_destinations", { body: DEST })).body;
    expect((await dev.call("GET", "/v1/payout_destinations")).body.data).toHaveLength(1);
    const p = await dev.call("POST", "/v1/payouts", {
      body: { amount: 500, destination_id: d.id },
      headers: { "idempotency-key": idem() },
    });
    expect([p.status, p.body.error.code]).toEqual([403, "role_forbidden"]);
    expect((await dev.call("GET", "/v1/payouts")).status).toBe(200);
    expect(await available(h, a.testKey)).toBe(2_000);
  });
});
