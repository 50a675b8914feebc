/** GET /v1/webhooks/deliveries?transactionId= (the dashboard's payment detail): only that transaction's deliveries. */
import { describe, expect, test } from "bun:test";
import { createHarness } from "../support/harness";
import { createPayment, paidPayment } from "../payments/support";

describe("deliveries of one transaction", () => {
  test("lists exactly the deliveries of the transaction's events, by raw or ch_ id, and none of another account", async () => {
    const h = createHarness();
    h.subscribeAllEvents = true;
    const a = await h.seedAccount();
    const paid = await paidPayment(h, a, 1000);
    const other = await paidPayment(h, a, 2000);
    await createPayment(h, a);
    const all = (await h.call("GET", "/v1/webhooks/deliveries?limit=100", { key: a.testKey })).body.data;
    const expected = all
      .filter((d: any) => JSON.stringify(d.payload).includes(paid.id))
      .map((d: any) => d.id)
      .sort();
    expect(expected.length).toBeGreaterThan(0);
    for (const id of [paid.id, `ch_${paid.id}`]) {
      const r = await h.call("GET", `/v1/webhooks/deliveries?transactionId=${id}`, { key: a.testKey });
      expect(r.status).toBe(200);
      expect(r.body.data.map((d: any) => d.id).sort()).toEqual(expected);
      expect(r.body.total).toBe(expected.length);
      expect(JSON.stringify(r.body.data)).not.toContain(other.id);
    }
    const b = await h.seedAccount();
    expect(
      (await h.call("GET", `/v1/webhooks/deliveries?transactionId=${paid.id}`, { key: b.testKey })).body,
    ).toMatchObject({ data: [], total: 0 });
    expect(
      (await h.call("GET", `/v1/webhooks/deliveries?transactionId=${paid.id}`, { key: a.liveKey })).body,
    ).toMatchObject({ data: [], total: 0 });
  });
});
