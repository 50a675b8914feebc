/**
 * Operator routes of a Pix provider connection (extensions.md "Live Pix over the BCB API Pix
 * (v2)") end to end against psp-sim over real mTLS: connect (token + webhook registered at the
 * PSP), read, replace, delete; refusals by the PSP (422 `provider_connection_failed` with its
 * reason, nothing stored) and bad input (400, nothing stored, the PSP never called).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { X509Certificate } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createCa, issue } from "../../src/psp-sim/certs";
import { createHarness, type Harness, type SeededAccount } from "../support/harness";
import { SimClient, startFixture, type SimFixture } from "../psp-sim/support";
import { connectionPath, OPERATOR_TOKEN, recordingFetch, VIEW_KEYS } from "./support";
import { testDb } from "../support/test-db";

let fx: SimFixture;
let sim: SimClient;
let h: Harness;
beforeAll(async () => {
  fx = await startFixture();
  sim = new SimClient(fx);
  expect((await sim.login()).status).toBe(200);
  h = createHarness({ operatorToken: OPERATOR_TOKEN });
  h.deps.providers.ctx.fetch = rec.fetch;
});
/** The operator body `psp-sim init` wrote, with the URLs of the running simulator (ephemeral port). */
const body = () => ({ ...fx.init.body, api_url: fx.sim.apiUrl, token_url: fx.sim.tokenUrl });
/** Every exchange Cofre had with the PSP. */
const rec = recordingFetch();
afterAll(() => fx.cleanup());

const put = (a: SeededAccount, body: unknown) =>
  h.call("PUT", connectionPath(a.accountId), { bearer: OPERATOR_TOKEN, body });
const get = (a: SeededAccount) => h.call("GET", connectionPath(a.accountId), { bearer: OPERATOR_TOKEN });
const del = (a: SeededAccount) => h.call("DELETE", connectionPath(a.accountId), { bearer: OPERATOR_TOKEN });
/** Every connection row, deleted or not (snake_case columns). */
const stored = () =>
  testDb(h.deps).all<{ account_id: string; deleted_at: number | null }>("select * from pix_provider_connections");
/** The webhook registered at psp-sim for the fixture's key, or null (404). */
async function simWebhook(client = sim) {
  const r = await client.api("GET", `/webhook/${client.pixKey}`);
  return r.status === 200 ? r.body : r.status === 404 ? null : Promise.reject(new Error(`GET /webhook: ${r.status}`));
}

