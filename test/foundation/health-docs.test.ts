/** /healthz, /readyz, /docs, /docs/json and GET /v1/ping (issue "Runtime foundation" part 4). */
import { describe, expect, test } from "bun:test";
import { SCALAR_ASSET_PATH } from "../../src/http/docs";
import { expectEnvelope, foundationHarness, keys } from "./fixtures";

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
    h.deps.db.$client.close();
    const r = await h.call("GET", "/readyz");
    expectEnvelope(r, 503, "api_error", "service_unavailable");
    expect((await h.call("GET", "/healthz")).status).toBe(200);
  });

  test("readyz is 503 when migrations have not run", async () => {
    const h = foundationHarness();
    h.deps.db.$client.exec("delete from __drizzle_migrations");
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
    h.deps.db.$client.exec(`update api_keys set revoked_at = 1 where account_id = '${a.accountId}'`);
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
    expect(ping.security).toEqual([{ apikey: [] }]);
    const schema = ping.responses["200"].content["application/json"].schema;
    expect(keys(schema.properties)).toEqual(["mode", "object"]);
    expect(r.body.components.securitySchemes.apikey).toMatchObject({ type: "apiKey", in: "header", name: "apikey" });
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
