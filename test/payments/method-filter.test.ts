/** GET /v1/payments?paymentMethod= (the dashboard's method filter, issue 15 phase 2). */
import { describe, expect, test } from "bun:test";
import { createHarness } from "../support/harness";
import { createPayment, forceStatus, pay } from "./support";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { unpaidOfferingCount } from "../../src/store/sqlite/payments";
import { dbOf } from "../support/db";

describe("GET /v1/payments?paymentMethod=", () => {
  test("keeps transactions paid with the method, or unpaid and offering it, and counts exactly those", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const pixOnly = await createPayment(h, a, { paymentMethods: ["PIX"] });
    const both = await createPayment(h, a, { paymentMethods: ["PIX", "CREDIT_CARD"] });
    const paidByCard = await createPayment(h, a, { paymentMethods: ["PIX", "CREDIT_CARD"] });
    await pay(h, a, paidByCard.id, { method: "CREDIT_CARD" });
    const boleto = await createPayment(h, a, { paymentMethods: ["BOLETO"] });
    const ids = async (q: string) => {
      const r = await h.call("GET", `/v1/payments${q}`, { key: a.testKey });
      expect(r.status).toBe(200);
      expect(r.body.total).toBe(r.body.data.length);
      return r.body.data.map((d: any) => d.id).sort();
    };
    expect(await ids("?paymentMethod=PIX")).toEqual([pixOnly.id, both.id].sort());
    expect(await ids("?paymentMethod=CREDIT_CARD")).toEqual([both.id, paidByCard.id].sort());
    expect(await ids("?paymentMethod=BOLETO")).toEqual([boleto.id]);
    expect(await ids("?paymentMethod=CRYPTO")).toEqual([]);
    expect(await ids("?paymentMethod=PIX&status=WAITING_PAYMENT")).toEqual([pixOnly.id, both.id].sort());
  });

  test("an unknown method is 400 naming the parameter, and another account's transactions never match", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const b = await h.seedAccount();
    await createPayment(h, b, { paymentMethods: ["PIX"] }, b.testKey);
    for (const bad of ["pix", "PIX,BOLETO", "", "CASH"]) {
      const r = await h.call("GET", `/v1/payments?paymentMethod=${encodeURIComponent(bad)}`, { key: a.testKey });
      expect([bad, r.status, r.body.error.param]).toEqual([bad, 400, "paymentMethod"]);
    }
    expect((await h.call("GET", "/v1/payments?paymentMethod=PIX", { key: a.testKey })).body).toEqual({ data: [], total: 0, page: 1, limit: 20 });
  });
});

describe("GET /v1/payments?paymentMethod=: the total", () => {
  test("equals an oracle over the whole list for every method, pages smaller than the total, paid, refunded, expired and mixed rows", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const b = await h.seedAccount();
    const offers = [["PIX"], ["PIX", "CREDIT_CARD"], ["CREDIT_CARD"], ["BOLETO"], ["PIX", "BOLETO"], ["PIX", "CREDIT_CARD", "BOLETO"]];
    for (let i = 0; i < 24; i++) {
      const methods = offers[i % offers.length]!;
      const p = await createPayment(h, a, { paymentMethods: methods });
      if (i % 3 === 0) await pay(h, a, p.id, { method: methods[methods.length - 1] });
      else if (i % 3 === 1) forceStatus(h, p.id, "EXPIRED");
      if (i % 6 === 0) forceStatus(h, p.id, "REFUNDED");
    }
    await createPayment(h, b, { paymentMethods: ["PIX", "BOLETO"] }, b.testKey);
    const all = (await h.call("GET", "/v1/payments?limit=100", { key: a.testKey })).body.data as { paidWith: string | null; paymentMethods: string[] }[];
    expect(all).toHaveLength(24);
    for (const m of ["PIX", "CREDIT_CARD", "BOLETO", "MBWAY", "MULTIBANCO", "CRYPTO"]) {
      const oracle = all.filter((p) => p.paidWith === m || (p.paidWith === null && p.paymentMethods.includes(m))).length;
      const r = await h.call("GET", `/v1/payments?paymentMethod=${m}&limit=5&page=2`, { key: a.testKey });
      expect([m, r.status, r.body.total, r.body.data.length]).toEqual([m, 200, oracle, Math.max(0, Math.min(5, oracle - 5))]);
    }
  });

  test("counts the unpaid rows on the covering partial index by distinct method arrays, never reading the table", () => {
    const h = createHarness();
    const { sql, params } = new SQLiteSyncDialect().sqlToQuery(unpaidOfferingCount(dbOf(h.deps), "acct_1", false, "BOLETO").query);
    const plan = (dbOf(h.deps).$client.query(`EXPLAIN QUERY PLAN ${sql}`).all(...(params as never[])) as { detail: string }[]).map((r) => r.detail);
    const reads = plan.filter((d) => d.includes("transactions"));
    expect(reads).toEqual([
      "SEARCH transactions USING COVERING INDEX tx_account_unpaid_methods_idx (account_id=? AND livemode=? AND paid_with=?)",
      "SEARCH transactions USING COVERING INDEX tx_account_unpaid_methods_idx (account_id=? AND livemode=? AND paid_with=? AND payment_methods>?)",
      "SEARCH transactions USING COVERING INDEX tx_account_unpaid_methods_idx (account_id=? AND livemode=? AND paid_with=? AND payment_methods=?)",
    ]);
  });

  test("the unpaid count matches a direct count for each method, in each mode", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    for (const methods of [["PIX"], ["PIX", "BOLETO"], ["BOLETO"], ["PIX", "CREDIT_CARD", "BOLETO"], ["PIX"]]) await createPayment(h, a, { paymentMethods: methods });
    const direct = (m: string, live: number) =>
      (dbOf(h.deps).$client.query("select count(*) as n from transactions where account_id = ? and livemode = ? and paid_with is null and payment_methods like ?").get(a.accountId, live, `%"${m}"%`) as { n: number }).n;
    for (const m of ["PIX", "BOLETO", "CREDIT_CARD", "CRYPTO"] as const)
      for (const live of [false, true]) expect([m, live, unpaidOfferingCount(dbOf(h.deps), a.accountId, live, m).get()]).toEqual([m, live, direct(m, live ? 1 : 0)]);
    expect(unpaidOfferingCount(dbOf(h.deps), a.accountId, false, "PIX").get()).toBe(4);
  });
});
