/**
 * Errors a developer understands (issue 13 section 7): messages that say what to do, in the
 * public vocabulary (charge statuses `pending/paid/disputed/...`, never the internal DISPUTE).
 */
import { describe, expect, test } from "bun:test";
import { createHarness } from "../support/harness";
import { KEY_IN_BEARER } from "../../src/http/plugins/api-key-auth";
import { expectEnvelope } from "./fixtures";

describe("an API key sent the wrong way", () => {
  test("an ak_ key as Authorization: Bearer gets 401 naming the apikey header", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    for (const key of [a.testKey, a.liveKey]) {
      const r = await h.call("GET", "/v1/charges", { bearer: key });
      const e = expectEnvelope(r, 401, "authentication_error", "unauthorized");
      expect(e.message).toBe("API keys go in the `apikey` header, not Authorization: Bearer.");
      expect(e.message).toBe(KEY_IN_BEARER);
    }
  });

  test("an ak_ key as a bare Authorization value (no Bearer) gets the same hint", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const r = await h.call("GET", "/v1/charges", { headers: { authorization: a.testKey } });
    expect(r.status).toBe(401);
    expect(r.body.error.message).toBe(KEY_IN_BEARER);
  });

  test("a missing key with no Authorization, or another bearer token, keeps the plain message", async () => {
    const h = createHarness();
    expect((await h.call("GET", "/v1/charges")).body.error.message).toBe("Missing or invalid API key.");
    expect((await h.call("GET", "/v1/charges", { bearer: "eyJ.x.y" })).body.error.message).toBe(
      "Missing or invalid API key.",
    );
  });

  test("an ak_ key as a bearer token on a dashboard route says that route takes a dashboard token", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const r = await h.call("GET", "/v1/api-keys", { bearer: a.testKey });
    const e = expectEnvelope(r, 401, "authentication_error", "unauthorized");
    expect(e.message).toContain("dashboard token");
    expect(e.message).toContain("`apikey` header");
  });
});

describe("messages name public statuses", () => {
  test("a second MED on a disputed charge says the charge is disputed, not DISPUTE", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const created = await h.call("POST", "/v1/pix/charges", {
      key: a.testKey,
      headers: { "idempotency-key": "public-status-0001" },
      body: { amount: 1000 },
    });
    expect(created.status).toBe(201);
    expect(
      (await h.call("POST", `/v1/test_helpers/charges/${created.body.id}/pay`, { key: a.testKey, body: {} })).status,
    ).toBe(200);
    expect(
      (await h.call("POST", `/v1/test_helpers/charges/${created.body.id}/med`, { key: a.testKey, body: {} })).status,
    ).toBe(201);
    expect((await h.call("GET", `/v1/charges/${created.body.id}`, { key: a.testKey })).body.status).toBe("disputed");
    const again = await h.call("POST", `/v1/test_helpers/charges/${created.body.id}/med`, { key: a.testKey, body: {} });
    const e = expectEnvelope(again, 400, "invalid_request_error", "invalid_state");
    expect(e.message).toBe("A MED can only open on a paid charge; this charge is disputed.");
    expect(again.text).not.toContain("DISPUTE");
  });

  test("paying a charge that is not pending names its public status", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const created = await h.call("POST", "/v1/pix/charges", {
      key: a.testKey,
      headers: { "idempotency-key": "public-status-0002" },
      body: { amount: 1000 },
    });
    expect(
      (await h.call("POST", `/v1/test_helpers/charges/${created.body.id}/pay`, { key: a.testKey, body: {} })).status,
    ).toBe(200);
    const r = await h.call("POST", `/v1/test_helpers/charges/${created.body.id}/pay`, { key: a.testKey, body: {} });
    expect(r.body.error.message).toBe("The charge is paid; only a pending charge can be paid.");
  });
});
