/**
 * Payouts in the sandbox (extensions.md "Payouts (money out)"): `amount + fee` leaves `available`
 * at creation, the sandbox settles 10 s after the send on the test clock, failed and cancelled
 * payouts give the money back, refusals write nothing, and the ledger stays balanced.
 */
import { describe, expect, test } from "bun:test";
import { verifyLedger } from "../../src/domain/ledger";
import { testDb } from "../support/test-db";
import { PAYOUT_FIELDS, available, destination, eventTypes, fund, idem, payout, setup } from "./support";

/** Rows a refused create must not leave behind. */
async function counts(h: Parameters<typeof fund>[0], accountId: string) {
  const db = testDb(h.deps);
  const one = async (sql: string) => Object.values((await db.all<Record<string, number>>(sql, accountId))[0]!)[0];
  return {
    payouts: await one("select count(*) as n from payouts where account_id = ?"),
    entries: await one("select count(*) as n from ledger_entries where account_id = ?"),
    events: await one(
      "select count(*) as n from events where account_id = ? and (type like 'payout.%' or type like 'withdrawal.%')",
    ),
  };
}

describe("a sandbox payout, start to end", () => {
  test("available drops by amount + fee at once; the send goes processing, and 10 s on the test clock later paid", async () => {
    const { h, a } = await setup({ payoutFeeFixed: 90 });
    await fund(h, a, 10_000);
    const d = await destination(h, a);
    const r = await payout(h, a.testKey, {
      amount: 2_500,
      destination_id: d.id,
      description: "Saque",
      metadata: { ref: "w47" },
    });
    expect(r.status).toBe(201);
    expect(Object.keys(r.body).sort()).toEqual(PAYOUT_FIELDS);
    expect(r.body).toEqual({
      id: r.body.id,
      object: "payout",
      amount: 2_500,
      fee: 90,
      currency: "BRL",
      status: "pending",
      destination: d,
      description: "Saque",
      metadata: { ref: "w47" },
      end_to_end_id: null,
      failure_code: null,
      failure_message: null,
      livemode: false,
      created_at: "2026-11-20T12:00:00.000Z",
      paid_at: null,
      failed_at: null,
      cancelled_at: null,
    });
    expect(r.body.id).toMatch(/^po_[0-9a-f]{32}$/);
    expect(await available(h, a.testKey)).toBe(10_000 - 2_590);
    expect(await available(h, a.liveKey)).toBe(0);

    await h.deps.jobs.drain();
    const sent = (await h.call("GET", `/v1/payouts/${r.body.id}`, { key: a.testKey })).body;
    expect(sent.status).toBe("processing");
    expect(sent.end_to_end_id).toMatch(/^E\d{8}\d{12}[a-zA-Z0-9]{11}$/);

    h.clock.advance(9);
    await h.deps.jobs.drain();
    expect((await h.call("GET", `/v1/payouts/${r.body.id}`, { key: a.testKey })).body.status).toBe("processing");
    h.clock.advance(1);
    await h.deps.jobs.drain();
    const paid = (await h.call("GET", `/v1/payouts/${r.body.id}`, { key: a.testKey })).body;
    expect(paid).toEqual({ ...sent, status: "paid", paid_at: "2026-11-20T12:00:10.000Z" });
    expect(await available(h, a.testKey)).toBe(7_410);
    expect(await eventTypes(h, r.body.id)).toEqual([
      "payout.created",
      "withdrawal.created",
      "withdrawal.status_changed",
      "payout.paid",
      "withdrawal.completed",
      "withdrawal.status_changed",
    ]);
    expect((await verifyLedger(h.deps.store.read)).mismatches).toEqual([]);
  });

  test("the payout of another account, or of the other mode, is 404 on get and cancel", async () => {
    const { h, a } = await setup();
    const { a: b } = await setup({}, h);
    await fund(h, a, 1_000);
    const po = (await payout(h, a.testKey, { amount: 100, destination_id: (await destination(h, a)).id })).body;
    for (const key of [b.testKey, a.liveKey]) {
      expect((await h.call("GET", `/v1/payouts/${po.id}`, { key })).status).toBe(404);
      expect((await h.call("POST", `/v1/payouts/${po.id}/cancel`, { key, body: {} })).status).toBe(404);
    }
  });
});

