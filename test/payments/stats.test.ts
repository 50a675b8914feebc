import { describe, expect, test } from "bun:test";
import { rebuildPaymentAggregates } from "../../src/store/sqlite/stats-aggregates";
import { createHarness } from "../support/harness";
import { createPayment, key, pay } from "./support";
import { dbOf } from "../support/db";
import { testDb } from "../support/test-db";

/** The timeline described in the test names (clock starts 2026-11-12T12:00Z = 09:00 in São Paulo). */
async function timeline() {
  const h = createHarness({}, "2026-11-12T12:00:00.000Z");
  const a = await h.seedAccount();
  const A = await createPayment(h, a, { amount: 9999 });
  await pay(h, a, A.id);
  h.clock.advance(6 * 86400); // 2026-11-18T12:00Z
  const B = await createPayment(h, a, { amount: 1000 });
  h.clock.advance(60);
  await pay(h, a, B.id);
  const C = await createPayment(h, a, { amount: 2000 });
  h.clock.advance(120);
  await pay(h, a, C.id);
  const D = await createPayment(h, a, { amount: 1500 });
  h.clock.advance(3601);
  await h.deps.jobs.drain();
  h.clock.advance(169019); // 2026-11-20T12:00Z
  await h.deps.jobs.drain();
  const E = await createPayment(h, a, { amount: 500, currency: "EUR", paymentMethods: ["CREDIT_CARD"] });
  await h.call("POST", `/c/${E.id}/card`, { body: { number: "4242424242424242" } });
  const F = await createPayment(h, a, { amount: 300 });
  const get = (path: string, k = a.testKey) => h.call("GET", path, { key: k });
  return { h, a, ids: { A: A.id, B: B.id, C: C.id, D: D.id, E: E.id, F: F.id }, get };
}

const zeroMethods = (over: Record<string, [number, number]> = {}) =>
  ["PIX", "CREDIT_CARD", "MBWAY", "MULTIBANCO", "BOLETO", "CRYPTO"].map((method) => ({
    method,
    volume: over[method]?.[0] ?? 0,
    count: over[method]?.[1] ?? 0,
  }));

