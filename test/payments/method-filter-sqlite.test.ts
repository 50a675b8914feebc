// sqlite-only: the SQLite adapter's unpaid-offering count (src/store/sqlite/payments.ts) and its query plan on the
// covering partial index
/**
 * The SQLite query behind GET /v1/payments?paymentMethod='s total (the route itself: method-filter.test.ts, on both
 * backends).
 */
import { describe, expect, test } from "bun:test";
import { createHarness } from "../support/harness";
import { createPayment } from "./support";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { unpaidOfferingCount } from "../../src/store/sqlite/payments";
import { dbOf } from "../support/db";

describe("GET /v1/payments?paymentMethod=: the SQLite unpaid count", () => {
  test("counts the unpaid rows on the covering partial index by distinct method arrays, never reading the table", () => {
    const h = createHarness();
    const { sql, params } = new SQLiteSyncDialect().sqlToQuery(
      unpaidOfferingCount(dbOf(h.deps), "acct_1", false, "BOLETO").query,
    );
    const plan = (
      dbOf(h.deps)
        .$client.query(`EXPLAIN QUERY PLAN ${sql}`)
        .all(...(params as never[])) as { detail: string }[]
    ).map((r) => r.detail);
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
    for (const methods of [["PIX"], ["PIX", "BOLETO"], ["BOLETO"], ["PIX", "CREDIT_CARD", "BOLETO"], ["PIX"]])
      await createPayment(h, a, { paymentMethods: methods });
    const direct = (m: string, live: number) =>
      (
        dbOf(h.deps)
          .$client.query(
            "select count(*) as n from transactions where account_id = ? and livemode = ? and paid_with is null and payment_methods like ?",
          )
          .get(a.accountId, live, `%"${m}"%`) as { n: number }
      ).n;
    for (const m of ["PIX", "BOLETO", "CREDIT_CARD", "CRYPTO"] as const)
      for (const live of [false, true])
        expect([m, live, unpaidOfferingCount(dbOf(h.deps), a.accountId, live, m).get()]).toEqual([
          m,
          live,
          direct(m, live ? 1 : 0),
        ]);
    expect(unpaidOfferingCount(dbOf(h.deps), a.accountId, false, "PIX").get()).toBe(4);
  });
});
