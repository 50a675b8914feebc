import { describe, expect, test } from "bun:test";
import { createHarness } from "../support/harness";
import { EVENT_CATALOG } from "../../src/domain/events/catalog";

const VIEW_KEYS = ["createdAt", "events", "id", "status", "updatedAt", "url"];

describe("webhook endpoints: happy paths", () => {
  test("registering returns 201 with a 64-hex secret shown once", async () => {
    const h = createHarness({ webhookAllowPrivate: true });
    const a = await h.seedAccount();
    const r = await h.call("POST", "/v1/webhooks/endpoints", {
      key: a.testKey,
      body: { url: "http://localhost:9999/hook", events: ["charge.paid", "payment.completed"] },
    });
    expect(r.status).toBe(201);
    expect(Object.keys(r.body).sort()).toEqual([...VIEW_KEYS, "secret"].sort());
    expect(r.body.id).toMatch(/^wh_[0-9a-f]{32}$/);
    expect(r.body.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(r.body.status).toBe("ACTIVE");
    expect(r.body.events).toEqual(["charge.paid", "payment.completed"]);
    expect(r.body.createdAt).toBe("2026-11-20T12:00:00.000Z");
    const list = await h.call("GET", "/v1/webhooks/endpoints", { key: a.testKey });
    expect(list.status).toBe(200);
    expect(Object.keys(list.body)).toEqual(["data"]);
    expect(list.body.data).toHaveLength(1);
    expect(Object.keys(list.body.data[0]).sort()).toEqual(VIEW_KEYS);
    expect(list.text).not.toContain(r.body.secret);
  });

  test("PATCH changes only the fields sent and never returns the secret", async () => {
    const h = createHarness({ webhookAllowPrivate: true });
    const a = await h.seedAccount();
    const c = await h.call("POST", "/v1/webhooks/endpoints", {
      key: a.testKey,
      body: { url: "http://localhost:1/a", events: ["charge.paid"] },
    });
    h.clock.advance(60);
    const p = await h.call("PATCH", `/v1/webhooks/endpoints/${c.body.id}`, {
      key: a.testKey,
      body: { status: "INACTIVE" },
    });
    expect(p.status).toBe(200);
    expect(Object.keys(p.body).sort()).toEqual(VIEW_KEYS);
    expect(p.body).toMatchObject({
      id: c.body.id,
      url: "http://localhost:1/a",
      events: ["charge.paid"],
      status: "INACTIVE",
      updatedAt: "2026-11-20T12:01:00.000Z",
    });
    const p2 = await h.call("PATCH", `/v1/webhooks/endpoints/${c.body.id}`, {
      key: a.testKey,
      body: { url: "https://example.com/x", events: ["charge.created", "charge.created"] },
    });
    expect(p2.body).toMatchObject({ url: "https://example.com/x", events: ["charge.created"], status: "INACTIVE" });
  });

  test("rotate-secret returns a new secret and DELETE answers deleted true", async () => {
    const h = createHarness({ webhookAllowPrivate: true });
    const a = await h.seedAccount();
    const c = await h.call("POST", "/v1/webhooks/endpoints", {
      key: a.testKey,
      body: { url: "http://localhost:1/a", events: ["charge.paid"] },
    });
    const r = await h.call("POST", `/v1/webhooks/endpoints/${c.body.id}/rotate-secret`, {
      key: a.testKey,
      body: { id: c.body.id },
    });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(["id", "secret"]);
    expect(r.body.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(r.body.secret).not.toBe(c.body.secret);
    const d = await h.call("DELETE", `/v1/webhooks/endpoints/${c.body.id}`, { key: a.testKey });
    expect(d.status).toBe(200);
    expect(d.body).toEqual({ deleted: true });
    expect((await h.call("GET", "/v1/webhooks/endpoints", { key: a.testKey })).body.data).toEqual([]);
  });

  test("the event catalog needs no key and lists every family", async () => {
    const h = createHarness({ webhookAllowPrivate: true });
    const r = await h.call("GET", "/v1/webhooks/event-catalog");
    expect(r.status).toBe(200);
    const names = r.body.map((e: { event: string }) => e.event);
    for (const n of [
      "charge.created",
      "charge.paid",
      "charge.failed",
      "charge.expired",
      "charge.refunded",
      "payout.created",
      "payout.paid",
      "payout.failed",
      "med_case.created",
      "med_case.updated",
      "med.resolved",
    ])
      expect(names).toContain(n);
    const legacy = r.body.filter((e: { legacy?: boolean }) => e.legacy === true).map((e: { event: string }) => e.event);
    expect(legacy.sort()).toEqual([
      "payment.completed",
      "payment.created",
      "payment.expired",
      "payment.failed",
      "payment.refunded",
      "payment.status_changed",
      "withdrawal.completed",
      "withdrawal.created",
      "withdrawal.failed",
      "withdrawal.status_changed",
    ]);
    const paid = r.body.find((e: { event: string }) => e.event === "charge.paid");
    expect(Object.keys(paid).sort()).toEqual(["description", "event"]);
    expect(r.body).toHaveLength(EVENT_CATALOG.length);
  });

  test("live mode accepts a public https URL", async () => {
    const h = createHarness({ webhookAllowPrivate: true });
    const a = await h.seedAccount();
    const r = await h.call("POST", "/v1/webhooks/endpoints", {
      key: a.liveKey,
      body: { url: "https://hooks.example.com/cofre", events: ["charge.paid"] },
    });
    expect(r.status).toBe(201);
  });

  test("COFRE_WEBHOOK_ALLOW_PRIVATE lets live endpoints use http and loopback", async () => {
    const h = createHarness({ webhookAllowPrivate: true });
    const a = await h.seedAccount();
    const r = await h.call("POST", "/v1/webhooks/endpoints", {
      key: a.liveKey,
      body: { url: "http://127.0.0.1:8080/hook", events: ["charge.paid"] },
    });
    expect(r.status).toBe(201);
  });
});

describe("webhook endpoints: errors", () => {
  test("unknown event names are rejected with 400", async () => {
    const h = createHarness({ webhookAllowPrivate: true });
    const a = await h.seedAccount();
    const r = await h.call("POST", "/v1/webhooks/endpoints", {
      key: a.testKey,
      body: { url: "http://localhost/x", events: ["charge.paid", "charge.disputed"] },
    });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe("invalid_event_type");
    expect(r.body.error.param).toBe("events.1");
    const empty = await h.call("POST", "/v1/webhooks/endpoints", {
      key: a.testKey,
      body: { url: "http://localhost/x", events: [] },
    });
    expect(empty.status).toBe(400);
    const c = await h.call("POST", "/v1/webhooks/endpoints", {
      key: a.testKey,
      body: { url: "http://localhost/x", events: ["charge.paid"] },
    });
    const p = await h.call("PATCH", `/v1/webhooks/endpoints/${c.body.id}`, {
      key: a.testKey,
      body: { events: ["nope"] },
    });
    expect(p.status).toBe(400);
    expect(p.body.error.code).toBe("invalid_event_type");
  });

  test("malformed URLs, missing fields, unknown fields and bad status are 400", async () => {
    const h = createHarness({ webhookAllowPrivate: true });
    const a = await h.seedAccount();
    for (const url of ["not a url", "ftp://example.com/x", "https://user:pw@example.com/x", ""]) {
      const r = await h.call("POST", "/v1/webhooks/endpoints", {
        key: a.testKey,
        body: { url, events: ["charge.paid"] },
      });
      expect(r.status).toBe(400);
    }
    expect(
      (await h.call("POST", "/v1/webhooks/endpoints", { key: a.testKey, body: { events: ["charge.paid"] } })).status,
    ).toBe(400);
    const extra = await h.call("POST", "/v1/webhooks/endpoints", {
      key: a.testKey,
      body: { url: "http://localhost/x", events: ["charge.paid"], secret: "x" },
    });
    expect(extra.status).toBe(400);
    expect(extra.body.error.param).toBe("secret");
    expect((await h.call("GET", "/v1/webhooks/endpoints", { key: a.testKey })).body.data).toEqual([]);
    const c = await h.call("POST", "/v1/webhooks/endpoints", {
      key: a.testKey,
      body: { url: "http://localhost/x", events: ["charge.paid"] },
    });
    const bad = await h.call("PATCH", `/v1/webhooks/endpoints/${c.body.id}`, {
      key: a.testKey,
      body: { status: "PAUSED" },
    });
    expect(bad.status).toBe(400);
  });

  test("rotate-secret with a body id that differs from the path is 400 and changes nothing", async () => {
    const h = createHarness({ webhookAllowPrivate: true });
    const a = await h.seedAccount();
    const c = await h.call("POST", "/v1/webhooks/endpoints", {
      key: a.testKey,
      body: { url: "http://localhost/x", events: ["charge.paid"] },
    });
    const r = await h.call("POST", `/v1/webhooks/endpoints/${c.body.id}/rotate-secret`, {
      key: a.testKey,
      body: { id: "wh_other" },
    });
    expect(r.status).toBe(400);
    expect(r.body.error.param).toBe("id");
    const none = await h.call("POST", `/v1/webhooks/endpoints/${c.body.id}/rotate-secret`, { key: a.testKey });
    expect(none.status).toBe(400);
  });

  test("unknown endpoint ids are 404", async () => {
    const h = createHarness({ webhookAllowPrivate: true });
    const a = await h.seedAccount();
    expect(
      (await h.call("PATCH", "/v1/webhooks/endpoints/wh_nope", { key: a.testKey, body: { status: "ACTIVE" } })).status,
    ).toBe(404);
    expect((await h.call("DELETE", "/v1/webhooks/endpoints/wh_nope", { key: a.testKey })).status).toBe(404);
    const r = await h.call("POST", "/v1/webhooks/endpoints/wh_nope/rotate-secret", {
      key: a.testKey,
      body: { id: "wh_nope" },
    });
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe("not_found");
  });
});

describe("webhook endpoints: security", () => {
  test("every route but the catalog needs an API key", async () => {
    const h = createHarness({ webhookAllowPrivate: true });
    expect((await h.call("GET", "/v1/webhooks/endpoints")).status).toBe(401);
    expect(
      (await h.call("POST", "/v1/webhooks/endpoints", { body: { url: "http://localhost/x", events: ["charge.paid"] } }))
        .status,
    ).toBe(401);
    expect((await h.call("GET", "/v1/webhooks/deliveries")).status).toBe(401);
    expect((await h.call("GET", "/v1/webhooks/stats")).status).toBe(401);
    expect((await h.call("POST", "/v1/webhooks/deliveries/wd_x/retry")).status).toBe(401);
  });

  test("another account's or the other mode's endpoint is invisible and answers 404", async () => {
    const h = createHarness({ webhookAllowPrivate: true });
    const a = await h.seedAccount();
    const b = await h.seedAccount();
    const c = await h.call("POST", "/v1/webhooks/endpoints", {
      key: a.testKey,
      body: { url: "http://localhost/x", events: ["charge.paid"] },
    });
    for (const key of [b.testKey, a.liveKey]) {
      expect((await h.call("GET", "/v1/webhooks/endpoints", { key })).body.data).toEqual([]);
      expect(
        (await h.call("PATCH", `/v1/webhooks/endpoints/${c.body.id}`, { key, body: { status: "INACTIVE" } })).status,
      ).toBe(404);
      expect(
        (await h.call("POST", `/v1/webhooks/endpoints/${c.body.id}/rotate-secret`, { key, body: { id: c.body.id } }))
          .status,
      ).toBe(404);
      expect((await h.call("DELETE", `/v1/webhooks/endpoints/${c.body.id}`, { key })).status).toBe(404);
    }
    const still = await h.call("GET", "/v1/webhooks/endpoints", { key: a.testKey });
    expect(still.body.data[0].status).toBe("ACTIVE");
  });

  test("live mode refuses http, loopback, private, link-local, metadata and local names", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    for (const url of [
      "http://hooks.example.com/x",
      "https://127.0.0.1/x",
      "https://10.1.2.3/x",
      "https://192.168.0.10/x",
      "https://169.254.169.254/latest/meta-data",
      "https://100.64.0.1/x",
      "https://[::1]/x",
      "https://[::ffff:127.0.0.1]/x",
      "https://[fd00::1]/x",
      "https://localhost/x",
      "https://api.localhost/x",
      "https://2130706433/x",
    ]) {
      const r = await h.call("POST", "/v1/webhooks/endpoints", {
        key: a.liveKey,
        body: { url, events: ["charge.paid"] },
      });
      const code = url.startsWith("http:") ? "invalid_url" : "webhook_url_not_allowed";
      expect({ url, status: r.status, code: r.body.error?.code }).toEqual({ url, status: 400, code });
    }
    const c = await h.call("POST", "/v1/webhooks/endpoints", {
      key: a.liveKey,
      body: { url: "https://hooks.example.com/x", events: ["charge.paid"] },
    });
    const p = await h.call("PATCH", `/v1/webhooks/endpoints/${c.body.id}`, {
      key: a.liveKey,
      body: { url: "https://10.0.0.1/x" },
    });
    expect(p.status).toBe(400);
    expect(p.body.error.code).toBe("webhook_url_not_allowed");
  });

  test("rejects a URL with characters a URI may not contain (RFC 3986) and stores nothing", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    for (const url of [
      "https://hooks.example.com/<b>x</b>",
      'https://hooks.example.com/a"b',
      "https://hooks.example.com/a b",
      "https://hooks.example.com/\u202eexe.gpj",
      "https://hooks.example.com/{x}",
    ]) {
      const r = await h.call("POST", "/v1/webhooks/endpoints", {
        key: a.testKey,
        body: { url, events: ["charge.paid"] },
      });
      expect({ url, status: r.status, code: r.body.error?.code, param: r.body.error?.param }).toEqual({
        url,
        status: 400,
        code: "invalid_url",
        param: "url",
      });
    }
    const ok = await h.call("POST", "/v1/webhooks/endpoints", {
      key: a.testKey,
      body: { url: "https://hooks.example.com/a%3Cb%3E?x=1&y=2", events: ["charge.paid"] },
    });
    expect(ok.status).toBe(201);
    expect(
      (await h.call("GET", "/v1/webhooks/endpoints", { key: a.testKey })).body.data.map((e: { url: string }) => e.url),
    ).toEqual(["https://hooks.example.com/a%3Cb%3E?x=1&y=2"]);
  });
});
