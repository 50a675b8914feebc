/**
 * The events API (extensions.md "Events API and `cofre listen`"): every canonical event is kept
 * 30 days whether or not an endpoint subscribes; GET /v1/events lists them newest first with type
 * (name or family), time bounds and a cursor; GET /v1/events/{id} is the event exactly as
 * delivered; keys see only their account and mode; the hourly prune drops what is past 30 days.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { createHarness, type Harness, type SeededAccount } from "../support/harness";
import { testDb } from "../support/test-db";
import { loginToken } from "../auth/support";
import { fund } from "../payouts/support";
import { deterministic, register, startReceiver, type Receiver } from "../webhooks/support";

const EVENT_FIELDS = ["api_version", "created_at", "data", "id", "object", "type"];
const receivers: Receiver[] = [];
afterEach(() => {
  while (receivers.length) receivers.pop()!.stop();
});

let n = 0;
async function charge(h: Harness, key: string): Promise<string> {
  const r = await h.call("POST", "/v1/pix/charges", {
    key,
    headers: { "idempotency-key": `events-${++n}` },
    body: { amount: 1500 },
  });
  expect(r.status).toBe(201);
  return r.body.id;
}

async function pay(h: Harness, key: string, id: string): Promise<void> {
  expect((await h.call("POST", `/v1/test_helpers/charges/${id}/pay`, { key, body: {} })).status).toBe(200);
}

/** A payout of 100 centavos from a funded sandbox balance (payout.created). */
async function payout(h: Harness, a: SeededAccount): Promise<string> {
  await fund(h, a, 10_000);
  const token = await loginToken(h, a.email, a.password);
  const d = await h.call("POST", "/v1/payout_destinations", {
    bearer: token,
    body: { type: "pix_key", pix_key_type: "email", pix_key: "fulano@example.com" },
  });
  expect(d.status).toBe(201);
  const r = await h.call("POST", "/v1/payouts", {
    key: a.testKey,
    headers: { "idempotency-key": `events-po-${++n}` },
    body: { amount: 100, destination_id: d.body.id },
  });
  expect(r.status).toBe(201);
  return r.body.id;
}

const list = (h: Harness, key: string, query = "") => h.call("GET", `/v1/events${query}`, { key });
const types = (body: { data: { type: string }[] }) => body.data.map((e) => e.type);

/** A charge created and paid, a second one created, one second apart each; returns their ids. */
async function flow(h: Harness, a: SeededAccount) {
  const first = await charge(h, a.testKey);
  h.clock.advance(1);
  await pay(h, a.testKey, first);
  h.clock.advance(1);
  const second = await charge(h, a.testKey);
  h.clock.advance(1);
  return { first, second };
}

describe("GET /v1/events: listing", () => {
  test("every canonical event of a flow nobody subscribes to is listed newest first, with exactly the envelope fields", async () => {
    const h = createHarness();
    const a = await h.seedAccount({ settings: { settlementDelaySeconds: 0 } });
    const { first, second } = await flow(h, a);
    const po = await payout(h, a);
    const r = await list(h, a.testKey);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(["data", "has_more", "next_cursor", "object"]);
    expect({ object: r.body.object, has_more: r.body.has_more, next_cursor: r.body.next_cursor }).toEqual({
      object: "list",
      has_more: false,
      next_cursor: null,
    });
    expect(types(r.body)).toEqual(["payout.created", "charge.created", "charge.paid", "charge.created"]);
    expect(r.body.data.map((e: any) => e.data.object.id)).toEqual([po, second, first, first]);
    for (const e of r.body.data) {
      expect(Object.keys(e).sort()).toEqual(EVENT_FIELDS);
      expect(e.id).toMatch(/^evt_[0-9a-f]{32}$/);
      expect(e.object).toBe("event");
    }
  });

  test("type takes a name, a family or a comma-separated list; legacy names are refused", async () => {
    const h = createHarness();
    const a = await h.seedAccount({ settings: { settlementDelaySeconds: 0 } });
    await flow(h, a);
    await payout(h, a);
    expect(types((await list(h, a.testKey, "?type=charge.paid")).body)).toEqual(["charge.paid"]);
    expect(types((await list(h, a.testKey, "?type=charge.*")).body)).toEqual([
      "charge.created",
      "charge.paid",
      "charge.created",
    ]);
    expect(types((await list(h, a.testKey, "?type=payout.*")).body)).toEqual(["payout.created"]);
    expect(types((await list(h, a.testKey, "?type=payout.created,charge.paid")).body)).toEqual([
      "payout.created",
      "charge.paid",
    ]);
    for (const bad of ["payment.completed", "charge.", "*", "med_case.created"]) {
      const r = await list(h, a.testKey, `?type=${bad}`);
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe("invalid_event_type");
    }
  });

  test("created_after and created_before are exclusive ISO 8601 bounds", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    await flow(h, a); // 12:00:00 created, 12:00:01 paid, 12:00:02 created
    const r = await list(
      h,
      a.testKey,
      "?created_after=2026-11-20T12:00:00.000Z&created_before=2026-11-20T12:00:02.000Z",
    );
    expect(types(r.body)).toEqual(["charge.paid"]);
    expect(types((await list(h, a.testKey, "?created_after=2026-11-20T12:00:00.500Z")).body)).toEqual([
      "charge.created",
      "charge.paid",
    ]);
    const bad = await list(h, a.testKey, "?created_after=yesterday");
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe("created_after");
  });

  test("limit and starting_after walk every event exactly once, newest first, and the last page has no cursor", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    for (let i = 0; i < 3; i++) await flow(h, a);
    const all = (await list(h, a.testKey, "?limit=100")).body.data.map((e: any) => e.id);
    expect(all.length).toBe(9);
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 10; page++) {
      const r = await list(h, a.testKey, `?limit=4${cursor ? `&starting_after=${cursor}` : ""}`);
      expect(r.status).toBe(200);
      seen.push(...r.body.data.map((e: any) => e.id));
      expect(r.body.has_more).toBe(seen.length < 9);
      cursor = r.body.next_cursor;
      if (!cursor) break;
      expect(cursor).toBe(seen[seen.length - 1]!);
    }
    expect(seen).toEqual(all);
    const times = (await list(h, a.testKey, "?limit=100")).body.data.map((e: any) => e.created_at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  test("bad limits, unknown or repeated parameters and a foreign cursor are 400", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const b = await h.seedAccount();
    await charge(h, b.testKey);
    const foreign = (await list(h, b.testKey)).body.data[0].id;
    for (const [q, param, code] of [
      ["?limit=0", "limit", "invalid_request"],
      ["?limit=101", "limit", "invalid_request"],
      ["?limit=1.5", "limit", "invalid_request"],
      ["?offset=10", "offset", "invalid_request"],
      ["?type=charge.paid&type=charge.created", "type", "invalid_request"],
      [`?starting_after=${foreign}`, "starting_after", "invalid_cursor"],
      ["?starting_after=ch_123", "starting_after", "invalid_cursor"],
    ] as const) {
      const r = await list(h, a.testKey, q);
      expect({ q, status: r.status, param: r.body.error.param, code: r.body.error.code }).toEqual({
        q,
        status: 400,
        param,
        code,
      });
    }
  });
});

