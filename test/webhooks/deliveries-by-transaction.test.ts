/** GET /v1/webhooks/deliveries?transactionId= (the dashboard's payment detail): only that transaction's deliveries. */
import { describe, expect, test } from "bun:test";
import { createHarness } from "../support/harness";
import { createPayment, paidPayment } from "../payments/support";
import { deliveryPageQueries } from "../../src/store/sqlite/webhooks-deliveries";
import { dbOf } from "../support/db";

describe("deliveries of one transaction", () => {
  test("lists exactly the deliveries of the transaction's events, by raw or ch_ id, and none of another account", async () => {
    const h = createHarness();
    h.subscribeAllEvents = true;
    const a = await h.seedAccount();
    const paid = await paidPayment(h, a, 1000);
    const other = await paidPayment(h, a, 2000);
    await createPayment(h, a);
    const all = (await h.call("GET", "/v1/webhooks/deliveries?limit=100", { key: a.testKey })).body.data;
    const expected = all.filter((d: any) => JSON.stringify(d.payload).includes(paid.id)).map((d: any) => d.id).sort();
    expect(expected.length).toBeGreaterThan(0);
    for (const id of [paid.id, `ch_${paid.id}`]) {
      const r = await h.call("GET", `/v1/webhooks/deliveries?transactionId=${id}`, { key: a.testKey });
      expect(r.status).toBe(200);
      expect(r.body.data.map((d: any) => d.id).sort()).toEqual(expected);
      expect(r.body.total).toBe(expected.length);
      expect(JSON.stringify(r.body.data)).not.toContain(other.id);
    }
    const b = await h.seedAccount();
    expect((await h.call("GET", `/v1/webhooks/deliveries?transactionId=${paid.id}`, { key: b.testKey })).body).toMatchObject({ data: [], total: 0 });
    expect((await h.call("GET", `/v1/webhooks/deliveries?transactionId=${paid.id}`, { key: a.liveKey })).body).toMatchObject({ data: [], total: 0 });
  });
});

describe("the query plan of the transaction filter", () => {
  test("reads the transaction's events through events_tx_idx and their deliveries through wd_event_idx, never scanning the mode's deliveries", () => {
    const h = createHarness();
    const q = deliveryPageQueries(dbOf(h.deps), { accountId: "acc_1", livemode: false }, { transactionId: "tx_1" }, 50, 0);
    for (const query of [q.page, q.count]) {
      const { sql, params } = query.toSQL();
      const plan = (dbOf(h.deps).$client.query(`EXPLAIN QUERY PLAN ${sql}`).all(...(params as never[])) as { detail: string }[]).map((r) => r.detail);
      expect(plan).toContain("SEARCH webhook_deliveries USING INDEX wd_event_idx (event_id=?)");
      expect(plan).toContain("SEARCH events USING INDEX events_tx_idx (transaction_id=?)");
      expect(plan.join("\n")).not.toMatch(/wd_account_|SCAN webhook_deliveries/);
    }
  });
});