describe("refusals write nothing", () => {
  test("amount + fee above available is 400 insufficient_balance, and no payout, entry or event is written", async () => {
    const { h, a } = await setup({ payoutFeeFixed: 1 });
    await fund(h, a, 1_000);
    const d = await destination(h, a);
    const before = await counts(h, a.accountId);
    const r = await payout(h, a.testKey, { amount: 1_000, destination_id: d.id });
    expect([r.status, r.body.error.type, r.body.error.code]).toEqual([
      400,
      "invalid_request_error",
      "insufficient_balance",
    ]);
    expect(await counts(h, a.accountId)).toEqual(before);
    expect(await available(h, a.testKey)).toBe(1_000);
    expect((await payout(h, a.testKey, { amount: 999, destination_id: d.id })).status).toBe(201);
    expect(await available(h, a.testKey)).toBe(0);
  });

  test("another account's destination, or a removed one, is 404 and debits nothing", async () => {
    const { h, a } = await setup();
    const { a: b } = await setup({}, h);
    await fund(h, a, 1_000);
    const theirs = await destination(h, b);
    const mine = await destination(h, a);
    await h.call("DELETE", `/v1/payout_destinations/${mine.id}`, { bearer: a.token });
    for (const id of [theirs.id, mine.id, "pd_unknown"]) {
      const r = await payout(h, a.testKey, { amount: 100, destination_id: id });
      expect([r.status, r.body.error.code]).toEqual([404, "not_found"]);
    }
    expect(await available(h, a.testKey)).toBe(1_000);
  });

  test("the daily limit counts today's payouts (São Paulo day) that did not fail; the next day starts again", async () => {
    // 12:00Z is 09:00 in São Paulo; 03:00Z the next day is its midnight.
    const { h, a } = await setup({ payoutDailyLimit: 1_000 });
    await fund(h, a, 10_000);
    const d = await destination(h, a);
    expect((await payout(h, a.testKey, { amount: 600, destination_id: d.id })).status).toBe(201);
    const failed = (await payout(h, a.testKey, { amount: 400, destination_id: d.id })).body;
    const over = await payout(h, a.testKey, { amount: 1, destination_id: d.id });
    expect([over.status, over.body.error.code, over.body.error.param]).toEqual([
      400,
      "payout_limit_exceeded",
      "amount",
    ]);
    expect(await available(h, a.testKey)).toBe(9_000);
    await h.call("POST", `/v1/test_helpers/payouts/${failed.id}/fail`, { key: a.testKey, body: {} });
    expect((await payout(h, a.testKey, { amount: 400, destination_id: d.id })).status).toBe(201);
    expect((await payout(h, a.testKey, { amount: 1, destination_id: d.id })).status).toBe(400);
    h.clock.advance(15 * 3600 - 1); // 02:59:59Z: still the same São Paulo day
    expect((await payout(h, a.testKey, { amount: 1, destination_id: d.id })).status).toBe(400);
    h.clock.advance(1);
    expect((await payout(h, a.testKey, { amount: 1_000, destination_id: d.id })).status).toBe(201);
  });

  test("a live key without a connection that can send Pix is 422 unprocessable_entity", async () => {
    const { h, a } = await setup();
    await fund(h, a, 1_000, true);
    const r = await payout(h, a.liveKey, { amount: 100, destination_id: (await destination(h, a)).id });
    expect([r.status, r.body.error.code]).toEqual([422, "unprocessable_entity"]);
    expect(await available(h, a.liveKey)).toBe(1_000);
  });

  test("bad bodies are 400 naming the field; a missing Idempotency-Key is 400", async () => {
    const { h, a } = await setup();
    const d = await destination(h, a);
    for (const [body, param] of [
      [{ amount: 0, destination_id: d.id }, "amount"],
      [{ amount: "100", destination_id: d.id }, "amount"],
      [{ amount: 1.5, destination_id: d.id }, "amount"],
      [{ amount: 100 }, "destination_id"],
      [{ amount: 100, destination_id: d.id, description: "x".repeat(141) }, "description"],
      [{ amount: 100, destination_id: d.id, currency: "BRL" }, "currency"],
    ] as const) {
      const r = await payout(h, a.testKey, body);
      expect([r.status, r.body.error.param]).toEqual([400, param]);
    }
    const r = await h.call("POST", "/v1/payouts", { key: a.testKey, body: { amount: 100, destination_id: d.id } });
    expect([r.status, r.body.error.code]).toEqual([400, "idempotency_key_missing"]);
  });
});

