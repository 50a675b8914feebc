import { describe, expect, test } from "bun:test";
import { CHARGE_FIELDS, CPF, CPF_2, harness, newCharge } from "./support";

async function seeded() {
  const h = harness();
  const a = await h.seedAccount();
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) {
    const c = await newCharge(h, a, { amount: 100 + i, customer: { name: "P", document: i % 2 ? CPF : CPF_2 } });
    ids.push(c.id);
    h.clock.advance(60);
  }
  return { h, a, ids };
}

describe("GET /v1/charges", () => {
  test("returns the charge list object newest first with exact charge fields", async () => {
    const { h, a, ids } = await seeded();
    const r = await h.call("GET", "/v1/charges", { key: a.testKey });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(["data", "has_more", "next_cursor", "object"]);
    expect(r.body.object).toBe("list");
    expect(r.body.data.map((c: any) => c.id)).toEqual([...ids].reverse());
    expect(Object.keys(r.body.data[0]).sort()).toEqual(CHARGE_FIELDS);
    expect(r.body.has_more).toBe(false);
    expect(r.body.next_cursor).toBeNull();
  });

  test("paginates with limit and starting_after until has_more is false", async () => {
    const { h, a, ids } = await seeded();
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 5; page++) {
      const q: string = cursor ? `?limit=2&starting_after=${cursor}` : "?limit=2";
      const r = await h.call("GET", `/v1/charges${q}`, { key: a.testKey });
      expect(r.status).toBe(200);
      seen.push(...r.body.data.map((c: any) => c.id));
      if (!r.body.has_more) {
        expect(r.body.next_cursor).toBeNull();
        break;
      }
      expect(r.body.next_cursor).toBe(r.body.data[1].id);
      cursor = r.body.next_cursor;
    }
    expect(seen).toEqual([...ids].reverse());
  });

  test("filters by status, inclusive created_after/created_before and customer_id (payer document)", async () => {
    const { h, a, ids } = await seeded();
    await h.call("POST", `/v1/test_helpers/charges/${ids[0]}/pay`, { key: a.testKey, body: {} });
    const paid = await h.call("GET", "/v1/charges?status=paid", { key: a.testKey });
    expect(paid.body.data.map((c: any) => c.id)).toEqual([ids[0]]);
    const pending = await h.call("GET", "/v1/charges?status=pending", { key: a.testKey });
    expect(pending.body.data).toHaveLength(4);
    const window = await h.call(
      "GET",
      "/v1/charges?created_after=2026-11-20T12:01:00.000Z&created_before=2026-11-20T12:03:00.000Z",
      { key: a.testKey },
    );
    expect(window.body.data.map((c: any) => c.id)).toEqual([ids[3], ids[2], ids[1]]);
    const byDoc = await h.call("GET", "/v1/charges?customer_id=529.982.247-25", { key: a.testKey });
    expect(byDoc.body.data.map((c: any) => c.id)).toEqual([ids[3], ids[1]]);
  });

  test("a bare date in created_before includes that whole day, like endDate of the payments list", async () => {
    const { h, a, ids } = await seeded();
    const day = await h.call("GET", "/v1/charges?created_after=2026-11-20&created_before=2026-11-20", {
      key: a.testKey,
    });
    expect(day.status).toBe(200);
    expect(day.body.data.map((c: any) => c.id)).toEqual([...ids].reverse());
    const before = await h.call("GET", "/v1/charges?created_before=2026-11-19", { key: a.testKey });
    expect(before.body.data).toEqual([]);
  });

  test("page, offset, unknown parameters and bad values -> 400", async () => {
    const { h, a } = await seeded();
    for (const q of [
      "page=2",
      "offset=10",
      "limit=0",
      "limit=101",
      "limit=abc",
      "status=PAID",
      "status=bogus",
      "created_after=yesterday",
      "sort=asc",
      "limit=2&limit=3",
    ]) {
      const r = await h.call("GET", `/v1/charges?${q}`, { key: a.testKey });
      expect(r.status).toBe(400);
      expect(r.body.error.type).toBe("invalid_request_error");
    }
  });

  test("a cursor that is not one of the caller's charges -> 400, and other accounts or modes see nothing", async () => {
    const { h, a, ids } = await seeded();
    const b = await h.seedAccount();
    const foreign = await h.call("GET", `/v1/charges?starting_after=${ids[0]}`, { key: b.testKey });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.code).toBe("invalid_cursor");
    expect((await h.call("GET", "/v1/charges", { key: b.testKey })).body.data).toEqual([]);
    expect((await h.call("GET", "/v1/charges", { key: a.liveKey })).body.data).toEqual([]);
    expect((await h.call("GET", "/v1/charges")).status).toBe(401);
  });
});
