/**
 * GET /v1/payments?search= (the dashboard's search box): exact id, ch_ id, txid, end-to-end id or customer document.
 */
import { describe, expect, test } from "bun:test";
import { createHarness } from "../support/harness";
import { createPayment, paidPayment } from "./support";

async function setup() {
  const h = createHarness();
  const a = await h.seedAccount();
  const paid = await paidPayment(h, a, 1000, { customerDocument: "529.982.247-25" });
  const other = await createPayment(h, a, { amount: 2000, customerDocument: "11.222.333/0001-81" });
  const charge = (await h.call("GET", `/v1/charges/ch_${paid.id}`, { key: a.testKey })).body;
  const search = async (term: string, key = a.testKey) => {
    const r = await h.call("GET", `/v1/payments?search=${encodeURIComponent(term)}`, { key });
    expect(r.status).toBe(200);
    return { ids: r.body.data.map((p: { id: string }) => p.id), total: r.body.total };
  };
  return { h, a, paid, other, charge, search };
}

describe("payments search", () => {
  test("finds a transaction by its raw id, its ch_ id, its Pix txid and its end-to-end id", async () => {
    const { paid, charge, search } = await setup();
    expect(charge.pix.txid).toMatch(/^[a-zA-Z0-9]{26,35}$/);
    expect(charge.settlement.end_to_end_id).toMatch(/^E/);
    for (const term of [paid.id, `ch_${paid.id}`, charge.pix.txid, charge.settlement.end_to_end_id, ` ${paid.id} `])
      expect(await search(term)).toEqual({ ids: [paid.id], total: 1 });
  });

  test("finds a customer's transactions by document, with or without punctuation", async () => {
    const { paid, other, search } = await setup();
    expect(await search("529.982.247-25")).toEqual({ ids: [paid.id], total: 1 });
    expect(await search("11.222.333/0001-81")).toEqual({ ids: [other.id], total: 1 });
  });

  test("an unknown term finds nothing, and another account's or mode's transaction is never found", async () => {
    const { h, a, paid, search } = await setup();
    const b = await h.seedAccount();
    expect(await search("nothing-like-this")).toEqual({ ids: [], total: 0 });
    expect(await search(paid.id, b.testKey)).toEqual({ ids: [], total: 0 });
    expect(await search(paid.id, a.liveKey)).toEqual({ ids: [], total: 0 });
  });

  test("an empty or over-long search is 400 invalid_request naming search", async () => {
    const { h, a } = await setup();
    for (const term of ["", "   ", "x".repeat(65)]) {
      const r = await h.call("GET", `/v1/payments?search=${encodeURIComponent(term)}`, { key: a.testKey });
      expect(r.status).toBe(400);
      expect(r.body.error).toMatchObject({ code: "invalid_request", param: "search" });
    }
  });
});