describe("GET /v1/payments/stats", () => {
  test("an account without transactions gets zeros and one empty point per day", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const r = await h.call("GET", "/v1/payments/stats", { key: a.testKey });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      totalTransactions: 0,
      paidTransactions: 0,
      todayTransactions: 0,
      successRate: 0,
      volumeByCurrency: [],
      todayVolumeByCurrency: {},
      dailyVolume: [
        "2026-11-14",
        "2026-11-15",
        "2026-11-16",
        "2026-11-17",
        "2026-11-18",
        "2026-11-19",
        "2026-11-20",
      ].map((date) => ({ date, currencies: {} })),
      methodBreakdown: zeroMethods(),
    });
  });

  test("the default 7-day window (São Paulo days, today included) counts every field", async () => {
    const { get } = await timeline();
    const r = await get("/v1/payments/stats");
    expect(r.status).toBe(200);
    const zero = { BRL: 0, EUR: 0 };
    expect(r.body).toEqual({
      totalTransactions: 5,
      paidTransactions: 3,
      todayTransactions: 2,
      successRate: 60,
      volumeByCurrency: [
        { currency: "BRL", volume: 3000, count: 2 },
        { currency: "EUR", volume: 500, count: 1 },
      ],
      todayVolumeByCurrency: { EUR: 500 },
      dailyVolume: [
        { date: "2026-11-14", currencies: zero },
        { date: "2026-11-15", currencies: zero },
        { date: "2026-11-16", currencies: zero },
        { date: "2026-11-17", currencies: zero },
        { date: "2026-11-18", currencies: { BRL: 3000, EUR: 0 } },
        { date: "2026-11-19", currencies: zero },
        { date: "2026-11-20", currencies: { BRL: 0, EUR: 500 } },
      ],
      methodBreakdown: zeroMethods({ PIX: [3000, 2], CREDIT_CARD: [500, 1] }),
    });
    expect(Number.isInteger(r.body.successRate)).toBe(true);
  });

  test("days=9 reaches the older paid transaction; days=1 is today only", async () => {
    const { get } = await timeline();
    const nine = await get("/v1/payments/stats?days=9");
    expect(nine.body).toMatchObject({ totalTransactions: 6, paidTransactions: 4, successRate: 67 });
    expect(nine.body.dailyVolume[0]).toEqual({ date: "2026-11-12", currencies: { BRL: 9999, EUR: 0 } });
    const one = await get("/v1/payments/stats?days=1");
    expect(one.body).toMatchObject({
      totalTransactions: 2,
      paidTransactions: 1,
      todayTransactions: 2,
      successRate: 50,
    });
    expect(one.body.dailyVolume).toEqual([{ date: "2026-11-20", currencies: { BRL: 0, EUR: 500 } }]);
  });

  test("long windows return the 366 most recent days", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const r = await h.call("GET", "/v1/payments/stats?days=1000", { key: a.testKey });
    expect(r.body.dailyVolume).toHaveLength(366);
    expect(r.body.dailyVolume.at(-1).date).toBe("2026-11-20");
    expect(r.body.dailyVolume[0].date).toBe("2025-11-20");
  });

  test("a payment made at 23:30 in São Paulo (02:30 UTC the next day) counts on the São Paulo day", async () => {
    const h = createHarness({}, "2026-11-21T02:30:00.000Z");
    const a = await h.seedAccount();
    const p = await createPayment(h, a, { amount: 700 });
    await pay(h, a, p.id);
    const r = await h.call("GET", "/v1/payments/stats?days=1", { key: a.testKey });
    expect(r.body.dailyVolume).toEqual([{ date: "2026-11-20", currencies: { BRL: 700 } }]);
    expect(r.body.todayTransactions).toBe(1);
  });

  test("another account and the live mode see nothing of these transactions", async () => {
    const { h, a, get } = await timeline();
    const other = await h.seedAccount();
    expect((await get("/v1/payments/stats", other.testKey)).body.totalTransactions).toBe(0);
    expect((await get("/v1/payments/stats", a.liveKey)).body.totalTransactions).toBe(0);
  });

  for (const q of ["days=0", "days=abc", "days=1.5", "days=-3", "days=99999", "from=2026-01-01"])
    test(`?${q} -> 400`, async () => {
      const h = createHarness();
      const a = await h.seedAccount();
      const r = await h.call("GET", `/v1/payments/stats?${q}`, { key: a.testKey });
      expect(r.status).toBe(400);
      expect(r.body.error.type).toBe("invalid_request_error");
    });
});

