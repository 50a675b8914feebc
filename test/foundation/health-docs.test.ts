/** /healthz, /readyz, /docs, /docs/json and GET /v1/ping (issue "Runtime foundation" part 4). */
import { describe, expect, test } from "bun:test";
import { SCALAR_ASSET_PATH } from "../../src/http/docs";
import { expectEnvelope, foundationHarness, keys } from "./fixtures";
import { testDb } from "../support/test-db";

describe("health", () => {
  test("healthz and readyz answer 200 on a migrated database", async () => {
    const h = foundationHarness();
    const live = await h.call("GET", "/healthz");
    expect([live.status, live.body]).toEqual([200, { status: "ok" }]);
    const ready = await h.call("GET", "/readyz");
    expect([ready.status, ready.body]).toEqual([200, { status: "ready" }]);
  });

  test("readyz is 503 service_unavailable when the database does not answer", async () => {
    const h = foundationHarness();
    await h.deps.store.close();
    const r = await h.call("GET", "/readyz");
    expectEnvelope(r, 503, "api_error", "service_unavailable");
    expect((await h.call("GET", "/healthz")).status).toBe(200);
  });

  test("readyz is 503 when migrations have not run", async () => {
    const h = foundationHarness();
    const db = testDb(h.deps);
    await db.exec(
      db.kind === "postgres" ? "delete from drizzle.__drizzle_migrations" : "delete from __drizzle_migrations",
    );
    expect((await h.call("GET", "/readyz")).status).toBe(503);
  });
});

describe("GET /v1/ping", () => {
  test("answers {object, mode} for a test and a live key", async () => {
    const h = foundationHarness();
    const a = await h.seedAccount();
    const t = await h.call("GET", "/v1/ping", { key: a.testKey });
    expect(t.status).toBe(200);
    expect(t.body).toEqual({ object: "ping", mode: "test" });
    const l = await h.call("GET", "/v1/ping", { key: a.liveKey });
    expect(l.body).toEqual({ object: "ping", mode: "live" });
  });

  test("a revoked key is 401", async () => {
    const h = foundationHarness();
    const a = await h.seedAccount();
    await testDb(h.deps).run("update api_keys set revoked_at = 1 where account_id = ?", a.accountId);
    expectEnvelope(await h.call("GET", "/v1/ping", { key: a.testKey }), 401, "authentication_error", "unauthorized");
  });
});