describe("connect, read, replace, delete", () => {
  test("connecting obtains a token, registers the webhook at the PSP and answers the view", async () => {
    const a = await h.seedAccount();
    const b = body();
    const r = await put(a, b);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(VIEW_KEYS);
    const oracle = new X509Certificate(b.certificate);
    expect(r.body).toEqual({
      id: r.body.id,
      type: "bcb_pix_v2",
      api_url: fx.sim.apiUrl,
      token_url: fx.sim.tokenUrl,
      client_id: b.client_id,
      pix_key: b.pix_key,
      certificate_fingerprint_sha256: oracle.fingerprint256.replaceAll(":", "").toLowerCase(),
      certificate_expires_at: new Date(oracle.validTo).toISOString(),
      webhook_url: `http://localhost:3000/v1/provider-webhooks/pix/${r.body.id}`,
      webhook_registered: true,
      created_at: "2026-11-20T12:00:00.000Z",
      updated_at: "2026-11-20T12:00:00.000Z",
    });
    expect(r.body.id).toMatch(/^ppc_[0-9a-f]{32}$/);
    expect(await simWebhook()).toMatchObject({ webhookUrl: r.body.webhook_url, chave: b.pix_key });
    const list = await sim.api("GET", "/webhook");
    expect(list.body.webhooks.map((w: { webhookUrl: string }) => w.webhookUrl)).toContain(r.body.webhook_url);

    const read = await get(a);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(r.body);
    expect((await del(a)).status).toBe(204);
  });

  test("a second PUT replaces the connection: same id and created_at, the new credentials, the webhook moved", async () => {
    const a = await h.seedAccount();
    const first = await put(a, body());
    expect(first.status).toBe(200);
    h.clock.advance(60);
    const other = await sim.control("POST", "/_sim/clients", { name: "Outra Loja" });
    expect(other.status).toBe(201);
    const second = await put(a, other.body);
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({
      id: first.body.id,
      client_id: other.body.client_id,
      pix_key: other.body.pix_key,
      webhook_url: first.body.webhook_url,
      webhook_registered: true,
      created_at: first.body.created_at,
      updated_at: "2026-11-20T12:01:00.000Z",
    });
    expect((await get(a)).body).toEqual(second.body);
    const otherSim = new SimClient(fx, undefined, other.body);
    expect((await otherSim.login()).status).toBe(200);
    expect(await simWebhook(otherSim)).toMatchObject({ webhookUrl: first.body.webhook_url });
    expect((await stored()).filter((row) => row.account_id === a.accountId && row.deleted_at === null)).toHaveLength(1);
    expect((await del(a)).status).toBe(204);
    expect(await simWebhook(otherSim)).toBeNull();
  });

  test("deleting answers 204, removes the webhook at the PSP, and GET is 404 after; connecting again gives a new id", async () => {
    const a = await h.seedAccount();
    const first = await put(a, body());
    expect(await simWebhook()).not.toBeNull();
    const gone = await del(a);
    expect(gone.status).toBe(204);
    expect(gone.text).toBe("");
    expect(await simWebhook()).toBeNull();
    const after = await get(a);
    expect(after.status).toBe(404);
    expect(after.body.error.code).toBe("not_found");
    expect((await del(a)).status).toBe(404);
    const again = await put(a, body());
    expect(again.status).toBe(200);
    expect(again.body.id).not.toBe(first.body.id);
    expect((await del(a)).status).toBe(204);
  });

  test("a webhook the PSP refuses leaves the connection stored with webhook_registered false", async () => {
    const a = await h.seedAccount();
    // The key is not one of this client's keys: psp-sim answers 400 WebhookOperacaoInvalida.
    const r = await put(a, { ...body(), pix_key: "someone-else@example.com" });
    expect(r.status).toBe(200);
    expect(r.body.webhook_registered).toBe(false);
    expect((await get(a)).body.webhook_registered).toBe(false);
    expect((await del(a)).status).toBe(204);
  });
});

describe("the PSP refuses", () => {
  test("a wrong client secret is 422 provider_connection_failed with the PSP's status and reason, and nothing is stored", async () => {
    const a = await h.seedAccount();
    const before = (await stored()).length;
    const r = await put(a, { ...body(), client_secret: "wrong-secret-123" });
    expect(r.status).toBe(422);
    expect(r.body.error).toEqual({
      type: "invalid_request_error",
      code: "provider_connection_failed",
      message: "The PSP did not grant an access token: 401 invalid_client: unknown client or wrong secret",
      param: "token_url",
    });
    expect(r.text).not.toContain("wrong-secret-123");
    expect((await stored()).length).toBe(before);
    expect((await get(a)).status).toBe(404);
  });

  test("a certificate from another CA is refused at the TLS handshake: 422 naming the failure, nothing stored", async () => {
    const a = await h.seedAccount();
    const intruder = await issue(await createCa("another CA"), "intruder", "client");
    const before = (await stored()).length;
    const r = await put(a, { ...body(), certificate: intruder.cert, private_key: intruder.key });
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe("provider_connection_failed");
    expect(r.body.error.message).toStartWith(`The PSP did not grant an access token: POST ${fx.sim.tokenUrl}: `);
    expect((await stored()).length).toBe(before);
  });

  test("a PSP whose server certificate is not trusted (no ca_certificates) is 422, nothing stored", async () => {
    const a = await h.seedAccount();
    const { ca_certificates: _, ...noCa } = body();
    const r = await put(a, noCa);
    expect(r.status).toBe(422);
    expect(r.body.error.message).toContain("SELF_SIGNED_CERT_IN_CHAIN");
    expect((await get(a)).status).toBe(404);
  });

  test("a PSP that is down (503 on the token call) is 422 with its status", async () => {
    const a = await h.seedAccount();
    await sim.control("POST", "/_sim/faults/errors", { status: 503, count: 1, match: "POST /oauth/token" });
    const r = await put(a, body());
    expect(r.status).toBe(422);
    expect(r.body.error.message).toStartWith("The PSP did not grant an access token: 503 ");
    expect((await get(a)).status).toBe(404);
  });
});

