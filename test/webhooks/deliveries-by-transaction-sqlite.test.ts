// sqlite-only: the SQLite adapter's delivery page queries (src/store/sqlite/webhooks-deliveries.ts) and their EXPLAIN
// QUERY PLAN
/**
 * The SQLite query plan behind GET /v1/webhooks/deliveries?transactionId= (the route itself:
 * deliveries-by-transaction.test.ts, on both backends).
 */
import { describe, expect, test } from "bun:test";
import { createHarness } from "../support/harness";
import { deliveryPageQueries } from "../../src/store/sqlite/webhooks-deliveries";
import { dbOf } from "../support/db";

describe("the query plan of the transaction filter", () => {
  test("reads the transaction's events through events_tx_idx and their deliveries through wd_event_idx, never scanning the mode's deliveries", () => {
    const h = createHarness();
    const q = deliveryPageQueries(
      dbOf(h.deps),
      { accountId: "acc_1", livemode: false },
      { transactionId: "tx_1" },
      50,
      0,
    );
    for (const query of [q.page, q.count]) {
      const { sql, params } = query.toSQL();
      const plan = (
        dbOf(h.deps)
          .$client.query(`EXPLAIN QUERY PLAN ${sql}`)
          .all(...(params as never[])) as { detail: string }[]
      ).map((r) => r.detail);
      expect(plan).toContain("SEARCH webhook_deliveries USING INDEX wd_event_idx (event_id=?)");
      expect(plan).toContain("SEARCH events USING INDEX events_tx_idx (transaction_id=?)");
      expect(plan.join("\n")).not.toMatch(/wd_account_|SCAN webhook_deliveries/);
    }
  });
});
