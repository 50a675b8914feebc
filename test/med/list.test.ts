/**
 * GET /v1/med/cases (and the alias /v1/infractions): cursor pagination newest first, filters,
 * query validation (400, never ignored), retrieval, account and mode scoping, appeal validation.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import type { SeededAccount } from "../support/harness";
import { CASE_KEYS, medHarness, openMed, paidCharge, seedMerchant, type MedHarness } from "./fixtures";

let h: MedHarness;
let a: SeededAccount;
let other: SeededAccount;
/** Case ids oldest first: [med(open) x3 one minute apart, fraud(accepted), chargeback(closed)]. */
const ids: string[] = [];
const charges: string[] = [];

beforeAll(async () => {
  h = medHarness();
  a = await seedMerchant(h);
  other = await seedMerchant(h);
  for (const type of ["med", "med", "med", "fraud", "chargeback"]) {
    const c = await paidCharge(h, a, 1_000);
    charges.push(c.chargeId);
    const kase = await openMed(h, a, c, { type });
    ids.push(kase.id);
    h.clock.advance(60);
  }
  expect((await h.call("POST", `/v1/med/cases/${ids[3]}/accept`, { key: a.testKey })).status).toBe(200);
  expect(
    (
      await h.call("POST", `/v1/test_helpers/med/cases/${ids[4]}/resolve`, {
        key: a.testKey,
        body: { outcome: "withdrawn" },
      })
    ).status,
  ).toBe(200);
  const oc = await paidCharge(h, other, 1_000);
  await openMed(h, other, oc);
});

const list = (query = "", key = a.testKey, base = "/v1/med/cases") => h.call("GET", `${base}${query}`, { key });
const idsOf = (body: { data: { id: string }[] }) => body.data.map((c) => c.id);

describe("listing", () => {
  test("returns the caller's cases newest first with the list envelope", async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["data", "has_more", "next_cursor", "object"]);
    expect(res.body.object).toBe("list");
    expect(idsOf(res.body)).toEqual([...ids].reverse());
    expect(res.body.has_more).toBe(false);
    expect(res.body.next_cursor).toBeNull();
    expect(Object.keys(res.body.data[0]).sort()).toEqual(CASE_KEYS);
  });

  test("pages with limit and starting_after until has_more is false", async () => {
    const p1 = await list("?limit=2");
    expect(idsOf(p1.body)).toEqual([ids[4], ids[3]]);
    expect(p1.body).toMatchObject({ has_more: true, next_cursor: ids[3] });
    const p2 = await list(`?limit=2&starting_after=${p1.body.next_cursor}`);
    expect(idsOf(p2.body)).toEqual([ids[2], ids[1]]);
    const p3 = await list(`?limit=2&starting_after=${p2.body.next_cursor}`);
    expect(idsOf(p3.body)).toEqual([ids[0]]);
    expect(p3.body).toMatchObject({ has_more: false, next_cursor: null });
  });

  test("filters by status, type, charge_id and exclusive created bounds", async () => {
    expect(idsOf((await list("?status=open")).body)).toEqual([ids[2], ids[1], ids[0]]);
    expect(idsOf((await list("?status=accepted")).body)).toEqual([ids[3]]);
    expect(idsOf((await list("?status=closed&type=chargeback")).body)).toEqual([ids[4]]);
    expect(idsOf((await list("?type=med")).body)).toEqual([ids[2], ids[1], ids[0]]);
    expect(idsOf((await list("?type=dispute")).body)).toEqual([]);
    expect(idsOf((await list(`?charge_id=${charges[1]}`)).body)).toEqual([ids[1]]);
    // Cases were created at 12:00, 12:01, 12:02, 12:03, 12:04; both bounds are exclusive.
    expect(idsOf((await list("?created_after=2026-11-20T12:01:00Z&created_before=2026-11-20T12:04:00Z")).body)).toEqual(
      [ids[3], ids[2]],
    );
    expect(idsOf((await list("?created_after=2026-11-20T09:02:00-03:00")).body)).toEqual([ids[4], ids[3]]);
    expect(idsOf((await list("?created_before=2026-11-20")).body)).toEqual([]);
  });

  test("the alias /v1/infractions serves the same list and routes", async () => {
    const res = await list("?limit=3", a.testKey, "/v1/infractions");
    expect(res.status).toBe(200);
    expect(res.body).toEqual((await list("?limit=3")).body);
    const one = await h.call("GET", `/v1/infractions/${ids[0]}`, { key: a.testKey });
    expect(one.status).toBe(200);
    expect(one.body.id).toBe(ids[0]);
    const ev = await h.call("GET", `/v1/infractions/${ids[0]}/evidence`, { key: a.testKey });
    expect(ev.body).toEqual({ object: "list", data: [] });
  });
});