describe("bad input changes nothing and never reaches the PSP", () => {
  const cases: [string, (b: ReturnType<typeof body>) => unknown, string, string][] = [
    ["a certificate that is not PEM", (b) => ({ ...b, certificate: "hello" }), "invalid_request", "certificate"],
    [
      "a PEM block that is not a certificate",
      (b) => ({ ...b, certificate: "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n" }),
      "invalid_request",
      "certificate",
    ],
    [
      "a private key that is not a key",
      (b) => ({ ...b, private_key: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n" }),
      "invalid_request",
      "private_key",
    ],
    [
      "a private key of another certificate",
      (b) => ({ ...b, private_key: readFileSync(join(fx.init.dir, "callback.key"), "utf8") }),
      "invalid_request",
      "private_key",
    ],
    [
      "ca_certificates without a certificate",
      (b) => ({ ...b, ca_certificates: "not a pem" }),
      "invalid_request",
      "ca_certificates",
    ],
    ["an http api_url", (b) => ({ ...b, api_url: b.api_url.replace("https:", "http:") }), "invalid_url", "api_url"],
    ["a token_url that is not a URL", (b) => ({ ...b, token_url: "token endpoint" }), "invalid_url", "token_url"],
  ];
  for (const [what, make, code, param] of cases)
    test(`${what} is 400 ${code} on ${param}`, async () => {
      const a = await h.seedAccount();
      const before = rec.log.length;
      const r = await put(a, make(body()));
      expect(r.status).toBe(400);
      expect(r.body.error).toMatchObject({ code, param });
      expect((await get(a)).status).toBe(404);
      expect(rec.log.length).toBe(before);
    });

  test("an unknown field, another type or a missing field is 400 from the schema", async () => {
    const a = await h.seedAccount();
    const { pix_key: _, ...noKey } = body();
    for (const bad of [{ ...body(), extra: 1 }, { ...body(), type: "efi" }, noKey]) {
      const r = await put(a, bad);
      expect(r.status).toBe(400);
      expect(r.body.error.type).toBe("invalid_request_error");
    }
    expect((await get(a)).status).toBe(404);
  });

  test("an unknown account is 404 and nothing is stored", async () => {
    const before = (await stored()).length;
    const r = await h.call("PUT", connectionPath("acct_nope"), { bearer: OPERATOR_TOKEN, body: body() });
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe("not_found");
    expect((await stored()).length).toBe(before);
  });

  test("every route needs the operator token (401), and does not exist without one configured (404)", async () => {
    const a = await h.seedAccount();
    for (const method of ["PUT", "GET", "DELETE"]) {
      const r = await h.call(method, connectionPath(a.accountId), {
        bearer: "wrong",
        ...(method === "PUT" ? { body: body() } : {}),
      });
      expect(r.status).toBe(401);
      expect(r.body.error.code).toBe("unauthorized");
    }
    const bare = createHarness();
    const b = await bare.seedAccount();
    expect((await bare.call("GET", connectionPath(b.accountId), { bearer: OPERATOR_TOKEN })).status).toBe(404);
  });
});