describe("cancel, delay and the test helpers", () => {
  test("with a delay the payout waits pending; cancel gives amount + fee back and nothing is sent", async () => {
    const { h, a } = await setup({ payoutDelaySeconds: 3600, payoutFeeFixed: 50 });
    await fund(h, a, 5_000);
    const po = (await payout(h, a.testKey, { amount: 1_000, destination_id: (await destination(h, a)).id })).body;
    h.clock.advance(3599);
    await h.deps.jobs.drain();
    expect((await h.call("GET", `/v1/payouts/${po.id}`, { key: a.testKey })).body.status).toBe("pending");
    expect(await available(h, a.testKey)).toBe(3_950);
    const c = await h.call("POST", `/v1/payouts/${po.id}/cancel`, { key: a.testKey, body: {} });
    expect(c.status).toBe(200);
    expect(c.body).toMatchObject({
      status: "cancelled",
      cancelled_at: "2026-11-20T12:59:59.000Z",
      paid_at: null,
      failed_at: null,
    });
    expect(await available(h, a.testKey)).toBe(5_000);
    h.clock.advance(3600);
    await h.deps.jobs.drain();
    expect((await h.call("GET", `/v1/payouts/${po.id}`, { key: a.testKey })).body.status).toBe("cancelled");
    const again = await h.call("POST", `/v1/payouts/${po.id}/cancel`, { key: a.testKey, body: {} });
    expect([again.status, again.body.error.code]).toEqual([400, "invalid_state"]);
    expect((await verifyLedger(h.deps.store.read)).mismatches).toEqual([]);
  });

  test("once sent (processing) a payout cannot be cancelled", async () => {
    const { h, a } = await setup();
    await fund(h, a, 1_000);
    const po = (await payout(h, a.testKey, { amount: 100, destination_id: (await destination(h, a)).id })).body;
    await h.deps.jobs.drain();
    const r = await h.call("POST", `/v1/payouts/${po.id}/cancel`, { key: a.testKey, body: {} });
    expect([r.status, r.body.error.code]).toEqual([400, "invalid_state"]);
  });

  test("the fail helper fails a processing payout with its code and restores the balance; final payouts refuse both helpers", async () => {
    const { h, a } = await setup({ payoutFeeFixed: 10 });
    await fund(h, a, 1_000);
    const po = (await payout(h, a.testKey, { amount: 500, destination_id: (await destination(h, a)).id })).body;
    await h.deps.jobs.drain();
    expect(await available(h, a.testKey)).toBe(490);
    const f = await h.call("POST", `/v1/test_helpers/payouts/${po.id}/fail`, {
      key: a.testKey,
      body: { failure_code: "account_closed" },
    });
    expect(f.status).toBe(200);
    expect(f.body).toMatchObject({
      status: "failed",
      failure_code: "account_closed",
      failed_at: "2026-11-20T12:00:00.000Z",
      paid_at: null,
    });
    expect(typeof f.body.failure_message).toBe("string");
    expect(await available(h, a.testKey)).toBe(1_000);
    for (const helper of ["pay", "fail"]) {
      const r = await h.call("POST", `/v1/test_helpers/payouts/${po.id}/${helper}`, { key: a.testKey, body: {} });
      expect([r.status, r.body.error.code]).toEqual([400, "invalid_state"]);
    }
    h.clock.advance(60);
    await h.deps.jobs.drain();
    expect(await available(h, a.testKey)).toBe(1_000);
    expect((await verifyLedger(h.deps.store.read)).mismatches).toEqual([]);
  });

  test("the pay helper pays a pending payout at once with a 32-character end-to-end id; a live key is 403 test_mode_only", async () => {
    const { h, a } = await setup({ payoutDelaySeconds: 600 });
    await fund(h, a, 1_000);
    const po = (await payout(h, a.testKey, { amount: 300, destination_id: (await destination(h, a)).id })).body;
    const live = await h.call("POST", `/v1/test_helpers/payouts/${po.id}/pay`, { key: a.liveKey, body: {} });
    expect([live.status, live.body.error.code]).toEqual([403, "test_mode_only"]);
    const p = await h.call("POST", `/v1/test_helpers/payouts/${po.id}/pay`, { key: a.testKey, body: {} });
    expect(p.status).toBe(200);
    expect(p.body.status).toBe("paid");
    expect(p.body.end_to_end_id).toHaveLength(32);
    expect(await available(h, a.testKey)).toBe(700);
  });
});