describe("GET /v1/payments/metrics", () => {
  test("the funnel counts and volumes, conversion rate, median time to pay and average ticket", async () => {
    const { get } = await timeline();
    const r = await get("/v1/payments/metrics");
    expect(r.status).toBe(200);
    const { medianTimeToPaySeconds, ...rest } = r.body;
    expect(rest).toEqual({
      days: 7,
      currency: null,
      from: "2026-11-14",
      to: "2026-11-20",
      timeZone: "America/Sao_Paulo",
      created: { count: 5, volume: 5300 },
      paid: { count: 3, volume: 3500 },
      failed: { count: 0, volume: 0 },
      expired: { count: 1, volume: 1500 },
      cancelled: { count: 0, volume: 0 },
      refunded: { count: 0, volume: 0 },
      inFlight: { count: 1, volume: 300 },
      disputed: { count: 0, volume: 0 },
      conversionRate: 60,
      averageTicket: 1167,
    });
    expect(medianTimeToPaySeconds).toBeGreaterThanOrEqual(57);
    expect(medianTimeToPaySeconds).toBeLessThanOrEqual(63);
  });

  test("currency filters the funnel; cancellations and refunds move their steps", async () => {
    const { h, a, ids, get } = await timeline();
    await h.call("POST", `/v1/payments/${ids.F}/cancel`, { key: a.testKey });
    const partial = await h.call("POST", `/v1/payments/${ids.C}/refund`, {
      key: a.testKey,
      body: { idempotencyKey: key(), amount: 500 },
    });
    expect(partial.body).toMatchObject({ status: "PENDING" });
    const full = await h.call("POST", `/v1/payments/${ids.B}/refund`, {
      key: a.testKey,
      body: { idempotencyKey: key() },
    });
    await h.call("POST", `/v1/test_helpers/refunds/${full.body.id}/advance`, {
      key: a.testKey,
      body: { to: "REFUNDED" },
    });
    const r = await get("/v1/payments/metrics?currency=brl&days=7");
    expect(r.body).toMatchObject({
      currency: "BRL",
      created: { count: 4, volume: 4800 },
      paid: { count: 2, volume: 3000 },
      cancelled: { count: 1, volume: 300 },
      refunded: { count: 1, volume: 1500 },
      inFlight: { count: 0, volume: 0 },
      conversionRate: 50,
    });
    expect(r.body.medianTimeToPaySeconds).toBeGreaterThanOrEqual(57);
    expect(r.body.medianTimeToPaySeconds).toBeLessThanOrEqual(63);
    const eur = await get("/v1/payments/metrics?currency=EUR");
    expect(eur.body).toMatchObject({
      created: { count: 1, volume: 500 },
      paid: { count: 1, volume: 500 },
      conversionRate: 100,
      medianTimeToPaySeconds: 0,
    });
    const stats = await get("/v1/payments/stats");
    expect(stats.body.paidTransactions).toBe(3);
  });

  test("days has no 366 cap and an empty account has nulls for median and ticket", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const r = await h.call("GET", "/v1/payments/metrics?days=1000", { key: a.testKey });
    expect(r.body).toMatchObject({
      days: 1000,
      from: "2024-02-25",
      medianTimeToPaySeconds: null,
      averageTicket: null,
      conversionRate: 0,
    });
  });

  test("bad currency or days -> 400", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    for (const q of ["currency=R$", "currency=ABCDEFGHI", "days=0", "days=x"]) {
      const r = await h.call("GET", `/v1/payments/metrics?${q}`, { key: a.testKey });
      expect(r.status).toBe(400);
    }
  });
});