describe("reference", () => {
  test("/docs is an HTML page that loads only the vendored bundle, from this server", async () => {
    const h = foundationHarness();
    const r = await h.call("GET", "/docs");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toStartWith("text/html");
    expect(r.headers.get("x-request-id")).toBeTruthy();
    expect(r.text).toContain(`<script src="${SCALAR_ASSET_PATH}"`);
    expect(r.text).not.toMatch(/https?:\/\//);
    expect(r.text).not.toMatch(/src="\/\//);
    expect(r.text).toContain('"withDefaultFonts":false');
    expect(r.text).toContain('"url":"/docs/json"');
  });

  test("the vendored Scalar bundle is served as JavaScript", async () => {
    const h = foundationHarness();
    const res = await h.app.handle(new Request(`http://localhost${SCALAR_ASSET_PATH}`));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("application/javascript");
    const js = await res.text();
    expect(js.length).toBeGreaterThan(1_000_000);
    expect(js).toContain("api-reference");
  });

  test("/docs/json is OpenAPI 3 generated from the route schemas", async () => {
    const h = foundationHarness();
    const r = await h.call("GET", "/docs/json");
    expect(r.status).toBe(200);
    expect(r.body.openapi).toMatch(/^3\./);
    expect(r.body.info.title).toBe("Cofre API");
    const paths = r.body.paths;
    for (const p of ["/healthz", "/readyz", "/v1/ping"]) expect(paths[p]?.get).toBeDefined();
    expect(paths["/docs"]).toBeUndefined();
    expect(paths[SCALAR_ASSET_PATH]).toBeUndefined();
    const ping = paths["/v1/ping"].get;
    expect(ping.security).toEqual([{ apikey: [] }, { session: [] }]);
    const ref = ping.responses["200"].content["application/json"].schema.$ref;
    expect(ref).toBe("#/components/schemas/Ping");
    expect(keys(r.body.components.schemas.Ping.properties)).toEqual(["mode", "object"]);
    expect(r.body.components.securitySchemes.apikey).toMatchObject({ type: "apiKey", in: "header", name: "apikey" });
  });

  test("/docs/json of a default server documents every route of interface.md and extensions.md, switched-off ones included", async () => {
    const { createHarness } = await import("../support/harness");
    const h = createHarness({ operatorToken: null, testClock: false });
    const paths = (await h.call("GET", "/docs/json")).body.paths;
    const expected: [string, string][] = [
      ["post", "/v1/charges"],
      ["get", "/v1/charges"],
      ["post", "/v1/pix/charges"],
      ["get", "/v1/charges/{id}"],
      ["get", "/v1/wallets/balance"],
      ["get", "/v1/wallets"],
      ["post", "/v1/payments"],
      ["get", "/v1/payments"],
      ["get", "/v1/payments/{id}"],
      ["get", "/v1/payments/stats"],
      ["get", "/v1/payments/metrics"],
      ["post", "/v1/payments/{id}/refund"],
      ["get", "/v1/payments/{id}/refunds"],
      ["post", "/v1/payments/{id}/cancel"],
      ["post", "/v1/payments/{id}/resend-webhook"],
      ["get", "/v1/payments/{id}/receipt"],
      ["post", "/v1/webhooks/endpoints"],
      ["get", "/v1/webhooks/endpoints"],
      ["patch", "/v1/webhooks/endpoints/{id}"],
      ["delete", "/v1/webhooks/endpoints/{id}"],
      ["post", "/v1/webhooks/endpoints/{id}/rotate-secret"],
      ["get", "/v1/webhooks/event-catalog"],
      ["get", "/v1/webhooks/deliveries"],
      ["get", "/v1/webhooks/stats"],
      ["post", "/v1/webhooks/deliveries/{id}/retry"],
      ["post", "/v1/api-keys"],
      ["get", "/v1/api-keys"],
      ["post", "/v1/api-keys/{id}/rotate"],
      ["delete", "/v1/api-keys/{id}"],
      ["get", "/v1/med/cases"],
      ["get", "/v1/med/cases/{id}"],
      ["post", "/v1/med/cases/{id}/appeal"],
      ["post", "/v1/med/cases/{id}/accept"],
      ["get", "/v1/med/cases/{id}/evidence"],
      ["post", "/v1/med/cases/{id}/evidence"],
      ["post", "/v1/med/cases/{id}/evidence/{evidence_id}/complete"],
      ["get", "/v1/infractions"],
      ["get", "/v1/infractions/{id}"],
      ["post", "/v1/auth/login"],
      ["post", "/v1/auth/logout"],
      ["get", "/v1/account"],
      ["post", "/v1/account/members"],
      ["patch", "/v1/operator/accounts/{account_id}"],
      ["post", "/v1/operator/med/cases/{id}/resolve"],
      ["post", "/v1/test_helpers/charges/{id}/pay"],
      ["post", "/v1/test_helpers/charges/{id}/med"],
      ["post", "/v1/test_helpers/med/cases/{id}/resolve"],
      ["post", "/v1/test_helpers/med/cases/{id}/request_evidence"],
      ["post", "/v1/test_helpers/refunds/{id}/advance"],
      ["post", "/v1/test_helpers/provider_faults"],
      ["post", "/v1/test_helpers/clock/advance"],
      ["get", "/healthz"],
      ["get", "/readyz"],
    ];
    const missing = expected.filter(([m, p]) => !paths[p]?.[m]).map(([m, p]) => `${m.toUpperCase()} ${p}`);
    expect(missing).toEqual([]);
    expect(paths["/v1/operator/med/cases/{id}/resolve"].post.security).toEqual([{ operator: [] }]);
    // documenting them does not switch them on
    expect((await h.call("POST", "/v1/test_helpers/clock/advance", { body: { seconds: 1 } })).status).toBe(404);
    expect((await h.call("PATCH", "/v1/operator/accounts/acct_x", { body: {} })).status).toBe(404);
  });

  test("every operation in /docs/json names its authentication: apikey or bearer (each also the dashboard session), operator, or none for public routes", async () => {
    const { createHarness } = await import("../support/harness");
    const h = createHarness();
    const paths = (await h.call("GET", "/docs/json")).body.paths;
    const sec = (m: string, p: string) => paths[p][m].security;
    for (const [m, p] of [
      ["post", "/v1/webhooks/endpoints"],
      ["get", "/v1/webhooks/deliveries"],
      ["post", "/v1/webhooks/deliveries/{id}/retry"],
      ["get", "/v1/med/cases"],
      ["post", "/v1/med/cases/{id}/evidence"],
      ["post", "/v1/test_helpers/med/cases/{id}/resolve"],
      ["post", "/v1/test_helpers/clock/advance"],
      ["get", "/v1/wallets/balance"],
      ["post", "/v1/charges"],
    ] as const)
      expect([m, p, sec(m, p)]).toEqual([m, p, [{ apikey: [] }, { session: [] }]]);
    for (const [m, p] of [
      ["get", "/healthz"],
      ["get", "/readyz"],
      ["post", "/v1/auth/login"],
      ["get", "/v1/webhooks/event-catalog"],
      ["get", "/c/{raw_id}"],
      ["put", "/v1/uploads/med-evidence/{id}"],
    ] as const)
      expect([m, p, sec(m, p)]).toEqual([m, p, []]);
    expect(sec("get", "/v1/api-keys")).toEqual([{ bearer: [] }, { session: [] }]);
    expect(sec("patch", "/v1/operator/accounts/{account_id}")).toEqual([{ operator: [] }]);
    const unnamed = Object.entries<any>(paths).flatMap(([p, ops]) =>
      Object.entries<any>(ops)
        .filter(([, op]) => !Array.isArray(op.security))
        .map(([m]) => `${m} ${p}`),
    );
    expect(unnamed).toEqual([]);
  });

  test("/docs/json documents request bodies from their schemas (clock helper)", async () => {
    const { createHarness } = await import("../support/harness");
    const h = createHarness({ testClock: true });
    const r = await h.call("GET", "/docs/json");
    const op = r.body.paths["/v1/test_helpers/clock/advance"].post;
    const body = op.requestBody.content["application/json"].schema;
    expect(body.properties.seconds.type).toBe("integer");
    expect(body.required).toEqual(["seconds"]);
  });
});