describe("idempotency and listing", () => {
  test("the same key and body replays the payout (debited once); the same key with another body is 409", async () => {
    const { h, a } = await setup();
    await fund(h, a, 1_000);
    const d = await destination(h, a);
    const key = idem();
    const first = await payout(h, a.testKey, { amount: 400, destination_id: d.id }, key);
    const replay = await payout(h, a.testKey, { amount: 400, destination_id: d.id }, key);
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual(first.body);
    expect(await available(h, a.testKey)).toBe(600);
    const other = await payout(h, a.testKey, { amount: 401, destination_id: d.id }, key);
    expect([other.status, other.body.error.code]).toEqual([409, "idempotency_key_reused"]);
    expect(await available(h, a.testKey)).toBe(600);
  });

  test("the list pages newest first with starting_after and filters by status; unknown parameters are 400", async () => {
    const { h, a } = await setup();
    await fund(h, a, 10_000);
    const d = await destination(h, a);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await payout(h, a.testKey, { amount: 100 + i, destination_id: d.id })).body.id);
      h.clock.advance(1);
    }
    await h.call("POST", `/v1/payouts/${ids[1]}/cancel`, { key: a.testKey, body: {} });
    const p1 = await h.call("GET", "/v1/payouts?limit=2", { key: a.testKey });
    expect(Object.keys(p1.body).sort()).toEqual(["data", "has_more", "next_cursor", "object"]);
    expect(p1.body.data.map((p: { id: string }) => p.id)).toEqual([ids[2], ids[1]]);
    expect([p1.body.has_more, p1.body.next_cursor]).toEqual([true, ids[1]]);
    const p2 = await h.call("GET", `/v1/payouts?limit=2&starting_after=${ids[1]}`, { key: a.testKey });
    expect(p2.body).toMatchObject({ has_more: false, next_cursor: null });
    expect(p2.body.data.map((p: { id: string }) => p.id)).toEqual([ids[0]]);
    const cancelled = await h.call("GET", "/v1/payouts?status=cancelled", { key: a.testKey });
    expect(cancelled.body.data.map((p: { id: string }) => p.id)).toEqual([ids[1]]);
    expect((await h.call("GET", "/v1/payouts", { key: a.liveKey })).body.data).toEqual([]);
    for (const q of ["page=2", "status=done", "limit=0", "starting_after=po_nope", "created_after=yesterday"])
      expect((await h.call("GET", `/v1/payouts?${q}`, { key: a.testKey })).status).toBe(400);
  });
});
