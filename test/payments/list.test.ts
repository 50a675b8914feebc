import { describe, expect, test } from "bun:test";
import { createHarness } from "../support/harness";
import { GET_FIELDS, createPayment, expectNoForbidden, pay } from "./support";

const seed = async () => {
  const h = createHarness();
  const a = await h.seedAccount();
  const ids: string[] = [];
  for (let i = 1; i <= 5; i++) {
    const p = await createPayment(h, a, { amount: i * 100, customerName: `C${6 - i}` });
    ids.push(p.id);
    h.clock.advance(60);
  }
  await pay(h, a, ids[1]!);
  const list = (q = "") => h.call("GET", `/v1/payments${q}`, { key: a.testKey });
  return { h, a, ids, list };
};

describe("GET /v1/payments (happy paths)", () => {
  test("defaults: newest first, page 1, limit 20, total, get-shape items", async () => {
    const { ids, list } = await seed();
    const r = await list();
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(["data", "limit", "page", "total"]);
    expect(r.body).toMatchObject({ total: 5, page: 1, limit: 20 });
    expect(r.body.data.map((d: any) => d.id)).toEqual([...ids].reverse());
    for (const d of r.body.data) expect(Object.keys(d).sort()).toEqual(GET_FIELDS);
    expectNoForbidden(r.body);
  });

  test("page and limit slice the list; total counts every match", async () => {
    const { ids, list } = await seed();
    const r = await list("?page=2&limit=2&sortOrder=asc");
    expect(r.body).toMatchObject({ total: 5, page: 2, limit: 2 });
    expect(r.body.data.map((d: any) => d.id)).toEqual([ids[2], ids[3]]);
    const beyond = await list("?page=9&limit=2");
    expect(beyond.body.data).toEqual([]);
    expect(beyond.body.total).toBe(5);
  });

  test("status, startDate and endDate filter (bounds inclusive)", async () => {
    const { ids, list } = await seed();
    const paid = await list("?status=PAID");
    expect(paid.body.data.map((d: any) => d.id)).toEqual([ids[1]]);
    expect(paid.body.total).toBe(1);
    const window = await list("?startDate=2026-11-20T12:01:00.000Z&endDate=2026-11-20T12:03:00Z&sortOrder=asc");
    expect(window.body.data.map((d: any) => d.id)).toEqual([ids[1], ids[2], ids[3]]);
    const day = await list("?endDate=2026-11-20");
    expect(day.body.total).toBe(5);
    const none = await list("?endDate=2026-11-19");
    expect(none.body.total).toBe(0);
  });

  test("sortBy any scalar top-level field, asc or desc", async () => {
    const { ids, list } = await seed();
    const byAmount = await list("?sortBy=amount&sortOrder=asc");
    expect(byAmount.body.data.map((d: any) => d.amount)).toEqual([100, 200, 300, 400, 500]);
    const byName = await list("?sortBy=customerName&sortOrder=asc");
    expect(byName.body.data.map((d: any) => d.customerName)).toEqual(["C1", "C2", "C3", "C4", "C5"]);
    const byPaid = await list("?sortBy=paidAt&sortOrder=desc");
    expect(byPaid.body.data[0].id).toBe(ids[1]);
    for (const f of [
      "status",
      "currency",
      "paidWith",
      "platformFee",
      "pixExpiresAt",
      "mbReference",
      "boletoLine",
      "cryptoAmount",
      "id",
    ])
      expect((await list(`?sortBy=${f}`)).status).toBe(200);
  });

  test("only the caller's account and mode are listed", async () => {
    const { h, list } = await seed();
    const other = await h.seedAccount();
    await createPayment(h, other);
    expect((await list()).body.total).toBe(5);
    expect((await h.call("GET", "/v1/payments", { key: other.liveKey })).body.total).toBe(0);
  });
});

describe("GET /v1/payments (errors)", () => {
  const bad: [string, string][] = [
    ["?sortBy=metadata.orderId", "sortBy"],
    ["?sortBy=customer.name", "sortBy"],
    ["?sortBy=nope", "sortBy"],
    ["?sortOrder=up", "sortOrder"],
    ["?limit=0", "limit"],
    ["?limit=101", "limit"],
    ["?limit=1e1", "limit"],
    ["?page=0", "page"],
    ["?page=-1", "page"],
    ["?status=paid", "status"],
    ["?startDate=yesterday", "startDate"],
    ["?endDate=2026-13-40", "endDate"],
    ["?offset=10", "offset"],
  ];
  for (const [q, param] of bad)
    test(`${q} -> 400 naming ${param}`, async () => {
      const { list } = await seed();
      const r = await list(q);
      expect(r.status).toBe(400);
      expect(r.body.error.param).toBe(param);
    });

  test("without a key -> 401", async () => {
    const h = createHarness();
    expect((await h.call("GET", "/v1/payments")).status).toBe(401);
  });
});

describe("GET /v1/payments (ordering and totals)", () => {
  test("transactions created in the same millisecond keep a stable order (insertion order)", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const ids = [];
    for (let i = 0; i < 4; i++) ids.push((await createPayment(h, a)).id);
    const desc = await h.call("GET", "/v1/payments", { key: a.testKey });
    expect(desc.body.data.map((d: any) => d.id)).toEqual([...ids].reverse());
    const asc = await h.call("GET", "/v1/payments?sortOrder=asc&limit=2&page=2", { key: a.testKey });
    expect(asc.body.data.map((d: any) => d.id)).toEqual(ids.slice(2));
  });

  test("totals follow status changes (paid, cancelled) with and without date filters", async () => {
    const { h, a, ids, list } = await seed();
    await h.call("POST", `/v1/payments/${ids[0]}/cancel`, { key: a.testKey });
    expect((await list("?status=CANCELLED")).body.total).toBe(1);
    expect((await list("?status=WAITING_PAYMENT")).body.total).toBe(3);
    expect((await list("?status=WAITING_PAYMENT&startDate=2026-11-20")).body.total).toBe(3);
    expect((await list()).body.total).toBe(5);
  });
});

describe("repeated query parameters", () => {
  test("a filter given twice is a 400 naming it, on the payments list, stats and the deliveries list", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    for (const path of [
      "/v1/payments?status=PAID&status=REFUSED",
      "/v1/payments/stats?days=7&days=30",
      "/v1/payments/metrics?days=7&days=30",
      "/v1/webhooks/deliveries?status=FAILED&status=DELIVERED",
    ]) {
      const r = await h.call("GET", path, { key: a.testKey });
      expect(r.status).toBe(400);
      expect(r.body.error).toMatchObject({ type: "invalid_request_error", code: "invalid_request" });
      expect(r.body.error.param).toBe(new URL(`http://x${path}`).searchParams.keys().next().value);
    }
  });
});