describe("list query errors", () => {
  const bad: [string, string][] = [
    ["?status=won", "status"],
    ["?status=OPEN", "status"],
    ["?type=pix", "type"],
    ["?limit=0", "limit"],
    ["?limit=101", "limit"],
    ["?limit=abc", "limit"],
    ["?limit=1e1", "limit"],
    ["?limit=", "limit"],
    ["?created_after=yesterday", "created_after"],
    ["?created_after=2026-13-01", "created_after"],
    ["?created_before=2026-02-30T00:00:00Z", "created_before"],
    ["?created_before=2026-11-20T12:00:00", "created_before"],
    ["?created_before=1763640000", "created_before"],
    ["?charge_id=tx_123", "charge_id"],
    ["?starting_after=ch_abc", "starting_after"],
    ["?page=2", "page"],
    ["?offset=10", "offset"],
    ["?status=open&status=closed", "status"],
  ];
  for (const [query, param] of bad) {
    test(`${query} is refused with 400 naming ${param}`, async () => {
      const res = await list(query);
      expect(res.status).toBe(400);
      expect(res.body.error.type).toBe("invalid_request_error");
      expect(res.body.error.param).toBe(param);
    });
  }

  test("starting_after of another account's case is refused, not ignored", async () => {
    const theirs = await list("", other.testKey);
    const res = await list(`?starting_after=${theirs.body.data[0].id}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "invalid_cursor", param: "starting_after" });
  });
});

describe("scoping", () => {
  test("another account sees only its own case and gets 404 for ours", async () => {
    const theirs = await list("", other.testKey);
    expect(theirs.body.data.length).toBe(1);
    expect(ids).not.toContain(theirs.body.data[0].id);
    for (const [method, path, body] of [
      ["GET", `/v1/med/cases/${ids[0]}`],
      ["POST", `/v1/med/cases/${ids[0]}/appeal`, { reason: "not yours" }],
      ["POST", `/v1/med/cases/${ids[0]}/accept`],
      ["GET", `/v1/med/cases/${ids[0]}/evidence`],
      ["POST", `/v1/med/cases/${ids[0]}/evidence`, { file_name: "a.pdf", file_size: 10, mime_type: "application/pdf" }],
      ["POST", `/v1/test_helpers/med/cases/${ids[0]}/resolve`, { outcome: "upheld" }],
      ["POST", `/v1/test_helpers/med/cases/${ids[0]}/request_evidence`],
      ["POST", `/v1/test_helpers/charges/${charges[0]}/med`, {}],
    ] as [string, string, unknown?][]) {
      const res = await h.call(method, path, { key: other.testKey, body });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("not_found");
    }
    expect((await h.call("GET", `/v1/med/cases/${ids[0]}`, { key: a.testKey })).body.status).toBe("open");
  });

  test("the live key of the same account sees none of the sandbox cases", async () => {
    const res = await list("", a.liveKey);
    expect(res.body.data).toEqual([]);
    expect((await h.call("GET", `/v1/med/cases/${ids[0]}`, { key: a.liveKey })).status).toBe(404);
  });

  test("sandbox helpers refuse a live key with 403 test_mode_only", async () => {
    const res = await h.call("POST", `/v1/test_helpers/med/cases/${ids[0]}/resolve`, {
      key: a.liveKey,
      body: { outcome: "upheld" },
    });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("test_mode_only");
  });

  test("MED sandbox helpers refuse a live key with 403 whatever the body, and change nothing", async () => {
    const sent: [string, unknown][] = [
      [`/v1/test_helpers/med/cases/${ids[0]}/resolve`, undefined],
      [`/v1/test_helpers/med/cases/${ids[0]}/resolve`, { outcome: "nope" }],
      [`/v1/test_helpers/charges/ch_${"0".repeat(32)}/med`, { type: "nope" }],
      [`/v1/test_helpers/med/cases/${ids[0]}/request_evidence`, { extra: 1 }],
    ];
    for (const [path, body] of sent) {
      const res = await h.call("POST", path, { key: a.liveKey, body });
      expect([path, res.status, res.body.error?.type, res.body.error?.code]).toEqual([
        path,
        403,
        "permission_error",
        "test_mode_only",
      ]);
    }
    const kase = await h.call("GET", `/v1/med/cases/${ids[0]}`, { key: a.testKey });
    expect([kase.body.status, kase.body.evidence_requested_at]).toEqual(["open", null]);
  });

  test("no key or a wrong key is 401 on every MED route", async () => {
    for (const path of ["/v1/med/cases", `/v1/med/cases/${ids[0]}`, "/v1/infractions"]) {
      expect((await h.call("GET", path)).status).toBe(401);
      expect((await h.call("GET", path, { key: `ak_test_${"x".repeat(32)}` })).status).toBe(401);
    }
  });

  test("an unknown case id is 404", async () => {
    const res = await h.call("GET", "/v1/med/cases/med_00000000000000000000000000000000", { key: a.testKey });
    expect(res.status).toBe(404);
    expect(res.body.error.type).toBe("not_found_error");
  });
});

describe("appeal and opening validation", () => {
  test("reason must be 5-2000 characters and present", async () => {
    const id = ids[0];
    for (const body of [
      { reason: "abcd" },
      { reason: "    abcd   " },
      { reason: "x".repeat(2001) },
      {},
      { reason: 12345 },
      { reason: "valid reason", extra: 1 },
    ]) {
      const res = await h.call("POST", `/v1/med/cases/${id}/appeal`, { key: a.testKey, body });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
    }
    expect((await h.call("GET", `/v1/med/cases/${id}`, { key: a.testKey })).body.status).toBe("open");
    const ok = await h.call("POST", `/v1/med/cases/${id}/appeal`, {
      key: a.testKey,
      body: { reason: "x".repeat(2000) },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.appeal_reason.length).toBe(2000);
  });

  test("a MED cannot open on an unpaid or unknown charge, nor with bad fields", async () => {
    const created = await h.call("POST", "/v1/charges", {
      key: a.testKey,
      headers: { "idempotency-key": "med-unpaid-1" },
      body: { amount: 500, payment_method: "pix" },
    });
    if (created.status === 201) {
      const res = await h.call("POST", `/v1/test_helpers/charges/${created.body.id}/med`, { key: a.testKey, body: {} });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("invalid_state");
    }
    const unknown = await h.call("POST", "/v1/test_helpers/charges/ch_00000000000000000000000000000000/med", {
      key: a.testKey,
      body: {},
    });
    expect(unknown.status).toBe(404);
    const c = await paidCharge(h, a, 1_000);
    for (const [body, param] of [
      [{ amount: "1000" }, "amount"],
      [{ amount: 0 }, "amount"],
      [{ type: "pix" }, "type"],
      [{ response_deadline: "tomorrow" }, "response_deadline"],
      [{ response_deadline: "2020-01-01T00:00:00Z" }, "response_deadline"],
      [{ colour: "red" }, "colour"],
    ] as [Record<string, unknown>, string][]) {
      const res = await h.call("POST", `/v1/test_helpers/charges/${c.chargeId}/med`, { key: a.testKey, body });
      expect(res.status).toBe(400);
      expect(res.body.error.param).toBe(param);
    }
  });
});