describe("daily aggregates", () => {
  test("the trigger-maintained aggregates equal a full recomputation after every kind of change", async () => {
    const { h, a, ids } = await timeline();
    await h.call("POST", `/v1/payments/${ids.F}/cancel`, { key: a.testKey });
    const rf = await h.call("POST", `/v1/payments/${ids.C}/refund`, {
      key: a.testKey,
      body: { idempotencyKey: key(), amount: 700 },
    });
    await h.call("POST", `/v1/test_helpers/refunds/${rf.body.id}/advance`, { key: a.testKey, body: { to: "FAILED" } });
    const db = testDb(h.deps);
    if (db.kind === "sqlite") {
      const snapshot = () => ({
        stats: dbOf(h.deps)
          .$client.query("SELECT * FROM payment_daily_stats WHERE count != 0 OR refunded != 0 ORDER BY 1,2,3,4,5,6,7")
          .all(),
        hist: dbOf(h.deps)
          .$client.query("SELECT * FROM payment_pay_time_hist WHERE count != 0 ORDER BY 1,2,3,4,5")
          .all(),
      });
      const live = snapshot();
      rebuildPaymentAggregates(dbOf(h.deps));
      expect(snapshot()).toEqual(live);
      expect(live.stats.length).toBeGreaterThan(3);
      return;
    }
    // PostgreSQL: the cells summed over the write shards, against the same recomputation its
    // migration 0004 installs them with (payment_stats_day/bucket are its functions).
    const live = {
      stats: await db.all(
        "SELECT account_id, livemode, day, currency, method, status, paid, sum(count) AS count, sum(amount) AS amount, sum(refunded) AS refunded FROM payment_daily_stats GROUP BY 1,2,3,4,5,6,7 HAVING sum(count) != 0 OR sum(refunded) != 0 ORDER BY 1,2,3,4,5,6,7",
      ),
      hist: await db.all(
        "SELECT account_id, livemode, day, currency, bucket, sum(count) AS count FROM payment_pay_time_hist GROUP BY 1,2,3,4,5 HAVING sum(count) != 0 ORDER BY 1,2,3,4,5",
      ),
      monthly: await db.all(
        "SELECT account_id, livemode, month, currency, bucket, sum(count) AS count FROM payment_pay_time_hist_monthly GROUP BY 1,2,3,4,5 HAVING sum(count) != 0 ORDER BY 1,2,3,4,5",
      ),
    };
    const full = {
      stats: await db.all(
        "SELECT account_id, livemode, payment_stats_day(created_at) AS day, currency, coalesce(paid_with, '') AS method, status, CASE WHEN paid_at IS NULL THEN 0 ELSE 1 END AS paid, count(*) AS count, sum(amount) AS amount, sum(refunded_amount) AS refunded FROM transactions GROUP BY 1,2,3,4,5,6,7 ORDER BY 1,2,3,4,5,6,7",
      ),
      hist: await db.all(
        "SELECT account_id, livemode, payment_stats_day(created_at) AS day, currency, payment_stats_bucket(created_at, paid_at) AS bucket, count(*) AS count FROM transactions WHERE paid_at IS NOT NULL GROUP BY 1,2,3,4,5 ORDER BY 1,2,3,4,5",
      ),
      monthly: await db.all(
        "SELECT account_id, livemode, substr(payment_stats_day(created_at), 1, 7) AS month, currency, payment_stats_bucket(created_at, paid_at) AS bucket, count(*) AS count FROM transactions WHERE paid_at IS NOT NULL GROUP BY 1,2,3,4,5 ORDER BY 1,2,3,4,5",
      ),
    };
    expect(live).toEqual(full);
    expect(live.stats.length).toBeGreaterThan(3);
  });
});

describe("long windows use the monthly time-to-pay roll-up", () => {
  test("splitWindow separates whole months from partial edge days", async () => {
    const { splitWindow } = await import("../../src/domain/payments/stats");
    expect(splitWindow("2025-11-20", "2026-11-20")).toEqual({
      head: ["2025-11-20", "2025-11-30"],
      months: ["2025-12", "2026-10"],
      tail: ["2026-11-01", "2026-11-20"],
    });
    expect(splitWindow("2026-11-14", "2026-11-20").months).toEqual(["9999-99", "0000-00"]);
    expect(splitWindow("2026-10-31", "2026-12-01")).toEqual({
      head: ["2026-10-31", "2026-10-31"],
      months: ["2026-11", "2026-11"],
      tail: ["2026-12-01", "2026-12-01"],
    });
  });

  test("the median over several months matches the exact median within the 5% bucket width", async () => {
    const h = createHarness({}, "2026-07-10T12:00:00.000Z");
    const a = await h.seedAccount();
    const delays: number[] = [];
    for (let i = 0; i < 25; i++) {
      const p = await createPayment(h, a, { amount: 100 + i });
      const d = 30 + ((i * 37) % 50) * 20;
      delays.push(d);
      h.clock.advance(d);
      await pay(h, a, p.id);
      h.clock.advance(5 * 86400 - d);
    }
    delays.sort((x, y) => x - y);
    const exact = delays[12]!;
    const r = await h.call("GET", `/v1/payments/metrics?days=200`, { key: a.testKey });
    expect(r.body.paid.count).toBe(25);
    expect(Math.abs(r.body.medianTimeToPaySeconds - exact) / exact).toBeLessThanOrEqual(0.05);
    const monthly = await testDb(h.deps).get<{ n: number }>(
      "SELECT sum(count) AS n FROM payment_pay_time_hist_monthly",
    );
    expect(monthly!.n).toBe(25);
  });
});