describe("GET /v1/events/{id}", () => {
  test("is the event exactly as it was delivered to an endpoint: same bytes, same id, type and data", async () => {
    const h = createHarness({ webhookAllowPrivate: true });
    deterministic(h);
    const a = await h.seedAccount();
    const rx = startReceiver();
    receivers.push(rx);
    await register(h, a.testKey, rx.url, ["charge.created", "charge.paid"]);
    const id = await charge(h, a.testKey);
    await pay(h, a.testKey, id);
    await h.deps.jobs.drain();
    expect(rx.requests.length).toBe(2);
    for (const req of rx.requests) {
      const sent = JSON.parse(req.body);
      const r = await h.call("GET", `/v1/events/${sent.id}`, { key: a.testKey });
      expect(r.status).toBe(200);
      expect(r.text).toBe(req.body);
      expect(r.body).toEqual(sent);
    }
    const listed = (await list(h, a.testKey)).body.data;
    // Deliveries run concurrently (their order is not the events'); the list is newest first.
    expect(listed).toEqual(rx.requests.map((q) => JSON.parse(q.body)).sort((x, y) => (x.id < y.id ? 1 : -1)));
  });

  test("an unknown id, another account's event or the other mode's is 404", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const b = await h.seedAccount();
    await charge(h, a.testKey);
    const evt = (await list(h, a.testKey)).body.data[0].id;
    for (const key of [b.testKey, a.liveKey]) {
      const r = await h.call("GET", `/v1/events/${evt}`, { key });
      expect(r.status).toBe(404);
      expect(r.body.error.type).toBe("not_found_error");
    }
    expect((await h.call("GET", "/v1/events/evt_00000000000000000000000000000000", { key: a.testKey })).status).toBe(
      404,
    );
  });
});

describe("isolation", () => {
  test("a live key lists no sandbox event and another account's key lists none of this account's", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const b = await h.seedAccount();
    await flow(h, a);
    expect((await list(h, a.testKey)).body.data.length).toBe(3);
    for (const key of [a.liveKey, b.testKey, b.liveKey]) {
      const r = await list(h, key);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ object: "list", data: [], has_more: false, next_cursor: null });
    }
  });

  test("without a key the list is 401", async () => {
    const h = createHarness();
    expect((await h.call("GET", "/v1/events")).status).toBe(401);
  });
});

describe("30-day retention", () => {
  test("after 30 days the hourly prune deletes unsubscribed events; an event with a delivery keeps its row for the delivery but leaves the API", async () => {
    const h = createHarness({ webhookAllowPrivate: true });
    deterministic(h);
    const a = await h.seedAccount();
    const rx = startReceiver();
    receivers.push(rx);
    await register(h, a.testKey, rx.url, ["charge.paid"]);
    const old = await charge(h, a.testKey);
    await pay(h, a.testKey, old);
    await h.deps.jobs.drain();
    const oldEvents = (await list(h, a.testKey)).body.data.map((e: any) => e.id);
    expect(oldEvents.length).toBe(2);
    h.clock.advance(29 * 86_400);
    const recent = await charge(h, a.testKey);
    await h.deps.jobs.drain();
    expect((await list(h, a.testKey)).body.data.length).toBe(3);
    h.clock.advance(1 * 86_400 + 3600);
    await h.deps.jobs.drain();
    const left = (await list(h, a.testKey, "?type=charge.created,charge.paid")).body.data;
    expect(left.map((e: any) => [e.type, e.data.object.id])).toEqual([["charge.created", recent]]);
    for (const id of oldEvents) expect((await h.call("GET", `/v1/events/${id}`, { key: a.testKey })).status).toBe(404);
    // charge.created (no delivery) is gone; charge.paid stays as its delivery's payload.
    const rows = await testDb(h.deps).all<{ type: string }>(
      "select type from events where family = 'canonical' order by created_at, id",
    );
    expect(rows.map((r) => r.type)).toEqual(["charge.paid", "charge.created", "charge.expired"]);
    const deliveries = await h.call("GET", "/v1/webhooks/deliveries", { key: a.testKey });
    expect(deliveries.body.data.map((d: any) => d.payload.type)).toEqual(["charge.paid"]);
  });
});
