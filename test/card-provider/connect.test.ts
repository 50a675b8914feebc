/**
 * The card provider connection (extensions.md "Live cards and boletos through Stripe"; issue 26
 * §1) against `cofre stripe-sim`: a good key connects and creates Cofre's webhook endpoint at
 * Stripe, a bad key is 422 `provider_connection_failed` with Stripe's reason and stores nothing,
 * secrets are never returned and are sealed at rest, GET/DELETE, and the account's status read.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { testDb } from "../support/test-db";
import { connect, OPERATOR_TOKEN, startCardEnv, type CardEnv } from "./support";

let env: CardEnv;
beforeAll(async () => {
  env = await startCardEnv({ connect: false });
});
afterAll(async () => {
  await env.stop();
});

const VIEW_FIELDS = [
  "api_base",
  "created_at",
  "id",
  "key_last4",
  "provider_account_id",
  "type",
  "updated_at",
  "webhook_endpoint_id",
  "webhook_url",
];
const path = () => `/v1/operator/accounts/${env.account.accountId}/card-provider`;

describe("connecting", () => {
  test("a bad key is 422 provider_connection_failed naming Stripe's reason, and nothing is stored", async () => {
    const r = await connect(env, "sk_test_not_a_key_1234");
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe("provider_connection_failed");
    expect(r.body.error.message).toContain("Invalid API Key provided");
    expect(r.text).not.toContain("sk_test_not_a_key_1234");
    expect((await env.h.call("GET", path(), { bearer: OPERATOR_TOKEN })).status).toBe(404);
  });

  test("an unreachable api_base is 422 provider_connection_failed", async () => {
    const r = await connect(env, env.sim.secretKey, "http://127.0.0.1:9");
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe("provider_connection_failed");
  });

  test("an api_base with a path is 400 invalid_url", async () => {
    const r = await connect(env, env.sim.secretKey, `${env.sim.origin}/v1`);
    expect(r.status).toBe(400);
    expect(r.body.error.param).toBe("api_base");
  });

  test("a good key connects: the view has no secret, and the webhook endpoint exists at Stripe for Cofre's URL", async () => {
    const r = await connect(env, env.sim.secretKey);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(VIEW_FIELDS);
    expect(r.body.id).toMatch(/^cpc_[0-9a-f]{32}$/);
    expect(r.body.type).toBe("stripe");
    expect(r.body.api_base).toBe(env.sim.origin);
    expect(r.body.key_last4).toBe(env.sim.secretKey.slice(-4));
    expect(r.body.provider_account_id).toBe(env.sim.accountId);
    expect(r.body.webhook_url).toBe(`${env.base}/v1/provider-webhooks/stripe/${r.body.id}`);
    expect(r.text).not.toContain(env.sim.secretKey);
    expect(r.text).not.toContain("whsec_");
    const endpoints = await fetch(`${env.sim.origin}/v1/webhook_endpoints`, {
      headers: { authorization: `Bearer ${env.sim.secretKey}` },
    }).then((x) => x.json() as any);
    expect(endpoints.data.map((e: any) => [e.id, e.url])).toEqual([[r.body.webhook_endpoint_id, r.body.webhook_url]]);
    const get = await env.h.call("GET", path(), { bearer: OPERATOR_TOKEN });
    expect(get.status).toBe(200);
    expect(get.body).toEqual(r.body);
  });

  test("the secret key and the signing secret are sealed at rest", async () => {
    const rows = await testDb(env.h.deps).all<{ secret_key_sealed: string; webhook_secret_sealed: string }>(
      "select secret_key_sealed, webhook_secret_sealed from card_provider_connections where account_id = ? and deleted_at is null",
      env.account.accountId,
    );
    expect(rows.length).toBe(1);
    expect(rows[0]!.secret_key_sealed).not.toContain(env.sim.secretKey);
    expect(rows[0]!.webhook_secret_sealed).not.toContain("whsec_");
  });

  test("a member reads the connection's status without any secret or URL", async () => {
    const login = await env.h.call("POST", "/v1/auth/login", {
      body: { email: env.account.email, password: env.account.password },
    });
    const r = await env.h.call("GET", "/v1/account/card-provider", { bearer: login.body.access_token });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      type: "stripe",
      key_last4: env.sim.secretKey.slice(-4),
      provider_account_id: env.sim.accountId,
      updated_at: r.body.updated_at,
    });
  });

  test("a second PUT replaces the connection (new id) and deletes the old endpoint at Stripe", async () => {
    const before = (await env.h.call("GET", path(), { bearer: OPERATOR_TOKEN })).body;
    const r = await connect(env, env.sim.secretKey);
    expect(r.status).toBe(200);
    expect(r.body.id).not.toBe(before.id);
    const endpoints = await fetch(`${env.sim.origin}/v1/webhook_endpoints`, {
      headers: { authorization: `Bearer ${env.sim.secretKey}` },
    }).then((x) => x.json() as any);
    expect(endpoints.data.map((e: any) => e.id)).toEqual([r.body.webhook_endpoint_id]);
  });
});

describe("disconnecting", () => {
  test("DELETE answers 204, then GET 404 and a live card payment 422 again", async () => {
    expect((await env.h.call("DELETE", path(), { bearer: OPERATOR_TOKEN })).status).toBe(204);
    expect((await env.h.call("GET", path(), { bearer: OPERATOR_TOKEN })).status).toBe(404);
    expect((await env.h.call("DELETE", path(), { bearer: OPERATOR_TOKEN })).status).toBe(404);
    const p = await env.h.call("POST", "/v1/payments", {
      key: env.account.liveKey,
      body: { amount: 1000, paymentMethods: ["CREDIT_CARD"], idempotencyKey: `k-${crypto.randomUUID()}` },
    });
    expect(p.status).toBe(422);
  });

  test("without the operator token the routes are 401", async () => {
    expect((await env.h.call("GET", path())).status).toBe(401);
  });
});
