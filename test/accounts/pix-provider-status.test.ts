/**
 * GET /v1/account/pix-provider: the account's read-only view of its live Pix connection (dashboard Settings, issue 15).
 */
import { describe, expect, test } from "bun:test";
import { createHarness, type Harness } from "../support/harness";
import { addMember, seedWithToken } from "../auth/support";
import { dashboardMember } from "../dashboard/support";

const SECRETS = {
  clientSecretSealed: "SEALED-CLIENT-SECRET",
  privateKeySealed: "SEALED-PRIVATE-KEY",
  clientId: "client-id-1234",
  certificate: "-----BEGIN CERTIFICATE-----PEM",
};

/** Stores an active connection of `accountId` as the operator route would (sealed fields stand-ins). */
async function storeConnection(h: Harness, accountId: string, over: { webhookRegistered?: boolean } = {}) {
  const now = h.clock.nowMs();
  await h.deps.store.tx((uow) =>
    uow.pixProvider.saveActive({
      id: `ppc_${accountId}`,
      accountId,
      type: "bcb_pix_v2",
      apiUrl: "https://pix.psp.example/api/v2",
      tokenUrl: "https://pix.psp.example/oauth/token",
      pixKey: "chave@loja.example",
      certificateFingerprint: "a".repeat(64),
      certificateExpiresAt: Date.UTC(2027, 5, 30),
      webhookUrl: `https://cofre.example/v1/provider-webhooks/pix/ppc_${accountId}`,
      webhookRegistered: over.webhookRegistered ?? true,
      createdAt: now,
      updatedAt: now,
      ...SECRETS,
    }),
  );
}

describe("account Pix provider status", () => {
  test("answers exactly {type, api_url, pix_key, certificate_expires_at, webhook_registered, updated_at} and no secret, client id or certificate", async () => {
    const h = createHarness();
    const a = await seedWithToken(h);
    await storeConnection(h, a.accountId, { webhookRegistered: false });
    const r = await h.call("GET", "/v1/account/pix-provider", { bearer: a.token });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      type: "bcb_pix_v2",
      api_url: "https://pix.psp.example/api/v2",
      pix_key: "chave@loja.example",
      certificate_expires_at: "2027-06-30T00:00:00.000Z",
      webhook_registered: false,
      updated_at: "2026-11-20T12:00:00.000Z",
    });
    const text = JSON.stringify(r.body);
    for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
    expect(text).not.toContain("ppc_");
  });

  test("is 404 not_found when the account has no connection, and another account's connection is never shown", async () => {
    const h = createHarness();
    const a = await seedWithToken(h);
    const b = await seedWithToken(h);
    await storeConnection(h, b.accountId);
    const r = await h.call("GET", "/v1/account/pix-provider", { bearer: a.token });
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe("not_found");
  });

  test("every role reads it, through a bearer token or a dashboard session; an API key is 401", async () => {
    const h = createHarness();
    const a = await seedWithToken(h);
    await storeConnection(h, a.accountId);
    for (const role of ["VIEWER", "DEVELOPER", "ADMIN", "OWNER"]) {
      const m = await addMember(h, a.token, role);
      const r = await h.call("GET", "/v1/account/pix-provider", { bearer: m.token });
      expect([role, r.status, r.body.pix_key]).toEqual([role, 200, "chave@loja.example"]);
    }
    const viewer = await dashboardMember(h, a, "VIEWER");
    const bySession = await viewer.call("GET", "/v1/account/pix-provider", { mode: "live" });
    expect(bySession.status).toBe(200);
    expect(bySession.body.pix_key).toBe("chave@loja.example");
    expect((await h.call("GET", "/v1/account/pix-provider", { key: a.liveKey })).status).toBe(401);
  });
});
